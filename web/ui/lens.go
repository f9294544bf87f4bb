package ui

import (
	"strconv"

	"github.com/hexops/vecty"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
	"pgoutput-inspector/web"
)

// LensControl chooses the version lens: a PostgreSQL release and a protocol version, each
// "any" by default. What the lens's release or protocol version lacks is struck through in
// the guide and in the decoded message, with since when it exists.
type LensControl struct {
	vecty.Core
	Lens     web.Lens `vecty:"prop"`
	Dispatch Dispatch `vecty:"prop"`
}

// SkipRender implements vecty.RenderSkipper.
func (c *LensControl) SkipRender(prev vecty.Component) bool {
	o, ok := prev.(*LensControl)
	return ok && o.Lens == c.Lens
}

// Render implements vecty.Component.
func (c *LensControl) Render() vecty.ComponentOrHTML {
	l := c.Lens
	menu := func(cls, name, anyText string, first, last, cur int, choose func(n int) web.Action, item func(n int) (string, bool)) *vecty.HTML {
		opts := []vecty.MarkupOrChild{markup(class(cls), attr("aria-label", name),
			onChange(func(e *vecty.Event) {
				n, _ := input.Atoi(e.Target.Get("value").String())
				c.Dispatch(choose(n))
			})),
			option(markup(prop("value", "0"), prop("selected", cur == 0)), text(anyText)),
		}
		for n := first; n <= last; n++ {
			s, off := item(n)
			opts = append(opts, option(markup(prop("value", strconv.Itoa(n)), prop("selected", cur == n), prop("disabled", off)), text(s)))
		}
		return selectBox(opts...)
	}
	return span(markup(class("lens"), attr("role", "group"), attr("aria-label", "version lens"),
		attr("title", "Version lens: see the format as a PostgreSQL release and protocol version had it; what they lack is struck through")),
		text("Lens "),
		menu("lens-release", "PostgreSQL release", "any release", decoder.FirstRelease, decoder.LastRelease, l.Release,
			func(n int) web.Action { return web.SetLensRelease{Release: n} },
			func(n int) (string, bool) { return "PostgreSQL " + strconv.Itoa(n), false }),
		menu("lens-proto", "protocol version", "any protocol", decoder.MinProto, decoder.MaxProto, l.Proto,
			func(n int) web.Action { return web.SetLensProto{Proto: n} },
			func(n int) (string, bool) {
				// A release accepts the protocol versions up to its own.
				if l.Release > 0 && n > decoder.MaxProtoAt(l.Release) {
					return "protocol " + strconv.Itoa(n) + " (PostgreSQL " + strconv.Itoa(decoder.ProtoRelease(n)) + "+)", true
				}
				return "protocol " + strconv.Itoa(n), false
			}),
	)
}

// lensText is what a row or panel says of a field or message the lens lacks: "not in
// PostgreSQL 13: since PostgreSQL 14, protocol 2", or "".
func lensText(l web.Lens, absent string) string {
	if absent == "" {
		return ""
	}
	return "not in " + l.Name() + ": " + absent
}
