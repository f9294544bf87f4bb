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
			"Abort LSN: not sent there; sent since PostgreSQL 16, protocol 4.", "docs/15/protocol-logicalrep-message-formats.html\n",
			"| 'A' | Xid | Subtransaction Xid | (Abort LSN) | (Abort timestamp) |\n| 1   | 4   | 4                  | not yet     | not yet           |",
			"  4    Abort LSN              Int64          8\n       not at PostgreSQL 15: sent since PostgreSQL 16, protocol 4\n",
			"- 16 (protocol 4): (not yet) With streaming = parallel", "- 14 (protocol 2): Arrives"}, nil},
		{[]string{"explain", "stream-abort"}, exitOK, []string{"Stream Abort 'A'"}, nil},
		{[]string{"explain", "c"}, exitOK, []string{"Stream Commit 'c'"}, []string{"\nCommit 'C'"}},
		{[]string{"explain", "r"}, exitOK, []string{"Rollback Prepared 'r'", "Standby status update 'r'", "\"r\" names 2 entries"}, nil},
		{[]string{"explain", "tupledata"}, exitOK, []string{"TupleData\n", "[ Kind | (Length) | (Value) ] × column"}, nil},
		{[]string{"explain", "keepalive"}, exitOK, []string{"Primary keepalive 'k'"}, nil},
		{[]string{"explain", "T", "--release", "10"}, exitOK, []string{"Not yet at PostgreSQL 10: Truncate is sent since PostgreSQL 11.",
			"Truncate does not exist yet: it is sent since PostgreSQL 11."}, []string{"not at PostgreSQL 10", "not yet  "}},
		{[]string{"explain", "tupledata", "--release", "13"}, exitOK, []string{"Kind 'b' (binary): not sent there; sent since PostgreSQL 14.",
			"'b' binary (not yet: since PostgreSQL 14):"}, nil},
		// With --protocol: Update's Xid needs protocol 2, even in PostgreSQL 16.
		{[]string{"explain", "--release", "16", "--protocol", "1", "U"}, exitOK, []string{"Seen as PostgreSQL 16, protocol 1:",
			"| 'U' | (Xid)   | Relation OID |", "| 1   | not yet | 4            |", "At PostgreSQL 16, protocol 1:\n  Xid: not sent there; sent since PostgreSQL 14, protocol 2.\n",
			"docs/16/"}, []string{"every field above exists"}},
		{[]string{"explain", "--protocol", "2", "U"}, exitOK, []string{"Seen as protocol 2:", "At protocol 2 (PostgreSQL 14 and later):\n  every field above exists.\n",
			"docs/18/"}, []string{"not yet", "not at"}},
		{[]string{"explain", "--protocol", "3", "stream-abort"}, exitOK, []string{"Abort LSN: not sent there; sent since PostgreSQL 16, protocol 4.",
			"- 14 (protocol 2): Arrives", "- 16 (protocol 4): (not yet)", "- 18 documentation: The"}, nil},
		{[]string{"explain", "--protocol", "1", "--release", "15", "K"}, exitOK, []string{"Not yet at PostgreSQL 15, protocol 1: Commit Prepared is sent since PostgreSQL 15, protocol 3."}, nil},
		{[]string{"explain"}, exitOK, []string{"  U  update", "  h  hot-standby-feedback"}, []string{"not yet"}},
		{[]string{"explain", "--protocol", "2"}, exitOK, []string{"  U  update                 Update\n", "  A  stream-abort           Stream Abort\n",
			"  P  prepare                Prepare                 (not yet: since PostgreSQL 15, protocol 3)\n"}, nil},
		{[]string{"explain", "Z"}, exitUsage, nil, nil},
		{[]string{"explain", "--release", "9", "U"}, exitUsage, nil, nil},
		{[]string{"explain", "--protocol", "5", "U"}, exitUsage, nil, nil},
		{[]string{"explain", "--protocol", "2", "--release", "13", "U"}, exitUsage, nil, nil},
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

// TestDecodeExplain: decode --explain prints the dump with each field's sentence under its
// line; without the sentences it is the plain dump, and every field gets one.
func TestDecodeExplain(t *testing.T) {
	for _, c := range []struct{ name, file string }{
		{"explain-txn-update", "testdata/postgrex_wal_txn_update.hex"},
		{"explain-capture-text", "testdata/pg15-text.capture"},
		{"explain-two-phase", "testdata/pg_walstream_v3_two_phase.hex"},
	} {
		t.Run(c.name, func(t *testing.T) {
			plain := runCmd(t, "", nil, "decode", c.file)
			r := runCmd(t, "", nil, "decode", "--explain", c.file)
			if r.code != exitOK || plain.code != exitOK {
				t.Fatalf("exit %d and %d; stderr %s", r.code, plain.code, r.stderr)
			}
			// The explain lines are indented past the hex column; a dump line starts with the
			// offset's column (at most "  " and 6 digits).
			var kept []string
			sentences, fields := 0, 0
			indent := strings.Repeat(" ", 30)
			inSentence := false
			for _, line := range strings.Split(r.stdout, "\n") {
				if strings.HasPrefix(line, indent) {
					if !inSentence {
						sentences++
					}
					inSentence = true
					continue
				}
				inSentence = false
				kept = append(kept, line)
			}
			for _, line := range strings.Split(plain.stdout, "\n") {
				if strings.HasPrefix(line, "  ") && len(strings.TrimSpace(line)) > 0 && strings.TrimSpace(line)[0] >= '0' && strings.TrimSpace(line)[0] <= '9' {
					fields++
				}
			}
			if got := strings.Join(kept, "\n"); got != plain.stdout {
				t.Errorf("without its sentences, the --explain dump is not the plain dump")
			}
			if sentences != fields {
				t.Errorf("%d fields explained, want every one of %d", sentences, fields)
			}
			compareGolden(t, "testdata/golden/"+c.name+".golden",
				"$ pgoutput-inspect decode --explain "+c.file+"\n-- stdout --\n"+r.stdout)
		})
	}
	if r := runCmd(t, "", nil, "decode", "--explain", "--json", "testdata/postgrex_wal_txn_update.hex"); r.code != exitUsage {
		t.Errorf("--explain --json: exit %d, want %d", r.code, exitUsage)
	}
}
