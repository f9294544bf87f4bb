//go:build !js

package browsertest

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"pgoutput-inspector/internal/debpkg"
	"pgoutput-inspector/internal/npmcache"
)

// FirefoxPath is where Debian's firefox-esr package installs the browser.
const FirefoxPath = "/usr/bin/firefox-esr"

// FirefoxInstallCommand installs Firefox on Debian (as root).
const FirefoxInstallCommand = "apt-get update && apt-get install -y firefox-esr"

// PuppeteerPin is the npm pin (internal/npmcache) of puppeteer-core, which drives Firefox
// over WebDriver BiDi: installed by the first Firefox test into a cache directory (never into
// the repository). Its package.json names the release: the one made for the Firefox ESR that
// Debian ships (docs/testing.md, "Browsers and their drivers").
const PuppeteerPin = "puppeteer-core"

// The viewport Firefox's page is laid out in.
const firefoxWidth, firefoxHeight = 1280, 900

//go:embed firefox_bridge.mjs
var firefoxBridge []byte

// Firefox is a tab of headless Firefox in a browser context of its own, opened by
// StartFirefox for one test and closed when the test ends. One Firefox, driven through
// puppeteer-core over WebDriver BiDi by a Node.js process (firefox_bridge.mjs), serves every
// test of the test process. Like Browser, it records the page's console errors, uncaught
// exceptions, CSP violations, failed loads and requests, and fails the test for those not
// allowed and for requests off the origins navigated to. The page's CSP forbids evaluating
// strings in the page, so puppeteer's waitForFunction cannot run there: every wait polls with
// an evaluation from outside.
type Firefox struct {
	t testing.TB
	// Timeout bounds each call; DefaultTimeout unless changed.
	Timeout time.Duration

	p   *firefoxProcess
	tab int

	mu       sync.Mutex
	done     bool
	problems []Problem
	allowed  []string
	requests []string
	origins  map[string]bool
	doc      string // the document shown, without its fragment
}

type answer struct {
	Value json.RawMessage
	Error string
}

// firefoxProcess is the bridge and its Firefox, shared by the tests of the process.
type firefoxProcess struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	dir    string
	exited chan struct{}
	// launchErr is why the bridge could not launch Firefox, when it could not.
	launchErr string

	mu      sync.Mutex
	next    int
	waiting map[int]chan answer
	tabs    map[int]*Firefox
	stderr  strings.Builder
}

var firefox struct {
	sync.Mutex
	p *firefoxProcess
	// cannot is set once Firefox could not be driven: every later test fails with it.
	cannot *cannotDrive
}

// StartFirefox opens a tab for the test in headless Firefox, in a browser context of its own.
// The first call starts Firefox (Main stops it); it installs PuppeteerPin with npm into the
// cache on first use, and fails the test with the command to run when Firefox, Node.js or npm
// is missing, or when puppeteer-core cannot drive this Firefox.
func StartFirefox(t testing.TB) *Firefox {
	t.Helper()
	skipUnderJS(t)
	debpkg.NoteOnFailure(t, "firefox-esr")
	p, err := sharedFirefox()
	if err != nil {
		failStart(t, err)
	}
	f := &Firefox{t: t, Timeout: DefaultTimeout, p: p, origins: map[string]bool{}}
	v, err := p.call("open", 0, nil, 3*DefaultTimeout)
	if err != nil {
		t.Fatalf("browsertest: opening a Firefox tab: %v", err)
	}
	var opened [3]int
	if err := json.Unmarshal(v, &opened); err != nil {
		t.Fatalf("browsertest: opening a Firefox tab: answer %s: %v", v, err)
	}
	f.tab = opened[0]
	p.mu.Lock()
	p.tabs[f.tab] = f
	p.mu.Unlock()
	t.Cleanup(func() {
		f.check()
		if _, err := p.call("close", f.tab, nil, 20*time.Second); err != nil {
			t.Logf("browsertest: closing the Firefox tab: %v", err)
		}
		p.mu.Lock()
		delete(p.tabs, f.tab)
		p.mu.Unlock()
	})
	// Every test is written for this viewport; a page laid out in another size draws other
	// rows (in Firefox's own window size the tree once drew one row short of a value).
	if opened[1] != firefoxWidth || opened[2] != firefoxHeight {
		t.Fatalf("browsertest: Firefox's viewport is %d×%d, not %d×%d", opened[1], opened[2], firefoxWidth, firefoxHeight)
	}
	return f
}

// sharedFirefox returns the test process's Firefox, starting it when none runs (the first
// time, or after it exited).
func sharedFirefox() (*firefoxProcess, error) {
	firefox.Lock()
	defer firefox.Unlock()
	if firefox.cannot != nil {
		return nil, firefox.cannot
	}
	if p := firefox.p; p != nil {
		select {
		case <-p.exited:
			p.stop()
		default:
			return p, nil
		}
	}
	firefox.p = nil
	if _, err := os.Stat(FirefoxPath); err != nil {
		return nil, fmt.Errorf("Firefox is not installed (%s: %v); install it with:\n\t%s\n(.ci/run does this)", FirefoxPath, err, FirefoxInstallCommand)
	}
	pkg, driver, err := puppeteerCore()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "browsertest-firefox-")
	if err != nil {
		return nil, err
	}
	bridge := filepath.Join(dir, "bridge.mjs")
	profile := filepath.Join(dir, "profile")
	if err := os.WriteFile(bridge, firefoxBridge, 0o644); err != nil {
		return nil, err
	}
	if err := os.Mkdir(profile, 0o755); err != nil {
		return nil, err
	}
	p := &firefoxProcess{dir: dir, exited: make(chan struct{}), waiting: map[int]chan answer{}, tabs: map[int]*Firefox{}}
	cmd := exec.Command("node", bridge)
	cmd.Env = append(os.Environ(), "PUPPETEER_CORE="+pkg, "FIREFOX="+FirefoxPath, "PROFILE="+profile,
		"WIDTH="+strconv.Itoa(firefoxWidth), "HEIGHT="+strconv.Itoa(firefoxHeight), "MOZ_HEADLESS=1")
	cmd.Stderr = &lockedWriter{mu: &p.mu, b: &p.stderr}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // Firefox goes with the bridge
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the Firefox bridge (node): %v", err)
	}
	p.cmd = cmd
	ready := make(chan struct{})
	go p.read(stdout, ready)
	cannot := func(err error) (*firefoxProcess, error) {
		p.stop()
		firefox.cannot = newCannotDrive("firefox-esr", FirefoxPath, driver, err, firefoxFix)
		return nil, firefox.cannot
	}
	select {
	case <-ready:
	case <-p.exited:
		if p.launchErr != "" {
			return cannot(errors.New(p.launchErr))
		}
		p.stop()
		return nil, fmt.Errorf("the Firefox bridge exited: %s", p.stderrText())
	case <-time.After(3 * DefaultTimeout):
		return cannot(fmt.Errorf("Firefox did not start within %v: %s", 3*DefaultTimeout, p.stderrText()))
	}
	// A first tab, opened and closed: what every test does first, tried once here, so that a
	// Firefox the driver cannot drive is said once, not by each test.
	if err := p.probe(); err != nil {
		return cannot(err)
	}
	firefox.p = p
	return p, nil
}

// firefoxFix is the other way to mend a Firefox puppeteer-core cannot drive.
const firefoxFix = `pin the puppeteer-core release made for this Firefox (its lib/cjs/puppeteer/revisions.js names the
Firefox it was tested with) in internal/npmcache/pins/puppeteer-core/package.json, then run
	scripts/npm-pins.sh puppeteer-core`

// probe opens a tab as StartFirefox does and closes it. A command refused says only what
// the driver said.
func (p *firefoxProcess) probe() error {
	v, err := p.call("open", 0, nil, 3*DefaultTimeout)
	if e := (*bridgeError)(nil); errors.As(err, &e) {
		return fmt.Errorf("opening a tab: %s", e.msg)
	}
	if err != nil {
		return err
	}
	var opened [3]int
	if err := json.Unmarshal(v, &opened); err != nil {
		return fmt.Errorf("opening a tab: answer %s: %v", v, err)
	}
	_, err = p.call("close", opened[0], nil, 20*time.Second)
	return err
}

// stopFirefox stops the test process's Firefox, if one runs.
func stopFirefox() {
	firefox.Lock()
	defer firefox.Unlock()
	if firefox.p != nil {
		firefox.p.stop()
		firefox.p = nil
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *strings.Builder
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (p *firefoxProcess) stderrText() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// read takes the bridge's answers and events until it exits.
func (p *firefoxProcess) read(r io.Reader, ready chan struct{}) {
	defer close(p.exited)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for sc.Scan() {
		var m struct {
			ID                     *int
			Tab                    int
			Event, Kind, Text, URL string
			Value                  json.RawMessage
			Error                  string
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			continue
		}
		p.mu.Lock()
		switch {
		case m.ID != nil:
			if c := p.waiting[*m.ID]; c != nil {
				c <- answer{m.Value, m.Error}
				delete(p.waiting, *m.ID)
			}
		case m.Event == "ready":
			close(ready)
		case m.Event == "failed":
			p.launchErr = m.Error
		case p.tabs[m.Tab] != nil:
			p.tabs[m.Tab].record(m.Event, m.Kind, m.Text, m.URL)
		}
		p.mu.Unlock()
	}
}

// record keeps an event of the tab's page.
func (f *Firefox) record(event, kind, text, url string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.done:
	case event == "problem":
		f.problems = append(f.problems, Problem{kind, text})
	case event == "request":
		f.requests = append(f.requests, url)
	}
}

// bridgeError is a command the bridge answered with an error.
type bridgeError struct {
	op, line string
	msg      string // the error's message, then its stack
}

func (e *bridgeError) Error() string { return fmt.Sprintf("%s(%s): %s", e.op, shorten(e.line), e.msg) }

// call runs one command of the bridge on a tab and returns its value, or an error: the
// bridge's, its exit, or no answer within timeout.
func (p *firefoxProcess) call(op string, tab int, args map[string]any, timeout time.Duration) (json.RawMessage, error) {
	p.mu.Lock()
	p.next++
	id := p.next
	c := make(chan answer, 1)
	p.waiting[id] = c
	p.mu.Unlock()
	line, _ := json.Marshal(map[string]any{"id": id, "op": op, "tab": tab, "args": args})
	if _, err := p.stdin.Write(append(line, '\n')); err != nil {
		return nil, fmt.Errorf("%s: %v: %s", op, err, p.stderrText())
	}
	select {
	case a := <-c:
		if a.Error != "" {
			return nil, &bridgeError{op, string(line), a.Error}
		}
		return a.Value, nil
	case <-p.exited:
		return nil, fmt.Errorf("%s: the bridge exited: %s", op, p.stderrText())
	case <-time.After(timeout):
		return nil, fmt.Errorf("%s(%s): no answer within %v (Firefox.Timeout)", op, shorten(string(line)), timeout)
	}
}

// call runs one command on the tab and returns its value, failing the test on an error or
// after f.Timeout.
func (f *Firefox) call(op string, args map[string]any) json.RawMessage {
	f.t.Helper()
	v, err := f.p.call(op, f.tab, args, f.Timeout)
	if err != nil {
		f.t.Fatalf("browsertest: Firefox %v", err)
	}
	return v
}

// stop closes the browser, or kills the bridge and Firefox with it, and removes the profile.
func (p *firefoxProcess) stop() {
	p.stdin.Close() // the bridge closes the browser and exits
	select {
	case <-p.exited:
	case <-time.After(20 * time.Second):
	}
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	p.cmd.Wait()
	removeDir(p.dir)
}

// check fails the test for problems not allowed and for requests off the navigated origins.
func (f *Firefox) check() {
	f.t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.done = true
	var bad []string
	for _, p := range f.problems {
		if !slices.ContainsFunc(f.allowed, func(s string) bool { return strings.Contains(p.Text, s) }) {
			bad = append(bad, p.String())
		}
	}
	if len(bad) > 0 {
		f.t.Errorf("browsertest: the page reported %d problem(s) in Firefox:\n\t%s", len(bad), strings.Join(bad, "\n\t"))
	}
	var off []string
	for _, r := range f.requests {
		u, err := url.Parse(r)
		if err == nil && (u.Scheme == "data" || u.Scheme == "blob" || u.Scheme == "about" || f.origins[u.Scheme+"://"+u.Host]) {
			continue
		}
		off = append(off, r)
	}
	if len(off) > 0 {
		f.t.Errorf("browsertest: the page made %d request(s) outside its origin in Firefox:\n\t%s", len(off), strings.Join(off, "\n\t"))
	}
}

// Name returns "firefox".
func (f *Firefox) Name() string { return "firefox" }

// Allow makes problems whose text contains substr expected: they no longer fail the test.
func (f *Firefox) Allow(substr string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.allowed = append(f.allowed, substr)
}

// Problems returns every problem recorded so far, allowed or not.
func (f *Firefox) Problems() []Problem {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.problems)
}

// Navigate opens rawURL and waits for its load event; a URL that differs from the document
// shown only in its fragment is a same-document navigation, which returns at once and
// which the page sees as a hashchange. The URL's origin becomes one the page may request.
func (f *Firefox) Navigate(rawURL string) {
	f.t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		f.t.Fatalf("browsertest: Navigate(%q): %v", rawURL, err)
	}
	doc, frag, _ := strings.Cut(rawURL, "#")
	f.mu.Lock()
	f.origins[u.Scheme+"://"+u.Host] = true
	same := f.doc == doc
	f.doc = doc
	f.mu.Unlock()
	if same {
		f.call("hash", map[string]any{"hash": "#" + frag})
		return
	}
	f.call("goto", map[string]any{"url": rawURL})
}

// Eval evaluates the JavaScript expression in the page (a promise is awaited) and stores its
// value, JSON-decoded, in out, which may be nil.
func (f *Firefox) Eval(expr string, out any) {
	f.t.Helper()
	v := f.call("eval", map[string]any{"expr": expr})
	if out != nil {
		if err := json.Unmarshal(v, out); err != nil {
			f.t.Fatalf("browsertest: Firefox Eval(%s): %v (value %s)", shorten(expr), err, v)
		}
	}
}

// poll waits until the JavaScript expression cond is true, evaluating it from outside the
// page every few milliseconds (the page's CSP forbids waitForFunction's way).
func (f *Firefox) poll(what, cond string) {
	f.t.Helper()
	deadline := time.Now().Add(f.Timeout)
	for {
		var ok bool
		f.Eval(`!!(`+cond+`)`, &ok)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("browsertest: Firefox %s: not within %v", what, f.Timeout)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// WaitStarted waits until the page's program has rendered (see Browser.WaitStarted).
func (f *Firefox) WaitStarted() {
	f.t.Helper()
	f.poll("WaitStarted", `!document.querySelector(".boot") || document.querySelector(".boot .boot-error")`)
	var failure string
	f.Eval(`(() => { const e = document.querySelector(".boot .boot-error"); return e ? e.textContent || "failed" : ""; })()`, &failure)
	if failure != "" {
		f.t.Fatalf("browsertest: the page did not start in Firefox: %s", failure)
	}
}

// WaitReady waits until an element matching the CSS selector is in the DOM.
func (f *Firefox) WaitReady(selector string) {
	f.t.Helper()
	f.poll(fmt.Sprintf("WaitReady(%q)", selector), `document.querySelector(`+jsString(selector)+`)`)
}

// WaitVisible waits until an element matching the CSS selector is visible.
func (f *Firefox) WaitVisible(selector string) {
	f.t.Helper()
	f.poll(fmt.Sprintf("WaitVisible(%q)", selector), `(() => { const e = document.querySelector(`+jsString(selector)+`);
		return e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden"; })()`)
}

// Click clicks the first element matching the CSS selector with the mouse, once it is
// visible.
func (f *Firefox) Click(selector string) {
	f.t.Helper()
	f.WaitVisible(selector)
	f.call("click", map[string]any{"selector": selector})
}

// Upload chooses files in the file input matching selector (WebDriver BiDi's input.setFiles).
func (f *Firefox) Upload(selector string, paths ...string) {
	f.t.Helper()
	f.call("upload", map[string]any{"selector": selector, "paths": paths})
}

// Text returns the textContent of the first element matching the CSS selector, or fails the
// test when there is none.
func (f *Firefox) Text(selector string) string {
	f.t.Helper()
	var s *string
	f.Eval(`(() => { const e = document.querySelector(`+jsString(selector)+`); return e ? e.textContent : null })()`, &s)
	if s == nil {
		f.t.Fatalf("browsertest: Text: no element matches %q", selector)
	}
	return *s
}

// Count returns the number of elements matching the CSS selector.
func (f *Firefox) Count(selector string) int {
	f.t.Helper()
	var n int
	f.Eval(`document.querySelectorAll(`+jsString(selector)+`).length`, &n)
	return n
}

// Press presses a key ("ArrowDown", "Tab", "Home", a character) with modifiers held
// ("Shift", "Control").
func (f *Firefox) Press(key string, modifiers ...string) {
	f.t.Helper()
	f.call("key", map[string]any{"key": key, "modifiers": modifiers})
}

// MoveMouse moves the mouse pointer to the point (x, y) of the viewport.
func (f *Firefox) MoveMouse(x, y float64) {
	f.t.Helper()
	f.call("move", map[string]any{"x": x, "y": y})
}

// SetViewport resizes the viewport.
func (f *Firefox) SetViewport(width, height int) {
	f.t.Helper()
	f.call("viewport", map[string]any{"width": width, "height": height})
}

// puppeteerCore returns the directory of puppeteer-core, installing its pin with npm into
// the cache once (internal/npmcache), and names it as the driver of Firefox.
func puppeteerCore() (dir, driver string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	version, err := npmcache.Version(PuppeteerPin, "puppeteer-core")
	if err != nil {
		return "", "", err
	}
	prefix, err := npmcache.Install(ctx, PuppeteerPin, "the Firefox tests", nil)
	if err != nil {
		return "", "", err
	}
	return filepath.Join(prefix, "node_modules", "puppeteer-core"), "puppeteer-core " + version + " over WebDriver BiDi", nil
}

func startFirefox(t testing.TB) Tab { return StartFirefox(t) }
