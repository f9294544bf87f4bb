package web

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
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

// TestOldShareLinks opens links the Share button made before notes (testdata/links/main-REV.txt,
// made by TestMakeShareLinks in Chromium on commit REV: 1090c42 and d8ba63a) and checks that the
// page shows what that commit's page showed (main-REV.view, written by this test on REV with
// OLD_LINKS_UPDATE=1, the notes check below left out), with no notes.
func TestOldShareLinks(t *testing.T) {
	files, err := filepath.Glob("testdata/links/main-*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no links in testdata/links: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			links := strings.Fields(string(raw))
			var views []string
			for _, l := range links {
				views = append(views, linkView(openLink(NewState(0), l)))
			}
			got := strings.Join(views, "\n") + "\n"
			view := strings.TrimSuffix(f, ".txt") + ".view"
			if os.Getenv("OLD_LINKS_UPDATE") == "1" {
				if err := os.WriteFile(view, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(view)
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
		})
	}
}
