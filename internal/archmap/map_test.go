// Package archmap checks docs/architecture.md against the packages of the module: the map
// names every package as `path/`, and nothing that is not one.
package archmap

import (
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// named returns the package paths the map names: backquoted paths that end in a slash.
func named(doc string) map[string]bool {
	out := map[string]bool{}
	for _, m := range regexp.MustCompile("`([a-z][a-z0-9-]*(?:/[a-z0-9-]+)*)/`").FindAllStringSubmatch(doc, -1) {
		out[m[1]] = true
	}
	return out
}

// compare says which packages the map leaves out and which names it holds that are no package.
func compare(doc string, pkgs []string) (missing, extra []string) {
	n := named(doc)
	seen := map[string]bool{}
	for _, p := range pkgs {
		seen[p] = true
		if !n[p] {
			missing = append(missing, p)
		}
	}
	for p := range n {
		if !seen[p] && !isDir(p) {
			extra = append(extra, p)
		}
	}
	sort.Strings(extra)
	return missing, extra
}

// isDir reports whether p is a directory of the repository that holds no package (testdata/,
// static/, docs/…): the map may name those too.
func isDir(p string) bool {
	st, err := os.Stat("../../" + p)
	if err != nil || !st.IsDir() {
		return false
	}
	entries, _ := os.ReadDir("../../" + p)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") {
			return false
		}
	}
	return true
}

// packages lists the module's packages, the page's (GOOS=js only) among them, as paths from the
// repository's root.
func packages(t *testing.T) []string {
	t.Helper()
	var out []string
	seen := map[string]bool{}
	for _, env := range [][]string{nil, {"GOOS=js", "GOARCH=wasm"}} {
		cmd := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}}", "./...")
		cmd.Dir = "../.."
		cmd.Env = append(os.Environ(), env...)
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		for _, l := range strings.Fields(string(b)) {
			p := strings.TrimPrefix(strings.TrimPrefix(l, "pgoutput-inspector"), "/")
			if p != "" && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

func TestArchitectureMap(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	doc, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := packages(t)
	missing, extra := compare(string(doc), pkgs)
	for _, p := range missing {
		t.Errorf("package %s is not in docs/architecture.md: name it as `%s/` with its job", p, p)
	}
	for _, p := range extra {
		t.Errorf("docs/architecture.md names `%s/`, which is no package or directory here", p)
	}
	// The check fails for a package added without a line in the map, and for a line whose
	// package went.
	if m, _ := compare(string(doc), append(pkgs, "internal/newroom")); len(m) != 1 || m[0] != "internal/newroom" {
		t.Errorf("a new package not in the map: missing %v", m)
	}
	if _, e := compare(string(doc)+"\n| `internal/gone/` | a room that went |\n", pkgs); len(e) != 1 || e[0] != "internal/gone" {
		t.Errorf("a map line without its package: extra %v", e)
	}
}

// TestInternalDoesNotImportWeb holds the map's rule that dependencies run downward: no package
// under internal/ imports web/ or a package below it (their tests may: they drive the page).
func TestInternalDoesNotImportWeb(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	for _, env := range [][]string{nil, {"GOOS=js", "GOARCH=wasm"}} {
		cmd := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./internal/...")
		cmd.Dir = "../.."
		cmd.Env = append(os.Environ(), env...)
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			f := strings.Fields(l)
			for _, imp := range f[1:] {
				if imp == "pgoutput-inspector/web" || strings.HasPrefix(imp, "pgoutput-inspector/web/") {
					t.Errorf("%s imports %s (%v): internal/ is below web/", f[0], imp, env)
				}
			}
		}
	}
}
