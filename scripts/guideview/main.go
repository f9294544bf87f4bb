// Command guideview writes the field guide's view asset: the HTML of every guide page,
// rendered from the guide asset (package internal/guideview). ./build.sh wasm runs it after
// scripts/guide:
//
//	go run ./scripts/guideview DIR    # reads DIR/guide.txt, writes DIR/guideview.txt
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"pgoutput-inspector/internal/guideview"
	"pgoutput-inspector/web"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: guideview DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	asset, err := os.ReadFile(filepath.Join(dir, "guide.txt"))
	if err == nil {
		var view []byte
		if view, err = guideview.Render(asset); err == nil {
			err = os.WriteFile(filepath.Join(dir, web.GuideViewAsset), view, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "guideview:", err)
		os.Exit(1)
	}
}
