//go:build !js

package web_test

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	pginput "pgoutput-inspector/input"
	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/internal/debpkg"
	"pgoutput-inspector/web"
)

// TestBrowsersShareTooLong: a capture whose link would be longer than web.MaxLink (every
// conversation capture joined eight times over by mergecap -a: 7.7 MB, whose link would be
// about 1.6 million characters) gets a link of the chosen message's connection, found by the
// export worker; the page says so, and the link opens to that connection's messages.
func TestBrowsersShareTooLong(t *testing.T) {
	debpkg.NoteOnFailure(t, "tshark") // mergecap comes with it
	captures, err := filepath.Glob("../testdata/conversation/*.pcapng")
	if err != nil || len(captures) == 0 {
		t.Fatalf("no captures: %v", err)
	}
	path := filepath.Join(t.TempDir(), "joined.pcapng")
	args := []string{"-a", "-w", path}
	for range 8 {
		args = append(args, captures...)
	}
	if out, err := exec.Command("mergecap", args...).CombinedOutput(); err != nil {
		t.Fatalf("mergecap: %v: %s", err, out)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, flate.BestCompression)
	w.Write(raw)
	w.Close()
	if n := base64.RawURLEncoding.EncodedLen(z.Len()); n < web.MaxLink*5/4 {
		t.Fatalf("the capture's link would be about %d characters: not too long for a link (%d)", n, web.MaxLink)
	}
	res, err := pginput.Parse(raw, pginput.Auto)
	if err != nil {
		t.Fatal(err)
	}
	want := 0 // the messages of connection 1, the first message's
	for _, m := range res.Messages {
		if m.Conn == 1 {
			want++
		}
	}
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, base string) {
		b.Upload("#file-open", path)
		waitText(t, b, ".input-status", strconv.Itoa(len(res.Messages))+" messages")
		b.Click(".share")
		holds := "this one holds connection 1's " + strconv.Itoa(want) + " messages, as tshark's tcp.payload fields (without the capture's times)."
		poll(t, b, "the share status", `((e) => !e ? "none" : e.textContent.endsWith(`+jsQuote(holds)+`) ? "" : e.textContent)(document.querySelector(".share-status"))`)
		var hash string
		b.Eval(`location.hash`, &hash)
		if len(hash) > web.MaxLink || len(hash) < 5 || hash[:4] != "#z1=" {
			t.Fatalf("the link is %d characters: %.20q", len(hash), hash)
		}
		o := openTab(t, b.Name(), base+hash)
		waitText(t, o, ".input-status", strconv.Itoa(want)+" messages")
	})
}
