package decoder

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzEncode: any bytes, decoded with any options, are written back by the encoder byte for
// byte (a message with an error as found), and decoding them again gives the same tree. Then
// edits chosen by the input are made on a Draft of the message: after each one the draft's
// tree still tiles its bytes, the encoder writes those bytes back from that tree, a message
// that decoded without error still does, an edit that fails changes nothing, and the edits an
// expert expects to work on a message that decodes (an edit text written back, a value, a
// String, bytes, a column added or removed) are never refused: the lengths and counts they
// move are fixed up right.
// maxFuzzEdits is how many edits FuzzEncode makes on one message.
const maxFuzzEdits = 64

func FuzzEncode(f *testing.F) {
	ops := []byte{0, 5, 0, 4, 9, 0, 2, 12, 3, 3, 11, 1, 1, 7, 200, 5, 10, 0}
	for _, s := range fuzzSeeds() {
		f.Add(s, uint8(0), ops)
	}
	for _, msgs := range corpusPayloads(f) {
		for i, m := range msgs {
			if i%50 == 0 {
				f.Add(m, uint8(0), ops)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte, opt uint8, ops []byte) {
		opts := Options{Proto: int(opt & 7 % 5), InStream: Choice(opt >> 3 & 3 % 3),
			ParallelAbort: Choice(opt >> 5 & 3 % 3), Envelope: EnvelopeMode(opt >> 7)}
		tr := NewSession(opts).Decode(b)
		out, err := Encode(tr)
		if err != nil {
			t.Fatalf("decoded tree not written: %v\n%s", err, dump(tr))
		}
		if !bytes.Equal(out, b) {
			t.Fatalf("encoded\n%x\nwant\n%x\n%s", out, b, dump(tr))
		}
		sameTree(t, NewSession(opts).Decode(out), tr)

		d := NewDraft(tr)
		if !bytes.Equal(d.Bytes(), b) || len(d.Tree().Nodes) != len(tr.Nodes) || (d.Tree().Err == nil) != (tr.Err == nil) {
			t.Fatalf("draft reads the message otherwise:\n%s\nwas\n%s", dump(d.Tree()), dump(tr))
		}
		complete := tr.Err == nil
		// At most maxFuzzEdits edits: each one writes and decodes the whole message, so a
		// long list of AddItems on a big item made one input run for 25 s (77b9d03d73ed2a3f)
		// and the fuzzer took the worker for hung.
		ops = ops[:min(len(ops), 3*maxFuzzEdits)]
		for len(ops) >= 3 && len(d.Tree().Nodes) > 0 {
			op, sel, arg := ops[0], ops[1], ops[2]
			ops = ops[3:]
			dt := d.Tree()
			i := int(sel) % len(dt.Nodes)
			before := append([]byte(nil), d.Bytes()...)
			how := d.EditHow(i)
			format := dt.Nodes[i].Field.Info().Format
			kind := dt.Nodes[i].Field.Info().Kind
			var err error
			mustWork := false
			switch op % 6 {
			case 0:
				err = d.SetText(i, d.EditText(i))
				mustWork = how != EditNone
			case 1:
				v := uint64(arg) * 0x0101010101010101 >> (arg % 64)
				if size := format.Size(); size > 0 && size < 8 {
					v &= 1<<(8*size) - 1
				}
				err = d.SetNum(i, v)
				mustWork = format.Size() > 0 && kind != KindType && kind != KindLength && kind != KindMarker && dt.Nodes[i].Field != FieldUnknownType
			case 2:
				v := bytes.ReplaceAll(ops[:min(int(arg), len(ops))], []byte{0}, nil)
				err = d.SetBytes(i, v)
				mustWork = format == FormatString || format == FormatBytes
			case 3:
				m := arg
				if codes := dt.Nodes[i].Field.Info().Codes; len(codes) > 0 && arg < 128 {
					m = byte(codes[int(arg)%len(codes)].Code)
				}
				err = d.SetMarker(i, m)
			case 4:
				_, err = d.AddItem(i)
				mustWork = d.CanAddItem(i)
			case 5:
				err = d.RemoveItem(i)
				mustWork = d.ItemOf(i) >= 0
			}
			after := d.Tree()
			if err != nil {
				if !bytes.Equal(d.Bytes(), before) {
					t.Fatalf("op %d on node %d failed (%v) but changed the bytes", op%6, i, err)
				}
				if complete && mustWork && !strings.Contains(err.Error(), "does not fit") {
					t.Fatalf("op %d on node %d refused: %v\n%s", op%6, i, err, dump(after))
				}
				continue
			}
			checkTiling(t, after)
			if complete && after.Err != nil {
				t.Fatalf("op %d on node %d: the message no longer decodes: %v", op%6, i, after.Err)
			}
			out, err := Encode(after)
			if err != nil || !bytes.Equal(out, d.Bytes()) {
				t.Fatalf("op %d on node %d: the draft's tree writes\n%x (%v)\nnot its bytes\n%x", op%6, i, out, err, d.Bytes())
			}
		}
	})
}

// sameTree fails unless two decodes of the same bytes are the same.
func sameTree(t *testing.T, got, want *Tree) {
	t.Helper()
	if len(got.Nodes) != len(want.Nodes) {
		t.Fatalf("%d nodes, want %d", len(got.Nodes), len(want.Nodes))
	}
	for i := range got.Nodes {
		if got.Nodes[i] != want.Nodes[i] {
			t.Fatalf("node %d: %+v, want %+v", i, got.Nodes[i], want.Nodes[i])
		}
	}
	if (got.Err == nil) != (want.Err == nil) || got.Err != nil && got.Err.Error() != want.Err.Error() {
		t.Fatalf("error %v, want %v", got.Err, want.Err)
	}
	if got.Message != want.Message || got.Type != want.Type || got.Reading != want.Reading {
		t.Fatalf("message %d %q %+v, want %d %q %+v", got.Message, got.Type, got.Reading, want.Message, want.Type, want.Reading)
	}
}
