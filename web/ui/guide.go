package ui

import (
	"strconv"

	"github.com/hexops/vecty"

	"pgoutput-inspector/internal/guide"
	"pgoutput-inspector/web"
)

// The field guide: an entry per message type, TupleData, replication envelope and
// frontend/backend protocol message, laid out as the PostgreSQL documentation lays out its
// message formats, with a byte diagram and what changed in each release. Entries are plain
// links (#guide=ID): Back, Forward and a copied address all work.
//
// The guide's text is long and fixed: it is rendered at build time (web/guideview) and
// inserted as HTML, which costs main.wasm far less than drawing it here would.
// size: docs/performance.md, "Size tricks".

// GuideView is the guide, in place of the inspector's panels: the list of entries beside the
// entry shown, which scrolls inside its panel.
type GuideView struct {
	vecty.Core
	Guide    web.GuideState `vecty:"prop"`
	Lens     guide.Lens     `vecty:"prop"`
	Dispatch Dispatch       `vecty:"prop"`
}

// Render implements vecty.Component.
func (v *GuideView) Render() vecty.ComponentOrHTML {
	g := &v.Guide
	var body vecty.MarkupOrChild
	switch {
	case g.Err != "":
		body = paragraph(markup(class("error-box"), attr("role", "alert")), text(g.Err))
	case g.View == nil:
		body = paragraph(markup(class("muted"), attr("role", "status")), text("Loading the field guide…"))
	case g.Entry == guide.VersionsPage:
		body = guideText(g.View["page "+guide.VersionsPage])
	default:
		body = guideText(g.View["head "+g.Entry] + g.View["tail "+g.Entry])
	}
	// The lens's release and protocol version as classes (lr-R, lp-P): static/guide.css marks
	// what the guide's HTML says is absent there (web/guideview.LensClasses).
	cls := []string{"app-main", "guide"}
	if v.Lens.Release > 0 {
		cls = append(cls, "lr-"+strconv.Itoa(v.Lens.Release))
	}
	if v.Lens.Proto > 0 {
		cls = append(cls, "lp-"+strconv.Itoa(v.Lens.Proto))
	}
	return el("main", markup(class(cls...), attr("aria-label", "field guide")),
		el("nav", markup(class("panel", "guide-nav"), attr("aria-labelledby", "guide-nav-title"),
			vecty.UnsafeHTML(g.View["nav "+g.Entry]))),
		// The key makes a new entry a new element, so it starts scrolled to its top.
		section(markup(class("panel", "guide-body"), vecty.Key(g.Entry),
			// The example's buttons (in the entry's HTML) open it in the inspector.
			onClick(func(e *vecty.Event) {
				if k, ok := dataOf(e, "open"); ok {
					v.Dispatch(web.OpenExample{Explain: k == 1})
				}
			})),
			div(markup(class("guide-bar")),
				&LensControl{Lens: v.Lens, Dispatch: v.Dispatch},
				span(markup(class("guide-lens", "muted")), text(guideLensText(v.Lens)))),
			body),
	)
}

// guideLensText says what the guide shows through the lens.
func guideLensText(l guide.Lens) string {
	if !l.On() {
		return "Choose a release or protocol version to strike out what it lacks."
	}
	return "Seen as " + l.Name() + ": what it lacks is struck through."
}

// guideText is a page of the guide's text, as rendered at build time.
func guideText(html string) *vecty.HTML {
	return div(markup(class("guide-text"), vecty.UnsafeHTML(html)))
}

// el is any element: one function for every tag the guide draws, so that each costs a call
// rather than a copy of vecty's helper (see markup.go).
// size: docs/performance.md, "Size tricks".
//
//go:noinline
func el(tag string, m ...vecty.MarkupOrChild) *vecty.HTML { return vecty.Tag(tag, m...) }

// button is a button of class cls that dispatches act.
//
//go:noinline
func button(cls, label, title string, d Dispatch, act web.Action) *vecty.HTML {
	return el("button", markup(class(cls), attr("type", "button"), vecty.MarkupIf(title != "", attr("title", title)),
		onClick(func(*vecty.Event) { d(act) })), text(label))
}

// guideButton opens the field guide at the chosen message's entry, or, in the guide, leads
// back to the inspector.
func guideButton(open bool, d Dispatch) *vecty.HTML {
	if open {
		return button("guide-toggle", "Inspector", "Back to the decoded input", d, web.CloseGuide{})
	}
	return button("guide-toggle", "Guide", "Every message, its fields, and what each release changed", d, web.OpenGuide{})
}
