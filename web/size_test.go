package web_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/internal/precompress"
)

// The page's size budget (docs/performance.md, "WASM size"), in bytes: main.wasm as built by
// ./build.sh wasm, raw and as served with brotli (the main.wasm.br the build writes beside it).
// gzip, for clients without brotli, is logged.
const (
	wasmBudgetRaw    = 4_500_000
	wasmBudgetBrotli = 900_000
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
	br := compressed(t, path, precompress.BrotliSuffix, precompress.Brotli)
	gz := compressed(t, path, precompress.GzipSuffix, precompress.Gzip)
	t.Logf("%s: %s bytes raw (budget %s), %s bytes brotli (budget %s), %s bytes gzip", path,
		commas(len(raw)), commas(wasmBudgetRaw), commas(br), commas(wasmBudgetBrotli), commas(gz))
	if len(raw) > wasmBudgetRaw {
		t.Errorf("main.wasm is %s bytes raw, %s over the budget of %s (see docs/performance.md, WASM size)",
			commas(len(raw)), commas(len(raw)-wasmBudgetRaw), commas(wasmBudgetRaw))
	}
	if br > wasmBudgetBrotli {
		t.Errorf("main.wasm is %s bytes with brotli, %s over the budget of %s (see docs/performance.md, WASM size)",
			commas(br), commas(br-wasmBudgetBrotli), commas(wasmBudgetBrotli))
	}
}

// compressed returns the size of the compressed copy of path that the build wrote (path plus
// suffix), or, when there is none for this main.wasm, of compress's output.
func compressed(t *testing.T, path, suffix string, compress func([]byte) []byte) int {
	t.Helper()
	orig, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := os.Stat(path + suffix); err == nil && precompress.Fresh(orig, c) {
		return int(c.Size())
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return len(compress(raw))
}

// commas writes n with thousands separators, as docs/performance.md gives sizes.
func commas(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
