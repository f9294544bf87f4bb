// Command guideview writes the field guide's view asset: the HTML of every guide page,
// rendered from the guide asset (package web/guideview). ./build.sh wasm runs it after
// scripts/guide:
//
//	go run ./scripts/guideview DIR    # reads DIR/guide.txt and DIR/examples.txt, writes DIR/guideview.txt
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"pgoutput-inspector/web"
	"pgoutput-inspector/web/guideview"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: guideview DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	asset, err := os.ReadFile(filepath.Join(dir, "guide.txt"))
	var examples []byte
	if err == nil {
		examples, err = os.ReadFile(filepath.Join(dir, web.ExamplesAsset))
	}
	var menu []web.Example
	if err == nil {
		menu, err = web.ReadExamples(string(examples))
	}
	if err == nil {
		var view []byte
		if view, err = guideview.Render(asset, menu); err == nil {
			err = os.WriteFile(filepath.Join(dir, web.GuideViewAsset), view, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "guideview:", err)
		os.Exit(1)
	}
}
