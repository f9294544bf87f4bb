package web_test

import (
	"os"
	"strings"
	"testing"

	"pgoutput-inspector/internal/browsertest"
)

// open serves the page, starts Chromium and opens the page at fragment.
func open(t *testing.T, fragment string) (*browsertest.Browser, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test")
	}
	base := browsertest.Serve(t)
	b := browsertest.Start(t)
	b.Navigate(base + fragment)
	b.WaitStarted()
	b.WaitReady("html[data-ready]")
	return b, base
}

func TestBrowserOpensWithExample(t *testing.T) {
	b, _ := open(t, "")
	b.WaitVisible(".tnode")
	if got := b.Text(".hex-panel h2"); !strings.Contains(got, "Insert") {
		t.Errorf("hex panel title %q", got)
	}
	if os.Getenv("SHOT") != "" {
		b.Screenshot(os.Getenv("SHOT"))
	}
}
