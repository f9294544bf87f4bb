// Package ui draws the inspector page's state (package web) with vecty. Components read only
// their props and send user events up as web.Action values through Dispatch; they never decode
// bytes or change state themselves.
package ui

import (
	"strconv"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"

	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/hexview"
	"pgoutput-inspector/hexview/render"
	"pgoutput-inspector/input"
	"pgoutput-inspector/web"
)

// Dispatch sends an action to the store.
type Dispatch func(web.Action)

// Page is the whole page.
type Page struct {
	vecty.Core
	State    web.State `vecty:"prop"`
	Dispatch Dispatch  `vecty:"prop"`
}

// Render implements vecty.Component.
func (p *Page) Render() vecty.ComponentOrHTML {
	s := &p.State
	t := s.Tree()
	var marks hexview.Marks
	marks.Selection, marks.Hover = s.Sel, s.HoverBytes
	status, statusErr := s.Menu.Status()
	header := &Header{Example: s.Menu.Shown(s.Example), Status: status, StatusErr: statusErr, Theme: s.Theme, Share: s.Share, HasInput: s.Text != "" || s.Guide.Open,
		Export: s.Export, CanExport: t != nil,
		Guide: s.Guide.Open, Explain: s.Explain, CanExplain: t != nil, Dispatch: p.Dispatch}
	if s.Guide.Open {
		// The field guide takes the inspector's place (guide.go).
		return elem.Body(div(markup(class("app"), style("--row-h", px(hexview.RowHeight))),
			header, &GuideView{Guide: s.Guide, Lens: s.Lens, Dispatch: p.Dispatch}))
	}
	return elem.Body(markup(event.KeyDown(p.onKey)),
		// Rows are hexview.RowHeight tall in every list; the stylesheet reads it as --row-h.
		div(markup(class("app"), style("--row-h", px(hexview.RowHeight))),
			header,
			elem.Main(markup(class("app-main", "page"), vecty.ClassMap{"stale": s.Stale}),
				&InputPanel{Text: s.Text, File: s.File, Force: s.Force, Proto: s.Proto, InStream: s.InStream, Doc: s.Doc,
					Msg: s.Msg, InputErr: s.InputErr, Stale: s.Stale, LinkErr: s.LinkErr, Refused: s.Refused, Lens: s.Lens, Consumer: s.Consumer.On, Dispatch: p.Dispatch},
				&MessageList{List: s.List, Filter: s.Filter, Msg: s.Msg, View: s.View[web.PanelList], ShowCatalog: s.ShowCatalog,
					ShowTimeline: s.ShowTimeline, Block: block(s), Hidden: s.ShowTimeline && s.HiddenSpan > 0, Lens: s.Lens, ShowNotes: s.ShowNotes, Notes: len(s.Notes), Dispatch: p.Dispatch},
				section(markup(class("panel", "hex-panel"), attr("aria-labelledby", "hex-title")),
					heading2(markup(attr("id", "hex-title")), text(hexTitle(s))),
					&render.View{Model: s.Model, Marks: marks, Reveal: s.Reveal, Shown: s.Shown, Label: hexTitle(s) + notedText(len(web.NotedBytes(s.Notes, s.Doc, s.Msg))),
						OnHover: p.onHexHover, OnSelect: p.onHexSelect},
					&MessageNotes{Tree: t, Dispatch: p.Dispatch},
				),
				&TreeView{Tree: t, Rows: s.TreeRows, Collapsed: s.Collapsed, Node: s.Node, Hover: s.Hover,
					View: s.View[web.PanelTree], Change: s.Change, ShowChange: s.ShowChange,
					ChangeView: s.View[web.PanelChange], Catalog: s.Catalog, ShowCatalog: s.ShowCatalog,
					CatalogView: s.View[web.PanelCatalog], Timeline: s.Timeline, ShowTimeline: s.ShowTimeline,
					TimelineView: s.View[web.PanelTimeline], Msg: s.Msg, Lens: s.Lens, Dispatch: p.Dispatch,
					Compare: s.Compare.Change, CanCompare: t != nil, CompareRow: s.Compare.Row,
					Notes: s.Notes, Doc: s.Doc, ShowNotes: s.ShowNotes, NoteTarget: noteTarget(s),
					ShowConsumer: s.Consumer.On, ConsumerStatus: s.Consumer.Status, ConsumerErr: s.Consumer.Err,
					ConsumerSettings: web.ConsumerState{SenderTimeout: s.Consumer.SenderTimeout, StatusInterval: s.Consumer.StatusInterval}},
				describe(s, p.Dispatch),
			),
		),
	)
}

// block marks, while the timeline is shown, the chosen message's span in the list: all its
// transaction's blocks for a stream block.
func block(s *web.State) web.Marks {
	if !s.ShowTimeline || s.Timeline == nil {
		return web.Marks{}
	}
	if i := s.Timeline.Chosen(s.Msg); i >= 0 {
		return web.Marks{Timeline: s.Timeline, Head: s.Timeline.Spans[i].Head}
	}
	return web.Marks{}
}

// describe is the description panel, or explain mode in its place.
func describe(s *web.State, d Dispatch) vecty.Component {
	if s.Explain {
		return &ExplainPanel{Tree: s.Tree(), Node: s.Node, Lens: s.Lens, Dispatch: d}
	}
	return &Description{Tree: s.Tree(), Node: s.Described(), Lens: s.Lens, Edit: s.Edit.View, Dispatch: d}
}

// onKey takes n and p, anywhere on the page but where one types (the text box, the filter,
// the edit box, a menu) and in explain mode's panel (its own n and p), to the next and the
// previous difference while comparing.
func (p *Page) onKey(e *vecty.Event) {
	by := 0
	switch plainKey(e) {
	case "n":
		by = 1
	case "p":
		by = -1
	}
	if by == 0 || p.State.Compare.Cmp == nil || e.Target.Call("matches", "input, textarea, select, [contenteditable], .explain, .explain *").Bool() {
		return
	}
	e.Value.Call("preventDefault")
	p.Dispatch(web.CompareStep{By: by})
}

func (p *Page) onHexHover(f hexview.Field, ok bool) {
	if !ok {
		p.Dispatch(web.HoverByte{Offset: -1})
		return
	}
	p.Dispatch(web.HoverByte{Offset: f.Offset})
}

func (p *Page) onHexSelect(sel hexview.Range, f hexview.Field) {
	p.Dispatch(web.SelectBytes{Sel: sel, ID: f.ID})
}

// hexTitle names the message whose bytes are shown.
func hexTitle(s *web.State) string {
	if s.Doc == nil || s.Msg < 0 {
		return "Bytes"
	}
	sm := s.Doc.Summaries[s.Msg]
	return "Bytes of message " + strconv.Itoa(s.Msg+1) + ": " + sm.Name + ", " + countOf(sm.Size, "byte", "bytes")
}

// countOf says "1 byte" or "N bytes".
func countOf(n int, one, many string) string {
	return strconv.Itoa(n) + " " + pgvalue.Plural(n, one, many)
}

// Header is the bar at the top: title, examples menu, Share and the theme toggle.
type Header struct {
	vecty.Core
	Example int `vecty:"prop"`
	// Status replaces the example's description: the examples asset is loading (or, when
	// StatusErr, why it could not be had).
	Status    string         `vecty:"prop"`
	StatusErr bool           `vecty:"prop"`
	Theme     web.Theme      `vecty:"prop"`
	Share     web.ShareState `vecty:"prop"`
	HasInput  bool           `vecty:"prop"`
	// Guide says the field guide is shown (its button then leads back to the inspector).
	Guide bool `vecty:"prop"`
	// Explain says explain mode is on; CanExplain that a message is chosen.
	Explain    bool `vecty:"prop"`
	CanExplain bool `vecty:"prop"`
	// Export is the Export menu; CanExport says that a message is chosen.
	Export    web.ExportState `vecty:"prop"`
	CanExport bool            `vecty:"prop"`
	Dispatch  Dispatch        `vecty:"prop"`
}

// SkipRender implements vecty.RenderSkipper.
func (h *Header) SkipRender(prev vecty.Component) bool {
	o, ok := prev.(*Header)
	return ok && o.Example == h.Example && o.Status == h.Status && o.StatusErr == h.StatusErr && o.Theme == h.Theme && o.Share == h.Share && o.HasInput == h.HasInput &&
		o.Guide == h.Guide && o.Explain == h.Explain && o.CanExplain == h.CanExplain &&
		o.Export == h.Export && o.CanExport == h.CanExport
}

// Render implements vecty.Component.
func (h *Header) Render() vecty.ComponentOrHTML {
	opts := []vecty.MarkupOrChild{
		// value as well as each option's selected: vecty compares value with the element's own,
		// so the menu goes back to the example shown when the one chosen could not be loaded
		// (the user's choice changed the element, not the page's last render).
		markup(class("examples"), attr("aria-label", "examples"), prop("value", strconv.Itoa(h.Example)),
			onChange(func(e *vecty.Event) {
				if i, ok := input.Atoi(e.Target.Get("value").String()); ok {
					h.Dispatch(web.LoadExample{Index: i})
				}
			})),
		option(markup(prop("value", "-1"), prop("disabled", true),
			prop("selected", h.Example < 0)), text("Examples…")),
	}
	for i, ex := range web.Examples {
		opts = append(opts, option(markup(prop("value", strconv.Itoa(i)),
			prop("selected", i == h.Example), attr("title", ex.Description)),
			text(ex.Name)))
	}
	desc, descClass := h.Status, "muted"
	if h.StatusErr {
		descClass = "error"
	} else if desc == "" && h.Example >= 0 && h.Example < len(web.Examples) {
		desc = web.Examples[h.Example].Description
	}
	next, label := web.ThemeLight, "Theme: system"
	switch h.Theme {
	case web.ThemeLight:
		next, label = web.ThemeDark, "Theme: light"
	case web.ThemeDark:
		next, label = web.ThemeSystem, "Theme: dark"
	}
	var status vecty.ComponentOrHTML
	switch {
	case h.Export.Status != "": // the Export menu's, newer than the Share button's (web.State.export)
		kind := "copied"
		if h.Export.Err {
			kind = "error"
		} else if h.Export.Busy {
			kind = "muted"
		}
		status = span(markup(class("share-status", kind), attr("role", "status")), text(h.Export.Status))
	case h.Share.Busy:
		status = span(markup(class("share-status", "muted")), text("Making the link…"))
	case h.Share.Err != "":
		status = span(markup(class("share-status", "error")), text(h.Share.Err))
	case h.Share.Link != "":
		msg := "Link in the address bar"
		if h.Share.Copied {
			msg = "Link copied"
		}
		msg += " (" + web.Commas(len(h.Share.Link)) + " characters)"
		if h.Share.Holds != "" {
			msg += ": the whole input's would be " + web.Commas(h.Share.Whole) + ", more than a browser opens; this one holds " + h.Share.Holds + "."
		}
		status = span(markup(class("share-status"), attr("role", "status")), text(msg))
	}
	return elem.Header(markup(class("app-header")),
		elem.Heading1(text("pgoutput inspector")),
		selectBox(opts...),
		span(markup(class("example-desc", descClass), attr("title", desc), attr("role", "status")), text(desc)),
		status,
		vecty.If(!h.Guide, elem.Button(markup(class("explain-toggle"), attr("aria-pressed", strconv.FormatBool(h.Explain)),
			prop("disabled", !h.CanExplain),
			attr("title", "Explain mode: step through the chosen message field by field, each field's bytes highlighted and explained"),
			onClick(func(*vecty.Event) { h.Dispatch(web.SetExplain{On: !h.Explain}) })),
			text("Explain"))),
		guideButton(h.Guide, h.Dispatch),
		vecty.If(!h.Guide, exportMenu(!h.CanExport, h.Dispatch)),
		elem.Button(markup(class("share"), prop("disabled", !h.HasInput),
			attr("title", "Put the input, options and selection in a link (compressed, in the URL fragment) and copy it"),
			onClick(func(*vecty.Event) { h.Dispatch(web.Share{}) })),
			text("Share")),
		elem.Button(markup(class("theme"), attr("title", "Switch theme: system, light, dark"),
			onClick(func(*vecty.Event) { h.Dispatch(web.SetTheme{Theme: next}) })),
			// A narrow window shows the icon; the text stays for screen readers.
			span(markup(class("theme-icon"), attr("aria-hidden", "true")), text("◐")),
			span(markup(class("theme-text")), text(label))),
	)
}
