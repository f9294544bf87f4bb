package decoder

import (
	"encoding/binary"
	"encoding/hex"
	"strings"
	"testing"
)

// wire builds messages field by field, for table tests and fuzz seeds.
type wire []byte

func (w wire) b1(c byte) wire     { return append(w, c) }
func (w wire) i8(v uint8) wire    { return append(w, v) }
func (w wire) i16(v uint16) wire  { return binary.BigEndian.AppendUint16(w, v) }
func (w wire) i32(v uint32) wire  { return binary.BigEndian.AppendUint32(w, v) }
func (w wire) i64(v uint64) wire  { return binary.BigEndian.AppendUint64(w, v) }
func (w wire) str(s string) wire  { return append(append(w, s...), 0) }
func (w wire) raw(s string) wire  { return append(w, s...) }
func (w wire) text(s string) wire { return w.b1('t').i32(uint32(len(s))).raw(s) }

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkTiling asserts that the leaves of tree cover every byte exactly once, in order, and that
// every group spans exactly its children.
func checkTiling(t testing.TB, tr *Tree) {
	t.Helper()
	pos := 0
	for i := range tr.Nodes {
		n := &tr.Nodes[i]
		if int(n.End) <= i || int(n.End) > len(tr.Nodes) {
			t.Fatalf("node %d (%s): End %d out of range", i, tr.Label(i), n.End)
		}
		if tr.IsLeaf(i) {
			if n.Offset != pos {
				t.Fatalf("leaf %d (%s) at offset %d, want %d; tree:\n%s", i, tr.Label(i), n.Offset, pos, dump(tr))
			}
			if n.Length < 0 || n.Length == 0 && n.Format != FormatBytes {
				t.Fatalf("leaf %d (%s) has length %d", i, tr.Label(i), n.Length)
			}
			pos += n.Length
			continue
		}
		last := &tr.Nodes[n.End-1]
		if n.Offset != tr.Nodes[i+1].Offset || n.Offset+n.Length != last.Offset+last.Length && !(tr.IsLeaf(int(n.End-1)) == false) {
			t.Fatalf("group %d (%s) [%d,+%d) does not span its children", i, tr.Label(i), n.Offset, n.Length)
		}
		for j := i + 1; j < int(n.End); j++ {
			if tr.Nodes[j].Depth <= n.Depth {
				t.Fatalf("node %d inside group %d has depth %d <= %d", j, i, tr.Nodes[j].Depth, n.Depth)
			}
		}
		if int(n.End) < len(tr.Nodes) && tr.Nodes[n.End].Depth > n.Depth {
			t.Fatalf("node %d after group %d is deeper", n.End, i)
		}
	}
	if pos != len(tr.Bytes) {
		t.Fatalf("leaves cover %d of %d bytes; tree:\n%s", pos, len(tr.Bytes), dump(tr))
	}
}

func dump(tr *Tree) string {
	var sb strings.Builder
	for i := range tr.Nodes {
		n := &tr.Nodes[i]
		sb.WriteString(strings.Repeat("  ", int(n.Depth)))
		sb.WriteString(tr.Label(i))
		sb.WriteString(" @")
		sb.WriteString(itoa(n.Offset))
		sb.WriteString("+")
		sb.WriteString(itoa(n.Length))
		sb.WriteString("\n")
	}
	if tr.Err != nil {
		sb.WriteString("error: " + tr.Err.Error() + "\n")
	}
	return sb.String()
}

func itoa(v int) string { return string(appendInt(nil, v)) }
