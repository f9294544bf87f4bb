package axecore

import (
	"context"
	"strings"
	"testing"
	"time"

	"pgoutput-inspector/internal/npmcache"
)

// TestSource installs axe-core (once per cache) and checks it is the version asked for.
func TestSource(t *testing.T) {
	if testing.Short() {
		t.Skip("installs axe-core with npm")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	src, err := Source(ctx)
	if err != nil {
		t.Fatal(err)
	}
	version, err := npmcache.Version(Pin, "axe-core")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(src[:500], "axe v"+version) {
		t.Errorf("axe.min.js does not start with its version %s: %.200q", version, src)
	}
}
