//go:build !js

package pgvalue

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStandardLibraryOnly: values are PostgreSQL's, not the protocol's; the package imports the
// standard library only, and nothing of the decoder.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p != "pgoutput-inspector/decoder/pgvalue" {
			t.Errorf("pgvalue depends on %s", p)
		}
	}
}
