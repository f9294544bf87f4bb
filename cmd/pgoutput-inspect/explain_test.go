package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgoutput-inspector/internal/guide"
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
			"Abort LSN: not sent there; sent since PostgreSQL 16, protocol 4.", "docs/15/protocol-logicalrep-message-formats.html#PROTOCOL-LOGICALREP-MESSAGE-FORMATS-STREAM-ABORT\n",
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
			"- 14 (protocol 2): Arrives", "- 16 (protocol 4): (not yet)", "- 16 documentation: The"}, nil},
		{[]string{"explain", "--protocol", "1", "--release", "15", "K"}, exitOK, []string{"Not yet at PostgreSQL 15, protocol 1: Commit Prepared is sent since PostgreSQL 15, protocol 3."}, nil},
		{[]string{"explain"}, exitOK, []string{"  U  update", "  h  hot-standby-feedback"}, []string{"not yet"}},
		{[]string{"explain", "--protocol", "2"}, exitOK, []string{"  U  update                 Update\n", "  A  stream-abort           Stream Abort\n",
			"  P  prepare                Prepare                 (not yet: since PostgreSQL 15, protocol 3)\n"}, nil},
		{[]string{"explain", "J"}, exitUsage, nil, nil},
		{[]string{"explain", "Z"}, exitOK, []string{"ReadyForQuery 'Z'", "Transaction status"}, nil},
		{[]string{"explain", "D"}, exitOK, []string{"Delete 'D'", "DataRow 'D'", "Describe 'D'", "names 3 entries"}, nil},
		{[]string{"explain", "copy-data"}, exitOK, []string{"COPY data\n"}, []string{"CopyData 'd'"}},
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
	for _, e := range guide.Data().Entries {
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

// TestDecodeLens: decode --release/--protocol marks, on real captures, each message, field and
// value that the chosen version does not send, with since when (the page's version lens):
// TupleData's 'b' before 14, streaming's messages and Xid before 14 or protocol 2, the
// parallel Stream Abort's fields before protocol 4. Without the lens's lines it is the plain
// dump; what a version has is not marked.
func TestDecodeLens(t *testing.T) {
	// A real PostgreSQL 16 stream with streaming = parallel and binary values (scripts/corpusgen).
	gz, err := os.ReadFile("../../testdata/corpus/pg16-binary-parallel.capture.gz")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	parallel := filepath.Join(t.TempDir(), "pg16-binary-parallel.capture")
	if err := os.WriteFile(parallel, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want []string // lines, or parts of lines
		not  []string
	}{
		{[]string{"--release", "13", "testdata/pg15-binary.capture"}, []string{
			"seen as PostgreSQL 13: what is not sent there is marked \"not at PostgreSQL 13\", with since when it is\n",
			"    33  62                               Kind              'b' binary\n" +
				"                                         not at PostgreSQL 13: the value 'b' binary is sent since\n" +
				"                                         PostgreSQL 14\n",
			"\nseen as PostgreSQL 13: 7 marks in 2 messages (4, 5)\n"}, []string{"Xid is sent"}},
		{[]string{"--release", "14", "testdata/pg15-binary.capture"}, []string{
			"\nseen as PostgreSQL 14: every message, field and value decoded is sent there\n"}, []string{" is sent since"}},
		{[]string{"--protocol", "3", parallel}, []string{
			"not at protocol 3: Abort LSN is sent since PostgreSQL 16,\n",
			"not at protocol 3: Abort timestamp is sent since PostgreSQL 16,\n",
			"\nseen as protocol 3: 4 marks in 2 messages (381, 904)\n"}, []string{"Stream Start is sent", "Xid is sent", "'b' binary is sent"}},
		{[]string{"--release", "13", parallel}, []string{
			"not at PostgreSQL 13: Stream Start is sent since PostgreSQL 14,\n",
			"not at PostgreSQL 13: Stream Stop is sent since PostgreSQL 14,\n",
			"not at PostgreSQL 13: Xid is sent since PostgreSQL 14, protocol\n",
			"not at PostgreSQL 13: Message is sent since PostgreSQL 14\n",
			"not at PostgreSQL 13: the value 'b' binary is sent since\n"}, nil},
		{[]string{"--release", "16", "--protocol", "4", parallel}, []string{
			"\nseen as PostgreSQL 16, protocol 4: every message, field and value decoded is sent there\n"}, []string{" is sent since"}},
	} {
		r := runCmd(t, "", nil, append([]string{"decode", "--color=never"}, c.args...)...)
		plain := runCmd(t, "", nil, "decode", "--color=never", c.args[len(c.args)-1])
		if r.code != exitOK {
			t.Errorf("%v: exit %d; stderr %s", c.args, r.code, r.stderr)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("%v: output lacks %q", c.args, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(r.stdout, w) {
				t.Errorf("%v: output has %q", c.args, w)
			}
		}
		// Taking off the lens's header, its marks and its summary gives the plain dump.
		var kept []string
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		for k := 0; k < len(lines); k++ {
			line := lines[k]
			switch {
			case strings.HasPrefix(line, "seen as "):
				if k > 0 && lines[k-1] == "" && k == len(lines)-1 {
					kept = kept[:len(kept)-1] // the summary's blank line
				}
				continue
			case strings.HasPrefix(strings.TrimLeft(line, " "), "not at ") && strings.HasPrefix(line, strings.Repeat(" ", 30)):
				for k+1 < len(lines) && strings.HasPrefix(lines[k+1], strings.Repeat(" ", 30)) {
					k++ // the mark's wrapped lines
				}
				continue
			}
			kept = append(kept, line)
		}
		if got := strings.Join(kept, "\n") + "\n"; got != plain.stdout {
			t.Errorf("%v: without the lens's lines the dump is not the plain dump", c.args)
		}
	}
	// With --explain, the mark comes before the field's sentence.
	r := runCmd(t, "", nil, "decode", "--explain", "--release", "13", "testdata/pg15-binary.capture")
	compareGolden(t, "testdata/golden/explain-lens-pg13.golden",
		"$ pgoutput-inspect decode --explain --release 13 testdata/pg15-binary.capture\n-- stdout --\n"+r.stdout)
	for _, args := range [][]string{
		{"--release", "9"}, {"--release", "19"}, {"--protocol", "5"}, {"--protocol", "2", "--release", "13"},
		{"--release", "14", "--json"}, {"--protocol", "2", "--json-lines"},
	} {
		r := runCmd(t, "", nil, append(append([]string{"decode"}, args...), "testdata/pg15-binary.capture")...)
		if r.code != exitUsage || r.stdout != "" || !strings.HasPrefix(r.stderr, "pgoutput-inspect decode: --") {
			t.Errorf("decode %v: exit %d, stdout %.40q, stderr %q; want a usage error", args, r.code, r.stdout, r.stderr)
		}
	}
}
