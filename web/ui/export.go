package ui

import (
	"github.com/hexops/vecty"

	"pgoutput-inspector/internal/export"
	"pgoutput-inspector/web"
)

// exportMenu is the Export menu, a select like the examples menu, so that the keyboard and
// screen readers use it as every menu of the browser. Choosing an entry copies the chosen
// field's bytes (the message's when no field is chosen) in a byte format; the menu then shows
// "Export…" again. The text is made by the store when the entry is chosen and goes straight
// to the clipboard: it is never in the page. What was copied shows where the Share button's
// status does (Header).
func exportMenu(disabled bool, d Dispatch) *vecty.HTML {
	opts := []vecty.MarkupOrChild{
		markup(class("export"), attr("aria-label", "export"), prop("disabled", disabled),
			attr("title", "Copy the chosen field's bytes (the message's when no field is chosen) as hex, base64 or a Go, Python or JavaScript literal"),
			onChange(func(e *vecty.Event) {
				// The entries follow "Export…" in web.ExportLabels' order.
				k := e.Target.Get("selectedIndex").Int() - 1
				e.Target.Set("selectedIndex", 0)
				if k >= 0 {
					d(web.Export{Format: export.BytesFormat(k)})
				}
			})),
		option(text("Export…")), // chosen, it does nothing
	}
	for _, l := range web.ExportLabels {
		opts = append(opts, option(text(l)))
	}
	return selectBox(opts...)
}
