package browsertest

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"

	"pgoutput-inspector/internal/inspectorserver"
	"pgoutput-inspector/internal/precompress"
)

// TestPageStarts opens the page as a person would: main.wasm starts and renders, every file
// comes from the page's own server with the headers the page needs, and nothing goes wrong on
// the way (Start fails the test on console errors, exceptions, CSP violations and off-origin
// requests).
func TestPageStarts(t *testing.T) {
	base := Serve(t)
	b := Start(t)
	b.Navigate(base)
	b.WaitStarted()

	var title string
	b.Eval(`document.title`, &title)
	if title != "pgoutput inspector" {
		t.Errorf("title = %q", title)
	}
	if text := b.Text("body"); !strings.Contains(text, "pgoutput inspector") {
		t.Errorf("body text = %q, want it to name the product", text)
	}

	reqs := b.Requests()
	for _, file := range []string{"", "style.css", "hexview.css", "wasm_exec.js", "boot.js", "main.wasm"} {
		if !slices.Contains(reqs, base+file) {
			t.Errorf("the page did not request %s; requests: %q", base+file, reqs)
		}
	}
	if off := b.OffOriginRequests(); len(off) != 0 {
		t.Errorf("requests outside %s: %q", base, off)
	}
	// index.html preloads main.wasm and boot.js fetches it: one download, the preload's. A
	// preload the fetch does not match (another credentials mode, say) downloads it twice.
	if n := countOf(reqs, base+"main.wasm"); n != 1 {
		t.Errorf("the page requested main.wasm %d times, want once (the preload, taken by boot.js's fetch); requests: %q", n, reqs)
	}

	doc, ok := b.Response(base)
	if !ok {
		t.Fatalf("no response recorded for %s", base)
	}
	if got := doc.Headers["content-security-policy"]; got != inspectorserver.ContentSecurityPolicy {
		t.Errorf("document Content-Security-Policy = %q, want %q", got, inspectorserver.ContentSecurityPolicy)
	}
	for name, want := range map[string]string{"x-content-type-options": "nosniff", "referrer-policy": "no-referrer"} {
		if got := doc.Headers[name]; got != want {
			t.Errorf("document %s = %q, want %q", name, got, want)
		}
	}
	wasm, ok := b.Response(base + "main.wasm")
	if !ok {
		t.Fatalf("no response recorded for main.wasm")
	}
	// Chromium accepts brotli; the server sends it when the build wrote main.wasm.br.
	encoding := "gzip"
	orig, err1 := os.Stat(filepath.Join(StaticDir(t), "main.wasm"))
	br, err2 := os.Stat(filepath.Join(StaticDir(t), "main.wasm"+precompress.BrotliSuffix))
	if err1 == nil && err2 == nil && precompress.Fresh(orig, br) {
		encoding = "br"
	}
	if wasm.Status != http.StatusOK || wasm.MimeType != "application/wasm" || wasm.Headers["content-encoding"] != encoding {
		t.Errorf("main.wasm: status %d, type %q, encoding %q; want 200, application/wasm, %s",
			wasm.Status, wasm.MimeType, wasm.Headers["content-encoding"], encoding)
	}

	shot := filepath.Join(t.TempDir(), "page.png")
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		shot = filepath.Join(dir, "placeholder.png")
	}
	b.Screenshot(shot)
	png, err := os.ReadFile(shot)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("screenshot %s is not a PNG", shot)
	}
}

func countOf(list []string, s string) int {
	n := 0
	for _, e := range list {
		if e == s {
			n++
		}
	}
	return n
}

// TestNewTab opens the page in a second tab and checks that the tab has records of its own.
func TestNewTab(t *testing.T) {
	base := Serve(t)
	b := Start(t)
	b.Navigate(base)
	b.WaitStarted()
	tab := b.NewTab()
	tab.Navigate(base + "#from-first-tab")
	tab.WaitStarted()
	var hash string
	tab.Eval(`location.hash`, &hash)
	if hash != "#from-first-tab" {
		t.Errorf("second tab: location.hash = %q", hash)
	}
	if reqs := tab.Requests(); !slices.Contains(reqs, base+"main.wasm") {
		t.Errorf("second tab's requests lack main.wasm: %q", reqs)
	}
	tab.Eval(`console.error("second tab only"); null`, nil)
	tab.Allow("second tab only")
	tab.WaitProblem("second tab only")
	for _, p := range b.Problems() {
		if strings.Contains(p.Text, "second tab only") {
			t.Errorf("first tab recorded the second tab's problem %v", p)
		}
	}
}

// TestCSPIsEnforced checks that the browser applies the server's policy: inline scripts,
// <style> elements and requests to other origins are refused and reported, while styles set
// through the CSSOM (element.style, which is how vecty applies vecty.Style) are not.
func TestCSPIsEnforced(t *testing.T) {
	base := Serve(t)
	b := Start(t)
	b.Navigate(base)
	b.WaitStarted()
	// Each refusal shows as a "csp" problem (the violation event) and a "log" one (the
	// browser's error log, worded differently): expected here.
	b.Allow("Content Security Policy")

	// CSSOM: allowed, and no violation.
	var color string
	b.Eval(`(() => {
		document.body.style.setProperty("outline-color", "rgb(1, 2, 3)");
		return getComputedStyle(document.body).outlineColor;
	})()`, &color)
	if color != "rgb(1, 2, 3)" {
		t.Errorf("style set through element.style: outline-color = %q, want rgb(1, 2, 3)", color)
	}

	var ran bool
	b.Eval(`(() => {
		const s = document.createElement("script");
		s.textContent = "window.inlineRan = true";
		document.body.append(s);
		return window.inlineRan === true;
	})()`, &ran)
	if ran {
		t.Error("an inline script ran")
	}
	b.WaitProblem("directive script-src-elem")

	var fetched string
	b.Eval(`fetch("http://127.0.0.2:9/x").then(() => "fetched", (e) => "refused: " + e)`, &fetched)
	if fetched == "fetched" {
		t.Error("a fetch to another origin went through")
	}
	b.WaitProblem("directive connect-src")

	var sheetApplied bool
	b.Eval(`(() => {
		const s = document.createElement("style");
		s.textContent = "body { outline-style: dotted !important }";
		document.head.append(s);
		return getComputedStyle(document.body).outlineStyle === "dotted";
	})()`, &sheetApplied)
	if sheetApplied {
		t.Error("an inline <style> element applied")
	}
	b.WaitProblem("directive style-src-elem")

	for _, p := range b.Problems() {
		if strings.Contains(p.Text, "outline-color") {
			t.Errorf("CSSOM style reported: %v", p)
		}
	}
}

// TestThemes checks the colour scheme: the system's preference by default, data-theme on
// <html> overriding it either way.
func TestThemes(t *testing.T) {
	base := Serve(t)
	b := Start(t)
	b.Navigate(base)
	b.WaitStarted()

	background := func() string {
		var bg string
		b.Eval(`getComputedStyle(document.body).backgroundColor`, &bg)
		return bg
	}
	setTheme := func(theme string) {
		b.Eval(`document.documentElement.dataset.theme = `+jsString(theme)+`; null`, nil)
		if theme == "" {
			b.Eval(`delete document.documentElement.dataset.theme; null`, nil)
		}
	}
	prefer := func(scheme string) {
		b.Run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}))
	}
	const light, dark = "rgb(255, 255, 255)", "rgb(15, 18, 22)"
	for _, tc := range []struct{ prefer, theme, want string }{
		{"light", "", light},
		{"dark", "", dark},
		{"dark", "light", light},
		{"light", "dark", dark},
	} {
		prefer(tc.prefer)
		setTheme(tc.theme)
		if got := background(); got != tc.want {
			t.Errorf("prefers-color-scheme %s, data-theme %q: body background %s, want %s", tc.prefer, tc.theme, got, tc.want)
		}
	}
}

// TestNarrowWindow checks that a phone-width window needs no sideways scrolling.
func TestNarrowWindow(t *testing.T) {
	base := Serve(t)
	b := Start(t)
	b.SetViewport(360, 740)
	b.Navigate(base)
	b.WaitStarted()
	var overflow int
	b.Eval(`document.documentElement.scrollWidth - document.documentElement.clientWidth`, &overflow)
	if overflow > 0 {
		t.Errorf("at 360 px wide the page is %d px wider than the window", overflow)
	}
}

// TestTimeToSelector checks the timing helper against the page's own clock, twice: the second
// time on the page the tab shows already, which must load afresh.
func TestTimeToSelector(t *testing.T) {
	base := Serve(t)
	b := Start(t)
	for i := range 2 {
		d := b.TimeToSelector(base, ".app, body > :not(.boot)")
		var now float64
		b.Eval(`performance.now()`, &now)
		if d <= 0 || float64(d.Microseconds())/1e3 > now {
			t.Errorf("load %d: TimeToSelector = %v, performance.now() after it %.1f ms", i+1, d, now)
		}
		t.Logf("load %d: navigation to first rendered frame: %v", i+1, d)
	}
}

func TestOffOrigin(t *testing.T) {
	b := &Browser{origins: map[string]bool{"http://127.0.0.1:8080": true}}
	b.requests = []string{
		"http://127.0.0.1:8080/",
		"http://127.0.0.1:8080/main.wasm",
		"data:,",
		"blob:http://127.0.0.1:8080/0b3c",
		"about:blank",
		"http://127.0.0.1:8081/other-port",
		"https://127.0.0.1:8080/other-scheme",
		"http://localhost:8080/other-host",
		"ws://127.0.0.1:8080/socket",
	}
	want := []string{
		"http://127.0.0.1:8081/other-port",
		"https://127.0.0.1:8080/other-scheme",
		"http://localhost:8080/other-host",
		"ws://127.0.0.1:8080/socket",
	}
	if got := b.OffOriginRequests(); !slices.Equal(got, want) {
		t.Errorf("OffOriginRequests = %q, want %q", got, want)
	}
}

// recorder stands in for the test in Browser.check, to see what it would report.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Logf(string, ...any) {}

// TestProblemsFailTheTest checks that console errors, uncaught exceptions, failed loads, Go
// panics and CSP violations would each fail a test, and that Allow excuses them.
func TestProblemsFailTheTest(t *testing.T) {
	base := Serve(t)
	b := Start(t)
	b.Navigate(base)
	b.WaitStarted()
	b.Eval(`console.error("deliberate console error"); null`, nil)
	b.Eval(`setTimeout(() => { throw new Error("deliberate uncaught exception") }); null`, nil)
	b.Eval(`console.log("panic: deliberate Go panic"); null`, nil)
	b.Eval(`fetch("missing-file.json").then((r) => r.status)`, nil)
	b.Eval(`(() => { const s = document.createElement("script"); s.textContent = "1"; document.body.append(s); return null })()`, nil)
	for _, s := range []string{"deliberate console error", "deliberate uncaught exception", "deliberate Go panic", "missing-file.json", "script-src-elem"} {
		b.WaitProblem(s)
	}
	b.Allow("deliberate console error")

	rec := &recorder{TB: t}
	b.mu.Lock()
	b.t = rec
	b.mu.Unlock()
	b.check()
	b.mu.Lock()
	b.t, b.done, b.problems = t, false, nil
	b.mu.Unlock()

	report := strings.Join(rec.errs, "\n")
	t.Logf("would report:\n%s", report)
	for _, want := range []string{"exception: Uncaught Error: deliberate uncaught exception", "console: panic: deliberate Go panic",
		"missing-file.json", "csp: Content Security Policy violation: directive script-src-elem"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(report, "deliberate console error") {
		t.Error("an allowed problem was reported")
	}
}
