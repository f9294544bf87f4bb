package web

import (
	"strconv"
	"strings"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/hexview"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/export"
	"pgoutput-inspector/internal/guide"
)

// protoRange is the protocol versions a link may name, "1 to 4".
var protoRange = strconv.Itoa(decoder.MinProto) + " to " + strconv.Itoa(decoder.MaxProto)

// Share links keep the whole state in the URL fragment, which browsers never send to a server.
// Three forms open decoded:
//
//	#hex=<hex>[&proto=N][&stream=1|0][&sel=OFFSET-LENGTH]   one message, written by hand
//	#b64=<base64url>[&proto=N][&stream=1|0][&sel=OFFSET-LENGTH]
//	#z1=<base64url of deflate-raw(payload)>                 what the Share button makes
//
// and one opens the field guide: #guide=<entry>, such as #guide=update (#guide=versions for the
// releases and options). Any of them may add the version lens: &release=N (PostgreSQL 10 to
// 18) and &protocol=N (1 to 4).
//
// The z1 payload (see SharePayload) carries the input text as pasted, the forced format, the
// options, the chosen message, the selection and the notes (notes.go). Compression is the browser's own
// CompressionStream("deflate-raw"), run by the page's JS glue: the Go side only builds and
// reads the payload, so no compressor goes into main.wasm.

// ShareVersion is the key of the compressed form; a new payload layout gets a new key.
const ShareVersion = "z1"

// GuideKey is the key of a link to the field guide.
const GuideKey = "guide"

// releaseRange is the releases the version lens knows, "10 to 18".
var releaseRange = strconv.Itoa(decoder.FirstRelease) + " to " + strconv.Itoa(decoder.LastRelease)

// MaxSharePayload is the most a z1 link's payload may inflate to: MaxInput of text and its
// option lines. The page stops reading the inflated stream there.
const MaxSharePayload = MaxInput + 1<<10

// Fragment is what a share link's fragment says.
type Fragment struct {
	// Bytes is the message of a hex= or b64= link (nil for z1).
	Bytes []byte
	// Packed is the base64url text of a z1 link, still compressed.
	Packed string
	// Key is the form: "hex", "b64", ShareVersion or GuideKey; "" for an empty fragment.
	Key      string
	Proto    int
	InStream decoder.Choice
	Sel      hexview.Range
	HasSel   bool
	// Guide is the guide entry of a guide= link ("" for the guide's first page).
	Guide string
	// Lens is the version lens the link chooses, when HasLens.
	Lens    guide.Lens
	HasLens bool
}

// FragmentError says why a fragment could not be read, naming the parameter.
type FragmentError struct {
	Param string
	Msg   string
}

// Error returns "link fragment: PARAM: what was wrong".
func (e *FragmentError) Error() string { return "link fragment: " + e.Param + ": " + e.Msg }

// ParseFragment reads a URL fragment (with or without its leading '#'). An empty fragment gives
// a Fragment with Key "".
func ParseFragment(frag string) (Fragment, error) {
	frag = strings.TrimPrefix(frag, "#")
	var f Fragment
	for frag != "" {
		var kv string
		kv, frag, _ = strings.Cut(frag, "&")
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "":
			continue
		case "hex":
			v = strings.Map(func(r rune) rune {
				if r == ' ' || r == ':' || r == '+' || r == '\n' {
					return -1
				}
				return r
			}, unescape(v))
			b, msg := decodeHex(v)
			if msg != "" {
				return f, &FragmentError{"hex", msg}
			}
			f.Key, f.Bytes = "hex", b
		case "b64":
			b, msg := decodeBase64URL(unescape(v))
			if msg != "" {
				return f, &FragmentError{"b64", msg}
			}
			f.Key, f.Bytes = "b64", b
		case ShareVersion:
			f.Key, f.Packed = ShareVersion, v
		case GuideKey:
			f.Key, f.Guide = GuideKey, unescape(v)
		case "release":
			n, ok := input.Atoi(v)
			if !ok || n < decoder.FirstRelease || n > decoder.LastRelease {
				return f, &FragmentError{"release", "expected a PostgreSQL release " + releaseRange + ", found \"" + v + "\""}
			}
			f.Lens.Release, f.HasLens = n, true
		case "protocol":
			n, ok := input.Atoi(v)
			if !ok || n < decoder.MinProto || n > decoder.MaxProto {
				return f, &FragmentError{"protocol", "expected a protocol version " + protoRange + ", found \"" + v + "\""}
			}
			f.Lens.Proto, f.HasLens = n, true
		case "proto":
			n, ok := input.Atoi(v)
			if !ok || n < 0 || n > decoder.MaxProto {
				return f, &FragmentError{"proto", "expected a protocol version " + protoRange + ", found \"" + v + "\""}
			}
			f.Proto = n
		case "stream":
			switch v {
			case "1", "yes", "true":
				f.InStream = decoder.Yes
			case "0", "no", "false":
				f.InStream = decoder.No
			default:
				return f, &FragmentError{"stream", "expected 1 or 0, found \"" + v + "\""}
			}
		case "sel":
			r, ok := parseSel(v)
			if !ok {
				return f, &FragmentError{"sel", "expected OFFSET-LENGTH in decimal, found \"" + v + "\""}
			}
			f.Sel, f.HasSel = r, true
		default:
			return f, &FragmentError{k, "unknown parameter; the link may come from a newer version of the page"}
		}
	}
	return f, nil
}

func unescape(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				b = append(b, hi<<4|lo)
				i += 2
				continue
			}
		}
		b = append(b, s[i])
	}
	return string(b)
}

func parseSel(v string) (hexview.Range, bool) {
	a, b, ok := strings.Cut(v, "-")
	if !ok {
		return hexview.Range{}, false
	}
	off, ok1 := input.Atoi(a)
	n, ok2 := input.Atoi(b)
	if !ok1 || !ok2 || off < 0 || n < 0 {
		return hexview.Range{}, false
	}
	return hexview.Range{Offset: off, Length: n}, true
}

// SimpleFragment writes the hand-written form for one message: hex=…, with proto, stream and
// sel when set.
func SimpleFragment(b []byte, proto int, stream decoder.Choice, sel hexview.Range) string {
	var s strings.Builder
	s.WriteString("#hex=")
	s.Write(export.AppendBytes(nil, export.Hex, b))
	writeOptions(&s, proto, stream, sel)
	return s.String()
}

func writeOptions(s *strings.Builder, proto int, stream decoder.Choice, sel hexview.Range) {
	if proto > 0 {
		s.WriteString("&proto=")
		s.WriteString(strconv.Itoa(proto))
	}
	switch stream {
	case decoder.Yes:
		s.WriteString("&stream=1")
	case decoder.No:
		s.WriteString("&stream=0")
	}
	if !sel.Empty() {
		s.WriteString("&sel=")
		s.WriteString(strconv.Itoa(sel.Offset))
		s.WriteByte('-')
		s.WriteString(strconv.Itoa(sel.Length))
	}
}

// Shared is what a z1 link carries.
type Shared struct {
	Text     string
	Format   input.Format // forced format, or input.Auto
	Proto    int
	InStream decoder.Choice
	Msg      int
	Sel      hexview.Range
	// Example is the name of the example the text is (Example.Name), or "".
	Example string
	// Explain says explain mode is on, at the selected field.
	Explain bool
	// Filter is the message list's filter query, or "".
	Filter string
	// Lens is the version lens (a release or protocol version it does not know is left out
	// when the link opens, not refused: the link still opens its input).
	Lens guide.Lens
	// Notes are the notes on fields and bytes (notes.go).
	Notes []Note
	// Before is what the text, a big file's part, goes on from: the relations, types and open
	// transaction of the parts before it (Carry.AppendBefore), or nil.
	Before []byte
}

// SharePayload writes s as the z1 payload, before compression: "key=value" lines, an empty
// line, then the text.
func SharePayload(s Shared) []byte {
	b := make([]byte, 0, len(s.Text)+64)
	if s.Format != input.Auto {
		b = appendLine(b, "format=", string(s.Format))
	}
	if s.Proto > 0 {
		b = appendNum(append(b, "proto="...), s.Proto, '\n')
	}
	switch s.InStream {
	case decoder.Yes:
		b = append(b, "stream=1\n"...)
	case decoder.No:
		b = append(b, "stream=0\n"...)
	}
	if s.Msg > 0 {
		b = appendNum(append(b, "msg="...), s.Msg, '\n')
	}
	if !s.Sel.Empty() {
		b = appendNum(appendNum(append(b, "sel="...), s.Sel.Offset, '-'), s.Sel.Length, '\n')
	}
	if s.Explain {
		b = append(b, "explain=1\n"...)
	}
	if s.Filter != "" && !strings.ContainsAny(s.Filter, "\n") {
		b = appendLine(b, "filter=", s.Filter)
	}
	if s.Lens.Release > 0 {
		b = appendNum(append(b, "release="...), s.Lens.Release, '\n')
	}
	if s.Lens.Proto > 0 {
		b = appendNum(append(b, "protocol="...), s.Lens.Proto, '\n')
	}
	if s.Example != "" && !strings.ContainsAny(s.Example, "\n") {
		b = appendLine(b, "example=", s.Example)
	}
	b = appendNotes(b, s.Notes)
	if s.Before != nil {
		b = append(export.AppendBytes(append(b, "before="...), export.Hex, s.Before), '\n')
	}
	b = append(b, '\n')
	return append(b, s.Text...)
}

// appendLine appends a payload line: key (with its "="), v and a newline. One call, not the
// appends inlined at every line (size: docs/performance.md, "Size tricks").
//
//go:noinline
func appendLine(b []byte, key, v string) []byte {
	return append(append(append(b, key...), v...), '\n')
}

// ParseSharePayload reads a decompressed z1 payload.
func ParseSharePayload(p []byte) (Shared, error) {
	var s Shared
	rest := string(p)
	for {
		line, r, ok := strings.Cut(rest, "\n")
		if !ok {
			return s, &FragmentError{ShareVersion, "the payload has no empty line before the text"}
		}
		rest = r
		if line == "" {
			break
		}
		k, v, _ := strings.Cut(line, "=")
		switch k {
		case "format":
			s.Format = input.Format(v)
		case "proto":
			n, ok := input.Atoi(v)
			if !ok || n < 0 || n > decoder.MaxProto {
				return s, &FragmentError{ShareVersion, "proto: expected " + protoRange + ", found \"" + v + "\""}
			}
			s.Proto = n
		case "stream":
			if v == "1" {
				s.InStream = decoder.Yes
			} else {
				s.InStream = decoder.No
			}
		case "msg":
			n, ok := input.Atoi(v)
			if !ok || n < 0 {
				return s, &FragmentError{ShareVersion, "msg: expected a message number, found \"" + v + "\""}
			}
			s.Msg = n
		case "sel":
			r, ok := parseSel(v)
			if !ok {
				return s, &FragmentError{ShareVersion, "sel: expected OFFSET-LENGTH, found \"" + v + "\""}
			}
			s.Sel = r
		case "example":
			s.Example = v
		case "explain":
			s.Explain = v == "1"
		case "filter":
			s.Filter = v
		case "release":
			s.Lens.Release, _ = input.Atoi(v)
		case "protocol":
			s.Lens.Proto, _ = input.Atoi(v)
		case "note":
			n, msg := parseNote(v)
			if msg == "" && len(s.Notes) == MaxNotes {
				msg = "more than " + strconv.Itoa(MaxNotes) + " notes"
			}
			if msg != "" {
				return s, &FragmentError{ShareVersion, msg}
			}
			s.Notes = append(s.Notes, n)
		case "before":
			b, msg := decodeHex(v)
			if msg != "" {
				return s, &FragmentError{ShareVersion, "before: " + msg}
			}
			s.Before = b
		}
	}
	s.Text = rest
	return s, nil
}

// openShared reads the payload of an OpenShared action, or says why the link is damaged.
func openShared(a OpenShared) (Shared, string) {
	if a.Err != "" {
		return Shared{}, damagedLink("its data does not inflate (deflate-raw; the browser says: " + a.Err + ")")
	}
	sh, err := ParseSharePayload(a.Payload)
	if err != nil {
		return Shared{}, damagedLink(err.(*FragmentError).Msg)
	}
	return sh, ""
}

// damagedLink says that a z1 link does not read, and why.
func damagedLink(why string) string {
	return "This link is damaged: " + why + ". A link cut short or changed when it was copied looks like this; the page still shows the input before it."
}

// exampleByName returns the index of the example called name, or -1.
func exampleByName(name string) int {
	for i := range Examples {
		if name != "" && Examples[i].Name == name {
			return i
		}
	}
	return -1
}

// ShareLink makes the z1 fragment from the compressed payload.
func ShareLink(compressed []byte) string {
	return "#" + ShareVersion + "=" + encodeBase64URL(compressed)
}

// Unpack returns the compressed payload of a z1 fragment.
func (f Fragment) Unpack() ([]byte, error) {
	b, msg := decodeBase64URL(f.Packed)
	if msg != "" {
		return nil, &FragmentError{ShareVersion, msg}
	}
	return b, nil
}

// emptyLink says that a link's key has no value, or "" when it has one.
func (f Fragment) emptyLink() string {
	if f.Key == "" || len(f.Bytes) > 0 || f.Packed != "" {
		return ""
	}
	return "The link's " + f.Key + "= is empty: there is nothing to decode. The page still shows the input before it."
}
