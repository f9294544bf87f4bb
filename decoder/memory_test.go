package decoder

import (
	"runtime"
	"testing"
	"unsafe"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestLargeMessageMemory: a message of many fields costs its nodes once. A Truncate whose
// reading is ambiguous (with or without the Xid of a streamed transaction) is probed both ways
// without keeping nodes, and its relation list is sized once from the count; a Relation and a
// TupleData of 65,535 columns are sized from their column counts.
func TestLargeMessageMemory(t *testing.T) {
	const nodeSize = uint64(unsafe.Sizeof(Node{}))
	const slack = 64 << 10 // the session's own first allocations
	const n = 200_000
	trunc := wire{}.b1('T').i32(n).i8(0)
	for i := range n {
		trunc = trunc.i32(uint32(16384 + i))
	}
	s := NewSession(Options{}) // no context: a Truncate may carry an Xid or not
	var tr Tree
	got := allocated(func() { s.DecodeInto(&tr, trunc) })
	if tr.Err != nil || !tr.Reading.Guessed {
		t.Fatalf("the Truncate: %v, guessed %v", tr.Err, tr.Reading.Guessed)
	}
	nodes := uint64(len(tr.Nodes))
	if want := nodes*nodeSize + slack; got > want {
		t.Errorf("a Truncate of %d relations (%d nodes of %d bytes) allocated %d bytes, want at most %d", n, nodes, nodeSize, got, want)
	}
	if c := cap(s.alt.Nodes); c > 1 {
		t.Errorf("the session keeps %d nodes of its probes", c)
	}
	// With the first relation known, the tree also keeps each relation's Relation: sized once.
	s.DecodeInto(&tr, wire{}.b1('R').i32(16384).str("public").str("t").i8('d').i16(0))
	var fresh Tree
	got = allocated(func() { s.DecodeInto(&fresh, trunc) })
	if want := nodes*nodeSize + n*uint64(unsafe.Sizeof(&Relation{})) + slack; fresh.Err != nil || got > want || fresh.RelationOf(fresh.Message+4) == nil {
		t.Errorf("a Truncate of %d relations, the first known: %v, allocated %d bytes, want at most %d", n, fresh.Err, got, want)
	}

	const cols = 65535
	rel := wire{}.b1('R').i32(16384).str("public").str("wide").i8('d').i16(cols)
	ins := wire{}.b1('I').i32(16384).b1('N').i16(cols)
	for range cols {
		rel = rel.i8(0).str("c").i32(23).i32(0xffffffff)
		ins = ins.text("1")
	}
	// What the session learns from the Relation (its columns, its bytes) is allocated once too.
	learnt := cols*uint64(unsafe.Sizeof(Column{})) + uint64(len(rel))
	for _, m := range [][]byte{rel, ins} {
		s := NewSession(Options{InStream: No})
		var tr Tree
		got := allocated(func() { s.DecodeInto(&tr, m) })
		nodes := uint64(len(tr.Nodes))
		want := nodes*nodeSize + slack
		if m[0] == 'R' {
			want += learnt
		}
		if tr.Err != nil || got > want {
			t.Errorf("%c of %d columns (%d nodes): %v, allocated %d bytes, want at most %d", m[0], cols, nodes, tr.Err, got, want)
		}
	}
}
