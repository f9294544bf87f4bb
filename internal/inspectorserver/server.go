// Package inspectorserver serves the inspector page: the files of one directory (index.html,
// CSS, wasm_exec.js, boot.js, main.wasm) with the headers the page relies on. main.wasm goes out
// as application/wasm so that WebAssembly.instantiateStreaming accepts it, text and WASM go out
// compressed: brotli when the client accepts it and the build wrote NAME.br (package
// precompress), else gzip when accepted (the build's NAME.gz, or compressed here once; then
// served from memory), and
// every response carries a Content-Security-Policy that lets the page run only its own scripts
// and WASM and fetch nothing from anywhere else. index.html goes out with main.wasm's size
// written into it (WASMSizeName), for the download's progress.
//
// The page keeps all of its state in the URL fragment, which browsers never send, so the server
// has nothing to do but serve files.
package inspectorserver

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"pgoutput-inspector/internal/precompress"
)

// ContentSecurityPolicy is sent with every response. Scripts and WASM come only from the page's
// origin ('wasm-unsafe-eval' allows compiling WebAssembly, nothing else); there are no inline
// scripts or <style> elements. Styles that vecty sets through element.style (the CSSOM) are not
// governed by style-src, so they need no exception. img-src allows data: for the empty favicon.
// The Export menu's worker (export-worker.js) runs under the policy of its own response, this
// one: script-src 'self' lets the page start it (worker-src falls back to script-src) and it
// import wasm_exec.js, connect-src 'self' lets it fetch export.wasm and 'wasm-unsafe-eval'
// compile it (TestBrowsersExportDump, in Chromium and Firefox).
const ContentSecurityPolicy = MetaContentSecurityPolicy + "; frame-ancestors 'none'"

// MetaContentSecurityPolicy is the policy as a <meta http-equiv> element can carry it, for
// static hosts that cannot set headers (./build.sh dist writes it into index.html): without
// frame-ancestors, which browsers ignore in a <meta> element, and warn about.
const MetaContentSecurityPolicy = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; " +
	"form-action 'none'"

// CacheControl is sent with every file. File names carry no content hash, so browsers keep
// copies but ask again each time; the ETag makes an unchanged file a 304 without a body.
const CacheControl = "no-cache"

// contentTypes maps a file extension to the Content-Type it is served with. Only these
// extensions are served: the page has no use for any other kind of file.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".wasm": "application/wasm",
	".json": "application/json",
	".txt":  "text/plain; charset=utf-8",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".ico":  "image/x-icon",
}

// Handler serves the files below one directory. It is safe for concurrent use.
type Handler struct {
	root *os.Root

	mu      sync.Mutex
	gzipped map[string]*gzipped // by file name relative to the directory
}

// gzipped is the compressed body of one file, valid while the file keeps its size and mtime.
type gzipped struct {
	size    int64
	modTime time.Time
	body    []byte
}

// New returns a Handler serving the files below dir. Requests cannot reach anything outside
// dir, through ".." or through symbolic links.
func New(dir string) (*Handler, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Handler{root: root, gzipped: make(map[string]*gzipped)}, nil
}

// Close releases the directory.
func (h *Handler) Close() error { return h.root.Close() }

// Precompress compresses the file name (relative to the directory, e.g. "main.wasm") now, so
// that the first request for it does not wait. It returns the raw and compressed sizes.
func (h *Handler) Precompress(name string) (raw, compressed int64, err error) {
	f, err := h.root.Open(name)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, 0, err
	}
	body, err := h.compressed(name, f, fi)
	if err != nil {
		return 0, 0, err
	}
	return fi.Size(), int64(len(body)), nil
}

// ServeHTTP serves GET and HEAD requests for regular files; a path ending in "/" means its
// index.html. Dot files, directories and unknown extensions are 404.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	hdr.Set("Content-Security-Policy", ContentSecurityPolicy)
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Referrer-Policy", "no-referrer")

	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hdr.Set("Allow", "GET, HEAD")
		http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, ok := fileName(r.URL.Path)
	if !ok {
		http.NotFound(w, r)
		return
	}
	ctype, ok := contentTypes[path.Ext(name)]
	if !ok {
		http.NotFound(w, r)
		return
	}
	f, err := h.root.Open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}

	hdr.Set("Content-Type", ctype)
	hdr.Set("Cache-Control", CacheControl)
	etag := fmt.Sprintf(`"%x-%x`, fi.ModTime().UnixNano(), fi.Size())
	if path.Base(name) == "index.html" {
		if page, modTime, pageTag, ok := h.pageWithWASMSize(name, fi); ok {
			hdr.Set("ETag", pageTag)
			http.ServeContent(w, r, name, modTime, bytes.NewReader(page))
			return
		}
	}
	if !precompress.Compressible(name) {
		hdr.Set("ETag", etag+`"`)
		http.ServeContent(w, r, name, fi.ModTime(), f)
		return
	}
	hdr.Add("Vary", "Accept-Encoding")
	accept := r.Header.Values("Accept-Encoding")
	var body io.ReadSeeker
	var size int64
	var coding string
	if accepts(accept, "br") {
		// Only what the build compressed: brotli at its best takes seconds.
		if c, err := h.root.Open(name + precompress.BrotliSuffix); err == nil {
			defer c.Close()
			if cfi, err := c.Stat(); err == nil && precompress.Fresh(fi, cfi) {
				body, size, coding = c, cfi.Size(), "br"
			}
		}
	}
	if coding == "" && (accepts(accept, "gzip") || accepts(accept, "x-gzip")) {
		b, err := h.compressed(name, f, fi)
		if err != nil {
			http.Error(w, "500 cannot read "+name, http.StatusInternalServerError)
			return
		}
		body, size, coding = bytes.NewReader(b), int64(len(b)), "gzip"
	}
	if coding == "" {
		hdr.Set("ETag", etag+`"`)
		http.ServeContent(w, r, name, fi.ModTime(), f)
		return
	}
	hdr.Set("Content-Encoding", coding)
	hdr.Set("ETag", etag+"-"+coding+`"`)
	// ServeContent leaves Content-Length out when there is a Content-Encoding, since a Range
	// would change it. Compressed responses are whole (no Range), so give the length: browsers
	// show download progress and keep the connection without chunking.
	r = r.Clone(r.Context())
	r.Header.Del("Range")
	hdr.Set("Content-Length", strconv.FormatInt(size, 10))
	http.ServeContent(noRanges{w}, r, name, fi.ModTime(), body)
}

// maxPage bounds the index.html the server writes main.wasm's size into (ours is 1.5 KB).
const maxPage = 1 << 20

// pageWithWASMSize returns the index.html called name (fi) with main.wasm's size written into
// it (WASMSizeMeta), when main.wasm lies beside it and the page does not give the size already
// (./build.sh dist writes it into the file), with the modification time and ETag of the pair:
// a new main.wasm makes a new page. The page is small and goes out uncompressed.
func (h *Handler) pageWithWASMSize(name string, fi fs.FileInfo) (page []byte, modTime time.Time, etag string, ok bool) {
	wasm, err := h.root.Stat(path.Join(path.Dir(name), "main.wasm"))
	if err != nil || !wasm.Mode().IsRegular() || fi.Size() > maxPage {
		return nil, time.Time{}, "", false
	}
	raw, err := h.root.ReadFile(name)
	if err != nil || HasWASMSize(raw) {
		return nil, time.Time{}, "", false
	}
	page, err = InsertMeta(raw, WASMSizeMeta(wasm.Size()))
	if err != nil {
		return nil, time.Time{}, "", false // a page of another shape: sent as it is
	}
	modTime = fi.ModTime()
	if wasm.ModTime().After(modTime) {
		modTime = wasm.ModTime()
	}
	etag = fmt.Sprintf(`"%x-%x-wasm-%x-%x"`, fi.ModTime().UnixNano(), fi.Size(), wasm.ModTime().UnixNano(), wasm.Size())
	return page, modTime, etag, true
}

// noRanges removes the Accept-Ranges header that http.ServeContent adds: compressed responses
// ignore Range requests.
type noRanges struct{ http.ResponseWriter }

func (w noRanges) WriteHeader(code int) {
	w.Header().Del("Accept-Ranges")
	w.ResponseWriter.WriteHeader(code)
}

// compressed returns the gzip-compressed content of the open file f: the NAME.gz the build
// wrote beside it when that belongs to this version of the file, otherwise f compressed here.
// Either is read once and kept in memory until the file changes.
func (h *Handler) compressed(name string, f io.Reader, fi fs.FileInfo) ([]byte, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if c := h.gzipped[name]; c != nil && c.size == fi.Size() && c.modTime.Equal(fi.ModTime()) {
		return c.body, nil
	}
	var body []byte
	if gz, err := h.root.Open(name + precompress.GzipSuffix); err == nil {
		if gfi, err := gz.Stat(); err == nil && precompress.Fresh(fi, gfi) {
			body, _ = io.ReadAll(gz) // on error, compress here instead
		}
		gz.Close()
	}
	if body == nil {
		raw, err := io.ReadAll(f)
		if err != nil {
			return nil, err
		}
		if int64(len(raw)) != fi.Size() {
			return nil, errors.New("file changed while reading it")
		}
		body = precompress.Gzip(raw)
	}
	h.gzipped[name] = &gzipped{size: fi.Size(), modTime: fi.ModTime(), body: body}
	return body, nil
}

// fileName turns a URL path into a file name relative to the served directory. It refuses
// paths that are not clean (so "/a/../b" is not quietly another file), dot files and NUL.
func fileName(urlPath string) (string, bool) {
	if !strings.HasPrefix(urlPath, "/") || strings.ContainsAny(urlPath, "\\\x00") {
		return "", false
	}
	if strings.HasSuffix(urlPath, "/") {
		urlPath += "index.html"
	}
	if path.Clean(urlPath) != urlPath {
		return "", false
	}
	name := urlPath[1:]
	for _, part := range strings.Split(name, "/") {
		if part == "" || strings.HasPrefix(part, ".") {
			return "", false
		}
	}
	return name, true
}

// accepts reports whether the Accept-Encoding header values list the content coding with a
// non-zero quality ("gzip", "gzip;q=0.5", but not "gzip;q=0").
func accepts(values []string, coding string) bool {
	for _, v := range values {
		for _, item := range strings.Split(v, ",") {
			c, params, _ := strings.Cut(item, ";")
			if !strings.EqualFold(strings.TrimSpace(c), coding) {
				continue
			}
			q := 1.0
			for _, p := range strings.Split(params, ";") {
				k, val, _ := strings.Cut(strings.TrimSpace(p), "=")
				if strings.EqualFold(strings.TrimSpace(k), "q") {
					if f, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
						q = f
					}
				}
			}
			if q > 0 {
				return true
			}
		}
	}
	return false
}
