package ui

import (
	"strconv"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/event"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/internal/guide"
	"pgoutput-inspector/web"
)

// ExplainPanel is explain mode, in the description's place (the same panel, so turning it on
// moves nothing): Previous and Next step through the chosen message's fields, each selected in
// turn (its bytes highlighted, the tree showing it), and a sentence says what the field's
// bytes mean in this message. While it has the focus, → ↓ n and ← ↑ p step, Home and End go
// to the first and last field, Escape leaves.
type ExplainPanel struct {
	vecty.Core
	Tree     *decoder.Tree `vecty:"prop"`
	Node     int32         `vecty:"prop"`
	Lens     guide.Lens    `vecty:"prop"`
	Dispatch Dispatch      `vecty:"prop"`
}

// SkipRender implements vecty.RenderSkipper.
func (p *ExplainPanel) SkipRender(prev vecty.Component) bool {
	o, ok := prev.(*ExplainPanel)
	return ok && o.Tree == p.Tree && o.Node == p.Node && o.Lens == p.Lens
}

// explainKey returns the step of a key, or false.
func explainKey(k string) (web.Step, bool) {
	switch k {
	case "ArrowRight", "ArrowDown", "n":
		return web.StepNext, true
	case "ArrowLeft", "ArrowUp", "p":
		return web.StepPrevious, true
	case "Home":
		return web.StepFirst, true
	case "End":
		return web.StepLast, true
	}
	return 0, false
}

// Render implements vecty.Component.
func (p *ExplainPanel) Render() vecty.ComponentOrHTML {
	t, d := p.Tree, p.Dispatch
	var count, head, sentence string
	if t != nil {
		k, total := web.ExplainPlace(t, p.Node)
		count = "field " + strconv.Itoa(k+1) + " of " + strconv.Itoa(total)
		if k < 0 {
			count = strconv.Itoa(total) + " fields"
			sentence = "Press Next to start at the first field."
		} else {
			head = web.LabelText(t, int(p.Node), web.MaxRowText)
			sentence = web.ExplainText(t, int(p.Node))
			if l := lensText(p.Lens, p.Lens.Absent(t, int(p.Node))); l != "" {
				sentence = "(" + l + ".) " + sentence
			}
		}
	} else {
		sentence = "Choose a message to explain."
	}
	return section(markup(class("panel", "desc-panel", "explain"), attr("aria-labelledby", "explain-title"), attr("tabindex", "0"),
		event.KeyDown(func(e *vecty.Event) {
			k := e.Value.Get("key").String()
			if k == "Escape" {
				d(web.SetExplain{On: false})
				return
			}
			if st, ok := explainKey(k); ok {
				e.Value.Call("preventDefault")
				d(web.ExplainStep{Step: st})
			}
		})),
		// Two rows of fixed content: nothing wraps or moves as the count grows.
		div(markup(class("explain-head")),
			el("h2", markup(attr("id", "explain-title")), text("Explain")),
			span(markup(class("explain-count")), text(count)),
		),
		div(markup(class("explain-head")),
			button("explain-prev", "◂ Previous", "Previous field (← or p)", d, web.ExplainStep{Step: web.StepPrevious}),
			button("explain-next", "Next ▸", "Next field (→ or n)", d, web.ExplainStep{Step: web.StepNext}),
			button("explain-stop", "Done", "Leave explain mode (Escape)", d, web.SetExplain{On: false}),
		),
		paragraph(markup(class("explain-field")), text(head)),
		paragraph(markup(class("explain-text"), attr("aria-live", "polite")), text(sentence)),
	)
}
