package ui

import (
	"strconv"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/event"

	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/hexview"
	"pgoutput-inspector/web"
)

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
	v.watch.start(v, v.box.Node(), func(h int) bool { return reportHeight(web.PanelCatalog, v.box, v.View, h, v.Dispatch) })
}

// Unmount implements vecty.Unmounter.
func (v *CatalogView) Unmount() { v.watch.stop() }

// SkipRender implements vecty.RenderSkipper.
func (v *CatalogView) SkipRender(prev vecty.Component) bool {
	o, ok := prev.(*CatalogView)
	return ok && !v.watch.bare() && o.Catalog == v.Catalog && o.View == v.View
}

// Render implements vecty.Component.
func (v *CatalogView) Render() vecty.ComponentOrHTML {
	c := v.Catalog
	first, n := v.View.Window(len(c.Rows), hexview.Overscan)
	n = v.watch.rows(n)
	items := make([]vecty.MarkupOrChild, n+1)
	items[0] = markup(class("vspace"), style("height", px(len(c.Rows)*hexview.RowHeight)))
	for k := first; k < first+n; k++ {
		items[1+k%n] = catalogRow(c, k)
	}
	rels, types, before := 0, 0, 0
	for i := range c.Entries {
		switch {
		case c.Entries[i].Msg < 0:
			before++
		case c.Entries[i].Relation != nil:
			rels++
		default:
			types++
		}
	}
	sum := countOf(rels, "Relation message", "Relation messages") + ", " + countOf(types, "Type message", "Type messages")
	if before > 0 {
		sum += ", " + countOf(before, "relation or type", "relations and types") + " defined in the parts before"
	}
	if len(c.Entries) > 0 {
		sum += ". A relation's name filters the list to it."
	}
	v.box = div(markup(class("vlist", "catalog-list"), attr("tabindex", "0"), attr("aria-label", "relations and types"),
		event.Scroll(onScroll(web.PanelCatalog, v.View, len(c.Rows), v.Dispatch)),
		onClick(func(e *vecty.Event) { v.filter(e) }),
		// Enter or Space on a relation's button filters as a click does, in every browser
		// (Firefox driven by WebDriver BiDi did not turn Enter into a click).
		event.KeyDown(func(e *vecty.Event) {
			if k := e.Value.Get("key").String(); k == "Tab" {
				v.tab(e, first, n)
			} else if (k == "Enter" || k == " ") && v.filter(e) {
				e.Value.Call("preventDefault")
			}
		})),
		div(items...))
	return div(markup(class("catalog")), paragraph(markup(class("catalog-sum")), text(sum)), v.box)
}

// filter filters the list to the relation whose button the event happened on, if any.
func (v *CatalogView) filter(e *vecty.Event) bool {
	oid, ok := dataOf(e, "oid")
	if ok {
		v.Dispatch(web.SetFilter{Query: "rel:" + strconv.Itoa(oid)})
	}
	return ok
}

// tab moves the focus to the next relation's button on screen (Shift+Tab: the previous one)
// among the rows drawn, first to first+n-1: the rows sit in slots, so the buttons' order in
// the document is not the screen's. The buttons are out of the document's Tab order
// (tabindex -1), so that past the last one the browser's Tab leaves the list, and before the
// first its Shift+Tab goes to the box.
func (v *CatalogView) tab(e *vecty.Event, first, n int) {
	c := v.Catalog
	k, onButton := dataOf(e, "row")
	step := 1
	if e.Value.Get("shiftKey").Bool() {
		if !onButton {
			return
		}
		step = -1
	} else if !onButton {
		k = first - 1
	}
	for k += step; k >= first && k < first+n; k += step {
		if r := c.Rows[k]; r.Column == web.RowHeading && c.Entries[r.Entry].Relation != nil {
			if b := v.box.Node().Call("querySelector", `[data-row="`+strconv.Itoa(k)+`"]`); b.Truthy() {
				e.Value.Call("preventDefault")
				b.Call("focus")
			}
			return
		}
	}
}

// catalogRow draws row k: every kind has a first cell (a button for a relation's heading) and
// a second, so that a slot holds any row.
func catalogRow(c *web.Catalog, k int) *vecty.HTML {
	r := c.Rows[k]
	e := &c.Entries[r.Entry]
	kind, tag, a, aTitle, b, bTitle, key := "cat-head", "span", "", "", "", "", false
	var rel vecty.MarkupList // a relation's button
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
		where := " · message " + strconv.Itoa(e.Msg+1)
		if e.Msg < 0 {
			where = " · defined in the parts before" // of a big file (web.Before)
		}
		b = "OID " + id + b + where
		a, aTitle = "Y "+name, "Type "+name
		if e.Relation != nil {
			tag, a, aTitle = "button", "R "+name, "Show the messages of "+name+" (rel:"+id+")"
			rel = markup(class("cat-rel"), data("oid", id), data("row", strconv.Itoa(k)), attr("tabindex", "-1"))
		}
	case r.Column == web.RowUsers:
		kind, a, b = "cat-users", "used by", "not used yet"
		if e.Used > 0 {
			b = countOf(e.Used, "message", "messages") + ":"
			for _, m := range e.First {
				b += " " + strconv.Itoa(m+1)
			}
			if e.Used > len(e.First) {
				b += " …"
			}
		}
		if e.Again >= 0 {
			if e.Used == 0 {
				b = "none"
			}
			b += "; then described again by message " + strconv.Itoa(e.Again+1)
		}
	default:
		col := &e.Relation.Columns[r.Column]
		kind, a, key = "cat-col", pgvalue.SafeText(col.Name), col.Key
		b = "OID " + strconv.FormatUint(uint64(col.TypeOID), 10)
		if col.TypeName != "" {
			b = pgvalue.SafeText(col.TypeName)
		}
		if col.TypeModifier != -1 {
			b += " typmod " + strconv.FormatInt(int64(col.TypeModifier), 10) + string(pgvalue.AppendTypmod(nil, col.TypeOID, col.TypeModifier))
		}
		aTitle = "column " + strconv.Itoa(int(r.Column)+1) + " " + a + ": " + b
		if key {
			aTitle += ", part of the replica identity key"
		}
		bTitle = aTitle
	}
	if bTitle == "" {
		bTitle = b
	}
	return div(markup(class("vrow", "cat-row", kind), style("top", px(k*hexview.RowHeight))),
		vecty.Tag(tag, markup(class("cat-a"), vecty.ClassMap{"is-key": key}, attr("title", aTitle), prop("textContent", a), rel)),
		span(markup(class("cat-b"), attr("title", bTitle), prop("textContent", b))))
}
