//go:build !js

package web_test

import (
	"os"
	"strings"
	"testing"

	"pgoutput-inspector/internal/browsertest"
)

// A text with two readings: xxd -p -c 16 of one message is also seven lines of hex. The page
// reads it as the one message whose bytes decode, says the other reading is possible, and one
// click reads the text that way.
func TestBrowsersOtherReading(t *testing.T) {
	raw, err := os.ReadFile("../testdata/input/xxd/plain_c16.txt")
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, _ string) {
		b.Eval(`((text) => {
			const ta = document.querySelector("#input-text");
			ta.value = text;
			ta.dispatchEvent(new Event("input", {bubbles: true}));
		})(`+jsQuote(text)+`)`, nil)
		waitFor(t, b, "one message read", `document.querySelector(".input-status").textContent.startsWith("1 message")`,
			`document.querySelector(".input-status").textContent`)
		waitFor(t, b, "the other reading offered", `document.querySelector(".also-switch")`,
			`document.querySelector(".input-msgs").textContent`)
		if got := b.Text(".input-note"); !strings.Contains(got, "Also possible: hex, 7 messages") {
			t.Errorf("input notes %q, want the hex reading named", got)
		}
		if got := b.Text("#format option:checked"); !strings.Contains(got, "wireshark-stream") {
			t.Errorf("read as %q, want wireshark-stream", got)
		}
		b.Click(".also-switch")
		waitFor(t, b, "seven messages read", `document.querySelector(".input-status").textContent.startsWith("7 messages")`,
			`document.querySelector(".input-status").textContent`)
		waitFor(t, b, "hex chosen in the format menu", `document.querySelector("#format").value === "hex"`,
			`document.querySelector("#format").value`)
		waitFor(t, b, "seven rows", `document.querySelectorAll(".mrow[data-msg]").length === 7`,
			`document.querySelectorAll(".mrow[data-msg]").length`)
	})
}
