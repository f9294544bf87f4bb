package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"unicode"
	"unicode/utf8"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/dump"
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
func renderMessages(msgs [][]byte, opts decoder.Options, outs ...dump.Writer) error {
	res := &input.Result{Format: input.Hex, Header: []string{"pgoutput-inspect capture v1"}}
	for _, out := range outs {
		out.Begin(res, len(msgs))
	}
	s := decoder.NewSession(opts)
	var t decoder.Tree
	for i, m := range msgs {
		s.DecodeInto(&t, m)
		dm := &dump.Message{Message: &input.Message{Bytes: m, Line: i + 1}, Tree: &t}
		for _, out := range outs {
			out.Message(i, dm)
		}
	}
	var first error
	for _, out := range outs {
		if err := out.End(len(msgs)); err != nil && first == nil {
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
// separator; it has one header line per message, and no line that could end decode
// --markdown's code block.
func FuzzTextWriter(f *testing.F) {
	fuzzSeeds(f)
	// One buffer serves every execution (they run one at a time), so an execution does not
	// grow a new one.
	var out bytes.Buffer
	f.Fuzz(func(t *testing.T, data []byte, o byte, mode byte) {
		msgs := fuzzMessages(data)
		out.Reset()
		d := &dump.Text{W: &out, Color: mode&1 != 0, Full: mode&2 != 0}
		if err := renderMessages(msgs, fuzzOptions(o), d); err != nil {
			t.Fatal(err)
		}
		text := out.Bytes()
		if d.Color {
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
		// decode --markdown puts the dump in a code block fenced with three backticks: no
		// line may close it (a fence is at most three spaces from the start of its line).
		for _, line := range bytes.Split(text, []byte("\n")) {
			if l := bytes.TrimLeft(line, " "); len(line)-len(l) <= 3 && (bytes.HasPrefix(l, []byte("```")) || bytes.HasPrefix(l, []byte("~~~"))) {
				t.Fatalf("a line of the dump could end a Markdown code block: %q", line)
			}
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

// FuzzJSONWriter: the JSON of any messages, decoded with any options, is the same bytes
// encoding/json wrote, and valid JSON; each line of --json-lines is its message's object as
// json.Marshal wrote it (the object the document lays out), which re-parses to the decoder's
// tree: its hex the message's bytes, every node in order with its offset and length, the leaves
// tiling the message.
func FuzzJSONWriter(f *testing.F) {
	fuzzSeeds(f)
	// What serves every execution (they run one at a time): the buffers, the writers' buffers,
	// the reference writer and the parsed message.
	var doc, lines, refDoc bytes.Buffer
	var docW, linesW dump.JSON
	ref := &refWriter{w: &refDoc, keepObjects: true}
	refAt := offsetLister{b: &refDoc}
	var trees treeLister
	var frame []byte
	var m jsonTestMessage
	f.Fuzz(func(t *testing.T, data []byte, o byte, _ byte) {
		msgs := fuzzMessages(data)
		doc.Reset()
		lines.Reset()
		refDoc.Reset()
		trees = trees[:0]
		// Each writer is new, with the buffers the last one grew.
		docW.Reset(&doc, false)
		linesW.Reset(&lines, true)
		// The messages are decoded once; each writer and the tree lister see every message as
		// decode would show it to them. refAt keeps where the reference's messages start and end.
		if err := renderMessages(msgs, fuzzOptions(o), &docW, ref, &refAt, &linesW, &trees); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(doc.Bytes(), refDoc.Bytes()) {
			t.Fatalf("differs from encoding/json's:\n%s", diff(refDoc.String(), doc.String()))
		}
		rest := lines.Bytes()
		for i, msg := range msgs {
			line, after, ok := bytes.Cut(rest, []byte("\n"))
			if !ok {
				t.Fatalf("%d lines for %d messages", i, len(msgs))
			}
			rest = after
			if object := ref.object(i); !bytes.Equal(line, object) {
				t.Fatalf("line %d:\n%s\nwant\n%s", i+1, line, object)
			}
			// Unmarshal checks that the line is valid JSON before it reads any of it.
			m = jsonTestMessage{}
			if err := json.Unmarshal(line, &m); err != nil {
				t.Fatalf("line %d is not JSON: %v\n%s", i+1, err, line)
			}
			if m.Hex != hex.EncodeToString(msg) {
				t.Fatalf("message %d: hex %s", i, m.Hex)
			}
			if got, want := jsonNodes(m.Tree, len(msg)), trees[i]; got != want {
				t.Fatalf("message %d: the JSON's nodes\n%s\nthe decoder's\n%s", i, got, want)
			}
		}
		if len(rest) > 0 {
			t.Fatalf("more lines than the %d messages:\n%s", len(msgs), rest)
		}
		// The document is valid JSON: each message's object is (it is a line read above, laid
		// out by indentJSON, which adds blanks between tokens only), and so is what holds them,
		// read with each object replaced by 0.
		frame = documentFrame(frame[:0], doc.Bytes(), refAt.at)
		if !json.Valid(frame) {
			t.Fatalf("not JSON around the messages:\n%s\nthe document:\n%s", frame, doc.Bytes())
		}
	})
}

// documentFrame appends the JSON document doc with each message's object replaced by 0: at
// holds where the messages start and where each ends, as offsetLister keeps them.
func documentFrame(dst, doc []byte, at []int) []byte {
	dst = append(dst, doc[:at[0]]...)
	for i := 1; i < len(at); i++ {
		if i > 1 {
			dst = append(dst, ',')
		}
		dst = append(dst, '0')
	}
	return append(dst, doc[at[len(at)-1]:]...)
}

// jsonTestMessage is what FuzzJSONWriter reads of a message's object.
type jsonTestMessage struct {
	Hex  string        `json:"hex"`
	Tree *jsonTestNode `json:"tree"`
}

// object is message i's object as encoding/json's Marshal wrote it (keepObjects).
func (j *refWriter) object(i int) []byte {
	start := 0
	if i > 0 {
		start = j.objectEnds[i-1]
	}
	return j.objects[start:j.objectEnds[i]]
}

// indentJSON appends compact JSON src (json.Marshal's output: valid, no blank outside strings)
// laid out as json.Indent lays it out (TestIndentJSON): every member and element on a line of
// its own after prefix and one indent per depth, ": " after each key, {} and [] when empty. It
// reads src once, copying strings and literals whole, without json's scanner, which took a
// sixth of FuzzJSONWriter's time in the Encoder's indenting.
func indentJSON(dst, src []byte, prefix, indent string) []byte {
	depth := 0
	newline := func() {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for range depth {
			dst = append(dst, indent...)
		}
	}
	for i := 0; i < len(src); {
		switch c := src[i]; c {
		case '"':
			// The string runs to the first quote not escaped: one after an even number of
			// backslashes.
			end := i + 1
			for {
				end += bytes.IndexByte(src[end:], '"')
				k := end
				for k > i+1 && src[k-1] == '\\' {
					k--
				}
				if (end-k)%2 == 0 {
					break
				}
				end++
			}
			dst = append(dst, src[i:end+1]...)
			i = end + 1
		case '{', '[':
			dst = append(dst, c)
			i++
			if i < len(src) && (src[i] == '}' || src[i] == ']') {
				dst = append(dst, src[i])
				i++
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
			i++
		case ',':
			dst = append(dst, c)
			newline()
			i++
		case ':':
			dst = append(dst, ':', ' ')
			i++
		default:
			// A number, true, false or null, up to the punctuation after it.
			end := i + 1
			for end < len(src) && !isJSONPunct(src[end]) {
				end++
			}
			dst = append(dst, src[i:end]...)
			i = end
		}
	}
	return dst
}

// isJSONPunct says whether c ends a number or literal in compact JSON.
func isJSONPunct(c byte) bool {
	return c == ',' || c == ':' || c == '}' || c == ']' || c == '{' || c == '[' || c == '"'
}

// TestIndentJSON: indentJSON writes what json.Indent writes, on the compact documents decode
// --json writes for the fuzz seeds' messages and on values with empty, nested and escaped parts.
func TestIndentJSON(t *testing.T) {
	docs := []string{
		`{}`, `[]`, `""`, `0`, `-1.5e+10`, `null`, `true`, `{"a":[]}`, `[{},[],{"":""}]`,
		`{"a":[1,2],"b\\":"x \" y\\\" z","c":{},"d":[[[]]],"e":"{[,:]}"}`,
		`"\\\\"`, `["\u0020 ",true,null,"\\"]`, `[false,"\"",{"\"":"\\\""}]`,
	}
	for _, text := range []string{hostileInput(), binaryValuesInput(), string(smallMessages(2))} {
		res, _ := input.Parse([]byte(text), input.Auto)
		var msgs [][]byte
		for _, m := range res.Messages {
			msgs = append(msgs, m.Bytes)
		}
		var doc, compact bytes.Buffer
		if err := renderMessages(msgs, decoder.Options{}, dump.NewJSON(&doc, false)); err != nil {
			t.Fatal(err)
		}
		if err := json.Compact(&compact, doc.Bytes()); err != nil {
			t.Fatal(err)
		}
		docs = append(docs, compact.String())
	}
	for _, d := range docs {
		for _, prefix := range []string{"", "    "} {
			var want bytes.Buffer
			if err := json.Indent(&want, []byte(d), prefix, "  "); err != nil {
				t.Fatalf("%s: %v", d, err)
			}
			if got := indentJSON(nil, []byte(d), prefix, "  "); !bytes.Equal(got, want.Bytes()) {
				t.Errorf("%s, prefix %q:\n%s\nwant\n%s", d, prefix, got, want.Bytes())
			}
		}
	}
}

// offsetLister is a dump.Writer that keeps b's length at the start of the messages and after each
// one: where each message's output ends, given after the writer that writes to b.
type offsetLister struct {
	b  *bytes.Buffer
	at []int
}

func (l *offsetLister) Begin(*input.Result, int)       { l.at = append(l.at[:0], l.b.Len()) }
func (l *offsetLister) InputErrors([]*input.Error)     {}
func (l *offsetLister) Comment(int, string)            {}
func (l *offsetLister) End(int) error                  { return nil }
func (l *offsetLister) Connections([]dump.Connection)  {}
func (l *offsetLister) Message(_ int, _ *dump.Message) { l.at = append(l.at, l.b.Len()) }

// treeLister is a dump.Writer that keeps each message's treeNodes, as the decoder's tree was when
// the writers were given it.
type treeLister []string

func (l *treeLister) Begin(*input.Result, int)       {}
func (l *treeLister) InputErrors([]*input.Error)     {}
func (l *treeLister) Comment(int, string)            {}
func (l *treeLister) End(int) error                  { return nil }
func (l *treeLister) Connections([]dump.Connection)  {}
func (l *treeLister) Message(_ int, m *dump.Message) { *l = append(*l, treeNodes(m.Tree)) }

// jsonNodes lists a JSON tree's nodes in pre-order, "offset+length depth", checking that the
// leaves tile the n bytes of the message; an added "Input" root is left out.
func jsonNodes(root *jsonTestNode, n int) string {
	if root == nil {
		return ""
	}
	var b []byte
	pos := 0
	var walk func(x *jsonTestNode, depth int)
	walk = func(x *jsonTestNode, depth int) {
		b = appendNodeLine(b, x.Offset, x.Length, depth)
		if len(x.Children) == 0 {
			if x.Offset != pos {
				b = fmt.Appendf(b, "leaf at %d, want %d\n", x.Offset, pos)
			}
			pos = x.Offset + x.Length
		}
		for _, c := range x.Children {
			walk(c, depth+1)
		}
	}
	if root.Name == dump.InputRootName && root.FieldKey == "" {
		for _, c := range root.Children {
			walk(c, 0)
		}
	} else {
		walk(root, 0)
	}
	if pos != n {
		b = fmt.Appendf(b, "leaves end at %d, want %d\n", pos, n)
	}
	return string(b)
}

// treeNodes lists a decoder tree's nodes as jsonNodes does.
func treeNodes(t *decoder.Tree) string {
	var b []byte
	for i := range t.Nodes {
		n := &t.Nodes[i]
		b = appendNodeLine(b, n.Offset, n.Length, int(n.Depth))
	}
	return string(b)
}

// appendNodeLine appends a node's line of jsonNodes and treeNodes, "offset+length depth\n"
// (strconv rather than fmt, which took a twelfth of FuzzJSONWriter's time).
func appendNodeLine(b []byte, offset, length, depth int) []byte {
	b = strconv.AppendInt(b, int64(offset), 10)
	b = append(b, '+')
	b = strconv.AppendInt(b, int64(length), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(depth), 10)
	return append(b, '\n')
}
