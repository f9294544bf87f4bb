package ui

import (
	"strconv"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/event"

	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/hexview"
	"pgoutput-inspector/web"
)

// TimelineView draws the stream's spans in order (web.Timeline), only the rows in view: a bar
// placing the span in the stream, what it is, and what does not fit. Clicking a span, or the
// arrows, choose its first message; the message list marks the span's messages.
type TimelineView struct {
	vecty.Core
	Timeline *web.Timeline    `vecty:"prop"`
	Msg      int              `vecty:"prop"`
	View     hexview.Viewport `vecty:"prop"`
	Dispatch Dispatch         `vecty:"prop"`

	box   *vecty.HTML
	watch sizeWatch
}

// Mount implements vecty.Mounter.
func (v *TimelineView) Mount() {
	v.watch.start(v, v.box.Node(), func(h int) bool { return reportHeight(web.PanelTimeline, v.box, v.View, h, v.Dispatch) })
}

// Unmount implements vecty.Unmounter.
func (v *TimelineView) Unmount() { v.watch.stop() }

// SkipRender implements vecty.RenderSkipper.
func (v *TimelineView) SkipRender(prev vecty.Component) bool {
	o, ok := prev.(*TimelineView)
	return ok && !v.watch.bare() && o.Timeline == v.Timeline && o.Msg == v.Msg && o.View == v.View
}

// Render implements vecty.Component.
func (v *TimelineView) Render() vecty.ComponentOrHTML {
	tl := v.Timeline
	chosen := tl.Chosen(v.Msg)
	first, n := v.View.Window(len(tl.Spans), hexview.Overscan)
	n = v.watch.rows(n)
	items := make([]vecty.MarkupOrChild, n+1)
	items[0] = markup(class("vspace"), style("height", px(len(tl.Spans)*hexview.RowHeight)))
	for k := first; k < first+n; k++ {
		items[1+k%n] = timelineRow(tl, k, k == chosen)
	}
	v.box = div(markup(class("vlist", "tl-list"), attr("tabindex", "0"), style("--n", strconv.Itoa(len(tl.SpanOf))),
		attr("role", "listbox"), attr("aria-labelledby", "tree-title"),
		activeRow("s-"+strconv.Itoa(chosen), chosen >= first && chosen < first+n),
		event.Scroll(onScroll(web.PanelTimeline, v.View, len(tl.Spans), v.Dispatch)),
		event.KeyDown(onKey(web.PanelTimeline, v.Dispatch)),
		onClick(func(e *vecty.Event) {
			if k, ok := dataOf(e, "span"); ok {
				v.Dispatch(web.SelectSpan{Span: k})
			}
		})),
		div(items...))
	return v.box
}

// timelineRow draws span k: a bar placing it among the messages (the stylesheet reads the span's
// first message and count as --a and --b, and the messages as the list's --n), then what it is
// and what does not fit in it.
func timelineRow(tl *web.Timeline, k int, chosen bool) *vecty.HTML {
	sp := &tl.Spans[k]
	cls := []string{"vrow", "tl-row", "tl-" + strconv.Itoa(int(sp.Kind))}
	if chosen {
		cls = append(cls, "selected")
	}
	if sp.Flags != 0 {
		cls = append(cls, "has-error")
	}
	return div(markup(class(cls...),
		attr("role", "option"), attr("id", "s-"+strconv.Itoa(k)),
		attr("aria-selected", strconv.FormatBool(chosen)),
		data("span", strconv.Itoa(k)),
		style("top", px(k*hexview.RowHeight)),
		style("--a", strconv.Itoa(sp.First)), style("--b", strconv.Itoa(sp.Count()))),
		titledSpan("tl-text", pgvalue.SafeText(tl.Label(k)), nil))
}
