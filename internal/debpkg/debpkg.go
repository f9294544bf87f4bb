// Package debpkg knows the Debian packages the tests use (tested.txt): which they are, the
// version the whole suite last passed with, and the version this machine has. .ci/run
// installs the packages it lists; a test that uses one calls NoteOnFailure, so that its
// failure says when the machine has another major version than the one tested.
//
//	debpkg.NoteOnFailure(t, "firefox-esr")
//	// on failure: "debpkg: firefox-esr 141.0esr-1 is installed; the tests last passed with
//	// 140.10.2esr-1~deb12u1 (major 140), internal/debpkg/tested.txt"
package debpkg

import (
	_ "embed"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

//go:embed tested.txt
var testedTxt string

// File is tested.txt's path in the repository.
const File = "internal/debpkg/tested.txt"

// Package is one Debian package the tests use.
type Package struct {
	Name   string
	Tested string // the version the suite last passed with
	UsedBy string
}

// Tested returns the packages of tested.txt, in its order.
func Tested() []Package {
	var out []Package
	for _, line := range strings.Split(testedTxt, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, "\t", 3)
		for len(f) < 3 {
			f = append(f, "")
		}
		out = append(out, Package{Name: f[0], Tested: f[1], UsedBy: f[2]})
	}
	return out
}

// Lookup returns the package of tested.txt named name.
func Lookup(name string) (Package, bool) {
	for _, p := range Tested() {
		if p.Name == name {
			return p, true
		}
	}
	return Package{}, false
}

var installed struct {
	sync.Mutex
	versions map[string]string
}

// Installed returns the version of the package dpkg has installed, or "" when it has none (or
// the machine has no dpkg).
func Installed(name string) string {
	installed.Lock()
	defer installed.Unlock()
	if v, ok := installed.versions[name]; ok {
		return v
	}
	out, err := exec.Command("dpkg-query", "-W", "-f=${Status}\t${Version}", name).Output()
	v := ""
	if status, version, ok := strings.Cut(string(out), "\t"); err == nil && ok && strings.HasSuffix(status, " installed") {
		v = version
	}
	if installed.versions == nil {
		installed.versions = map[string]string{}
	}
	installed.versions[name] = v
	return v
}

// Major returns a Debian version's first number, without the epoch: "140" of
// "140.10.2esr-1~deb12u1", "9" of "2:9.0.1378-2".
func Major(version string) string {
	if _, after, ok := strings.Cut(version, ":"); ok {
		version = after
	}
	end := strings.IndexFunc(version, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		return version
	}
	return version[:end]
}

// Difference says how the installed package differs from the tested one in its major
// version, or returns "" when it does not (or either version is unknown).
func Difference(name string) string {
	p, ok := Lookup(name)
	have := Installed(name)
	if !ok || have == "" || Major(have) == Major(p.Tested) {
		return ""
	}
	return "debpkg: " + name + " " + have + " is installed; the tests last passed with " + p.Tested +
		" (major " + Major(p.Tested) + "), " + File + ": the new major version may be why this failed"
}

// NoteOnFailure makes the test, if it fails, say which of the named packages the machine has
// in another major version than the one tested.
func NoteOnFailure(t testing.TB, names ...string) {
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		for _, name := range names {
			if d := Difference(name); d != "" {
				t.Log(d)
			}
		}
	})
}
