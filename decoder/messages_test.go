package decoder

import (
	"strings"
	"testing"
)

// TestMessageTable checks every message type against the field table: its group and type
// fields, its lowest protocol version, its fixed fields (all of the message's fields in the
// table, in wire order), its xid field, and that its role and stream effect agree.
func TestMessageTable(t *testing.T) {
	seen := map[byte]bool{}
	for i := range messageTable {
		mt := &messageTable[i]
		name := mt.Name()
		g, tf := mt.Group.Info(), mt.TypeField.Info()
		if seen[mt.Type] {
			t.Errorf("%q: two entries", mt.Type)
		}
		seen[mt.Type] = true
		if g.Kind != KindGroup || g.Of != name || tf.Kind != KindType || tf.Of != name || tf.Format != FormatByte1 {
			t.Errorf("%s: group %s (%s) or type field %s (%s, %s) does not belong to it", name, g.Name, g.Of, tf.Name, tf.Of, tf.Kind)
		}
		if !strings.Contains(tf.Meaning, "Byte1('"+string(mt.Type)+"')") {
			t.Errorf("%s: type byte %q, but its type field says %q", name, mt.Type, tf.Meaning)
		}
		if mt.Proto != g.Proto || tf.Proto != g.Proto {
			t.Errorf("%s: lowest protocol %d, the field table says %d (type field %d)", name, mt.Proto, g.Proto, tf.Proto)
		}
		// Every field of the message in the field table, in FieldID (wire) order.
		var all []FieldID
		for id := FieldID(0); int(id) < NumFields; id++ {
			if id != mt.Group && id != mt.TypeField && id.Info().Of == name {
				all = append(all, id)
			}
		}
		if (mt.Fields == nil) == (mt.body == nil) {
			t.Errorf("%s: needs either fixed fields or a body function", name)
		}
		if mt.Fields != nil && !sameFields(mt.Fields, all) {
			t.Errorf("%s: fixed fields %v, the field table has %v", name, mt.Fields, all)
		}
		switch {
		case mt.Xid == FieldUnknown:
		case mt.Xid == FieldStreamXid:
			if !mt.StreamXid {
				t.Errorf("%s: xid is the stream Xid, which it does not carry", name)
			}
		case mt.Xid.Info().Kind != KindXid || mt.Xid.Info().Of != name:
			t.Errorf("%s: xid field %s is not an Xid of the message", name, mt.Xid)
		}
		if mt.StreamXid && mt.Xid != FieldStreamXid {
			t.Errorf("%s: carries a stream Xid but names %s as its xid", name, mt.Xid)
		}
		wantStream := StreamCloses
		switch mt.Role {
		case RoleInside:
			wantStream = StreamKeeps
		case RoleStreamStart:
			wantStream = StreamOpens
		case RoleNone:
			t.Errorf("%s: no role", name)
		}
		if mt.Stream != wantStream {
			t.Errorf("%s: role %d but stream effect %d", name, mt.Role, mt.Stream)
		}
		if mt.ParallelFields && mt.body == nil {
			t.Errorf("%s: optional parallel fields need a body", name)
		}
		if got, ok := LookupMessage(mt.Type); !ok || got.Group != mt.Group || MessageName(mt.Type) != name {
			t.Errorf("%s: LookupMessage(%q) = %v, %v", name, mt.Type, got.Group, ok)
		}
	}
	// Every message group in the field table has an entry.
	for id := FieldID(0); int(id) < NumFields; id++ {
		info := id.Info()
		if info.Kind != KindGroup || info.Proto == 0 || info.Of != info.Name {
			continue
		}
		found := false
		for i := range messageTable {
			found = found || messageTable[i].Group == id
		}
		if !found {
			t.Errorf("message %s has no entry in the message table", info.Name)
		}
	}
	// The fields a body reads belong to the message (its columns, its TupleData, the stream Xid).
	for _, c := range corpusCaptures(t) {
		s := NewSession(Options{})
		for _, b := range c.msgs {
			tr := s.Decode(b)
			if tr.Message < 0 || tr.msg == nil {
				continue
			}
			for i := tr.Message + 1; i < int(tr.Nodes[tr.Message].End); i++ {
				of := tr.Nodes[i].Field.Info().Of
				if !strings.HasPrefix(of, tr.msg.Name()) && !strings.HasPrefix(of, "TupleData") && tr.Nodes[i].Field != FieldStreamXid {
					t.Fatalf("%s: field %s of %s", tr.msg.Name(), tr.Nodes[i].Field, of)
				}
			}
		}
	}
	for _, e := range envelopeTable {
		name := e.Group.Info().Name
		for _, f := range append([]FieldID{e.TypeField}, e.Fields...) {
			if f.Info().Of != name || f.Info().Format.Size() == 0 {
				t.Errorf("envelope %s: field %s (%s) is not one of its fixed-size fields", name, f, f.Info().Of)
			}
		}
	}
}

func sameFields(a, b []FieldID) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestProtocolVersions: MaxProto is the highest protocol version a field needs, MinProto the lowest.
func TestProtocolVersions(t *testing.T) {
	lo, hi := 0, 0
	for id := FieldID(0); int(id) < NumFields; id++ {
		if p := int(id.Info().Proto); p > 0 {
			if lo == 0 || p < lo {
				lo = p
			}
			hi = max(hi, p)
		}
	}
	if lo != MinProto || hi != MaxProto {
		t.Fatalf("fields need protocol %d to %d; MinProto %d, MaxProto %d", lo, hi, MinProto, MaxProto)
	}
}

// TestRoleAndXid: the transaction xid and the role come from the table.
func TestRoleAndXid(t *testing.T) {
	s := NewSession(Options{})
	for _, tc := range []struct {
		b     []byte
		role  Role
		xid   uint32
		hasIt bool
	}{
		{wire{}.b1('B').i64(1).i64(2).i32(700), RoleBegin, 700, true},
		{wire{}.b1('I').i32(16384).b1('N').i16(1).b1('n'), RoleInside, 0, false},
		{wire{}.b1('C').i8(0).i64(1).i64(2).i64(3), RoleCommit, 0, false},
		{wire{}.b1('S').i32(701).i8(1), RoleStreamStart, 701, true},
		{wire{}.b1('I').i32(702).i32(16384).b1('N').i16(1).b1('n'), RoleInside, 702, true},
		{wire{}.b1('E'), RoleStreamStop, 0, false},
		{wire{}.b1('A').i32(701).i32(702), RoleStreamEnd, 701, true},
		{wire{}.b1('b').i64(1).i64(2).i64(3).i32(703).str("g"), RoleBeginPrepare, 703, true},
		{wire{}.b1('P').i8(0).i64(1).i64(2).i64(3).i32(703).str("g"), RolePrepare, 703, true},
		{wire{}.b1('K').i8(0).i64(1).i64(2).i64(3).i32(703).str("g"), RolePreparedEnd, 703, true},
		{wire{}.b1('k').i64(1).i64(2).b1(0), RoleNone, 0, false},
	} {
		tr := s.Decode(tc.b)
		xid, ok := tr.Xid()
		if tr.Role() != tc.role || xid != tc.xid || ok != tc.hasIt {
			t.Errorf("%s: role %d xid %d %v, want %d %d %v", tr.Label(0), tr.Role(), xid, ok, tc.role, tc.xid, tc.hasIt)
		}
	}
	// A Stream Abort of a subtransaction does not end its transaction; of the xid itself, it does.
	for _, tc := range []struct {
		b    []byte
		ends bool
	}{
		{wire{}.b1('A').i32(701).i32(702), false},
		{wire{}.b1('A').i32(701).i32(701), true},
		{wire{}.b1('A').i32(701), false}, // cut before its subtransaction xid
		{wire{}.b1('c').i32(701).i8(0).i64(1).i64(2).i64(3), true},
		{wire{}.b1('r').i8(0).i64(1).i64(2).i64(3).i64(4).i32(703).str("g"), true},
		{wire{}.b1('C').i8(0).i64(1).i64(2).i64(3), false},
		{wire{}.b1('P').i8(0).i64(1).i64(2).i64(3).i32(703).str("g"), false},
	} {
		if tr := s.Decode(tc.b); tr.EndsTransaction() != tc.ends {
			t.Errorf("%s: EndsTransaction %v, want %v", tr.Label(0), !tc.ends, tc.ends)
		}
	}
	if !RoleBegin.Opens() || RoleBegin.Block() != BlockTransaction || !RolePrepare.Closes() ||
		RolePrepare.Block() != BlockPrepared || RoleStreamEnd.Opens() || RoleStreamEnd.Closes() ||
		RoleStreamStop.Block() != BlockStream || RoleInside.Block() != BlockNone {
		t.Error("Opens, Closes or Block disagree with the roles")
	}
}

// TestFutureMessageType adds a message type of a future protocol version to a copy of the table:
// decoding it, the stream state, the protocol inferred, the transaction xid, its role and the
// unknown type error all follow from the new entry, with no other change.
func TestFutureMessageType(t *testing.T) {
	table := append(messageTypes(nil), messageTable...)
	table = append(table, MessageType{Type: 'x', Group: FieldStreamStart, TypeField: FieldStreamStartType, Proto: 5,
		Xid: FieldStreamStartXid, Role: RoleStreamStart, Stream: StreamOpens,
		Fields: []FieldID{FieldStreamStartXid, FieldStreamStartFirst}})
	s := NewSession(Options{})
	s.useTable(table)

	tr := s.Decode(wire{}.b1('x').i32(901).i8(1))
	checkTiling(t, tr)
	if tr.Err != nil {
		t.Fatalf("%v\n%s", tr.Err, dump(tr))
	}
	if xid, ok := tr.Xid(); !ok || xid != 901 || tr.Role() != RoleStreamStart || s.Proto() != 5 {
		t.Fatalf("xid %d %v, role %d, protocol %d", xid, ok, tr.Role(), s.Proto())
	}
	// The new type opened a block: the next change carries an Xid, and is not guessed.
	tr = s.Decode(wire{}.b1('I').i32(901).i32(16384).b1('N').i16(1).b1('n'))
	if tr.Err != nil || !tr.Reading.InStream || tr.Reading.Guessed {
		t.Fatalf("insert after the new type: %v %+v", tr.Err, tr.Reading)
	}
	tr = s.Decode([]byte("Z"))
	if want := "expected a pgoutput message type (B C O R Y I U D T M S E c A b P K r p x), found 'Z'"; tr.Err == nil || !strings.Contains(tr.Err.Error(), want) {
		t.Fatalf("error %v, want it to contain %q", tr.Err, want)
	}
	// The package's own table does not know it.
	if tr := NewSession(Options{}).Decode(wire{}.b1('x').i32(901).i8(1)); tr.Err == nil {
		t.Fatal("'x' decoded with the package's table")
	}
}
