package web

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"go/format"
	"os"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
)

var updateExamples = flag.Bool("update-examples", false, "regenerate examples.go from testdata/corpus")

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
	{"Insert", "Insert (I): a row of many column types added in Begin … Commit, columns named by the Relation before it", "pg18-text",
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
	{"Truncate", "Truncate (T): TRUNCATE … RESTART IDENTITY CASCADE of two relations", "pg18-text", ofType('T'), 0},
	{"Origin", "Origin (O): the transaction came through replication origin \"corpus_origin\"", "pg18-text", ofType('O'), 0},
	{"Logical message", "Message (M) from pg_logical_emit_message: flags, LSN, prefix and content", "pg18-text", ofType('M'), 0},
	{"Streamed transaction", "Stream Start (S) of a transaction too large for logical_decoding_work_mem; its changes carry the xid", "pg18-text", ofType('S'), 0},
	{"Stream Stop", "Stream Stop (E): the end of one block of a streamed transaction", "pg18-text", ofType('E'), 0},
	{"Stream Commit", "Stream Commit (c): a streamed transaction commits", "pg18-text", ofType('c'), 0},
	{"Stream Abort", "Stream Abort (A) with abort LSN and time, as streaming = parallel sends it", "pg18-binary-parallel", ofType('A'), 0},
	{"Begin Prepare", "Begin Prepare (b): a two-phase transaction starts (two_phase = true)", "pg18-text", ofType('b'), 0},
	{"Prepare", "Prepare (P): PREPARE TRANSACTION: LSNs, time, xid and the GID", "pg18-text", ofType('P'), 0},
	{"Commit Prepared", "Commit Prepared (K): COMMIT PREPARED of a two-phase transaction", "pg18-text", ofType('K'), 0},
	{"Rollback Prepared", "Rollback Prepared (r): ROLLBACK PREPARED of a two-phase transaction", "pg18-text", ofType('r'), 0},
	{"Stream Prepare", "Stream Prepare (p): a streamed two-phase transaction is prepared", "pg18-text", ofType('p'), 0},
	{"Keepalive", "Primary keepalive (k) from the walsender: WAL end, clock, reply requested", "pg18-text",
		func(t *decoder.Tree) bool { return t.Reading.Envelope == 'k' }, 0},
	{"Truncated Insert", "An Insert cut 2 bytes short: the error names the field, the bytes it needs and the bytes left", "pg18-text",
		func(t *decoder.Tree) bool {
			return t.Type == 'I' && !t.Reading.InStream && t.Relation != nil && t.Relation.Name != "types"
		}, 2},
}

// maxContext bounds the lines an example keeps before its message.
const maxContext = 3

// buildExample picks lines of a corpus capture: the opening message of the picked message's
// transaction or stream block, the Relation and Type messages it needs, up to maxContext lines
// before it, the message, and the message closing the block.
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
	lines := strings.Split(text.String(), "\n")
	s := decoder.NewSession(decoder.Options{})
	trees := make([]*decoder.Tree, len(res.Messages))
	pick := -1
	for i, m := range res.Messages {
		trees[i] = s.Decode(m.Bytes)
		if pick < 0 && sp.pick(trees[i]) {
			pick = i
		}
	}
	if pick < 0 {
		t.Fatalf("%s: no message fits in %s", sp.name, sp.file)
	}
	keep := map[int]bool{pick: true}
	opens := func(typ byte) bool { return typ == 'B' || typ == 'S' || typ == 'b' }
	closes := func(typ byte) bool { return strings.IndexByte("CEPcApKr", typ) >= 0 && typ != 0 }
	start := pick
	for start > 0 && !opens(trees[start].Type) && !closes(trees[start-1].Type) {
		start--
	}
	if opens(trees[start].Type) {
		keep[start] = true
	}
	for i := max(start, pick-maxContext); i < pick; i++ {
		keep[i] = true
	}
	if !opens(trees[pick].Type) || trees[pick].Type == 'S' || trees[pick].Type == 'b' {
		for i := pick + 1; i < len(trees) && i < pick+2000; i++ {
			if closes(trees[i].Type) {
				if i-pick < 20 {
					keep[i] = true
				}
				break
			}
		}
	}
	if opens(trees[pick].Type) {
		for i := pick + 1; i < len(trees) && i <= pick+3; i++ {
			keep[i] = true
		}
	}
	// The Relation (and Type) messages the kept changes need, from before the first kept line.
	first := pick
	for i := range keep {
		first = min(first, i)
	}
	need := map[uint32]bool{}
	for i := range keep {
		if r := trees[i].Relation; r != nil {
			need[r.OID] = true
		}
	}
	for i := first - 1; i >= 0 && len(need) > 0; i-- {
		if trees[i].Type != 'R' {
			continue
		}
		for k, n := range trees[i].Nodes {
			if oid := uint32(trees[i].ValueOf(k).Num); n.Field == decoder.FieldRelationOID && need[oid] {
				delete(need, oid)
				keep[i] = true
				// Its Type messages come right before it.
				for j := i - 1; j >= 0 && trees[j].Type == 'Y'; j-- {
					keep[j] = true
				}
				// A Relation inside a stream block needs the block's Stream Start.
				if trees[i].Reading.InStream {
					for j := i - 1; j >= 0; j-- {
						if trees[j].Type == 'S' {
							keep[j] = true
							break
						}
					}
				}
			}
		}
	}
	var out strings.Builder
	for _, l := range lines {
		if strings.HasPrefix(l, "# pgoutput-inspect") || strings.HasPrefix(l, "# server:") || strings.HasPrefix(l, "# options:") {
			out.WriteString(l + "\n")
		}
	}
	sel, n := 0, 0
	for i, m := range res.Messages {
		if !keep[i] {
			continue
		}
		l := lines[m.Line-1]
		if i == pick {
			sel = n
			if sp.cut > 0 {
				l = l[:len(l)-2*sp.cut]
			}
		}
		out.WriteString(l + "\n")
		n++
	}
	return Example{Name: sp.name, Description: sp.desc, Text: out.String(), Select: sel,
		Source: "testdata/corpus/" + sp.file + ".capture.gz"}
}

func TestGenerateExamples(t *testing.T) {
	if !*updateExamples {
		t.Skip("run with -update-examples to regenerate examples.go from the corpus")
	}
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
	// Proto is the protocol version to decode with (0: infer).
	Proto int
	// Select is the message shown first.
	Select int
	// Source names the capture the lines come from.
	Source string
}

// Examples is the examples menu. The first one is shown when the page opens.
var Examples = []Example{
`)
	for _, sp := range exampleSpecs {
		ex := buildExample(t, sp)
		fmt.Fprintf(&b, "\t{Name: %q, Description: %q,\n\t\tText: %q,\n\t\tSelect: %d, Source: %q},\n",
			ex.Name, ex.Description, ex.Text, ex.Select, ex.Source)
	}
	b.WriteString("}\n")
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("examples.go", src, 0o644); err != nil {
		t.Fatal(err)
	}
}
