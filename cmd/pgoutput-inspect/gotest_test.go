package main

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/export"
	"pgoutput-inspector/web"
)

// TestDecodeGoTest: decode --go-test N prints what package export writes for message N of the
// input, decoded in order as the page decodes it (the tests made are run against pglogrepl in
// package export), and says why there is none for a message pglogrepl does not decode, one with
// an error, or a number past the input.
func TestDecodeGoTest(t *testing.T) {
	const file = "testdata/pg15-text.capture"
	r := runCmd(t, "", nil, "decode", file)
	doc, ierr := web.NewDoc(readText(t, file), input.Auto, decoder.Options{}, -1)
	if ierr != nil {
		t.Fatal(ierr)
	}
	made := 0
	for i, tr := range doc.Trees {
		num := strconv.Itoa(i + 1)
		want, err := export.AppendGoTest(nil, tr, "Message"+num, "message "+num+" of "+file)
		got := runCmd(t, "", nil, "decode", "--go-test", num, file)
		if err != nil {
			if got.code != exitError || got.stdout != "" || got.stderr != "pgoutput-inspect decode: --go-test "+num+": "+err.Error()+"\n" {
				t.Errorf("message %s: exit %d, stdout %q, stderr %q; want exit 1 and %v", num, got.code, got.stdout, got.stderr, err)
			}
			continue
		}
		made++
		if got.code != exitOK || got.stdout != string(want) || got.stderr != "" {
			t.Errorf("message %s: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", num, got.code, got.stderr, got.stdout, want)
		}
	}
	if made == 0 || r.code != exitOK {
		t.Fatalf("%d tests made; decode exits %d", made, r.code)
	}
	past := runCmd(t, "", nil, "decode", "--go-test", strconv.Itoa(len(doc.Trees)+1), file)
	if past.code != exitError || !strings.HasSuffix(past.stderr, ": the input has "+strconv.Itoa(len(doc.Trees))+" messages\n") {
		t.Errorf("past the last message: exit %d, stderr %q", past.code, past.stderr)
	}
	for _, args := range [][]string{{"--go-test", "1", "--json"}, {"--go-test", "-1"}, {"--go-test", "1", "--explain"}} {
		if r := runCmd(t, "", nil, append(append([]string{"decode"}, args...), file)...); r.code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, r.code, exitUsage)
		}
	}
}

func readText(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
