package consumer

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"pgoutput-inspector/decoder/pgvalue"
)

// The chart: for each replication connection, LSN over capture time: the WAL the server had
// sent, and the client's written, flushed and applied positions as its status updates said,
// each a step line; the slowest flush is drawn from its end to its acknowledgement, and each
// anomaly is a mark at its first message. Points carry data-msg (the message's index in the
// input) and a title with the figures.

// The chart is drawn for the page's panel, about 360 px wide, and scales.
const (
	chartWidth  = 360
	chartHeight = 220
	marginLeft  = 62
	marginRight = 10
	marginTop   = 44
	marginBot   = 22
)

var seriesColors = [...]string{"#555", "#1f77b4", "#d62728", "#2ca02c"} // sent, write, flush, apply

// SVG draws the report's chart: one panel per replication connection with capture times.
func SVG(r *Report) []byte {
	var conns []*Conn
	for _, c := range r.Conns {
		if c.Last > c.First && len(c.Data) > 0 {
			conns = append(conns, c)
		}
	}
	h := max(len(conns), 1) * chartHeight
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" class="consumer-chart" width="` + itoa(chartWidth) + `" height="` + itoa(h) +
		`" viewBox="0 0 ` + itoa(chartWidth) + ` ` + itoa(h) + `" font-family="sans-serif" font-size="10" role="img">`)
	b.WriteString(`<title>LSN over capture time: WAL sent, written, flushed, applied</title>`)
	if len(conns) == 0 {
		b.WriteString(`<text x="10" y="20">No replication connection with capture times.</text>`)
	}
	for i, c := range conns {
		drawConn(&b, c, i*chartHeight)
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

type point struct {
	t   int64
	lsn uint64
	msg int
}

func drawConn(b *strings.Builder, c *Conn, top int) {
	// The series, in time order.
	var series [4][]point
	for _, e := range c.Ends {
		series[0] = append(series[0], point{e.Time, e.LSN, e.Msg})
	}
	for _, k := range c.Keepalives {
		series[0] = append(series[0], point{k.Time, k.WALEnd, k.Msg})
	}
	sort.SliceStable(series[0], func(i, j int) bool { return series[0][i].t < series[0][j].t })
	var high uint64
	for i := range series[0] { // the WAL sent so far never goes back
		high = max(high, series[0][i].lsn)
		series[0][i].lsn = high
	}
	for _, u := range c.Updates {
		for p := Write; p <= Apply; p++ {
			if u.Pos[p] != 0 {
				series[1+p] = append(series[1+p], point{u.Time, u.Pos[p], u.Msg})
			}
		}
	}
	lo, hi := ^uint64(0), uint64(0)
	for _, s := range series {
		for _, p := range s {
			lo, hi = min(lo, p.lsn), max(hi, p.lsn)
		}
	}
	if lo > hi {
		lo, hi = 0, 1
	}
	if hi == lo {
		hi = lo + 1
	}
	x := func(t int64) float64 {
		return marginLeft + float64(t-c.First)/float64(c.Last-c.First)*float64(chartWidth-marginLeft-marginRight)
	}
	y := func(l uint64) float64 {
		return float64(top+chartHeight-marginBot) - float64(l-lo)/float64(hi-lo)*float64(chartHeight-marginTop-marginBot)
	}
	title := "connection " + itoa(c.Number)
	if c.Slot != "" {
		title += ", slot " + c.Slot
	}
	text(b, 4, float64(top+13), "start", title, "")
	// Axes: LSN at the bottom and top, seconds along the time axis.
	left, right := float64(marginLeft), float64(chartWidth-marginRight)
	bottom := float64(top + chartHeight - marginBot)
	b.WriteString(`<path d="M` + f(left) + ` ` + f(float64(top+marginTop)) + `V` + f(bottom) + `H` + f(right) + `" stroke="#999" fill="none"/>`)
	text(b, left-4, bottom, "end", pgvalue.FormatLSN(lo), "")
	text(b, left-4, float64(top+marginTop+4), "end", pgvalue.FormatLSN(hi), "")
	span := c.Last - c.First
	for k, anchor := range [...]string{"start", "middle", "end"} {
		t := c.First + span*int64(k)/2
		text(b, x(t), bottom+13, anchor, strconv.FormatFloat(float64(t-c.First)/1e9, 'f', 1, 64)+" s", "")
	}
	// Legend, under the title.
	for i, name := range [...]string{"sent", "written", "flushed", "applied"} {
		lx := 4 + float64(i)*72
		b.WriteString(`<rect x="` + f(lx) + `" y="` + itoa(top+20) + `" width="9" height="9" fill="` + seriesColors[i] + `"/>`)
		text(b, lx+12, float64(top+28), "start", name, "")
	}
	for i, s := range series {
		if len(s) == 0 {
			continue
		}
		var d strings.Builder
		steps(&d, s, x, y)
		d.WriteString("H" + f(x(c.Last)))
		b.WriteString(`<path class="series s` + itoa(i) + `" d="` + d.String() + `" stroke="` + seriesColors[i] + `" fill="none" stroke-width="1.5"/>`)
	}
	// Each status update is a point to choose, with its figures.
	for _, u := range c.Updates {
		tip := "status update, message " + itoa(u.Msg) + " at " + seconds(u.Time-c.First) + ": write " + pgvalue.FormatLSN(u.Pos[Write]) +
			", flush " + pgvalue.FormatLSN(u.Pos[Flush]) + ", apply " + pgvalue.FormatLSN(u.Pos[Apply]) + "; " + strconv.FormatUint(u.Unflushed, 10) + " bytes sent not flushed"
		circle(b, x(u.Time), y(max(u.Pos[Flush], lo)), 2.5, seriesColors[2], u.Msg, tip, "point")
	}
	// The slowest flush: from the end's frame to its acknowledgement.
	if s := c.Lags(Flush); s.MaxEnd >= 0 {
		e := c.Ends[s.MaxEnd]
		u := c.Updates[e.Acks[Flush].Update]
		yy := y(e.LSN)
		b.WriteString(`<path class="lag" d="M` + f(x(e.Time)) + ` ` + f(yy) + `H` + f(x(u.Time)) + `" stroke="#d62728" stroke-dasharray="4 3" fill="none"/>`)
		circle(b, x(e.Time), yy, 4, "#d62728", e.Msg, "slowest flush: "+e.Kind+" "+pgvalue.FormatLSN(e.LSN)+", message "+itoa(e.Msg)+", flushed "+seconds(e.Acks[Flush].Lag)+" later (message "+itoa(u.Msg)+")", "spike")
		text(b, min(x(e.Time)+6, right-90), yy-5, "start", "flush lag "+seconds(e.Acks[Flush].Lag), "#d62728")
	}
	for _, a := range c.Anomalies {
		if len(a.Msgs) == 0 {
			continue
		}
		m := a.Msgs[len(a.Msgs)-1]
		t, ok := c.timeOf(m)
		if !ok {
			continue
		}
		xx := x(t)
		b.WriteString(`<path class="anomaly-mark" d="M` + f(xx) + ` ` + f(float64(top+marginTop)) + `V` + f(bottom) + `" stroke="#ff7f0e" stroke-dasharray="2 2"/>`)
		circle(b, xx, float64(top+marginTop), 5, "#ff7f0e", m, string(a.Kind)+": "+a.Text, "anomaly")
	}
}

// steps writes series s as a step line: from its first point, a horizontal move to each
// point's time, then a vertical one to its LSN. The points within a quarter unit of time of
// each other are one vertical stroke over their LSNs, ending at the last: a line never has
// more than about 4×chartWidth steps, however long the input (a gigabyte's commits made
// megabytes of path), and looks the same.
func steps(d *strings.Builder, s []point, x func(int64) float64, y func(uint64) float64) {
	d.WriteString("M" + f(x(s[0].t)) + " " + f(y(s[0].lsn)))
	column := func(t int64) float64 { return math.Round(x(t) * 4) }
	for i := 1; i < len(s); {
		lo, hi, j := y(s[i].lsn), y(s[i].lsn), i+1
		for ; j < len(s) && column(s[j].t) == column(s[i].t); j++ {
			lo, hi = min(lo, y(s[j].lsn)), max(hi, y(s[j].lsn))
		}
		last := y(s[j-1].lsn)
		d.WriteString("H" + f(x(s[i].t)))
		if lo != last || hi != last {
			d.WriteString("V" + f(lo) + "V" + f(hi))
		}
		d.WriteString("V" + f(last))
		i = j
	}
}

// timeOf returns the capture time of message msg of the connection.
func (c *Conn) timeOf(msg int) (int64, bool) {
	for _, u := range c.Updates {
		if u.Msg == msg {
			return u.Time, true
		}
	}
	for _, e := range c.Ends {
		if e.Msg == msg {
			return e.Time, true
		}
	}
	for _, k := range c.Keepalives {
		if k.Msg == msg {
			return k.Time, true
		}
	}
	return 0, false
}

func circle(b *strings.Builder, x, y, r float64, color string, msg int, tip, class string) {
	b.WriteString(`<circle class="` + class + `" cx="` + f(x) + `" cy="` + f(y) + `" r="` + f(r) + `" fill="` + color + `" data-msg="` + itoa(msg) + `"><title>` +
		escape(tip) + `</title></circle>`)
}

func text(b *strings.Builder, x, y float64, anchor, s, color string) {
	b.WriteString(`<text x="` + f(x) + `" y="` + f(y) + `" text-anchor="` + anchor + `"`)
	if color != "" {
		b.WriteString(` fill="` + color + `"`)
	}
	b.WriteString(`>` + escape(s) + `</text>`)
}

func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(pgvalue.SafeText(s))
}

func f(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
func itoa(n int) string  { return strconv.Itoa(n) }
