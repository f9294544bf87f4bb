package web_test

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"pgoutput-inspector/decoder"
	pginput "pgoutput-inspector/input"
	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/web"
)

var updateScreenshot = flag.Bool("update-screenshot", false, "save the page's screenshot as docs/screenshot.png")

// open serves the page, starts Chromium and opens the page at fragment, waiting until the
// page has drawn its first state.
func open(t testing.TB, fragment string) (*browsertest.Browser, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test")
	}
	base := browsertest.Serve(t)
	b := browsertest.Start(t)
	b.Navigate(base + fragment)
	b.WaitStarted()
	b.WaitReady("html[data-ready]")
	return b, base
}

// corpus returns a capture file of the corpus, uncompressed.
func corpus(t testing.TB, name string) string {
	t.Helper()
	raw, err := os.ReadFile("../testdata/corpus/" + name + ".capture.gz")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := out.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// paste puts text in the input box as a paste does: the value changes, then an input event.
func paste(b browsertest.Tab, text string) {
	b.Eval(`((text) => {
		const ta = document.querySelector("#input-text");
		ta.value = text;
		ta.dispatchEvent(new Event("input", {bubbles: true}));
	})(`+strconv.Quote(text)+`)`, nil)
}

// pastedStatus returns the input status the page shows once it has read and decoded text
// ("1,234 messages" as the page words it, with its errors): a wait for it cannot pass on the
// status of what the page showed before.
func pastedStatus(t testing.TB, text string) string {
	t.Helper()
	s, _ := web.Apply(web.NewState(-1), web.SetText{Text: text})
	if s.Doc == nil {
		t.Fatalf("the text does not read: %v", s.InputErr)
	}
	for !s.Doc.Complete() {
		s, _ = web.Apply(s, web.DecodeMore{})
	}
	st := strconv.Itoa(len(s.Doc.Messages)) + " messages"
	switch {
	case s.Doc.Errors == 1:
		st += ", 1 with an error"
	case s.Doc.Errors > 1:
		st += ", " + strconv.Itoa(s.Doc.Errors) + " with errors"
	}
	return st
}

// frame waits for the page's next rendered frame (vecty draws in requestAnimationFrame).
func frame(b *browsertest.Browser) {
	b.Eval(`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, nil)
}

// waitJS waits until the JavaScript expression cond is true; an expression that throws (an
// element not drawn yet) counts as false. After 30 s it fails the test, naming the condition.
func waitJS(b *browsertest.Browser, cond string) {
	b.Eval(`new Promise((r, fail) => { const end = Date.now() + 30000;
		const holds = () => { try { return !!(`+cond+`); } catch (e) { return false; } };
		const tick = () => holds() ? r(true) : Date.now() > end ? fail(new Error("not within 30 s: " + `+jsQuote(cond)+`)) : setTimeout(tick, 5);
		tick(); })`, nil)
}

// hover moves the real mouse pointer to the middle of the first element matching selector.
func hover(t testing.TB, b *browsertest.Browser, selector string) {
	t.Helper()
	var box struct{ X, Y float64 }
	b.Eval(`(() => { const r = document.querySelector(`+strconv.Quote(selector)+`).getBoundingClientRect();
		return {X: r.left + r.width / 2, Y: r.top + r.height / 2}; })()`, &box)
	b.Run(chromedp.MouseEvent(input.MouseMoved, box.X, box.Y))
	frame(b)
}

// treeText returns the labels and values of the tree rows drawn, one row a line.
func treeText(b *browsertest.Browser) string { return rows(b) }

func TestBrowserOpensWithExample(t *testing.T) {
	b, _ := open(t, "")
	b.WaitVisible(".tnode")
	if got := b.Text(".hex-panel h2"); !strings.Contains(got, "Insert") {
		t.Errorf("hex panel title %q, want the Insert example", got)
	}
	waitRows(t, b, "Insert = public.types", "column 2 (c_bool)", "Relation OID")
	if off := b.OffOriginRequests(); len(off) > 0 {
		t.Errorf("requests outside the page's origin: %v", off)
	}
	path := t.TempDir() + "/screenshot.png"
	if *updateScreenshot {
		path = "../docs/screenshot.png"
	}
	// The screenshot shows the wide layout, a field selected and another pointed at.
	b.SetViewport(1400, 900)
	waitJS(b, `innerWidth === 1400`)
	b.Click(`.tnode[data-node="3"]`)
	waitJS(b, `document.querySelector(".tnode.selected[data-node='3']")`)
	hover(t, b, `.hv-hex .hv-seg[data-o="25"]`)
	waitJS(b, `document.querySelector(".hv-hex .hv-seg.hov[data-o='25']") && document.querySelector(".desc-name").textContent === "Type"`)
	b.Screenshot(path)
}

func TestBrowserPasteCapture(t *testing.T) {
	b, _ := open(t, "")
	text := corpus(t, "pg17-text")
	paste(b, text)
	waitJS(b, `/^[0-9]{4} messages/.test(document.querySelector(".input-status").textContent)`)
	if got := b.Text("#format option:checked"); !strings.Contains(got, "capture") {
		t.Errorf("detected format shown as %q", got)
	}
	// The message list groups by transaction; choose the first Insert of the types table.
	var msg int
	b.Eval(`(() => { for (const e of document.querySelectorAll(".mrow")) if (e.textContent.includes("Insert")) return +e.dataset.msg; return -1; })()`, &msg)
	if msg < 0 {
		t.Fatalf("no Insert among the rows drawn")
	}
	b.Click(`.mrow[data-msg="` + strconv.Itoa(msg) + `"]`)
	waitJS(b, `document.querySelector(".hex-panel h2").textContent.startsWith("Bytes of message `+strconv.Itoa(msg+1)+`:") && document.querySelector(".tnode")`)
	waitRows(t, b, "XLogData", "Start LSN", "Insert = public.types", "column 1 (id)", "Kind = 't' text")
	if n := b.Count(".group-row"); n == 0 {
		t.Error("no transaction headings in the message list")
	}
}

// selectedHex returns the hex text of the selected segments, in order, and the offset of the first.
func selectedHex(b *browsertest.Browser) (string, int) {
	var r struct {
		Hex   string
		First int
	}
	b.Eval(`(() => { const s = [...document.querySelectorAll(".hv-hex .hv-seg.sel")];
		return {Hex: s.map((e) => e.textContent.trim()).join(" "), First: s.length ? +s[0].dataset.o : -1}; })()`, &r)
	return r.Hex, r.First
}

func TestBrowserTreeNodeSelectsBytes(t *testing.T) {
	b, _ := open(t, "")
	b.WaitVisible(".tnode")
	// Find the Relation OID node of the Insert and click it.
	var node int
	b.Eval(`(() => { for (const e of document.querySelectorAll(".tnode")) if (e.querySelector(".t-label").textContent === "Relation OID") return +e.dataset.node; return -1; })()`, &node)
	if node < 0 {
		t.Fatal("no Relation OID row")
	}
	b.Click(`.tnode[data-node="` + strconv.Itoa(node) + `"]`)
	waitJS(b, `document.querySelector(".tnode.selected[data-node='`+strconv.Itoa(node)+`']") && document.querySelector(".hv-hex .hv-seg.sel")`)
	hexText, first := selectedHex(b)
	// The Insert follows the 25-byte XLogData header and its type byte: the OID is at 26.
	if first != 26 || len(strings.Fields(hexText)) != 4 {
		t.Errorf("selected bytes %q from offset %d, want 4 bytes from 26", hexText, first)
	}
	if got := b.Text(".desc-name"); got != "Relation OID" {
		t.Errorf("description names %q", got)
	}
	// The keyboard moves on: ArrowDown selects the next node.
	b.Run(chromedp.KeyEvent(kb.ArrowDown)) // the click focused the tree
	waitJS(b, `document.querySelector(".tnode.selected") && document.querySelector(".tnode.selected").dataset.node !== "`+strconv.Itoa(node)+`"`)
	if got := b.Text(".tnode.selected .t-label"); got != "New tuple marker" {
		t.Errorf("after ArrowDown the selected node is %q", got)
	}
}

func TestBrowserHoverByteDescribesField(t *testing.T) {
	b, _ := open(t, "")
	b.WaitVisible(".tnode")
	// Byte 25 is the Insert's type byte.
	hover(t, b, `.hv-hex .hv-seg[data-o="25"]`)
	waitJS(b, `document.querySelector(".tnode.hovered") && document.querySelector(".hv-seg.hov")`)
	if got := b.Text(".tnode.hovered .t-label"); got != "Type" {
		t.Errorf("hovered tree row %q, want Type", got)
	}
	if got := b.Text(".desc-name"); got != "Type" {
		t.Errorf("description of %q", got)
	}
	desc := b.Text(".desc-panel")
	for _, want := range []string{"Byte1", "Insert", "'I'"} {
		if !strings.Contains(desc, want) {
			t.Errorf("description lacks %q: %s", want, desc)
		}
	}
	if n := b.Count(".hv-seg.hov"); n == 0 {
		t.Error("no bytes drawn hovered")
	}
}

func TestBrowserShareLinkOpensSameView(t *testing.T) {
	b, base := open(t, "")
	b.WaitVisible(".tnode")
	b.Click(`.mrow[data-msg="2"]`)
	waitJS(b, `document.querySelector(".hex-panel h2").textContent.startsWith("Bytes of message 3:") && document.querySelector(".tnode[data-node='4']")`)
	b.Click(`.tnode[data-node="4"]`)
	waitJS(b, `document.querySelector(".tnode.selected[data-node='4']") && document.querySelector(".hv-hex .hv-seg.sel")`)
	treeSettled(t, b)
	wantTree, wantTitle, wantDesc := treeText(b), b.Text(".hex-panel h2"), b.Text(".desc-name")
	wantHex, wantFirst := selectedHex(b)
	b.Click(".share")
	b.Run(chromedp.WaitVisible(".share-status", chromedp.ByQuery))
	b.Eval(`new Promise((r) => { const tick = () => document.querySelector(".share-status").textContent.includes("characters") ? r(true) : setTimeout(tick, 10); tick(); })`, nil)
	var hash string
	b.Eval(`location.hash`, &hash)
	if !strings.HasPrefix(hash, "#z1=") {
		t.Fatalf("share link %q", hash)
	}
	if got := b.Text(".share-status"); !strings.Contains(got, web.Commas(len(hash))) {
		t.Errorf("status %q does not give the link's length %d", got, len(hash))
	}

	// A new browser, as another person would open the link.
	o := browsertest.Start(t)
	o.Navigate(base + hash)
	o.WaitStarted()
	o.WaitReady("html[data-ready]")
	o.Eval(`new Promise((r) => { const tick = () => document.querySelector(".tnode.selected") ? r(true) : setTimeout(tick, 10); tick(); })`, nil)
	waitSameRows(t, o, wantTree)
	if got := o.Text(".hex-panel h2"); got != wantTitle {
		t.Errorf("title %q, want %q", got, wantTitle)
	}
	if got := o.Text(".desc-name"); got != wantDesc {
		t.Errorf("selected %q, want %q", got, wantDesc)
	}
	if h, f := selectedHex(o); h != wantHex || f != wantFirst {
		t.Errorf("selected bytes %q at %d, want %q at %d", h, f, wantHex, wantFirst)
	}
}

func TestBrowserHandWrittenLinkAndHistory(t *testing.T) {
	begin := "420000000002e34ae0000292492d0f8ae600000de4"            // vectors: postgrex_wal_txn_insert
	commit := "43000000000002e34ae00000000002e34b10000292492d0f8ae6" // the same transaction
	b, base := open(t, "#hex="+begin+"&sel=9-8")
	poll(t, b, "sel=9-8 selects the Commit timestamp", `(() => { const e = document.querySelector(".tnode.selected .t-label");
		return e && e.textContent === "Commit timestamp" ? "" : "selected: " + (e ? e.textContent : "none"); })()`)
	b.Navigate(base + "#b64=" + b64url(t, commit) + "&proto=1")
	waitJS(b, `document.querySelector(".hex-panel h2").textContent.includes("Commit")`)
	if got := b.Text(".hex-panel h2"); !strings.Contains(got, "Commit") {
		t.Errorf("after a new fragment the page shows %q", got)
	}
	if got := b.Text("#proto option:checked"); got != "1" {
		t.Errorf("proto=1 shows %q", got)
	}
	b.Eval(`history.back()`, nil)
	b.Eval(`new Promise((r) => { const tick = () => document.querySelector(".hex-panel h2").textContent.includes("Begin") ? r(true) : setTimeout(tick, 10); tick(); })`, nil)
}

func b64url(t testing.TB, h string) string {
	raw, err := hex.DecodeString(h)
	if err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(raw)
}

func TestBrowserMalformedShowsErrorAndMarksBytes(t *testing.T) {
	// go_pq_cdc_truncated.hex line 1: a Begin cut short in its Xid.
	b, _ := open(t, "#hex=420000000001969d180002ea")
	b.WaitVisible(".decode-error")
	msg := b.Text(".decode-error")
	tr := decoder.NewSession(decoder.Options{}).Decode(mustHex(t, "420000000001969d180002ea"))
	if tr.Err == nil || msg != tr.Err.Error() {
		t.Fatalf("error text %q, want %v", msg, tr.Err)
	}
	if !strings.Contains(msg, "offset "+strconv.Itoa(tr.Err.Offset)) {
		t.Errorf("error text %q does not give the offset", msg)
	}
	// The hex view's and the tree's rows come a frame after the error.
	waitFor(t, b, "the error's bytes marked and an undecoded node in the tree",
		`document.querySelector(".hv-hex .hv-seg.k-error") && document.querySelector(".tnode.has-error")`,
		`document.querySelectorAll(".hv-hex .hv-seg").length + " byte segments, tree rows: " + [...document.querySelectorAll(".tnode")].map((e) => e.textContent).join("; ")`)
	var first int
	b.Eval(`+document.querySelector(".hv-hex .hv-seg.k-error").dataset.o`, &first)
	if first != tr.Err.Offset {
		t.Errorf("error bytes marked from %d, want %d", first, tr.Err.Offset)
	}
}

func mustHex(t testing.TB, s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBrowserTextValueIsText(t *testing.T) {
	const value = `<img src=x onerror=alert(1)>`
	// An Insert of one text column holding the value, built field by field.
	msg := []byte{'I', 0, 0, 0x40, 0x01, 'N', 0, 1, 't', 0, 0, 0, byte(len(value))}
	msg = append(msg, value...)
	if testing.Short() {
		t.Skip("browser test")
	}
	base := browsertest.Serve(t)
	b := browsertest.Start(t)
	var mu sync.Mutex
	var dialogs []string
	chromedp.ListenTarget(b.Ctx, func(ev any) {
		if d, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			mu.Lock()
			dialogs = append(dialogs, d.Message)
			mu.Unlock()
			go chromedp.Run(b.Ctx, page.HandleJavaScriptDialog(false))
		}
	})
	b.Navigate(base + "#hex=" + hex.EncodeToString(msg))
	b.WaitStarted()
	b.WaitReady("html[data-ready]")
	b.WaitVisible(".tnode")
	waitRows(t, b, `Value = "`+value+`"`)
	b.Click(`.tnode[data-node="9"]`) // Insert, Type, OID, marker, tuple, count, column, kind, length, value
	waitJS(b, `document.querySelector(".tnode.selected[data-node='9']") && document.querySelector(".desc-name").textContent === "Value"`)
	if !strings.Contains(b.Text(".desc-panel"), value) {
		t.Errorf("the description does not show the value as text")
	}
	if n := b.Count("img"); n != 0 {
		t.Errorf("%d img elements in the page", n)
	}
	frame(b)
	for _, r := range b.Requests() {
		if strings.HasSuffix(r, "/x") {
			t.Errorf("the page requested %s", r)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(dialogs) > 0 {
		t.Errorf("dialogs opened: %q", dialogs)
	}
}

func TestBrowserNarrowWindowAndDarkTheme(t *testing.T) {
	b, _ := open(t, "")
	b.SetViewport(390, 844)
	waitJS(b, `innerWidth === 390 && document.querySelector(".tnode")`)
	var overflow bool
	b.Eval(`document.documentElement.scrollWidth > document.documentElement.clientWidth + 1`, &overflow)
	if overflow {
		t.Error("the page scrolls sideways on a narrow window")
	}
	// The button's next theme is drawn after each click: wait for it before the next.
	b.Click(".theme")
	waitJS(b, `document.documentElement.dataset.theme === "light" && document.querySelector(".theme").textContent.includes("light")`)
	b.Click(".theme")
	waitJS(b, `document.documentElement.dataset.theme === "dark" && document.querySelector(".theme").textContent.includes("dark")`)
	var theme string
	b.Eval(`document.documentElement.dataset.theme || ""`, &theme)
	if theme != "dark" {
		t.Errorf("after two clicks the theme is %q", theme)
	}
}

func TestBrowserShareOneMegabyte(t *testing.T) {
	b, base := open(t, "")
	text := corpus(t, "pg17-text") // 1.17 MB of real capture
	paste(b, text)
	waitJS(b, `/^[0-9]{4} messages/.test(document.querySelector(".input-status").textContent)`)
	status := b.Text(".input-status")
	b.Click(".share")
	waitJS(b, `document.querySelector(".share-status") && document.querySelector(".share-status").textContent.includes("characters")`)
	var hash string
	b.Eval(`location.hash`, &hash)
	t.Logf("%d bytes of text make a link fragment of %d characters", len(text), len(hash))
	o := browsertest.Start(t)
	o.Navigate(base + hash)
	o.WaitStarted()
	o.WaitReady("html[data-ready]")
	waitJS(o, `/^[0-9]{4} messages/.test(document.querySelector(".input-status").textContent)`)
	if got := o.Text(".input-status"); got != status {
		t.Errorf("the link opens %q, want %q", got, status)
	}
	var same bool
	o.Eval(`document.querySelector("#input-text").value === `+jsQuote(text), &same)
	if !same {
		t.Error("the link does not carry the text as pasted")
	}
}

func TestBrowserOpenFileAndDrop(t *testing.T) {
	b, _ := open(t, "")
	path := t.TempDir() + "/stream.capture"
	text := corpus(t, "pg15-text")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	b.Run(chromedp.SetUploadFiles("#file-open", []string{path}, chromedp.ByQuery))
	waitJS(b, `/^[0-9]{4} messages/.test(document.querySelector(".input-status").textContent)`)
	var same bool
	b.Eval(`document.querySelector("#input-text").value === `+jsQuote(text), &same)
	if !same {
		t.Error("the opened file is not in the input box")
	}
	// A file dropped on the page (the drop event a browser sends, with the file in it).
	begin := "420000000002e34ae0000292492d0f8ae600000de4" // vectors: postgrex_wal_txn_insert
	b.Eval(`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File([`+jsQuote(begin+"\n")+`], "begin.hex", {type: "text/plain"}));
		document.querySelector(".hex-panel").dispatchEvent(new DragEvent("drop", {bubbles: true, cancelable: true, dataTransfer: dt}));
	})()`, nil)
	waitJS(b, `document.querySelector(".input-status").textContent === "1 message"`)
	if got := b.Text(".hex-panel h2"); !strings.Contains(got, "Begin") {
		t.Errorf("after the drop the page shows %q", got)
	}
}

func TestBrowserMessageListKeyboard(t *testing.T) {
	b, _ := open(t, "")
	b.WaitVisible(".mrow.selected")
	b.Run(chromedp.Focus(".msg-list", chromedp.ByQuery))
	start := b.Text(".mrow.selected .m-type")
	b.Run(chromedp.KeyEvent(kb.ArrowDown))
	waitJS(b, `document.querySelector(".mrow.selected .m-type").textContent !== `+jsQuote(start))
	b.Run(chromedp.KeyEvent(kb.Home))
	waitJS(b, `document.querySelector(".mrow.selected").dataset.msg === "0"`)
	if got := b.Text(".hex-panel h2"); !strings.Contains(got, "message 1:") {
		t.Errorf("Home shows %q", got)
	}
}

func TestBrowserTypingInLongText(t *testing.T) {
	b, _ := open(t, "")
	paste(b, corpus(t, "pg17-text"))
	waitJS(b, `/^[0-9]{4} messages/.test(document.querySelector(".input-status").textContent)`)
	before := b.Text(".input-status")
	n, _ := strconv.Atoi(strings.Fields(before)[0])
	// Type a line at the end of the 1 MB text, key by key (a Stream Stop, 'E'). The page reads
	// a long text again once typing pauses; no key typed meanwhile may be lost, however slow
	// the machine: the text box is never drawn back with the text of an earlier pause.
	const line = "0/0 45\n"
	b.Run(chromedp.Focus("#input-text", chromedp.ByQuery))
	b.Eval(`(() => { const ta = document.querySelector("#input-text"); ta.selectionStart = ta.selectionEnd = ta.value.length; })()`, nil)
	// One key a call: each call has the browser's time limit, and on a loaded machine the page
	// may read the whole text between two keys (about half a second of work, many times that
	// when the machine is busy), which SendKeys's one limit for the whole line did not allow.
	for _, k := range line {
		b.Run(chromedp.KeyEvent(string(k)))
	}
	want := strconv.Itoa(n+1) + " messages"
	waitJS(b, `document.querySelector(".input-status").textContent === `+jsQuote(want)+` && !document.querySelector(".page.stale")`)
	var endsWith bool
	b.Eval(`document.querySelector("#input-text").value.endsWith(`+jsQuote(line)+`)`, &endsWith)
	if !endsWith {
		t.Error("the typed line is not in the input box")
	}
}

func TestBrowserLongPasteDecodesInBackground(t *testing.T) {
	b, _ := open(t, "")
	text := tenThousand(t)
	// Keep every status text shown, to see the decoding progress.
	b.Eval(`(() => { window.statusSeen = []; const st = document.querySelector(".input-status");
		new MutationObserver(() => window.statusSeen.push(st.textContent)).observe(st, {childList: true, characterData: true, subtree: true}); })()`, nil)
	paste(b, text)
	waitJS(b, `/^[0-9]{4,} messages/.test(document.querySelector(".input-status").textContent)`)
	var seen []string
	b.Eval(`window.statusSeen`, &seen)
	progress := 0
	for _, s := range seen {
		if strings.HasPrefix(s, "decoding… ") && strings.HasSuffix(s, " messages") {
			progress++
		}
	}
	if progress < 2 {
		t.Errorf("the status showed the decoding progress %d times: %q", progress, seen)
	}
	status := b.Text(".input-status")
	if got := b.Text(".list-panel h2"); !strings.Contains(status, strings.TrimSuffix(strings.TrimPrefix(got, "Messages ("), ")")+" messages") {
		t.Errorf("list title %q, status %q", got, status)
	}
	// A new paste ends the decoding of a long one: the short input stays shown.
	paste(b, text+"\n")
	waitJS(b, `document.querySelector(".input-status").textContent.startsWith("decoding… ")`)
	begin := "420000000002e34ae0000292492d0f8ae600000de4" // vectors: postgrex_wal_txn_insert
	paste(b, begin)
	waitJS(b, `document.querySelector(".input-status").textContent === "1 message"`)
	for range 5 {
		frame(b)
	}
	if got, n := b.Text(".input-status"), b.Count(".mrow[data-msg]"); got != "1 message" || n != 1 {
		t.Errorf("after a short paste cut a long decode short: status %q, %d rows", got, n)
	}
}

// TestBrowserOpenBinaryFiles opens binary files: a pcapng capture, a pg_recvlogical file, and
// that file repeated past MaxInput (16 MiB), are read as bytes (the text box names the file
// and its size instead of a dump) and give the messages they hold.
func TestBrowserOpenBinaryFiles(t *testing.T) {
	b, _ := open(t, "")
	raw, err := os.ReadFile("../testdata/input/recvlogical/stream.bin")
	if err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(t.TempDir(), "big.bin") // a pg_recvlogical file followed by itself is one still
	if err := os.WriteFile(big, bytes.Repeat(raw, web.MaxInput/len(raw)+1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"../testdata/input/tshark/pcapng.pcapng", "../testdata/input/recvlogical/stream.bin", big} {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		res, err := pginput.Parse(raw, pginput.Auto) // a capture gives its whole conversation
		if err != nil {
			t.Fatal(err)
		}
		n := len(res.Messages)
		abs, err := filepath.Abs(path)
		if err != nil {
			t.Fatal(err)
		}
		b.Run(chromedp.SetUploadFiles("#file-open", []string{abs}, chromedp.ByQuery))
		waitJS(b, `document.querySelector(".input-status").textContent.startsWith("`+strconv.Itoa(n)+` messages")`)
		var box struct {
			Value    string
			ReadOnly bool
		}
		b.Eval(`(() => { const ta = document.querySelector("#input-text"); return {Value: ta.value, ReadOnly: ta.readOnly}; })()`, &box)
		if want := web.FileView(string(raw), filepath.Base(path)); box.Value != want || !box.ReadOnly {
			t.Errorf("%s: the text box holds %.80q (read-only %v), want %q, read-only", path, box.Value, box.ReadOnly, want)
		}
	}
}

// TestBrowserBadCharacterSelected pastes hex with a bad character on its second line: the
// first line's message is decoded, the error names the line and column, and the bad character
// (here outside the Basic Multilingual Plane: two UTF-16 units) is selected in the text box.
func TestBrowserBadCharacterSelected(t *testing.T) {
	b, _ := open(t, "")
	paste(b, "420000000002e34ae0000292492d0f8ae600000de4\n4200\U0001F600\n")
	waitJS(b, `document.querySelector(".input-status").textContent === "1 message"`)
	if got := b.Text(".input-error"); !strings.Contains(got, "line 2, column 5") {
		t.Errorf("input error %q, want it to name line 2, column 5", got)
	}
	var sel []int
	b.Eval(`(() => { const ta = document.querySelector("#input-text"); return [ta.selectionStart, ta.selectionEnd]; })()`, &sel)
	if len(sel) != 2 || sel[0] != 47 || sel[1] != 49 {
		t.Errorf("selection %v, want [47 49] (the character after \"4200\" on line 2)", sel)
	}
}
