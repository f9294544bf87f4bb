package inspectorserver

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"pgoutput-inspector/internal/precompress"
)

// site writes a small page directory, a secret file beside it (to try path traversal on) and
// returns a test server serving the directory.
func site(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	parent := t.TempDir()
	dir := filepath.Join(parent, "static")
	files := map[string]string{
		"index.html":       "<!doctype html><title>pgoutput inspector</title>",
		"style.css":        "body { margin: 0 }",
		"boot.js":          "'use strict';",
		"main.wasm":        "\x00asm\x01\x00\x00\x00" + strings.Repeat("\x01\x02\x03\x04", 4096),
		"shot.png":         "\x89PNG\r\n\x1a\n",
		"notes.exe":        "MZ",
		".hidden.css":      "secret",
		"sub/index.html":   "<!doctype html><title>sub</title>",
		"sub/deeper/a.txt": "a",
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
	if err := os.WriteFile(filepath.Join(parent, "secret.txt"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(parent, "secret.txt"), filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	return serveDir(t, dir), dir
}

// serveDir returns a test server of a Handler serving dir, both closed when the test ends.
func serveDir(t *testing.T, dir string) *httptest.Server {
	t.Helper()
	h, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// get sends a request with the given Accept-Encoding ("" for none) and returns the response
// with its body read (not decompressed).
func get(t *testing.T, method, url, acceptEncoding string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	// A transport of our own: the default one adds Accept-Encoding: gzip and decompresses.
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("body is not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	srv, _ := site(t)
	for _, tc := range []struct{ method, path string }{
		{"GET", "/"}, {"GET", "/main.wasm"}, {"GET", "/missing.js"}, {"POST", "/"}, {"HEAD", "/style.css"},
	} {
		resp, _ := get(t, tc.method, srv.URL+tc.path, "")
		h := resp.Header
		if got := h.Get("Content-Security-Policy"); got != ContentSecurityPolicy {
			t.Errorf("%s %s: Content-Security-Policy = %q, want %q", tc.method, tc.path, got, ContentSecurityPolicy)
		}
		if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s %s: X-Content-Type-Options = %q, want nosniff", tc.method, tc.path, got)
		}
		if got := h.Get("Referrer-Policy"); got != "no-referrer" {
			t.Errorf("%s %s: Referrer-Policy = %q, want no-referrer", tc.method, tc.path, got)
		}
	}
}

func TestContentTypes(t *testing.T) {
	srv, _ := site(t)
	for path, want := range map[string]string{
		"/":           "text/html; charset=utf-8",
		"/index.html": "text/html; charset=utf-8",
		"/style.css":  "text/css; charset=utf-8",
		"/boot.js":    "text/javascript; charset=utf-8",
		"/main.wasm":  "application/wasm",
		"/shot.png":   "image/png",
	} {
		resp, _ := get(t, "GET", srv.URL+path, "gzip")
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s: status %d, want 200", path, resp.StatusCode)
		}
		if got := resp.Header.Get("Content-Type"); got != want {
			t.Errorf("GET %s: Content-Type = %q, want %q", path, got, want)
		}
		if got := resp.Header.Get("Cache-Control"); got != CacheControl {
			t.Errorf("GET %s: Cache-Control = %q, want %q", path, got, CacheControl)
		}
	}
}

func TestGzip(t *testing.T) {
	srv, dir := site(t)
	want, err := os.ReadFile(filepath.Join(dir, "main.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	for _, ae := range []string{"gzip", "gzip, deflate, br, zstd", "br;q=1.0, gzip;q=0.8", "GZIP"} {
		resp, body := get(t, "GET", srv.URL+"/main.wasm", ae)
		if got := resp.Header.Get("Content-Encoding"); got != "gzip" {
			t.Fatalf("Accept-Encoding %q: Content-Encoding = %q, want gzip", ae, got)
		}
		if !bytes.Equal(gunzip(t, body), want) {
			t.Errorf("Accept-Encoding %q: decompressed body differs from main.wasm", ae)
		}
		if len(body) >= len(want) {
			t.Errorf("Accept-Encoding %q: compressed %d bytes, raw %d", ae, len(body), len(want))
		}
		if got := resp.Header.Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("Vary = %q, want Accept-Encoding", got)
		}
	}
	for _, ae := range []string{"", "identity", "gzip;q=0", "br"} {
		resp, body := get(t, "GET", srv.URL+"/main.wasm", ae)
		if got := resp.Header.Get("Content-Encoding"); got != "" {
			t.Errorf("Accept-Encoding %q: Content-Encoding = %q, want none", ae, got)
		}
		if !bytes.Equal(body, want) {
			t.Errorf("Accept-Encoding %q: body differs from main.wasm", ae)
		}
	}
	// A Range asks for bytes of the file; a compressed response is always the whole file.
	req, _ := http.NewRequest("GET", srv.URL+"/main.wasm", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	req.Header.Set("Range", "bytes=0-99")
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !bytes.Equal(gunzip(t, body), want) {
		t.Errorf("gzip with Range: status %d, want 200 with the whole file", resp.StatusCode)
	}
	if got := resp.Header.Get("Accept-Ranges"); got != "" {
		t.Errorf("gzip response: Accept-Ranges = %q, want none", got)
	}
	// Uncompressed, ranges work.
	req.Header.Del("Accept-Encoding")
	resp, err = (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusPartialContent || !bytes.Equal(body, want[:100]) {
		t.Errorf("identity with Range: status %d, %d bytes; want 206 with 100", resp.StatusCode, len(body))
	}

	// PNG is compressed already: never gzip it.
	if resp, _ := get(t, "GET", srv.URL+"/shot.png", "gzip"); resp.Header.Get("Content-Encoding") != "" {
		t.Errorf("shot.png: Content-Encoding = %q, want none", resp.Header.Get("Content-Encoding"))
	}
}

// TestGzipFollowsChanges checks that a rebuilt main.wasm is not served from a stale cache.
func TestGzipFollowsChanges(t *testing.T) {
	srv, dir := site(t)
	_, first := get(t, "GET", srv.URL+"/main.wasm", "gzip")
	p := filepath.Join(dir, "main.wasm")
	rebuilt := []byte("\x00asm\x01\x00\x00\x00rebuilt")
	if err := os.WriteFile(p, rebuilt, 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	_, second := get(t, "GET", srv.URL+"/main.wasm", "gzip")
	if bytes.Equal(first, second) {
		t.Fatal("changed main.wasm served from the old compressed copy")
	}
	if got := gunzip(t, second); !bytes.Equal(got, rebuilt) {
		t.Errorf("served %q, want %q", got, rebuilt)
	}
}

func TestPrecompress(t *testing.T) {
	_, dir := site(t)
	h, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	raw, gz, err := h.Precompress("main.wasm")
	if err != nil {
		t.Fatal(err)
	}
	if raw != 8+4*4096 || gz <= 0 || gz >= raw {
		t.Errorf("Precompress = %d raw, %d gzipped", raw, gz)
	}
	if _, _, err := h.Precompress("missing.wasm"); err == nil {
		t.Error("Precompress of a missing file: no error")
	}
}

func TestConditionalGet(t *testing.T) {
	srv, _ := site(t)
	for _, ae := range []string{"", "gzip"} {
		resp, _ := get(t, "GET", srv.URL+"/main.wasm", ae)
		etag := resp.Header.Get("ETag")
		if etag == "" {
			t.Fatalf("Accept-Encoding %q: no ETag", ae)
		}
		req, _ := http.NewRequest("GET", srv.URL+"/main.wasm", nil)
		req.Header.Set("If-None-Match", etag)
		if ae != "" {
			req.Header.Set("Accept-Encoding", ae)
		}
		resp2, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp2.Body.Close()
		if resp2.StatusCode != http.StatusNotModified {
			t.Errorf("Accept-Encoding %q: If-None-Match %s: status %d, want 304", ae, etag, resp2.StatusCode)
		}
	}
	a, _ := get(t, "GET", srv.URL+"/style.css", "")
	b, _ := get(t, "GET", srv.URL+"/style.css", "gzip")
	if a.Header.Get("ETag") == b.Header.Get("ETag") {
		t.Errorf("identity and gzip responses share ETag %s", a.Header.Get("ETag"))
	}
}

func TestNotFound(t *testing.T) {
	srv, _ := site(t)
	for _, path := range []string{
		"/missing.html",
		"/notes.exe",   // extension not served
		"/.hidden.css", // dot file
		"/sub",         // directory
		"/sub/deeper/", // directory without index.html
		"/link.txt",    // symbolic link out of the directory
		"/index.html/",
	} {
		resp, body := get(t, "GET", srv.URL+path, "")
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404", path, resp.StatusCode)
		}
		if strings.Contains(string(body), "secret") {
			t.Errorf("GET %s: body reveals %q", path, body)
		}
	}
	if resp, _ := get(t, "GET", srv.URL+"/sub/", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("GET /sub/: status %d, want 200 (its index.html)", resp.StatusCode)
	}
}

func TestPathTraversal(t *testing.T) {
	srv, _ := site(t)
	// Straight into the handler: a client would clean some of these paths before sending.
	for _, path := range []string{
		"/../secret.txt",
		"/sub/../../secret.txt",
		"/%2e%2e/secret.txt",
		"/%2e%2e%2fsecret.txt",
		"/..%5csecret.txt",
		"/sub/..%2f..%2fsecret.txt",
		"//secret.txt",
		"/./style.css",
		"/style.css%00.html",
	} {
		req := httptest.NewRequest("GET", path, nil)
		rec := httptest.NewRecorder()
		srv.Config.Handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusNotFound {
			t.Errorf("GET %s (path %q): status %d, want 404", path, req.URL.Path, rec.Code)
		}
		if strings.Contains(rec.Body.String(), "secret") {
			t.Errorf("GET %s: body reveals %q", path, rec.Body.String())
		}
	}
}

func TestMethods(t *testing.T) {
	srv, _ := site(t)
	for _, m := range []string{"POST", "PUT", "DELETE", "OPTIONS"} {
		resp, _ := get(t, m, srv.URL+"/index.html", "")
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s: status %d, want 405", m, resp.StatusCode)
		}
		if got := resp.Header.Get("Allow"); got != "GET, HEAD" {
			t.Errorf("%s: Allow = %q", m, got)
		}
	}
	resp, body := get(t, "HEAD", srv.URL+"/main.wasm", "gzip")
	if resp.StatusCode != http.StatusOK || len(body) != 0 {
		t.Errorf("HEAD: status %d, %d body bytes", resp.StatusCode, len(body))
	}
	if resp.Header.Get("Content-Encoding") != "gzip" || resp.Header.Get("Content-Length") == "" {
		t.Errorf("HEAD: Content-Encoding %q, Content-Length %q", resp.Header.Get("Content-Encoding"), resp.Header.Get("Content-Length"))
	}
}

func TestAccepts(t *testing.T) {
	for _, tc := range []struct {
		values []string
		want   bool
	}{
		{nil, false},
		{[]string{"gzip"}, true},
		{[]string{"deflate", "gzip;q=0.1"}, true},
		{[]string{"gzip ; q=0"}, false},
		{[]string{"gzip;q=0.0"}, false},
		{[]string{"x-gzip"}, true},
		{[]string{"gzipx"}, false},
		{[]string{"*"}, false},
	} {
		if got := accepts(tc.values, "gzip") || accepts(tc.values, "x-gzip"); got != tc.want {
			t.Errorf("accepts(%q, gzip or x-gzip) = %v, want %v", tc.values, got, tc.want)
		}
	}
}

// TestBrotli checks that the build's main.wasm.br goes to clients that accept brotli, and
// that a copy left over from an earlier build never does.
func TestBrotli(t *testing.T) {
	srv, dir := site(t)
	p := filepath.Join(dir, "main.wasm")
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := precompress.Write(p); err != nil {
		t.Fatal(err)
	}
	br, err := os.ReadFile(p + precompress.BrotliSuffix)
	if err != nil {
		t.Fatal(err)
	}
	for _, ae := range []string{"gzip, deflate, br, zstd", "br", "br;q=0.5, gzip;q=1"} {
		resp, body := get(t, "GET", srv.URL+"/main.wasm", ae)
		if got := resp.Header.Get("Content-Encoding"); got != "br" {
			t.Fatalf("Accept-Encoding %q: Content-Encoding = %q, want br", ae, got)
		}
		if !bytes.Equal(body, br) || resp.Header.Get("Content-Length") != strconv.Itoa(len(br)) {
			t.Errorf("Accept-Encoding %q: body of %d bytes (Content-Length %s), want main.wasm.br's %d", ae, len(body), resp.Header.Get("Content-Length"), len(br))
		}
		got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(body)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("Accept-Encoding %q: brotli body does not decompress to main.wasm (%v)", ae, err)
		}
		if got := resp.Header.Get("ETag"); !strings.HasSuffix(got, `-br"`) {
			t.Errorf("ETag %s, want one of its own for brotli", got)
		}
	}
	// gzip comes from the build's main.wasm.gz.
	gz, err := os.ReadFile(p + precompress.GzipSuffix)
	if err != nil {
		t.Fatal(err)
	}
	if resp, body := get(t, "GET", srv.URL+"/main.wasm", "gzip, br;q=0"); resp.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(body, gz) {
		t.Errorf("br;q=0: Content-Encoding %q, %d bytes; want gzip, main.wasm.gz's %d bytes", resp.Header.Get("Content-Encoding"), len(body), len(gz))
	}
	// The copies themselves are not files of the page.
	if resp, _ := get(t, "GET", srv.URL+"/main.wasm.br", ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /main.wasm.br: status %d, want 404", resp.StatusCode)
	}

	// A rebuilt main.wasm: the old copies no longer belong to it.
	rebuilt := []byte("\x00asm\x01\x00\x00\x00rebuilt")
	if err := os.WriteFile(p, rebuilt, 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	resp, body := get(t, "GET", srv.URL+"/main.wasm", "gzip, deflate, br, zstd")
	if got := resp.Header.Get("Content-Encoding"); got != "gzip" {
		t.Fatalf("after a rebuild: Content-Encoding = %q, want gzip (the stale .br must not be sent)", got)
	}
	if got := gunzip(t, body); !bytes.Equal(got, rebuilt) {
		t.Errorf("after a rebuild: served %q, want %q", got, rebuilt)
	}
}

// limitedServer serves the page directory dir under limits, and reports each connection the
// server closes on closed.
func limitedServer(t *testing.T, dir string, limits Limits) (addr string, closed <-chan struct{}) {
	t.Helper()
	h, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	ln, err := limits.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := limits.Server(h)
	c := make(chan struct{}, 100)
	srv.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateClosed {
			c <- struct{}{}
		}
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), c
}

// waitClosed waits until the server has closed a connection.
func waitClosed(t *testing.T, closed <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-closed:
	case <-time.After(time.Minute):
		t.Fatalf("the server did not close %s within a minute", what)
	}
}

// TestIdleConnectionClosed: a keep-alive connection that sends no second request is closed
// after IdleTimeout.
func TestIdleConnectionClosed(t *testing.T) {
	_, dir := site(t)
	addr, closed := limitedServer(t, dir, Limits{ReadHeaderTimeout: time.Minute, IdleTimeout: 200 * time.Millisecond})
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /style.css HTTP/1.1\r\nHost: x\r\n\r\n")
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Close {
		t.Fatalf("status %d, close %v: want a 200 on a connection kept alive", resp.StatusCode, resp.Close)
	}
	waitClosed(t, closed, "the idle keep-alive connection")
	conn.SetReadDeadline(time.Now().Add(time.Minute))
	if n, err := br.Read(make([]byte, 1)); err == nil {
		t.Errorf("read %d bytes from a connection the server closed", n)
	}
}

// TestSlowReaderCut: a client that does not read its response holds the connection only
// until WriteTimeout.
func TestSlowReaderCut(t *testing.T) {
	_, dir := site(t)
	// Larger than what the socket buffers of both ends hold, so the server's writes block.
	big := make([]byte, 64<<20)
	if err := os.WriteFile(filepath.Join(dir, "big.png"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	addr, closed := limitedServer(t, dir, Limits{ReadHeaderTimeout: time.Minute, WriteTimeout: 300 * time.Millisecond, IdleTimeout: time.Minute})
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.(*net.TCPConn).SetReadBuffer(4096)
	fmt.Fprintf(conn, "GET /big.png HTTP/1.1\r\nHost: x\r\n\r\n")
	// The server closes its end (and so frees its file descriptor) though the response is
	// unfinished.
	waitClosed(t, closed, "the connection of a client that does not read")
}

// TestConnectionLimit: beyond MaxConnections, a new connection waits until one closes.
func TestConnectionLimit(t *testing.T) {
	_, dir := site(t)
	addr, _ := limitedServer(t, dir, Limits{ReadHeaderTimeout: time.Minute, IdleTimeout: time.Minute, MaxConnections: 2})
	get := func(conn net.Conn) error {
		fmt.Fprintf(conn, "GET /style.css HTTP/1.1\r\nHost: x\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		return resp.Body.Close()
	}
	var open []net.Conn
	for range 2 {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if err := get(conn); err != nil {
			t.Fatal(err)
		}
		open = append(open, conn)
	}
	// The third connection is accepted by the kernel but not served while two are open.
	third, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	served := make(chan error, 1)
	go func() { served <- get(third) }()
	select {
	case err := <-served:
		t.Fatalf("a third connection was served while two were open (%v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	open[0].Close()
	select {
	case err := <-served:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the third connection was not served after one of the first two closed")
	}
}
