package input

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// psqlWant is what a psql output in testdata/input/psql must give (CASE.want, written by
// scripts/psqlgen from the server's own encode(data, 'hex') of the same rows).
type psqlWant struct {
	format   Format
	lsn, xid bool
	note     string
	err      string // a piece of the error, when the output cannot be read back
	msgs     []wantMsg
}

type wantMsg struct {
	hex, lsn, xid string
}

func readPsqlWant(t *testing.T, path string) psqlWant {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var w psqlWant
	var row wantMsg
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "# format: "):
			w.format = Format(strings.TrimPrefix(l, "# format: "))
		case strings.HasPrefix(l, "# fields:"):
			for _, f := range strings.Fields(strings.TrimPrefix(l, "# fields:")) {
				w.lsn = w.lsn || f == "lsn"
				w.xid = w.xid || f == "xid"
			}
		case strings.HasPrefix(l, "# note: "):
			w.note = strings.TrimPrefix(l, "# note: ")
		case strings.HasPrefix(l, "# error: "):
			w.err = strings.TrimPrefix(l, "# error: ")
		case strings.HasPrefix(l, "# row "):
			f := strings.Fields(l)
			row = wantMsg{lsn: f[2], xid: f[3]}
		case strings.HasPrefix(l, "#"), l == "":
		default:
			row.hex = l
			w.msgs = append(w.msgs, row)
			row = wantMsg{}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return w
}

// checkPsql checks that text parses to exactly the wanted messages.
func checkPsql(t *testing.T, text []byte, force Format, w psqlWant) *Result {
	t.Helper()
	r, err := Parse(text, force)
	if w.err != "" {
		if err == nil || !strings.Contains(err.Error(), w.err) {
			t.Fatalf("error %v, want one with %q", err, w.err)
		}
		return r
	}
	if err != nil {
		t.Fatalf("error: %v", err)
	}
	if w.format != "" && r.Format != w.format {
		t.Errorf("read as %s, want %s", r.Format, w.format)
	}
	if len(r.Messages) != len(w.msgs) {
		t.Fatalf("%d messages, want %d", len(r.Messages), len(w.msgs))
	}
	for i, m := range r.Messages {
		if got := hex.EncodeToString(m.Bytes); got != w.msgs[i].hex {
			t.Errorf("message %d (line %d):\n got %s\nwant %s", i, m.Line, got, w.msgs[i].hex)
		}
		if w.lsn && !m.HasLSN {
			t.Errorf("message %d: no LSN", i)
		}
		if m.HasLSN {
			if got := strings.ToUpper(formatLSN(m.LSN)); got != w.msgs[i].lsn {
				t.Errorf("message %d: LSN %s, want %s", i, got, w.msgs[i].lsn)
			}
		}
		if w.xid && !m.HasXid {
			t.Errorf("message %d: no xid", i)
		}
		if m.HasXid && w.msgs[i].xid != "" {
			if got := itoa(int(m.Xid)); got != w.msgs[i].xid {
				t.Errorf("message %d: xid %s, want %s", i, got, w.msgs[i].xid)
			}
		}
	}
	if w.note != "" {
		var notes []string
		for _, n := range r.Notes {
			notes = append(notes, n.Text)
		}
		if !strings.Contains(strings.Join(notes, "\n"), w.note) {
			t.Errorf("notes %q, want one with %q", notes, w.note)
		}
	}
	return r
}

func formatLSN(v uint64) string {
	return strings.ToUpper(hexU(v>>32)) + "/" + strings.ToUpper(hexU(v&0xffffffff))
}

func hexU(v uint64) string {
	const digits = "0123456789abcdef"
	if v == 0 {
		return "0"
	}
	var b []byte
	for v > 0 {
		b = append([]byte{digits[v&15]}, b...)
		v >>= 4
	}
	return string(b)
}

// TestPsqlGolden reads every output real psql made (testdata/input/psql, scripts/psqlgen),
// detected and forced to the format detected, and checks the messages against the server's.
func TestPsqlGolden(t *testing.T) {
	files, err := filepath.Glob("../testdata/input/psql/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no psql test data: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txt")
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			w := readPsqlWant(t, strings.TrimSuffix(file, ".txt")+".want")
			r := checkPsql(t, text, Auto, w)
			if t.Failed() || r == nil {
				return
			}
			checkPsql(t, text, r.Format, w)
			// The same text pasted through e-mail and with Windows line ends.
			var quoted bytes.Buffer
			for _, l := range bytes.SplitAfter(text, []byte("\n")) {
				if len(l) > 0 {
					quoted.WriteString("> ")
					quoted.Write(bytes.ReplaceAll(l, []byte("\n"), []byte("\r\n")))
				}
			}
			if !hasControl(text) { // raw control bytes (psql -z, encode(…, 'escape')) make a file, not a paste
				checkPsql(t, quoted.Bytes(), Auto, w)
			}
		})
	}
}

func hasControl(b []byte) bool {
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			return true
		}
	}
	return false
}
