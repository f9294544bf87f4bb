package ui

import (
	"github.com/hexops/vecty"

	"pgoutput-inspector/web"
)

// exportMenu is the Export menu, a select like the examples menu, so that the keyboard and
// screen readers use it as every menu of the browser. Its entries: the chosen field's bytes
// (the message's when no field is chosen) in a byte format; then the whole input's dump as
// text, Markdown or JSON, copied or downloaded. The menu then shows "Export…" again. The
// bytes' text is made by the store when the entry is chosen and goes straight to the
// clipboard; a dump is written by the export worker and goes straight from it to the
// clipboard or a download (static/boot.js): neither is ever in the page. What was copied shows
// where the Share button's status does (Header).
func exportMenu(disabled bool, d Dispatch) *vecty.HTML {
	opts := []vecty.MarkupOrChild{
		markup(class("export"), attr("aria-label", "export"), prop("disabled", disabled),
			attr("title", "Copy the chosen bytes as hex, base64 or a Go, Python or JavaScript literal; copy or download the whole input's dump as text, Markdown or JSON; copy the chosen message as a Go test"),
			onChange(func(e *vecty.Event) {
				// The entries follow "Export…" in web.ExportLabels' order.
				k := e.Target.Get("selectedIndex").Int() - 1
				e.Target.Set("selectedIndex", 0)
				if k >= 0 {
					d(web.Export{Entry: k})
				}
			})),
		option(text("Export…")), // chosen, it does nothing
	}
	for _, l := range web.ExportLabels {
		opts = append(opts, option(text(l)))
	}
	return selectBox(opts...)
}
