//go:build !js

package browser

import (
	"testing"

	"pgoutput-inspector/internal/browsertest"
)

// TestMain stops the browser the tests shared (one Chromium a test process).
func TestMain(m *testing.M) { browsertest.Main(m) }
