package dump

import (
	"io"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/consumer"
)

// Consumers reads the input as Decode does (each connection of a capture with its
// conversation) and returns the consumer check's report of its replication connections
// (pgoutput-inspect consumer, and the page's Consumer panel through the export worker). The
// input's errors go to inputErrors as they are met.
func Consumers(r io.Reader, format input.Format, opts decoder.Options, s consumer.Settings, inputErrors func([]*input.Error)) (*consumer.Report, error) {
	st := input.NewStream(r, format)
	res, err := st.Start()
	if res == nil {
		return nil, err
	}
	capture := input.ReadCaptureOptions(res.Header)
	cs := decoder.NewConnections(capture.DecoderOptions(opts))
	b := consumer.NewBuilder(s)
	if inputErrors == nil {
		inputErrors = func([]*input.Error) {}
	}
	if _, err := DecodeAll(st, res, cs, consumerWriter{b}, inputErrors); err != nil {
		return nil, err
	}
	if err := st.Err(); err != nil {
		return nil, err
	}
	return b.Finish(func(conn int) *decoder.ConversationInfo {
		if conn <= 0 || conn >= cs.Len() {
			return nil
		}
		return &cs.Conversation(conn).Info
	}), nil
}

// consumerWriter hands each decoded message to the builder: the consumer check as a Writer of
// DecodeAll, so that it reads the input exactly as decode does.
type consumerWriter struct{ b *consumer.Builder }

func (consumerWriter) Begin(*input.Result, int)   {}
func (consumerWriter) InputErrors([]*input.Error) {}
func (consumerWriter) Comment(int, string)        {}
func (consumerWriter) End(int) error              { return nil }

// Connections gives the builder how each connection's TCP connection ended.
func (w consumerWriter) Connections(conns []Connection) {
	for i, c := range conns {
		if c.LostAtEnd > 0 {
			w.b.Lost(i+1, decoder.SideUnknown, c.LostAtEnd)
		}
		if c.CloseFrame > 0 {
			w.b.Closed(i+1, consumer.Close{Frame: c.CloseFrame, Time: c.Closed, By: c.ClosedBy, Reset: c.Reset})
		}
	}
}

func (w consumerWriter) Message(index int, m *Message) {
	if m.Lost > 0 {
		w.b.Lost(m.Conn, m.Side, m.Lost)
	}
	w.b.Add(index, m.Tree, m.Side, m.Conn, m.Time)
}
