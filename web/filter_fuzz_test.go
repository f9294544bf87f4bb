package web

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// FuzzFilter reads fuzzed filter queries, each alone and the two joined by a space:
// ParseFilter never panics; the query it keeps is the one given on one line, its terms
// separated by single spaces, and reads again to the same filter; an empty query filters
// nothing; a query that does not read filters nothing and says which term is wrong; and every
// term is required: when both queries read, so does the joined one, and it lets through a
// message of any example exactly when both do (a key given in both too). The list a filter
// builds holds the messages it lets through, in order, each after its transaction's heading.
//
//	go test ./web -run '^$' -fuzz '^FuzzFilter$' -parallel=1 -fuzzminimizetime 2000x -fuzztime 1000000x
func FuzzFilter(f *testing.F) {
	for _, q := range []string{
		"", "type:I", "type:insert,O", "type:c", "TYPE:I", "http://x", "xid:774,795 type:C",
		"rel:PUBLIC.rid_default type:I xid:774", "rel:16402 type:R", "lsn:0/1786238..0/17862B8",
		"lsn:0/1788130.. type:I", "lsn:..0/1786150", "lsn:0/1786368", `type:I "from corpus"`,
		`"a  quoted" text`, `"unclosed`, "xid:-1", "xid:4294967296", "lsn:..", "lsn:x", "rel:", "type:",
		"type:,", "type:stream-commit", "type:keepalive", "rel:a,,b", "\t a \n b\u00a0c ", "type:I type:U",
		"lsn:..0/1786150,0/1788130..", "lsn:0/1786238..0/17862B8 lsn:..0/1786238", "xid:774,795 xid:795",
	} {
		f.Add(q, "type:U,D")
		f.Add(q, `corpus "one"`)
	}
	// Examples that hold between them every kind of message the examples hold (78 messages; all
	// 30 examples, 195 messages, made an execution more than twice as slow).
	var docs []*Doc
	for _, name := range []string{"Origin", "Type", "Truncate", "Logical message", "Stream Commit", "Commit Prepared",
		"Rollback Prepared", "Stream Abort", "Stream Prepare", "Keepalive", "Update, key changed",
		"PostgreSQL 17, binary: Delete"} {
		docs = append(docs, StateOfExample(exampleByName(name)).Doc)
	}
	f.Fuzz(func(t *testing.T, q1, q2 string) {
		f1, f2 := checkFilter(t, q1), checkFilter(t, q2)
		both := checkFilter(t, q1+" "+q2)
		if f1.Err != "" || f2.Err != "" {
			return
		}
		if both.Err != "" {
			t.Fatalf("%q and %q read, %q does not: %s", f1.Query, f2.Query, both.Query, both.Err)
		}
		var through []int // reused: one execution checks twelve examples
		for _, d := range docs {
			through = through[:0]
			for m := range d.Trees {
				m1, m2, mb := f1.Match(d, m), f2.Match(d, m), both.Match(d, m)
				if mb != (m1 && m2) {
					t.Fatalf("%q lets message %d of %q through: %v; %q: %v, %q: %v",
						both.Query, m, d.Text[:min(len(d.Text), 40)], mb, f1.Query, m1, f2.Query, m2)
				}
				if mb {
					through = append(through, m)
				}
			}
			checkList(t, both, d, through)
		}
	})
}

// checkFilter reads q and checks what ParseFilter promises of any query.
func checkFilter(t *testing.T, q string) Filter {
	t.Helper()
	f := ParseFilter(q)
	if want := strings.Join(strings.Fields(q), " "); f.Query != want {
		t.Fatalf("%q: query kept as %q, want %q", q, f.Query, want)
	}
	if again := ParseFilter(f.Query); !reflect.DeepEqual(again, f) {
		t.Fatalf("%q reads as %+v, again as %+v", q, f, again)
	}
	switch {
	case f.Query == "" && (f.On() || f.Err != ""):
		t.Fatalf("%q: the empty query filters (%v) or fails (%q)", q, f.On(), f.Err)
	case f.Err != "" && f.On():
		t.Fatalf("%q: fails (%s) and filters", q, f.Err)
	case f.Err != "" && !strings.HasPrefix(f.Err, "a quoted text has no closing") &&
		!strings.HasPrefix(f.Err, "type: ") && !strings.HasPrefix(f.Err, "xid: ") &&
		!strings.HasPrefix(f.Err, "rel: ") && !strings.HasPrefix(f.Err, "lsn: "):
		t.Fatalf("%q: error %q names no term", q, f.Err)
	case f.Err == "" && f.Query != "" && !f.On():
		t.Fatalf("%q reads and does not filter", q)
	}
	return f
}

// checkList builds f's list of d: its message rows are want, the messages f lets through (as
// f.Match says; the caller has asked it), in order, each after the heading of its transaction
// (if any), and Matches counts them.
func checkList(t *testing.T, f Filter, d *Doc, want []int) {
	t.Helper()
	l := f.list(d, nil)
	var got []int
	group := -1
	for i, r := range l.Rows {
		if r.Kind == RowGroup {
			group = i
			continue
		}
		got = append(got, r.Msg)
		if g := d.Summaries[r.Msg].Group; g >= 0 && (group < 0 || l.Rows[group] != d.Rows[g]) {
			t.Fatalf("%q: message %d is not under its transaction's heading", f.Query, r.Msg)
		}
	}
	if !slices.Equal(got, want) || l.Matches != len(want) {
		t.Fatalf("%q: the list shows %v (%d matches), the filter lets through %v", f.Query, got, l.Matches, want)
	}
}
