// Package browsertest drives the inspector page in a real headless Chromium (Debian's chromium
// package) through chromedp, for tests and benchmarks, and in headless Firefox (Debian's
// firefox-esr) through npm puppeteer-core over WebDriver BiDi (StartFirefox; the package is
// installed into a cache directory on first use). Tab is what both offer, so that one test
// body runs in each browser (Browsers, StartTab).
//
// A test serves the page and starts a browser:
//
//	func TestPage(t *testing.T) {
//		base := browsertest.Serve(t)   // the page on http://127.0.0.1:PORT/
//		b := browsertest.Start(t)      // a tab of headless Chromium
//		b.Navigate(base + "#hex=42...") // waits for the load event
//		b.WaitVisible(".tree")
//		if n := b.Count(".tree .node"); n != 7 { ... }
//	}
//
// Navigating to the same page with another fragment is a same-document navigation: it returns
// at once, and the page sees a hashchange. NewTab opens a second tab, for links opened in a
// new tab.
//
// A benchmark measures with the page's own clock and reports it as a metric:
//
//	func BenchmarkFirstExample(b *testing.B) {
//		base := browsertest.Serve(b)
//		br := browsertest.Start(b)
//		var total time.Duration
//		for i := 0; i < b.N; i++ {
//			total += br.TimeToSelector(base, ".tree .node")
//		}
//		b.ReportMetric(float64(total.Microseconds())/1e3/float64(b.N), "ms/first-example")
//	}
//
// The Browser records, from the moment it starts, every request the page makes, everything
// the page prints to the console, uncaught exceptions, Content-Security-Policy violations and
// the browser's own error log (failed loads, for instance). When the test ends it fails the
// test for each problem the test did not Allow, and for each request that left the origins the
// test navigated to. So every browser test also checks that the page stays quiet and local.
//
// Each browser runs once per test process and each test gets a fresh browser context (an
// incognito profile) and tab in it: starting Chromium or Firefox costs seconds on a loaded
// machine, a context a few milliseconds. A package of browser tests stops them at its end
// with Main in its TestMain. Tests of one process run one at a time (no t.Parallel).
//
// Chromium must be installed at /usr/bin/chromium; when it is not, Start fails the test with
// the command that installs it (./build.sh test and .ci/run install it when run as root).
// Compiled for GOOS=js (./build.sh test also runs the page's packages under Node), Start and
// Serve skip the test: it runs in the native go test. Put //go:build !js in browser test files
// to spare that compilation.
package browsertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"pgoutput-inspector/internal/debpkg"
)

// ChromiumPath is where Debian's chromium package installs the browser.
const ChromiumPath = "/usr/bin/chromium"

// InstallCommand installs Chromium on Debian (as root).
const InstallCommand = "apt-get update && apt-get install -y chromium"

// DefaultTimeout bounds each helper call (a navigation, a wait, an evaluation). It is generous:
// it only decides how long a broken test hangs, and a loaded 2-core machine is slow.
const DefaultTimeout = 60 * time.Second

// reportBinding is the name of the function the page calls (through a CDP binding) to report
// Content-Security-Policy violations; see cspListener.
const reportBinding = "__browsertestReport"

// cspListener runs in every document before its own scripts. The securitypolicyviolation event
// carries the violated directive and the blocked URI, which the browser's log text words
// differently from one version to the next.
const cspListener = `addEventListener("securitypolicyviolation", (e) => {
	` + reportBinding + `(JSON.stringify({directive: e.effectiveDirective, blocked: e.blockedURI,
		source: e.sourceFile, line: e.lineNumber, sample: e.sample}));
}, true);`

// Problem is something the page reported that a working page should not.
type Problem struct {
	// Kind is "console" (console.error or console.assert, or a Go panic printed by the WASM
	// runtime), "exception" (uncaught), "csp" (a Content-Security-Policy violation) or "log"
	// (an error in the browser's log, such as a failed load; CSP violations show here too).
	Kind string
	// Text is the message.
	Text string
}

func (p Problem) String() string { return p.Kind + ": " + p.Text }

// Response is what the browser received for one URL.
type Response struct {
	Status   int
	MimeType string
	// Headers by lower-case name, as the browser saw them (Content-Encoding included; the
	// body was decompressed).
	Headers map[string]string
}

// Browser is a tab of headless Chromium in a browser context of its own, opened by Start for
// one test and closed when the test ends.
type Browser struct {
	t testing.TB

	// Ctx is the tab. Run chromedp actions the helpers lack with b.Run, or with
	// chromedp.Run(b.Ctx, …) (then bound the time yourself).
	Ctx context.Context

	// Timeout bounds each helper call; DefaultTimeout unless changed.
	Timeout time.Duration

	mu        sync.Mutex
	done      bool
	requests  []string
	responses map[string]Response
	console   []string
	problems  []Problem
	allowed   []string
	origins   map[string]bool
}

// Start opens a tab for the test in headless Chromium, in a browser context of its own (an
// incognito profile: no cookies, storage or cache from other tests). One Chromium process
// serves every test of the test process: it starts with the first Start, and Main stops it.
// The tab closes when the test ends; then unexpected problems and off-origin requests fail
// the test.
func Start(t testing.TB) *Browser {
	t.Helper()
	skipUnderJS(t)
	debpkg.NoteOnFailure(t, "chromium")
	browserCtx, err := sharedChromium()
	if err != nil {
		failStart(t, err)
	}
	b := newBrowser(t)
	tabCtx, cancelTab, dispose, err := openTab(browserCtx)
	if err != nil {
		t.Fatalf("browsertest: opening a tab in %s: %v", ChromiumPath, err)
	}
	b.Ctx = tabCtx
	chromedp.ListenTarget(tabCtx, b.onEvent)

	t.Cleanup(func() {
		b.check()
		b.close(cancelTab)
		if err := dispose(); err != nil {
			t.Logf("browsertest: closing the browser context: %v", err)
		}
	})

	if err := b.prepare(); err != nil {
		t.Fatalf("browsertest: opening a tab in %s: %v", ChromiumPath, err)
	}
	return b
}

// openTab opens a tab of the shared Chromium in a browser context of its own. The tab opens
// with the first chromedp.Run on tabCtx; cancelTab closes it, and dispose then closes the
// context, with its storage and cache.
func openTab(browserCtx context.Context) (tabCtx context.Context, cancelTab context.CancelFunc, dispose func() error, err error) {
	// A browser context has no window of its own, and headless Chromium opens a tab only in a
	// window ("no browser is open"): the tab is a new window of the new context.
	browser := chromedp.FromContext(browserCtx).Browser
	ctx, cancel := context.WithTimeout(browserCtx, DefaultTimeout)
	defer cancel()
	exec := cdp.WithExecutor(ctx, browser)
	id, err := target.CreateBrowserContext().Do(exec)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("opening a browser context: %w", err)
	}
	dispose = func() error {
		ctx, cancel := context.WithTimeout(browserCtx, 10*time.Second)
		defer cancel()
		return target.DisposeBrowserContext(id).Do(cdp.WithExecutor(ctx, browser))
	}
	tab, err := target.CreateTarget("about:blank").WithBrowserContextID(id).WithNewWindow(true).Do(exec)
	if err != nil {
		dispose()
		return nil, nil, nil, err
	}
	tabCtx, cancelTab = chromedp.NewContext(browserCtx, chromedp.WithTargetID(tab))
	return tabCtx, cancelTab, dispose, nil
}

// probeChromium opens a tab as Start does, evaluates an expression in it and closes it.
func probeChromium(browserCtx context.Context) error {
	tabCtx, cancelTab, dispose, err := openTab(browserCtx)
	if err != nil {
		return err
	}
	defer dispose()
	defer cancelTab()
	b := &Browser{Ctx: tabCtx}
	if err := b.prepare(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(tabCtx, DefaultTimeout)
	defer cancel()
	var two int
	if err := chromedp.Run(ctx, chromedp.Evaluate(`1 + 1`, &two)); err != nil || two != 2 {
		return fmt.Errorf("evaluating 1 + 1 in a tab: %d, %v", two, err)
	}
	return nil
}

// chromium is the one Chromium process of the test process (see Start and Main).
var chromium struct {
	sync.Mutex
	ctx     context.Context // the browser's first tab, which no test uses
	cancel  func()          // stops the browser
	profile string
	// cannot is set once Chromium could not be driven: every later test fails with it.
	cannot *cannotDrive
}

// sharedChromium returns the context of the test process's Chromium, starting it when none
// runs (the first time, or after it exited).
func sharedChromium() (context.Context, error) {
	chromium.Lock()
	defer chromium.Unlock()
	if chromium.cannot != nil {
		return nil, chromium.cannot
	}
	if chromium.ctx != nil && chromium.ctx.Err() == nil {
		return chromium.ctx, nil
	}
	stopChromiumLocked()
	if _, err := os.Stat(ChromiumPath); err != nil {
		return nil, fmt.Errorf("Chromium is not installed (%s: %v); install it with:\n\t%s\n(./build.sh test does this when run as root)",
			ChromiumPath, err, InstallCommand)
	}
	// Not t.TempDir: Chromium's helper processes may still write into the profile for a
	// moment after the browser exits.
	profile, err := os.MkdirTemp("", "browsertest-profile-")
	if err != nil {
		return nil, err
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(ChromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 900),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	// chromedp's own error messages are not kept: Chromium newer than chromedp's protocol
	// tables sends events chromedp cannot decode, which say nothing about the page; what the
	// page does comes to each tab's listener (Browser.onEvent).
	ctx, cancelCtx := chromedp.NewContext(allocCtx, chromedp.WithLogf(func(string, ...any) {}), chromedp.WithErrorf(func(string, ...any) {}))
	chromium.ctx, chromium.profile = ctx, profile
	chromium.cancel = func() {
		// Browser.close, then wait for the process; killed when it does not close in time.
		closed := make(chan struct{})
		go func() {
			chromedp.Cancel(ctx)
			close(closed)
		}()
		select {
		case <-closed:
		case <-time.After(10 * time.Second):
		}
		cancelCtx()
		cancelAlloc()
	}
	// The first Run starts the browser and attaches to its first tab; then a tab is opened as
	// each test opens one, so that a Chromium chromedp cannot drive is said once, not by each
	// test.
	err = chromedp.Run(ctx)
	if err == nil {
		err = probeChromium(ctx)
	}
	if err != nil {
		stopChromiumLocked()
		driver := "chromedp " + moduleVersion("github.com/chromedp/chromedp") + " (cdproto " + moduleVersion("github.com/chromedp/cdproto") + ") over the Chrome DevTools Protocol"
		chromium.cannot = newCannotDrive("chromium", ChromiumPath, driver, err, chromiumFix)
		return nil, chromium.cannot
	}
	return ctx, nil
}

// chromiumFix is the other way to mend a Chromium chromedp cannot drive.
const chromiumFix = `update chromedp and its protocol tables for this Chromium (the tests use chromedp's classic API):
	go get github.com/chromedp/chromedp@latest github.com/chromedp/cdproto@latest && go mod tidy`

func stopChromiumLocked() {
	if chromium.cancel != nil {
		chromium.cancel()
		removeDir(chromium.profile)
	}
	chromium.ctx, chromium.cancel, chromium.profile = nil, nil, ""
}

// Main runs the tests of a package that uses browsers, then stops the browsers they shared.
// A package's TestMain calls it:
//
//	func TestMain(m *testing.M) { browsertest.Main(m) }
//
// Without it the browsers still stop when the test process exits, but leave their profiles
// in the temporary directory.
func Main(m *testing.M) {
	code := m.Run()
	chromium.Lock()
	stopChromiumLocked()
	chromium.Unlock()
	stopFirefox()
	os.Exit(code)
}

func newBrowser(t testing.TB) *Browser {
	return &Browser{t: t, Timeout: DefaultTimeout, origins: make(map[string]bool), responses: make(map[string]Response)}
}

// prepare opens the tab of b.Ctx and installs the CSP violation listener.
func (b *Browser) prepare() error {
	// The first Run on a context opens its tab (the first one starts the browser too), which
	// lives as long as the context of that Run: it must be b.Ctx itself, not one with a
	// timeout.
	return chromedp.Run(b.Ctx,
		runtime.AddBinding(reportBinding),
		chromedp.ActionFunc(func(ctx context.Context) error {
			_, err := page.AddScriptToEvaluateOnNewDocument(cspListener).Do(ctx)
			return err
		}),
	)
}

// NewTab opens another tab in the same browser (same profile, so the same storage), as a
// person opening a link in a new tab. It records and checks the page like the first tab does,
// with origins and allowed problems of its own, and closes when the test ends.
func (b *Browser) NewTab() *Browser {
	b.t.Helper()
	nb := newBrowser(b.t)
	nb.Timeout = b.Timeout
	ctx, cancel := chromedp.NewContext(b.Ctx)
	nb.Ctx = ctx
	chromedp.ListenTarget(ctx, nb.onEvent)
	// Registered after Start's cleanup, so it runs before the browser stops.
	b.t.Cleanup(func() {
		nb.check()
		cancel()
	})
	if err := nb.prepare(); err != nil {
		b.t.Fatalf("browsertest: opening a tab: %v", err)
	}
	return nb
}

// close closes the tab and its browser context, giving up after a few seconds.
func (b *Browser) close(cancelTab context.CancelFunc) {
	closed := make(chan struct{})
	go func() {
		cancelTab()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		b.t.Logf("browsertest: the Chromium tab did not close within 10s")
	}
}

// removeDir removes dir, retrying while a browser's last helper processes finish writing.
func removeDir(dir string) error {
	var err error
	for range 50 {
		if err = os.RemoveAll(dir); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// removeAll removes dir (see removeDir), logging a failure.
func removeAll(t testing.TB, dir string) {
	if err := removeDir(dir); err != nil {
		t.Logf("browsertest: removing the browser profile: %v", err)
	}
}

// skipUnderJS skips a browser test compiled for GOOS=js: under Node there is no browser to
// start, and ./build.sh test runs the same test natively. A //go:build !js line in the test
// file saves compiling it for js at all.
func skipUnderJS(t testing.TB) {
	t.Helper()
	if goruntime.GOOS == "js" {
		t.Skip("browsertest: browser tests run natively (go test), not under GOOS=js")
	}
}

// onEvent records what the page does. It runs on chromedp's event loop and must not block.
func (b *Browser) onEvent(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done {
		return
	}
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		b.requests = append(b.requests, ev.Request.URL)
	case *network.EventResponseReceived:
		r := ev.Response
		h := make(map[string]string, len(r.Headers))
		for k, v := range r.Headers {
			h[strings.ToLower(k)] = fmt.Sprint(v)
		}
		b.responses[r.URL] = Response{Status: int(r.Status), MimeType: r.MimeType, Headers: h}
	case *runtime.EventConsoleAPICalled:
		text := consoleText(ev.Args)
		b.console = append(b.console, string(ev.Type)+": "+text)
		switch {
		case ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeAssert:
			b.problems = append(b.problems, Problem{"console", text})
		case strings.HasPrefix(text, "panic: ") || strings.HasPrefix(text, "fatal error: "):
			// The Go runtime prints a panic with console.log before the program exits.
			b.problems = append(b.problems, Problem{"console", text})
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			text += " " + d.Exception.Description
		}
		b.problems = append(b.problems, Problem{"exception", fmt.Sprintf("%s (%s:%d:%d)", text, d.URL, d.LineNumber+1, d.ColumnNumber+1)})
	case *runtime.EventBindingCalled:
		if ev.Name != reportBinding {
			return
		}
		var v struct {
			Directive, Blocked, Source, Sample string
			Line                               int
		}
		if err := json.Unmarshal([]byte(ev.Payload), &v); err != nil {
			b.problems = append(b.problems, Problem{"csp", "Content Security Policy violation: " + ev.Payload})
			return
		}
		b.problems = append(b.problems, Problem{"csp", fmt.Sprintf(
			"Content Security Policy violation: directive %s blocked %q (at %s:%d, sample %q)",
			v.Directive, v.Blocked, v.Source, v.Line, v.Sample)})
	case *cdplog.EventEntryAdded:
		e := ev.Entry
		if e.Level == cdplog.LevelError {
			text := e.Text
			if e.URL != "" && !strings.Contains(text, e.URL) {
				text += " (" + e.URL + ")"
			}
			b.problems = append(b.problems, Problem{"log", string(e.Source) + ": " + text})
		}
	}
}

// consoleText joins console arguments the way DevTools shows them, near enough.
func consoleText(args []*runtime.RemoteObject) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		switch {
		case a.Value != nil:
			var s string
			if json.Unmarshal(a.Value, &s) == nil {
				parts = append(parts, s)
			} else {
				parts = append(parts, string(a.Value))
			}
		case a.UnserializableValue != "":
			parts = append(parts, string(a.UnserializableValue))
		case a.Description != "":
			parts = append(parts, a.Description)
		default:
			parts = append(parts, string(a.Type))
		}
	}
	return strings.Join(parts, " ")
}

// check fails the test for problems not allowed and for requests off the navigated origins.
func (b *Browser) check() {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done = true
	var bad []string
	for _, p := range b.problems {
		if !b.allowedLocked(p) {
			bad = append(bad, p.String())
		}
	}
	if len(bad) > 0 {
		b.t.Errorf("browsertest: the page reported %d problem(s):\n\t%s", len(bad), strings.Join(bad, "\n\t"))
	}
	if off := b.offOriginLocked(); len(off) > 0 {
		b.t.Errorf("browsertest: the page made %d request(s) outside its origin (%s):\n\t%s",
			len(off), strings.Join(b.originList(), ", "), strings.Join(off, "\n\t"))
	}
	if b.t.Failed() && len(b.console) > 0 {
		b.t.Logf("browsertest: console output:\n\t%s", strings.Join(b.console, "\n\t"))
	}
}

func (b *Browser) allowedLocked(p Problem) bool {
	for _, s := range b.allowed {
		if strings.Contains(p.Text, s) {
			return true
		}
	}
	return false
}

func (b *Browser) originList() []string {
	list := make([]string, 0, len(b.origins))
	for o := range b.origins {
		list = append(list, o)
	}
	slices.Sort(list)
	return list
}

// Allow makes problems whose text contains substr expected: they no longer fail the test.
// Use it for a test that provokes an error on purpose.
func (b *Browser) Allow(substr string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.allowed = append(b.allowed, substr)
}

// Problems returns every problem recorded so far, allowed or not.
func (b *Browser) Problems() []Problem {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.problems)
}

// WaitProblem waits until a problem whose text contains substr is recorded (events arrive
// asynchronously) and returns it; it fails the test after b.Timeout. It does not Allow it.
func (b *Browser) WaitProblem(substr string) Problem {
	b.t.Helper()
	deadline := time.Now().Add(b.Timeout)
	for {
		for _, p := range b.Problems() {
			if strings.Contains(p.Text, substr) {
				return p
			}
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("browsertest: no problem containing %q within %v; recorded: %v", substr, b.Timeout, b.Problems())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Requests returns the URL of every request the page made so far (documents, scripts, styles,
// main.wasm, fetches, data: URLs), in order.
func (b *Browser) Requests() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.requests)
}

// OffOriginRequests returns the requests so far that went outside the origins passed to
// Navigate. data:, blob: and about: URLs never leave the browser and are not counted.
func (b *Browser) OffOriginRequests() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.offOriginLocked()
}

func (b *Browser) offOriginLocked() []string {
	var off []string
	for _, r := range b.requests {
		u, err := url.Parse(r)
		if err != nil {
			off = append(off, r)
			continue
		}
		switch u.Scheme {
		case "data", "blob", "about":
			continue
		}
		if !b.origins[u.Scheme+"://"+u.Host] {
			off = append(off, r)
		}
	}
	return off
}

// Response returns the last response the browser received for rawURL, if any.
func (b *Browser) Response(rawURL string) (Response, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	r, ok := b.responses[rawURL]
	return r, ok
}

// Console returns what the page printed to the console so far, one "type: text" per call.
func (b *Browser) Console() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.console)
}

// Run runs chromedp actions in the tab within b.Timeout and fails the test on error.
func (b *Browser) Run(actions ...chromedp.Action) {
	b.t.Helper()
	b.run("Run", actions...)
}

// run is Run with what the caller was doing, for the failure message.
func (b *Browser) run(what string, actions ...chromedp.Action) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.Ctx, b.Timeout)
	defer cancel()
	if err := chromedp.Run(ctx, actions...); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("%w (Browser.Timeout %v)", err, b.Timeout)
		}
		b.t.Fatalf("browsertest: %s: %v", what, err)
	}
}

// Navigate opens rawURL in the tab and waits for its load event. The URL's origin becomes one
// the page may make requests to. A fragment-only change (same document) is a navigation too.
func (b *Browser) Navigate(rawURL string) {
	b.t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		b.t.Fatalf("browsertest: Navigate(%q): %v", rawURL, err)
	}
	b.mu.Lock()
	b.origins[u.Scheme+"://"+u.Host] = true
	b.mu.Unlock()
	b.run(fmt.Sprintf("Navigate(%q)", rawURL), chromedp.Navigate(rawURL))
}

// WaitVisible waits until an element matching the CSS selector is visible.
func (b *Browser) WaitVisible(selector string) {
	b.t.Helper()
	b.run(fmt.Sprintf("WaitVisible(%q)", selector), chromedp.WaitVisible(selector, chromedp.ByQuery))
}

// WaitStarted waits until the page's program (main.wasm) has rendered: index.html shows a
// static ".boot" element while loading, which the program replaces (vecty.RenderBody replaces
// the whole body). When loading fails, boot.js turns the status into ".boot-error": then
// WaitStarted fails the test at once with its text instead of waiting for the timeout.
func (b *Browser) WaitStarted() {
	b.t.Helper()
	var failure string
	b.Eval(`new Promise((resolve) => {
		const tick = () => {
			if (!document.querySelector(".boot")) return resolve("");
			const e = document.querySelector(".boot .boot-error");
			if (e) return resolve(e.textContent || "failed");
			setTimeout(tick, 5);
		};
		tick();
	})`, &failure)
	if failure != "" {
		b.t.Fatalf("browsertest: the page did not start: %s", failure)
	}
}

// WaitNotPresent waits until no element matches the CSS selector.
func (b *Browser) WaitNotPresent(selector string) {
	b.t.Helper()
	b.run(fmt.Sprintf("WaitNotPresent(%q)", selector), chromedp.WaitNotPresent(selector, chromedp.ByQuery))
}

// WaitReady waits until an element matching the CSS selector is in the DOM.
func (b *Browser) WaitReady(selector string) {
	b.t.Helper()
	b.run(fmt.Sprintf("WaitReady(%q)", selector), chromedp.WaitReady(selector, chromedp.ByQuery))
}

// Click clicks the first element matching the CSS selector (with a real mouse event).
func (b *Browser) Click(selector string) {
	b.t.Helper()
	b.run(fmt.Sprintf("Click(%q)", selector), chromedp.Click(selector, chromedp.ByQuery, chromedp.NodeVisible))
}

// Upload chooses files (absolute paths) in the file input matching selector.
func (b *Browser) Upload(selector string, paths ...string) {
	b.t.Helper()
	b.run(fmt.Sprintf("Upload(%q)", selector), chromedp.SetUploadFiles(selector, paths, chromedp.ByQuery))
}

// Eval evaluates the JavaScript expression in the page and stores its value (JSON-decoded) in
// out, which may be nil. A promise is awaited.
func (b *Browser) Eval(expr string, out any) {
	b.t.Helper()
	b.run(fmt.Sprintf("Eval(%s)", shorten(expr)), chromedp.Evaluate(expr, out, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
		return p.WithAwaitPromise(true)
	}))
}

// Text returns the textContent of the first element matching the CSS selector, or fails the
// test when there is none.
func (b *Browser) Text(selector string) string {
	b.t.Helper()
	var s *string
	b.Eval(fmt.Sprintf(`(() => { const e = document.querySelector(%s); return e ? e.textContent : null })()`, jsString(selector)), &s)
	if s == nil {
		b.t.Fatalf("browsertest: Text: no element matches %q", selector)
	}
	return *s
}

// Count returns the number of elements matching the CSS selector.
func (b *Browser) Count(selector string) int {
	b.t.Helper()
	var n int
	b.Eval(fmt.Sprintf(`document.querySelectorAll(%s).length`, jsString(selector)), &n)
	return n
}

// ElementCount returns the number of elements in the document, the usual "DOM size".
func (b *Browser) ElementCount() int {
	b.t.Helper()
	var n int
	b.Eval(`document.getElementsByTagName("*").length`, &n)
	return n
}

// NodeCount returns the number of DOM nodes of every kind (elements, text, comments) in the
// document, the document itself included.
func (b *Browser) NodeCount() int {
	b.t.Helper()
	var n int
	b.Eval(`(() => {
		const w = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
		let n = 1;
		while (w.nextNode()) n++;
		return n;
	})()`, &n)
	return n
}

// SetViewport resizes the page's viewport, for instance to a phone's width.
func (b *Browser) SetViewport(width, height int) {
	b.t.Helper()
	b.Run(chromedp.EmulateViewport(int64(width), int64(height)))
}

// Screenshot saves a PNG of the viewport to path.
func (b *Browser) Screenshot(path string) {
	b.t.Helper()
	var png []byte
	b.Run(chromedp.CaptureScreenshot(&png))
	b.writeFile(path, png)
}

// FullScreenshot saves a PNG of the whole page, beyond the viewport, to path.
func (b *Browser) FullScreenshot(path string) {
	b.t.Helper()
	var png []byte
	b.Run(chromedp.FullScreenshot(&png, 100)) // quality 100 means PNG
	b.writeFile(path, png)
}

func (b *Browser) writeFile(path string, data []byte) {
	b.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// TimeToSelector navigates to rawURL and returns the time from the start of the navigation
// (performance.timeOrigin) to the first animation frame after an element matching the CSS
// selector appeared in the DOM: the first frame that can show it. The page loads afresh even
// when the tab shows rawURL already. The clock is the page's own
// (performance.now), so the test process's scheduling does not enter the measurement; a
// MutationObserver installed before any of the page's scripts notes the moment.
func (b *Browser) TimeToSelector(rawURL, selector string) time.Duration {
	b.t.Helper()
	script := fmt.Sprintf(`(() => {
	const sel = %s;
	window.__browsertestAppeared = new Promise((resolve) => {
		const check = () => {
			if (!document.querySelector(sel)) return false;
			requestAnimationFrame(() => resolve(performance.now()));
			return true;
		};
		const mo = new MutationObserver(() => { if (check()) mo.disconnect(); });
		mo.observe(document, {childList: true, subtree: true, attributes: true});
	});
})();`, jsString(selector))
	var id page.ScriptIdentifier
	b.Run(chromedp.ActionFunc(func(ctx context.Context) error {
		var err error
		id, err = page.AddScriptToEvaluateOnNewDocument(script).Do(ctx)
		return err
	}))
	defer b.Run(chromedp.ActionFunc(func(ctx context.Context) error {
		return page.RemoveScriptToEvaluateOnNewDocument(id).Do(ctx)
	}))
	// From about:blank, so that rawURL is always a new document, even when the tab shows it
	// already (a same-document navigation would not run the script).
	b.Run(chromedp.Navigate("about:blank"))
	b.Navigate(rawURL)
	var ms float64
	b.Eval(`window.__browsertestAppeared`, &ms)
	return time.Duration(ms * float64(time.Millisecond))
}

// shorten quotes a script for a failure message, cut to its first 160 bytes.
func shorten(script string) string {
	script = strings.Join(strings.Fields(script), " ")
	if len(script) > 160 {
		script = script[:160] + "…"
	}
	return "`" + script + "`"
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}
