package dump

import (
	"strconv"

	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/input"
)

// Markdown writes the text dump for an issue or a chat (decode --markdown, the page's
// "Dump as Markdown"): a heading naming the input and its messages, then the dump, exactly as
// Text writes it, in a fenced code block, which GitHub and CommonMark show as it is, in a
// fixed-width font, HTML and all.
//
// The fence is three backticks: no line of the dump can close it early, since a closing fence
// is at most three spaces from the start of its line and every line of the dump starts with a
// word, "#" or at least four columns of offset or indentation (TestMarkdownFence).
type Markdown struct {
	// Text writes the dump inside the fence; not in colour.
	*Text
	// Name names the input in the heading ("app.capture", "standard input"); it is written as
	// text, every Markdown character in it escaped.
	Name string
}

// markdownFence opens and closes the dump's code block.
const markdownFence = "```"

// Begin writes the heading, opens the code block and writes the dump's first lines.
func (m Markdown) Begin(res *input.Result, count int) {
	d := m.Text
	d.buf = append(d.buf, "### "...)
	d.buf = appendMarkdownText(d.buf, m.Name)
	d.buf = append(d.buf, ": "...)
	switch {
	case count < 0:
		d.buf = append(d.buf, "pgoutput messages, decoded as they were read"...)
	case count == 0:
		d.buf = append(d.buf, "no pgoutput messages"...)
	default:
		d.buf = appendCount(d.buf, count)
		d.buf = append(d.buf, " ("...)
		if count > 1 {
			d.buf = append(d.buf, "0 to "...)
		}
		d.buf = strconv.AppendInt(d.buf, int64(count-1), 10)
		d.buf = append(d.buf, ')')
	}
	d.flushLine()
	d.flushLine()
	d.buf = append(d.buf, markdownFence+"text"...)
	d.flushLine()
	m.Text.Begin(res, count)
}

// End writes the dump's last lines and closes the code block.
func (m Markdown) End(count int) error {
	m.Text.End(count)
	m.buf = append(m.buf, markdownFence...)
	m.flushLine()
	return m.err
}

// appendMarkdownText appends s as Markdown text that reads as s: escaped as the dump escapes
// names (pgvalue.AppendSafe: no line breaks or control characters), then every ASCII
// punctuation character, each of which CommonMark lets a backslash escape, so that nothing in
// it is a link, emphasis, HTML or code.
func appendMarkdownText(dst []byte, s string) []byte {
	start := len(dst)
	dst = pgvalue.AppendSafe(dst, s)
	safe := string(dst[start:])
	dst = dst[:start]
	for i := 0; i < len(safe); i++ {
		c := safe[i]
		if c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~' {
			dst = append(dst, '\\')
		}
		dst = append(dst, c)
	}
	return dst
}
