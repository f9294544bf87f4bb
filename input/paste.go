package input

import (
	"bytes"
	"strconv"

	"pgoutput-inspector/decoder/pgvalue"
)

// A paste often carries what the place it came through added: the indentation of a Markdown
// code block or of a chat message, e-mail quoting ("> "), a code fence ("```"), and a first
// line indented less than the rest (selected from its first visible character, or typed after
// a prompt: each line loses its own indentation then). cleanPaste
// takes them off once, for every format, so that no reader has to know about them; line
// numbers stay the same, and positions map back to the text as pasted. Blanks at the ends of
// lines (an editor's or a terminal's padding) and CRLF line ends stay: every reader reads
// lines with nextLine, which drops the '\r', and skips blanks around what it reads (a value
// in bytea's escape format can end in a blank of its own).

// pasteText is a text as the readers see it, and how to find its positions in the original.
type pasteText struct {
	orig, text []byte
	// quote is how many levels of '>' quoting each line lost; indent the common leading
	// blanks each non-blank line lost after that. Trailing blanks and '\r' only ever go at
	// a line's end, so they move no position.
	quote  int
	indent []byte
	// first is the index of the first non-blank line, which lost firstIndent (a prefix of
	// indent, shorter when the lines after it are indented more).
	first       int
	firstIndent []byte
	// note says what was taken off, for Result.Notes ("" when only blanks at line ends or
	// CRLF went, which change nothing anyone reads).
	note string
	// changed says text is a cleaned copy.
	changed bool
	// memoOff, memoLine and memoStart remember origOffset's last offset, its line and where
	// that line starts in orig.
	memoOff, memoLine, memoStart int
}

// isFence reports whether line is a Markdown code fence ("```", "```sql", "~~~").
func isFence(line []byte) bool {
	a, _ := trimSpace(line, 0)
	l := line[a:]
	return bytes.HasPrefix(l, []byte("```")) || bytes.HasPrefix(l, []byte("~~~"))
}

// unquote takes one level of e-mail quoting off line: '>' and one blank after it. ok is
// false when the line is not quoted.
func unquote(line []byte) (rest []byte, n int, ok bool) {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') && i < 3 {
		i++
	}
	if i >= len(line) || line[i] != '>' {
		return line, 0, false
	}
	i++
	if i < len(line) && line[i] == ' ' {
		i++
	}
	return line[i:], i, true
}

// cleanPaste returns text without the additions described above. Text that has none is
// returned as it is, without a copy.
func cleanPaste(text []byte) *pasteText {
	p := &pasteText{orig: text, text: text}
	// One pass to see whether anything is to be done: line ends, fences, quoting, indentation.
	endBlanks, fences := false, false
	allQuoted := true
	var indent []byte
	first := true
	nonBlank := 0
	firstLead, restLead, restLines := 0, 0, 0
	for off := 0; off < len(text); {
		line, next := rawLine(text, off)
		off = next
		if n := len(line); n > 0 && isSpace(line[n-1]) {
			endBlanks = true
		}
		if isBlank(line) {
			continue
		}
		nonBlank++
		if isFence(line) {
			fences = true
			continue
		}
		if _, _, ok := unquote(line); !ok {
			allQuoted = false
		}
		lead := line[:leadingBlanks(line)]
		if first {
			indent, first = lead, false
			firstLead = len(lead)
		} else {
			indent = commonPrefix(indent, lead)
			if restLines == 0 || len(lead) < restLead {
				restLead = len(lead)
			}
			restLines++
		}
	}
	restMore := restLines >= 2 && restLead > firstLead // see below
	_ = endBlanks                                      // blanks at line ends stay: readers skip them, and a value may end in one
	if nonBlank == 0 || (!fences && !(allQuoted && !first) && len(indent) == 0 && !restMore) {
		return p
	}
	// Quoting levels: strip while every non-blank, non-fence line is quoted once more.
	lines := make([][]byte, 0, bytes.Count(text, []byte{'\n'})+1)
	for off := 0; off < len(text); {
		line, next := rawLine(text, off)
		off = next
		lines = append(lines, line)
	}
	for i, l := range lines {
		if isFence(l) {
			lines[i] = nil
		}
	}
	for allQuoted && !first {
		quoted := false
		for _, l := range lines {
			if isBlank(l) {
				continue
			}
			if _, _, ok := unquote(l); !ok {
				allQuoted = false
				break
			}
			quoted = true
		}
		if !allQuoted || !quoted {
			break
		}
		for i, l := range lines {
			if r, _, ok := unquote(l); ok {
				lines[i] = r
			} else if isBlank(l) {
				lines[i] = nil
			}
		}
		p.quote++
	}
	// The common indentation of the lines after the first, and the first line's own: a paste
	// whose first line was selected from its first visible character, or typed after a
	// prompt, has less than the rest.
	var rest []byte
	p.first, first = -1, true
	restLines = 0
	for i, l := range lines {
		if isBlank(l) {
			continue
		}
		lead := l[:leadingBlanks(l)]
		if p.first < 0 {
			p.first, p.firstIndent = i, lead
			continue
		}
		if first {
			rest, first = lead, false
		} else {
			rest = commonPrefix(rest, lead)
		}
		restLines++
	}
	indent = commonPrefix(p.firstIndent, rest)
	if restLines == 0 {
		indent = p.firstIndent
	}
	p.firstIndent = indent
	if restLines >= 2 && len(rest) > len(indent) {
		p.note = "Every line but the first was indented by " + strconv.Itoa(len(rest)) + pgvalue.Plural(len(rest), " blank", " blanks") +
			", the first by " + strconv.Itoa(len(indent)) + "; the indentation was taken off each."
		indent = rest
	}
	p.indent = indent
	out := make([]byte, 0, len(text))
	for i, l := range lines {
		if i > 0 {
			out = append(out, '\n')
		}
		if isBlank(l) {
			continue
		}
		if i == p.first {
			l = l[len(p.firstIndent):]
		} else {
			l = l[len(indent):]
		}
		if n := len(l); n > 0 && l[n-1] == '\r' {
			l = l[:n-1]
		}
		out = append(out, l...)
	}
	if text[len(text)-1] == '\n' {
		out = append(out, '\n')
	}
	p.text, p.changed = out, true
	switch {
	case p.note != "":
	case p.quote > 0 && fences:
		p.note = "The text was quoted (\">\") in a code block; the quoting and the code fences were taken off."
	case p.quote > 0:
		p.note = "Every line was quoted with \">\" (" + strconv.Itoa(p.quote) + pgvalue.Plural(p.quote, " level", " levels") + "); the quoting was taken off."
	case fences && len(indent) > 1:
		p.note = "The code fences and the indentation of " + strconv.Itoa(len(indent)) + pgvalue.Plural(len(indent), " blank", " blanks") + " on every line were taken off."
	case fences:
		p.note = "The code fences (\"```\") were taken off."
	case len(indent) > 1:
		// One blank is how psql starts a row (border 1), not indentation worth a word.
		p.note = "Every line was indented by " + strconv.Itoa(len(indent)) + pgvalue.Plural(len(indent), " blank", " blanks") + "; the indentation was taken off."
	}
	return p
}

// rawLine returns the line at off without its '\n', and where the next line starts.
func rawLine(text []byte, off int) (line []byte, next int) {
	i := bytes.IndexByte(text[off:], '\n')
	if i < 0 {
		return text[off:], len(text)
	}
	return text[off : off+i], off + i + 1
}

func leadingBlanks(line []byte) int {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return i
}

func commonPrefix(a, b []byte) []byte {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	return a[:i]
}

// origOffset maps a byte offset in the cleaned text to the original text: the same line,
// moved right by what was taken off that line's start.
func (p *pasteText) origOffset(off int) int {
	if !p.changed {
		return off
	}
	if off > len(p.text) {
		off = len(p.text)
	}
	// Calls come in text order (a result's messages): count on from the previous one, so that
	// mapping every message costs one pass over the text, not one pass each.
	if off < p.memoOff {
		p.memoOff, p.memoLine, p.memoStart = 0, 0, 0
	}
	line := p.memoLine + bytes.Count(p.text[p.memoOff:off], []byte{'\n'})
	col := off - (bytes.LastIndexByte(p.text[:off], '\n') + 1)
	start := p.memoStart
	for n := line - p.memoLine; n > 0; n-- {
		i := bytes.IndexByte(p.orig[start:], '\n')
		if i < 0 {
			return len(p.orig)
		}
		start += i + 1
	}
	p.memoOff, p.memoLine, p.memoStart = off, line, start
	l, _ := rawLine(p.orig, start)
	taken := 0
	if !isFence(l) {
		for q := 0; q < p.quote; q++ {
			_, n, ok := unquote(l[taken:])
			if !ok {
				break
			}
			taken += n
		}
		if line == p.first {
			taken += len(p.firstIndent)
		} else if bytes.HasPrefix(l[taken:], p.indent) {
			taken += len(p.indent)
		}
	}
	return min(start+taken+col, start+len(l))
}
