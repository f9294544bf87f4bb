package browsertest

import (
	"testing"
)

// TestMain stops the browsers the tests shared (one Chromium and one Firefox a test process).
func TestMain(m *testing.M) { Main(m) }
