package ui

import (
	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"
)

// These wrappers are not inlined on purpose: vecty's helpers are small enough for the compiler
// to copy into every call site, which made this package's code about 0.14 MB bigger in
// main.wasm. Called through one copy each, they cost a call.
// size: docs/performance.md, "Size tricks".

//go:noinline
func markup(m ...vecty.Applyer) vecty.MarkupList { return vecty.Markup(m...) }

//go:noinline
func class(c ...string) vecty.Applyer { return vecty.Class(c...) }

//go:noinline
func attr(key, value string) vecty.Applyer { return vecty.Attribute(key, value) }

//go:noinline
func prop(key string, value any) vecty.Applyer { return vecty.Property(key, value) }

//go:noinline
func text(s string) *vecty.HTML { return vecty.Text(s) }

//go:noinline
func div(m ...vecty.MarkupOrChild) *vecty.HTML { return elem.Div(m...) }

//go:noinline
func span(m ...vecty.MarkupOrChild) *vecty.HTML { return elem.Span(m...) }

//go:noinline
func option(m ...vecty.MarkupOrChild) *vecty.HTML { return elem.Option(m...) }

//go:noinline
func section(m ...vecty.MarkupOrChild) *vecty.HTML { return elem.Section(m...) }

//go:noinline
func paragraph(m ...vecty.MarkupOrChild) *vecty.HTML { return elem.Paragraph(m...) }

//go:noinline
func heading2(m ...vecty.MarkupOrChild) *vecty.HTML { return elem.Heading2(m...) }

//go:noinline
func label(m ...vecty.MarkupOrChild) *vecty.HTML { return elem.Label(m...) }

//go:noinline
func selectBox(m ...vecty.MarkupOrChild) *vecty.HTML { return elem.Select(m...) }

//go:noinline
func style(key, value string) vecty.Applyer { return vecty.Style(key, value) }

//go:noinline
func data(key, value string) vecty.Applyer { return vecty.Data(key, value) }

//go:noinline
func onClick(f func(*vecty.Event)) *vecty.EventListener { return event.Click(f) }

//go:noinline
func onChange(f func(*vecty.Event)) *vecty.EventListener { return event.Change(f) }

//go:noinline
func tableData(m ...vecty.MarkupOrChild) *vecty.HTML { return elem.TableData(m...) }

// actionable makes an element that is not a button act on a click, and on Enter or Space when
// it has the focus (it takes a place in the Tab order), so the keyboard reaches what the
// pointer does.
//
//go:noinline
func actionable(f func()) vecty.Applyer {
	return vecty.Markup(attr("tabindex", "0"),
		onClick(func(*vecty.Event) { f() }),
		event.KeyDown(func(e *vecty.Event) {
			if k := e.Value.Get("key").String(); k == "Enter" || k == " " {
				e.Value.Call("preventDefault")
				f()
			}
		}))
}
