package web

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"testing"
)

// linkView sums up what a page shows after opening a link: what TestOldShareLinks compares.
func linkView(s State) string {
	h := sha256.Sum256([]byte(s.Text))
	return strings.Join([]string{hex.EncodeToString(h[:8]), string(s.Force), strconv.Itoa(s.Proto),
		strconv.Itoa(int(s.InStream)), strconv.Itoa(s.Msg), strconv.Itoa(int(s.Node)),
		strconv.Itoa(s.Sel.Offset) + "-" + strconv.Itoa(s.Sel.Length), strconv.Quote(s.Filter.Query),
		strconv.FormatBool(s.Explain), strconv.Itoa(s.Lens.Release), strconv.Itoa(s.Lens.Proto),
		strconv.Itoa(s.Example), strconv.Quote(s.LinkErr)}, " ")
}

// TestOldShareLinks opens links the Share button made before notes (testdata/links, made by
// TestMakeShareLinks in Chromium on commit 1090c42) and checks that the page shows what that
// commit's page showed (testdata/links/main-1090c42.view, written by this test on 1090c42 with
// OLD_LINKS_UPDATE=1), with no notes.
func TestOldShareLinks(t *testing.T) {
	raw, err := os.ReadFile("testdata/links/main-1090c42.txt")
	if err != nil {
		t.Fatal(err)
	}
	links := strings.Fields(string(raw))
	var views []string
	for _, l := range links {
		views = append(views, linkView(openLink(NewState(0), l)))
	}
	got := strings.Join(views, "\n") + "\n"
	if os.Getenv("OLD_LINKS_UPDATE") == "1" {
		if err := os.WriteFile("testdata/links/main-1090c42.view", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/links/main-1090c42.view")
	if err != nil {
		t.Fatal(err)
	}
	if len(links) < 3 || got != string(want) {
		t.Errorf("%d links opened as\n%s\nwant\n%s", len(links), got, want)
	}
	for _, l := range links {
		if s := openLink(NewState(0), l); len(s.Notes) != 0 || s.LinkErr != "" {
			t.Errorf("%.40s: notes %v, error %q", l, s.Notes, s.LinkErr)
		}
	}
}
