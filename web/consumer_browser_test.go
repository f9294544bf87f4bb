//go:build !js

package web_test

import (
	"os"
	"strconv"
	"testing"

	"pgoutput-inspector/decoder"
	pginput "pgoutput-inspector/input"
	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/internal/consumer"
	"pgoutput-inspector/internal/dump"
)

// TestBrowsersConsumer opens the capture of a PostgreSQL subscriber whose apply worker was
// stopped for 5 s (testdata/consumer) and turns the Consumer panel on: the export worker's
// report shows the apply connection's flush lag as pgoutput-inspect consumer computes it,
// the chart marks the slowest flush, whose point selects its Commit; the silence is listed,
// and its button, reached with the keyboard, selects its message; the panel passes axe.
func TestBrowsersConsumer(t *testing.T) {
	const rel = "consumer/subscriber-stopped-pg15.pcapng"
	rep := reportOf(t, rel)
	var apply *consumer.Conn
	for _, c := range rep.Conns {
		if c.Slot == "sub" {
			apply = c
		}
	}
	if apply == nil {
		t.Fatal("no apply connection")
	}
	flush := apply.Lags(consumer.Flush)
	bad := reportOf(t, "consumer/misreport-pg17.pcapng").Conns[0].Anomalies[0]
	slowest := apply.Ends[flush.MaxEnd].Msg
	// The silent pg_recvlogical the server ended at wal_sender_timeout: the close is the last
	// anomaly, and the counts say who closed the connection.
	silent := reportOf(t, "consumer/recvlogical-unanswered-pg16.pcapng").Conns[0]
	timeout := silent.Anomalies[len(silent.Anomalies)-1]
	if timeout.Kind != consumer.Timeout || silent.CloseText() == "" {
		t.Fatalf("the unanswered capture's report: %+v", silent.Anomalies)
	}
	// The same with the server's own wal_sender_timeout, 2 s, set in the panel.
	two := reportWith(t, "consumer/recvlogical-unanswered-pg16.pcapng", consumer.Settings{SenderTimeout: 2e9}).Conns[0]
	timeout2 := two.Anomalies[len(two.Anomalies)-1]
	if timeout2.Kind != consumer.Timeout || timeout2.Text == timeout.Text {
		t.Fatalf("with wal_sender_timeout 2 s: %+v", two.Anomalies)
	}
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, _ string) {
		openTestdata(t, b, rel)
		b.Click(".consumer-toggle")
		poll(t, b, "the report's flush lag", `((e) => e && e.textContent === `+jsQuote(consumer.Seconds(flush.Max))+` ? "" : e ? e.textContent : "no report yet: "+document.querySelector(".consumer-status").textContent)(document.querySelector("#consumer-body .consumer-lags .lag-flush td:nth-child(3)"))`)
		waitText(t, b, ".consumer-status", "")
		waitText(t, b, "#tree-title", "Consumer")
		if n := b.Count("#consumer-body .consumer-chart circle.point"); n != len(apply.Updates) {
			t.Errorf("%d points in the chart, want the %d status updates of the apply connection", n, len(apply.Updates))
		}
		// The slowest flush's point selects its Commit.
		b.Eval(`document.querySelector("#consumer-body circle.spike").dispatchEvent(new MouseEvent("click", {bubbles: true}))`, nil)
		until(b, `document.querySelector('.mrow.selected[data-msg="`+strconv.Itoa(slowest)+`"]')`)
		poll(t, b, "the hex view shows the Commit", `((h) => h.includes("Commit") ? "" : h)(document.querySelector(".hex-panel h2").textContent)`)
		axeSerious(t, b, b.Name()+", the Consumer panel")
		// Another file: the panel checks it in turn. The misreporting consumer's first anomaly
		// (its flush going back) is a button; focused and pressed with Enter, it selects its
		// message.
		openTestdata(t, b, "consumer/misreport-pg17.pcapng")
		poll(t, b, "the report's first anomaly", `((e) => e && e.textContent.startsWith(`+jsQuote(string(bad.Kind)+": "+bad.Text)+`) ? "" : e ? e.textContent : "none yet")(document.querySelector("#consumer-body .consumer-anomalies button"))`)
		b.Eval(`document.querySelector("#consumer-body .consumer-anomalies button").focus()`, nil)
		b.Press("Enter")
		until(b, `document.querySelector('.mrow.selected[data-msg="`+strconv.Itoa(bad.Msgs[len(bad.Msgs)-1])+`"]')`)
		openTestdata(t, b, "consumer/recvlogical-unanswered-pg16.pcapng")
		poll(t, b, "the timeout and the close", `((as, p) => as.length && as[as.length-1].textContent === `+jsQuote(string(timeout.Kind)+": "+timeout.Text)+
			` && p.textContent.includes(`+jsQuote(silent.CloseText())+`) ? "" : as.length ? as[as.length-1].textContent : "none yet")(document.querySelectorAll("#consumer-body .consumer-anomalies button"), document.querySelector("#consumer-body .consumer-conn p"))`)
		// The server's wal_sender_timeout set to 2 s: the report is checked again against it.
		b.Eval(`((i) => { i.value = "2"; i.dispatchEvent(new Event("change", {bubbles: true})); })(document.querySelector("#consumer-sender-timeout"))`, nil)
		poll(t, b, "the timeout against 2 s", `((as) => as.length && as[as.length-1].textContent === `+jsQuote(string(timeout2.Kind)+": "+timeout2.Text)+
			` ? "" : as.length ? as[as.length-1].textContent : "none yet")(document.querySelectorAll("#consumer-body .consumer-anomalies button"))`)
		var shown []string
		b.Eval(`[document.querySelector("#consumer-sender-timeout").value, document.querySelector("#consumer-status-interval").value]`, &shown)
		if len(shown) != 2 || shown[0] != "2" || shown[1] != "10" {
			t.Errorf("the settings show %q, want 2 and 10", shown)
		}
		// Another panel takes the tree's place; the Consumer panel comes back with its report.
		b.Click(".timeline-toggle")
		until(b, `document.querySelector(".consumer-toggle").getAttribute("aria-pressed") === "false" && !document.querySelector("#consumer-body")`)
		b.Click(".consumer-toggle")
		until(b, `document.querySelector("#consumer-body .consumer-lags")`)
	})
}

// reportOf is pgoutput-inspect consumer's report of testdata/rel, with the page's settings
// (PostgreSQL's defaults).
func reportOf(t *testing.T, rel string) *consumer.Report {
	t.Helper()
	return reportWith(t, rel, consumer.Settings{})
}

// reportWith is pgoutput-inspect consumer's report of testdata/rel with the settings set.
func reportWith(t *testing.T, rel string, set consumer.Settings) *consumer.Report {
	t.Helper()
	f, err := os.Open("../testdata/" + rel)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := dump.Consumers(f, pginput.Auto, decoder.Options{}, set, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
