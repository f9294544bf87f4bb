// Package guideview writes the field guide's view: the HTML of each guide entry and of the
// versions page, rendered at build time from the guide asset (guide.Read of
// guide.txt), which the page inserts when an entry is shown.
//
// The guide's pages are long, fixed text: drawn by the page's own Go code they cost main.wasm
// about 0.2 MB (60 KB with brotli) of rendering code; written here, natively, they cost it
// nothing (docs/performance.md, "Size tricks"). What changes with the reader (which entry,
// the version lens, the example's selection) stays in the page: the version lens marks
// elements through classes this package writes (see LensClasses) and static/guide.css.
//
// It is part of the teaching (package internal/guide, which it builds on), kept here because
// it annotates each example as the inspector does, with the page's own Doc (web.NewDoc): so it
// sits above web, as web/ui does, and internal/ never imports web.
//
// The asset (web.GuideViewAsset) is text: the line web.GuideViewMagic, then chunks, each a
// line "@KIND ID LENGTH" followed by LENGTH bytes and a line break (web.ReadGuideView):
//
//	@nav update      the list of entries, update the current one (aria-current)
//	@head update     the entry's title, purpose, where it travels, documentation link, byte
//	                 diagram, fields and rules (the page shows the example after it)
//	@tail update     what changed release by release, related entries
//	@example update  the entry's example: the message's index and the capture's source on a
//	                 line each, then the capture file (absent when the entry has none)
//	@nav versions    the list of entries, the versions page the current one
//	@page versions   the releases, the options and the same change from each release
//	@cmp K           capture K of the versions page's comparison, which its Open buttons open
package guideview

import (
	"html"
	"strconv"
	"strings"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/guide"
	"pgoutput-inspector/web"
)

// Render writes the view asset of the guide read from asset. An entry whose example the
// guide lacks takes the first message of its type in the examples menu's captures, examples
// (real captures too: web.ReadExamples of the examples asset).
func Render(asset []byte, examples []web.Example) ([]byte, error) {
	g, err := guide.Read(asset)
	if err != nil {
		return nil, err
	}
	var out strings.Builder
	out.WriteString(web.GuideViewMagic + "\n")
	chunk := func(key string, write func(w *writer)) {
		var w writer
		write(&w)
		out.Write(web.AppendChunk(nil, key, w.b.String()))
	}
	for i := range g.Entries {
		e := &g.Entries[i]
		if e.Example.Text == "" {
			e.Example = menuExample(examples, e.ID)
		}
		chunk("nav "+e.ID, func(w *writer) { nav(w, g, e.ID) })
		chunk("head "+e.ID, func(w *writer) { head(w, e) })
		chunk("tail "+e.ID, func(w *writer) {
			example(w, e)
			tail(w, g, e)
		})
		if ex := e.Example; ex.Text != "" {
			chunk("example "+e.ID, func(w *writer) {
				w.raw(strconv.Itoa(ex.Select) + "\n" + strings.ReplaceAll(ex.Source, "\n", " ") + "\n" + ex.Text)
			})
		}
	}
	chunk("nav "+guide.VersionsPage, func(w *writer) { nav(w, g, guide.VersionsPage) })
	chunk("page "+guide.VersionsPage, func(w *writer) { versions(w, g) })
	for k, c := range g.Comparisons {
		if c.Setting != "" {
			break // the option captures come last; the page opens only the releases' ones
		}
		chunk("cmp "+strconv.Itoa(k), func(w *writer) { w.raw(c.Text) })
	}
	return []byte(out.String()), nil
}

// maxExampleRows is how many fields of an example the entry lists; the inspector shows all.
const maxExampleRows = 40

// example writes the entry's real example: where it was captured, buttons that open it in the
// inspector (plainly or in explain mode: the page answers data-open), and its bytes field by
// field, annotated as the inspector annotates them.
func example(w *writer, e *guide.Entry) {
	ex := e.Example
	w.elem("h3", "", "Example", "id", "guide-example-title")
	if ex.Text == "" {
		w.elem("p", "muted", "No real capture of this message yet.")
		return
	}
	d, _ := web.NewDoc(ex.Text, input.Auto, decoder.Options{}, -1)
	if d == nil || ex.Select < 0 || ex.Select >= len(d.Trees) {
		w.elem("p", "muted", "The example does not decode.")
		return
	}
	t := d.Trees[ex.Select]
	source := ex.Source
	if source == "" {
		source = "a real capture"
	}
	w.elem("p", "guide-example-source", "Message "+strconv.Itoa(ex.Select+1)+" of "+source+", "+strconv.Itoa(len(t.Bytes))+" bytes.")
	w.open("p", "guide-example-actions")
	w.elem("button", "guide-open", "Open in the inspector", "type", "button", "data-open", "0",
		"title", "Show this capture in the inspector, this message chosen")
	w.raw(" ")
	w.elem("button", "guide-open", "Explain it step by step", "type", "button", "data-open", "1",
		"title", "Open it in the inspector in explain mode, at its first field")
	w.close("p")
	w.open("div", "guide-example-scroll")
	w.open("table", "guide-example", "aria-labelledby", "guide-example-title")
	w.raw("<thead><tr><th>Offset</th><th>Bytes</th><th>Field</th><th>Value</th></tr></thead><tbody>")
	rows := 0
	for i := range t.Nodes {
		if !t.IsLeaf(i) {
			continue
		}
		rows++
		if rows > maxExampleRows {
			continue
		}
		n := &t.Nodes[i]
		label := web.LabelText(t, i, web.MaxRowText)
		if p := t.Parent(i); p >= 0 && !strings.HasPrefix(label, "column") {
			if pl := web.LabelText(t, p, web.MaxRowText); strings.HasPrefix(pl, "column") {
				label = pl + " › " + label
			}
		}
		w.open("tr", "")
		w.elem("td", "", strconv.Itoa(n.Offset))
		w.open("td", "k-cell "+web.ClassOf(n.Field.Info().Kind).String())
		w.elem("code", "", hexText(t.Bytes[n.Offset:n.Offset+n.Length], 12))
		w.close("td")
		w.elem("td", "", label)
		w.elem("td", "", web.ValueText(t, i, 60))
		w.close("tr")
	}
	if rows > maxExampleRows {
		w.open("tr", "")
		w.elem("td", "muted", "… "+strconv.Itoa(rows-maxExampleRows)+" more fields: open it in the inspector to see them all.", "colspan", "4")
		w.close("tr")
	}
	w.raw("</tbody></table></div>")
}

// menuExample returns the first message of entry id's type in the examples menu's captures
// (for a TupleData, the first message holding one), or no example.
func menuExample(examples []web.Example, id string) guide.Example {
	for _, ex := range examples {
		d, _ := web.NewDoc(ex.Text, input.Auto, decoder.Options{}, -1)
		if d == nil {
			continue
		}
		for m, t := range d.Trees {
			if guide.EntryID(t) == id || id == "tupledata" && hasTupleData(t) {
				return guide.Example{Text: ex.Text, Select: m, Source: ex.Source}
			}
		}
	}
	return guide.Example{}
}

// hasTupleData reports whether t holds a TupleData.
func hasTupleData(t *decoder.Tree) bool {
	for i := range t.Nodes {
		if guide.EntryOf(t.Nodes[i].Field) == "tupledata" {
			return true
		}
	}
	return false
}

// writer writes HTML on one line.
type writer struct{ b strings.Builder }

func (w *writer) raw(s string) { w.b.WriteString(s) }

// text writes s escaped, its line breaks as blanks (a chunk is one line).
func (w *writer) text(s string) {
	w.b.WriteString(strings.ReplaceAll(html.EscapeString(s), "\n", " "))
}

// open writes a start tag with a class (none when "") and attributes, given as name, value.
func (w *writer) open(tag, class string, attrs ...string) {
	w.raw("<" + tag)
	if class != "" {
		w.raw(` class="` + html.EscapeString(strings.TrimSpace(class)) + `"`)
	}
	for i := 0; i+1 < len(attrs); i += 2 {
		w.raw(" " + attrs[i] + `="` + html.EscapeString(attrs[i+1]) + `"`)
	}
	w.raw(">")
}

func (w *writer) close(tag string) { w.raw("</" + tag + ">") }

// elem writes an element holding text.
func (w *writer) elem(tag, class, text string, attrs ...string) {
	w.open(tag, class, attrs...)
	w.text(text)
	w.close(tag)
}

// LensClasses returns the classes of an element that exists since release since and needs
// protocol version proto: "nr-R" for each release R of the lens before since, "np-P" for each
// protocol version P below proto. The page puts "lr-R" (the lens's release) and "lp-P" (its
// protocol version) on the guide, and static/guide.css marks "lr-R nr-R" and "lp-P np-P".
func LensClasses(since, proto int) string {
	var s []string
	for r := decoder.FirstRelease; r < since && r <= decoder.LastRelease; r++ {
		s = append(s, "nr-"+strconv.Itoa(r))
	}
	for p := decoder.MinProto; p < proto && p <= decoder.MaxProto; p++ {
		s = append(s, "np-"+strconv.Itoa(p))
	}
	if len(s) == 0 {
		return ""
	}
	return "lensed " + strings.Join(s, " ")
}

// badge writes the words the lens shows on an element it marks: since when it exists.
func badge(w *writer, p decoder.Presence) {
	if t := guide.SinceText(p); t != "" && LensClasses(p.Since, p.Proto) != "" {
		w.elem("span", "lens-badge", t)
	}
}

func fieldName(f guide.Field) string {
	if f.Field == decoder.FieldUnknown {
		return "Payload"
	}
	return f.Field.Info().Name
}

var layerNames = [...]string{guide.LayerMessage: "pgoutput messages", guide.LayerTupleData: "Inside changes",
	guide.LayerEnvelope: "Replication protocol", guide.LayerWire: "Frontend/backend protocol"}

// nav writes the list of the guide's entries, grouped by layer, then the versions page; the
// entry cur is aria-current. An entry the lens's release or protocol version lacks says so.
func nav(w *writer, g *guide.Guide, cur string) {
	w.elem("h2", "", "Field guide", "id", "guide-nav-title")
	w.open("ul", "guide-list")
	layer := -1
	item := func(id, name string, p decoder.Presence) {
		w.open("li", "")
		attrs := []string{"href", "#guide=" + id, "data-entry", id}
		if id == cur {
			attrs = append(attrs, "aria-current", "page")
		}
		w.open("a", LensClasses(p.Since, p.Proto), attrs...)
		w.text(name)
		badge(w, p)
		w.close("a")
		w.close("li")
	}
	for i := range g.Entries {
		e := &g.Entries[i]
		if int(e.Layer) != layer {
			layer = int(e.Layer)
			if layer < len(layerNames) {
				w.elem("li", "guide-layer", layerNames[layer], "role", "presentation")
			}
		}
		name := e.Name
		if e.Type >= 0x20 && e.Type < 0x7f {
			name = string(rune(e.Type)) + " " + name
		}
		item(e.ID, name, decoder.FieldAt(e.Group, 0, 0))
	}
	w.elem("li", "guide-layer", "Across releases", "role", "presentation")
	item(guide.VersionsPage, "Releases, options and one change in each", decoder.Presence{Exists: true})
	w.close("ul")
}

// entryName is the title of entry id, from the guide.
func entryName(g *guide.Guide, id string) string {
	if e := g.Entry(id); e != nil {
		return e.Name
	}
	return id
}

// docTitle names the documentation's section of entry e.
func docTitle(e *guide.Entry) string {
	switch {
	case e.Doc.Title != "":
		return e.Doc.Title
	case e.ID == "copydata":
		return "Message Formats, CopyData"
	case e.Layer == guide.LayerEnvelope:
		return "Streaming Replication Protocol, " + e.Name
	}
	return "Logical Replication Message Formats, " + e.Name
}

// head writes the entry's title, purpose, where it travels, its documentation link (one per
// release, the lens's shown), its byte diagram, its fields and its rules.
func head(w *writer, e *guide.Entry) {
	title := e.Name
	if e.Type >= 0x20 && e.Type < 0x7f {
		title += " ('" + string(rune(e.Type)) + "')"
	}
	w.elem("h2", "", title, "id", "guide-title")
	if p := decoder.FieldAt(e.Group, 0, 0); LensClasses(p.Since, p.Proto) != "" {
		w.elem("p", "lens-note "+LensClasses(p.Since, p.Proto),
			e.Name+" does not exist in the release or protocol version chosen: it is sent "+guide.SinceText(p)+".")
	}
	w.elem("p", "guide-purpose", e.Purpose)
	w.elem("h3", "", "Where it travels")
	w.elem("p", "", e.Travels)
	w.open("p", "guide-doc")
	for r := decoder.FirstRelease; r <= decoder.LastRelease; r++ {
		cls := "doc-r" + strconv.Itoa(r)
		if r == decoder.LastRelease {
			cls += " doc-newest" // shown when no release is chosen
		}
		w.elem("a", cls, "PostgreSQL "+strconv.Itoa(r)+" documentation: "+docTitle(e)+" ↗",
			"href", e.Doc.DocsURL(r), "rel", "noopener noreferrer", "target", "_blank")
	}
	w.close("p")
	w.elem("h3", "", "Byte layout")
	diagram(w, e)
	w.elem("h3", "", "Fields")
	fields(w, e)
	if len(e.Rules) > 0 {
		w.elem("h3", "", "Rules")
		w.open("ul", "guide-rules")
		for _, r := range e.Rules {
			w.elem("li", "", r)
		}
		w.close("ul")
	}
}

// presence is when field f exists (a payload always does).
func presence(f guide.Field) decoder.Presence {
	if f.Field == decoder.FieldUnknown {
		return decoder.Presence{Exists: true}
	}
	return decoder.FieldAt(f.Field, 0, 0)
}

// diagram draws the entry's fields as boxes in order, each as wide as its bytes (a box of
// varying size says so), the fields repeated together inside a box that says what for, an
// optional field dashed and marked "if", an alternative "or". The boxes are for the eye; a
// table beside them says the same to a screen reader.
func diagram(w *writer, e *guide.Entry) {
	pos := e.Positions()
	w.open("figure", "guide-diagram")
	w.open("div", "diagram", "aria-hidden", "true")
	var rows writer
	for i, f := range e.Fields {
		wd := f.Width()
		size := wd.Label
		if wd.Bytes > 0 {
			size = strconv.Itoa(wd.Bytes) + " byte"
			if wd.Bytes > 1 {
				size += "s"
			}
		}
		p := presence(f)
		lens := LensClasses(p.Since, p.Proto)
		if f.Repeat != "" && (i == 0 || e.Fields[i-1].Repeat != f.Repeat) {
			w.open("div", "drepeat")
			w.elem("span", "drepeat-label", "repeated per "+f.Repeat)
			w.open("div", "drepeat-boxes")
		}
		if f.Alternative {
			w.open("div", "dalt")
			w.elem("span", "dor", "or")
		}
		cls := "dbox varies"
		if wd.Bytes > 0 {
			cls = "dbox fixed w" + strconv.Itoa(wd.Bytes)
		}
		if f.Condition != "" {
			cls += " optional"
		}
		mark := ""
		if f.Condition != "" {
			mark = " if"
		}
		w.open("div", cls+" "+lens, "title", f.Condition)
		w.elem("span", "dbox-pos", pos[i]+mark)
		w.elem("span", "dbox-name", fieldName(f))
		w.elem("span", "dbox-size", size)
		badge(w, p)
		w.close("div")
		if f.Alternative {
			w.close("div")
		}
		if f.Repeat != "" && (i+1 == len(e.Fields) || e.Fields[i+1].Repeat != f.Repeat) {
			w.close("div")
			w.close("div")
		}
		present := f.Condition
		if present == "" {
			present = "always"
		}
		if f.Repeat != "" {
			present = "repeated per " + f.Repeat + "; " + present
		}
		if s := guide.SinceText(p); s != "" {
			present += "; " + s
		}
		rows.open("tr", lens)
		rows.elem("td", "", pos[i])
		rows.elem("td", "", fieldName(f))
		rows.elem("td", "", size)
		rows.elem("td", "", present)
		rows.close("tr")
	}
	w.close("div")
	// The wrapper hides the table: a table is never narrower than its content, whatever
	// its width says.
	w.open("div", "visually-hidden")
	w.open("table", "")
	w.elem("caption", "", "Byte layout of "+e.Name+", in order")
	w.raw("<thead><tr><th>Position</th><th>Field</th><th>Bytes</th><th>Present</th></tr></thead><tbody>")
	w.raw(rows.b.String())
	w.raw("</tbody></table></div>")
	w.elem("figcaption", "muted", "Each box is a field, as wide as its bytes; a dashed box is there only under a condition (if); a double right edge marks a size that varies.")
	w.close("figure")
}

// codeText writes a marker's value as the documentation does: 'K' for a printable byte.
func codeText(info *decoder.FieldInfo, code uint64) string {
	if (info.Kind == decoder.KindMarker || info.Kind == decoder.KindType) && code >= 0x20 && code < 0x7f {
		return "'" + string(rune(code)) + "'"
	}
	return strconv.FormatUint(code, 10)
}

// fields lists the entry's fields as the documentation does: position, wire format, meaning,
// the values of a marker, when the field is present, and since when it is sent.
func fields(w *writer, e *guide.Entry) {
	pos := e.Positions()
	w.open("table", "guide-fields")
	w.raw("<thead><tr><th>#</th><th>Field</th><th>Format</th><th>Meaning</th><th>Since</th></tr></thead><tbody>")
	for i, f := range e.Fields {
		info := f.Field.Info()
		format := info.Format.String()
		switch {
		case f.Field == decoder.FieldUnknown:
			format = "bytes"
		case format == "" && f.Entry != "":
			format = f.Width().Label
		}
		p := presence(f)
		w.open("tr", LensClasses(p.Since, p.Proto), "data-field", strconv.Itoa(int(f.Field)))
		w.elem("td", "", pos[i])
		name := fieldName(f)
		if f.Alternative {
			name = "or " + name
		}
		w.elem("th", "", name, "scope", "row")
		w.open("td", "")
		w.elem("code", "", format)
		w.close("td")
		w.open("td", "")
		if f.Field == decoder.FieldUnknown {
			w.elem("p", "", f.Payload)
		} else {
			w.elem("p", "", info.Meaning)
		}
		if f.Entry != "" {
			w.raw("<p>See ")
			w.elem("a", "", f.Entry, "href", "#guide="+f.Entry, "data-entry", f.Entry)
			w.raw(".</p>")
		}
		if len(info.Codes) > 0 && f.Field != decoder.FieldUnknown {
			w.open("ul", "guide-codes")
			for _, c := range info.Codes {
				cp := decoder.CodeAt(f.Field, c.Code, 0, 0)
				w.open("li", LensClasses(cp.Since, cp.Proto))
				w.elem("code", "", codeText(info, c.Code))
				w.text(" " + c.Name + ": " + c.Meaning)
				if cp.Since > p.Since {
					badge(w, cp)
				}
				w.close("li")
			}
			w.close("ul")
		}
		if f.Condition != "" {
			w.elem("p", "guide-cond", "Present "+f.Condition+".")
		}
		w.close("td")
		// The column says since when in words; the version lens marks the row itself.
		w.elem("td", "guide-since", guide.SinceText(p))
		w.close("tr")
	}
	w.raw("</tbody></table>")
}

var changeKinds = [...]string{guide.ChangeBytes: "bytes", guide.ChangeOption: "option", guide.ChangeWording: "wording"}

// tail writes what changed in each release (a change after the lens's release is marked as
// not there yet) and the related entries.
func tail(w *writer, g *guide.Guide, e *guide.Entry) {
	if len(e.Changes) > 0 {
		w.elem("h3", "", "What changed, release by release", "id", "guide-changes-title")
		w.open("table", "guide-changes")
		w.raw("<thead><tr><th>Release</th><th>Kind</th><th>Change</th></tr></thead><tbody>")
		for _, c := range e.Changes {
			when := c.When()
			if c.Proto > 0 {
				when += ", protocol " + strconv.Itoa(c.Proto)
			}
			what := c.Text
			if c.Field != decoder.FieldUnknown {
				what = c.Field.Info().Name + ": " + what
			}
			kind := "?"
			if int(c.Kind) < len(changeKinds) {
				kind = changeKinds[c.Kind]
			}
			w.open("tr", LensClasses(c.Release, c.Proto))
			w.open("td", "")
			w.text(when)
			if LensClasses(c.Release, c.Proto) != "" {
				w.elem("span", "lens-badge lens-only", "not yet")
			}
			w.close("td")
			w.elem("td", "", kind)
			w.elem("td", "", what)
			w.close("tr")
		}
		w.raw("</tbody></table>")
	}
	if len(e.Related) > 0 {
		w.elem("h3", "", "Related")
		w.open("ul", "guide-related")
		for _, id := range e.Related {
			w.open("li", "")
			w.elem("a", "", entryName(g, id), "href", "#guide="+id, "data-entry", id)
			w.close("li")
		}
		w.close("ul")
	}
}

// versions writes the page across releases: what each release accepts, what each option
// changes in the bytes, and the same change captured from servers of several releases, text
// and binary, field beside field.
func versions(w *writer, g *guide.Guide) {
	w.elem("h2", "", "Releases, options and one change in each", "id", "guide-title")
	w.elem("h3", "", "What each release accepts")
	w.open("table", "guide-releases")
	w.raw("<thead><tr><th>Release</th><th>Highest protocol</th><th>Options</th><th>What changed</th></tr></thead><tbody>")
	for _, r := range g.Releases {
		w.open("tr", "rel-"+strconv.Itoa(r.Release))
		w.open("th", "", "scope", "row")
		w.text("PostgreSQL " + strconv.Itoa(r.Release))
		w.elem("span", "lens-badge lens-cur", "lens")
		w.close("th")
		w.elem("td", "", strconv.Itoa(r.MaxProto))
		w.elem("td", "", strings.Join(r.Options, ", "))
		w.elem("td", "", r.Summary)
		w.close("tr")
	}
	w.raw("</tbody></table>")
	w.elem("h3", "", "Options and what they change in the bytes")
	w.open("table", "guide-options")
	w.raw("<thead><tr><th>Option</th><th>Values</th><th>Default</th><th>Since</th><th>In the bytes</th><th>Later</th></tr></thead><tbody>")
	for _, o := range g.Options {
		w.open("tr", LensClasses(o.Since, o.Proto))
		w.open("th", "", "scope", "row")
		w.elem("code", "", o.Name)
		badge(w, decoder.Presence{Since: o.Since, Proto: o.Proto})
		w.close("th")
		w.elem("td", "", o.Values)
		def := o.Default
		if def == "" {
			def = "required"
		}
		w.elem("td", "", def)
		since := "PostgreSQL " + strconv.Itoa(o.Since)
		if o.Proto > 1 {
			since += ", protocol " + strconv.Itoa(o.Proto)
		}
		w.elem("td", "", since)
		w.elem("td", "", o.Bytes)
		var later []string
		for _, c := range o.Changes {
			later = append(later, strconv.Itoa(c.Release)+": "+c.Text)
		}
		w.elem("td", "", strings.Join(later, " "))
		w.close("tr")
	}
	w.raw("</tbody></table>")
	compare(w, g)
}

// compare writes, for each message type of the compared transaction, a table: a row per
// capture (server, mode), a column per field of the message (by its place in the tree), each
// cell the field's bytes and value. The first table is open; the others are a click away.
// The option captures follow (options).
func compare(w *writer, g *guide.Guide) {
	w.elem("h3", "", "The same change from each release", "id", "guide-compare-title")
	var releases []guide.Comparison
	for _, c := range g.Comparisons {
		if c.Setting == "" {
			releases = append(releases, c)
		}
	}
	if len(releases) == 0 {
		w.elem("p", "muted", "No captures to compare yet.")
	} else {
		w.elem("p", "", "One transaction captured from real servers of each release, in text and binary mode. Each row is one server's bytes of the message, field beside field.")
		compareTables(w, releases, [2]string{"Server", "Mode"}, func(c guide.Comparison) (string, string) {
			mode := "text"
			if c.Binary {
				mode = "binary"
			}
			return c.Server, mode + ", protocol " + strconv.Itoa(c.Proto)
		}, true)
	}
	options(w, g)
}

// optionTexts says, per option the captures show, what to look for.
var optionTexts = map[string]string{
	"streaming":         "A transaction too big for logical_decoding_work_mem (64kB here): the one-row change, then a savepoint, 600 rows and a rollback to the savepoint. Off, it comes whole at commit as Begin … Commit (the rolled-back rows never sent). On, it comes as it is decoded, between Stream Start and Stream Stop, each change carrying the transaction's Xid, the subtransaction's rollback as a Stream Abort and the end as a Stream Commit. Parallel (16) adds the abort LSN and timestamp to Stream Abort.",
	"two_phase":         "The one-row change ended by PREPARE TRANSACTION, then COMMIT PREPARED. Off, it comes at COMMIT PREPARED as Begin … Commit. On, it comes at PREPARE as Begin Prepare … Prepare, carrying the GID, and COMMIT PREPARED sends Commit Prepared.",
	"origin":            "The one-row change made in a session with a replication origin set (as a subscription's apply worker does), then a last one-row change without one. Any sends both, the first with an Origin message after its Begin; none leaves out the change that has an origin.",
	"publication_names": "The one-row change with a row into a second table, bulk, between its Insert and Update, through a publication of both tables (pub_lens), of accounts only (pub_accounts) and of bulk only (pub_bulk). Only the changes of the tables the publications name are sent, each table's Relation before its first change; the transaction's Begin and Commit come either way.",
	"proto_version":     "The one-row change at each protocol version PostgreSQL 16 accepts, no other option set. Its bytes are the same at all four: proto_version changes no message by itself. It decides which options the server accepts (streaming from 2, two_phase from 3, streaming=parallel from 4), and those change the bytes, as the other captures here show.",
	"messages":          "pg_logical_emit_message outside any transaction, then inside the one-row change. On, each is a Message: the first alone (flags 0), the second between the change's Insert and Update (flags 1, transactional). Off, neither is sent.",
}

// options writes, per option and release, the same change captured with the option set each
// way: the messages in order, then a table per message type as compare's.
func options(w *writer, g *guide.Guide) {
	type group struct {
		name    string
		release int
		comps   []guide.Comparison
	}
	var groups []*group
	for _, c := range g.Comparisons {
		if c.Setting == "" {
			continue
		}
		name, _, _ := strings.Cut(c.Setting, "=")
		var gr *group
		for _, x := range groups {
			if x.name == name && x.release == c.Release {
				gr = x
			}
		}
		if gr == nil {
			gr = &group{name: name, release: c.Release}
			groups = append(groups, gr)
		}
		gr.comps = append(gr.comps, c)
	}
	if len(groups) == 0 {
		return
	}
	w.elem("h3", "", "What each option changes, on the same change", "id", "guide-options-compare-title")
	w.elem("p", "", "The same change captured from one real server with an option set each way: the messages in order, then each message's bytes, field beside field. The change is the one above, an Insert and an Update of one row, with what the option needs around it.")
	for _, gr := range groups {
		w.open("section", "option-compare")
		w.open("h4", "")
		w.elem("code", "", gr.name)
		w.text(" on PostgreSQL " + strconv.Itoa(gr.release))
		w.close("h4")
		w.elem("p", "", optionTexts[gr.name])
		w.open("table", "guide-option-messages")
		w.raw("<thead><tr><th>Setting</th><th>Messages in order</th></tr></thead><tbody>")
		for _, c := range gr.comps {
			w.open("tr", "")
			w.open("th", "", "scope", "row", "title", c.Server+": "+c.Options)
			w.elem("code", "", c.Setting)
			w.close("th")
			w.elem("td", "", messageOrder(c.Text))
			w.close("tr")
		}
		w.raw("</tbody></table>")
		compareTables(w, gr.comps, [2]string{"Setting", "Server"}, func(c guide.Comparison) (string, string) {
			return c.Setting, c.Server + ", protocol " + strconv.Itoa(c.Proto)
		}, false)
		w.close("section")
	}
}

// messageOrder names the messages of a capture in order, a run of one type counted: "Stream
// Start, Relation, Insert ×2, Stream Stop". (The comparisons carry no keepalives: scripts/guide
// leaves them out of the asset.)
func messageOrder(text string) string {
	d, _ := web.NewDoc(text, input.Auto, decoder.Options{}, -1)
	if d == nil {
		return ""
	}
	var out []string
	last, run := "", 0
	flush := func() {
		if run > 1 {
			out[len(out)-1] += " ×" + strconv.Itoa(run)
		}
	}
	for _, sm := range d.Summaries {
		if sm.Name == last {
			run++
			continue
		}
		flush()
		out = append(out, sm.Name)
		last, run = sm.Name, 1
	}
	flush()
	return strings.Join(out, ", ")
}

// compareTables writes, for each message type of comps, a table of one row per capture (heads
// names the first two columns, row gives a capture's heading and second cell) and a column per field, as compare describes; with
// openFirst the first table is open.
func compareTables(w *writer, comps []guide.Comparison, heads [2]string, row func(guide.Comparison) (string, string), openFirst bool) {
	docs := make([]*web.Doc, len(comps))
	var types []string
	for k, c := range comps {
		docs[k], _ = web.NewDoc(c.Text, input.Auto, decoder.Options{}, -1)
		if docs[k] == nil {
			continue
		}
		for _, sm := range docs[k].Summaries {
			if !contains(types, sm.Name) {
				types = append(types, sm.Name)
			}
		}
	}
	for n, name := range types {
		var cols []string
		colOf := map[string]int{}
		cells := make([]map[int]string, len(docs))
		for k, d := range docs {
			if d == nil {
				continue
			}
			m := messageNamed(d, name)
			if m < 0 {
				continue
			}
			t := d.Trees[m]
			cells[k] = map[int]string{}
			if t.Message < 0 {
				continue
			}
			for i := t.Message; i < int(t.Nodes[t.Message].End); i++ {
				if !t.IsLeaf(i) {
					continue
				}
				key := web.LabelText(t, i, web.MaxRowText)
				if p := t.Parent(i); p > t.Message {
					key = web.LabelText(t, p, web.MaxRowText) + " › " + key
				}
				c, ok := colOf[key]
				if !ok {
					c = len(cols)
					colOf[key] = c
					cols = append(cols, key)
				}
				nd := &t.Nodes[i]
				var cell writer
				cell.open("td", "k-cell "+web.ClassOf(nd.Field.Info().Kind).String(), "title", key)
				cell.elem("code", "", hexText(t.Bytes[nd.Offset:nd.Offset+nd.Length], 12))
				cell.raw("<br>")
				cell.text(web.ValueText(t, i, 40))
				cell.close("td")
				cells[k][c] = cell.b.String()
			}
		}
		if n == 0 && openFirst {
			w.raw(`<details class="compare" open>`)
		} else {
			w.raw(`<details class="compare">`)
		}
		w.elem("summary", "", name)
		w.open("div", "compare-scroll")
		w.open("table", "guide-compare-table")
		w.raw("<thead><tr><th>" + heads[0] + "</th><th>" + heads[1] + "</th>")
		for _, c := range cols {
			w.elem("th", "", c, "scope", "col")
		}
		w.raw("</tr></thead><tbody>")
		for k, c := range comps {
			head, second := row(c)
			w.open("tr", "")
			w.open("th", "", "scope", "row", "title", c.Options)
			w.text(head)
			w.close("th")
			w.elem("td", "", second)
			for j := range cols {
				if s, ok := cells[k][j]; ok {
					w.raw(s)
				} else {
					w.elem("td", "muted", "—")
				}
			}
			w.close("tr")
		}
		w.raw("</tbody></table></div></details>")
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// messageNamed returns the index of the first message of d called name ("Insert"), or -1.
func messageNamed(d *web.Doc, name string) int {
	for i := range d.Summaries {
		if d.Summaries[i].Name == name {
			return i
		}
	}
	return -1
}

// hexText writes up to limit bytes of b as hex, a blank between bytes, "…" when b is longer.
func hexText(b []byte, limit int) string {
	n := min(len(b), limit)
	out := make([]byte, 0, 3*n+3)
	for i, c := range b[:n] {
		if i > 0 {
			out = append(out, ' ')
		}
		out = append(out, pgvalue.HexDigits[c>>4], pgvalue.HexDigits[c&15])
	}
	if len(b) > n {
		out = append(out, " …"...)
	}
	return string(out)
}
