package precompress

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
)

func TestDir(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"index.html":      strings.Repeat("<p>pgoutput inspector</p>\n", 100),
		"main.wasm":       "\x00asm\x01\x00\x00\x00" + strings.Repeat("\x01\x02\x03\x04", 4096),
		"sub/style.css":   "body { margin: 0 }",
		"shot.png":        "\x89PNG\r\n\x1a\n",
		".hidden/a.js":    "secret",
		"already.wasm.br": "not a page file",
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	earlier := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	if err := os.Chtimes(filepath.Join(dir, "main.wasm"), earlier, earlier); err != nil {
		t.Fatal(err)
	}
	sizes, err := Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(sizes) != 3 {
		t.Errorf("compressed %d files, want index.html, main.wasm and sub/style.css: %+v", len(sizes), sizes)
	}
	for _, name := range []string{"index.html", "main.wasm", "sub/style.css"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		orig, _ := os.Stat(p)
		for _, c := range []struct {
			suffix string
			open   func(io.Reader) (io.Reader, error)
		}{
			{BrotliSuffix, func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil }},
			{GzipSuffix, func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
		} {
			b, err := os.ReadFile(p + c.suffix)
			if err != nil {
				t.Fatal(err)
			}
			r, err := c.open(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(r)
			if err != nil || string(got) != files[name] {
				t.Errorf("%s%s does not decompress to %s (%v)", name, c.suffix, name, err)
			}
			copyInfo, _ := os.Stat(p + c.suffix)
			if !Fresh(orig, copyInfo) {
				t.Errorf("%s%s: modification time %v, want the original's %v", name, c.suffix, copyInfo.ModTime(), orig.ModTime())
			}
		}
	}
	for _, name := range []string{"shot.png.br", ".hidden/a.js.br", "already.wasm.br.br"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s was written", name)
		}
	}
	// A rebuilt original: its old copies are no longer fresh.
	p := filepath.Join(dir, "main.wasm")
	copyInfo, _ := os.Stat(p + BrotliSuffix)
	if err := os.WriteFile(p, []byte("rebuilt"), 0o644); err != nil {
		t.Fatal(err)
	}
	if orig, _ := os.Stat(p); Fresh(orig, copyInfo) {
		t.Error("a copy of an earlier main.wasm counts as fresh")
	}
}

// TestNotInThePage checks that the compressors stay out of main.wasm: they are for the build
// and the server.
func TestNotInThePage(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "../../wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./wasm: %v", err)
	}
	for _, pkg := range []string{"github.com/andybalholm/brotli", "pgoutput-inspector/internal/precompress"} {
		if strings.Contains(string(out), pkg+"\n") {
			t.Errorf("main.wasm links %s", pkg)
		}
	}
}

// TestBrotliCache: a large file's brotli output is kept under its hash and read back, and
// the cache keeps only its newest entries.
func TestBrotliCache(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := filepath.Join(os.Getenv("XDG_CACHE_HOME"), "pgoutput-inspector", "brotli")
	var first []byte
	for i := range cacheEntries + 2 {
		raw := bytes.Repeat([]byte{byte(i), 1, 2, 3, 5, 8, 13}, 20000)
		got := cachedBrotli(raw)
		if i == 0 {
			first = got
		}
		if want := Brotli(raw); !bytes.Equal(got, want) {
			t.Fatalf("input %d: cached output differs from Brotli's", i)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != cacheEntries {
		t.Errorf("%d cache entries, want %d", len(entries), cacheEntries)
	}
	// The last input again comes from the cache: replace its entry to see it is read.
	raw := bytes.Repeat([]byte{byte(cacheEntries + 1), 1, 2, 3, 5, 8, 13}, 20000)
	matches, _ := filepath.Glob(filepath.Join(dir, "*.br"))
	for _, m := range matches {
		b, _ := os.ReadFile(m)
		if bytes.Equal(b, Brotli(raw)) {
			os.WriteFile(m, first, 0o644)
		}
	}
	if got := cachedBrotli(raw); !bytes.Equal(got, first) {
		t.Error("a cached input was compressed again instead of read from the cache")
	}
}
