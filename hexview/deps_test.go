package hexview

import (
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestDependencies holds what goes into main.wasm from here: the model uses the standard
// library only, and neither it nor its rendering pulls in the packages too big for the page.
func TestDependencies(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("needs the go command")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	list := func(pkg string) []string {
		cmd := exec.Command(goBin, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}:{{.ImportPath}}", pkg)
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		return strings.Fields(string(out))
	}
	forbidden := []string{"regexp", "encoding/json", "math/big", "compress/flate", "github.com/jackc/pglogrepl", "github.com/jackc/pgx/v5"}
	for _, pkg := range []string{".", "./render"} {
		for _, line := range list(pkg) {
			nonStd, path, _ := strings.Cut(line, ":")
			if slices.Contains(forbidden, path) {
				t.Errorf("%s depends on %s", pkg, path)
			}
			// Beside the standard library, the model takes the one table of hex digits from
			// decoder/pgvalue, which itself uses the standard library only.
			if pkg == "." && nonStd != "" && nonStd != "pgoutput-inspector/hexview" && nonStd != "pgoutput-inspector/decoder/pgvalue" {
				t.Errorf("the model depends on %s; it must use the standard library only", nonStd)
			}
			if pkg == "." && path == "syscall/js" {
				t.Errorf("the model depends on syscall/js; it must run natively")
			}
			if path == "pgoutput-inspector/decoder" {
				t.Errorf("%s depends on the decoder; it takes bytes and spans only", pkg)
			}
		}
	}
}
