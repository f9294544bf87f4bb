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

// renderMessages decodes msgs in order with one session and writes them with out, as decode
// does for an input read whole.
func renderMessages(msgs [][]byte, opts decoder.Options, out renderer) error {
	res := &input.Result{Format: input.Hex, Header: []string{"pgoutput-inspect capture v1"}}
	out.begin(res, len(msgs))
	s := decoder.NewSession(opts)
	var t decoder.Tree
	for i, m := range msgs {
		s.DecodeInto(&t, m)
		out.message(i, &decodedMessage{Message: &input.Message{Bytes: m, Line: i + 1}, Tree: &t})
	}
	return out.end(len(msgs))
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
	f.Fuzz(func(t *testing.T, data []byte, o byte, mode byte) {
		msgs := fuzzMessages(data)
		var out bytes.Buffer
		d := &dumper{w: &out, color: mode&1 != 0, full: mode&2 != 0}
		if err := renderMessages(msgs, fuzzOptions(o), d); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		if d.color {
			text = sgrCode.ReplaceAllString(text, "")
		}
		if !utf8.ValidString(text) {
			t.Fatalf("the dump is not UTF-8:\n%q", text)
		}
		for i, r := range text {
			if r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029) {
				t.Fatalf("the dump holds %U at byte %d:\n%q", r, i, text)
			}
		}
		if n := strings.Count(text, "\nmessage "); n != len(msgs) {
			t.Fatalf("%d message header lines for %d messages:\n%s", n, len(msgs), text)
		}
	})
}

// FuzzJSONWriter: the JSON of any messages, decoded with any options, is valid JSON, the same
// bytes encoding/json wrote, and re-parses to the decoder's tree: every node, in order, with
// its offset and length, the leaves tiling the message, its hex the message's bytes; each line
// of --json-lines is its message's object.
func FuzzJSONWriter(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, o byte, _ byte) {
		msgs := fuzzMessages(data)
		opts := fuzzOptions(o)
		var doc, ref, lines bytes.Buffer
		if err := renderMessages(msgs, opts, &jsonWriter{w: &doc}); err != nil {
			t.Fatal(err)
		}
		if !json.Valid(doc.Bytes()) {
			t.Fatalf("not JSON:\n%s", doc.Bytes())
		}
		if err := renderMessages(msgs, opts, &refWriter{w: &ref}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(doc.Bytes(), ref.Bytes()) {
			t.Fatalf("differs from encoding/json's:\n%s", diff(ref.String(), doc.String()))
		}
		var d struct {
			Messages []json.RawMessage `json:"messages"`
		}
		if err := json.Unmarshal(doc.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		if len(d.Messages) != len(msgs) {
			t.Fatalf("%d messages in the JSON, %d decoded", len(d.Messages), len(msgs))
		}
		s := decoder.NewSession(opts)
		var tr decoder.Tree
		for i, raw := range d.Messages {
			var m struct {
				Hex  string        `json:"hex"`
				Tree *jsonTestNode `json:"tree"`
			}
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			s.DecodeInto(&tr, msgs[i])
			if m.Hex != hex.EncodeToString(msgs[i]) {
				t.Fatalf("message %d: hex %s", i, m.Hex)
			}
			if got, want := jsonNodes(m.Tree, len(msgs[i])), treeNodes(&tr); got != want {
				t.Fatalf("message %d: the JSON's nodes\n%s\nthe decoder's\n%s", i, got, want)
			}
		}
		if err := renderMessages(msgs, opts, &jsonWriter{w: &lines, lines: true}); err != nil {
			t.Fatal(err)
		}
		ls := strings.Split(strings.TrimSuffix(lines.String(), "\n"), "\n")
		if len(msgs) == 0 {
			ls = nil
		}
		if len(ls) != len(msgs) {
			t.Fatalf("%d lines for %d messages", len(ls), len(msgs))
		}
		for i, l := range ls {
			var compact bytes.Buffer
			json.Compact(&compact, d.Messages[i])
			if l != compact.String() {
				t.Fatalf("line %d:\n%s\nwant\n%s", i+1, l, compact.Bytes())
			}
		}
	})
}

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
