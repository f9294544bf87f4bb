package main

import (
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
)

// TestExplainCommand: explain finds an entry by letter, name or ID and prints its guide text;
// a letter two entries share prints both; --release marks what does not exist there.
func TestExplainCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want []string
		not  []string
	}{
		{[]string{"explain", "U"}, exitOK, []string{"Update 'U'", "| 'U' | (Xid) | Relation OID |", "An Update carries a 'K' part or an 'O' part or neither, never both.",
			"#PROTOCOL-LOGICALREP-MESSAGE-FORMATS-UPDATE"}, nil},
		{[]string{"explain", "Stream", "Abort", "--release", "15"}, exitOK, []string{"Stream Abort 'A'", "At PostgreSQL 15 (protocol versions 1 to 3):",
			"Abort LSN: not sent before PostgreSQL 16 (protocol version 4).", "docs/15/protocol-logicalrep-message-formats.html\n"}, nil},
		{[]string{"explain", "stream-abort"}, exitOK, []string{"Stream Abort 'A'"}, nil},
		{[]string{"explain", "c"}, exitOK, []string{"Stream Commit 'c'"}, []string{"\nCommit 'C'"}},
		{[]string{"explain", "r"}, exitOK, []string{"Rollback Prepared 'r'", "Standby status update 'r'", "\"r\" names 2 entries"}, nil},
		{[]string{"explain", "tupledata"}, exitOK, []string{"TupleData\n", "[ Kind | (Length) | (Value) ] × column"}, nil},
		{[]string{"explain", "keepalive"}, exitOK, []string{"Primary keepalive 'k'"}, nil},
		{[]string{"explain", "T", "--release", "10"}, exitOK, []string{"Truncate does not exist yet: it arrives in PostgreSQL 11, protocol version 1."}, nil},
		{[]string{"explain", "tupledata", "--release", "13"}, exitOK, []string{"Kind 'b' (binary): not sent before PostgreSQL 14."}, nil},
		{[]string{"explain"}, exitOK, []string{"  U  update", "  h  hot-standby-feedback"}, nil},
		{[]string{"explain", "Z"}, exitUsage, nil, nil},
		{[]string{"explain", "--release", "9", "U"}, exitUsage, nil, nil},
	} {
		r := runCmd(t, "", nil, c.args...)
		if r.code != c.code {
			t.Errorf("%v: exit %d, want %d; stderr %s", c.args, r.code, c.code, r.stderr)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("%v: output lacks %q:\n%s", c.args, w, r.stdout)
			}
		}
		for _, w := range c.not {
			if strings.Contains(r.stdout, w) {
				t.Errorf("%v: output has %q", c.args, w)
			}
		}
	}
	// Every entry of the guide can be asked for by its ID, and by its letter where it has one.
	for _, e := range decoder.GuideData().Entries {
		if r := runCmd(t, "", nil, "explain", e.ID); r.code != exitOK || !strings.HasPrefix(r.stdout, e.Name) {
			t.Errorf("explain %s: exit %d, %.40q", e.ID, r.code, r.stdout)
		}
	}
}
