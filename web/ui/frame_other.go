//go:build !js

package ui

// keepFocus does nothing outside the browser, where the components are only compiled.
func keepFocus() {}

// boxValue is "" outside the browser.
func boxValue(string) string { return "" }
