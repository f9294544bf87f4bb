package ui

import (
	"strconv"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"

	"pgoutput-inspector/hexview"
	"pgoutput-inspector/web"
)

// panelToggle is a button that shows a view in the tree's place (the tree panel's "Before /
// after", the message list's "Relations"): pressed says the view is shown, act is dispatched
// on a click. It is always there, disabled when the view has nothing to show, so that nothing
// moves when another message is chosen.
func panelToggle(cls, label, title string, pressed, can bool, act web.Action, d Dispatch) *vecty.HTML {
	return elem.Button(markup(class(cls), attr("aria-pressed", strconv.FormatBool(pressed)),
		prop("disabled", !can), attr("title", title), onClick(func(*vecty.Event) { d(act) })),
		text(label))
}

// ChangeView shows an Update's or a Delete's columns before and after, drawing only the rows
// in view: a sentence on why the old part is what it is, then a row per column (name, old
// value, new value), changed values marked. Clicking a value selects its bytes. A comparison
// (Steps) has its "Previous difference" and "Next difference" above the sentence.
type ChangeView struct {
	vecty.Core
	Change *web.Change `vecty:"prop"`
	Node   int32       `vecty:"prop"`
	// Row is the row marked current (the difference a comparison's steps reached), or -1;
	// Steps shows the comparison's "Previous difference" and "Next difference".
	Row      int              `vecty:"prop"`
	Steps    bool             `vecty:"prop"`
	View     hexview.Viewport `vecty:"prop"`
	Dispatch Dispatch         `vecty:"prop"`

	box   *vecty.HTML
	watch sizeWatch
}

// Mount implements vecty.Mounter.
func (v *ChangeView) Mount() {
	v.watch.start(v, v.box.Node(), func(h int) bool { return reportHeight(web.PanelChange, v.box, v.View, h, v.Dispatch) })
}

// Unmount implements vecty.Unmounter.
func (v *ChangeView) Unmount() { v.watch.stop() }

// SkipRender implements vecty.RenderSkipper.
func (v *ChangeView) SkipRender(prev vecty.Component) bool {
	o, ok := prev.(*ChangeView)
	return ok && !v.watch.bare() && o.Change == v.Change && o.Node == v.Node && o.Row == v.Row && o.Steps == v.Steps && o.View == v.View
}

// Render implements vecty.Component.
func (v *ChangeView) Render() vecty.ComponentOrHTML {
	c := v.Change
	cols := c.Columns
	first, n := v.View.Window(len(cols), hexview.Overscan)
	n = v.watch.rows(n)
	items := make([]vecty.MarkupOrChild, n+1)
	items[0] = markup(class("vspace"), style("height", px(len(cols)*hexview.RowHeight)))
	for k := first; k < first+n; k++ {
		items[1+k%n] = changeRow(&cols[k], k, v.Node, k == v.Row)
	}
	v.box = div(markup(class("vlist", "change-list"), attr("tabindex", "0"), attr("aria-label", "columns before and after"),
		event.Scroll(onScroll(web.PanelChange, v.View, len(cols), v.Dispatch))),
		div(items...))
	// The second input's error and its pinned message's, one after the other.
	errs := c.Err
	if errs != "" && c.MsgErr != "" {
		errs += " "
	}
	errs += c.MsgErr
	return div(markup(class("change"), onClick(func(e *vecty.Event) {
		if node, ok := dataOf(e, "node"); ok {
			v.Dispatch(web.SelectNode{Node: int32(node)})
		} else if by, ok := dataOf(e, "step"); ok {
			v.Dispatch(web.CompareStep{By: by})
		}
	}), event.Input(func(e *vecty.Event) {
		// The second input's boxes (compareSteps): the number of its message to pin, which
		// never copies the text, or its text, copied only when it can be read, as the page's
		// text box's is.
		t := e.Target
		if t.Get("type").String() == "number" {
			// Not while the box is empty (or holds no number yet): it would show 1 under the
			// keys typed next.
			if m, err := strconv.Atoi(t.Get("value").String()); err == nil {
				v.Dispatch(web.ComparePick{Msg: m - 1})
			}
		} else if n := t.Get("textLength").Int(); n > web.MaxInput {
			v.Dispatch(web.CompareInput{Size: n})
		} else {
			v.Dispatch(web.CompareInput{Text: t.Get("value").String(), Typing: typing(e)})
		}
	})),
		vecty.If(v.Steps, div(markup(class("compare-steps"), vecty.UnsafeHTML(compareSteps)))),
		vecty.If(errs != "", alertBox("compare-error", errs)),
		// A Tab stop, like the description panel: the keyboard scrolls a sentence longer than
		// its box.
		paragraph(markup(class("change-why"), attr("tabindex", "0"), attr("title", c.Why)), text(c.Why)),
		div(markup(class("crow", "change-head")),
			textSpan("c-name", c.Heads[0]), textSpan("c-old", c.Heads[1]), textSpan("c-new", c.Heads[2])),
		v.box)
}

// compareSteps are a comparison's second input (a text box read as the page's text box is,
// and the number of its message to pin: one number box whatever their count, whose arrow keys
// step through them; sent with web.CompareInput and web.ComparePick) and its "Previous difference" and "Next
// difference" (web.CompareStep with By in data-step): HTML written here, as the lens's menus
// are (as elements, with a handler each, the buttons cost main.wasm about 1.3 KB more, and
// the boxes several KB: docs/performance.md). It is never drawn again while comparing: what
// is typed stays, and a new text pins the message whose number the box holds. The number box
// shows the message pinned, bounded by min and max (web.EffectShowPick, which the page's glue
// applies to #compare-msg).
const compareSteps = `<textarea rows="1" wrap="off" spellcheck="false" aria-label="second input"` +
	` placeholder="Or paste a second input (another capture of the change) to pin one of its messages"></textarea>` +
	`Message <input type="number" id="compare-msg" min="1" value="1" aria-label="message of the second input to pin">` +
	`<button type="button" data-step="-1" aria-label="Previous difference" title="Previous difference (p)">↑ Previous</button>` +
	`<button type="button" data-step="1" aria-label="Next difference" title="Next difference (n)">↓ Next</button>`

// changeRow draws column k at its row (current: the row a comparison's steps reached).
func changeRow(col *web.ChangeColumn, k int, node int32, current bool) *vecty.HTML {
	name := col.Name
	if name == "" {
		name = "column " + strconv.Itoa(k+1)
	}
	title := name
	if col.Type != "" {
		title += " (" + col.Type + ")"
	}
	if col.Key {
		title += ", key"
	}
	return div(markup(class("vrow", "crow"), vecty.ClassMap{"changed": col.Changed, "current": current}, style("top", px(k*hexview.RowHeight))),
		span(markup(class("c-name"), vecty.ClassMap{"is-key": col.Key}, attr("title", title), prop("textContent", name))),
		changeCell("c-old", col.Old, node),
		changeCell("c-new", col.New, node))
}

// changeCell draws one side of a column, carrying its node for a click.
func changeCell(cls string, v web.ChangeValue, node int32) *vecty.HTML {
	id := ""
	if v.Node >= 0 {
		id = strconv.Itoa(int(v.Node))
	}
	return span(markup(class(cls, "v-"+string(rune(max(v.Kind, '-')))), vecty.ClassMap{"selected": v.Node >= 0 && v.Node == node},
		data("node", id), attr("title", v.Full), prop("textContent", v.Text)))
}
