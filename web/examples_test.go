package web

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"go/format"
	"os"
	"runtime"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
)

var updateExamples = flag.Bool("update-examples", false, "regenerate examples.go and ../static/examples.txt from testdata/corpus")

// exampleSpec picks one message of a corpus file for the examples menu.
type exampleSpec struct {
	name, desc, file string
	// pick reports whether message i (decoded in tree t) is the one to show.
	pick func(t *decoder.Tree) bool
	// cut, when > 0, shortens the picked message by that many bytes (an example of an error).
	cut int
}

func hasField(t *decoder.Tree, f decoder.FieldID) bool {
	for i := range t.Nodes {
		if t.Nodes[i].Field == f {
			return true
		}
	}
	return false
}

func hasColumnKind(t *decoder.Tree, k byte) bool {
	for i := range t.Nodes {
		if t.Nodes[i].Field == decoder.FieldColumnKind && byte(t.ValueOf(i).Num) == k {
			return true
		}
	}
	return false
}

func ofType(typ byte) func(*decoder.Tree) bool {
	return func(t *decoder.Tree) bool { return t.Type == typ && t.Err == nil }
}

var exampleSpecs = []exampleSpec{
	{"Insert", "Insert (I): a row of many column types added in Begin … Commit, after the Type messages of its user types and the Relation that names its columns", "pg18-text",
		func(t *decoder.Tree) bool {
			return t.Type == 'I' && t.Relation != nil && t.Relation.Name == "types" && !t.Reading.InStream
		}, 0},
	{"Insert, binary values", "Insert (I) with binary=true: column values in each type's binary send format ('b')", "pg18-binary-parallel",
		func(t *decoder.Tree) bool { return t.Type == 'I' && hasColumnKind(t, 'b') && !t.Reading.InStream }, 0},
	{"Begin", "Begin (B): a transaction starts: final LSN, commit time, xid", "pg18-text", ofType('B'), 0},
	{"Commit", "Commit (C): the transaction ends: flags, commit LSN, end LSN, commit time", "pg18-text", ofType('C'), 0},
	{"Relation", "Relation (R): a table's columns, their types, key flags and replica identity", "pg18-text",
		func(t *decoder.Tree) bool { return t.Type == 'R' && t.Err == nil && !t.Reading.InStream }, 0},
	{"Type", "Type (Y): a type's namespace and name, sent before a Relation uses a non-built-in type", "pg18-text", ofType('Y'), 0},
	{"Update, key changed", "Update (U) that changed the key: the old key ('K') and the new row ('N')", "pg18-text",
		func(t *decoder.Tree) bool { return t.Type == 'U' && hasField(t, decoder.FieldTupleKey) }, 0},
	{"Update, replica identity full", "Update (U) under REPLICA IDENTITY FULL: the whole old row ('O') and the new one", "pg18-text",
		func(t *decoder.Tree) bool { return t.Type == 'U' && hasField(t, decoder.FieldTupleOld) }, 0},
	{"Update, unchanged TOAST", "Update (U) whose new row has 'u' for a TOASTed column that did not change", "pg18-text",
		func(t *decoder.Tree) bool { return t.Type == 'U' && hasColumnKind(t, 'u') }, 0},
	{"Delete", "Delete (D): the removed row identified by its key ('K')", "pg18-text", ofType('D'), 0},
	{"Truncate", "Truncate (T): TRUNCATE … RESTART IDENTITY CASCADE of two relations", "pg18-text",
		func(t *decoder.Tree) bool {
			n, o := t.Find(0, decoder.FieldTruncateRelationCount), t.Find(0, decoder.FieldTruncateOptions)
			return t.Type == 'T' && n >= 0 && t.ValueOf(n).Num == 2 && o >= 0 && t.ValueOf(o).Num == 3
		}, 0},
	{"Origin", "Origin (O): the transaction came through replication origin \"corpus_origin\"", "pg18-text", ofType('O'), 0},
	{"Logical message", "Message (M) from pg_logical_emit_message outside any transaction: flags, LSN, prefix and content", "pg18-text", ofType('M'), 0},
	{"Streamed transaction", "Stream Start (S): with debug_logical_replication_streaming=immediate every transaction streams, its changes carrying the xid", "pg18-text-immediate", ofType('S'), 0},
	{"Stream Stop", "Stream Stop (E): the end of one block of a streamed transaction", "pg18-text-immediate", ofType('E'), 0},
	{"Stream Commit", "Stream Commit (c): a streamed transaction commits", "pg18-text-immediate", ofType('c'), 0},
	{"Stream Abort", "Stream Abort (A) with abort LSN and time, as streaming = parallel sends it", "pg18-text-immediate", ofType('A'), 0},
	{"Begin Prepare", "Begin Prepare (b): a two-phase transaction starts (two_phase = true), later committed with Commit Prepared", "pg18-text", ofType('b'), 0},
	{"Prepare", "Prepare (P): PREPARE TRANSACTION: LSNs, time, xid and the GID", "pg18-text", ofType('P'), 0},
	{"Commit Prepared", "Commit Prepared (K): COMMIT PREPARED of a two-phase transaction", "pg18-text", ofType('K'), 0},
	{"Rollback Prepared", "Rollback Prepared (r): ROLLBACK PREPARED of a two-phase transaction", "pg18-text", ofType('r'), 0},
	{"Stream Prepare", "Stream Prepare (p): a streamed two-phase transaction is prepared, then committed", "pg18-text-immediate", ofType('p'), 0},
	{"Keepalive", "Primary keepalive (k) from the walsender: WAL end, clock, reply requested", "pg18-text",
		func(t *decoder.Tree) bool { return t.Reading.Envelope == 'k' }, 0},
	{"Truncated Insert", "An Insert cut 2 bytes short: the error names the field, the bytes it needs and the bytes left", "pg18-text",
		func(t *decoder.Tree) bool {
			return t.Type == 'I' && !t.Reading.InStream && t.Relation != nil && t.Relation.Name != "types"
		}, 2},
	// Other releases, text and binary.
	{"PostgreSQL 14, binary: Insert", "PostgreSQL 14.23, protocol 2, binary=true: Type, Relation and Insert with binary column values", "pg14-binary",
		func(t *decoder.Tree) bool {
			return t.Type == 'I' && t.Relation != nil && t.Relation.Name == "types" && !t.Reading.InStream
		}, 0},
	{"PostgreSQL 14: transactional Message", "PostgreSQL 14.23, protocol 2: a Message (M) emitted inside a transaction (flags 1), sent between its Begin and Commit", "pg14-text",
		func(t *decoder.Tree) bool {
			k := t.Find(0, decoder.FieldMessageFlags)
			return t.Type == 'M' && k >= 0 && t.ValueOf(k).Num == 1 && !t.Reading.InStream
		}, 0},
	{"PostgreSQL 15: Commit Prepared", "PostgreSQL 15.18, protocol 3, two_phase=true: Begin Prepare … Prepare, then Commit Prepared", "pg15-text", ofType('K'), 0},
	{"PostgreSQL 15, binary: Update", "PostgreSQL 15.18, protocol 3, binary=true: an Update of a row with binary values", "pg15-binary",
		func(t *decoder.Tree) bool { return t.Type == 'U' && hasColumnKind(t, 'b') }, 0},
	{"PostgreSQL 16: Stream Commit", "PostgreSQL 16.14, protocol 4, streaming immediately: Stream Start … Stream Stop, then Stream Commit", "pg16-text-immediate", ofType('c'), 0},
	{"PostgreSQL 17, binary: Delete", "PostgreSQL 17.10, protocol 4, binary=true: a Delete under REPLICA IDENTITY FULL with the whole old row in binary", "pg17-binary-parallel",
		func(t *decoder.Tree) bool { return t.Type == 'D' && hasField(t, decoder.FieldTupleOld) }, 0},
}

// maxStory bounds the messages of an example.
const maxStory = 40

// story is the messages of a capture, decoded in order, with each message's transaction.
type story struct {
	trees []*decoder.Tree
	// txn[i] names message i's transaction: the index of its Begin, or its xid for a
	// streamed or prepared transaction (which ends outside its blocks), or i alone for a
	// message outside any (a keepalive, a non-transactional Message).
	txn []string
}

func readStory(res *input.Result) *story {
	s := decoder.NewSession(decoder.Options{})
	st := &story{}
	open := ""
	for i, m := range res.Messages {
		t := s.Decode(m.Bytes)
		st.trees = append(st.trees, t)
		xid, hasXid := t.Xid()
		key := fmt.Sprint("msg ", i)
		switch r := t.Role(); {
		case r == decoder.RoleBegin:
			open = fmt.Sprint("txn ", i)
			key = open
		case r.Opens() && hasXid: // Stream Start, Begin Prepare
			open = fmt.Sprint("xid ", xid)
			key = open
		case r == decoder.RoleStreamEnd || r == decoder.RolePreparedEnd:
			key = fmt.Sprint("xid ", xid)
		case r != decoder.RoleNone && open != "":
			key = open
		}
		if t.Role().Closes() {
			open = ""
		}
		st.txn = append(st.txn, key)
	}
	return st
}

// relations returns the relation OIDs message i needs a Relation message for.
func (st *story) relations(i int) []uint32 {
	t := st.trees[i]
	var oids []uint32
	for k := range t.Nodes {
		switch t.Nodes[k].Field {
		case decoder.FieldTruncateRelationOID:
			oids = append(oids, uint32(t.ValueOf(k).Num))
		}
	}
	if t.Relation != nil && t.Type != 'R' {
		oids = append(oids, t.Relation.OID)
	}
	return oids
}

// relationOID returns the OID a Relation message describes, or 0.
func (st *story) relationOID(i int) uint32 {
	t := st.trees[i]
	if t.Type != 'R' {
		return 0
	}
	if k := t.Find(0, decoder.FieldRelationOID); k >= 0 {
		return uint32(t.ValueOf(k).Num)
	}
	return 0
}

// whole returns the messages of the story of message pick: every message of its
// transaction, and every message of each earlier transaction that sent a Relation one of
// them needs, in stream order.
func (st *story) whole(pick int) []int {
	keep := map[string]bool{st.txn[pick]: true}
	for {
		added := false
		first := pick
		for i, k := range st.txn {
			if keep[k] {
				first = min(first, i)
			}
		}
		for i, k := range st.txn {
			if !keep[k] {
				continue
			}
			for _, oid := range st.relations(i) {
				if st.sentBefore(oid, i, keep) {
					continue
				}
				for j := i - 1; j >= 0; j-- {
					if st.relationOID(j) == oid {
						keep[st.txn[j]], added = true, true
						break
					}
				}
			}
		}
		if !added {
			break
		}
	}
	var out []int
	for i, k := range st.txn {
		if keep[k] && (st.trees[i].Role() != decoder.RoleNone || i == pick) {
			out = append(out, i)
		}
	}
	return out
}

// sentBefore reports whether a kept message before i is the Relation message for oid.
func (st *story) sentBefore(oid uint32, i int, keep map[string]bool) bool {
	for j := i - 1; j >= 0; j-- {
		if keep[st.txn[j]] && st.relationOID(j) == oid {
			return true
		}
	}
	return false
}

// changes reports whether the messages change something (or carry a Message): a story worth
// telling.
func (st *story) changes(msgs []int) bool {
	for _, i := range msgs {
		if strings.IndexByte("IUDTM", st.trees[i].Type) >= 0 && st.trees[i].Type != 0 {
			return true
		}
	}
	return false
}

// buildExample makes an example of the message of a corpus capture that fits the spec and has
// the shortest whole story (whole) that changes something, of at most maxStory messages; the
// first of those.
func buildExample(t *testing.T, sp exampleSpec) Example {
	raw, err := os.ReadFile("../testdata/corpus/" + sp.file + ".capture.gz")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if _, err := text.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	res, err := input.Parse(text.Bytes(), input.Capture)
	if err != nil {
		t.Fatal(err)
	}
	st := readStory(res)
	pick, kept := -1, []int(nil)
	for i, tr := range st.trees {
		if sp.pick(tr) {
			if k := st.whole(i); len(k) <= maxStory && (len(k) == 1 || st.changes(k)) && (pick < 0 || len(k) < len(kept)) {
				pick, kept = i, k
			}
		}
	}
	if pick < 0 {
		t.Fatalf("%s: no message fits in %s with a story of at most %d messages", sp.name, sp.file, maxStory)
	}
	lines := strings.Split(text.String(), "\n")
	var out strings.Builder
	for _, l := range lines {
		if strings.HasPrefix(l, "# pgoutput-inspect") || strings.HasPrefix(l, "# server:") || strings.HasPrefix(l, "# options:") {
			out.WriteString(l + "\n")
		}
	}
	sel := 0
	for n, i := range kept {
		l := lines[res.Messages[i].Line-1]
		if i == pick {
			sel = n
			if sp.cut > 0 {
				l = l[:len(l)-2*sp.cut]
			}
		}
		out.WriteString(l + "\n")
	}
	return Example{Name: sp.name, Description: sp.desc, Text: out.String(), Select: sel,
		Source: "testdata/corpus/" + sp.file + ".capture.gz"}
}

// TestGenerateExamples: examples.go and ../static/examples.txt are what the generator writes
// from the corpus; with -update-examples it writes them.
func TestGenerateExamples(t *testing.T) {
	if runtime.GOOS == "js" && !*updateExamples {
		t.Skip("the native run checks the same files (under Node it takes a minute)")
	}
	src, asset := generateExamples(t)
	files := []struct {
		name string
		want []byte
	}{{"examples.go", src}, {"../static/" + ExamplesAsset, asset}}
	for _, f := range files {
		if *updateExamples {
			if err := os.WriteFile(f.name, f.want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if got, err := os.ReadFile(f.name); err != nil || !bytes.Equal(got, f.want) {
			t.Errorf("%s is not what the generator writes from the corpus (%v): run go test -run TestGenerateExamples -update-examples", f.name, err)
		}
	}
}

// generateExamples returns examples.go and the examples asset made from the corpus: the menu
// and the first example's capture, and the captures of the others.
func generateExamples(t *testing.T) (src, asset []byte) {
	t.Helper()
	var b strings.Builder
	b.WriteString(`package web

// Code generated by go test -run TestGenerateExamples -update-examples; DO NOT EDIT.

// Example is one entry of the examples menu: lines of a real capture (testdata/corpus) with a
// one-line description.
type Example struct {
	Name        string
	Description string
	// Text is what goes into the input box: a capture file of the lines kept.
	Text string
	// Select is the message shown first.
	Select int
	// Source names the capture the lines come from.
	Source string
}

// Examples is the examples menu. The first one is shown when the page opens; the captures
// (Text, Select, Source) of the others are in the examples asset (ExamplesAsset, read by
// ReadExamples), which the page fetches when one of them is first chosen.
var Examples = []Example{
`)
	var all []Example
	for i, sp := range exampleSpecs {
		ex := buildExample(t, sp)
		all = append(all, ex)
		if i == 0 {
			fmt.Fprintf(&b, "\t{Name: %q, Description: %q,\n\t\tText: %q,\n\t\tSelect: %d, Source: %q},\n",
				ex.Name, ex.Description, ex.Text, ex.Select, ex.Source)
			continue
		}
		fmt.Fprintf(&b, "\t{Name: %q, Description: %q},\n", ex.Name, ex.Description)
	}
	b.WriteString("}\n")
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	asset, err = AppendExamples(nil, all)
	if err != nil {
		t.Fatal(err)
	}
	return src, asset
}

// Each example is a whole story, as a server sends it: every transaction in it complete
// (Begin … Commit; Begin Prepare … Prepare and its Commit or Rollback Prepared; every block
// of a streamed transaction and its end), a Relation message for every relation its changes
// name, a Type message for every type not built in that a Relation uses, nothing from
// another transaction, and nothing that does not decode but the message an example cuts.
func TestExamplesAreWholeStories(t *testing.T) {
	for _, ex := range AllExamples() {
		d, ierr := NewDoc(ex.Text, input.Auto, decoder.Options{}, -1)
		if ierr != nil {
			t.Fatalf("%s: %v", ex.Name, ierr)
		}
		var seq strings.Builder
		relations := map[uint32]bool{}
		types := map[uint32]bool{}
		open := map[string]bool{}  // blocks open: "txn", "xid N" for stream and prepared blocks
		ended := map[uint32]bool{} // streamed or prepared xids that ended
		started := map[uint32]byte{}
		for i, tr := range d.Trees {
			if tr.Err != nil && !(strings.HasPrefix(ex.Name, "Truncated") && i == ex.Select) {
				t.Errorf("%s: message %d: %v", ex.Name, i, tr.Err)
			}
			if tr.Type != 0 {
				seq.WriteByte(tr.Type)
			} else {
				seq.WriteByte(tr.Reading.Envelope)
			}
			xid, _ := tr.Xid()
			switch tr.Type {
			case 'B':
				open["txn"] = true
			case 'C':
				if !open["txn"] {
					t.Errorf("%s: a Commit with no Begin", ex.Name)
				}
				delete(open, "txn")
			case 'S', 'b':
				open[fmt.Sprint("xid ", xid)] = true
				if _, ok := started[xid]; !ok {
					started[xid] = tr.Type
				}
			case 'E', 'P':
				for k := range open {
					if strings.HasPrefix(k, "xid ") {
						delete(open, k)
					}
				}
			case 'c', 'A', 'K', 'r':
				if _, ok := started[xid]; !ok && tr.Type != 'A' {
					t.Errorf("%s: %c of xid %d, which did not start here", ex.Name, tr.Type, xid)
				}
				if tr.Type != 'A' || xid == xid {
					ended[xid] = true
				}
			case 'p':
				if _, ok := started[xid]; !ok {
					t.Errorf("%s: Stream Prepare of xid %d, which did not start here", ex.Name, xid)
				}
			case 'Y':
				types[uint32(tr.ValueOf(tr.Find(0, decoder.FieldTypeOID)).Num)] = true
			case 'R':
				relations[uint32(tr.ValueOf(tr.Find(0, decoder.FieldRelationOID)).Num)] = true
				for k := range tr.Nodes {
					if tr.Nodes[k].Field == decoder.FieldRelationColumnTypeOID {
						if oid := uint32(tr.ValueOf(k).Num); oid >= 16384 && !types[oid] {
							t.Errorf("%s: the Relation uses type %d, with no Type message before it", ex.Name, oid)
						}
					}
				}
			}
			if tr.Relation != nil && tr.Type != 'R' && !relations[tr.Relation.OID] {
				t.Errorf("%s: message %d (%c) names relation %d, with no Relation message before it", ex.Name, i, tr.Type, tr.Relation.OID)
			}
		}
		if len(open) > 0 {
			t.Errorf("%s: blocks left open: %v (%s)", ex.Name, open, seq.String())
		}
		for xid, typ := range started {
			if !ended[xid] {
				t.Errorf("%s: the %c transaction %d does not end (%s)", ex.Name, typ, xid, seq.String())
			}
		}
		t.Logf("%s: %s", ex.Name, seq.String())
	}
}
