// Package precompress writes the compressed copies of the page's files that servers send in
// their place: NAME.br (brotli) and NAME.gz (gzip) beside NAME, made once at build time.
// cmd/inspector-server sends them, and so can any static host (nginx's brotli_static and
// gzip_static, S3 with Content-Encoding set per object).
//
// A copy carries its original's modification time (Write sets it), so a server can tell a
// copy of this version of the file from one left over from an earlier build: Fresh.
//
// It is native only (build tools, the server, tests): the page's main.wasm does not contain
// a compressor.
package precompress

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/andybalholm/brotli"
)

// The suffixes of the compressed copies, as nginx's brotli_static and gzip_static expect.
const (
	BrotliSuffix = ".br"
	GzipSuffix   = ".gz"
)

// BrotliQuality and BrotliWindow are the brotli settings: the highest quality, and a window
// of 2^24 bytes (16 MB), larger than main.wasm. Quality 11 takes seconds for main.wasm; it is
// done once per build, and makes main.wasm a quarter smaller than gzip -9
// (docs/performance.md).
const (
	BrotliQuality = 11
	BrotliWindow  = 24
)

// compressible lists the extensions worth compressing: text and WebAssembly, not PNG.
var compressible = map[string]bool{
	".html": true, ".css": true, ".js": true, ".wasm": true, ".json": true, ".txt": true, ".svg": true,
}

// Compressible reports whether a file of this name is worth compressing.
func Compressible(name string) bool { return compressible[filepath.Ext(name)] }

// Brotli compresses b with BrotliQuality and BrotliWindow.
func Brotli(b []byte) []byte {
	var buf bytes.Buffer
	w := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: BrotliQuality, LGWin: BrotliWindow})
	w.Write(b) // writes to a bytes.Buffer do not fail
	w.Close()
	return buf.Bytes()
}

// Gzip compresses b with gzip's best compression and no name or time in its header, so the
// same file always gives the same bytes.
func Gzip(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // the level is valid
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// cacheEntries is how many brotli outputs the cache keeps (the newest).
const cacheEntries = 8

// cachedBrotli is Brotli, with the output of large inputs kept in the user's cache directory
// under the input's SHA-256: the same main.wasm is built again and again (every test run,
// ./build.sh dist after ./build.sh wasm), and quality 11 costs seconds each time. Any cache
// failure just means compressing.
func cachedBrotli(raw []byte) []byte {
	if len(raw) < 64<<10 {
		return Brotli(raw)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return Brotli(raw)
	}
	dir := filepath.Join(base, "pgoutput-inspector", "brotli")
	sum := sha256.Sum256(raw)
	file := filepath.Join(dir, fmt.Sprintf("%x-q%d-w%d.br", sum, BrotliQuality, BrotliWindow))
	if b, err := os.ReadFile(file); err == nil {
		now := time.Now()
		os.Chtimes(file, now, now) // the newest are kept
		return b
	}
	b := Brotli(raw)
	if os.MkdirAll(dir, 0o755) == nil {
		// Written whole under a temporary name, so a concurrent build never reads half.
		if tmp, err := os.CreateTemp(dir, ".tmp-*"); err == nil {
			_, werr := tmp.Write(b)
			if cerr := tmp.Close(); werr == nil && cerr == nil {
				os.Rename(tmp.Name(), file)
			} else {
				os.Remove(tmp.Name())
			}
		}
		pruneCache(dir)
	}
	return b
}

// pruneCache removes all but the cacheEntries newest outputs.
func pruneCache(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type entry struct {
		path string
		mod  time.Time
	}
	var all []entry
	for _, e := range entries {
		if info, err := e.Info(); err == nil && strings.HasSuffix(e.Name(), ".br") {
			all = append(all, entry{filepath.Join(dir, e.Name()), info.ModTime()})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].mod.After(all[j].mod) })
	for i := cacheEntries; i < len(all); i++ {
		os.Remove(all[i].path)
	}
}

// Sizes are one file's sizes, raw and compressed.
type Sizes struct {
	Name              string
	Raw, Brotli, Gzip int64
}

// Write writes path+".br" and path+".gz" with the original's modification time.
func Write(path string) (Sizes, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return Sizes{}, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return Sizes{}, err
	}
	s := Sizes{Name: path, Raw: int64(len(raw))}
	for _, c := range []struct {
		suffix string
		body   []byte
		size   *int64
	}{{BrotliSuffix, cachedBrotli(raw), &s.Brotli}, {GzipSuffix, Gzip(raw), &s.Gzip}} {
		out := path + c.suffix
		if err := os.WriteFile(out, c.body, 0o644); err != nil {
			return s, err
		}
		if err := os.Chtimes(out, fi.ModTime(), fi.ModTime()); err != nil {
			return s, err
		}
		*c.size = int64(len(c.body))
	}
	return s, nil
}

// Dir writes the compressed copies of every compressible regular file below dir (copies
// themselves and dot files excepted), and returns their sizes in walk order.
func Dir(dir string) ([]Sizes, error) {
	var all []Sizes
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && path != dir {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !Compressible(d.Name()) {
			return nil
		}
		s, err := Write(path)
		if err != nil {
			return fmt.Errorf("precompress %s: %w", path, err)
		}
		all = append(all, s)
		return nil
	})
	return all, err
}

// Fresh reports whether the compressed copy with this modification time belongs to the
// original with that one: Write gives the copy the original's time, and any rebuild of the
// original changes its own.
func Fresh(original, copy fs.FileInfo) bool {
	return copy.Mode().IsRegular() && copy.ModTime().Equal(original.ModTime())
}
