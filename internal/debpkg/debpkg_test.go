package debpkg

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMajor(t *testing.T) {
	for v, want := range map[string]string{
		"140.10.2esr-1~deb12u1":    "140",
		"148.0.7778.167-1~deb12u1": "148",
		"2:9.0.1378-2+deb12u2":     "9",
		"15.18-0+deb12u1":          "15",
		"3.11.2-1+b1":              "3",
		"":                         "",
	} {
		if got := Major(v); got != want {
			t.Errorf("Major(%q) = %q, want %q", v, got, want)
		}
	}
}

func TestTested(t *testing.T) {
	pkgs := Tested()
	if len(pkgs) == 0 {
		t.Fatal("tested.txt lists no package")
	}
	for _, p := range pkgs {
		if p.Name == "" || p.Tested == "" || p.UsedBy == "" || Major(p.Tested) == "" {
			t.Errorf("tested.txt: %+v: want a name, a version with a major number and what uses it, tab-separated", p)
		}
	}
	for _, name := range []string{"chromium", "firefox-esr", "postgresql-15"} {
		if _, ok := Lookup(name); !ok {
			t.Errorf("tested.txt does not list %s", name)
		}
	}
}

// TestDifference checks the sentence a failing test gets on a machine with another major.
func TestDifference(t *testing.T) {
	installed.Lock()
	saved := installed.versions
	installed.versions = map[string]string{"chromium": "157.0.1-1", "firefox-esr": "140.11.0esr-1~deb12u1", "xxd": ""}
	installed.Unlock()
	t.Cleanup(func() { installed.Lock(); installed.versions = saved; installed.Unlock() })

	want, _ := Lookup("chromium")
	if got := Difference("chromium"); !strings.Contains(got, "chromium 157.0.1-1 is installed") || !strings.Contains(got, want.Tested) {
		t.Errorf("Difference(chromium) = %q", got)
	}
	if got := Difference("firefox-esr"); got != "" {
		t.Errorf("Difference(firefox-esr) = %q for a point release of the same major, want none", got)
	}
	if got := Difference("xxd"); got != "" {
		t.Errorf("Difference(xxd) = %q when it is not installed, want none", got)
	}
}

// TestDocsListTested checks that docs/testing.md shows tested.txt's versions.
func TestDocsListTested(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "testing.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range Tested() {
		row := "| `" + p.Name + "` | `" + p.Tested + "` |"
		if !strings.Contains(string(b), row) {
			t.Errorf("docs/testing.md has no row starting %q: copy it from %s", row, File)
		}
	}
}
