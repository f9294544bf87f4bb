package main

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"pgoutput-inspector/decoder"
)

// wire builds a message field by field.
type wire []byte

func (w wire) b1(c byte) wire    { return append(w, c) }
func (w wire) i16(v uint16) wire { return binary.BigEndian.AppendUint16(w, v) }
func (w wire) i32(v uint32) wire { return binary.BigEndian.AppendUint32(w, v) }
func (w wire) str(s string) wire { return append(append(w, s...), 0) }
func (w wire) raw(s string) wire { return append(w, s...) }
func (w wire) col(kind byte, s string) wire {
	return w.b1(kind).i32(uint32(len(s))).raw(s)
}

// hostile is a name or value that would act on a terminal printed raw: a C1 CSI that clears
// the screen, a right-to-left override, an OSC title sequence, a zero-width space, an isolate
// and a byte that is not UTF-8.
const hostile = "x\u009b2J\u202e\x1b]0;pwned\x07\u200b\u2066\xff"

// hostileInput is a Type, a Relation and an Insert whose every name and text value is hostile,
// with a binary int4[] value whose dimensions are bad, as hex lines.
func hostileInput() string {
	typ := wire{}.b1('Y').i32(70000).str("ns" + hostile).str("mood" + hostile)
	rel := wire{}.b1('R').i32(16384).str("public" + hostile).str("t" + hostile).b1('d').i16(4).
		b1(1).str("id" + hostile).i32(23).i32(0xffffffff).
		b1(0).str("note" + hostile).i32(25).i32(0xffffffff).
		b1(0).str("m" + hostile).i32(70000).i32(0xffffffff).
		b1(0).str("a").i32(1007).i32(0xffffffff)
	badArray := string(wire{}.i32(7).i32(0).i32(23)) // 7 dimensions: PostgreSQL allows 6
	ins := wire{}.b1('I').i32(16384).b1('N').i16(4).
		col('t', "1").col('t', `say "`+hostile+`" \`).col('t', "happy").col('b', badArray)
	msg := wire{}.b1('M').b1(1).raw("\x00\x00\x00\x00\x00\x00\x00\x01").str("pre" + hostile).
		i32(uint32(len(hostile))).raw(hostile)
	var b strings.Builder
	for _, m := range []wire{typ, rel, ins, msg} {
		b.WriteString(hex.EncodeToString(m) + "\n")
	}
	return b.String()
}

var sgrCode = regexp.MustCompile("\x1b\\[[0-9;]*m")

// checkTerminalSafe fails when out holds anything but printable text, tabs and newlines
// (after removing the dump's own colour codes when colour is on).
func checkTerminalSafe(t *testing.T, out string, color bool) {
	t.Helper()
	if color {
		out = sgrCode.ReplaceAllString(out, "")
	}
	for i, line := range strings.Split(out, "\n") {
		if !utf8.ValidString(line) {
			t.Errorf("line %d is not UTF-8: %q", i+1, line)
			continue
		}
		for _, r := range line {
			if r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029) {
				t.Errorf("line %d holds %U raw: %q", i+1, r, line)
				break
			}
		}
	}
}

// TestTerminalOutputIsText: names, labels, values, notes and errors from the input never reach
// the terminal raw; a binary value that does not decode says why.
func TestTerminalOutputIsText(t *testing.T) {
	in := hostileInput()
	for _, color := range []string{"never", "always"} {
		r := runCmd(t, in, nil, "decode", "--color", color)
		if r.code != exitOK {
			t.Fatalf("exit %d; stderr:\n%s\n%s", r.code, r.stderr, r.stdout)
		}
		checkTerminalSafe(t, r.stdout, color == "always")
		checkTerminalSafe(t, r.stderr, false)
		for _, want := range []string{
			`Insert of publicx\u009b2J\u202e\x1b]0;pwned\x07\u200b\u2066\xff.tx\u009b2J`, // the header line
			`column 1 (idx\u009b2J\u202e`,                                  // a label
			`"say \"x\u009b2J\u202e\x1b]0;pwned\x07\u200b\u2066\xff\" \\"`, // a quoted value
			`::nsx\u009b2J`, // a type name from a Type message
			`value error: int4[] value at offset 0: invalid number of dimensions 7 (want 0 to 6)`,
		} {
			if !strings.Contains(sgrCode.ReplaceAllString(r.stdout, ""), want) {
				t.Errorf("--color %s: output lacks %s:\n%s", color, want, r.stdout)
			}
		}
	}
	// The JSON keeps the names as data (JSON escapes what it must), and the value error.
	r := runCmd(t, in, nil, "decode", "--json")
	checkJSONDocument(t, []byte(r.stdout))
	var doc struct {
		Messages []struct {
			Relation string          `json:"relation"`
			Tree     json.RawMessage `json:"tree"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	// encoding/json reads the invalid byte as U+FFFD.
	if got, want := doc.Messages[2].Relation, strings.ToValidUTF8("public"+hostile+".t"+hostile, "\ufffd"); got != want {
		t.Errorf("relation %q, want %q", got, want)
	}
	if !strings.Contains(string(doc.Messages[2].Tree), `"value_error": "int4[] value at offset 0: invalid number of dimensions 7 (want 0 to 6)"`) {
		t.Errorf("no value_error in %s", doc.Messages[2].Tree)
	}
}

// A long value is cut to 160 bytes of its display text with an ellipsis, or, with --full,
// written whole (a piece at a time), the same text the decoder gives for it.
func TestFullValues(t *testing.T) {
	long := strings.Repeat("héllo\x1b", 40000) // 280,000 bytes, escapes throughout
	ins := wire{}.b1('I').i32(16384).b1('N').i16(1).col('t', long)
	in := hex.EncodeToString(ins) + "\n"
	var tr decoder.Tree
	decoder.NewSession(decoder.Options{}).DecodeInto(&tr, ins)
	value := ""
	for i := range tr.Nodes {
		if tr.Nodes[i].Field == decoder.FieldColumnValue {
			value = tr.Value(i)
		}
	}
	valueLine := func(out string) string {
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, " Value ") {
				return l
			}
		}
		return ""
	}
	r := runCmd(t, in, nil, "decode", "--full")
	line := valueLine(r.stdout)
	if r.code != exitOK || !strings.HasSuffix(line, "  "+value) {
		t.Errorf("--full: exit %d; the value line is not the whole value (%d bytes, line %d bytes)", r.code, len(value), len(line))
	}
	if !strings.Contains(line, " 68 c3 a9 6c 6c 6f 1b 68 c3 a9 6c 6c 6f 1b ") {
		t.Errorf("--full: the value's bytes are not all in hex")
	}
	r = runCmd(t, in, nil, "decode")
	cut := value[:160]
	for !utf8.ValidString(cut) || strings.HasSuffix(cut, `\`) || strings.HasSuffix(cut, `\x`) || strings.HasSuffix(cut, `\x1`) {
		cut = cut[:len(cut)-1]
	}
	if line := valueLine(r.stdout); r.code != exitOK || !strings.HasSuffix(line, "  "+cut+"…") || !strings.Contains(line, "68 c3 a9 6c … 280000 bytes") {
		t.Errorf("cut value: want …%q…, got %q", cut[len(cut)-20:], line)
	}
}
