package ui

import (
	"github.com/hexops/vecty"

	"pgoutput-inspector/web"
)

// consumerView is the Consumer panel: a status line, and a body that static/boot.js fills with
// the export worker's report (web/consumer.go). vecty draws the body empty and never gives it
// children, so it leaves the report alone. A click on anything carrying data-msg (a chart
// point, an anomaly, a transaction) selects that message; the report's buttons make each
// reachable with the keyboard.
func consumerView(status string, failed bool, d Dispatch) *vecty.HTML {
	return div(markup(class("consumer-panel")),
		div(markup(class("consumer-status"), vecty.ClassMap{"error": failed}, attr("role", "status")), text(status)),
		div(markup(attr("id", "consumer-body"), class("consumer-body"), onClick(func(e *vecty.Event) {
			if m, ok := dataOf(e, "msg"); ok {
				d(web.SelectMessage{Msg: m, Reveal: true})
			}
		}))))
}
