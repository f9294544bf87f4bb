package web_test

import (
	"testing"

	"pgoutput-inspector/internal/browsertest"
)

// TestMain stops the browsers the tests shared (one Chromium and one Firefox a test process).
func TestMain(m *testing.M) { browsertest.Main(m) }
