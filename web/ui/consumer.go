package ui

import (
	"strconv"
	"strings"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"

	"pgoutput-inspector/web"
)

// consumerView is the Consumer panel: a status line, and a body that static/boot.js fills with
// the export worker's report (web/consumer.go). vecty draws the body empty and never gives it
// children, so it leaves the report alone. A click on anything carrying data-msg (a chart
// point, an anomaly, a transaction) selects that message; the report's buttons make each
// reachable with the keyboard.
func consumerView(status string, failed bool, c web.ConsumerState, d Dispatch) *vecty.HTML {
	return div(markup(class("consumer-panel"), event.Change(func(e *vecty.Event) {
		ms := int(e.Target.Get("valueAsNumber").Float()*1000 + 0.5)
		if !(ms > 0) { // empty, not a number or not positive: the setting stays
			return
		}
		set := web.SetConsumerSettings{SenderTimeout: c.SenderTimeout, StatusInterval: c.StatusInterval}
		if e.Target.Get("id").String() == "consumer-sender-timeout" {
			set.SenderTimeout = ms
		} else {
			set.StatusInterval = ms
		}
		d(set)
	})),
		div(markup(class("consumer-settings")),
			setting("wal_sender_timeout", "consumer-sender-timeout", seconds(c.SenderTimeout, 60)),
			setting("wal_receiver_status_interval", "consumer-status-interval", seconds(c.StatusInterval, 10))),
		div(markup(class("consumer-status"), vecty.ClassMap{"error": failed}, attr("role", "status")), text(status)),
		div(markup(attr("id", "consumer-body"), class("consumer-body"), onClick(func(e *vecty.Event) {
			if m, ok := dataOf(e, "msg"); ok {
				d(web.SelectMessage{Msg: m, Reveal: true})
			}
		}))))
}

// seconds writes a setting of ms milliseconds in seconds, or def seconds when it is 0.
func seconds(ms, def int) string {
	if ms == 0 {
		return strconv.Itoa(def)
	}
	s := strconv.Itoa(ms/1000) + "." + strconv.Itoa(1000 + ms%1000)[1:]
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	return strings.TrimSuffix(s, ".")
}

// setting is a number box of the panel's settings, in seconds; the panel hears its changes.
func setting(name, id, value string) *vecty.HTML {
	return label(text(name+" "), elem.Input(markup(attr("type", "number"), attr("id", id), attr("min", "0.001"),
		attr("step", "any"), prop("value", value))), text(" s "))
}
