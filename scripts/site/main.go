// Command site finishes a directory of the built page (./build.sh runs it after building
// main.wasm into it):
//
//   - NAME.br and NAME.gz beside every text and WebAssembly file (package precompress), which
//     the inspector server sends, and so can static hosts that look for them;
//   - with -meta-csp, the Content-Security-Policy as a <meta> element in index.html, for hosts
//     that cannot send headers (./build.sh dist);
//   - with -meta-size, main.wasm's size before compression as a <meta> element in index.html
//     (inspectorserver.WASMSizeName), which boot.js shows the download's progress against; the
//     inspector server writes it into the page it sends, a static host cannot (./build.sh dist);
//   - sw.js, the page's service worker, with the build's identity and files (package offline),
//     written after index.html's last change and before the compressed copies.
//
// It prints the sizes of main.wasm and export.wasm: raw, brotli and gzip.
//
// Usage:
//
//	go run ./scripts/site [-meta-csp] [-meta-size] DIR
package main

import (
	"bytes"
	"flag"
	"fmt"
	"html"
	"os"
	"path/filepath"

	"pgoutput-inspector/internal/inspectorserver"
	"pgoutput-inspector/internal/offline"
	"pgoutput-inspector/internal/precompress"
)

func main() {
	metaCSP := flag.Bool("meta-csp", false, "write the Content-Security-Policy into index.html as a <meta> element")
	metaSize := flag.Bool("meta-size", false, "write main.wasm's size into index.html as a <meta> element")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: site [-meta-csp] [-meta-size] DIR\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *metaCSP, *metaSize); err != nil {
		fmt.Fprintln(os.Stderr, "site:", err)
		os.Exit(1)
	}
}

func run(dir string, metaCSP, metaSize bool) error {
	index := filepath.Join(dir, "index.html")
	if metaCSP {
		if err := insertMetaCSP(index); err != nil {
			return err
		}
	}
	if metaSize {
		wasm, err := os.Stat(filepath.Join(dir, "main.wasm"))
		if err != nil {
			return err
		}
		if err := insertMetaSize(index, wasm.Size()); err != nil {
			return err
		}
	}
	id, err := offline.Write(dir)
	if err != nil {
		return err
	}
	fmt.Printf("%s: build %s\n", filepath.Join(dir, offline.WorkerName), id)
	all, err := precompress.Dir(dir)
	if err != nil {
		return err
	}
	for _, s := range all {
		if b := filepath.Base(s.Name); b == "main.wasm" || b == "export.wasm" {
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
	if bytes.Contains(page, []byte(`http-equiv="Content-Security-Policy"`)) {
		return fmt.Errorf("%s has a Content-Security-Policy <meta> element already", path)
	}
	meta := `<meta http-equiv="Content-Security-Policy" content="` + html.EscapeString(inspectorserver.MetaContentSecurityPolicy) + `">`
	return insertMeta(path, page, meta)
}

// insertMetaSize puts main.wasm's size into index.html (before boot.js, which reads it).
func insertMetaSize(path string, size int64) error {
	page, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if inspectorserver.HasWASMSize(page) {
		return fmt.Errorf("%s gives main.wasm's size already", path)
	}
	return insertMeta(path, page, inspectorserver.WASMSizeMeta(size))
}

// insertMeta writes the page with the element after its <meta charset> to path.
func insertMeta(path string, page []byte, element string) error {
	out, err := inspectorserver.InsertMeta(page, element)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return os.WriteFile(path, out, 0o644)
}
