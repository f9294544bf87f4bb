//go:build !js

package web_test

import (
	"encoding/binary"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/web"
)

// nodeOf returns the index of the n-th node (0-based) with field f in the tree.
func nodeOf(t *testing.T, tr *decoder.Tree, f decoder.FieldID, n int) int {
	t.Helper()
	for i := range tr.Nodes {
		if tr.Nodes[i].Field == f {
			if n == 0 {
				return i
			}
			n--
		}
	}
	t.Fatalf("no node %v", f)
	return -1
}

// editNode selects tree node i, types text into the edit box as a person does and presses
// Enter.
func editNode(t *testing.T, b browsertest.Tab, i int, text string) {
	t.Helper()
	sel := `.tnode[data-node="` + strconv.Itoa(i) + `"]`
	b.Click(sel)
	until(b, `document.querySelector('.tnode.selected[data-node="`+strconv.Itoa(i)+`"]') && document.querySelector("#edit-value")`)
	b.Click("#edit-value")
	b.Eval(`(() => { const e = document.querySelector("#edit-value"); e.value = `+jsQuote(text)+`;
		e.dispatchEvent(new Event("input", {bubbles: true})); })()`, nil)
	b.Press("Enter")
}

// inputText is the page's input box's text.
const inputText = `document.querySelector("#input-text").value`

// TestBrowsersEditValue edits the first example's Insert in the page: a text value (the
// length before it follows; the bytes the store writes are the ones expected by hand, and the
// hex view marks the changed ones), a column's kind marker, a refused edit with its reason, a
// share link of the edited input, and the way back to the original.
func TestBrowsersEditValue(t *testing.T) {
	s0 := web.NewState(0)
	tr := s0.Tree()
	value := nodeOf(t, tr, decoder.FieldColumnValue, 0)
	length := &tr.Nodes[value-1]
	v := &tr.Nodes[value]
	want := append([]byte{}, tr.Bytes[:length.Offset]...)
	want = binary.BigEndian.AppendUint32(want, 5)
	want = append(want, "hello"...)
	want = append(want, tr.Bytes[v.Offset+v.Length:]...)
	s1, _ := web.Apply(s0, web.SelectNode{Node: int32(value)})
	s1, _ = web.Apply(s1, web.Edit{Node: int32(value), Text: "hello"})
	if got := s1.Tree(); string(got.Bytes) != string(want) || string(got.ValueBytes(value)) != "hello" {
		t.Fatalf("the store wrote %x, want %x", got.Bytes, want)
	}
	kind := nodeOf(t, tr, decoder.FieldColumnKind, 1)
	s2, _ := web.Apply(s1, web.SelectNode{Node: int32(kind)})
	s2, _ = web.Apply(s2, web.Edit{Node: int32(kind), Text: "n"})
	if s2.Tree().Err != nil || s2.Tree().ValueOf(kind).Num != 'n' {
		t.Fatalf("the store did not make column 2 null: %v", s2.Tree().Err)
	}
	oid := nodeOf(t, tr, decoder.FieldInsertRelationOID, 0)

	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, base string) {
		until(b, `document.querySelector(".tnode")`)
		editNode(t, b, value, "hello")
		waitFor(t, b, "the input is the edited stream", inputText+` === `+jsQuote(s1.Text), inputText)
		until(b, `document.querySelector('.tnode.selected[data-node="`+strconv.Itoa(value)+`"]')`)
		waitText(t, b, ".edit-undo", "1 edit made. UndoOriginal")
		// The changed bytes: the length's last byte and the value.
		waitFor(t, b, "the changed bytes marked", `[...document.querySelectorAll(".hv-hex .hv-seg.chg")].map((e) => e.textContent.trim()).join(" ") === "05 68 65 6c 6c 6f" &&
			document.querySelector(".hv-hex .hv-seg.chg").dataset.o === "`+strconv.Itoa(length.Offset+3)+`"`,
			`[...document.querySelectorAll(".hv-hex .hv-seg.chg")].map((e) => e.dataset.o + ":" + e.textContent.trim()).join(" ")`)
		var box string
		b.Eval(`document.querySelector("#edit-value").value`, &box)
		if box != "hello" {
			t.Errorf("the edit box shows %q after the edit", box)
		}

		// A column's kind: t to n.
		editNode(t, b, kind, "n")
		waitFor(t, b, "column 2 made null", inputText+` === `+jsQuote(s2.Text), inputText)
		waitText(t, b, ".edit-undo", "2 edits made. UndoOriginal")

		// A refused edit says why, next to the box, and changes nothing.
		editNode(t, b, oid, "-3")
		waitText(t, b, ".edit-error", "Not edited: Relation OID: expected a whole number from 0 to 4294967295, found \"-3\"")
		var text string
		b.Eval(inputText, &text)
		if text != s2.Text {
			t.Errorf("a refused edit changed the input")
		}
		if got := b.Count(`.edit-error[role="alert"]`); got != 1 {
			t.Errorf("%d alerts", got)
		}

		// The share link opens to the edited bytes.
		b.Click(".share")
		until(b, `document.querySelector(".share-status") && document.querySelector(".share-status").textContent.includes("characters")`)
		var hash string
		b.Eval(`location.hash`, &hash)
		o := openTab(t, b.Name(), base+hash)
		waitFor(t, o, "the link opens the edited input", inputText+` === `+jsQuote(s2.Text), inputText)
		until(o, `document.querySelector(".tnode")`)

		// Original: back to the example as it was.
		b.Click(".edit-original")
		waitFor(t, b, "the original input", inputText+` === `+jsQuote(s0.Text), inputText)
		until(b, `!document.querySelector(".edit-undo")`)
		if got := b.Text(".hex-panel h2"); !strings.Contains(got, "Insert") {
			t.Errorf("after Original the page shows %q", got)
		}
	})
}
