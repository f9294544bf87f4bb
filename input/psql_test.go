package input

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

// TestPsqlBadRowKeepsTheRest checks that one bad character in a row loses only that row: the
// others are read, and the error names the format, line, column and what was there.
func TestPsqlBadRowKeepsTheRest(t *testing.T) {
	text := "    lsn    | xid |    data\n" +
		"-----------+-----+------------\n" +
		" 0/1522A60 | 731 | \\x420000\n" +
		" 0/1522A60 | 731 | \\x43zz00\n" +
		" 0/1522B78 | 732 | \\x4400\n" +
		"(3 rows)\n"
	r, err := Parse([]byte(text), Auto)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v, want an *Error", err)
	}
	if e.Format != PsqlAligned || e.Line != 4 || e.Column != 24 || !strings.Contains(e.Msg, "found 'z'") {
		t.Errorf("error %v", e)
	}
	if r == nil || len(r.Messages) != 2 || hex.EncodeToString(r.Messages[1].Bytes) != "4400" || r.Messages[1].Line != 5 {
		t.Fatalf("result %+v, want the first and third rows", r)
	}
	if len(r.Errors) != 1 || r.Errors[0] != e {
		t.Errorf("errors %v", r.Errors)
	}
}

// TestPsqlValueEdges reads values whose last bytes look like psql's markup.
func TestPsqlValueEdges(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       []string
	}{
		// encode(data, 'escape') under -A leaves a newline byte as it is.
		{"escape value ending in a newline and a blank", "lsn|xid|data\n0/1|5|M\\000a\n \n0/2|5|C\n(2 rows)\n", []string{"4d00610a20", "43"}},
		{"escape value ending in a dot", "lsn|xid|data\n0/1|5|M\\000.\n(1 row)\n", []string{"4d002e"}},
		{"escape value ending in a blank", "lsn|xid|data\n0/1|5|M\\000 \n(1 row)\n", []string{"4d0020"}},
		{"expanded value ending in a dot", "-[ RECORD 1 ]\nlsn  | 0/1\nxid  | 5\ndata | M\\000.\n", []string{"4d002e"}},
		{"a one-byte message in escape format", "lsn|xid|data\n0/1|5|E\n(1 row)\n", []string{"45"}},
		{"hex cut after an odd digit at the end of the paste", " 0/1 | 5 | \\x42000", []string{"4200"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse([]byte(tt.text), Auto)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range r.Messages {
				got = append(got, hex.EncodeToString(m.Bytes))
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("messages %v, want %v", got, tt.want)
			}
		})
	}
}
