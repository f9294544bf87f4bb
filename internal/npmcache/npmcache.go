//go:build !js

// Package npmcache installs the npm packages tests and scripts need (puppeteer-core for the
// Firefox tests, axe-core for the accessibility checks, the PostgreSQL builds of
// internal/pgserver) into a cache directory outside the repository, the first time one is
// asked for.
//
// Each is a pin: a directory under pins/ holding a package.json and the package-lock.json
// that fixes every package it brings, transitive ones included, to one version and its
// integrity hash. Install copies both into the cache and runs npm ci, so a package published
// after the lockfile was written cannot change what runs. scripts/npm-pins.sh writes the
// lockfiles again after a package.json changes (docs/testing.md).
//
//	dir, err := npmcache.Install(ctx, "axe-core", "the accessibility tests", nil)
//	// dir/node_modules/axe-core/axe.min.js
//
// A pin is installed into a prefix of its own, named after the pin and its lockfile's hash, so
// a changed lockfile gets a fresh install; a file ".ready" there says the install finished.
// Several test processes may ask at once: one installs while the others wait on a file lock.
package npmcache

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"pgoutput-inspector/internal/announce"
)

// DirEnv names the environment variable that moves the cache.
const DirEnv = "PGOUTPUT_INSPECTOR_NPM_CACHE"

// pinsDir is the directory of the pins, in this package and in the repository.
const pinsDir = "pins"

//go:embed pins
var pins embed.FS

// Dir returns the cache directory: $PGOUTPUT_INSPECTOR_NPM_CACHE if set, else
// /var/cache/pgoutput-inspector/npm when running as root (as CI does; readable by the
// unprivileged user a PostgreSQL server runs as), else $XDG_CACHE_HOME/pgoutput-inspector/npm
// (or ~/.cache/…).
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

// Pins returns the names of the pins, sorted.
func Pins() []string {
	entries, _ := pins.ReadDir(pinsDir)
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

// Dependencies returns the packages a pin's package.json names, with their versions.
func Dependencies(pin string) (map[string]string, error) {
	b, err := pins.ReadFile(path.Join(pinsDir, pin, "package.json"))
	if err != nil {
		return nil, fmt.Errorf("npmcache: no pin %q (want one of %s)", pin, strings.Join(Pins(), ", "))
	}
	var pkg struct{ Dependencies map[string]string }
	if err := json.Unmarshal(b, &pkg); err != nil {
		return nil, fmt.Errorf("npmcache: pin %s: package.json: %v", pin, err)
	}
	return pkg.Dependencies, nil
}

// Version returns the version of the package pkg that the pin installs.
func Version(pin, pkg string) (string, error) {
	deps, err := Dependencies(pin)
	if err != nil {
		return "", err
	}
	v, ok := deps[pkg]
	if !ok {
		return "", fmt.Errorf("npmcache: pin %s does not install %s", pin, pkg)
	}
	return v, nil
}

// Prefix returns the directory Install installs the pin into.
func Prefix(pin string) (string, error) {
	lockfile, err := pins.ReadFile(path.Join(pinsDir, pin, "package-lock.json"))
	if err != nil {
		return "", fmt.Errorf("npmcache: no pin %q with a package-lock.json (want one of %s)", pin, strings.Join(Pins(), ", "))
	}
	cache, err := Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, prefixName(pin, lockfile)), nil
}

// prefixName names a pin's directory in the cache after the pin and its lockfile's hash.
func prefixName(pin string, lockfile []byte) string {
	sum := sha256.Sum256(lockfile)
	return pin + "-" + hex.EncodeToString(sum[:6])
}

// ByHand returns the shell commands that install the pin as Install does, into prefix, run
// from the repository's top directory.
func ByHand(pin, prefix string) string {
	src := path.Join("internal", "npmcache", pinsDir, pin)
	return fmt.Sprintf("mkdir -p %s && cp %s/package.json %s/package-lock.json %s/ && npm ci --ignore-scripts --no-audit --no-fund --prefix %s",
		prefix, src, src, prefix, prefix)
}

// Install returns the npm prefix holding the pin's packages (node_modules/NAME for each),
// installing them with npm ci first when they are not there. why says what needs them, for
// the line announced while installing and for the errors, which say the command to run by
// hand. after, if not nil, runs once after npm ci, before the install counts as finished (a
// package's own set-up step, which npm ci's --ignore-scripts skipped).
func Install(ctx context.Context, pin, why string, after func(prefix string) error) (string, error) {
	deps, err := Dependencies(pin)
	if err != nil {
		return "", err
	}
	lockfile, err := pins.ReadFile(path.Join(pinsDir, pin, "package-lock.json"))
	if err != nil {
		return "", fmt.Errorf("npmcache: pin %s has no package-lock.json; run scripts/npm-pins.sh", pin)
	}
	manifest, _ := pins.ReadFile(path.Join(pinsDir, pin, "package.json"))
	cache, err := Dir()
	if err != nil {
		return "", err
	}
	name := prefixName(pin, lockfile)
	prefix := filepath.Join(cache, name)
	ready := filepath.Join(prefix, ".ready")
	if _, err := os.Stat(ready); err == nil {
		return prefix, nil
	}
	byHand := ByHand(pin, prefix)
	if _, err := exec.LookPath("npm"); err != nil {
		return "", fmt.Errorf("npm is not installed, so %s cannot be installed for %s; install Node.js and npm (apt-get install -y npm), then run: %s", pin, why, byHand)
	}
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return "", fmt.Errorf("npmcache: cannot create the cache (%v); set %s to a writable directory, or run: %s", err, DirEnv, byHand)
	}
	unlock, err := lock(ctx, filepath.Join(cache, name+".lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	if _, err := os.Stat(ready); err == nil {
		return prefix, nil // installed by another process while this one waited
	}
	for file, b := range map[string][]byte{"package.json": manifest, "package-lock.json": lockfile} {
		if err := os.WriteFile(filepath.Join(prefix, file), b, 0o644); err != nil {
			return "", fmt.Errorf("npmcache: %w", err)
		}
	}
	announce.Printf("installing %s (npm ci: %s) into %s for %s, once", pin, describe(deps), prefix, why)
	out, err := exec.CommandContext(ctx, "npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--prefix", prefix).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("installing %s for %s failed (npm ci: %v): %s\nrun by hand: %s", pin, why, err, lastLines(string(out), 8), byHand)
	}
	for pkg := range deps {
		if _, err := os.Stat(filepath.Join(prefix, "node_modules", filepath.FromSlash(pkg), "package.json")); err != nil {
			return "", fmt.Errorf("npm ci installed %s but %s is missing", pin, filepath.Join(prefix, "node_modules", pkg))
		}
	}
	if after != nil {
		if err := after(prefix); err != nil {
			return "", err
		}
	}
	return prefix, os.WriteFile(ready, []byte(name+"\n"), 0o644)
}

// describe names a pin's packages: "puppeteer-core@24.14.0".
func describe(deps map[string]string) string {
	var s []string
	for pkg, v := range deps {
		s = append(s, pkg+"@"+v)
	}
	slices.Sort(s)
	return strings.Join(s, ", ")
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
