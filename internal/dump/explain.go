package dump

import (
	"strings"
	"unicode/utf8"

	"pgoutput-inspector/decoder"
)

// explainWidth is where decode --explain wraps its sentences; a deep field still gets
// explainMinText columns of text.
const (
	explainWidth   = 100
	explainMinText = 48
)

// explainLine writes node i's explain sentence (Tree.AppendExplain, the page's explain mode)
// under its line, from the name column, wrapped at explainWidth.
func (d *Text) explainLine(t *decoder.Tree, i, indent int) {
	d.exp = t.AppendExplain(d.exp[:0], i)
	d.wrapped(strings.Fields(string(d.exp)), indent, sgrDim)
}

// wrapped writes the words in lines from column indent, wrapped at explainWidth (a long word
// stays whole), each coloured code.
func (d *Text) wrapped(text []string, indent int, code string) {
	room := max(explainWidth-indent, explainMinText)
	for len(text) > 0 {
		d.buf = appendSpaces(d.buf, indent)
		d.sgr(code)
		n := 0
		for k, w := range text {
			wl := utf8.RuneCountInString(w)
			if k > 0 && n+1+wl > room {
				text = text[k:]
				break
			}
			if k > 0 {
				d.buf = append(d.buf, ' ')
				n++
			}
			d.buf = append(d.buf, w...)
			n += wl
			if k == len(text)-1 {
				text = nil
			}
		}
		d.reset(code)
		d.flushLine()
	}
}
