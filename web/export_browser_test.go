//go:build !js

package web_test

import (
	"strconv"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/internal/export"
	"pgoutput-inspector/web"
)

// clipboardHook replaces the page's clipboard with one that keeps what the page writes in
// window.copied (and counts the writes in window.copies), so that the test reads exactly what
// the page copied; a browser's own clipboard needs a permission that headless browsers
// grant differently. refuse makes it reject the write, as a browser that denies the page the
// clipboard does.
const clipboardHook = `((refuse) => {
	window.copied = undefined;
	window.copies = 0;
	Object.defineProperty(navigator, "clipboard", {configurable: true, value: {writeText: (text) => {
		window.copies++;
		window.copied = text;
		return refuse ? Promise.reject(new DOMException("Write permission denied.", "NotAllowedError")) : Promise.resolve();
	}}});
})`

// chooseExport chooses the Export menu's entry for format f, as a person picking it does:
// the select's value changes and it fires change.
func chooseExport(b browsertest.Tab, f export.BytesFormat) {
	b.Eval(`((i) => { const s = document.querySelector("select.export"); s.selectedIndex = i;
		s.dispatchEvent(new Event("change", {bubbles: true})); })(`+strconv.Itoa(int(f)+1)+`)`, nil)
}

// TestBrowsersExportBytes copies the first example's message, then one field, in every byte
// format, and reads back exactly what the page put on the clipboard, and the status; then a
// copy the browser refuses, and a copy without the Clipboard API (the text box the page copies
// from instead, which leaves the page afterwards).
func TestBrowsersExportBytes(t *testing.T) {
	s := web.NewState(0)
	tr := s.Tree()
	oid := tr.Find(tr.Message, decoder.FieldInsertRelationOID)
	n := tr.Nodes[oid]
	field := tr.Bytes[n.Offset : n.Offset+n.Length]
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, _ string) {
		until(b, `document.querySelector(".tnode")`)
		if got := b.Count("select.export option"); got != 1+len(web.ExportLabels) {
			t.Fatalf("the Export menu has %d entries", got)
		}
		b.Eval(clipboardHook+`(false)`, nil)
		for i, f := range export.BytesFormats {
			chooseExport(b, f)
			want := string(export.AppendBytes(nil, f, tr.Bytes))
			waitFor(t, b, "the message's bytes copied as "+export.FormatNames[f],
				`window.copies === `+strconv.Itoa(i+1)+` && window.copied === `+jsQuote(want), `window.copied`)
			waitText(t, b, ".share-status.copied", "Copied "+web.Commas(len(tr.Bytes))+" bytes as "+export.FormatNames[f])
			var shown string
			b.Eval(`document.querySelector("select.export").value`, &shown)
			if shown != "Export…" {
				t.Errorf("after the copy the menu shows %q", shown)
			}
		}

		b.Click(`.tnode[data-node="` + strconv.Itoa(oid) + `"]`)
		until(b, `document.querySelector('.tnode.selected[data-node="`+strconv.Itoa(oid)+`"]')`)
		b.Eval(clipboardHook+`(false)`, nil)
		for _, f := range export.BytesFormats {
			chooseExport(b, f)
			want := string(export.AppendBytes(nil, f, field))
			waitFor(t, b, "the Relation OID copied as "+export.FormatNames[f], `window.copied === `+jsQuote(want), `window.copied`)
			waitText(t, b, ".share-status.copied", "Copied 4 bytes as "+export.FormatNames[f])
		}

		b.Eval(clipboardHook+`(true)`, nil)
		chooseExport(b, export.Go)
		waitText(t, b, ".share-status.error", "Could not copy 4 bytes as Go: NotAllowedError: Write permission denied.")

		// No Clipboard API: the page copies from a text box with execCommand, and removes it.
		b.Eval(`(() => {
			Object.defineProperty(navigator, "clipboard", {configurable: true, value: undefined});
			window.execCopied = undefined;
			document.execCommand = (command) => {
				const box = document.activeElement;
				window.execCopied = command + ":" + (box && box.tagName === "TEXTAREA" ? box.value : "no text box focused");
				return true;
			};
		})()`, nil)
		elements := 0
		b.Eval(`document.getElementsByTagName("*").length`, &elements)
		chooseExport(b, export.Python)
		want := "copy:" + string(export.AppendBytes(nil, export.Python, field))
		waitFor(t, b, "the Relation OID copied from a text box", `window.execCopied === `+jsQuote(want), `window.execCopied`)
		waitText(t, b, ".share-status.copied", "Copied 4 bytes as Python")
		after := 0
		b.Eval(`document.getElementsByTagName("*").length`, &after)
		if after != elements || b.Count("textarea") != 1 {
			t.Errorf("the page has %d elements after the copy, %d before, and %d text boxes", after, elements, b.Count("textarea"))
		}
	})
}
