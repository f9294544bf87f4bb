//go:build !js

package web_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/web"
)

// addNote writes text into the notes panel's box and presses Add note.
func addNote(t *testing.T, b browsertest.Tab, text string, count int) {
	t.Helper()
	waitFor(t, b, "the new note's box takes a note", `!document.querySelector("#note-new").disabled`, `document.querySelector("#note-new").placeholder`)
	b.Eval(`document.querySelector("#note-new").value = `+jsQuote(text), nil)
	b.Click(".notes form button")
	waitFor(t, b, "the notes panel lists the note", `document.querySelectorAll(".note").length === `+strconv.Itoa(count), `document.querySelectorAll(".note").length`)
}

// Notes on a tree node and on a byte range: markers in the tree and the hex view, the text
// escaped; shared in a link that opens them in a new page, which shares the same link again.
func TestBrowsersNotes(t *testing.T) {
	// The first example's message 3 is a Type message: node 7 is its Type OID, bytes 26 to 29;
	// node 6 its type byte, 25.
	st, _ := web.Apply(web.NewState(0), web.SelectMessage{Msg: 2})
	tr := st.Tree()
	if tr == nil || len(tr.Nodes) < 8 || tr.Nodes[7].Offset != 26 || tr.Nodes[7].Length != 4 || tr.Nodes[6].Offset != 25 || tr.Nodes[6].Length != 1 {
		t.Fatal("the first example's message 3 is not the Type message this test expects")
	}
	wantHex := fmt.Sprintf("% x", tr.Bytes[25:30])
	const noted = `[...document.querySelectorAll(".hv-hex .hv-seg.noted")].map((e) => e.textContent.trim()).join(" ")`
	const marker = `document.querySelector('.tnode[data-node="7"] .t-note').textContent`
	const shared = `location.hash.startsWith("#z1=") && document.querySelector(".share-status") && document.querySelector(".share-status").textContent.includes("characters")`
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, base string) {
		waitFor(t, b, "message 3's row", `!!document.querySelector('.mrow[data-msg="2"]')`, `document.querySelector("#list-title").textContent`)
		b.Click(`.mrow[data-msg="2"]`)
		waitText(t, b, `.tnode[data-node="7"] .t-label`, "Type OID")
		b.Click(`.tnode[data-node="7"]`)
		waitFor(t, b, "the Type OID selected", `!!document.querySelector('.tnode.selected[data-node="7"]')`, `document.querySelector("#hex-title").textContent`)
		b.Click(".notes-toggle")
		addNote(t, b, "the OID of a type", 1)
		// Bytes 25 to 29, the type byte and the OID (no one field): the hex view's Shift+ArrowLeft
		// grows the selection by the field before.
		b.Eval(`document.querySelector(".hv").focus()`, nil)
		b.Press("ArrowLeft", "Shift")
		waitFor(t, b, "bytes 25 to 29 selected", `document.querySelector("#note-new").placeholder === "Note on message 3, bytes 25–29"`, `document.querySelector("#note-new").placeholder`)
		addNote(t, b, hostileNote, 2)
		waitText(t, b, `.note[data-note="1"] .note-place`, "2. message 3, bytes 25–29")
		if got := b.Text(`.note[data-note="0"] .note-place`); got != "1. message 3, bytes 26–29, Type OID" {
			t.Errorf("note 1's place %q", got)
		}
		// The hex view underlines the noted bytes and says so in its name.
		waitFor(t, b, "bytes 25 to 29 underlined", noted+` === `+jsQuote(wantHex), noted)
		var label string
		b.Eval(`document.querySelector(".hv").getAttribute("aria-label")`, &label)
		if !strings.HasSuffix(label, ", 2 notes on these bytes") {
			t.Errorf("hex view's name %q", label)
		}
		// The tree marks the node and the leaves under the byte note, the text escaped.
		b.Click(".notes-toggle")
		waitFor(t, b, "the tree's markers", `document.querySelector(".tree-panel h2").textContent === "Fields" && `+marker+` !== ""`, `document.querySelector(".tree-panel h2").textContent`)
		if got, want := b.Text(`.tnode[data-node="7"] .t-note`), "Note: the OID of a type\n"+hostileShown; got != want {
			t.Errorf("Type OID's marker %q, want %q", got, want)
		}
		if got, want := b.Text(`.tnode[data-node="6"] .t-note`), "Note: "+hostileShown; got != want {
			t.Errorf("Type's marker %q, want %q", got, want)
		}
		if n := b.Count(".t-note:not(:empty)"); n != 2 {
			t.Errorf("%d tree rows marked, want 2", n)
		}
		if n := b.Count("script:not([src])"); n != 0 {
			t.Errorf("%d inline scripts in the page", n)
		}
		axeSerious(t, b, b.Name()+", notes in the tree")
		b.Click(".share")
		waitFor(t, b, "the share link", shared, `location.hash`)
		var hash string
		b.Eval(`location.hash`, &hash)

		o := openTab(t, b.Name(), base+hash)
		waitText(t, o, ".notes-toggle", "Notes (2)")
		waitFor(t, o, "the marker on the Type OID", marker+` === `+jsQuote("Note: the OID of a type\n"+hostileShown), marker)
		waitFor(t, o, "bytes 25 to 29 underlined", noted+` === `+jsQuote(wantHex), noted)
		o.Click(".notes-toggle")
		waitText(t, o, `.note[data-note="1"] .note-place`, "2. message 3, bytes 25–29")
		var value string
		o.Eval(`document.querySelector('.note[data-note="1"] input').value`, &value)
		if value != hostileShown {
			t.Errorf("note 2 reads %q, want %q", value, hostileShown)
		}
		o.Click(".share")
		waitFor(t, o, "the share link", shared, `location.hash`)
		var again string
		o.Eval(`location.hash`, &again)
		if again != hash {
			t.Errorf("shared again:\n%s\nwant\n%s", again, hash)
		}
	})
}

// hostileNote would reorder the text around it and read as markup; hostileShown is how the
// page shows it.
const (
	hostileNote  = "<script>alert(1)</script>\u202eexe.gnp"
	hostileShown = `<script>alert(1)</script>\u202eexe.gnp`
)
