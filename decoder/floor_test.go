package decoder

import (
	"encoding/binary"
	"testing"
)

// floorReader is the benchmarks' floor: a hand-written pgoutput decoder that keeps nothing but
// the fields' values. It reads every field of a message with one bounds check each, follows
// the TupleData layout, and keeps each value in a reused slice (numbers; strings and byte
// strings as views into the message), as any decoder must hand its values on; it records no
// position, names nothing and makes no choice (the caller says whether the message is inside a
// streamed block, and a Stream Abort's length says whether it carries the parallel fields). A
// decoder that gives the values of a whole message can hardly do less.
type floorReader struct {
	b     []byte
	pos   int
	ok    bool
	sum   uint64
	nums  []uint64
	views [][]byte
}

func (f *floorReader) n(k int) []byte {
	if !f.ok || len(f.b)-f.pos < k {
		f.ok = false
		return nil
	}
	p := f.b[f.pos : f.pos+k]
	f.pos += k
	return p
}

func (f *floorReader) u8() byte {
	if p := f.n(1); p != nil {
		f.nums = append(f.nums, uint64(p[0]))
		return p[0]
	}
	return 0
}

func (f *floorReader) u16() int {
	if p := f.n(2); p != nil {
		v := binary.BigEndian.Uint16(p)
		f.nums = append(f.nums, uint64(v))
		return int(v)
	}
	return 0
}

func (f *floorReader) u32() uint32 {
	if p := f.n(4); p != nil {
		v := binary.BigEndian.Uint32(p)
		f.nums = append(f.nums, uint64(v))
		return v
	}
	return 0
}

func (f *floorReader) u64() {
	if p := f.n(8); p != nil {
		f.nums = append(f.nums, binary.BigEndian.Uint64(p))
	}
}

func (f *floorReader) str() {
	if !f.ok {
		return
	}
	for i := f.pos; i < len(f.b); i++ {
		if f.b[i] == 0 {
			f.views = append(f.views, f.b[f.pos:i])
			f.pos = i + 1
			return
		}
	}
	f.ok = false
}

func (f *floorReader) tuple() {
	n := f.u16()
	for i := 0; i < n && f.ok; i++ {
		switch f.u8() {
		case 'n', 'u':
		case 't', 'b':
			l := f.u32()
			if int32(l) < 0 {
				f.ok = false
			}
			f.views = append(f.views, f.n(int(l)))
		default:
			f.ok = false
		}
	}
}

// floorDecode decodes one pgoutput message into f's reused slices and reports whether it
// consumed it exactly.
func floorDecode(f *floorReader, b []byte, inStream bool) bool {
	f.b, f.pos, f.ok, f.nums, f.views = b, 0, true, f.nums[:0], f.views[:0]
	typ := f.u8()
	if inStream {
		switch typ {
		case 'M', 'R', 'Y', 'I', 'U', 'D', 'T':
			f.u32()
		}
	}
	switch typ {
	case 'B':
		f.u64()
		f.u64()
		f.u32()
	case 'C':
		f.u8()
		f.u64()
		f.u64()
		f.u64()
	case 'O':
		f.u64()
		f.str()
	case 'M':
		f.u8()
		f.u64()
		f.str()
		f.views = append(f.views, f.n(int(f.u32())))
	case 'R':
		f.u32()
		f.str()
		f.str()
		f.u8()
		n := f.u16()
		for i := 0; i < n && f.ok; i++ {
			f.u8()
			f.str()
			f.u32()
			f.u32()
		}
	case 'Y':
		f.u32()
		f.str()
		f.str()
	case 'I':
		f.u32()
		if f.u8() == 'N' {
			f.tuple()
		}
	case 'U':
		f.u32()
		m := f.u8()
		if m == 'K' || m == 'O' {
			f.tuple()
			m = f.u8()
		}
		if m == 'N' {
			f.tuple()
		}
	case 'D':
		f.u32()
		f.u8()
		f.tuple()
	case 'T':
		n := int(f.u32())
		f.u8()
		for i := 0; i < n && f.ok; i++ {
			f.u32()
		}
	case 'S':
		f.u32()
		f.u8()
	case 'E':
	case 'c':
		f.u32()
		f.u8()
		f.u64()
		f.u64()
		f.u64()
	case 'A':
		f.u32()
		f.u32()
		if len(b) == 25 {
			f.u64()
			f.u64()
		}
	default:
		f.ok = false
	}
	return f.ok && f.pos == len(b)
}

// TestFloorDecodesTheCorpus: the floor reads every message the benchmarks give it, exactly.
func TestFloorDecodesTheCorpus(t *testing.T) {
	for _, set := range benchSets {
		bc := loadBenchCorpus(t, set)
		var f floorReader
		for i, m := range bc.msgs {
			if !floorDecode(&f, m, bc.inStream[i]) {
				t.Fatalf("%s message %d (%q): the floor does not read it exactly", set, i, m[0])
			}
		}
	}
}
