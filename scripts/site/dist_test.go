//go:build !js

package main

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/internal/debpkg"
	"pgoutput-inspector/internal/dump"
	"pgoutput-inspector/internal/inspectorserver"
	"pgoutput-inspector/internal/precompress"
)

// beginHex is a Begin message (final LSN 0/2E34AE0, xid 3556) for share links.
const beginHex = "420000000002e34ae0000292492d0f8ae600000de4"

// TestDist builds the page with ./build.sh dist and opens a share link to it through static
// file servers that know nothing of the page: Python's http.server, and Go's http.FileServer
// sending main.wasm with a wrong type (as some hosts do). The page must start, obey the
// Content-Security-Policy of its <meta> element (no server sends one) and decode the link.
func TestDist(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the page and starts a browser")
	}
	dist := filepath.Join(t.TempDir(), "dist")
	build := exec.Command("bash", "../../build.sh", "dist", dist)
	build.Env = append(os.Environ(), "WASM_SIZE_REPORT=0") // a test needs no size report
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("./build.sh dist: %v\n%s", err, out)
	}
	page, err := os.ReadFile(filepath.Join(dist, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;`) {
		t.Errorf("dist/index.html has no Content-Security-Policy <meta> element:\n%s", page)
	}
	// main.wasm's size, for the loading progress: no static host writes it into the page.
	wasm, err := os.Stat(filepath.Join(dist, "main.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	if meta := inspectorserver.WASMSizeMeta(wasm.Size()); strings.Count(string(page), meta) != 1 {
		t.Errorf("dist/index.html lacks %s (or has it twice):\n%s", meta, page)
	}
	for _, name := range []string{"index.html", "boot.js", "wasm_exec.js", "style.css", "main.wasm", "export-worker.js", "export.wasm"} {
		orig, err := os.Stat(filepath.Join(dist, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, suffix := range []string{precompress.BrotliSuffix, precompress.GzipSuffix} {
			if c, err := os.Stat(filepath.Join(dist, name+suffix)); err != nil || !precompress.Fresh(orig, c) {
				t.Errorf("dist lacks a fresh %s%s (%v)", name, suffix, err)
			}
		}
	}
	// A second dist into the same folder replaces the first; a folder of something else is
	// refused.
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o644)
	if out, err := exec.Command("bash", "../../build.sh", "dist", other).CombinedOutput(); err == nil || !strings.Contains(string(out), "is not an earlier ./build.sh dist") {
		t.Errorf("./build.sh dist into a folder of other files: %v\n%s", err, out)
	}

	t.Run("python http.server", func(t *testing.T) {
		base := pythonServer(t, dist)
		b := openLink(t, base)
		if resp, ok := b.Response(base + "main.wasm"); !ok || resp.Headers["content-security-policy"] != "" {
			t.Errorf("the server sent a Content-Security-Policy header; the test needs one that does not")
		}
		// The policy comes from the <meta> element: an inline script does not run.
		b.Allow("Content Security Policy")
		var ran bool
		b.Eval(`(() => {
			const s = document.createElement("script");
			s.textContent = "window.inlineRan = true";
			document.body.append(s);
			return window.inlineRan === true;
		})()`, &ran)
		if ran {
			t.Error("an inline script ran: the <meta> Content-Security-Policy is not in force")
		}
		b.WaitProblem("script-src")
		// The export worker has no policy (a <meta> element does not reach a worker, and
		// the server sends no header): it loads and runs export.wasm.
		copyDump(t, b)
	})
	t.Run("wrong type for main.wasm", func(t *testing.T) {
		files := http.FileServer(http.Dir(dist))
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, ".wasm") {
				w.Header().Set("Content-Type", "application/octet-stream")
			}
			files.ServeHTTP(w, r)
		}))
		t.Cleanup(srv.Close)
		b := openLink(t, srv.URL+"/")
		if resp, _ := b.Response(srv.URL + "/main.wasm"); resp.MimeType != "application/octet-stream" {
			t.Errorf("main.wasm came as %q; the test wants a wrong type", resp.MimeType)
		}
		copyDump(t, b) // export.wasm comes with the wrong type too
	})
}

// copyDump chooses the Export menu's "Copy dump as text" for the page openLink opened, and
// waits until the page copies exactly what pgoutput-inspect decode --format hex prints for the
// link's message (the export worker, export-worker.js, running export.wasm, wrote it).
func copyDump(t *testing.T, b *browsertest.Browser) {
	t.Helper()
	var want strings.Builder
	dump.Decode(&want, strings.NewReader(beginHex), dump.Options{Format: input.Hex}, nil)
	b.Eval(`(() => {
		window.copied = undefined;
		Object.defineProperty(navigator, "clipboard", {configurable: true, value: {writeText: (text) => {
			window.copied = text;
			return Promise.resolve();
		}}});
		const s = document.querySelector("select.export");
		s.selectedIndex = [...s.options].findIndex((o) => o.text === "Copy dump as text");
		s.dispatchEvent(new Event("change", {bubbles: true}));
	})()`, nil)
	b.WaitVisible(".share-status.copied")
	var got struct{ Copied, Status string }
	b.Eval(`({Copied: String(window.copied), Status: document.querySelector(".share-status").textContent})`, &got)
	if got.Copied != want.String() || !strings.HasPrefix(got.Status, "Copied the dump as text (") {
		t.Errorf("the page copied %q (status %q), want %q", got.Copied, got.Status, want.String())
	}
}

// openLink opens a share link of a Begin message at base and waits for the page to decode it.
func openLink(t *testing.T, base string) *browsertest.Browser {
	t.Helper()
	b := browsertest.Start(t)
	b.Navigate(base + "#hex=" + beginHex)
	b.WaitStarted()
	b.WaitVisible(".tnode")
	if text := b.Text("body"); !strings.Contains(text, "Final LSN") || !strings.Contains(text, "0/2E34AE0") {
		t.Errorf("the page did not decode the link's Begin message:\n%s", text)
	}
	return b
}

// pythonServer serves dir with `python3 -m http.server` on 127.0.0.1 and a port it picks,
// until the test ends, and returns its base URL.
func pythonServer(t *testing.T, dir string) string {
	t.Helper()
	debpkg.NoteOnFailure(t, "python3")
	cmd := exec.Command("python3", "-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", dir, "0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("python3 -m http.server: %v", err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	// It prints its address once it listens: "Serving HTTP on 127.0.0.1 port 41234 (...)".
	port := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := regexp.MustCompile(`port (\d+)`).FindStringSubmatch(sc.Text()); m != nil {
				port <- m[1]
				return
			}
		}
		close(port)
	}()
	select {
	case p, ok := <-port:
		if !ok {
			t.Fatal("python3 -m http.server exited without saying its port")
		}
		return "http://127.0.0.1:" + p + "/"
	case <-time.After(time.Minute):
		t.Fatal("python3 -m http.server did not say its port within a minute")
	}
	return ""
}
