package hexview

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestStylesheetCoversClasses checks that hexview.css tints every class, and gives every
// tint a colour in the light theme and in both ways of asking for the dark one.
func TestStylesheetCoversClasses(t *testing.T) {
	b, err := os.ReadFile("hexview.css")
	if err != nil {
		t.Fatal(err)
	}
	css := regexp.MustCompile(`(?s)/\*.*?\*/`).ReplaceAllString(string(b), "")
	blocks := map[string]string{}
	for name, start := range map[string]string{
		"light":       ":root {",
		"system dark": `:root:not([data-theme="light"]) {`,
		"forced dark": `:root[data-theme="dark"] {`,
	} {
		i := strings.Index(css, start)
		if i < 0 {
			t.Fatalf("no %s block (%q)", name, start)
		}
		blocks[name] = css[i : i+strings.Index(css[i:], "}")]
	}
	for _, c := range Classes() {
		name := c.String()
		if !strings.Contains(css, ".hv-seg."+name+" {") {
			t.Errorf("no rule .hv-seg.%s", name)
		}
		for theme, block := range blocks {
			if c != ClassNone && !strings.Contains(block, "--"+name+":") || c == ClassNone && theme == "light" && !strings.Contains(block, "--"+name+":") {
				t.Errorf("--%s not set in the %s theme", name, theme)
			}
		}
	}
	for _, class := range []string{".hv {", ".hv-spacer {", ".hv-row {", ".hv-off {", ".hv-hex {", ".hv-ascii {", ".hv-seg.b-start {", ".hv-seg.sel {", ".hv-seg.hov {"} {
		if !strings.Contains(css, class) {
			t.Errorf("no rule %s", class)
		}
	}
}
