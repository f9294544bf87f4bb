package pgvalue_test

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"pgoutput-inspector/decoder/pgvalue"
)

// codecOIDs are the types (and a few array types) AppendBinary decodes; the fuzz target also
// runs each input as one of them, so that mutated OIDs do not only reach "unsupported".
var codecOIDs = []uint32{16, 17, 18, 19, 20, 21, 23, 25, 26, 114, 650, 700, 701, 869, 1042, 1043, 1082, 1083,
	1114, 1184, 1186, 1700, 2950, 3802, 1000, 1001, 1002, 1007, 1009, 1021, 1022, 1041, 1115, 1182, 1183, 1185, 1187, 1231, 2951, 3807}

func FuzzAppendBinary(f *testing.F) {
	for _, c := range appendBinaryCases {
		f.Add(c.oid, c.b)
	}
	for _, c := range badValueCases {
		f.Add(c.oid, c.b)
	}
	f.Fuzz(func(t *testing.T, oid uint32, b []byte) {
		checkAppendBinary(t, oid, b)
		checkAppendBinary(t, codecOIDs[oid%uint32(len(codecOIDs))], b)
		if !utf8.Valid(pgvalue.AppendText(nil, b)) {
			t.Errorf("AppendText(%q) is not UTF-8", b)
		}
	})
}

// checkAppendBinary holds what must be true of any input: dst is kept on failure; a failure
// is explained unless the type is unsupported; the text is valid UTF-8 without raw control
// characters; BinaryValue agrees about success.
func checkAppendBinary(t *testing.T, oid uint32, b []byte) {
	in := append([]byte(nil), b...)
	got, ok, err := pgvalue.AppendBinary([]byte("pre:"), oid, b)
	if !bytes.Equal(b, in) {
		t.Fatalf("AppendBinary(%d) modified its input", oid)
	}
	if !bytes.HasPrefix(got, []byte("pre:")) {
		t.Fatalf("AppendBinary(%d, %x) = %q lost dst", oid, b, got)
	}
	if !ok {
		if len(got) != len("pre:") {
			t.Fatalf("AppendBinary(%d, %x) failed but wrote %q", oid, b, got)
		}
		if err == nil && pgvalue.TypeName(oid) != "" && oidHasCodec(oid) {
			t.Fatalf("AppendBinary(%d, %x) failed without an error", oid, b)
		}
	} else if err != nil {
		t.Fatalf("AppendBinary(%d, %x) ok with error %v", oid, b, err)
	}
	text := got[len("pre:"):]
	if !utf8.Valid(text) {
		t.Fatalf("AppendBinary(%d, %x) = %q is not UTF-8", oid, b, text)
	}
	for _, c := range text {
		if c < 0x20 || c == 0x7f {
			t.Fatalf("AppendBinary(%d, %x) = %q holds a control character", oid, b, text)
		}
	}
	_, vok, verr := pgvalue.BinaryValue(oid, b)
	if vok != ok || (verr == nil) != (err == nil) {
		t.Fatalf("BinaryValue(%d, %x) = %v, %v; AppendBinary %v, %v", oid, b, vok, verr, ok, err)
	}
	checkForms(t, oid, b)
}

func oidHasCodec(oid uint32) bool {
	for _, o := range codecOIDs {
		if o == oid {
			return true
		}
	}
	return false
}
