package ui

import (
	"strconv"

	"github.com/hexops/vecty"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/guide"
	"pgoutput-inspector/web"
)

// LensControl chooses the version lens: a PostgreSQL release and a protocol version, each
// "any" by default. What the lens's release or protocol version lacks is struck through in
// the guide and in the decoded message, with since when it exists.
type LensControl struct {
	vecty.Core
	Lens     guide.Lens `vecty:"prop"`
	Dispatch Dispatch   `vecty:"prop"`
}

// SkipRender implements vecty.RenderSkipper.
func (c *LensControl) SkipRender(prev vecty.Component) bool {
	o, ok := prev.(*LensControl)
	return ok && o.Lens == c.Lens
}

// Render implements vecty.Component. The menus' options are HTML written here (the page's
// own words and numbers only): drawing them as elements cost main.wasm three times more.
// size: docs/performance.md, "Size tricks".
func (c *LensControl) Render() vecty.ComponentOrHTML {
	l := c.Lens
	rel := menuOption("", 0, "any release", l.Release)
	for n := decoder.FirstRelease; n <= decoder.LastRelease; n++ {
		rel += menuOption("", n, "PostgreSQL "+strconv.Itoa(n), l.Release)
	}
	proto := menuOption("", 0, "any protocol", l.Proto)
	for n := decoder.MinProto; n <= decoder.MaxProto; n++ {
		// A release accepts the protocol versions up to its own.
		attrs, name := "", "protocol "+strconv.Itoa(n)
		if l.Release > 0 && n > decoder.MaxProtoAt(l.Release) {
			attrs, name = " disabled", name+" (PostgreSQL "+strconv.Itoa(decoder.ProtoRelease(n))+"+)"
		}
		proto += menuOption(attrs, n, name, l.Proto)
	}
	return span(markup(class("lens"), attr("role", "group"), attr("aria-label", "version lens"),
		attr("title", "Version lens: see the format as a PostgreSQL release and protocol version had it; what they lack is struck through")),
		text("Lens "),
		selectBox(markup(class("lens-release"), attr("aria-label", "PostgreSQL release"), onChange(c.chooseRelease), vecty.UnsafeHTML(rel))),
		selectBox(markup(class("lens-proto"), attr("aria-label", "protocol version"), onChange(c.chooseProto), vecty.UnsafeHTML(proto))))
}

// menuOption is the HTML of a menu's option for number n, selected when n is cur.
func menuOption(attrs string, n int, name string, cur int) string {
	if n == cur {
		attrs += " selected"
	}
	return `<option value="` + strconv.Itoa(n) + `"` + attrs + `>` + name + `</option>`
}

func (c *LensControl) chooseRelease(e *vecty.Event) {
	n, _ := input.Atoi(e.Target.Get("value").String())
	c.Dispatch(web.SetLensRelease{Release: n})
}

func (c *LensControl) chooseProto(e *vecty.Event) {
	n, _ := input.Atoi(e.Target.Get("value").String())
	c.Dispatch(web.SetLensProto{Proto: n})
}

// lensText is what a row or panel says of a field or message the lens lacks: "not in
// PostgreSQL 13: since PostgreSQL 14, protocol 2", or "".
func lensText(l guide.Lens, absent string) string {
	if absent == "" {
		return ""
	}
	return "not in " + l.Name() + ": " + absent
}
