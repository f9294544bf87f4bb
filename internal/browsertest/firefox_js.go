//go:build js

package browsertest

import "testing"

// startFirefox skips the test under GOOS=js: browser tests run natively.
func startFirefox(t testing.TB) Tab {
	skipUnderJS(t)
	return nil
}

// stopFirefox has nothing to stop under GOOS=js.
func stopFirefox() {}
