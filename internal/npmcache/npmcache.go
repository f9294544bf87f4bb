//go:build !js

// Package npmcache installs the npm packages tests need (puppeteer-core for the Firefox tests,
// axe-core for the accessibility checks) into one cache directory outside the repository, the
// first time a test asks for one, as internal/pgserver installs PostgreSQL builds.
//
//	dir, err := npmcache.Install(ctx, "axe-core@4.14.1", "the accessibility tests")
//	// dir/node_modules/axe-core/axe.min.js
//
// Each package and version gets a prefix of its own, dir, under Dir(); a file ".ready" there
// says the install finished. Several test processes may ask at once: one installs while the
// others wait on a file lock.
package npmcache

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"pgoutput-inspector/internal/announce"
)

// DirEnv names the environment variable that moves the cache.
const DirEnv = "PGOUTPUT_INSPECTOR_NPM_CACHE"

// Dir returns the cache directory: $PGOUTPUT_INSPECTOR_NPM_CACHE if set, else
// /var/cache/pgoutput-inspector/npm when running as root (as CI does), else
// $XDG_CACHE_HOME/pgoutput-inspector/npm (or ~/.cache/…).
func Dir() (string, error) {
	if d := os.Getenv(DirEnv); d != "" {
		return d, nil
	}
	if os.Geteuid() == 0 {
		return "/var/cache/pgoutput-inspector/npm", nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("npmcache: no cache directory (%v); set %s to a writable directory", err, DirEnv)
	}
	return filepath.Join(d, "pgoutput-inspector", "npm"), nil
}

// Install returns the npm prefix holding spec ("name@version": node_modules/name is in it),
// installing it with npm first when it is not there. why says what needs it, for the line
// announced while installing and for the errors, which say the command to run by hand.
func Install(ctx context.Context, spec, why string) (string, error) {
	cache, err := Dir()
	if err != nil {
		return "", err
	}
	prefix := filepath.Join(cache, spec)
	ready := filepath.Join(prefix, ".ready")
	if _, err := os.Stat(ready); err == nil {
		return prefix, nil
	}
	byHand := fmt.Sprintf("npm install --no-save --no-audit --no-fund --ignore-scripts --prefix %s %s", prefix, spec)
	if _, err := exec.LookPath("npm"); err != nil {
		return "", fmt.Errorf("npm is not installed, so %s cannot be installed for %s; install Node.js and npm (apt-get install -y npm), or run: %s", spec, why, byHand)
	}
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return "", fmt.Errorf("npmcache: cannot create the cache (%v); set %s to a writable directory, or run: %s", err, DirEnv, byHand)
	}
	unlock, err := lock(ctx, filepath.Join(cache, spec+".lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	if _, err := os.Stat(ready); err == nil {
		return prefix, nil // installed by another process while this one waited
	}
	announce.Printf("installing %s (npm) into %s for %s, once", spec, prefix, why)
	out, err := exec.CommandContext(ctx, "npm", "install", "--no-save", "--no-audit", "--no-fund", "--ignore-scripts",
		"--prefix", prefix, spec).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("installing %s for %s failed (%v): %s\nrun by hand: %s", spec, why, err, lastLines(string(out), 8), byHand)
	}
	name := spec
	if i := strings.LastIndexByte(spec, '@'); i > 0 {
		name = spec[:i]
	}
	if _, err := os.Stat(filepath.Join(prefix, "node_modules", name, "package.json")); err != nil {
		return "", fmt.Errorf("npm installed %s but %s is missing", spec, filepath.Join(prefix, "node_modules", name))
	}
	return prefix, os.WriteFile(ready, []byte(spec+"\n"), 0o644)
}

// lock takes an exclusive flock on path, waiting until ctx is done.
func lock(ctx context.Context, path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("npmcache: %w", err)
	}
	for {
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err == nil {
			return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("npmcache: waiting for %s: %w", path, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// lastLines returns the last n lines of s: the end of a command's output, where its error is.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
