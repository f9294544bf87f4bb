//go:build !js

package web_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgoutput-inspector/internal/browsertest"
)

// TestBrowsersFirstScreenRowsOnce: the first screen builds each row of the message list and
// the tree once. A list draws rows only for the height of its box, which is known only once
// the page is in the document; rows drawn before that, for an assumed height (a screenful),
// were thrown away and built again before anything was shown: at 1280×900, 82 rows for the
// 38 shown. The page runs firstScreenProbe (perf_test.go), which counts the rows put
// into the document, from a script of its own before boot.js.
func TestBrowsersFirstScreenRowsOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(browsertest.StaticDir(t))); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(dir, "index.html")
	html, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	boot := `<script src="boot.js" defer></script>`
	if !strings.Contains(string(html), boot) {
		t.Fatalf("index.html has no %s", boot)
	}
	html = []byte(strings.Replace(string(html), boot, `<script src="probe.js"></script>`+"\n"+boot, 1))
	for name, data := range map[string][]byte{"index.html": html, "probe.js": []byte(firstScreenProbe + ";\n")} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, ext := range []string{".br", ".gz"} { // else the server sends the old index.html
		if err := os.Remove(index + ext); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range browsertest.Browsers {
		t.Run(name, func(t *testing.T) {
			base := browsertest.ServeDir(t, dir)
			b := browsertest.StartTab(t, name)
			b.SetViewport(1280, 900)
			b.Navigate(base)
			b.WaitStarted()
			b.WaitReady("html[data-ready]")
			listSettled(t, b, "the message list", ".msg-list", ".vrow")
			treeSettled(t, b)
			var n struct{ Added, Shown int }
			b.Eval(`({Added: globalThis.firstScreen.added, Shown: document.querySelectorAll(".vrow").length})`, &n)
			if n.Shown < 10 {
				t.Fatalf("%d rows in the message list and the tree", n.Shown)
			}
			if n.Added != n.Shown {
				t.Errorf("the first screen built %d rows of the message list and the tree to show %d", n.Added, n.Shown)
			}
		})
	}
}
