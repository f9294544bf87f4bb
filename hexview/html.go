package hexview

import "strconv"

// AppendHTML appends the markup of the row's three columns to b and returns the result:
//
//	<span class="hv-off">0010</span>
//	<span class="hv-hex"><span class="hv-seg k-lsn b-start" data-o="16">00 00 …</span>…</span>
//	<span class="hv-ascii"><span class="hv-seg k-lsn b-start" data-o="16">..</span>…</span>
//
// (on one line). The View sets it as the row element's innerHTML: the browser's parser builds
// a row far faster than one DOM call per element from WebAssembly. Only the label, hex digits,
// class names from Segment.Classes and decimal offsets go in unescaped; the ASCII text is
// escaped, so bytes are never read as markup.
func (r *Row) AppendHTML(b []byte) []byte {
	b = append(b, `<span class="hv-off">`...)
	b = append(b, r.Label...)
	b = append(b, `</span><span class="hv-hex">`...)
	for i := range r.Segments {
		b = appendSegment(b, &r.Segments[i], r.Segments[i].Hex)
	}
	b = append(b, `</span><span class="hv-ascii">`...)
	for i := range r.Segments {
		b = appendSegment(b, &r.Segments[i], r.Segments[i].ASCII)
	}
	return append(b, `</span>`...)
}

func appendSegment(b []byte, s *Segment, text string) []byte {
	b = append(b, `<span class="`...)
	b = s.appendClasses(b)
	b = append(b, `" data-o="`...)
	b = strconv.AppendInt(b, int64(s.Offset), 10)
	b = append(b, `">`...)
	b = appendEscaped(b, text)
	return append(b, `</span>`...)
}

// appendEscaped appends text with the characters that mean something in HTML replaced by
// their character references.
func appendEscaped(b []byte, text string) []byte {
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '<':
			b = append(b, "&lt;"...)
		case '>':
			b = append(b, "&gt;"...)
		case '&':
			b = append(b, "&amp;"...)
		case '"':
			b = append(b, "&#34;"...)
		case '\'':
			b = append(b, "&#39;"...)
		default:
			b = append(b, c)
		}
	}
	return b
}

// ParseOffset reads back a segment's data-o attribute, the decimal offset AppendHTML writes;
// ok is false for anything else.
func ParseOffset(s string) (offset int, ok bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0 && s[0] != '+'
}
