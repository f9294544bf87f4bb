// Package render draws a hexview.Model in the browser with vecty.
//
// A page keeps the model and the marks in its state and hands them down; the View reports the
// pointer and the selection back up:
//
//	&render.View{
//		Model:    model,                                   // hexview.New(bytes, spans, 0)
//		Marks:    hexview.Marks{Selection: sel, Hover: hov},
//		OnHover:  func(f hexview.Field, ok bool) { ... },  // f.ID: the caller's node id
//		OnSelect: func(sel hexview.Range, f hexview.Field) { ... },
//	}
//
// with hexview/hexview.css on the page. The box takes the height the page's CSS gives it (or
// Height).
//
// It is apart from package hexview so that the model's tests run natively and under Node:
// vecty refuses to start outside a browser, which ends any program that links it. This
// package compiles everywhere (go vet works natively); its tests run under GOOS=js only, see
// render_test.go, and in headless Chromium, see package browser.
package render

import (
	"strconv"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"

	"pgoutput-inspector/hexview"
)

// MaxHeight bounds the height the View draws rows for, so that a box the page forgot to bound
// (as tall as all its rows) still gets a screenful of rows rather than all of them.
const MaxHeight = 4096

// View draws a hexview.Model as a scrolling hex dump: an offset column, the bytes in hex and
// the bytes as ASCII, each run of bytes tinted by its class (see hexview/hexview.css).
//
// Only the rows in view (plus Overscan rows either side) are in the DOM, inside a spacer as
// tall as all the rows, so the number of DOM nodes does not grow with the input. Each row
// keeps its slot while scrolling and a row whose content did not change is not redrawn.
//
// The scroll position is the View's own: it changes many times a second and lives in the DOM.
// Whenever the selection changes, the View scrolls just enough to bring it into view, so
// selecting a tree node shows its bytes. Pointer and keyboard events are handled once on the
// scroll box (not per row), and reported through OnHover and OnSelect; the View never changes
// its props itself.
type View struct {
	vecty.Core
	// Model is the layout to draw; nil draws an empty box.
	Model *hexview.Model `vecty:"prop"`
	// Marks are the selected and hovered bytes.
	Marks hexview.Marks `vecty:"prop"`
	// Height is the height of the scroll box in CSS pixels. When 0 the page's CSS sizes the box
	// and the View measures it.
	Height int `vecty:"prop"`
	// Overscan is the number of rows drawn beyond each edge (hexview.Overscan when 0; negative
	// for none).
	Overscan int `vecty:"prop"`
	// OnHover, when set, is called when the pointer moves onto another field (ok true) or off
	// the bytes (ok false).
	OnHover func(f hexview.Field, ok bool) `vecty:"prop"`
	// OnSelect, when set, is called with the new selection: the field pressed on with the
	// mouse's main button or moved to with the arrow keys, or with Shift held, the selection
	// grown to take it in; dragging grows it field by field. Escape calls it with an empty
	// selection and a field with Span hexview.NoSpan. The keys work while the box has the
	// focus; so does copying (Ctrl+C), which copies the selected bytes as hex.
	OnSelect func(sel hexview.Range, f hexview.Field) `vecty:"prop"`
	// Reveal, when it changes, brings the selection into view even if the selection did not
	// change (the same tree node chosen again after scrolling away).
	Reveal int `vecty:"prop"`
	// Label names the bytes for assistive technology ("bytes" when empty).
	Label string `vecty:"prop"`
	// Shown tells what the bytes are: when it changes, the View shows other bytes (another
	// message) and starts at the top, unless a selection is to be shown; a new Model with the
	// same Shown is the same bytes decoded again (after an edit), and the View keeps its place.
	Shown int `vecty:"prop"`

	// The scroll position and the box's height are kept up to date by the scroll event and a
	// ResizeObserver, so that Render never reads the DOM (which would force a layout).
	top       int            // the box's scrollTop
	measured  int            // the box's clientHeight, when Height is 0
	mounted   bool           // box's DOM node exists
	box       *vecty.HTML    // the scroll box as last rendered
	spacer    *vecty.HTML    // the spacer as last rendered
	pendingTo int            // scrollTop to set once mounted (0: none)
	revealed  hexview.Range  // the selection last brought into view
	revealIn  *hexview.Model // the model it was brought into view in
	revealSeq int            // Reveal then
	shownSeq  int            // Shown then
	ownSel    hexview.Range  // the selection the View last asked for through OnSelect
	ownField  hexview.Range  // the field it moved to then: what to bring into view
	hovered   hexview.Field  // the field last reported to OnHover
	hoverOK   bool
	dragging  bool           // the main button went down on a field and is still down
	anchor    hexview.Range  // the selection made by that press
	empty     *hexview.Model // drawn when Model is nil
	dom       domWatch       // the box's size and the document's copy event
	probe     *vecty.HTML    // ten characters of the box's font, to measure one, as last rendered
	chars     int            // how many characters fit across the box (0: not measured)
	fitted    *hexview.Model // the model laid out in rows that fit the box
	fittedOf  *hexview.Model // the model it was made from
	refit     bool           // the rows changed width: scroll to top, where the same bytes are
}

// Mount implements vecty.Mounter: it applies a scroll position chosen before the box existed
// (a selection given with the first render, as from a share link) and starts watching the
// box's height.
func (v *View) Mount() {
	v.mounted = true
	node := v.box.Node()
	if v.pendingTo > 0 {
		node.Set("scrollTop", v.pendingTo)
		v.pendingTo = 0
	}
	v.dom.start(v)
}

// Unmount implements vecty.Unmounter.
func (v *View) Unmount() {
	v.mounted = false
	v.dom.stop()
}

// resized is called with the box's new height (0 for unknown) and how many characters fit
// across it (0 for unknown); it redraws when the rows in view, or the bytes a row shows,
// change. When rows get narrower or wider, the byte at the top of the box stays at the top.
func (v *View) resized(height, chars int) {
	old, oldModel := v.viewport(), v.model()
	if v.Height <= 0 {
		v.measured = height
	}
	v.chars = chars
	m := v.model()
	if m != oldModel {
		first := old.Top / hexview.RowHeight * oldModel.Width()
		v.top = m.RowOf(first) * hexview.RowHeight
		v.refit = true
		if v.revealIn == oldModel {
			v.revealIn = m // the same bytes: not new ones to show from the top
		}
	} else if !v.windowChanged(old) {
		return
	}
	if v.mounted {
		vecty.Rerender(v)
	}
}

// windowChanged reports whether the rows to draw differ from those for the old viewport.
func (v *View) windowChanged(old hexview.Viewport) bool {
	rows, over := v.model().RowCount(), v.overscan()
	oldFirst, oldN := window(old, rows, over)
	newFirst, newN := window(v.viewport(), rows, over)
	return oldFirst != newFirst || oldN != newN
}

// window is vp.Window, but no rows while the box's height is unknown (vp.Height 0: before
// the View is mounted and has measured its box, when Height is 0). The page's first render
// comes before its layout, and rows drawn for an assumed height (and width) would be drawn
// again at once, before the browser shows anything.
func window(vp hexview.Viewport, rows, overscan int) (first, n int) {
	if vp.Height <= 0 {
		return 0, 0
	}
	return vp.Window(rows, overscan)
}

// model returns the model to draw: Model (or no bytes) in rows as wide as fit in the box, so
// that whole rows show, the text column included (hexview.Model.FitWidth).
func (v *View) model() *hexview.Model {
	m := v.Model
	if m == nil {
		if v.empty == nil {
			v.empty, _ = hexview.New(nil, nil, 0) // cannot fail: no spans
		}
		m = v.empty
	}
	if v.fittedOf != m || v.fitted.Width() != m.FitWidth(v.chars) {
		v.fitted, v.fittedOf = m.WithWidth(m.FitWidth(v.chars)), m
	}
	return v.fitted
}

func (v *View) overscan() int {
	switch {
	case v.Overscan < 0:
		return 0
	case v.Overscan == 0:
		return hexview.Overscan
	}
	return v.Overscan
}

func (v *View) viewport() hexview.Viewport {
	h := v.Height
	if h <= 0 {
		h = v.measured
	}
	return hexview.Viewport{Height: min(h, MaxHeight), Top: v.top}
}

// Render implements vecty.Component.
func (v *View) Render() vecty.ComponentOrHTML {
	m := v.model()
	vp := v.viewport()
	total := m.RowCount() * hexview.RowHeight

	// A new selection is scrolled into view; other bytes (a new message) start at the top.
	scrollTo, scroll := vp.Top, false
	if sel := v.Marks.Selection; sel != v.revealed || m != v.revealIn || v.Reveal != v.revealSeq || v.Shown != v.shownSeq {
		switch {
		case sel == v.ownSel && !v.ownField.Empty() && v.Reveal == v.revealSeq:
			// Chosen here: show the field chosen, not the whole selection, which can be
			// taller than the box while dragging.
			scrollTo = vp.Reveal(m.RowsOf(v.ownField))
		case !sel.Empty() && sel.Offset < m.Len():
			scrollTo = vp.Reveal(m.RowsOf(sel))
		case v.Shown != v.shownSeq && v.revealIn != nil:
			scrollTo = 0
		}
		v.revealed, v.revealIn, v.revealSeq, v.shownSeq = sel, m, v.Reveal, v.Shown
		if scrollTo != vp.Top {
			vp.Top, v.top, scroll = scrollTo, scrollTo, true
		}
	}
	if v.refit {
		scroll, v.refit = true, false
	}

	first, n := window(vp, m.RowCount(), v.overscan())
	slots := make([]vecty.MarkupOrChild, n+1)
	slots[0] = vecty.Markup(vecty.Class("hv-spacer"), vecty.Style("height", px(total)))
	for _, r := range m.Rows(first, n, v.Marks) {
		slots[1+hexview.Slot(r.Index, n)] = &rowView{Row: r}
	}
	spacer := elem.Div(slots...)

	boxMarkup := vecty.Markup(
		vecty.Class("hv"),
		vecty.Attribute("tabindex", "0"),
		vecty.Attribute("role", "group"),
		vecty.Attribute("aria-roledescription", "hex view"),
		vecty.Attribute("aria-label", v.label()),
		vecty.Style("--hv-row-h", px(hexview.RowHeight)),
		vecty.Style("--hv-cols", strconv.Itoa(m.Width())),
		vecty.MarkupIf(v.Height > 0, vecty.Style("height", px(v.Height))),
		event.Scroll(v.onScroll),
		event.MouseOver(v.onMouseOver),
		event.MouseLeave(v.onMouseLeave),
		event.MouseDown(v.onMouseDown),
		event.MouseUp(v.onMouseUp),
		event.KeyDown(v.onKeyDown),
	)
	// Ten characters of the box's font, out of sight: their width tells how many bytes fit in
	// a row (see domWatch).
	probe := elem.Span(vecty.Markup(vecty.Class("hv-probe"), vecty.Attribute("aria-hidden", "true")),
		vecty.Text("0000000000"))
	box := elem.Div(boxMarkup, spacer, probe)

	if scroll {
		if v.mounted {
			// Grow the old spacer first: the new one is only in place after this render, and
			// the browser clamps scrollTop to the content there is.
			v.spacer.Node().Get("style").Call("setProperty", "height", px(total))
			v.box.Node().Set("scrollTop", scrollTo)
		} else {
			v.pendingTo = scrollTo
		}
	}
	v.box, v.spacer, v.probe = box, spacer, probe
	return box
}

func px(n int) string { return strconv.Itoa(n) + "px" }

func (v *View) label() string {
	if v.Label == "" {
		return "bytes"
	}
	return v.Label
}

func (v *View) onScroll(e *vecty.Event) {
	old := v.viewport()
	v.top = int(e.Target.Get("scrollTop").Float())
	if v.windowChanged(old) {
		vecty.Rerender(v)
	}
}

// fieldOf returns the field of the segment the event happened on; ok is false when the event
// was not on a segment (the offset column, the space between columns).
func (v *View) fieldOf(e *vecty.Event) (f hexview.Field, ok bool) {
	o := e.Target.Get("dataset")
	if o.IsUndefined() {
		return hexview.Field{Span: hexview.NoSpan, ID: hexview.NoID}, false
	}
	if o = o.Get("o"); o.IsUndefined() {
		return hexview.Field{Span: hexview.NoSpan, ID: hexview.NoID}, false
	}
	offset, ok := hexview.ParseOffset(o.String())
	if !ok {
		return hexview.Field{Span: hexview.NoSpan, ID: hexview.NoID}, false
	}
	return v.model().FieldAt(offset)
}

func (v *View) hover(f hexview.Field, ok bool) {
	if ok == v.hoverOK && f == v.hovered {
		return
	}
	v.hovered, v.hoverOK = f, ok
	if v.OnHover != nil {
		v.OnHover(f, ok)
	}
}

// onMouseOver reports the hovered field and, while the main button is held after a press on a
// field, grows the selection to it (drag to select).
func (v *View) onMouseOver(e *vecty.Event) {
	f, ok := v.fieldOf(e)
	v.hover(f, ok)
	if !v.dragging {
		return
	}
	if e.Value.Get("buttons").Int()&1 == 0 { // released outside the box
		v.dragging = false
		return
	}
	if ok {
		sel := v.anchor.Union(f.Range)
		v.selectField(sel, f)
		v.pointed(sel)
	}
}

// selectField reports a selection made in the View.
func (v *View) selectField(sel hexview.Range, f hexview.Field) {
	v.ownSel, v.ownField = sel, f.Range
	if v.OnSelect != nil {
		v.OnSelect(sel, f)
	}
}

func (v *View) onMouseUp(*vecty.Event) { v.dragging = false }

func (v *View) onMouseLeave(*vecty.Event) {
	v.hover(hexview.Field{Span: hexview.NoSpan, ID: hexview.NoID}, false)
}

// onMouseDown selects on the press rather than on click: a click whose row was redrawn
// between press and release (the hover changed) would land on the row, not the field. The
// browser's own text selection is kept out of the way (dragging selects fields, and copying
// copies the selected bytes), so the box takes the focus itself.
func (v *View) onMouseDown(e *vecty.Event) {
	if e.Value.Get("button").Int() != 0 {
		return
	}
	f, ok := v.fieldOf(e)
	if !ok || v.OnSelect == nil {
		return
	}
	e.Value.Call("preventDefault")
	if v.mounted {
		v.box.Node().Call("focus", map[string]any{"preventScroll": true})
	}
	sel := hexview.Select(v.Marks.Selection, f, e.Value.Get("shiftKey").Bool())
	v.dragging, v.anchor = true, sel
	v.selectField(sel, f)
	v.pointed(sel)
}

// pointed notes that sel was chosen with the pointer: the bytes are under it, so the box does
// not scroll to show the selection (a field taller than the box would otherwise jump to its
// first row, away from the pointer).
func (v *View) pointed(sel hexview.Range) {
	v.revealed, v.revealIn, v.revealSeq = sel, v.model(), v.Reveal
}

func (v *View) onKeyDown(e *vecty.Event) {
	key := e.Value.Get("key").String()
	if key == "Escape" {
		if !v.Marks.Selection.Empty() {
			v.selectField(hexview.Range{}, hexview.Field{Span: hexview.NoSpan, ID: hexview.NoID})
		}
		return
	}
	d, isArrow := hexview.ArrowKey(key)
	if !isArrow {
		return
	}
	e.Value.Call("preventDefault") // the arrows move between fields, not the scroll box
	f, ok := v.model().Move(v.Marks.Selection, d)
	if ok {
		v.selectField(hexview.Select(v.Marks.Selection, f, e.Value.Get("shiftKey").Bool()), f)
	}
}

// rowView draws one row. It is redrawn only when its row changes.
type rowView struct {
	vecty.Core
	Row hexview.Row `vecty:"prop"`
}

// SkipRender implements vecty.RenderSkipper.
func (r *rowView) SkipRender(prev vecty.Component) bool {
	p, ok := prev.(*rowView)
	return ok && p.Row.Equal(&r.Row)
}

// Render implements vecty.Component. The row's content goes in as one innerHTML (see
// hexview.Row.AppendHTML, which escapes the text): vecty would make several calls from
// WebAssembly into the DOM per element, the browser's parser builds the row at once.
func (r *rowView) Render() vecty.ComponentOrHTML {
	return elem.Div(vecty.Markup(
		vecty.Class("hv-row"),
		vecty.Style("top", px(r.Row.Index*hexview.RowHeight)),
		vecty.UnsafeHTML(string(r.Row.AppendHTML(make([]byte, 0, 64+200*len(r.Row.Segments))))),
	))
}
