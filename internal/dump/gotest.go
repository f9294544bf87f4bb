package dump

import (
	"io"
	"strconv"

	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/export"
)

// goTestWriter is KindGoTest (decode --go-test N): instead of the dump, message n (from 1) as
// a Go test against pglogrepl (export.AppendGoTest); why says why there is none.
type goTestWriter struct {
	w    io.Writer
	n    int
	name string // the input's name, for the test's comment
	why  string
	done bool
	err  error
}

func (g *goTestWriter) Begin(*input.Result, int)   {}
func (g *goTestWriter) InputErrors([]*input.Error) {}

func (g *goTestWriter) Connections([]Connection) {}
func (g *goTestWriter) Comment(int, string)      {}

func (g *goTestWriter) Message(index int, m *Message) {
	if index+1 != g.n {
		return
	}
	g.done = true
	num := strconv.Itoa(g.n)
	b, err := export.AppendGoTest(nil, m.Tree, "Message"+num, "message "+num+" of "+g.name)
	if err != nil {
		g.why = err.Error()
		return
	}
	_, g.err = g.w.Write(b)
}

func (g *goTestWriter) End(count int) error {
	if !g.done && g.why == "" {
		g.why = "the input has " + strconv.Itoa(count) + pgvalue.Plural(count, " message", " messages")
	}
	return g.err
}
