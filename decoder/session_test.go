package decoder

import (
	"errors"
	"pgoutput-inspector/decoder/pgvalue"
	"strings"
	"testing"
)

func relationT(xid ...uint32) wire {
	w := wire{}.b1('R')
	for _, x := range xid {
		w = w.i32(x)
	}
	return w.i32(16384).str("public").str("t").i8('d').i16(2).
		i8(1).str("id").i32(23).i32(0xffffffff).i8(0).str("v").i32(25).i32(0xffffffff)
}

// A stream decoded in order: the session knows when Xid fields are present and names columns.
func TestSessionStream(t *testing.T) {
	s := NewSession(Options{})
	msgs := []wire{
		wire{}.b1('B').i64(1).i64(2).i32(700),
		relationT(),
		wire{}.b1('I').i32(16384).b1('N').i16(2).text("1").text("a"),
		wire{}.b1('C').i8(0).i64(1).i64(2).i64(3),
		wire{}.b1('S').i32(701).i8(1),
		relationT(701),
		wire{}.b1('I').i32(701).i32(16384).b1('N').i16(2).text("2").b1('n'),
		wire{}.b1('E'),
		wire{}.b1('A').i32(701).i32(702),
		wire{}.b1('c').i32(701).i8(0).i64(1).i64(2).i64(3),
	}
	for i, m := range msgs {
		tr := s.Decode(m)
		if tr.Err != nil {
			t.Fatalf("message %d: %v\n%s", i, tr.Err, dump(tr))
		}
		checkTiling(t, tr)
		// Only the Stream Abort is guessed: whether streaming is parallel is not in the stream.
		if tr.Reading.Guessed != (i == 8) {
			t.Errorf("message %d: guessed, but context was known: %+v", i, tr.Reading)
		}
		if i == 6 {
			if !tr.Reading.InStream {
				t.Errorf("streamed insert read without Xid")
			}
			col := -1
			for j := range tr.Nodes {
				if tr.Nodes[j].Field == FieldTupleColumn && tr.Nodes[j].Index == 1 {
					col = j
				}
			}
			if col < 0 || tr.Label(col) != "column 1 (id)" || tr.Column(col).TypeOID != 23 || !tr.Column(col).Key {
				t.Errorf("column not named from the Relation: %s", dump(tr))
			}
		}
	}
	if s.Proto() != 2 {
		t.Errorf("inferred proto %d, want 2", s.Proto())
	}
}

// The first message of a session is the Begin's: Guessed is reported only for ambiguous types.
func TestStreamAbortReadings(t *testing.T) {
	short := wire{}.b1('A').i32(5).i32(6)
	long := short.i64(0x10).i64(0x20)
	for _, tc := range []struct {
		name     string
		opts     Options
		b        []byte
		parallel bool
		guessed  bool
		err      error
	}{
		{"short auto", Options{}, short, false, true, nil},
		{"long auto", Options{}, long, true, true, nil},
		{"long proto 3", Options{Proto: 3}, long, false, false, ErrTrailing},
		{"short forced parallel", Options{ParallelAbort: Yes}, short, true, false, ErrTruncated},
		{"long proto 4", Options{Proto: 4}, long, true, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := NewSession(tc.opts).Decode(tc.b)
			checkTiling(t, tr)
			if tc.err == nil && tr.Err != nil || tc.err != nil && !errors.Is(tr.Err, tc.err) {
				t.Fatalf("err %v, want %v", tr.Err, tc.err)
			}
			if tr.Reading.ParallelAbort != tc.parallel || tr.Reading.Guessed != tc.guessed {
				t.Fatalf("reading %+v", tr.Reading)
			}
		})
	}
}

func TestEnvelopes(t *testing.T) {
	begin := wire{}.b1('B').i64(0x1773FE8).i64(1).i32(754)
	xlog := append(wire{}.b1('w').i64(0x1773FE8).i64(0x1773FE8).i64(5), begin...)
	copyData := append(wire{}.b1('d').i32(uint32(4+len(xlog))), xlog...)
	status := wire{}.b1('r').i64(1).i64(2).i64(3).i64(4).b1(0)
	rollback := wire{}.b1('r').i8(0).i64(1).i64(2).i64(3).i64(4).i32(5).str("g")
	for _, tc := range []struct {
		name     string
		b        []byte
		root     FieldID
		typ      byte
		envelope byte
	}{
		{"xlogdata", xlog, FieldXLogData, 'B', 'w'},
		{"copydata", copyData, FieldCopyData, 'B', 'd'},
		{"keepalive", wire{}.b1('k').i64(1).i64(2).b1(1), FieldKeepalive, 0, 'k'},
		{"standby status", status, FieldStandbyStatus, 0, 'r'},
		{"rollback prepared", rollback, FieldRollbackPrepared, 'r', 0},
		{"hot standby feedback", wire{}.b1('h').i64(1).i32(2).i32(3).i32(4).i32(5), FieldHotStandby, 0, 'h'},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := NewSession(Options{}).Decode(tc.b)
			if tr.Err != nil {
				t.Fatalf("%v\n%s", tr.Err, dump(tr))
			}
			checkTiling(t, tr)
			if tr.Nodes[0].Field != tc.root || tr.Type != tc.typ || tr.Reading.Envelope != tc.envelope {
				t.Fatalf("root %s type %q envelope %q\n%s", tr.Label(0), tr.Type, tr.Reading.Envelope, dump(tr))
			}
		})
	}
	// Without envelopes, 'w' is no pgoutput message.
	tr := NewSession(Options{Envelope: EnvelopeNone}).Decode(xlog)
	if !errors.Is(tr.Err, ErrUnknownType) || tr.Nodes[0].Field != FieldUnknownType {
		t.Fatalf("got %v\n%s", tr.Err, dump(tr))
	}
	checkTiling(t, tr)
}

func TestErrors(t *testing.T) {
	s := NewSession(Options{InStream: No})
	s.Decode(relationT())
	for _, tc := range []struct {
		name string
		b    []byte
		kind error
		want string
	}{
		{"empty", nil, ErrTruncated, "Message type: need 1 byte at offset 0, 0 remain"},
		{"unknown type", []byte("Zabc"), ErrUnknownType, "Message type: expected a pgoutput message type (B C O R Y I U D T M S E c A b P K r p), found 'Z' (0x5a) (at offset 0)"},
		{"begin short", wire{}.b1('B').i64(1).i32(0), ErrTruncated, "Begin: Commit timestamp: need 8 bytes at offset 9, 4 remain"},
		{"origin without NUL", wire{}.b1('O').i64(1).raw("orig"), ErrUnterminated, "Origin: Origin name: no NUL terminator in the 4 bytes to the end of the message (at offset 9)"},
		{"bad marker", wire{}.b1('I').i32(16384).b1('X'), ErrInvalid, "Insert: New tuple marker: expected 'N' (new tuple), found 'X' (0x58) (at offset 5)"},
		{"bad column kind", wire{}.b1('I').i32(16384).b1('N').i16(2).b1('q'), ErrInvalid, "Insert: New tuple: column 1 (id): Kind: expected 'n' (null), 'u' (unchanged TOAST), 't' (text) or 'b' (binary), found 'q' (0x71) (at offset 8)"},
		{"negative length", wire{}.b1('I').i32(16384).b1('N').i16(1).b1('t').i32(0xfffffffe), ErrInvalid, "Insert: New tuple: column 1 (id): Length: a length cannot be negative, found -2 (at offset 9)"},
		{"trailing", wire{}.b1('E').raw("xy"), ErrTrailing, "Trailing bytes: 2 bytes after the end of the message (at offset 1)"},
		{"update old then garbage", wire{}.b1('U').i32(16384).b1('K').i16(2).text("1").b1('n').b1('Q'), ErrInvalid, "Update: New tuple marker: expected 'K' (old key), 'O' (old tuple) or 'N' (new tuple), found 'Q' (0x51) (at offset 15)"},
		{"truncate count too big", wire{}.b1('T').i32(1000000).i8(0).i32(1), ErrTruncated, "Truncate: Relation OID: need 4 bytes at offset 10, 0 remain"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := s.Decode(tc.b)
			if !errors.Is(tr.Err, tc.kind) {
				t.Fatalf("err %v, want kind %v\n%s", tr.Err, tc.kind, dump(tr))
			}
			if tr.Err.Error() != tc.want {
				t.Fatalf("err %q\nwant %q", tr.Err.Error(), tc.want)
			}
			checkTiling(t, tr)
		})
	}
}

func TestValues(t *testing.T) {
	tr := NewSession(Options{}).Decode(wire{}.b1('T').i32(1).i8(3).i32(16384))
	want := []string{"", "'T' Truncate", "1", "3 CASCADE|RESTART IDENTITY", "16384"}
	for i := range tr.Nodes {
		if got := tr.Value(i); got != want[i] {
			t.Errorf("node %d (%s): %q, want %q", i, tr.Label(i), got, want[i])
		}
	}
	b := NewSession(Options{}).Decode(wire{}.b1('B').i64(0x16_B374D848).i64(768_000_001).i32(1))
	if got := b.Value(2); got != "16/B374D848" {
		t.Errorf("LSN %q", got)
	}
	if got := b.Value(3); got != "2000-01-01T00:12:48.000001Z" {
		t.Errorf("time %q", got)
	}
	if got := string(pgvalue.AppendRFC3339(nil, 1<<63-1)); got != "infinity" {
		t.Errorf("infinity %q", got)
	}
	if !strings.Contains(NewSession(Options{}).Decode(wire{}.b1('I').i32(9).b1('N').i16(0)).Notes()[1], "relation OID 9") {
		t.Errorf("missing relation not noted")
	}
}
