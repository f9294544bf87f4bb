package guide

import (
	"errors"
	"strconv"
	"strings"

	"pgoutput-inspector/decoder"
)

// The guide asset: the Guide as text, one record per line, "keyword value" with the value's
// parts separated by tabs. A line names a new entry, release, option or comparison, or sets a
// part of the last one. Backslash, tab and newline in values are written \\, \t and \n. Fields
// are referred to by decoder.FieldID, so the first line carries a checksum of the field table
// (decoder.FieldTableSum): an asset made for another build of the decoder is refused instead
// of misread.
//
// The page fetches the asset (static/guide.txt, written by ./build.sh wasm) and reads it with
// Read; native programs write it with Append. Neither links the guide's prose.

// guideMagic starts the asset's first line; guideVersion is the format's version.
const (
	guideMagic   = "pgoutput-guide"
	guideVersion = "2"
)

// Append appends g as the guide asset.
func Append(dst []byte, g *Guide) []byte {
	w := guideWriter{b: dst}
	w.line("", guideMagic, guideVersion, strconv.FormatUint(uint64(decoder.FieldTableSum()), 10))
	for i := range g.Entries {
		e := &g.Entries[i]
		w.line("entry", e.ID)
		w.line("name", e.Name)
		w.line("group", num(int(e.Group)))
		w.line("type", num(int(e.Type)))
		w.line("layer", num(int(e.Layer)))
		w.line("purpose", e.Purpose)
		w.line("travels", e.Travels)
		for _, f := range e.Fields {
			w.line("field", num(int(f.Field)), f.Condition, f.Repeat, f.Entry, f.Payload, flag(f.Alternative))
		}
		for _, r := range e.Rules {
			w.line("rule", r)
		}
		for _, r := range e.Related {
			w.line("related", r)
		}
		w.line("doc", e.Doc.Page, e.Doc.Anchor, num(e.Doc.AnchorSince), e.Doc.Title)
		for _, c := range e.Changes {
			w.change("change", c)
		}
		if e.Example.Text != "" {
			w.line("example", num(e.Example.Select), e.Example.Source, e.Example.Text)
		}
	}
	for _, r := range g.Releases {
		w.line("release", num(r.Release), num(r.MaxProto), strings.Join(r.Options, ","), r.Summary)
	}
	for _, o := range g.Options {
		w.line("option", o.Name, o.Values, o.Default, num(o.Since), num(o.Proto), o.Bytes)
		for _, c := range o.Changes {
			w.change("ochange", c)
		}
	}
	for _, c := range g.Comparisons {
		w.line("comparison", num(c.Release), c.Server, flag(c.Binary), num(c.Proto), c.Options, c.Setting, c.Source, c.Text)
	}
	return w.b
}

// num is strconv.Itoa kept out of line: the guide's writer calls it from many places, and each
// inlined copy would add to the page's WASM.
// size: docs/performance.md, "Size tricks".
//
//go:noinline
func num(n int) string { return strconv.Itoa(n) }

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

type guideWriter struct{ b []byte }

func (w *guideWriter) change(key string, c Change) {
	w.line(key, num(c.Release), num(c.Proto), num(int(c.Kind)), num(int(c.Field)), c.Text, c.Older)
}

// line writes key and the escaped parts, tab-separated. The first line has no key.
func (w *guideWriter) line(key string, parts ...string) {
	w.b = append(w.b, key...)
	for i, p := range parts {
		if i > 0 || key != "" {
			if i == 0 {
				w.b = append(w.b, ' ')
			} else {
				w.b = append(w.b, '\t')
			}
		}
		for j := 0; j < len(p); j++ {
			switch c := p[j]; c {
			case '\\':
				w.b = append(w.b, '\\', '\\')
			case '\t':
				w.b = append(w.b, '\\', 't')
			case '\n':
				w.b = append(w.b, '\\', 'n')
			default:
				w.b = append(w.b, c)
			}
		}
	}
	w.b = append(w.b, '\n')
}

// errGuideBuild: the asset was written for another field table.
var errGuideBuild = errors.New("guide asset: written for another build of the decoder (its field table differs); reload the page")

// Read reads a guide asset written by Append. It fails, without panicking, on an
// asset of another build or a damaged one, naming the line.
func Read(b []byte) (*Guide, error) {
	first, text, _ := strings.Cut(string(b), "\n")
	if !strings.HasPrefix(first, guideMagic+"\t") {
		return nil, errors.New("guide asset: not a guide (its first line does not start with " + guideMagic + ")")
	}
	if first != guideMagic+"\t"+guideVersion+"\t"+strconv.FormatUint(uint64(decoder.FieldTableSum()), 10) {
		return nil, errGuideBuild
	}
	g := &Guide{}
	for n := 2; text != ""; n++ {
		var line string
		line, text, _ = strings.Cut(text, "\n")
		if msg := g.record(line); msg != "" {
			return nil, errors.New("guide asset: line " + strconv.Itoa(n) + ": " + msg)
		}
	}
	return g, nil
}

// record applies one line of the asset to g and returns what is wrong with it, if anything.
// Each record is a list of the places its parts go, in order; one loop fills them, so the
// reader's code does not grow with the records (it is linked into the page).
func (g *Guide) record(line string) string {
	key, rest, _ := strings.Cut(line, " ")
	var to []any
	switch key {
	case "release":
		g.Releases = append(g.Releases, Release{})
		r := &g.Releases[len(g.Releases)-1]
		to = []any{&r.Release, &r.MaxProto, &r.Options, &r.Summary}
	case "option":
		g.Options = append(g.Options, Option{})
		o := &g.Options[len(g.Options)-1]
		to = []any{&o.Name, &o.Values, &o.Default, &o.Since, &o.Proto, &o.Bytes}
	case "ochange":
		if len(g.Options) == 0 {
			return "ochange before any option"
		}
		o := &g.Options[len(g.Options)-1]
		o.Changes = append(o.Changes, Change{})
		to = changeParts(&o.Changes[len(o.Changes)-1])
	case "comparison":
		g.Comparisons = append(g.Comparisons, Comparison{})
		c := &g.Comparisons[len(g.Comparisons)-1]
		to = []any{&c.Release, &c.Server, &c.Binary, &c.Proto, &c.Options, &c.Setting, &c.Source, &c.Text}
	case "entry":
		g.Entries = append(g.Entries, Entry{})
		to = []any{&g.Entries[len(g.Entries)-1].ID}
	default:
		if len(g.Entries) == 0 {
			return strconv.Quote(key) + " before any entry"
		}
		e := &g.Entries[len(g.Entries)-1]
		switch key {
		case "name":
			to = []any{&e.Name}
		case "group":
			to = []any{&e.Group}
		case "type":
			to = []any{&e.Type}
		case "layer":
			to = []any{&e.Layer}
		case "purpose":
			to = []any{&e.Purpose}
		case "travels":
			to = []any{&e.Travels}
		case "field":
			e.Fields = append(e.Fields, Field{})
			f := &e.Fields[len(e.Fields)-1]
			to = []any{&f.Field, &f.Condition, &f.Repeat, &f.Entry, &f.Payload, &f.Alternative}
		case "rule":
			e.Rules = append(e.Rules, "")
			to = []any{&e.Rules[len(e.Rules)-1]}
		case "related":
			e.Related = append(e.Related, "")
			to = []any{&e.Related[len(e.Related)-1]}
		case "doc":
			to = []any{&e.Doc.Page, &e.Doc.Anchor, &e.Doc.AnchorSince, &e.Doc.Title}
		case "change":
			e.Changes = append(e.Changes, Change{})
			to = changeParts(&e.Changes[len(e.Changes)-1])
		case "example":
			to = []any{&e.Example.Select, &e.Example.Source, &e.Example.Text}
		default:
			return "unknown record " + strconv.Quote(key)
		}
	}
	parts := strings.Split(rest, "\t")
	if len(parts) < len(to) {
		return "too few parts"
	}
	for i, dst := range to {
		s := unescapeGuide(parts[i])
		switch dst := dst.(type) {
		case *string:
			*dst = s
		case *[]string:
			*dst = strings.Split(s, ",")
		case *bool:
			*dst = s == "1"
		default:
			v, err := strconv.Atoi(s)
			if err != nil {
				return "not a number: " + strconv.Quote(s)
			}
			switch dst := dst.(type) {
			case *int:
				*dst = v
			case *byte:
				*dst = byte(v)
			case *Layer:
				*dst = Layer(v)
			case *ChangeKind:
				*dst = ChangeKind(v)
			case *decoder.FieldID:
				if v < 0 || v >= decoder.NumFields {
					return "no field number " + s
				}
				*dst = decoder.FieldID(v)
			}
		}
	}
	return ""
}

func changeParts(c *Change) []any {
	return []any{&c.Release, &c.Proto, &c.Kind, &c.Field, &c.Text, &c.Older}
}

func unescapeGuide(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 't':
				b = append(b, '\t')
			case 'n':
				b = append(b, '\n')
			default:
				b = append(b, s[i])
			}
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}
