package ui

import (
	"strconv"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/hexview"
	"pgoutput-inspector/internal/guide"
	"pgoutput-inspector/web"
)

// Description explains one node: its field's name, wire format, meaning, since which release
// and protocol version, its codes, and where its bytes are.
type Description struct {
	vecty.Core
	Tree *decoder.Tree `vecty:"prop"`
	Node int32         `vecty:"prop"`
	Lens guide.Lens    `vecty:"prop"`
	// Edit is the edit controls of the selected node, drawn above its description (edit.go).
	Edit     *web.EditView `vecty:"prop"`
	Dispatch Dispatch      `vecty:"prop"`
}

// SkipRender implements vecty.RenderSkipper.
func (d *Description) SkipRender(prev vecty.Component) bool {
	o, ok := prev.(*Description)
	return ok && o.Tree == d.Tree && o.Node == d.Node && o.Lens == d.Lens && o.Edit == d.Edit
}

// Render implements vecty.Component.
func (d *Description) Render() vecty.ComponentOrHTML {
	// The panel scrolls when the description is longer than it: it takes the focus, so that
	// the keyboard can scroll it too (it holds nothing else that could).
	sec := markup(class("panel", "desc-panel"), attr("aria-label", "description"),
		attr("aria-live", "polite"), attr("tabindex", "0"))
	t := d.Tree
	if t == nil || d.Node < 0 || int(d.Node) >= len(t.Nodes) {
		return section(sec, editor(d.Edit, d.Dispatch), heading2(text("Field")),
			paragraph(markup(class("muted")),
				text("Point at bytes or at a field to see what it is; click to select it.")))
	}
	i := int(d.Node)
	n := &t.Nodes[i]
	info := n.Field.Info()
	var facts []vecty.MarkupOrChild
	fact := func(name, value string) {
		if value != "" {
			facts = append(facts, elem.DefinitionTerm(text(name)), elem.Description(text(value)))
		}
	}
	fact("Part of", info.Of)
	format := info.Format.String()
	if format == "" {
		format = "group"
	}
	fact("Wire format", format)
	fact("Kind", info.Kind.String())
	fact("Bytes", "offset "+strconv.Itoa(n.Offset)+", length "+strconv.Itoa(n.Length))
	var since string
	if info.Since > 0 {
		since = "PostgreSQL " + strconv.Itoa(int(info.Since))
	}
	if info.Proto > 0 {
		if since != "" {
			since += ", "
		}
		since += "protocol version " + strconv.Itoa(int(info.Proto))
	}
	fact("Since", since)
	fact("Version lens", lensText(d.Lens, d.Lens.Absent(t, i)))
	if t.IsLeaf(i) {
		fact("Value", web.ValueText(t, i, web.MaxDescriptionText))
	}
	if c := t.Column(i); c != nil && t.ValueOf(i).Kind == decoder.ValueColumn {
		typ := strconv.FormatUint(uint64(c.TypeOID), 10)
		if c.TypeName != "" {
			typ = c.TypeName + " (OID " + typ + ")"
		}
		fact("Column type", typ)
	}
	children := []vecty.MarkupOrChild{sec, editor(d.Edit, d.Dispatch),
		heading2(markup(class("desc-name")), text(web.LabelText(t, i, web.MaxDescriptionText))),
		paragraph(markup(class("desc-meaning")), text(info.Meaning)),
		elem.DescriptionList(append([]vecty.MarkupOrChild{markup(class("desc-facts"))}, facts...)...),
	}
	if len(info.Codes) > 0 {
		rows := []vecty.MarkupOrChild{markup(class("desc-codes"))}
		for _, c := range info.Codes {
			code := strconv.FormatUint(c.Code, 10)
			if info.Kind == decoder.KindMarker || info.Kind == decoder.KindType {
				if c.Code >= 0x20 && c.Code < 0x7f {
					code = "'" + string(rune(c.Code)) + "'"
				}
			}
			current := t.IsLeaf(i) && (t.ValueOf(i).Num == c.Code ||
				(t.ValueOf(i).Kind == decoder.ValueFlags && c.Code != 0 && t.ValueOf(i).Num&c.Code == c.Code))
			rows = append(rows, elem.TableRow(markup(vecty.ClassMap{"current": current}),
				tableData(elem.Code(text(code))),
				tableData(text(c.Name)),
				tableData(text(c.Meaning))))
		}
		children = append(children, elem.Table(elem.TableBody(rows...)))
	}
	if i == t.Message && t.Reading.Note != "" {
		children = append(children, paragraph(markup(class("reading-note")), text(t.Reading.Note)))
	}
	return section(children...)
}

// MessageNotes shows, under the chosen message's bytes, its decoding error (clicking it selects
// the offending bytes) and the notes to read with it: how an ambiguous message was read, a
// Relation message missing from the input. The region has a bounded height and scrolls, so the
// hex view above it never moves.
type MessageNotes struct {
	vecty.Core
	Tree     *decoder.Tree `vecty:"prop"`
	Dispatch Dispatch      `vecty:"prop"`
}

// SkipRender implements vecty.RenderSkipper.
func (b *MessageNotes) SkipRender(prev vecty.Component) bool {
	o, ok := prev.(*MessageNotes)
	return ok && o.Tree == b.Tree
}

// Render implements vecty.Component.
func (b *MessageNotes) Render() vecty.ComponentOrHTML {
	items := []vecty.MarkupOrChild{markup(class("msg-msgs"))}
	t := b.Tree
	if t == nil {
		return div(items...)
	}
	if e := t.Err; e != nil {
		sel := hexview.Range{Offset: e.Offset, Length: max(len(t.Bytes)-e.Offset, 0)}
		items = append(items, div(markup(class("error-box", "decode-error"), attr("role", "alert"),
			data("offset", strconv.Itoa(e.Offset)),
			attr("title", "Select the bytes from the error on"),
			actionable(func() { b.Dispatch(web.SelectBytes{Sel: sel, ID: -1}) })),
			text(web.Cut(e.Error(), web.MaxDescriptionText))))
	}
	for _, n := range t.Notes() {
		items = append(items, paragraph(markup(class("reading-note")), text(web.Cut(n, web.MaxDescriptionText))))
	}
	return div(items...)
}
