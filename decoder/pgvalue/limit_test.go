package pgvalue_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"pgoutput-inspector/decoder/pgvalue"
)

// checkForms holds every form of a binary value to AppendBinary's text and BinaryValue's value:
// the capped text is a prefix cut on a character or escape boundary and says so, the text
// written in pieces is the whole text, and the JSON is BinaryValue's value as encoding/json
// writes it (with the float4 and bytea forms the command line uses).
func checkForms(t *testing.T, oid uint32, b []byte) {
	t.Helper()
	full, ok, err := pgvalue.AppendBinary(nil, oid, b)
	// Capped text.
	var limits []int
	for l := 0; l <= len(full)+1; l++ {
		if l < 40 || l > len(full)-40 || l%97 == 0 {
			limits = append(limits, l)
		}
	}
	for _, limit := range append(limits, -1) {
		got, cut, lerr := pgvalue.AppendBinaryLimit([]byte("pre:"), oid, b, limit)
		if !ok {
			if string(got) != "pre:" || lerr == nil || (err == nil) != (lerr == pgvalue.ErrNoCodec) {
				t.Fatalf("AppendBinaryLimit(%d, %x, %d) = %q, %v; AppendBinary failed with %v", oid, b, limit, got, lerr, err)
			}
			continue
		}
		got = got[len("pre:"):]
		short := limit >= 0 && len(got) < len(full)
		switch {
		case lerr != nil:
			t.Fatalf("AppendBinaryLimit(%d, %x, %d): %v", oid, b, limit, lerr)
		case !bytes.HasPrefix(full, got):
			t.Fatalf("AppendBinaryLimit(%d, %x, %d) = %q, not a prefix of %q", oid, b, limit, got, full)
		case limit >= 0 && len(got) > limit:
			t.Fatalf("AppendBinaryLimit(%d, %x, %d) = %q, over the limit", oid, b, limit, got)
		case cut != short:
			t.Fatalf("AppendBinaryLimit(%d, %x, %d) = %q, cut %v", oid, b, limit, got, cut)
		case cut && len(got) < limit-10:
			// An escape is at most 10 bytes (\UHHHHHHHH), a character 4.
			t.Fatalf("AppendBinaryLimit(%d, %x, %d) = %q stops too early", oid, b, limit, got)
		case !utf8.Valid(got):
			t.Fatalf("AppendBinaryLimit(%d, %x, %d) = %q splits a character", oid, b, limit, got)
		}
	}
	// In pieces.
	var w pieces
	werr := pgvalue.WriteBinary(&w, oid, b)
	if !ok {
		if werr == nil || w.Len() > 0 {
			t.Fatalf("WriteBinary(%d, %x) wrote %q, %v; AppendBinary failed with %v", oid, b, w.String(), werr, err)
		}
	} else if werr != nil || w.String() != string(full) {
		t.Fatalf("WriteBinary(%d, %x) = %q, %v; AppendBinary %q", oid, b, w.String(), werr, full)
	}
	// JSON.
	v, vok, _ := pgvalue.BinaryValue(oid, b)
	for _, layout := range [][2]string{{"", ""}, {"    ", ""}, {"    ", "  "}} {
		prefix, indent := layout[0], layout[1]
		got, jok, jerr := pgvalue.AppendJSON([]byte("pre:"), oid, b, prefix, indent)
		if jok != vok || (jerr == nil) != (err == nil) {
			t.Fatalf("AppendJSON(%d, %x) = %v, %v; BinaryValue %v", oid, b, jok, jerr, vok)
		}
		if !jok {
			continue
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.SetIndent(prefix, indent)
		if err := enc.Encode(jsonForm(v, pgvalue.TypeName(oid) == "float4" || pgvalue.TypeName(oid) == "float4[]")); err != nil {
			t.Fatal(err)
		}
		if g, w := string(got[len("pre:"):]), strings.TrimSuffix(want.String(), "\n"); g != w {
			t.Fatalf("AppendJSON(%d, %x, %q) = %s, encoding/json of BinaryValue %s", oid, b, indent, g, w)
		}
		var jw pieces
		if err := pgvalue.WriteJSON(&jw, oid, b, prefix, indent); err != nil || jw.String() != string(got[len("pre:"):]) {
			t.Fatalf("WriteJSON(%d, %x) = %s, %v; AppendJSON %s", oid, b, jw.String(), err, got[len("pre:"):])
		}
	}
}

// jsonForm is BinaryValue's value as the command line writes it: bytea as "\x…" hex, a float4 with
// the shortest digits of a float32.
func jsonForm(v any, float4 bool) any {
	switch v := v.(type) {
	case []byte:
		return `\x` + hex.EncodeToString(v)
	case float64:
		if float4 {
			return json.Number(strconv.FormatFloat(v, 'g', -1, 32))
		}
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = jsonForm(e, float4)
		}
		return out
	}
	return v
}

// pieces is a writer that checks it is handed pieces of bounded size.
type pieces struct{ bytes.Buffer }

func (p *pieces) Write(b []byte) (int, error) {
	if len(b) > 64<<10 {
		panic("a piece of " + strconv.Itoa(len(b)) + " bytes")
	}
	return p.Buffer.Write(b)
}

func TestForms(t *testing.T) {
	for _, c := range appendBinaryCases {
		checkForms(t, c.oid, c.b)
	}
	for _, c := range badValueCases {
		checkForms(t, c.oid, c.b)
	}
	for _, c := range bigValues() {
		checkForms(t, c.oid, c.b)
	}
}

// bigValues are values whose text is long: a numeric of the largest weight, a long bytea and
// text, arrays of them.
func bigValues() []struct {
	oid uint32
	b   []byte
} {
	numeric := func(weight int16, dscale uint16, digits ...uint16) []byte {
		b := []byte{byte(len(digits) >> 8), byte(len(digits)), byte(uint16(weight) >> 8), byte(weight), 0x40, 0, byte(dscale >> 8), byte(dscale)}
		for _, d := range digits {
			b = append(b, byte(d>>8), byte(d))
		}
		return b
	}
	text := bytes.Repeat([]byte("a\tb\"c\\dé\u202e\xff "), 5000)
	return []struct {
		oid uint32
		b   []byte
	}{
		{oidNumeric, numeric(32767, 16383, 1, 2, 3)},
		{oidNumeric, numeric(-32768, 16383, 9999)},
		{oidBytea, bytes.Repeat([]byte{0, 0xff, 0x5c}, 30000)},
		{oidText, text},
		{oidTextArray, arrayBytes(oidText, 1, text, nil, []byte("NULL"), []byte{})},
		{oidByteaArray, arrayBytes(oidBytea, 0, bytes.Repeat([]byte{1}, 40000), nil)},
		{1231, arrayBytes(oidNumeric, 1, numeric(3000, 4, 12), numeric(0, 0))},
	}
}

// TestLimitAllocations: a capped value allocates nothing when dst has room, however long the
// whole text would be.
func TestLimitAllocations(t *testing.T) {
	huge := bytes.Repeat([]byte("x"), 100<<20)
	dst := make([]byte, 0, 512)
	for _, c := range bigValues() {
		if n := testing.AllocsPerRun(5, func() { pgvalue.AppendBinaryLimit(dst[:0], c.oid, c.b, 200) }); n != 0 {
			t.Errorf("AppendBinaryLimit(%d, %d bytes) allocates %v times", c.oid, len(c.b), n)
		}
	}
	if n := testing.AllocsPerRun(5, func() { pgvalue.AppendQuotedLimit(dst[:0], huge, 200) }); n != 0 {
		t.Errorf("AppendQuotedLimit of 100 MB allocates %v times", n)
	}
	if n := testing.AllocsPerRun(5, func() { pgvalue.AppendHexLimit(dst[:0], huge, 200) }); n != 0 {
		t.Errorf("AppendHexLimit of 100 MB allocates %v times", n)
	}
	if got, cut := pgvalue.AppendQuotedLimit(nil, huge, 200); len(got) != 200 || !cut {
		t.Errorf("AppendQuotedLimit of 100 MB: %d bytes, cut %v", len(got), cut)
	}
}
