//go:build !js

package web_test

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/web"
)

// deflateRaw compresses b as the Share button does (raw deflate, RFC 1951).
func deflateRaw(t testing.TB, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	zw, err := flate.NewWriter(&out, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// segment compresses b as a run of non-final deflate blocks ending on a byte boundary that
// refer only to b itself: segments written one after another are a valid deflate stream of
// their texts in order.
func segment(t testing.TB, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	zw, err := flate.NewWriter(&out, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(b)
	if err := zw.Flush(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// bombLink makes a z1 link whose payload is head, then unit repeated until the payload is
// at least size bytes, then tail; it is built from repeated compressed segments, so a
// gigabyte costs a few milliseconds.
func bombLink(t testing.TB, head, unit, tail string, size int) (link string, payload int) {
	t.Helper()
	const segText = 1 << 20
	body := strings.Repeat(unit, segText/len(unit))
	n := (size - len(head) - len(tail) + len(body) - 1) / len(body)
	seg := segment(t, []byte(body))
	var z bytes.Buffer
	z.Write(segment(t, []byte(head)))
	for range n {
		z.Write(seg)
	}
	z.Write(deflateRaw(t, []byte(tail))) // ends with the final block
	return "#z1=" + base64.RawURLEncoding.EncodeToString(z.Bytes()), len(head) + n*len(body) + len(tail)
}

// shareLink makes the z1 link of a payload.
func shareLink(t testing.TB, payload string) string {
	return "#z1=" + base64.RawURLEncoding.EncodeToString(deflateRaw(t, []byte(payload)))
}

// viewOf is what the page shows of its input: the bytes panel's title, the tree and the text.
func viewOf(b *browsertest.Browser) string {
	var text string
	b.Eval(`document.querySelector("#input-text").value.length + " " + document.querySelector("#input-text").value.slice(0, 80)`, &text)
	return b.Text(".hex-panel h2") + "\n" + text + "\n" + treeText(b)
}

// Share links that inflate far past what the page reads are refused while inflating, with a
// message naming the limit and the command line tool, and the page keeps its view and answers.
// (Before the page capped inflating, the first of these crashed the tab and the second ran the
// Go runtime out of memory.)
func TestBrowserHostileLinksAreRefused(t *testing.T) {
	b, base := open(t, "")
	b.Timeout = 5 * time.Minute // a gigabyte to inflate and refuse, on a loaded machine
	b.WaitVisible(".tnode")
	keepalive := "0/15175C0 6b00000000015175c000030469fb190b2600\n"
	// A Message whose content, hex in one line, is most of a gigabyte of text: one leaf of
	// 500 MB.
	msgHead := "\n4d00" + "0000000001000000" + "7800" + "1dcd6500"
	for _, tc := range []struct {
		name             string
		head, unit, tail string
		size             int
	}{
		{"104 MB of keepalives", "\n", keepalive, "", 104 << 20},
		{"200 MB of keepalives", "\n", keepalive, "", 200 << 20},
		{"1 GB, one leaf of 500 MB", msgHead, "41", "\n", 1 << 30},
	} {
		link, size := bombLink(t, tc.head, tc.unit, tc.tail, tc.size)
		t.Logf("%s: a link of %d characters inflates to %d bytes", tc.name, len(link), size)
		// Each link is refused in the same words: first a small link that opens, so that the
		// refusal waited for is this link's, not the last one's still on the page.
		b.Navigate(base + "#hex=420000000002e34ae0000292492d0f8ae600000de4") // vectors: postgrex_wal_txn_insert
		waitJS(b, `document.querySelector(".input-status").textContent === "1 message" && !document.querySelector(".input-refused")`)
		treeSettled(t, b)
		before := viewOf(b)
		b.Navigate(base + link)
		waitJS(b, `document.querySelector(".input-refused")`)
		msg := b.Text(".input-refused")
		for _, want := range []string{"16,777,216 bytes (16 MiB)", "stopped inflating", "pgoutput-inspect decode"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: the message %q does not say %q", tc.name, msg, want)
			}
		}
		if got := viewOf(b); got != before {
			t.Errorf("%s: the view changed:\n%s\nwant:\n%s", tc.name, got, before)
		}
		// The page still answers: a click selects a field.
		b.Click(`.tnode[data-node="3"]`)
		waitJS(b, `document.querySelector('.tnode.selected[data-node="3"]')`)
		b.Click(`.tnode[data-node="2"]`)
		waitJS(b, `document.querySelector('.tnode.selected[data-node="2"]')`)
	}
}

// The largest input the page takes: text close to MaxInput holding one value of 7 MB and a
// column name of 1 MB. The tree row, the description and the tooltip show the start of them,
// the DOM stays small, and the page answers.
func TestBrowserLargestInputStaysResponsive(t *testing.T) {
	const valueLen, nameLen = 7<<20 - 4096, 1 << 20
	be32 := func(b []byte, v uint32) []byte { return binary.BigEndian.AppendUint32(b, v) }
	r := be32([]byte{'R'}, 16384)
	r = append(r, "public\x00big\x00d\x00\x01\x01"...)
	r = append(r, strings.Repeat("n", nameLen)...)
	r = be32(be32(append(r, 0), 25), 0xffffffff)
	in := append(be32([]byte{'I'}, 16384), 'N', 0, 1, 't')
	in = append(be32(in, valueLen), strings.Repeat("v", valueLen)...)
	text := hex.EncodeToString(r) + "\n" + hex.EncodeToString(in) + "\n"
	if len(text) > web.MaxInput {
		t.Fatalf("the input is %d bytes, over MaxInput", len(text))
	}
	b, base := open(t, "")
	b.Timeout = 5 * time.Minute // 16 MB into the text box, on a loaded machine
	b.WaitVisible(".tnode")
	elements := b.ElementCount()
	b.Navigate(base + shareLink(t, "msg=1\n\n"+text))
	waitJS(b, `document.querySelector(".input-status").textContent === "2 messages"`)
	waitJS(b, `document.querySelector(".hex-panel h2").textContent.includes("Insert")`)
	var row struct{ Label, Value string }
	b.Eval(`(() => { for (const e of document.querySelectorAll(".tnode")) {
		const v = e.querySelector(".t-value").textContent;
		if (v.startsWith('"v')) return {Label: e.querySelector(".t-label").textContent, Value: v}; }
		return {}; })()`, &row)
	if !strings.HasPrefix(row.Value, `"vvvv`) || !strings.HasSuffix(row.Value, "…") || len(row.Value) > web.MaxRowText {
		t.Errorf("the value's row shows %d bytes: %.40q…", len(row.Value), row.Value)
	}
	var col string
	b.Eval(`[...document.querySelectorAll(".tnode .t-label")].map((e) => e.textContent).find((s) => s.startsWith("column 1"))`, &col)
	if !strings.HasPrefix(col, "column 1 (nnnn") || !strings.HasSuffix(col, "…") || len(col) > web.MaxRowText {
		t.Errorf("the column's row shows %d bytes: %.40q…", len(col), col)
	}
	// Selecting the value describes it, cut.
	var node int
	b.Eval(`+[...document.querySelectorAll(".tnode")].find((e) => e.querySelector(".t-value").textContent.startsWith('"v')).dataset.node`, &node)
	b.Click(`.tnode[data-node="` + strconv.Itoa(node) + `"]`)
	waitJS(b, `document.querySelector('.tnode.selected[data-node="`+strconv.Itoa(node)+`"]')`)
	if got := b.Text(".desc-panel .desc-facts"); !strings.Contains(got, `"vvvv`) || !strings.Contains(got, "…") {
		t.Errorf("the description's facts: %.200q", got)
	}
	desc := b.Text(".desc-panel")
	if len(desc) > 3*web.MaxDescriptionText+4096 {
		t.Errorf("the description is %d bytes long", len(desc))
	}
	if n := b.ElementCount(); n > elements+200 {
		t.Errorf("the page has %d elements, %d with the example", n, elements)
	}
	// The box shows the start of the text, read-only, and says how much more there is.
	var box struct {
		ReadOnly bool
		Value    string
	}
	b.Eval(`(() => { const ta = document.querySelector("#input-text"); return {ReadOnly: ta.readOnly, Value: ta.value}; })()`, &box)
	if want := web.TextPreview(text); !box.ReadOnly || box.Value != want {
		t.Errorf("the text box (read-only %v) shows %d bytes %.80q…, want the %d of the preview", box.ReadOnly, len(box.Value), box.Value, len(want))
	}
	// A paste over the limit is refused, and the page keeps what it shows.
	pasteEvent(b, `"00".repeat(`+strconv.Itoa(web.MaxInput/2+1)+`)`)
	waitJS(b, `document.querySelector(".input-refused")`)
	if msg := b.Text(".input-refused"); !strings.Contains(msg, "at least 16,777,218 bytes") || !strings.Contains(msg, "pgoutput-inspect decode") {
		t.Errorf("a paste of MaxInput+2 bytes: %q", msg)
	}
	if got := b.Text(".input-status"); got != "2 messages" {
		t.Errorf("after the refused paste the status is %q", got)
	}
	var value string
	b.Eval(`document.querySelector("#input-text").value`, &value)
	if value != box.Value {
		t.Errorf("after the refused paste the box shows %.80q…", value)
	}
	// A paste into the read-only box replaces the input.
	pasteEvent(b, jsQuote("420000000002e34ae0000292492d0f8ae600000de4"))
	waitJS(b, `document.querySelector(".input-status").textContent === "1 message"`)
	b.Eval(`(() => { const ta = document.querySelector("#input-text"); return {ReadOnly: ta.readOnly, Value: ta.value}; })()`, &box)
	if box.ReadOnly || box.Value != "420000000002e34ae0000292492d0f8ae600000de4" {
		t.Errorf("after a short paste the box (read-only %v) shows %q", box.ReadOnly, box.Value)
	}
	if n := b.Count(".input-refused"); n != 0 {
		t.Error("the refusal stays after an input was taken")
	}
}

// pasteEvent pastes the text the JavaScript expression gives into the text box as the
// browser does: a paste event whose clipboard holds the text, then, unless the page took it
// itself, the text inserted at the caret and an input event.
func pasteEvent(b *browsertest.Browser, expr string) {
	b.Eval(`(() => {
		const ta = document.querySelector("#input-text"), text = `+expr+`;
		ta.focus();
		const dt = new DataTransfer();
		dt.setData("text/plain", text);
		const ev = new ClipboardEvent("paste", {clipboardData: dt, bubbles: true, cancelable: true});
		if (ta.dispatchEvent(ev) && !ta.readOnly) {
			ta.setRangeText(text, ta.selectionStart, ta.selectionEnd, "end");
			ta.dispatchEvent(new InputEvent("input", {bubbles: true, inputType: "insertFromPaste"}));
		}
	})()`, nil)
}

// A paste longer than the box edits becomes the input at once and shows in part.
func TestBrowserLongPasteSkipsTheTextBox(t *testing.T) {
	b, _ := open(t, "")
	b.Timeout = 5 * time.Minute
	b.WaitVisible(".tnode")
	text := strings.Repeat(corpus(t, "pg17-text"), 3)
	pasteEvent(b, jsQuote(text))
	waitJS(b, `document.querySelector(".input-status").textContent === `+jsQuote(pastedStatus(t, text)))
	var box struct {
		ReadOnly bool
		Value    string
	}
	b.Eval(`(() => { const ta = document.querySelector("#input-text"); return {ReadOnly: ta.readOnly, Value: ta.value}; })()`, &box)
	if want := web.TextPreview(text); !box.ReadOnly || box.Value != want {
		t.Errorf("the text box (read-only %v) shows %d bytes, want the %d of the preview", box.ReadOnly, len(box.Value), len(want))
	}
}

// Links that do not read say so, and keep the view: a damaged z1 link (cut short, or not
// deflate at all), an empty one, a broken payload.
func TestBrowserDamagedAndEmptyLinks(t *testing.T) {
	b, base := open(t, "")
	b.WaitVisible(".tnode")
	treeSettled(t, b)
	before := viewOf(b)
	good := shareLink(t, "\n"+strings.Repeat("420000000002e34ae0000292492d0f8ae600000de4\n", 50))
	cut := good[:4+(len(good)-4)/2/4*4]
	for _, tc := range []struct{ name, frag, want string }{
		{"cut short", cut, "This link is damaged: its data does not inflate"},
		{"not deflate", "#z1=" + base64.RawURLEncoding.EncodeToString([]byte("not deflate at all, just text")), "This link is damaged: its data does not inflate"},
		{"bad base64", "#z1=AAAA!AAA", "This link is damaged: expected a base64url character at character 5"},
		{"no empty line", shareLink(t, "proto=1"), "This link is damaged: the payload has no empty line before the text"},
		{"empty z1", "#z1=", "The link's z1= is empty: there is nothing to decode"},
		{"empty hex", "#hex=", "The link's hex= is empty: there is nothing to decode"},
		{"empty b64", "#b64=&proto=2", "The link's b64= is empty: there is nothing to decode"},
	} {
		b.Navigate(base + tc.frag)
		waitJS(b, `document.querySelector(".link-error") && document.querySelector(".link-error").textContent.includes(`+jsQuote(tc.want)+`)`)
		if got := viewOf(b); got != before {
			t.Errorf("%s: the view changed:\n%s\nwant:\n%s", tc.name, got, before)
		}
		// To the page without a fragment, which the error no longer speaks of.
		b.Navigate(base + "#")
		waitJS(b, `!document.querySelector(".link-error")`)
	}
	b.Navigate(base + good)
	waitJS(b, `document.querySelector(".input-status").textContent === "50 messages"`)
	if n := b.Count(".link-error"); n != 0 {
		t.Errorf("a good link after bad ones still shows %d link errors", n)
	}
}

// A link refused as too large, then an empty fragment ("#", or Back to the page before the
// link): the refusal, which spoke of that link, goes, and the view stays.
func TestBrowserEmptyFragmentClearsRefusal(t *testing.T) {
	b, base := open(t, "")
	b.WaitVisible(".tnode")
	treeSettled(t, b)
	before := viewOf(b)
	link, _ := bombLink(t, "\n", "0/15175C0 6b00000000015175c000030469fb190b2600\n", "", web.MaxInput+1<<20)
	b.Navigate(base + link)
	waitJS(b, `document.querySelector(".input-refused")`)
	b.Navigate(base + "#")
	waitJS(b, `!document.querySelector(".input-refused")`)
	// The tree's rows may come a frame after the refusal goes: wait for the view to settle back
	// to what it was, and fail if it has not within the browser's timeout.
	deadline := time.Now().Add(30 * time.Second)
	got := viewOf(b)
	for got != before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		got = viewOf(b)
	}
	if got != before {
		t.Errorf("the view changed:\n%s\nwant:\n%s", got, before)
	}
}

// A link made from an example opens with the example's name and description; after Back, the
// Share status no longer speaks of a link the address bar has left.
func TestBrowserShareKeepsExampleAndBackClearsStatus(t *testing.T) {
	b, base := open(t, "")
	b.WaitVisible(".tnode")
	const ex = 2
	b.Eval(`(() => { const s = document.querySelector(".examples"); s.value = "`+strconv.Itoa(ex)+`";
		s.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil)
	waitJS(b, `document.querySelector(".example-desc").textContent === `+jsQuote(web.Examples[ex].Description))
	b.Click(".share")
	waitJS(b, `document.querySelector(".share-status") && document.querySelector(".share-status").textContent.includes("characters")`)
	var hash string
	b.Eval(`location.hash`, &hash)

	o := browsertest.Start(t)
	o.Navigate(base + hash)
	o.WaitStarted()
	o.WaitReady("html[data-ready]")
	waitJS(o, `document.querySelector(".example-desc").textContent === `+jsQuote(web.Examples[ex].Description))
	if got := o.Text(".examples option:checked"); got != web.Examples[ex].Name {
		t.Errorf("the link opens with example %q selected, want %q", got, web.Examples[ex].Name)
	}

	b.Eval(`history.back()`, nil)
	waitJS(b, `location.hash === "" && !document.querySelector(".share-status")`)
	if got := b.Text(".example-desc"); got != web.Examples[ex].Description {
		t.Errorf("after Back the page shows %q", got)
	}
}

// A long name ends in "…" where its row cuts it, and its whole text is the row's tooltip.
func TestBrowserLongNamesEndInEllipsis(t *testing.T) {
	name := strings.Repeat("a_rather_long_column_name_", 6) + "end"
	be32 := func(b []byte, v uint32) []byte { return binary.BigEndian.AppendUint32(b, v) }
	r := be32([]byte{'R'}, 16384)
	r = append(r, "public\x00"+strings.Repeat("table_", 20)+"\x00d\x00\x01\x01"+name+"\x00"...)
	r = be32(be32(r, 25), 0xffffffff)
	b, _ := open(t, "#hex="+hex.EncodeToString(r)+"&proto=1")
	waitJS(b, `document.querySelector(".hex-panel h2").textContent.includes("Relation") &&
		[...document.querySelectorAll(".tnode .t-label")].some((e) => e.textContent === "column 1 (`+name+`)")`)
	var cells []struct {
		Text, Title, Overflow string
		Cut                   bool
	}
	b.Eval(`[...document.querySelectorAll(".tnode .t-label, .tnode .t-value")].filter((e) => e.textContent.length > 60).map((e) => ({
		Text: e.textContent, Title: e.title, Overflow: getComputedStyle(e).textOverflow, Cut: e.scrollWidth > e.clientWidth}))`, &cells)
	labels := 0
	for _, c := range cells {
		if !c.Cut || c.Overflow != "ellipsis" || c.Title != c.Text {
			t.Errorf("%q: cut %v, text-overflow %s, title %q", c.Text, c.Cut, c.Overflow, c.Title)
		}
		if c.Text == "column 1 ("+name+")" {
			labels++
		}
	}
	if labels != 1 {
		t.Errorf("the column's label is not among the long cells: %+v", cells)
	}
}
