//go:build !js

package web_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/internal/dump"
	"pgoutput-inspector/internal/dumpjob"
	"pgoutput-inspector/internal/export"
	"pgoutput-inspector/internal/inspectorserver"
	"pgoutput-inspector/web"
)

// downloadHook keeps what the page hands the browser to download in window.downloaded (the
// file's name, its media type and its text, and whether the link was in the page when
// clicked) instead of saving a file, and counts the downloads in window.downloads.
const downloadHook = `(() => {
	window.downloaded = undefined;
	window.downloads = 0;
	const blobs = new Map();
	const create = URL.createObjectURL;
	URL.createObjectURL = (blob) => { const url = create(blob); blobs.set(url, blob); return url; };
	HTMLAnchorElement.prototype.click = function () {
		const blob = blobs.get(this.href), name = this.download, inPage = this.isConnected;
		blob.text().then((text) => {
			window.downloads++;
			window.downloaded = {name, type: blob.type, text, inPage};
		});
	};
})()`

// chooseDump chooses the Export menu's entry that copies, or downloads, dump kind k: the
// entries follow "Export…" and the byte formats' entries, copy then download for each kind.
func chooseDump(b browsertest.Tab, k dumpjob.Kind, download bool) {
	i := 1 + len(export.FormatNames) + 2*int(k)
	if download {
		i++
	}
	b.Eval(`((i) => { const s = document.querySelector("select.export"); s.selectedIndex = i;
		s.dispatchEvent(new Event("change", {bubbles: true})); })(`+strconv.Itoa(i)+`)`, nil)
}

// requestLog serves the built page with the inspector server, keeping the path of every
// request; while missing is set, it answers 404 for that file. It never serves sw.js: the
// service worker would fetch the export worker's files after the first screen and answer the
// page's requests from its cache, and the tests here watch the page's own requests
// (web/offline_browser_test.go tests the service worker).
type requestLog struct {
	h       http.Handler
	mu      sync.Mutex
	paths   []string
	missing string
}

func (l *requestLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	l.paths = append(l.paths, r.URL.Path)
	missing := l.missing
	l.mu.Unlock()
	if missing != "" && r.URL.Path == "/"+missing || r.URL.Path == "/sw.js" {
		http.NotFound(w, r)
		return
	}
	l.h.ServeHTTP(w, r)
}

// count returns how many requests were for path.
func (l *requestLog) count(path string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, p := range l.paths {
		if p == path {
			n++
		}
	}
	return n
}

func (l *requestLog) setMissing(file string) {
	l.mu.Lock()
	l.missing = file
	l.mu.Unlock()
}

// eachBrowserLogged is eachBrowser with the page served by a requestLog of its own.
func eachBrowserLogged(t *testing.T, test func(t *testing.T, b browsertest.Tab, log *requestLog)) {
	if testing.Short() {
		t.Skip("browser test")
	}
	for _, name := range browsertest.Browsers {
		t.Run(name, func(t *testing.T) {
			h, err := inspectorserver.New(browsertest.StaticDir(t))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { h.Close() })
			log := &requestLog{h: h}
			srv := httptest.NewServer(log)
			t.Cleanup(srv.Close)
			b := browsertest.StartTab(t, name)
			// The browsers report the refused registration's request.
			b.Allow("sw.js")
			b.Allow("when fetching the script")
			b.Navigate(srv.URL + "/")
			b.WaitStarted()
			b.WaitReady("html[data-ready]")
			test(t, b, log)
		})
	}
}

// cliDump returns what pgoutput-inspect decode prints for the first example (given as a file
// named name) with the flag of kind: the command's own function, dump.Decode, with the
// options its flags set (the command itself is run on every example and corpus capture by
// cmd/pgoutput-inspect's TestPageDumpIsCLIDump).
func cliDump(t *testing.T, s web.State, kind dump.Kind, name string) string {
	var out bytes.Buffer
	r := dump.Decode(&out, strings.NewReader(s.Text), dump.Options{Proto: s.Proto, Kind: kind, Name: name, GoTest: s.Msg + 1}, nil)
	if r.Unread != nil || r.WriteErr != nil || r.ReadErr != nil || r.NoTest != "" {
		t.Fatalf("decode: %+v", r)
	}
	return out.String()
}

// TestBrowsersExportDump chooses each dump entry of the Export menu with the first example
// shown, and reads back exactly what the page copied, or handed the browser to download (the
// file's name, media type and text), and the status: what decode prints for the example; and
// the chosen message as a Go test (decode --go-test N).
// The export worker and export.wasm are not fetched before the first dump and are kept for
// the next. A worker that cannot start, or cannot have export.wasm, says so, and the next dump
// loads it.
func TestBrowsersExportDump(t *testing.T) {
	s := web.NewState(0)
	name := "the example " + web.Examples[0].Name
	goTest := cliDump(t, s, dump.KindGoTest, name)
	wants := [dumpjob.GoTest]struct{ text, what, file, typ string }{
		dumpjob.Text:     {cliDump(t, s, dump.KindText, name), "the dump as text", "pgoutput-dump.txt", "text/plain"},
		dumpjob.Markdown: {cliDump(t, s, dump.KindMarkdown, name), "the dump as Markdown", "pgoutput-dump.md", "text/markdown"},
		dumpjob.JSON:     {cliDump(t, s, dump.KindJSON, name), "the JSON", "pgoutput-dump.json", "application/json"},
	}
	eachBrowserLogged(t, func(t *testing.T, b browsertest.Tab, log *requestLog) {
		until(b, `document.querySelector(".tnode")`)
		if got := b.Count("select.export option"); got != 1+len(web.ExportLabels) {
			t.Fatalf("the Export menu has %d entries", got)
		}
		for _, f := range []string{"/export-worker.js", "/export.wasm"} {
			if n := log.count(f); n != 0 {
				t.Errorf("the page requested %s %d times before the first dump", f, n)
			}
		}
		if log.count("/main.wasm") == 0 {
			t.Fatalf("the log holds no request for main.wasm: %v", log.paths)
		}

		// A worker whose script cannot be had, then one that cannot have export.wasm: the
		// status names the file, and the next dump tries again.
		b.Allow("export-worker.js") // the browser reports the failed requests
		b.Allow("export.wasm")
		log.setMissing("export-worker.js")
		b.Eval(clipboardHook+`(false)`, nil)
		chooseDump(b, dumpjob.Text, false)
		waitText(t, b, ".share-status.error", "Could not copy the dump as text: export-worker.js could not be started")
		log.setMissing("export.wasm")
		chooseDump(b, dumpjob.Text, false)
		waitText(t, b, ".share-status.error", "Could not copy the dump as text: export.wasm: HTTP 404 Not Found")
		log.setMissing("")

		b.Eval(downloadHook, nil)
		links := b.Count("a")
		for k, w := range wants {
			kind := dumpjob.Kind(k)
			size := web.Commas(len(w.text)) + " bytes"

			chooseDump(b, kind, false)
			waitFor(t, b, w.what+" copied", `window.copies === `+strconv.Itoa(k+1)+` && window.copied === `+jsQuote(w.text), `window.copied && window.copied.slice(0, 300)`)
			waitText(t, b, ".share-status.copied", "Copied "+w.what+" ("+size+")")

			chooseDump(b, kind, true)
			waitFor(t, b, w.what+" downloaded", `window.downloads === `+strconv.Itoa(k+1)+` && window.downloaded.name === `+jsQuote(w.file)+
				` && window.downloaded.type === `+jsQuote(w.typ)+` && window.downloaded.text === `+jsQuote(w.text)+
				` && window.downloaded.inPage`, `window.downloaded && [window.downloaded.name, window.downloaded.type, window.downloaded.inPage, window.downloaded.text.slice(0, 300)]`)
			waitText(t, b, ".share-status.copied", "Downloaded "+w.file+" ("+w.what+", "+size+")")
			if got := b.Count("a"); got != links {
				t.Errorf("after the download the page has %d links, %d before", got, links)
			}
			var shown string
			b.Eval(`document.querySelector("select.export").value`, &shown)
			if shown != "Export…" {
				t.Errorf("after the download the menu shows %q", shown)
			}
		}
		chooseDump(b, dumpjob.GoTest, false)
		waitFor(t, b, "the Go test copied", `window.copies === `+strconv.Itoa(len(wants)+1)+` && window.copied === `+jsQuote(goTest), `window.copied && window.copied.slice(0, 300)`)
		waitText(t, b, ".share-status.copied", "Copied message "+strconv.Itoa(s.Msg+1)+" as a Go test ("+web.Commas(len(goTest))+" bytes)")

		// One worker for every dump after the one that could not start; export.wasm fetched
		// again only after the failure.
		if n := log.count("/export-worker.js"); n != 2 {
			t.Errorf("the page requested export-worker.js %d times (the 404, then once)", n)
		}
		if n := log.count("/export.wasm"); n != 2 {
			t.Errorf("the page requested export.wasm %d times (the 404, then once)", n)
		}

		// A copy the browser refuses.
		b.Eval(clipboardHook+`(true)`, nil)
		chooseDump(b, dumpjob.Markdown, false)
		waitText(t, b, ".share-status.error", "Could not copy the dump as Markdown: NotAllowedError: Write permission denied.")
	})
}
