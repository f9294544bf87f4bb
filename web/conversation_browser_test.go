//go:build !js

package web_test

import (
	"bytes"
	"compress/flate"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	pginput "pgoutput-inspector/input"
	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/internal/wirecapture"
	"pgoutput-inspector/web"
)

// Packet captures of whole connections (testdata/conversation, recorded by
// scripts/wirecaptures), opened from disk as a person opens them: every message of both
// directions, who sent it on which connection, what each connection did, and a share link
// that opens the same message of the same connection.

// openCapture opens the capture testdata/conversation/name in the page from the file dialog
// and waits until the page has decoded all of it; it returns the capture's messages.
func openCapture(t *testing.T, b browsertest.Tab, name string) []pginput.Message {
	t.Helper()
	return openTestdata(t, b, "conversation/"+name)
}

// openTestdata opens the file testdata/rel in the page from the file dialog and waits until
// the page has decoded all of it; it returns its messages.
func openTestdata(t *testing.T, b browsertest.Tab, rel string) []pginput.Message {
	t.Helper()
	path, err := filepath.Abs("../testdata/" + rel)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := pginput.Parse(raw, pginput.Auto)
	if err != nil {
		t.Fatal(err)
	}
	b.Upload("#file-open", path)
	want := strconv.Itoa(len(res.Messages)) + " messages"
	waitText(t, b, ".input-status", want)
	return res.Messages
}

// setFilter replaces the filter box's query with query, typed, and waits for the list to
// follow it.
func setFilter(t *testing.T, b browsertest.Tab, query string) {
	t.Helper()
	b.Click(".filter")
	b.Press("a", "Control")
	b.Press("Backspace")
	// Emptying the box applies the empty query; the box is drawn again with it on the next
	// frame, which would take away a key typed before (a character was lost so, one run in
	// several). Type once the empty query is applied and drawn.
	poll(t, b, "the empty filter applied", `((e) => (!e || !e.dataset.query) && document.querySelector(".filter").value === "" ? "" : e.dataset.query)(document.querySelector(".filter-status"))`)
	b.Eval(`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`, nil)
	typeFilter(b, query)
	// The list shows the query's messages once the status carries the query applied, and
	// its rows stand still once it draws exactly the rows of its view.
	poll(t, b, "the filter applied is "+query, `((e) => e && e.dataset.query === `+jsQuote(query)+` ? "" : e ? e.dataset.query : "no status")(document.querySelector(".filter-status"))`)
	listSettled(t, b, "the message list", ".msg-list", ".vrow")
}

// chooseRow filters the list to query and chooses the message msg there (its row).
func chooseRow(t *testing.T, b browsertest.Tab, query string, msg int) {
	t.Helper()
	setFilter(t, b, query)
	row := `.mrow[data-msg="` + strconv.Itoa(msg) + `"]`
	until(b, `document.querySelector('`+row+`')`)
	b.Click(row)
	until(b, `document.querySelector('.mrow.selected[data-msg="`+strconv.Itoa(msg)+`"]')`)
}

// TestBrowsersCaptureConversation opens pg_recvlogical's capture against a server that
// refused its proto_version: the startup, the replication commands and the server's error,
// each with its direction; the connection's note; the error's fields; a share link of the
// error message.
func TestBrowsersCaptureConversation(t *testing.T) {
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, base string) {
		msgs := openCapture(t, b, "fail-proto-pg17.pcapng")
		errAt := -1
		for i, m := range msgs {
			if m.Side == decoder.Backend && len(m.Bytes) > 0 && m.Bytes[0] == 'E' {
				errAt = i
			}
		}
		if errAt < 0 {
			t.Fatal("the capture has no ErrorResponse")
		}
		until(b, `document.querySelector('.mrow[data-msg="0"] .m-dir')`)
		if got := b.Text(`.mrow[data-msg="0"] .m-dir`); got != "→1" {
			t.Errorf("the first message's direction %q, want →1", got)
		}
		if got := b.Text(`.mrow[data-msg="0"] .m-type`); !strings.Contains(got, "StartupMessage") {
			t.Errorf("the first message is %q, want the StartupMessage", got)
		}
		if got := b.Text(`.mrow[data-msg="1"] .m-dir`); got != "←1" {
			t.Errorf("the second message's direction %q, want ←1", got)
		}
		waitRows(t, b, "replication", `"database"`, `application_name`, `"pg_recvlogical"`)
		note := b.Text(".conn-notes")
		for _, want := range []string{
			"Connection 1: ",
			"IDENTIFY_SYSTEM",
			"START_REPLICATION SLOT recv LOGICAL 0/0 (proto_version 9, publication_names pub)",
			"client sent proto_version=9 but server only supports protocol 4 or lower",
		} {
			if !strings.Contains(note, want) {
				t.Errorf("the connection's note %q does not say %q", note, want)
			}
		}

		chooseRow(t, b, "from:server type:error", errAt)
		waitRows(t, b, "ErrorResponse", `"0A000" feature_not_supported`,
			`"client sent proto_version=9 but server only supports protocol 4 or lower"`)
		if got := b.Text(".list-panel h2"); got != "Messages (1 of "+strconv.Itoa(len(msgs))+")" {
			t.Errorf("list title %q with the filter", got)
		}
		treeSettled(t, b)
		wantTree, wantTitle := rows(b), b.Text(".hex-panel h2")
		b.Click(".share")
		until(b, `document.querySelector(".share-status") && document.querySelector(".share-status").textContent.includes("characters")`)
		var hash string
		b.Eval(`location.hash`, &hash)
		if !strings.HasPrefix(hash, "#z1=") {
			t.Fatalf("share link %q", hash)
		}
		o := openTab(t, b.Name(), base+hash)
		until(o, `document.querySelector('.mrow.selected[data-msg="`+strconv.Itoa(errAt)+`"]')`)
		waitSameRows(t, o, wantTree)
		if got := o.Text(".hex-panel h2"); got != wantTitle {
			t.Errorf("the link shows %q, want %q", got, wantTitle)
		}
		if got := o.Text(`.mrow.selected .m-dir`); got != "←1" {
			t.Errorf("the link's message has direction %q, want ←1", got)
		}
		if got := o.Text(".conn-notes"); got != note {
			t.Errorf("the link's connection note %q, want %q", got, note)
		}
	})
}

// TestBrowserSubscriberConnections opens a subscriber's capture: four connections, each with
// its note and a button that filters the list to it; the table sync's CopyOutResponse and its
// COPY rows, named by the COPY command's columns.
func TestBrowserSubscriberConnections(t *testing.T) {
	b, _ := open(t, "")
	msgs := openCapture(t, b, "subscriber-pg17-pg18.pcapng")
	if n := b.Count(".conn-notes p"); n != 4 {
		t.Fatalf("%d connection notes, want 4", n)
	}
	sync, copyOut := -1, -1
	for i, m := range msgs {
		if m.Side == decoder.Backend && len(m.Bytes) > 0 && m.Bytes[0] == 'H' {
			sync, copyOut = m.Conn, i
			break
		}
	}
	if copyOut < 0 {
		t.Fatal("the capture has no CopyOutResponse")
	}
	c := strconv.Itoa(sync)
	var note string
	b.Eval(`document.querySelectorAll(".conn-notes p")[`+strconv.Itoa(sync-1)+`].textContent`, &note)
	if !strings.Contains(note, "application_name pg_") || !strings.Contains(note, "_sync_") {
		t.Errorf("connection %d's note %q does not name the table sync's application_name", sync, note)
	}
	b.Click(`.conn-notes p:nth-of-type(` + c + `) .conn-filter`)
	until(b, `document.querySelector(".filter").value === "conn:`+c+`"`)
	n := 0
	for _, m := range msgs {
		if m.Conn == sync {
			n++
		}
	}
	waitText(t, b, ".filter-status", strconv.Itoa(n)+" messages match")
	var dirs []string
	b.Eval(`[...document.querySelectorAll(".mrow[data-msg] .m-dir")].map((e) => e.textContent)`, &dirs)
	for _, d := range dirs {
		if d != "→"+c && d != "←"+c {
			t.Errorf("with conn:%s the list shows a message of %q", c, d)
		}
	}
	chooseRow(t, b, "conn:"+c+" type:copyout", copyOut)
	waitRows(t, b, "CopyOutResponse", "Overall format", "1 binary")
	// The first row follows: the binary COPY header, then the tuple's columns by name.
	chooseRow(t, b, "conn:"+c, copyOut)
	b.Press("ArrowDown")
	until(b, `document.querySelector('.mrow.selected[data-msg="`+strconv.Itoa(copyOut+1)+`"]')`)
	waitRows(t, b, "COPY binary header", "COPY tuple", "column 1 (id)", "column 2 (name)", "column 3 (balance)")
	if d := b.Text(".mrow.selected .m-dir"); d != "←"+c {
		t.Errorf("the COPY row's direction %q", d)
	}
}

// TestBrowserCaptureSecretsNotShown opens a SCRAM capture: the page shows, shares and
// exports no password: the page holds the capture's bytes with the client's SCRAM data
// replaced by '*' (the link has them so), and the SASL messages' data read "secret, … not
// shown".
func TestBrowserCaptureSecretsNotShown(t *testing.T) {
	b, _ := open(t, "")
	msgs := openCapture(t, b, "scram-pg18.pcapng")
	initial := -1
	for i, m := range msgs {
		if m.Side == decoder.Frontend && len(m.Bytes) > 0 && m.Bytes[0] == 'p' {
			initial = i
			break
		}
	}
	if initial < 0 {
		t.Fatal("no SASLInitialResponse")
	}
	chooseRow(t, b, "from:client type:sasl", initial)
	waitRows(t, b, "SASLInitialResponse", `"SCRAM-SHA-256"`, "secret, 32 bytes not shown")
	b.Click(".share")
	until(b, `document.querySelector(".share-status") && document.querySelector(".share-status").textContent.includes("characters")`)
	var page struct{ Text, Body, Hash string }
	b.Eval(`({Text: document.querySelector("#input-text").value, Body: document.body.textContent, Hash: decodeURIComponent(location.hash)})`, &page)
	for _, p := range wirecapture.Passwords {
		for what, s := range map[string]string{"text box": page.Text, "page": page.Body, "link": page.Hash} {
			if strings.Contains(s, p) {
				t.Errorf("the %s shows the password %q", what, p)
			}
		}
	}
	// The link holds the capture's bytes, compressed: inflated it shows no password either.
	fr, err := web.ParseFragment(page.Hash)
	if err != nil {
		t.Fatal(err)
	}
	packed, err := fr.Unpack()
	if err != nil {
		t.Fatal(err)
	}
	payload, err := io.ReadAll(flate.NewReader(bytes.NewReader(packed)))
	if err != nil {
		t.Fatal(err)
	}
	shared, err := web.ParseSharePayload(payload)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("../testdata/conversation/scram-pg18.pcapng")
	if err != nil {
		t.Fatal(err)
	}
	if red := pginput.RedactCapture(raw); shared.Text != string(red) || bytes.Equal(red, raw) {
		t.Error("the link does not hold the capture's bytes with the client's SCRAM data replaced")
	}
	for _, p := range wirecapture.Passwords {
		if strings.Contains(string(payload), p) {
			t.Errorf("the link's payload shows the password %q", p)
		}
	}
}
