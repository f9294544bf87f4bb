package web

import (
	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/consumer"
)

// PartsConsumer is the consumer check (internal/consumer) of a big file read part by part, as
// the export worker reads it for the Consumer panel: each part decoded going on from the parts
// before (NewPartDoc), its messages numbered on from theirs, its connections numbered by their
// endpoints in the order they first came, and a capture's frames counted on, so that the
// report is the whole file's, as pgoutput-inspect consumer gives it. main.wasm does not link
// it (the check is export.wasm's: docs/performance.md).
type PartsConsumer struct {
	b      *consumer.Builder
	carry  Carry
	conns  map[string]int // a connection's number in the whole file, by its endpoints
	keys   []string       // the endpoints of connection k+1
	frames int            // the frames of the parts added
	// Counts are the messages of each part added, in order.
	Counts []int
}

// NewPartsConsumer starts the check, measured against s.
func NewPartsConsumer(s consumer.Settings) *PartsConsumer {
	return &PartsConsumer{b: consumer.NewBuilder(s), conns: map[string]int{}}
}

// Add reads the next part, text read as format (a file of its own: a capture's head and its
// frames), which holds frames frames (the cutting's count; 0 for a file of messages). A part
// that does not read (one frame inside a message longer than a part, which the page shows
// as an error) adds no message.
func (p *PartsConsumer) Add(text string, format input.Format, frames int) {
	d := NewPartDoc(text, format, &p.carry)
	if d == nil {
		p.Counts = append(p.Counts, 0)
		p.frames += frames
		return
	}
	// The part's connection k+1 is the whole file's number[k].
	number := make([]int, len(d.Connections))
	for k, c := range d.Connections {
		key := endpoints(&c)
		if p.conns[key] == 0 {
			p.keys = append(p.keys, key)
			p.conns[key] = len(p.keys)
		}
		number[k] = p.conns[key]
	}
	conn := func(c int) int {
		if c <= 0 || c > len(number) {
			return 0
		}
		return number[c-1]
	}
	first := 0
	for _, n := range p.Counts {
		first += n
	}
	for i := range d.Messages {
		m := &d.Messages[i]
		if m.Lost > 0 {
			p.b.Lost(conn(m.Conn), m.Side, m.Lost)
		}
		p.b.Add(first+i, d.Trees[i], m.Side, conn(m.Conn), m.Time)
	}
	for k, c := range d.Connections {
		if c.LostAtEnd > 0 {
			p.b.Lost(number[k], decoder.SideUnknown, c.LostAtEnd)
		}
		if c.CloseFrame > 0 {
			p.b.Closed(number[k], consumer.Close{Frame: p.frames + c.CloseFrame, Time: c.Closed, By: c.ClosedBy, Reset: c.Reset})
		}
	}
	p.Counts = append(p.Counts, len(d.Messages))
	p.frames += frames
}

// Report ends the check and gives its report.
func (p *PartsConsumer) Report() *consumer.Report {
	return p.b.Finish(func(conn int) *decoder.ConversationInfo {
		if conn <= 0 || conn > len(p.keys) {
			return nil
		}
		return &p.carry.convs[p.keys[conn-1]].Info
	})
}
