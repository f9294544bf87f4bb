// Package axecore runs axe-core, the accessibility checker (the npm package axe-core), in a page
// under test. The package is installed with npm into a cache directory the first time a test
// asks for it, as internal/pgserver installs PostgreSQL; nothing of it is in the repository.
//
//	src, err := axecore.Source(ctx)                // axe.min.js, installed once
//	b.Eval(axecore.Script(src, nil), &violations)  // in the page: every violation found
//
// Script's program works in any browser a test drives (Chromium through chromedp, Firefox
// through WebDriver BiDi): it evaluates axe in the page and runs it on the document.
package axecore

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Version is the axe-core release the tests use.
const Version = "4.14.1"

// CacheDirEnv names the environment variable that overrides where axe-core is installed.
// Without it the cache is /var/cache/pgoutput-inspector/axe-core when running as root, and
// $XDG_CACHE_HOME/pgoutput-inspector/axe-core (or ~/.cache/...) otherwise.
const CacheDirEnv = "PGOUTPUT_INSPECTOR_AXE_CACHE"

// CacheDir returns the directory axe-core is installed under.
func CacheDir() (string, error) {
	if d := os.Getenv(CacheDirEnv); d != "" {
		return d, nil
	}
	if os.Geteuid() == 0 {
		return "/var/cache/pgoutput-inspector/axe-core", nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("axecore: no cache directory (%v); set %s to a writable directory", err, CacheDirEnv)
	}
	return filepath.Join(d, "pgoutput-inspector", "axe-core"), nil
}

// Source returns the text of axe.min.js of Version, installing the package with npm first when
// it is not in the cache. Several test processes may ask at once: one installs, the others
// wait for it.
func Source(ctx context.Context) (string, error) {
	cache, err := CacheDir()
	if err != nil {
		return "", err
	}
	prefix := filepath.Join(cache, Version)
	file := filepath.Join(prefix, "node_modules", "axe-core", "axe.min.js")
	ready := filepath.Join(prefix, ".ready")
	read := func() (string, error) {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("axecore: %w", err)
		}
		return string(b), nil
	}
	if _, err := os.Stat(ready); err == nil {
		return read()
	}
	installCmd := fmt.Sprintf("npm install --no-save --no-audit --no-fund --ignore-scripts --prefix %s axe-core@%s", prefix, Version)
	if _, err := exec.LookPath("npm"); err != nil {
		return "", fmt.Errorf("axecore: npm is not installed, so axe-core cannot be installed; install Node.js and npm (e.g. sudo apt-get install -y npm), or run: %s", installCmd)
	}
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return "", fmt.Errorf("axecore: cannot create the cache (%v); set %s to a writable directory, or run: %s", err, CacheDirEnv, installCmd)
	}
	unlock, err := lockFile(ctx, filepath.Join(cache, Version+".lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	if _, err := os.Stat(ready); err == nil {
		return read()
	}
	fmt.Fprintf(os.Stderr, "axecore: installing axe-core %s into %s (npm)\n", Version, prefix)
	npm := exec.CommandContext(ctx, "npm", "install", "--no-save", "--no-audit", "--no-fund", "--ignore-scripts",
		"--prefix", prefix, "axe-core@"+Version)
	if out, err := npm.CombinedOutput(); err != nil {
		return "", fmt.Errorf("axecore: npm install of axe-core@%s failed (%v): %s\nrun by hand: %s", Version, err, lastLines(out, 8), installCmd)
	}
	src, err := read()
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(ready, []byte(Version+"\n"), 0o644); err != nil {
		return "", fmt.Errorf("axecore: %w", err)
	}
	return src, nil
}

// lockFile takes an exclusive flock on path, waiting until ctx is done.
func lockFile(ctx context.Context, path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("axecore: %w", err)
	}
	for {
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err == nil {
			return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("axecore: waiting for %s: %w", path, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func lastLines(out []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Violation is one rule the page breaks, as axe reports it.
type Violation struct {
	ID     string // the rule, such as "color-contrast"
	Impact string // "minor", "moderate", "serious" or "critical"
	Help   string
	Nodes  []Node
}

// Node is an element that breaks a rule.
type Node struct {
	Target  []string // CSS selectors that find it
	HTML    string
	Summary string // what to fix
}

// Serious reports whether the violation's impact is serious or critical.
func (v Violation) Serious() bool { return v.Impact == "serious" || v.Impact == "critical" }

func (v Violation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): %s", v.ID, v.Impact, v.Help)
	for _, n := range v.Nodes {
		fmt.Fprintf(&b, "\n\t\t%s %s\n\t\t\t%s", strings.Join(n.Target, " "), n.HTML, strings.ReplaceAll(n.Summary, "\n", "\n\t\t\t"))
	}
	return b.String()
}

// Script returns a JavaScript program that loads axe (src, from Source) into the page,
// once, runs it on the whole document with options (axe.run's; nil for its defaults) and
// resolves to the violations as a JSON array of Violation.
func Script(src string, options map[string]any) string {
	opts, _ := json.Marshal(options)
	if options == nil {
		opts = []byte("{}")
	}
	// The source goes into the expression itself, not through eval, which the page's
	// Content-Security-Policy forbids.
	return `if (typeof window.axe === "undefined") { (function () {
` + src + `
}).call(window); }
(async () => {
	const r = await window.axe.run(document, Object.assign({resultTypes: ["violations"]}, ` + string(opts) + `));
	return r.violations.map((v) => ({ID: v.id, Impact: v.impact || "", Help: v.help,
		Nodes: v.nodes.map((n) => ({Target: n.target.map(String), HTML: n.html, Summary: n.failureSummary || ""}))}));
})()`
}
