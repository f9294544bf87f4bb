//go:build !js

package web_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/internal/inspectorserver"
	"pgoutput-inspector/internal/offline"
)

// The page's service worker (sw.js, docs/page.md "Loading"): after a first visit the page
// loads and works with no network, and a new build replaces the old on the next visits, whole.

// switchServer serves the page of one directory at a time with the inspector server, until
// the test ends or Close; use switches it to another directory.
type switchServer struct {
	*httptest.Server
	h atomic.Pointer[inspectorserver.Handler]
}

func newSwitchServer(t *testing.T, dir string) *switchServer {
	t.Helper()
	s := &switchServer{}
	s.use(t, dir)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.h.Load().ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *switchServer) use(t *testing.T, dir string) {
	t.Helper()
	h, err := inspectorserver.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	s.h.Store(h)
}

// cacheState is what the page's origin holds: the names of its caches, with the number of
// files in each, and whether a service worker controls the page and one waits.
const cacheState = `(async () => {
	const sw = navigator.serviceWorker;
	const reg = sw && await sw.getRegistration();
	const caches_ = {};
	for (const k of await caches.keys()) caches_[k] = (await (await caches.open(k)).keys()).length;
	return {Controlled: !!(sw && sw.controller), Waiting: !!(reg && reg.waiting), Caches: caches_};
})()`

type cacheView struct {
	Controlled, Waiting bool
	Caches              map[string]int
}

// waitCache waits until the page's origin is in the state ok accepts (polled from outside the
// page: Firefox's CSP forbids waiting for a function inside it).
func waitCache(t *testing.T, b browsertest.Tab, what string, ok func(cacheView) bool) cacheView {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var v cacheView
		b.Eval(cacheState, &v)
		if ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: the page has %+v", what, v)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// only reports whether the page is controlled, no worker waits, and the one cache is that of
// build id, holding every file.
func only(id string) func(cacheView) bool {
	return func(v cacheView) bool {
		return v.Controlled && !v.Waiting && len(v.Caches) == 1 && v.Caches["pgoutput-inspector-"+id] == len(offline.Files)
	}
}

// fetchAll is the page fetching every file the worker keeps, true when each came whole.
const fetchAllJS = `(async () => {
	const files = %s;
	for (const f of files) { const r = await fetch(f); if (!r.ok) return f + ": " + r.status; await r.arrayBuffer(); }
	return "";
})()`

func filesJS() string {
	s := "["
	for i, f := range offline.Files {
		if i > 0 {
			s += ","
		}
		s += strconv.Quote(f)
	}
	return s + "]"
}

// TestBrowsersOffline visits the page once, waits until the service worker controls it and
// keeps every file, stops the server and visits again: the page starts, decodes the first
// example, opens a file, and has every file it may fetch later (the guide, the export worker
// and export.wasm).
func TestBrowsersOffline(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	dir := browsertest.StaticDir(t)
	id, err := offline.Identity(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range browsertest.Browsers {
		t.Run(name, func(t *testing.T) {
			srv := newSwitchServer(t, dir)
			base := srv.URL + "/"
			b := browsertest.StartTab(t, name)
			b.Navigate(base)
			b.WaitStarted()
			b.WaitReady("html[data-ready]")
			waitCache(t, b, "the worker and its cache", only(id))

			srv.Close()          // no network from here on
			b.Allow("sw.js")     // the worker's update check fails
			b.Allow("127.0.0.1") // and the browser says so
			b.Navigate(base + "?2")
			b.WaitStarted()
			b.WaitReady("html[data-ready]")
			until(b, `document.querySelector(".tnode")`)

			path := filepath.Join(t.TempDir(), "stream.capture")
			if err := os.WriteFile(path, []byte(corpus(t, "pg15-text")), 0o644); err != nil {
				t.Fatal(err)
			}
			b.Upload("#file-open", path)
			until(b, `/^[0-9]{4} messages/.test(document.querySelector(".input-status").textContent)`)

			var missing string
			b.Eval(fmt.Sprintf(fetchAllJS, filesJS()), &missing)
			if missing != "" {
				t.Errorf("offline, the page could not fetch %s", missing)
			}
		})
	}
}

// secondBuild returns a copy of the page in dir with page.css changed and the worker written
// again for it (another build identity), and that identity.
func secondBuild(t *testing.T, dir string) (string, string) {
	t.Helper()
	out := t.TempDir()
	for _, name := range offline.Files {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "page.css" {
			b = append(b, "\n/* the second build */\n"...)
		}
		if err := os.WriteFile(filepath.Join(out, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	id, err := offline.Write(out)
	if err != nil {
		t.Fatal(err)
	}
	return out, id
}

// TestBrowsersServiceWorkerUpdate visits a build, then the server has a second: the next
// visit runs the first build from its cache while the second is fetched whole into a cache of
// its own, and the page says it is ready; the visit after that is the second build, which
// says it was updated, and only its cache is left.
func TestBrowsersServiceWorkerUpdate(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	dirA := browsertest.StaticDir(t)
	idA, err := offline.Identity(dirA)
	if err != nil {
		t.Fatal(err)
	}
	dirB, idB := secondBuild(t, dirA)
	for _, name := range browsertest.Browsers {
		t.Run(name, func(t *testing.T) {
			srv := newSwitchServer(t, dirA)
			base := srv.URL + "/"
			b := browsertest.StartTab(t, name)
			b.Navigate(base)
			b.WaitStarted()
			b.WaitReady("html[data-ready]")
			waitCache(t, b, "the first build's cache", only(idA))
			if b.Count("#update-status") != 0 {
				t.Errorf("the first visit says %q", b.Text("#update-status"))
			}

			srv.use(t, dirB)
			b.Navigate(base + "?2") // another URL: a browser may reload the same one past the worker
			b.WaitStarted()
			b.WaitReady("html[data-ready]")
			v := waitCache(t, b, "the second build, fetched whole and waiting", func(v cacheView) bool {
				return v.Waiting && v.Caches["pgoutput-inspector-"+idB] == len(offline.Files)
			})
			if v.Caches["pgoutput-inspector-"+idA] != len(offline.Files) {
				t.Errorf("while the second build waits, the first's cache is %+v", v.Caches)
			}
			b.WaitReady("#update-status")
			if got, want := b.Text("#update-status"), "A new version is ready: it opens on your next visit."; got != want {
				t.Errorf("the visit that found the second build says %q, want %q", got, want)
			}
			var css string
			b.Eval(`fetch("page.css").then((r) => r.text())`, &css)
			if strings.Contains(css, "the second build") {
				t.Error("the first build's page got the second build's page.css")
			}

			// The old page's download of main.wasm, cut short by its reload (Firefox says so).
			b.Allow("main.wasm")
			b.Navigate(base + "?3")
			// The page reloads itself into the second build, which says so.
			b.WaitReady("html[data-ready] #update-status")
			if got, want := b.Text("#update-status"), "Updated to a new version."; got != want {
				t.Errorf("the second build's first visit says %q, want %q", got, want)
			}
			waitCache(t, b, "the second build's cache alone", only(idB))
			b.Eval(`fetch("page.css").then((r) => r.text())`, &css)
			if !strings.Contains(css, "the second build") {
				t.Error("the second build's page has the first build's page.css")
			}
		})
	}
}
