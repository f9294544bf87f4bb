package inspectorserver

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pageHead is the start of a page shaped like static/index.html.
const pageHead = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<script src=\"boot.js\" defer></script>\n"

// TestWASMSizeInPage: index.html goes out with main.wasm's size in a <meta> element right after
// its <meta charset> (before boot.js, which reads it), the size of the main.wasm there is now;
// a page that gives the size already, or has no main.wasm beside it, goes out as it is.
func TestWASMSizeInPage(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// sized is pageHead as it should go out with main.wasm's size written into it.
	sized := func(size string) string {
		return strings.Replace(pageHead, `<meta charset="utf-8">`, `<meta charset="utf-8">`+"\n"+`<meta name="wasm-size" content="`+size+`">`, 1)
	}
	given := sized("7")
	write("index.html", pageHead)
	write("main.wasm", strings.Repeat("w", 1234))
	write("dist/index.html", given)
	write("dist/main.wasm", strings.Repeat("w", 99))
	write("nowasm/index.html", pageHead)
	write("other/index.html", "<!doctype html><title>no charset element</title>")
	write("other/main.wasm", "w")
	srv := serveDir(t, dir)
	var etag string
	for _, ae := range []string{"", "gzip, deflate, br, zstd"} {
		for _, path := range []string{"/", "/index.html"} {
			resp, body := get(t, "GET", srv.URL+path, ae)
			if string(body) != sized("1234") {
				t.Errorf("GET %s (Accept-Encoding %q):\n%s\nwant:\n%s", path, ae, body, sized("1234"))
			}
			if got := resp.Header.Get("Content-Type"); got != "text/html; charset=utf-8" {
				t.Errorf("GET %s: Content-Type %q", path, got)
			}
			if got := resp.Header.Get("Content-Security-Policy"); got != ContentSecurityPolicy {
				t.Errorf("GET %s: Content-Security-Policy %q", path, got)
			}
			if got := resp.Header.Get("Cache-Control"); got != CacheControl {
				t.Errorf("GET %s: Cache-Control %q, want %q", path, got, CacheControl)
			}
			etag = resp.Header.Get("ETag")
		}
	}
	if resp, body := get(t, "HEAD", srv.URL+"/", ""); resp.StatusCode != http.StatusOK || len(body) != 0 ||
		resp.ContentLength != int64(len(sized("1234"))) {
		t.Errorf("HEAD /: status %d, Content-Length %d, %d bytes of body; want 200, %d, none", resp.StatusCode, resp.ContentLength, len(body), len(sized("1234")))
	}

	// The ETag names the pair: unchanged, a 304; a rebuilt main.wasm makes a new page.
	req, _ := http.NewRequest("GET", srv.URL+"/", nil)
	req.Header.Set("If-None-Match", etag)
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if etag == "" || resp.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match %s: status %d, want 304", etag, resp.StatusCode)
	}
	write("main.wasm", strings.Repeat("w", 56789))
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(filepath.Join(dir, "main.wasm"), later, later); err != nil {
		t.Fatal(err)
	}
	resp, body := get(t, "GET", srv.URL+"/", "")
	if string(body) != sized("56789") {
		t.Errorf("after main.wasm changed:\n%s\nwant:\n%s", body, sized("56789"))
	}
	if resp.Header.Get("ETag") == etag {
		t.Errorf("after main.wasm changed: the same ETag %s", etag)
	}

	for path, want := range map[string]string{
		"/dist/":   given,                                              // gives the size already
		"/nowasm/": pageHead,                                           // no main.wasm beside it
		"/other/":  "<!doctype html><title>no charset element</title>", // no place for the element
	} {
		if _, body := get(t, "GET", srv.URL+path, ""); string(body) != want {
			t.Errorf("GET %s:\n%s\nwant it as it is:\n%s", path, body, want)
		}
	}
}

func TestInsertMeta(t *testing.T) {
	got, err := InsertMeta([]byte(pageHead), WASMSizeMeta(4253367))
	want := "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"wasm-size\" content=\"4253367\">\n<script src=\"boot.js\" defer></script>\n"
	if err != nil || string(got) != want {
		t.Errorf("InsertMeta = %q, %v; want %q", got, err, want)
	}
	if !HasWASMSize(got) || HasWASMSize([]byte(pageHead)) {
		t.Errorf("HasWASMSize wrong")
	}
	if _, err := InsertMeta([]byte("<title>x</title>"), WASMSizeMeta(1)); err == nil || !strings.Contains(err.Error(), `<meta charset="utf-8">`) {
		t.Errorf("InsertMeta into a page without <meta charset>: %v, want an error naming it", err)
	}
}
