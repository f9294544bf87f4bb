// Command site finishes a directory of the built page (./build.sh runs it after building
// main.wasm into it):
//
//   - sizes.json: the size of main.wasm before compression, which boot.js shows download
//     progress against (with Content-Encoding, Content-Length counts compressed bytes while
//     the browser hands over decompressed ones);
//   - NAME.br and NAME.gz beside every text and WebAssembly file (package precompress), which
//     the inspector server sends, and so can static hosts that look for them;
//   - with -meta-csp, the Content-Security-Policy as a <meta> element in index.html, for hosts
//     that cannot send headers (./build.sh dist).
//
// It prints the sizes of main.wasm: raw, brotli and gzip.
//
// Usage:
//
//	go run ./scripts/site [-meta-csp] DIR
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"html"
	"os"
	"path/filepath"

	"pgoutput-inspector/internal/inspectorserver"
	"pgoutput-inspector/internal/precompress"
)

func main() {
	metaCSP := flag.Bool("meta-csp", false, "write the Content-Security-Policy into index.html as a <meta> element")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: site [-meta-csp] DIR\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *metaCSP); err != nil {
		fmt.Fprintln(os.Stderr, "site:", err)
		os.Exit(1)
	}
}

func run(dir string, metaCSP bool) error {
	if metaCSP {
		if err := insertMetaCSP(filepath.Join(dir, "index.html")); err != nil {
			return err
		}
	}
	wasm, err := os.Stat(filepath.Join(dir, "main.wasm"))
	if err != nil {
		return err
	}
	sizes, err := json.Marshal(map[string]int64{"main.wasm": wasm.Size()})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "sizes.json"), append(sizes, '\n'), 0o644); err != nil {
		return err
	}
	all, err := precompress.Dir(dir)
	if err != nil {
		return err
	}
	for _, s := range all {
		if filepath.Base(s.Name) == "main.wasm" {
			fmt.Printf("%s: %d bytes (%.2f MB) raw, %d bytes (%.2f MB) brotli, %d bytes (%.2f MB) gzip\n",
				s.Name, s.Raw, float64(s.Raw)/1e6, s.Brotli, float64(s.Brotli)/1e6, s.Gzip, float64(s.Gzip)/1e6)
		}
	}
	return nil
}

// insertMetaCSP puts the policy into index.html right after its <meta charset> (the policy
// must come before the first script or style sheet it governs).
func insertMetaCSP(path string) error {
	page, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	meta := []byte(`<meta http-equiv="Content-Security-Policy" content="` + html.EscapeString(inspectorserver.MetaContentSecurityPolicy) + `">`)
	if bytes.Contains(page, []byte(`http-equiv="Content-Security-Policy"`)) {
		return fmt.Errorf("%s has a Content-Security-Policy <meta> element already", path)
	}
	anchor := []byte(`<meta charset="utf-8">`)
	at := bytes.Index(page, anchor)
	if at < 0 {
		return errors.New(path + ` has no <meta charset="utf-8"> to put the Content-Security-Policy after`)
	}
	at += len(anchor)
	out := append(append(append(append([]byte(nil), page[:at]...), '\n'), meta...), page[at:]...)
	return os.WriteFile(path, out, 0o644)
}
