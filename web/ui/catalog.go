package ui

import (
	"strconv"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"

	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/hexview"
	"pgoutput-inspector/web"
)

// catalogToggle is the message list's "Relations" button: the relations and types the stream
// described, in the tree's place.
func catalogToggle(on, can bool, d Dispatch) *vecty.HTML {
	return elem.Button(markup(class("catalog-toggle"), attr("aria-pressed", strconv.FormatBool(on)),
		prop("disabled", !can),
		attr("title", "Every Relation and Type message so far: columns, types, key flags and which messages used each"),
		onClick(func(*vecty.Event) { d(web.ShowCatalog{On: !on}) })),
		text("Relations"))
}

// CatalogView lists the stream's Relation and Type messages, drawing only the rows in view: a
// heading per message (a relation's is a button that filters the list to it), a row per
// column, and the messages that used it.
type CatalogView struct {
	vecty.Core
	Catalog  *web.Catalog     `vecty:"prop"`
	View     hexview.Viewport `vecty:"prop"`
	Dispatch Dispatch         `vecty:"prop"`

	box   *vecty.HTML
	watch sizeWatch
}

// Mount implements vecty.Mounter.
func (v *CatalogView) Mount() {
	v.watch.start(v.box.Node(), func(h int) { reportHeight(web.PanelCatalog, v.box, v.View, h, v.Dispatch) })
}

// Unmount implements vecty.Unmounter.
func (v *CatalogView) Unmount() { v.watch.stop() }

// SkipRender implements vecty.RenderSkipper.
func (v *CatalogView) SkipRender(prev vecty.Component) bool {
	o, ok := prev.(*CatalogView)
	return ok && o.Catalog == v.Catalog && o.View == v.View
}

// Render implements vecty.Component.
func (v *CatalogView) Render() vecty.ComponentOrHTML {
	c := v.Catalog
	first, n := v.View.Window(len(c.Rows), hexview.Overscan)
	items := make([]vecty.MarkupOrChild, n+1)
	items[0] = markup(class("vspace"), style("height", px(len(c.Rows)*hexview.RowHeight)))
	for k := first; k < first+n; k++ {
		items[1+k%n] = catalogRow(c, k)
	}
	rels, types := 0, 0
	for i := range c.Entries {
		if c.Entries[i].Relation != nil {
			rels++
		} else {
			types++
		}
	}
	sum := plural(rels, "Relation message", "Relation messages") + ", " + plural(types, "Type message", "Type messages")
	if len(c.Entries) > 0 {
		sum += ". A relation's name filters the list to it."
	}
	v.box = div(markup(class("vlist", "catalog-list"), attr("tabindex", "0"), attr("aria-label", "relations and types"),
		event.Scroll(onScroll(web.PanelCatalog, v.View, len(c.Rows), v.Dispatch)),
		onClick(func(e *vecty.Event) {
			if oid, ok := dataOf(e, "oid"); ok {
				v.Dispatch(web.SetFilter{Query: "rel:" + strconv.Itoa(oid)})
			}
		}),
		// Enter or Space on a relation's button filters as a click does, in every browser
		// (Firefox driven by WebDriver BiDi did not turn Enter into a click).
		event.KeyDown(func(e *vecty.Event) {
			if k := e.Value.Get("key").String(); k == "Enter" || k == " " {
				if oid, ok := dataOf(e, "oid"); ok {
					e.Value.Call("preventDefault")
					v.Dispatch(web.SetFilter{Query: "rel:" + strconv.Itoa(oid)})
				}
			}
		})),
		div(items...))
	return div(markup(class("catalog")), paragraph(markup(class("catalog-sum")), text(sum)), v.box)
}

// catalogRow draws row k: every kind has a first cell (a button for a relation's heading) and
// a second, so that a slot holds any row.
func catalogRow(c *web.Catalog, k int) *vecty.HTML {
	r := c.Rows[k]
	e := &c.Entries[r.Entry]
	kind, a, aTitle, b, bTitle := "cat-head", "", "", "", ""
	var first *vecty.HTML
	switch {
	case r.Column == web.RowHeading:
		oid, name := uint32(0), ""
		if rel := e.Relation; rel != nil {
			oid, name = rel.OID, pgvalue.SafeText(rel.QualifiedName())
			b = " · replica identity " + web.IdentityName(rel.ReplicaIdentity)
		} else {
			oid, name = e.Type.OID, pgvalue.SafeText(e.Type.Name)
			if e.Type.Namespace != "" {
				name = pgvalue.SafeText(e.Type.Namespace) + "." + name
			}
		}
		id := strconv.FormatUint(uint64(oid), 10)
		b = "OID " + id + b + " · message " + strconv.Itoa(e.Msg+1)
		if e.Relation != nil {
			first = elem.Button(markup(class("cat-a", "cat-rel"), data("oid", id),
				attr("title", "Show the messages of "+name+" (rel:"+id+")"), prop("textContent", "R "+name)))
		} else {
			a, aTitle = "Y "+name, "Type "+name
		}
	case r.Column == web.RowUsers:
		kind, a, b = "cat-users", "used by", "not used yet"
		if e.Used > 0 {
			b = plural(e.Used, "message", "messages") + ":"
			for _, m := range e.First {
				b += " " + strconv.Itoa(m+1)
			}
			if e.Used > len(e.First) {
				b += " …"
			}
		}
	default:
		col := &e.Relation.Columns[r.Column]
		kind, a = "cat-col", pgvalue.SafeText(col.Name)
		b = "OID " + strconv.FormatUint(uint64(col.TypeOID), 10)
		if col.TypeName != "" {
			b = pgvalue.SafeText(col.TypeName)
		}
		if col.TypeModifier != -1 {
			b += " typmod " + strconv.FormatInt(int64(col.TypeModifier), 10) + string(pgvalue.AppendTypmod(nil, col.TypeOID, col.TypeModifier))
		}
		aTitle = "column " + strconv.Itoa(int(r.Column)+1) + " " + a + ": " + b
		if col.Key {
			aTitle += ", part of the replica identity key"
		}
		bTitle = aTitle
		first = span(markup(class("cat-a"), vecty.ClassMap{"is-key": col.Key}, attr("title", aTitle), prop("textContent", a)))
	}
	if first == nil {
		first = span(markup(class("cat-a"), attr("title", aTitle), prop("textContent", a)))
	}
	if bTitle == "" {
		bTitle = b
	}
	return div(markup(class("vrow", "cat-row", kind), style("top", px(k*hexview.RowHeight))),
		first, span(markup(class("cat-b"), attr("title", bTitle), prop("textContent", b))))
}
