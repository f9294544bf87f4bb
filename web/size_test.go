package web_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"pgoutput-inspector/internal/browsertest"
)

// The page's size budget (docs/performance.md, "WASM size"), in bytes: main.wasm as built by
// ./build.sh wasm, raw and gzipped. The test compresses with compress/gzip's BestCompression,
// which comes out about 10 KB larger than gzip -9 (what build.sh prints) and close to what the
// server sends: it errs on the strict side.
const (
	wasmBudgetRaw  = 3_500_000
	wasmBudgetGzip = 1_000_000
)

// TestWASMSizeBudget fails when the built main.wasm is over its size budget. It checks the page
// the browser tests serve ($INSPECTOR_STATIC_DIR, or a build of the current source).
func TestWASMSizeBudget(t *testing.T) {
	if testing.Short() && os.Getenv(browsertest.StaticDirEnv) == "" {
		t.Skip("needs the built page: set " + browsertest.StaticDirEnv + " or run without -short")
	}
	path := filepath.Join(browsertest.StaticDir(t), "main.wasm")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %s bytes raw (budget %s), %s bytes gzipped (budget %s)", path,
		commas(len(raw)), commas(wasmBudgetRaw), commas(gz.Len()), commas(wasmBudgetGzip))
	if len(raw) > wasmBudgetRaw {
		t.Errorf("main.wasm is %s bytes raw, %s over the budget of %s (see docs/performance.md, WASM size)",
			commas(len(raw)), commas(len(raw)-wasmBudgetRaw), commas(wasmBudgetRaw))
	}
	if gz.Len() > wasmBudgetGzip {
		t.Errorf("main.wasm is %s bytes gzipped (BestCompression), %s over the budget of %s (see docs/performance.md, WASM size)",
			commas(gz.Len()), commas(gz.Len()-wasmBudgetGzip), commas(wasmBudgetGzip))
	}
}

// commas writes n with thousands separators, as docs/performance.md gives sizes.
func commas(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
