package input

import (
	"bytes"

	"pgoutput-inspector/decoder/pgvalue"
)

// hexVal returns c's hex digit value, or 0xff when c is not a hex digit.
func hexVal(c byte) byte { return pgvalue.HexValue(c) }

// isHexSep reports whether c may separate groups of hex digits on a line.
func isHexSep(c byte) bool { return c == ' ' || c == '\t' || c == ':' }

// hexLine appends the bytes written on line (which starts at byte offset off of the text) to
// the output. Groups of hex digits may be separated by blanks or colons and may start with
// "\x" (psql's bytea output) or "0x"; every group holds an even number of digits.
func (s *state) hexLine(line []byte, off int) *failure {
	n := len(line)
	i := 0
	for i < n {
		c := line[i]
		if isHexSep(c) {
			i++
			continue
		}
		if i+1 < n && ((c == '\\' && line[i+1] == 'x') || (c == '0' && (line[i+1] == 'x' || line[i+1] == 'X'))) {
			i += 2
		}
		start := i
		for i+1 < n {
			hi, lo := hexVal(line[i]), hexVal(line[i+1])
			if hi|lo > 15 {
				break
			}
			s.buf = append(s.buf, hi<<4|lo)
			i += 2
		}
		if i < n && hexVal(line[i]) < 16 {
			if i+1 >= n || isHexSep(line[i+1]) {
				return s.fail(off+i+1, "odd number of hex digits: expected another hex digit")
			}
			return s.fail(off+i+1, "expected a hex digit")
		}
		if i == start {
			return s.fail(off+i, "expected a hex digit")
		}
		if i < n && !isHexSep(line[i]) && !(line[i] == '\\' && i+1 < n && line[i+1] == 'x') {
			return s.fail(off+i, "expected a hex digit")
		}
	}
	return nil
}

// hexDigits appends the bytes of run, which starts at byte offset off and must hold an even
// number of hex digits and nothing else.
func (s *state) hexDigits(run []byte, off int) *failure {
	i := 0
	for ; i+1 < len(run); i += 2 {
		hi, lo := hexVal(run[i]), hexVal(run[i+1])
		if hi|lo > 15 {
			if hi > 15 {
				return s.fail(off+i, "expected a hex digit")
			}
			return s.fail(off+i+1, "expected a hex digit")
		}
		s.buf = append(s.buf, hi<<4|lo)
	}
	if i < len(run) {
		if hexVal(run[i]) > 15 {
			return s.fail(off+i, "expected a hex digit")
		}
		return s.fail(off+i+1, "odd number of hex digits: expected another hex digit")
	}
	return nil
}

// readHex reads plain hex: one message per non-empty line.
func readHex(s *state) *failure {
	s.grow(len(s.text) / 2)
	s.growMessages(bytes.Count(s.text, []byte{'\n'}) + 1)
	for off := 0; off < len(s.text); {
		line, next := nextLine(s.text, off)
		start, end := trimSpace(line, off)
		if start < end {
			s.begin(start)
			if f := s.hexLine(s.text[start:end], start); f != nil {
				return f
			}
		}
		off = next
	}
	return nil
}

// readJoinedHex reads all non-empty lines as one message.
func readJoinedHex(s *state) *failure {
	s.grow(len(s.text) / 2)
	first := true
	for off := 0; off < len(s.text); {
		line, next := nextLine(s.text, off)
		start, end := trimSpace(line, off)
		if start < end {
			if first {
				s.begin(start)
				first = false
			}
			if f := s.hexLine(s.text[start:end], start); f != nil {
				return f
			}
		}
		off = next
	}
	return nil
}

// readWiresharkStream reads Wireshark's hex stream: one message, lines joined.
func readWiresharkStream(s *state) *failure { return readJoinedHex(s) }

// xxdPlainWidth is how many hex digits xxd -p writes on a line.
const xxdPlainWidth = 60

// sniffXxdPlain accepts two or more lines whose first holds exactly 60 hex digits.
func sniffXxdPlain(sm *sample) bool {
	if sm.lines < 2 || len(sm.first) != xxdPlainWidth {
		return false
	}
	for _, c := range sm.first {
		if hexVal(c) > 15 {
			return false
		}
	}
	return true
}

// readXxdPlain reads xxd -p output: one message wrapped over lines. Detecting, every line but
// the last must hold exactly 60 hex digits and nothing else; forced, any line widths join.
func readXxdPlain(s *state) *failure {
	if s.auto {
		shortEnd := -1 // where a line shorter than 60 digits ended; only the last may be short
		for off := 0; off < len(s.text); {
			line, next := nextLine(s.text, off)
			if !isBlank(line) {
				if shortEnd >= 0 {
					return failf(shortEnd, "xxd -p lines hold 60 hex digits; only the last may be shorter")
				}
				for i, c := range line {
					if hexVal(c) > 15 {
						return s.fail(off+i, "expected a hex digit")
					}
				}
				if len(line) > xxdPlainWidth {
					return failf(off+xxdPlainWidth, "xxd -p lines hold 60 hex digits, this one is longer")
				}
				if len(line) < xxdPlainWidth {
					shortEnd = off + len(line)
				}
			}
			off = next
		}
	}
	return readJoinedHex(s)
}
