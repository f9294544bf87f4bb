// Command page is the hex view alone on a page, for the browser tests of package
// hexview/render/browser: 1 MB of bytes shaped like pgoutput Insert messages in XLogData
// envelopes, drawn by render.View with the selection and hover wired as the inspector does.
//
// It exposes to the test: window.hvStats (sizes and timings), window.hvMarks() (the marks as
// JSON) and window.hvSelect(offset, length) (select as the tree would).
package main

import (
	"strconv"
	"syscall/js"
	"time"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"

	"pgoutput-inspector/hexview"
	"pgoutput-inspector/hexview/render"
)

// size is the number of bytes drawn.
const size = 1 << 20

// layout returns size bytes of XLogData-wrapped Insert messages, and their fields as spans.
func layout() ([]byte, []hexview.Span) {
	data := make([]byte, 0, size+256)
	var spans []hexview.Span
	field := func(class hexview.Class, b ...byte) {
		spans = append(spans, hexview.Span{Offset: len(data), Length: len(b), Class: class, ID: int32(len(spans))})
		data = append(data, b...)
	}
	lsn := uint64(0x1773FE8)
	for i := 0; len(data) < size; i++ {
		be := func(v uint64, n int) []byte {
			b := make([]byte, n)
			for k := n - 1; k >= 0; k-- {
				b[k], v = byte(v), v>>8
			}
			return b
		}
		field(hexview.ClassEnvelope, 'w')
		field(hexview.ClassLSN, be(lsn, 8)...)
		field(hexview.ClassLSN, be(lsn+64, 8)...)
		field(hexview.ClassTime, be(uint64(i)*1000, 8)...)
		field(hexview.ClassType, 'I')
		field(hexview.ClassOID, be(16384, 4)...)
		field(hexview.ClassMarker, 'N')
		field(hexview.ClassInteger, be(3, 2)...)
		for _, v := range []string{strconv.Itoa(i), "name " + strconv.Itoa(i%97), "<img src=x onerror=alert(1)>"} {
			field(hexview.ClassMarker, 't')
			field(hexview.ClassLength, be(uint64(len(v)), 4)...)
			field(hexview.ClassValue, []byte(v)...)
		}
		lsn += 96
	}
	// Bytes no field describes, as a decoder leaves after an error.
	field(hexview.ClassError, 0xde, 0xad)
	data = append(data, 0xbe, 0xef)
	return data, spans
}

type page struct {
	vecty.Core
	model *hexview.Model
	marks hexview.Marks
}

func (p *page) Render() vecty.ComponentOrHTML {
	return elem.Body(&render.View{
		Model: p.model,
		Marks: p.marks,
		OnHover: func(f hexview.Field, ok bool) {
			p.marks.Hover = hexview.Range{}
			if ok {
				p.marks.Hover = f.Range
			}
			vecty.Rerender(p)
		},
		OnSelect: func(sel hexview.Range, _ hexview.Field) {
			p.marks.Selection = sel
			vecty.Rerender(p)
		},
	})
}

func main() {
	start := time.Now()
	data, spans := layout()
	model, err := hexview.New(data, spans, hexview.DefaultWidth)
	if err != nil {
		js.Global().Get("console").Call("error", err.Error())
		return
	}
	built := time.Since(start)
	p := &page{model: model}
	if err := vecty.RenderInto("body", p); err != nil { // RenderBody would not return
		js.Global().Get("console").Call("error", err.Error())
		return
	}
	stats := js.Global().Get("Object").New()
	stats.Set("bytes", len(data))
	stats.Set("spans", model.SpanCount())
	stats.Set("rows", model.RowCount())
	stats.Set("modelMs", float64(built.Microseconds())/1000)
	stats.Set("firstRenderMs", float64(time.Since(start).Microseconds())/1000)
	js.Global().Set("hvStats", stats)
	js.Global().Set("hvSelect", js.FuncOf(func(_ js.Value, args []js.Value) any {
		p.marks.Selection = hexview.Range{Offset: args[0].Int(), Length: args[1].Int()}
		vecty.Rerender(p)
		return nil
	}))
	js.Global().Set("hvMarks", js.FuncOf(func(js.Value, []js.Value) any {
		m := p.marks
		return strconv.Itoa(m.Selection.Offset) + "," + strconv.Itoa(m.Selection.Length) + "," +
			strconv.Itoa(m.Hover.Offset) + "," + strconv.Itoa(m.Hover.Length)
	}))
	select {}
}
