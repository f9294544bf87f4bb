package browsertest

import (
	"context"
	"fmt"
	"os/exec"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"pgoutput-inspector/internal/debpkg"
)

// cannotDrive says that a browser cannot be driven at all: it did not start, or refused the
// first tab the driver opened (an unknown command, a protocol it does not speak). It is kept
// for the rest of the test process: the first test that asks for the browser fails with the
// whole story (the browser's version, the driver's, what was refused and the command that
// fixes it), every later one with a line that points there.
type cannotDrive struct {
	browser string // the browser as it names itself: "Mozilla Firefox 140.10.2esr"
	driver  string // "puppeteer-core 24.14.0 over WebDriver BiDi"
	reason  string // what the browser or the driver answered, first line
	detail  string // the rest of it (a stack), shown once
	fix     string

	mu    sync.Mutex
	first string // the test that showed it whole
}

func (e *cannotDrive) Error() string {
	return fmt.Sprintf("%s cannot be driven by %s: %s", e.browser, e.driver, e.reason)
}

// fail fails the test with e: whole the first time, in one line after.
func (e *cannotDrive) fail(t testing.TB) {
	t.Helper()
	e.mu.Lock()
	first := e.first
	if first == "" {
		e.first = t.Name()
	}
	e.mu.Unlock()
	if first != "" {
		t.Fatalf("browsertest: %v (%s failed with the details and the fix)", e, first)
		return
	}
	detail := ""
	if e.detail != "" {
		detail = "\n\n" + indent(e.detail, "\t\t")
	}
	t.Fatalf("browsertest: %v\n\n%s%s", e, indent(e.fix, "\t"), detail)
}

// failStart fails the test with err, a cannotDrive or another error of a browser's start.
func failStart(t testing.TB, err error) {
	t.Helper()
	if e, ok := err.(*cannotDrive); ok {
		e.fail(t)
		return
	}
	t.Fatalf("browsertest: %v", err)
}

// newCannotDrive describes a browser, installed by Debian's package pkg at path, that driver
// cannot drive; err is what went wrong, and fix the other way to mend it than installing the
// tested version of the browser.
func newCannotDrive(pkg, path, driver string, err error, fix string) *cannotDrive {
	reason, rest, _ := strings.Cut(strings.TrimSpace(err.Error()), "\n")
	// Firefox's remote agent appends its own stack to a message ("… RemoteError@chrome://…"):
	// the reason ends before it. Of the rest, the driver's stack frames say where it was.
	if i := strings.Index(reason, "@chrome://"); i >= 0 {
		reason = strings.TrimSpace(reason[:max(strings.LastIndexByte(reason[:i], ' '), 0)])
	}
	var frames []string
	for _, line := range strings.Split(rest, "\n") {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, "at ") && len(frames) < 12 {
			frames = append(frames, line)
		}
	}
	detail := strings.Join(frames, "\n")
	tested := "a version " + debpkg.File + " does not name"
	install := "To fix it, "
	if p, ok := debpkg.Lookup(pkg); ok {
		tested = p.Tested
		install = fmt.Sprintf("To fix it, install the tested browser (while Debian still has it):\n\tapt-get install -y %s=%s\nor ", pkg, p.Tested)
	}
	have := debpkg.Installed(pkg)
	if have == "" {
		have = "not known to dpkg"
	}
	return &cannotDrive{
		browser: versionOf(path),
		driver:  driver,
		reason:  reason,
		detail:  detail,
		fix: fmt.Sprintf("Debian's %s here is %s; the tests last passed with %s (%s), driven by the pinned %s (docs/testing.md, \"Browsers and their drivers\").\n%s%s",
			pkg, have, tested, debpkg.File, driver, install, fix),
	}
}

// versionOf returns how the browser at path names itself (its --version), or path when it
// does not answer.
func versionOf(path string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if v, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n"); err == nil && v != "" {
		return v
	}
	return path
}

// moduleVersion returns the version of a Go module this program was built with: from its
// build information, or, in a test binary, which has none of its modules, from go list in
// the module it was built from.
func moduleVersion(path string) string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if d.Path == path {
				if d.Replace != nil {
					d = d.Replace
				}
				return d.Version
			}
		}
	}
	if out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}}", path).Output(); err == nil {
		return strings.TrimSpace(string(out))
	}
	return "(unknown version)"
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
