package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
)

// fuzzMessages splits fuzz data into messages: each is a length byte and that many bytes; the
// last takes what is left.
func fuzzMessages(data []byte) [][]byte {
	var msgs [][]byte
	for len(data) > 0 {
		n := int(data[0])
		data = data[1:]
		if n > len(data) {
			n = len(data)
		}
		msgs = append(msgs, data[:n])
		data = data[n:]
	}
	return msgs
}

// joinMessages is fuzzMessages' inverse, for seeds (messages over 255 bytes are cut).
func joinMessages(msgs [][]byte) []byte {
	var b []byte
	for _, m := range msgs {
		m = m[:min(len(m), 255)]
		b = append(append(b, byte(len(m))), m...)
	}
	return b
}

// fuzzOptions makes decoder options from a fuzz byte.
func fuzzOptions(o byte) decoder.Options {
	opts := decoder.Options{Proto: int(o % 5), InStream: decoder.Choice(o / 5 % 3), ParallelAbort: decoder.Choice(o / 15 % 3)}
	if o&0x80 != 0 {
		opts.Envelope = decoder.EnvelopeNone
	}
	return opts
}

// renderMessages decodes msgs in order with one session and writes them with each of outs, as
// decode does for an input read whole: each message is decoded once and given to every writer
// in turn, so each writes what it would write alone. It returns the first writer's error.
func renderMessages(msgs [][]byte, opts decoder.Options, outs ...renderer) error {
	res := &input.Result{Format: input.Hex, Header: []string{"pgoutput-inspect capture v1"}}
	for _, out := range outs {
		out.begin(res, len(msgs))
	}
	s := decoder.NewSession(opts)
	var t decoder.Tree
	for i, m := range msgs {
		s.DecodeInto(&t, m)
		dm := &decodedMessage{Message: &input.Message{Bytes: m, Line: i + 1}, Tree: &t}
		for _, out := range outs {
			out.message(i, dm)
		}
	}
	var first error
	for _, out := range outs {
		if err := out.end(len(msgs)); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// fuzzSeeds adds the messages of the test inputs, hostile names and binary values of every
// type, each input's messages as one seed.
func fuzzSeeds(f *testing.F) {
	texts := []string{hostileInput(), binaryValuesInput(), string(smallMessages(2))}
	files, _ := filepath.Glob("testdata/*.hex")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			texts = append(texts, string(b))
		}
	}
	for _, text := range texts {
		res, _ := input.Parse([]byte(text), input.Auto)
		if res == nil {
			continue
		}
		var msgs [][]byte
		for _, m := range res.Messages {
			msgs = append(msgs, m.Bytes)
		}
		for _, o := range []byte{0, 1, 4, 5} {
			f.Add(joinMessages(msgs), o, byte(0))
		}
	}
}

// FuzzTextWriter: the dump of any messages, decoded with any options, in colour or not, cut or
// in full, is text: valid UTF-8 without a control character (but the line breaks, and the
// dump's own colour codes), a bidirectional or other format character, or a line or paragraph
// separator; and it has one header line per message.
func FuzzTextWriter(f *testing.F) {
	fuzzSeeds(f)
	// One buffer serves every execution (they run one at a time), so an execution does not
	// grow a new one.
	var out bytes.Buffer
	f.Fuzz(func(t *testing.T, data []byte, o byte, mode byte) {
		msgs := fuzzMessages(data)
		out.Reset()
		d := &dumper{w: &out, color: mode&1 != 0, full: mode&2 != 0}
		if err := renderMessages(msgs, fuzzOptions(o), d); err != nil {
			t.Fatal(err)
		}
		text := out.Bytes()
		if d.color {
			text = stripSGR(text)
		}
		if !utf8.Valid(text) {
			t.Fatalf("the dump is not UTF-8:\n%q", text)
		}
		if i, r := unsafeRune(text); i >= 0 {
			t.Fatalf("the dump holds %U at byte %d:\n%q", r, i, text)
		}
		if n := bytes.Count(text, []byte("\nmessage ")); n != len(msgs) {
			t.Fatalf("%d message header lines for %d messages:\n%s", n, len(msgs), text)
		}
	})
}

// unsafeRune finds the first rune of UTF-8 text that a dump must not hold: a control character
// but the line break, a format character (bidirectional controls among them), a line or
// paragraph separator. It returns -1 when there is none. ASCII is checked without the unicode
// tables (no ASCII character is a format character), which took most of a check's time.
func unsafeRune(text []byte) (int, rune) {
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' || c == 0x7f {
				return i, rune(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029 {
			return i, r
		}
		i += size
	}
	return -1, 0
}

// stripSGR removes the dump's colour codes (ESC [ digits or semicolons m) from b, in place, as
// sgrCode.ReplaceAllString would (TestStripSGR), without its regular expression machine, which
// took a third of FuzzTextWriter's time.
func stripSGR(b []byte) []byte {
	out := b[:0]
	for i := 0; i < len(b); {
		if b[i] == 0x1b && i+1 < len(b) && b[i+1] == '[' {
			j := i + 2
			for j < len(b) && (b[j] >= '0' && b[j] <= '9' || b[j] == ';') {
				j++
			}
			if j < len(b) && b[j] == 'm' {
				i = j + 1
				continue
			}
		}
		out = append(out, b[i])
		i++
	}
	return out
}

// TestStripSGR: stripSGR removes what sgrCode matches, and only that.
func TestStripSGR(t *testing.T) {
	for _, s := range []string{
		"", "plain", "\x1b[0m", "\x1b[1;31mred\x1b[0m", "\x1b[", "\x1b[m", "\x1b[12", "a\x1b\x1b[1mb",
		"\x1b[1;x", "\x1b]1m", "\x1b[\x1b[1mm", "\xff\x1b[2m\xfe", "\x1b[;;m\x1b", "é\x1b[90mñ\x1b[3",
	} {
		if got, want := string(stripSGR([]byte(s))), sgrCode.ReplaceAllString(s, ""); got != want {
			t.Errorf("%q: %q, want %q", s, got, want)
		}
	}
}

// TestUnsafeRune: unsafeRune finds what the Unicode tables call a control or format character
// (and the separators), in ASCII as beyond.
func TestUnsafeRune(t *testing.T) {
	for r := rune(0); r <= 0x3000; r++ {
		want := r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029)
		text := []byte("ab" + string(r) + "c")
		i, got := unsafeRune(text)
		if want != (i >= 0) || want && (i != 2 || got != r) {
			t.Errorf("%U: found %U at %d, want it: %v", r, got, i, want)
		}
	}
}

// FuzzJSONWriter: the JSON of any messages, decoded with any options, is valid JSON, the same
// bytes encoding/json wrote, and re-parses to the decoder's tree: every node, in order, with
// its offset and length, the leaves tiling the message, its hex the message's bytes; each line
// of --json-lines is its message's object.
func FuzzJSONWriter(f *testing.F) {
	fuzzSeeds(f)
	// Buffers that serve every execution (they run one at a time).
	var doc, ref, lines bytes.Buffer
	var compact []byte
	f.Fuzz(func(t *testing.T, data []byte, o byte, _ byte) {
		msgs := fuzzMessages(data)
		doc.Reset()
		ref.Reset()
		lines.Reset()
		// The messages are decoded once; the writers and the tree lister each see every
		// message as decode would show it to them. ends keeps where each message's object
		// ends in encoding/json's document, which writes each one as it is given it.
		var trees treeLister
		ends := offsetLister{b: &ref}
		if err := renderMessages(msgs, fuzzOptions(o), &jsonWriter{w: &doc}, &refWriter{w: &ref}, &ends,
			&jsonWriter{w: &lines, lines: true}, &trees); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(doc.Bytes(), ref.Bytes()) {
			t.Fatalf("differs from encoding/json's:\n%s", diff(ref.String(), doc.String()))
		}
		// Unmarshal checks that the whole document is valid JSON before it reads any of it.
		var d struct {
			Messages []struct {
				Hex  string        `json:"hex"`
				Tree *jsonTestNode `json:"tree"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(doc.Bytes(), &d); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, doc.Bytes())
		}
		if len(d.Messages) != len(msgs) {
			t.Fatalf("%d messages in the JSON, %d decoded", len(d.Messages), len(msgs))
		}
		for i, m := range d.Messages {
			if m.Hex != hex.EncodeToString(msgs[i]) {
				t.Fatalf("message %d: hex %s", i, m.Hex)
			}
			if got, want := jsonNodes(m.Tree, len(msgs[i])), trees[i]; got != want {
				t.Fatalf("message %d: the JSON's nodes\n%s\nthe decoder's\n%s", i, got, want)
			}
		}
		ls := bytes.Split(bytes.TrimSuffix(lines.Bytes(), []byte("\n")), []byte("\n"))
		if len(msgs) == 0 {
			ls = nil
		}
		if len(ls) != len(msgs) {
			t.Fatalf("%d lines for %d messages", len(ls), len(msgs))
		}
		for i, l := range ls {
			// Message i's element of "messages", as written: ",\n    {…}".
			object := bytes.TrimLeft(doc.Bytes()[ends.at[i]:ends.at[i+1]], ",\n ")
			compact = compactJSON(compact[:0], object)
			if !bytes.Equal(l, compact) {
				t.Fatalf("line %d:\n%s\nwant\n%s", i+1, l, compact)
			}
		}
	})
}

// compactJSON appends valid JSON src without the blanks between its tokens, as json.Compact
// does (TestCompactJSON), without json.Compact's scanner, which took a sixth of
// FuzzJSONWriter's time; FuzzJSONWriter has checked that the document is valid JSON.
func compactJSON(dst, src []byte) []byte {
	inString := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case inString && c == '\\':
			dst = append(dst, c, src[i+1])
			i++
			continue
		case c == '"':
			inString = !inString
		case !inString && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			continue
		}
		dst = append(dst, c)
	}
	return dst
}

// TestCompactJSON: compactJSON writes what json.Compact writes, on the documents decode --json
// writes for the fuzz seeds' messages and on strings that hold blanks, quotes and escapes.
func TestCompactJSON(t *testing.T) {
	docs := []string{
		`{ "a" : [ 1 , 2 ] , "b\\" : "x \" y\\\" z" ,` + "\n\t\r" + `"c":{ } }`,
		`"\\\\ "`, `[ "\u0020 ", true , null ]`,
	}
	for _, text := range []string{hostileInput(), binaryValuesInput(), string(smallMessages(2))} {
		res, _ := input.Parse([]byte(text), input.Auto)
		var msgs [][]byte
		for _, m := range res.Messages {
			msgs = append(msgs, m.Bytes)
		}
		var doc bytes.Buffer
		if err := renderMessages(msgs, decoder.Options{}, &jsonWriter{w: &doc}); err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc.String())
	}
	for _, d := range docs {
		var want bytes.Buffer
		if err := json.Compact(&want, []byte(d)); err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if got := compactJSON(nil, []byte(d)); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s:\n%s\nwant\n%s", d, got, want.Bytes())
		}
	}
}

// offsetLister is a renderer that keeps b's length at the start of the messages and after each
// one: where each message's output ends, given after the writer that writes to b.
type offsetLister struct {
	b  *bytes.Buffer
	at []int
}

func (l *offsetLister) begin(*input.Result, int)         { l.at = append(l.at[:0], l.b.Len()) }
func (l *offsetLister) inputErrors([]*input.Error)       {}
func (l *offsetLister) comment(int, string)              {}
func (l *offsetLister) end(int) error                    { return nil }
func (l *offsetLister) message(_ int, _ *decodedMessage) { l.at = append(l.at, l.b.Len()) }

// treeLister is a renderer that keeps each message's treeNodes, as the decoder's tree was when
// the writers were given it.
type treeLister []string

func (l *treeLister) begin(*input.Result, int)         {}
func (l *treeLister) inputErrors([]*input.Error)       {}
func (l *treeLister) comment(int, string)              {}
func (l *treeLister) end(int) error                    { return nil }
func (l *treeLister) message(_ int, m *decodedMessage) { *l = append(*l, treeNodes(m.Tree)) }

// jsonNodes lists a JSON tree's nodes in pre-order, "offset+length depth", checking that the
// leaves tile the n bytes of the message; an added "Input" root is left out.
func jsonNodes(root *jsonTestNode, n int) string {
	if root == nil {
		return ""
	}
	var b strings.Builder
	pos := 0
	var walk func(x *jsonTestNode, depth int)
	walk = func(x *jsonTestNode, depth int) {
		fmt.Fprintf(&b, "%d+%d %d\n", x.Offset, x.Length, depth)
		if len(x.Children) == 0 {
			if x.Offset != pos {
				fmt.Fprintf(&b, "leaf at %d, want %d\n", x.Offset, pos)
			}
			pos = x.Offset + x.Length
		}
		for _, c := range x.Children {
			walk(c, depth+1)
		}
	}
	if root.Name == inputRootName && root.FieldKey == "" {
		for _, c := range root.Children {
			walk(c, 0)
		}
	} else {
		walk(root, 0)
	}
	if pos != n {
		fmt.Fprintf(&b, "leaves end at %d, want %d\n", pos, n)
	}
	return b.String()
}

// treeNodes lists a decoder tree's nodes as jsonNodes does.
func treeNodes(t *decoder.Tree) string {
	var b strings.Builder
	for i := range t.Nodes {
		n := &t.Nodes[i]
		fmt.Fprintf(&b, "%d+%d %d\n", n.Offset, n.Length, n.Depth)
	}
	return b.String()
}
