package corpus

import (
	"strings"
	"testing"
)

func TestParseWorkload(t *testing.T) {
	w, err := ParseWorkload(`-- comment
-- @setup
CREATE TABLE t (id int);
-- @step one
BEGIN;
INSERT INTO t
  VALUES (1);
-- @wait_decoded
-- @min_version 15
COMMIT;
-- @repeat 3
INSERT INTO t VALUES (2);
`)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Setup) != 1 || w.Setup[0].SQL != "CREATE TABLE t (id int);" || w.Setup[0].Line != 3 {
		t.Errorf("setup = %+v", w.Setup)
	}
	if len(w.Steps) != 1 || w.Steps[0].Name != "one" {
		t.Fatalf("steps = %+v", w.Steps)
	}
	st := w.Steps[0].Statements
	if len(st) != 5 {
		t.Fatalf("statements = %+v", st)
	}
	if st[1].SQL != "INSERT INTO t\n  VALUES (1);" || st[1].Line != 6 {
		t.Errorf("multi-line statement = %+v", st[1])
	}
	if !st[2].WaitDecoded || st[3].MinVersion != 15 || st[3].SQL != "COMMIT;" || st[3].Repeat != 0 || st[4].Repeat != 3 {
		t.Errorf("directives: %+v %+v %+v", st[2], st[3], st[4])
	}
}

func TestParseWorkloadErrors(t *testing.T) {
	for src, want := range map[string]string{
		"SELECT 1;\n":                    "line 1: statement before the first @setup or @step",
		"-- @step a\nSELECT 1\n":         "line 2: statement not ended with ';'",
		"-- @step a\nSELECT\n-- @step b": "line 3: directive inside the statement that starts on line 2",
		"-- @bogus\n":                    "line 1: unknown directive @bogus",
		"-- @step a\n-- @min_version x":  `line 2: @min_version wants a major version number, found "x"`,
		"-- @step a\n-- @repeat 0":       `line 2: @repeat wants a positive count, found "0"`,
	} {
		_, err := ParseWorkload(src)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseWorkload(%q) error = %v, want %q", src, err, want)
		}
	}
}

// TestCommittedWorkloadParses keeps scripts/corpus/workload.sql and oltp.sql well-formed.
func TestCommittedWorkloadParses(t *testing.T) {
	if w, err := LoadWorkload("../../../scripts/corpus/oltp.sql"); err != nil || len(w.Steps) == 0 {
		t.Errorf("oltp.sql: %v", err)
	}
	w, err := LoadWorkload("../../../scripts/corpus/workload.sql")
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Setup) == 0 || len(w.Steps) < 10 {
		t.Errorf("%d setup statements, %d steps", len(w.Setup), len(w.Steps))
	}
}
