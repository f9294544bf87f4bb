//go:build !js

package decoder

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStandardLibraryOnly: the decoder goes into the page's WASM and into every tool, so it
// imports nothing but the standard library and its own values package.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p != "pgoutput-inspector/decoder" && p != "pgoutput-inspector/decoder/pgvalue" {
			t.Errorf("decoder depends on %s", p)
		}
	}
}
