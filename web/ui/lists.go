package ui

import (
	"strconv"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/hexview"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/guide"
	"pgoutput-inspector/web"
)

// handled reports whether the lists act on key; others keep their default: Tab moves the
// focus on, so each list is one stop of the Tab order. (A switch, not a map: a map costs
// main.wasm its building at start-up.)
// size: docs/performance.md, "Size tricks".
func handled(key string) bool {
	switch key {
	case "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown", "Enter", " ":
		return true
	}
	return false
}

// onScroll reports a scroll when it changes the rows drawn (or the box's height). Not inlined,
// like onKey: each list's copy of the closure cost 1 KB of main.wasm.
// size: docs/performance.md, "Size tricks".
//
//go:noinline
func onScroll(panel web.Panel, v hexview.Viewport, rows int, d Dispatch) func(*vecty.Event) {
	return func(e *vecty.Event) {
		nv := hexview.Viewport{Top: e.Target.Get("scrollTop").Int(), Height: e.Target.Get("clientHeight").Int()}
		f0, n0 := v.Window(rows, hexview.Overscan)
		f1, n1 := nv.Window(rows, hexview.Overscan)
		if f0 != f1 || n0 != n1 {
			d(web.Scroll{Panel: panel, Top: nv.Top, Height: nv.Height})
		}
	}
}

// onKey sends the keys a list acts on as web.Key actions.
//
//go:noinline
func onKey(panel web.Panel, d Dispatch) func(*vecty.Event) {
	return func(e *vecty.Event) {
		k := plainKey(e)
		if !handled(k) {
			return
		}
		e.Value.Call("preventDefault")
		d(web.Key{Panel: panel, Key: k})
	}
}

// plainKey returns the key pressed, or "" when Alt, Ctrl or Meta is held with it (the
// browser's and the system's shortcuts).
//
//go:noinline
func plainKey(e *vecty.Event) string {
	if v := e.Value; !v.Get("altKey").Bool() && !v.Get("ctrlKey").Bool() && !v.Get("metaKey").Bool() {
		return v.Get("key").String()
	}
	return ""
}

// onFocus chooses the first row when the keyboard brings the focus to a list where nothing is
// chosen, so that the arrows start from a row the reader sees (not when a click brings it:
// the click chooses its own row).
//
//go:noinline
func onFocus(panel web.Panel, chosen bool, d Dispatch) func(*vecty.Event) {
	return func(e *vecty.Event) {
		if !chosen && e.Target.Call("matches", ":focus-visible").Bool() {
			d(web.Key{Panel: panel, Key: "Home"})
		}
	}
}

// activeRow is the list's aria-activedescendant: the chosen row's id when it is drawn. The
// list keeps the focus itself (its rows are drawn in slots that scroll, so they cannot hold
// it); assistive technology follows the active row.
func activeRow(id string, drawn bool) vecty.Applyer {
	if !drawn {
		return nil
	}
	return attr("aria-activedescendant", id)
}

// dataOf returns the integer in data attribute name ("msg" for data-msg) of the event target or
// its nearest ancestor that has one, and whether there was one. The lists listen once on their
// box instead of once per row: a row then costs no event listener to add and remove.
func dataOf(e *vecty.Event, name string) (int, bool) {
	el := e.Target.Call("closest", "[data-"+name+"]")
	if !el.Truthy() {
		return 0, false
	}
	return input.Atoi(el.Get("dataset").Get(name).String())
}

// inToggle reports whether the event happened on a tree row's expander.
func inToggle(e *vecty.Event) bool {
	el := e.Target.Call("closest", ".t-toggle")
	return el.Truthy()
}

// reportHeight tells the store a list's new height, when it changed, and reports whether it
// did.
func reportHeight(p web.Panel, box *vecty.HTML, v hexview.Viewport, height int, d Dispatch) bool {
	if height > 0 && height != v.Height {
		d(web.Scroll{Panel: p, Top: box.Node().Get("scrollTop").Int(), Height: height})
		return true
	}
	return false
}

func px(n int) string { return strconv.Itoa(n) + "px" }

// textSpan is a span of one class holding text. The text goes in as the textContent property,
// not as a child text node: one DOM node fewer for vecty to build and compare per cell, and
// text from the bytes is never read as markup.
func textSpan(cls, s string) *vecty.HTML {
	return span(markup(class(cls), prop("textContent", s)))
}

// titledSpan is a textSpan whose title attribute (the tooltip) holds the whole text when it
// may not fit and end in "…": full returns it, or nil means s is the whole text. The title is
// always set, empty when s is short, so that a row drawn in a slot never keeps another row's.
func titledSpan(cls, s string, full func() string) *vecty.HTML {
	title := ""
	if len(s) > shortText {
		title = s
		if full != nil {
			title = full()
		}
	}
	return span(markup(class(cls), attr("title", title), prop("textContent", s)))
}

// shortText is the length up to which a row's text surely fits its column, and has no tooltip.
const shortText = 16

// MessageList lists the messages grouped by transaction, or those the filter lets through,
// drawing only the rows in view.
type MessageList struct {
	vecty.Core
	List   *web.List        `vecty:"prop"`
	Filter web.Filter       `vecty:"prop"`
	Msg    int              `vecty:"prop"`
	View   hexview.Viewport `vecty:"prop"`
	// ShowCatalog: the relations and types are shown (in the tree's place); the list's
	// "Relations" button turns them on and off.
	ShowCatalog bool `vecty:"prop"`
	// ShowTimeline: the timeline is shown (in the tree's place); Block says which messages
	// the list marks: its chosen span's (every block of a streamed transaction).
	ShowTimeline bool      `vecty:"prop"`
	Block        web.Marks `vecty:"prop"`
	// Hidden says the filter hid every message of the timeline span last clicked.
	Hidden bool `vecty:"prop"`
	// Lens marks the messages its release or protocol version lacks.
	Lens guide.Lens `vecty:"prop"`
	// ShowNotes: the notes are shown (in the tree's place); Notes counts them.
	ShowNotes bool     `vecty:"prop"`
	Notes     int      `vecty:"prop"`
	Dispatch  Dispatch `vecty:"prop"`

	box   *vecty.HTML // the scroll box as last rendered
	watch sizeWatch
}

// Mount implements vecty.Mounter: the list follows its box's height, which the page's layout
// sets.
func (l *MessageList) Mount() {
	l.watch.start(l, l.box.Node(), func(h int) bool { return reportHeight(web.PanelList, l.box, l.View, h, l.Dispatch) })
}

// Unmount implements vecty.Unmounter.
func (l *MessageList) Unmount() { l.watch.stop() }

// SkipRender implements vecty.RenderSkipper.
func (l *MessageList) SkipRender(prev vecty.Component) bool {
	o, ok := prev.(*MessageList)
	return ok && !l.watch.bare() && o.List == l.List && o.Filter == l.Filter && o.Msg == l.Msg && o.View == l.View && o.ShowCatalog == l.ShowCatalog &&
		o.ShowTimeline == l.ShowTimeline && o.Block == l.Block && o.Hidden == l.Hidden && o.Lens == l.Lens && o.ShowNotes == l.ShowNotes && o.Notes == l.Notes
}

// Render implements vecty.Component.
func (l *MessageList) Render() vecty.ComponentOrHTML {
	var rows []web.ListRow
	if l.List != nil && l.List.Doc != nil {
		rows = l.List.Rows
	}
	first, n := l.View.Window(len(rows), hexview.Overscan)
	n = l.watch.rows(n)
	items := make([]vecty.MarkupOrChild, n+1)
	items[0] = markup(class("vspace"), style("height", px(len(rows)*hexview.RowHeight)))
	drawn := false
	for i := first; i < first+n; i++ {
		chosen := rows[i].Kind == web.RowMessage && rows[i].Msg == l.Msg
		drawn = drawn || chosen
		items[1+i%n] = msgRow(l.List, i, chosen, l.Block, l.Lens)
	}
	title, status := "Messages", ""
	if l.List != nil && l.List.Doc != nil {
		count := strconv.Itoa(len(l.List.Doc.Messages))
		title = "Messages (" + count + ")"
		if l.List.Filtered() {
			title = "Messages (" + strconv.Itoa(l.List.Matches) + " of " + count + ")"
			status = countOf(l.List.Matches, "message matches", "messages match")
		}
	}
	if l.Filter.Err != "" {
		status = "Not filtered: " + l.Filter.Err
	} else if l.Hidden {
		status = "The filter hides every message of the span clicked"
	}
	l.box = div(markup(class("vlist", "msg-list"), attr("tabindex", "0"),
		attr("role", "listbox"), attr("aria-labelledby", "list-title"),
		activeRow("m-"+strconv.Itoa(l.Msg), drawn),
		event.Scroll(onScroll(web.PanelList, l.View, len(rows), l.Dispatch)),
		event.KeyDown(onKey(web.PanelList, l.Dispatch)),
		event.Focus(onFocus(web.PanelList, l.Msg >= 0, l.Dispatch)),
		onClick(func(e *vecty.Event) {
			if m, ok := dataOf(e, "msg"); ok {
				l.Dispatch(web.SelectMessage{Msg: m})
			}
		})),
		div(items...),
	)
	return section(markup(class("panel", "list-panel"), attr("aria-labelledby", "list-title")),
		div(markup(class("panel-head")),
			heading2(markup(attr("id", "list-title")), text(title)),
			panelToggle("catalog-toggle", "Relations", "Every Relation and Type message so far: columns, types, key flags and which messages used each",
				l.ShowCatalog, l.List != nil && l.List.Doc != nil, web.ShowCatalog{On: !l.ShowCatalog}, l.Dispatch),
			panelToggle("timeline-toggle", "Timeline", "The stream's transactions in order, streamed blocks by xid, and what does not fit",
				l.ShowTimeline, l.List != nil && l.List.Doc != nil, web.ShowTimeline{On: !l.ShowTimeline}, l.Dispatch),
			panelToggle("notes-toggle", notesLabel(l.Notes), "Notes on fields and bytes, for a bug report, a lesson or a review; they go into the Share button's link",
				l.ShowNotes, true, web.ShowNotes{On: !l.ShowNotes}, l.Dispatch)),
		div(markup(class("filter-bar")),
			&FilterBox{Query: l.Filter.Query, Invalid: l.Filter.Err != "", Dispatch: l.Dispatch},
			span(markup(class("filter-status"), vecty.ClassMap{"error": l.Filter.Err != ""},
				attr("id", "filter-status"), attr("role", "status"), attr("title", status), data("query", l.Filter.Query)), text(status))),
		div(markup(class("list-head", "mrow"), attr("aria-hidden", "true")),
			span(markup(class("m-type")), text("message")),
			span(markup(class("m-lsn")), text("LSN")),
			span(markup(class("m-xid")), text("xid")),
			span(markup(class("m-size")), text("bytes")),
		),
		l.box,
	)
}

// filterHelp is the filter box's tooltip: its query language.
const filterHelp = "Filter the messages; every term must hold. type:U,D (a type byte, or the start of a name: " +
	"type:update, type:stream) · xid:750 · rel:public.orders or rel:16384 · lsn:0/16B3748..0/16B3800 " +
	"(either end optional) · words or \"quoted text\" within values (column values, a message's prefix and " +
	"content, names). Enter applies; an empty box shows every message."

// FilterBox is the message list's filter query. It renders again only when the query applied
// changes, so that a render for another reason never takes away what is being typed.
type FilterBox struct {
	vecty.Core
	Query    string   `vecty:"prop"`
	Invalid  bool     `vecty:"prop"`
	Dispatch Dispatch `vecty:"prop"`
	// shown is the text the box was last drawn with (vecty keeps the component, copying the
	// props of each render into it).
	shown string
}

// SkipRender implements vecty.RenderSkipper.
func (f *FilterBox) SkipRender(prev vecty.Component) bool {
	o, ok := prev.(*FilterBox)
	return ok && o.Query == f.Query && o.Invalid == f.Invalid
}

// Render implements vecty.Component.
func (f *FilterBox) Render() vecty.ComponentOrHTML {
	value := f.Query
	// Emptying the box applies the empty query, drawn on the next frame: keys typed before it
	// stay in the box (its text is no longer what was drawn), and Enter applies them.
	if now := boxValue("filter"); value == "" && now != f.shown {
		value = now
	}
	f.shown = value
	return elem.Input(markup(class("filter"), prop("type", "search"), attr("id", "filter"),
		attr("aria-label", "Filter messages"), attr("aria-describedby", "filter-status"),
		attr("aria-invalid", strconv.FormatBool(f.Invalid)),
		attr("placeholder", "Filter: type:U xid:750 rel:orders lsn:A..B text"),
		attr("title", filterHelp), attr("spellcheck", "false"), attr("autocomplete", "off"),
		prop("value", value),
		// Enter (and leaving the box after an edit) applies the query; so does clearing it.
		onChange(func(e *vecty.Event) { f.Dispatch(web.SetFilter{Query: e.Target.Get("value").String()}) }),
		event.Input(func(e *vecty.Event) {
			if v := e.Target.Get("value").String(); v == "" && f.Query != "" {
				f.Dispatch(web.SetFilter{})
			}
		})))
}

// Rows are plain elements, each drawn in a slot (its row number modulo the rows drawn) as the
// hex view does, with no vecty keys: vecty 0.6.0's keyed reconciliation moves every keyed DOM
// node on each render (the first keyed child has no anchor), which costs time and loses a
// click whose mousedown and mouseup straddle a render; and it removes a keyed child component
// whose SkipRender returns true as if it had gone. In a slot a row is patched in place, and a
// slot changes only when another row scrolls into it. Rows hold no state of their own; they
// carry their message index or node id in data-msg / data-node, which the list's one event
// listener reads.

var groupNames = [...]string{web.GroupTransaction: "Transaction", web.GroupStream: "Streamed block",
	web.GroupPrepared: "Prepared transaction"}

// msgRow draws row i of the message list: a message or a transaction heading.
func msgRow(l *web.List, i int, selected bool, block web.Marks, lens guide.Lens) *vecty.HTML {
	doc := l.Doc
	row := l.Rows[i]
	top := style("top", px(i*hexview.RowHeight))
	if row.Kind == web.RowGroup {
		label := groupNames[row.Group]
		if sm := doc.Summaries[row.Msg]; sm.HasXid {
			label += " xid " + strconv.FormatUint(uint64(sm.Xid), 10)
		}
		label += " · " + countOf(l.GroupCount(i), "message", "messages")
		// The text goes in a span like a message row's cells: a slot may hold either kind of
		// row, and vecty must never set textContent on an element whose children it tracks.
		// A heading, not a choice: the options below it carry its xid.
		return div(markup(class("vrow", "group-row", "g-"+strconv.Itoa(int(row.Group))), top,
			attr("role", "presentation"), attr("aria-hidden", "true"),
			data("msg", strconv.Itoa(row.Msg))),
			titledSpan("g-text", label, nil))
	}
	sm := doc.Summaries[row.Msg]
	lsn, xid := "", ""
	if sm.HasLSN {
		lsn = pgvalue.FormatLSN(sm.LSN)
	}
	if sm.HasXid {
		xid = strconv.FormatUint(uint64(sm.Xid), 10)
	}
	pos, size := l.Position(i)
	name := strconv.Itoa(row.Msg+1) + ". " + sm.Line()
	// A message the version lens's release lacks is struck through, and its tooltip says so;
	// the lens is pgoutput's, not the frontend/backend protocol's.
	absent := ""
	if !sm.Wire {
		absent = lensText(lens, lens.AbsentMessage(sm.Type))
	}
	typ := titledSpan("m-type", name, nil)
	if absent != "" {
		typ = span(markup(class("m-type"), attr("title", name+" ("+absent+")"), prop("textContent", name)))
	}
	return div(markup(
		class("vrow", "mrow"),
		vecty.ClassMap{"nested": row.Nested, "selected": selected, "has-error": sm.Err, "lens-absent": absent != "",
			"in-span": block.Has(row.Msg)},
		attr("role", "option"),
		attr("id", "m-"+strconv.Itoa(row.Msg)),
		attr("aria-selected", strconv.FormatBool(selected)),
		attr("aria-posinset", strconv.Itoa(pos)),
		attr("aria-setsize", strconv.Itoa(size)),
		data("msg", strconv.Itoa(row.Msg)),
		top,
	),
		dirSpan(sm),
		typ,
		textSpan("m-lsn", lsn),
		textSpan("m-xid", xid),
		textSpan("m-size", strconv.Itoa(sm.Size)),
	)
}

// dirSpan is a captured message's direction and connection, "→2" from the client on
// connection 2, "←2" from the server; nothing for an input of no connections.
func dirSpan(sm web.Summary) vecty.MarkupOrChild {
	if sm.Conn == 0 {
		return nil
	}
	arrow, title := "←", "server → client, connection "
	if sm.Side == decoder.Frontend {
		arrow, title = "→", "client → server, connection "
	}
	c := strconv.Itoa(sm.Conn)
	return span(markup(class("m-dir"), attr("title", title+c), prop("textContent", arrow+c)))
}

// TreeView draws the chosen message's fields as an outline, only the rows in view.
type TreeView struct {
	vecty.Core
	Tree      *decoder.Tree    `vecty:"prop"`
	Rows      []int32          `vecty:"prop"`
	Collapsed map[int32]bool   `vecty:"prop"`
	Node      int32            `vecty:"prop"`
	Hover     int32            `vecty:"prop"`
	View      hexview.Viewport `vecty:"prop"`
	// Change is the message's before and after, shown in the tree's place when ShowChange.
	Change     *web.Change      `vecty:"prop"`
	ShowChange bool             `vecty:"prop"`
	ChangeView hexview.Viewport `vecty:"prop"`
	// Catalog is the relations and types the stream described, shown in the tree's place when
	// ShowCatalog.
	Catalog     *web.Catalog     `vecty:"prop"`
	ShowCatalog bool             `vecty:"prop"`
	CatalogView hexview.Viewport `vecty:"prop"`
	// Timeline is the stream's spans, shown in the tree's place when ShowTimeline; Msg the
	// chosen message, whose span it marks.
	Timeline     *web.Timeline    `vecty:"prop"`
	ShowTimeline bool             `vecty:"prop"`
	TimelineView hexview.Viewport `vecty:"prop"`
	Msg          int              `vecty:"prop"`
	// Compare is two messages side by side, shown in the tree's place (by the before and
	// after's view) when not nil; CanCompare says a message is chosen, which "Compare with…" pins.
	Compare    *web.Change `vecty:"prop"`
	CanCompare bool        `vecty:"prop"`
	// CompareRow is the comparison's row that the steps between differences reached, or -1.
	CompareRow int `vecty:"prop"`
	// Lens marks the fields its release or protocol version lacks.
	Lens guide.Lens `vecty:"prop"`
	// Notes are the page's notes, marked on their rows (Doc is the input they are placed in),
	// and listed in the tree's place when ShowNotes; NoteTarget is NotesView's.
	Notes      []web.Note `vecty:"prop"`
	Doc        *web.Doc   `vecty:"prop"`
	ShowNotes  bool       `vecty:"prop"`
	NoteTarget string     `vecty:"prop"`
	Dispatch   Dispatch   `vecty:"prop"`
	// ShowConsumer shows the Consumer panel, whose status is ConsumerStatus (an error when
	// ConsumerErr).
	ShowConsumer   bool   `vecty:"prop"`
	ConsumerStatus string `vecty:"prop"`
	ConsumerErr    bool   `vecty:"prop"`
	// ConsumerSettings are the panel's settings (web.ConsumerState's; its other fields unused).
	ConsumerSettings web.ConsumerState `vecty:"prop"`

	box   *vecty.HTML // the scroll box as last rendered
	watch sizeWatch
}

// Mount implements vecty.Mounter: the tree follows its box's height, which the page's layout
// sets.
func (v *TreeView) Mount() {
	v.watch.start(v, v.box.Node(), func(h int) bool { return reportHeight(web.PanelTree, v.box, v.View, h, v.Dispatch) })
}

// Unmount implements vecty.Unmounter.
func (v *TreeView) Unmount() { v.watch.stop() }

// SkipRender implements vecty.RenderSkipper.
func (v *TreeView) SkipRender(prev vecty.Component) bool {
	o, ok := prev.(*TreeView)
	return ok && !v.watch.bare() && o.Tree == v.Tree && sameRows(o.Rows, v.Rows) && o.Node == v.Node && o.Hover == v.Hover && o.View == v.View &&
		o.Change == v.Change && o.ShowChange == v.ShowChange && o.ChangeView == v.ChangeView &&
		o.Catalog == v.Catalog && o.ShowCatalog == v.ShowCatalog && o.CatalogView == v.CatalogView &&
		o.Timeline == v.Timeline && o.ShowTimeline == v.ShowTimeline && o.TimelineView == v.TimelineView && o.Msg == v.Msg && o.Lens == v.Lens &&
		o.Compare == v.Compare && o.CanCompare == v.CanCompare && o.CompareRow == v.CompareRow &&
		sameNotes(o.Notes, v.Notes) && o.Doc == v.Doc && o.ShowNotes == v.ShowNotes && o.NoteTarget == v.NoteTarget &&
		o.ShowConsumer == v.ShowConsumer && o.ConsumerStatus == v.ConsumerStatus && o.ConsumerErr == v.ConsumerErr &&
		o.ConsumerSettings.SenderTimeout == v.ConsumerSettings.SenderTimeout && o.ConsumerSettings.StatusInterval == v.ConsumerSettings.StatusInterval
}

// sameNotes reports whether a and b are the same notes: Apply replaces the slice on a change.
func sameNotes(a, b []web.Note) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func sameRows(a, b []int32) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// Render implements vecty.Component.
func (v *TreeView) Render() vecty.ComponentOrHTML {
	first, n := v.View.Window(len(v.Rows), hexview.Overscan)
	n = v.watch.rows(n)
	items := make([]vecty.MarkupOrChild, n+1)
	items[0] = markup(class("vspace"), style("height", px(len(v.Rows)*hexview.RowHeight)))
	drawn := false
	for i := first; i < first+n; i++ {
		id := v.Rows[i]
		drawn = drawn || id == v.Node
		items[1+i%n] = treeRow(v.Tree, id, i, id == v.Node, id == v.Hover, v.Collapsed[id], v.Lens, web.NoteText(v.Notes, v.Doc, v.Msg, id))
	}
	v.box = div(markup(class("vlist", "tree"), attr("tabindex", "0"),
		attr("role", "tree"), attr("aria-labelledby", "tree-title"),
		activeRow("t-"+strconv.Itoa(int(v.Node)), drawn),
		event.Scroll(onScroll(web.PanelTree, v.View, len(v.Rows), v.Dispatch)),
		event.KeyDown(onKey(web.PanelTree, v.Dispatch)),
		event.Focus(onFocus(web.PanelTree, v.Node >= 0 || len(v.Rows) == 0, v.Dispatch)),
		onClick(func(e *vecty.Event) {
			n, ok := dataOf(e, "node")
			switch {
			case !ok:
			case inToggle(e):
				v.Dispatch(web.ToggleNode{Node: int32(n)})
			default:
				v.Dispatch(web.SelectNode{Node: int32(n)})
			}
		}),
		event.MouseOver(func(e *vecty.Event) {
			if n, ok := dataOf(e, "node"); ok && int32(n) != v.Hover {
				v.Dispatch(web.HoverNode{Node: int32(n)})
			}
		}),
		event.MouseLeave(func(*vecty.Event) { v.Dispatch(web.HoverNode{Node: -1}) })),
		div(items...),
	)
	// The tree stays in the document (hidden) while the before and after is shown, so that
	// the box whose size it watches stays the same.
	showCompare := v.Compare != nil
	showNotes := !showCompare && v.ShowNotes
	showConsumer := !showCompare && !showNotes && v.ShowConsumer
	showTimeline := !showCompare && !showNotes && !showConsumer && v.ShowTimeline && v.Timeline != nil
	showCatalog := !showCompare && !showNotes && !showTimeline && v.ShowCatalog && v.Catalog != nil
	showChange := !showCompare && !showNotes && !showTimeline && !showCatalog && v.ShowChange && v.Change != nil
	var other vecty.ComponentOrHTML
	title := "Fields"
	switch {
	case showCompare:
		other = &ChangeView{Change: v.Compare, Node: v.Node, Row: v.CompareRow, Steps: true, View: v.ChangeView, Dispatch: v.Dispatch}
		title = "Compare"
	case showNotes:
		other = &NotesView{Notes: v.Notes, Doc: v.Doc, Target: v.NoteTarget, Dispatch: v.Dispatch}
		title = "Notes"
	case showConsumer:
		other = consumerView(v.ConsumerStatus, v.ConsumerErr, v.ConsumerSettings, v.Dispatch)
		title = "Consumer"
	case showTimeline:
		other = &TimelineView{Timeline: v.Timeline, Msg: v.Msg, View: v.TimelineView, Dispatch: v.Dispatch}
		title = "Timeline (" + countOf(len(v.Timeline.Spans), "span", "spans")
		if f := v.Timeline.Flagged; f > 0 {
			title += ", " + strconv.Itoa(f) + " ⚠"
		}
		title += ")"
	case showCatalog:
		other = &CatalogView{Catalog: v.Catalog, View: v.CatalogView, Dispatch: v.Dispatch}
		title = "Relations and types"
	case showChange:
		other = &ChangeView{Change: v.Change, Node: v.Node, Row: -1, View: v.ChangeView, Dispatch: v.Dispatch}
		title = "Before and after"
	}
	return section(markup(class("panel", "tree-panel"), vecty.ClassMap{"showing-change": showChange || showCompare, "showing-catalog": showCatalog || showTimeline || showNotes || showConsumer},
		attr("aria-labelledby", "tree-title")),
		div(markup(class("panel-head")),
			heading2(markup(attr("id", "tree-title")), text(title)),
			panelToggle("change-toggle", "Before / after", "An Update's or a Delete's old and new values side by side, column by column",
				showChange, v.Change != nil, web.ShowChange{On: !showChange}, v.Dispatch),
			panelToggle("compare-toggle", "Compare…", "Compare with…: pin this message and compare it, field by field, with the message you choose next in the list",
				showCompare, v.CanCompare, web.CompareWith{On: !showCompare}, v.Dispatch)),
		v.box,
		other,
	)
}

// siblingPlace returns node i's index among its parent's children and how many there are.
func siblingPlace(t *decoder.Tree, i int) (pos, size int) {
	first, end := 0, len(t.Nodes)
	if p := t.Parent(i); p >= 0 {
		first, end = p+1, int(t.Nodes[p].End)
	}
	for c := first; c < end; c = int(t.Nodes[c].End) {
		if c == i {
			pos = size
		}
		size++
	}
	return pos, size
}

// treeRow draws node id of t at row row.
func treeRow(t *decoder.Tree, id int32, row int, selected, hovered, collapsed bool, lens guide.Lens, note string) *vecty.HTML {
	i := int(id)
	n := &t.Nodes[i]
	info := n.Field.Info()
	leaf := t.IsLeaf(i)
	toggle := "\u00a0"
	if !leaf {
		toggle = "▾"
		if collapsed {
			toggle = "▸"
		}
	}
	pos, size := siblingPlace(t, i)
	errNode := n.Field == decoder.FieldUndecoded || n.Field == decoder.FieldTrailing || n.Field == decoder.FieldUnknownType
	// A field the version lens's release lacks is struck through and says since when (t-lens).
	absent := lens.Absent(t, i)
	return div(markup(
		class("vrow", "tnode", web.ClassOf(info.Kind).String()),
		vecty.ClassMap{"selected": selected, "hovered": hovered, "group": !leaf, "has-error": errNode, "lens-absent": absent != ""},
		attr("role", "treeitem"),
		attr("id", "t-"+strconv.Itoa(i)),
		attr("aria-selected", strconv.FormatBool(selected)),
		vecty.MarkupIf(!leaf, attr("aria-expanded", strconv.FormatBool(!collapsed))),
		// The tree draws only the rows in view: each says where it is in the whole.
		attr("aria-level", strconv.Itoa(int(n.Depth)+1)),
		attr("aria-posinset", strconv.Itoa(pos+1)),
		attr("aria-setsize", strconv.Itoa(size)),
		data("node", strconv.Itoa(i)),
		style("top", px(row*hexview.RowHeight)),
		style("padding-left", strconv.Itoa(int(n.Depth))+"em"),
	),
		textSpan("t-toggle", toggle),
		titledSpan("t-label", web.LabelText(t, i, web.MaxRowText), func() string { return web.LabelText(t, i, web.MaxTitleText) }),
		titledSpan("t-value", web.NodeText(t, i, web.MaxRowText), func() string { return web.NodeText(t, i, web.MaxTitleText) }),
		textSpan("t-lens", absent),
		// A note's marker: its text (read as part of the row's name), drawn as an icon.
		span(markup(class("t-note"), attr("title", note), prop("textContent", notePrefix(note)))),
	)
}
