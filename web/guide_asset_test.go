package web_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/internal/guide"
)

// TestGuideAsset: the built page has the field guide's asset beside main.wasm, it reads back
// whole, and main.wasm carries none of the guide's prose (only the field table's meanings,
// which the hover help shows), so the guide costs the page nothing until it is opened.
func TestGuideAsset(t *testing.T) {
	if testing.Short() && os.Getenv(browsertest.StaticDirEnv) == "" {
		t.Skip("needs the built page: set " + browsertest.StaticDirEnv + " or run without -short")
	}
	dir := browsertest.StaticDir(t)
	asset, err := os.ReadFile(filepath.Join(dir, "guide.txt"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := guide.Read(asset)
	if err != nil {
		t.Fatal(err)
	}
	want := guide.Data()
	if len(g.Entries) != len(want.Entries) {
		t.Fatalf("the asset has %d entries, the guide %d", len(g.Entries), len(want.Entries))
	}
	wasm, err := os.ReadFile(filepath.Join(dir, "main.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	if m := decoder.FieldBeginFinalLSN.Info().Meaning; !bytes.Contains(wasm, []byte(m)) {
		t.Fatalf("main.wasm lacks the field table's meaning %q: this test cannot see strings in it", m)
	}
	for _, e := range want.Entries {
		for _, s := range append([]string{e.Purpose}, e.Rules...) {
			if bytes.Contains(wasm, []byte(s)) {
				t.Errorf("main.wasm contains the guide's text %q (%s): the page must read the guide from its asset", s, e.ID)
			}
		}
	}
}
