package consumer

import (
	"strconv"
	"strings"
)

// HTML writes the report as the page's Consumer panel shows it: the chart (SVG), then for
// each replication connection a table of its lags (a screen reader's way through the chart),
// its counts, its anomalies and its slowest transactions. Every anomaly and transaction is a
// button carrying the message's index (data-msg), as are the chart's points: the page
// selects that message when one is chosen. Every text is escaped.
func HTML(r *Report) []byte {
	var b strings.Builder
	b.WriteString(`<div class="consumer-report">`)
	if len(r.Conns) == 0 {
		b.WriteString(`<p>No replication stream: the input holds no XLogData, keepalive or status update. The Consumer panel reads packet captures of replication connections (pcap, pcapng).</p></div>`)
		return []byte(b.String())
	}
	if !r.Timed {
		b.WriteString(`<p>The input carries no capture times (it is not a packet capture): no lag can be measured.</p>`)
	} else {
		svg := SVG(r)
		b.WriteString(`<figure class="consumer-figure" aria-label="LSN over capture time; the tables below give its figures">`)
		b.Write(svg[:len(svg)-1]) // without its newline
		b.WriteString(`<figcaption>LSN over capture time: WAL sent (grey), written (blue), flushed (red), applied (green); the dashed line is the slowest flush; orange marks an anomaly. Choose a point to select its message.</figcaption></figure>`)
	}
	for _, c := range r.Conns {
		title := "Connection " + itoa(c.Number)
		if c.Slot != "" {
			title += ", slot " + c.Slot
		}
		if c.Application != "" {
			title += ", application_name " + c.Application
		}
		b.WriteString(`<section class="consumer-conn"><h3>` + escape(title) + `</h3>`)
		commits, aborts := c.Counts()
		b.WriteString(`<p>` + escape(count(commits, "commit")+", "+count(aborts, "abort")+", "+count(len(c.Updates), "status update")+", "+
			count(len(c.Keepalives), "keepalive")+" ("+itoa(c.AskedReply())+" asking for a reply), WAL sent up to "+lsn(c.Sent)))
		if n := c.MaxReply(); n >= 0 && r.Timed {
			b.WriteString(escape("; longest reply to a keepalive that asked: " + seconds(n)))
		}
		if t := c.CloseText(); t != "" {
			b.WriteString(escape("; " + t))
		}
		if t := c.LostText(); t != "" {
			b.WriteString(escape("; " + t))
		}
		b.WriteString(`</p>`)
		if r.Timed && len(c.Ends) > 0 {
			b.WriteString(`<table class="consumer-lags"><caption>` + escape("Lag from a transaction's end to its acknowledgement, connection "+itoa(c.Number)) +
				`</caption><thead><tr><th scope="col">position</th><th scope="col">acked</th><th scope="col">max</th><th scope="col">median</th><th scope="col">never</th></tr></thead><tbody>`)
			for p := Write; p <= Apply; p++ {
				b.WriteString(`<tr class="lag-` + p.String() + `"><th scope="row">` + p.String() + `</th>`)
				if !c.Reported[p] {
					b.WriteString(`<td colspan="4">never reported by this client (always 0)</td></tr>`)
					continue
				}
				s := c.Lags(p)
				cells := []string{itoa(s.Acked), "-", "-", itoa(s.Unacked)}
				if s.Acked > 0 {
					cells[1], cells[2] = seconds(s.Max), seconds(s.Median)
				}
				for _, v := range cells {
					b.WriteString(`<td>` + escape(v) + `</td>`)
				}
				b.WriteString(`</tr>`)
			}
			b.WriteString(`</tbody></table>`)
		}
		b.WriteString(`<h4>Anomalies</h4>`)
		if len(c.Anomalies) == 0 {
			b.WriteString(`<p class="consumer-ok">None.</p>`)
		} else {
			b.WriteString(`<ul class="consumer-anomalies">`)
			for _, a := range c.Anomalies {
				msg := -1
				if len(a.Msgs) > 0 {
					msg = a.Msgs[len(a.Msgs)-1]
				}
				b.WriteString(`<li>` + button(msg, string(a.Kind)+": "+a.Text) + `</li>`)
			}
			b.WriteString(`</ul>`)
		}
		if un := c.Unacknowledged(); len(un) > 0 {
			b.WriteString(`<h4>Never acknowledged flushed</h4><ul class="consumer-unacked">`)
			for _, i := range un[:min(len(un), maxListed)] {
				e := c.Ends[i]
				b.WriteString(`<li>` + button(e.Msg, "message "+itoa(e.Msg)+", "+e.Kind+" "+lsn(e.LSN)) + `</li>`)
			}
			if len(un) > maxListed {
				b.WriteString(`<li>and ` + itoa(len(un)-maxListed) + ` more (pgoutput-inspect consumer lists them all)</li>`)
			}
			b.WriteString(`</ul>`)
		}
		if r.Timed && len(c.Ends) > 0 {
			b.WriteString(`<h4>Slowest to flush</h4><ol class="consumer-slowest">`)
			for _, i := range c.Slowest(5) {
				e := c.Ends[i]
				s := "message " + itoa(e.Msg) + ", " + e.Kind + " " + lsn(e.LSN)
				for p := Write; p <= Apply; p++ {
					if c.Reported[p] && (p != Apply || e.NeedsApply) {
						v := "never"
						if a := e.Acks[p]; a.Update >= 0 {
							v = seconds(a.Lag)
						}
						s += ", " + p.String() + " " + v
					}
				}
				b.WriteString(`<li>` + button(e.Msg, s) + `</li>`)
			}
			b.WriteString(`</ol>`)
		}
		b.WriteString(`</section>`)
	}
	b.WriteString(`</div>`)
	return []byte(b.String())
}

// maxListed is the most transactions never acknowledged the report lists (the first), so
// that it stays small however long the input.
const maxListed = 20

// button is a button that selects message msg (none when msg < 0: plain text).
func button(msg int, s string) string {
	if msg < 0 {
		return escape(s)
	}
	return `<button type="button" class="consumer-go" data-msg="` + itoa(msg) + `">` + escape(s) + `</button>`
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
