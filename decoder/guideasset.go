package decoder

import (
	"errors"
	"strconv"
	"strings"
)

// The guide asset: the Guide as text, one record per line, "keyword value" with the value's
// parts separated by tabs. A line names a new entry, release, option or comparison, or sets a
// part of the last one. Backslash, tab and newline in values are written \\, \t and \n. Fields
// are referred to by FieldID, so the first line carries a checksum of the field table: an
// asset made for another build of the decoder is refused instead of misread.
//
// The page fetches the asset (static/guide.txt, written by ./build.sh wasm) and reads it with
// ReadGuide; native programs write it with AppendGuide. Neither links the guide's prose.

// guideMagic starts the asset's first line; guideVersion is the format's version.
const (
	guideMagic   = "pgoutput-guide"
	guideVersion = "1"
)

// fieldTableSum is an FNV-1a hash of the field table's names, so that an asset's field numbers
// are known to mean the same fields.
func fieldTableSum() uint32 {
	h := uint32(2166136261)
	for i := range fieldTable {
		for _, s := range [2]string{fieldTable[i].Name, fieldTable[i].Of} {
			for j := 0; j < len(s); j++ {
				h = (h ^ uint32(s[j])) * 16777619
			}
			h = (h ^ 0) * 16777619
		}
	}
	return h
}

// AppendGuide appends g as the guide asset.
func AppendGuide(dst []byte, g *Guide) []byte {
	w := guideWriter{b: dst}
	w.line("", guideMagic, guideVersion, strconv.FormatUint(uint64(fieldTableSum()), 10))
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
		w.line("doc", e.Doc.Page, e.Doc.Anchor, num(e.Doc.AnchorSince))
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
		w.line("comparison", num(c.Release), c.Server, flag(c.Binary), num(c.Proto), c.Options, c.Source, c.Text)
	}
	return w.b
}

func num(n int) string { return strconv.Itoa(n) }

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

type guideWriter struct{ b []byte }

func (w *guideWriter) change(key string, c Change) {
	w.line(key, num(c.Release), num(c.Proto), num(int(c.Kind)), num(int(c.Field)), c.Text)
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

// ReadGuide reads a guide asset written by AppendGuide. It fails, without panicking, on an
// asset of another build or a damaged one, naming the line.
func ReadGuide(b []byte) (*Guide, error) {
	text := string(b)
	g := &Guide{}
	for n := 1; text != ""; n++ {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if n == 1 {
			want := guideMagic + "\t" + guideVersion + "\t" + strconv.FormatUint(uint64(fieldTableSum()), 10)
			if !strings.HasPrefix(line, guideMagic+"\t") {
				return nil, errors.New("guide asset: not a guide (its first line does not start with " + guideMagic + ")")
			}
			if line != want {
				return nil, errGuideBuild
			}
			continue
		}
		if err := g.readLine(line); err != nil {
			return nil, errors.New("guide asset: line " + strconv.Itoa(n) + ": " + err.Error())
		}
	}
	return g, nil
}

// readLine applies one line of the asset to g.
func (g *Guide) readLine(line string) error {
	key, rest, _ := strings.Cut(line, " ")
	parts := strings.Split(rest, "\t")
	for i := range parts {
		parts[i] = unescapeGuide(parts[i])
	}
	var e *GuideEntry
	if len(g.Entries) > 0 {
		e = &g.Entries[len(g.Entries)-1]
	}
	p := guideParts{parts: parts}
	switch key {
	case "entry":
		g.Entries = append(g.Entries, GuideEntry{ID: p.str(0)})
		return p.err
	case "release":
		g.Releases = append(g.Releases, Release{Release: p.int(0), MaxProto: p.int(1), Options: strings.Split(p.str(2), ","), Summary: p.str(3)})
		return p.err
	case "option":
		g.Options = append(g.Options, Option{Name: p.str(0), Values: p.str(1), Default: p.str(2), Since: p.int(3), Proto: p.int(4), Bytes: p.str(5)})
		return p.err
	case "ochange":
		if len(g.Options) == 0 {
			return errors.New("ochange before any option")
		}
		o := &g.Options[len(g.Options)-1]
		o.Changes = append(o.Changes, p.change())
		return p.err
	case "comparison":
		g.Comparisons = append(g.Comparisons, Comparison{Release: p.int(0), Server: p.str(1), Binary: p.str(2) == "1", Proto: p.int(3),
			Options: p.str(4), Source: p.str(5), Text: p.str(6)})
		return p.err
	}
	if e == nil {
		return errors.New(strconv.Quote(key) + " before any entry")
	}
	switch key {
	case "name":
		e.Name = p.str(0)
	case "group":
		e.Group = p.field(0)
	case "type":
		e.Type = byte(p.int(0))
	case "layer":
		e.Layer = Layer(p.int(0))
	case "purpose":
		e.Purpose = p.str(0)
	case "travels":
		e.Travels = p.str(0)
	case "field":
		e.Fields = append(e.Fields, GuideField{Field: p.field(0), Condition: p.str(1), Repeat: p.str(2), Entry: p.str(3),
			Payload: p.str(4), Alternative: p.str(5) == "1"})
	case "rule":
		e.Rules = append(e.Rules, p.str(0))
	case "related":
		e.Related = append(e.Related, p.str(0))
	case "doc":
		e.Doc = DocRef{Page: p.str(0), Anchor: p.str(1), AnchorSince: p.int(2)}
	case "change":
		e.Changes = append(e.Changes, p.change())
	case "example":
		e.Example = GuideExample{Select: p.int(0), Source: p.str(1), Text: p.str(2)}
	default:
		return errors.New("unknown record " + strconv.Quote(key))
	}
	return p.err
}

// guideParts reads the parts of a line, keeping the first problem.
type guideParts struct {
	parts []string
	err   error
}

func (p *guideParts) str(i int) string {
	if i >= len(p.parts) {
		if p.err == nil {
			p.err = errors.New("too few parts")
		}
		return ""
	}
	return p.parts[i]
}

func (p *guideParts) int(i int) int {
	s := p.str(i)
	v, err := strconv.Atoi(s)
	if err != nil && p.err == nil {
		p.err = errors.New("not a number: " + strconv.Quote(s))
	}
	return v
}

func (p *guideParts) field(i int) FieldID {
	v := p.int(i)
	if (v < 0 || v >= NumFields) && p.err == nil {
		p.err = errors.New("no field number " + strconv.Itoa(v))
	}
	return FieldID(v)
}

func (p *guideParts) change() Change {
	return Change{Release: p.int(0), Proto: p.int(1), Kind: ChangeKind(p.int(2)), Field: p.field(3), Text: p.str(4)}
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
