//go:build !js

package web_test

import (
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/web"
)

// changedHex is the hex view's text of the bytes an edit marked as changed in state s: each
// byte as two hex digits, separated by spaces.
func changedHex(s web.State) string {
	b := s.Tree().Bytes
	var out []string
	for _, r := range s.Edit.Changed {
		for k := r.Offset; k < r.End(); k++ {
			out = append(out, strconv.FormatUint(uint64(b[k])|0x100, 16)[1:])
		}
	}
	return strings.Join(out, " ")
}

// TestBrowsersEditItems adds a column to the first example's Insert with the keyboard (a copy of
// column 2, after it) and removes it again, in the page: the text box holds exactly the edited
// stream the store makes, the tree's column count follows, the hex view marks the count and
// the new column, removing the column gives back the original message, and the share link
// made with the column added opens in another tab to the same bytes.
func TestBrowsersEditItems(t *testing.T) {
	s0 := web.NewState(0)
	tr := s0.Tree()
	value := nodeOf(t, tr, decoder.FieldColumnValue, 1) // column 2's value
	count := nodeOf(t, tr, decoder.FieldTupleColumnCount, 0)
	tuple := nodeOf(t, tr, decoder.FieldTupleNew, 0)
	n := tr.ValueOf(count).Num
	s1, _ := web.Apply(s0, web.SelectNode{Node: int32(value)})
	s1, _ = web.Apply(s1, web.Edit{Op: web.EditAdd, Node: int32(value)})
	added := int(s1.Node)
	if nt := s1.Tree(); nt.Err != nil || nt.ValueOf(count).Num != n+1 || nt.Nodes[added].Field != decoder.FieldTupleColumn {
		t.Fatalf("the store did not add a column: %q, %v", s1.Edit.View.Err, nt.Err)
	}
	s2, _ := web.Apply(s1, web.Edit{Op: web.EditRemove, Node: int32(added)})
	if string(s2.Tree().Bytes) != string(tr.Bytes) || s2.Node != int32(tuple) {
		t.Fatalf("the store did not give back the original message: %x, node %d", s2.Tree().Bytes, s2.Node)
	}
	countText := func(s web.State) string { return web.NodeText(s.Tree(), count, web.MaxRowText) }
	if countText(s1) != strconv.FormatUint(n+1, 10) || countText(s2) != strconv.FormatUint(n, 10) {
		t.Fatalf("the count reads %q and %q, want %d and %d", countText(s1), countText(s2), n+1, n)
	}
	chg := changedHex(s1)
	if chg == "" {
		t.Fatal("adding a column marked no bytes")
	}
	row := func(i int) string { return `document.querySelector('.tnode[data-node="` + strconv.Itoa(i) + `"]')` }
	countRow := row(count) + ` && ` + row(count) + `.querySelector(".t-value").textContent`
	chgHex := `[...document.querySelectorAll(".hv-hex .hv-seg.chg")].map((e) => e.textContent.trim()).join(" ")`

	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, base string) {
		until(b, row(value))
		b.Click(`.tnode[data-node="` + strconv.Itoa(value) + `"]`)
		until(b, row(value)+`.classList.contains("selected") && document.querySelector(".edit-add") && document.querySelector(".edit-remove")`)
		waitText(t, b, ".edit-add", "Add after")
		// The keyboard: the Add button takes the focus and Enter presses it.
		b.Eval(`document.querySelector(".edit-add").focus()`, nil)
		b.Press("Enter")
		waitFor(t, b, "the input is the stream with the column added", inputText+` === `+jsQuote(s1.Text), inputText)
		until(b, row(added)+` && `+row(added)+`.classList.contains("selected")`)
		waitText(t, b, ".edit-undo", "1 edit made. UndoOriginal")
		treeSettled(t, b)
		waitFor(t, b, "the column count is "+countText(s1), countRow+` === `+jsQuote(countText(s1)), countRow)
		waitFor(t, b, "the count and the new column marked as changed", chgHex+` === `+jsQuote(chg), chgHex)

		// Share makes a link to the stream with the column added (opened below, once this tab
		// has done with the keyboard: a tab opened takes the keys in Firefox).
		b.Click(".share")
		until(b, `document.querySelector(".share-status") && document.querySelector(".share-status").textContent.includes("characters")`)
		var hash string
		b.Eval(`location.hash`, &hash)

		// Remove, with the keyboard too: the original message, the tuple selected.
		waitText(t, b, ".edit-remove", "Remove")
		b.Eval(`document.querySelector(".edit-remove").focus()`, nil)
		b.Press("Enter")
		waitFor(t, b, "the input is the stream with the column removed", inputText+` === `+jsQuote(s2.Text), inputText)
		until(b, row(tuple)+` && `+row(tuple)+`.classList.contains("selected") && !document.querySelector(".edit-remove")`)
		waitText(t, b, ".edit-undo", "2 edits made. UndoOriginal")
		treeSettled(t, b)
		waitFor(t, b, "the column count is "+countText(s2), countRow+` === `+jsQuote(countText(s2)), countRow)
		waitText(t, b, ".edit-add", "Add at the end")

		// The share link opens to the stream with the column added.
		o := openTab(t, b.Name(), base+hash)
		waitFor(t, o, "the link opens the stream with the column added", inputText+` === `+jsQuote(s1.Text), inputText)
		treeSettled(t, o)
		waitFor(t, o, "the link's column count is "+countText(s1), countRow+` === `+jsQuote(countText(s1)), countRow)
	})
}
