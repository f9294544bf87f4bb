package browsertest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"pgoutput-inspector/internal/debpkg"
)

// fatalRecorder stands in for a test in cannotDrive.fail, to see what it would report.
type fatalRecorder struct {
	testing.TB
	name  string
	fatal []string
}

func (r *fatalRecorder) Name() string { return r.name }
func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.fatal = append(r.fatal, fmt.Sprintf(format, args...))
}

// TestCannotDriveSaysOnce checks what tests report when a browser refuses its driver, with
// the error puppeteer-core 25.16.0 got from Firefox ESR 140: the first test the whole story
// (the versions, what was refused, both ways to fix it), every later one a line.
func TestCannotDriveSaysOnce(t *testing.T) {
	refused := errors.New("opening a tab: Protocol error (emulation.setScreenOrientationOverride): unknown command emulation.setScreenOrientationOverride RemoteError@chrome://remote/content/shared/RemoteError.sys.mjs:8:8\n" +
		"WebDriverError@chrome://remote/content/shared/webdriver/Errors.sys.mjs:199:5\n" +
		"ProtocolError: Protocol error (emulation.setScreenOrientationOverride): unknown command\n" +
		"    at BidiPage.setViewport (file:///cache/puppeteer-core/lib/puppeteer/bidi/Page.js:418:49)\n" +
		"    at Object.open (file:///tmp/bridge.mjs:59:16)")
	e := newCannotDrive("firefox-esr", "/bin/echo", "puppeteer-core 25.16.0 over WebDriver BiDi", refused, firefoxFix)
	first := &fatalRecorder{TB: t, name: "TestA/firefox"}
	failStart(first, e)
	later := &fatalRecorder{TB: t, name: "TestB/firefox"}
	failStart(later, e)
	if len(first.fatal) != 1 || len(later.fatal) != 1 {
		t.Fatalf("first test failed %d times, the later %d; want once each", len(first.fatal), len(later.fatal))
	}
	whole := first.fatal[0]
	t.Logf("the first test reports:\n%s", whole)
	for _, want := range []string{
		"cannot be driven by puppeteer-core 25.16.0 over WebDriver BiDi: opening a tab: Protocol error (emulation.setScreenOrientationOverride): unknown command emulation.setScreenOrientationOverride\n",
		"apt-get install -y firefox-esr=",
		"internal/npmcache/pins/puppeteer-core/package.json",
		"scripts/npm-pins.sh puppeteer-core",
		"at BidiPage.setViewport",
	} {
		if !strings.Contains(whole, want) {
			t.Errorf("the first report lacks %q", want)
		}
	}
	if strings.Contains(whole, "@chrome://") {
		t.Error("the first report holds Firefox's own stack")
	}
	line := later.fatal[0]
	t.Logf("a later test reports:\n%s", line)
	if strings.Contains(line, "\n") || !strings.Contains(line, "unknown command emulation.setScreenOrientationOverride (TestA/firefox failed with the details and the fix)") {
		t.Errorf("a later report is not one line naming the first: %q", line)
	}
}

// TestDriverVersion checks that a Chromium that cannot be driven names chromedp's version.
func TestDriverVersion(t *testing.T) {
	if v := moduleVersion("github.com/chromedp/chromedp"); !strings.HasPrefix(v, "v0.") {
		t.Errorf("chromedp's version = %q", v)
	}
}

// TestPuppeteerMadeForTestedFirefox checks the rule that chose puppeteer-core's pin: the
// release made for the major version of Firefox ESR the tests last passed with, which its
// revisions.js names (docs/testing.md, "Browsers and their drivers"). Changing either one
// alone fails here.
func TestPuppeteerMadeForTestedFirefox(t *testing.T) {
	if testing.Short() {
		t.Skip("installs puppeteer-core")
	}
	dir, _, err := puppeteerCore()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "lib", "cjs", "puppeteer", "revisions.js"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`firefox: '(?:stable_)?([0-9]+)\.`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("revisions.js names no Firefox:\n%s", b)
	}
	ff, ok := debpkg.Lookup("firefox-esr")
	if !ok {
		t.Fatalf("%s does not list firefox-esr", debpkg.File)
	}
	if string(m[1]) != debpkg.Major(ff.Tested) {
		t.Errorf("puppeteer-core's pin was made for Firefox %s, the tests last passed with firefox-esr %s: pin the release made for Firefox %s",
			m[1], ff.Tested, debpkg.Major(ff.Tested))
	}
}
