package browsertest

import (
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Tab is what a page test uses of a browser tab, the same in Chromium (Browser) and Firefox
// (Firefox), so that one test body runs in both (see Browsers and StartTab).
type Tab interface {
	// Name is "chromium" or "firefox".
	Name() string
	Navigate(rawURL string)
	WaitStarted()
	WaitReady(selector string)
	WaitVisible(selector string)
	Click(selector string)
	// Upload chooses files (absolute paths) in the file input matching selector, as a
	// person does in the browser's file dialog.
	Upload(selector string, paths ...string)
	Eval(expr string, out any)
	Text(selector string) string
	Count(selector string) int
	// Press presses a key by its KeyboardEvent.key name ("ArrowDown", "Tab", "a") with
	// modifiers held ("Shift", "Control", "Alt", "Meta").
	Press(key string, modifiers ...string)
	// MoveMouse moves the pointer to (x, y) in the viewport.
	MoveMouse(x, y float64)
	SetViewport(width, height int)
	Allow(substr string)
	Problems() []Problem
}

// Browsers names the browsers the page is tested in.
var Browsers = []string{"chromium", "firefox"}

// StartTab starts the named browser (one of Browsers) for the test, with one tab.
func StartTab(t testing.TB, name string) Tab {
	t.Helper()
	if name == "firefox" {
		return startFirefox(t)
	}
	return Start(t)
}

// Name returns "chromium".
func (b *Browser) Name() string { return "chromium" }

// keys maps KeyboardEvent.key names to chromedp's.
var keys = map[string]string{"ArrowDown": kb.ArrowDown, "ArrowUp": kb.ArrowUp, "ArrowLeft": kb.ArrowLeft,
	"ArrowRight": kb.ArrowRight, "Home": kb.Home, "End": kb.End, "Tab": kb.Tab, "Enter": kb.Enter,
	"Escape": kb.Escape, "Backspace": kb.Backspace, "Delete": kb.Delete, "PageUp": kb.PageUp, "PageDown": kb.PageDown}

var modifiers = map[string]input.Modifier{"Shift": input.ModifierShift, "Control": input.ModifierCtrl,
	"Alt": input.ModifierAlt, "Meta": input.ModifierMeta}

// Press presses a key with modifiers held (see Tab).
func (b *Browser) Press(key string, mods ...string) {
	b.t.Helper()
	if k, ok := keys[key]; ok {
		key = k
	}
	var m input.Modifier
	for _, s := range mods {
		m |= modifiers[s]
	}
	b.Run(chromedp.KeyEvent(key, chromedp.KeyModifiers(m)))
}

// MoveMouse moves the pointer to (x, y) in the viewport.
func (b *Browser) MoveMouse(x, y float64) {
	b.t.Helper()
	b.Run(chromedp.MouseEvent(input.MouseMoved, x, y))
}
