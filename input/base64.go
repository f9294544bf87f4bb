package input

import (
	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
)

// b64Std and b64URL map a character to its 6-bit value plus one, and every other character to
// zero (RFC 4648 §4 and §5 alphabets).
var b64Std, b64URL = b64Tables()

func b64Tables() (std, url [256]byte) {
	const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	for i := 0; i < len(letters); i++ {
		std[letters[i]] = byte(i + 1)
		url[letters[i]] = byte(i + 1)
	}
	std['+'], std['/'] = 63, 64
	url['-'], url['_'] = 63, 64
	return std, url
}

// DecodeBase64 reads base64 (url: the URL-safe alphabet), padded or not, as this package
// reads a pasted line. bad is the index of the first character that is not base64 and, when
// every character is, len(text) for a text that no encoder writes (a single character in the
// last group, bits beyond the last byte); -1 when the text reads.
// size: docs/performance.md, "Size tricks".
func DecodeBase64(text []byte, url bool) (b []byte, bad int) {
	abc := &b64Std
	if url {
		abc = &b64URL
	}
	s := &state{text: text}
	if f := s.base64Run(text, 0, abc, ""); f != nil {
		if f.off < len(text) && abc[text[f.off]] == 0 && text[f.off] != '=' {
			return nil, f.off
		}
		return nil, len(text)
	}
	return s.buf, -1
}

func readBase64(s *state) *failure    { return s.readBase64Lines(&b64Std, "base64") }
func readBase64URL(s *state) *failure { return s.readBase64Lines(&b64URL, "base64url") }

// readBase64Lines reads one message per non-empty line. A line of standard base64 that ends
// in a '+' after whole groups of four continues on the next line: psql's aligned output of
// encode(data, 'base64') (with -t, no header) marks so the line breaks encode puts after
// every 76 characters. A lone '+' there cannot be base64's own, which would leave one
// character in the last group.
func (s *state) readBase64Lines(alphabet *[256]byte, name string) *failure {
	s.grow(len(s.text) * 3 / 4)
	cont := false // the line before ended with psql's continuation marker
	marked := 0
	for off := 0; off < len(s.text); {
		line, next := nextLine(s.text, off)
		start, end := trimSpace(line, off)
		off = next
		if start == end {
			cont = false // psql's last line of a value that ended with a line break
			continue
		}
		if !cont {
			s.begin(start)
		}
		cont = alphabet == &b64Std && (end-start)%4 == 1 && s.text[end-1] == '+'
		if cont {
			end--
			marked++
		}
		if f := s.base64Run(s.text[start:end], start, alphabet, name); f != nil {
			return f
		}
	}
	if marked > 0 {
		s.named = PsqlAligned // psql -t's column of encode(data, 'base64') values
		s.note(-1, "Read as psql's aligned output of encode(data, 'base64'): a '+' after a line's whole groups of four marks the line break encode puts in the value ("+
			itoa(marked)+pgvalue.Plural(marked, " line", " lines")+" continued).")
	}
	return nil
}

// base64Run appends the bytes of one base64 text, which starts at byte offset off. Padding is
// optional but, when present, must complete the last group; the bits the last character
// carries beyond the last byte must be zero, as every encoder writes them.
func (s *state) base64Run(run []byte, off int, alphabet *[256]byte, name string) *failure {
	var acc uint32
	n := 0 // characters in the current group of four
	i := 0
	for ; i < len(run); i++ {
		v := alphabet[run[i]]
		if v == 0 {
			break
		}
		acc = acc<<6 | uint32(v-1)
		n++
		if n == 4 {
			s.buf = append(s.buf, byte(acc>>16), byte(acc>>8), byte(acc))
			acc, n = 0, 0
		}
	}
	pad := 0
	for j := i; j < len(run) && run[j] == '='; j++ {
		pad++
	}
	if i+pad < len(run) {
		return s.fail(off+i+pad, "expected a "+name+" character")
	}
	if pad > 0 && (n+pad != 4 || n < 2) {
		return failf(off+i, "padding '=' does not complete a group of four "+name+" characters")
	}
	switch n {
	case 1:
		return failf(off+i, "a "+name+" text cannot end with a single character in its last group of four")
	case 2:
		if acc&0xf != 0 {
			return failf(off+i-1, "the last "+name+" character carries non-zero bits beyond the last byte")
		}
		s.buf = append(s.buf, byte(acc>>4))
	case 3:
		if acc&0x3 != 0 {
			return failf(off+i-1, "the last "+name+" character carries non-zero bits beyond the last byte")
		}
		s.buf = append(s.buf, byte(acc>>10), byte(acc>>2))
	}
	return nil
}

// sniffBase64Wrapped accepts two or more lines of base64, none wider than 76 or 64 characters
// and one that wide with a line after it: base64(1), openssl, or psql -At's column of
// encode(data, 'base64') values, which break after every 76 characters.
func sniffBase64Wrapped(sm *sample) bool {
	if sm.lines < 2 {
		return false
	}
	width, fullBefore := 0, false
	for off := 0; off < len(sm.text); {
		line, next := nextLine(sm.text, off)
		a, b := trimSpace(line, off)
		if next == len(sm.text) && len(sm.text) == sniffWindow {
			break // a line the window cut
		}
		off = next
		if a == b {
			continue
		}
		if b-a > 76 {
			return false
		}
		for _, c := range sm.text[a:b] {
			if b64Std[c] == 0 && c != '=' {
				return false
			}
		}
		fullBefore = fullBefore || width == 76 || width == 64
		width = b - a
	}
	return fullBefore
}

// readBase64Wrapped reads base64 wrapped over lines as wide as the widest: a message's lines
// joined, its last line shorter (or a blank line after it). A message whose text fills its
// last line is joined with the next line's too, unless the joined bytes do not decode and the
// lines up to a full one do (see splitWrapped): encode(data, 'base64') of a message of 57
// bytes, or any multiple, in psql -At output.
func readBase64Wrapped(s *state) *failure {
	s.grow(len(s.text) * 3 / 4)
	width := 0
	for off := 0; off < len(s.text); {
		line, next := nextLine(s.text, off)
		a, b := trimSpace(line, off)
		off = next
		width = max(width, b-a)
	}
	if width == 0 {
		return failf(0, "expected base64")
	}
	if width%4 != 0 {
		return failf(0, "wrapped base64: the widest line holds "+itoa(width)+" characters, not a multiple of four")
	}
	joined := make([]byte, 0, len(s.text))
	pieces := make([]span, 0, len(s.text)/64+1)
	var sess *decoder.Session
	flush := func() *failure {
		if len(pieces) == 0 {
			return nil
		}
		s.begin(pieces[0].start)
		sub := &state{text: joined, buf: s.buf, endName: "the end of the text"}
		f := sub.base64Run(joined, 0, &b64Std, "base64")
		s.buf = sub.buf
		if f != nil {
			f.off = pieceOffset(pieces, f.off)
			return f
		}
		if len(pieces) > 1 {
			if sess == nil {
				sess = decoder.NewSession(decoder.Options{})
			}
			s.splitWrapped(sess, pieces, width)
		}
		joined, pieces = joined[:0], pieces[:0]
		return nil
	}
	for off := 0; off < len(s.text); {
		line, next := nextLine(s.text, off)
		a, b := trimSpace(line, off)
		off = next
		if a == b {
			if f := flush(); f != nil {
				return f
			}
			continue
		}
		joined = append(joined, s.text[a:b]...)
		pieces = append(pieces, span{a, b})
		if b-a < width {
			if f := flush(); f != nil {
				return f
			}
		}
	}
	return flush()
}

// splitWrapped looks again at the last message, read from the full lines of pieces and one
// more: when its bytes do not decode and those of its first full lines do, the message ends
// there and the next starts, as often as that holds. Every full line holds width*3/4 bytes.
func (s *state) splitWrapped(sess *decoder.Session, pieces []span, width int) {
	if s.more > 0 {
		return // the message was past the limit and not kept
	}
	per := width / 4 * 3
	for i := len(s.msgs) - 1; ; i++ {
		b := s.buf[s.starts[i]:]
		if sess.Check(b) == nil {
			return
		}
		k := 1
		for ; k < len(pieces) && sess.Check(b[:k*per]) != nil; k++ {
		}
		if k == len(pieces) {
			return
		}
		s.note(i, "Line "+itoa(s.lineAt(pieces[k-1].start))+" is as wide as the widest ("+itoa(width)+
			" characters) but the message ends there: the bytes up to it decode whole, and not with the next line's.")
		if s.limit > 0 && len(s.msgs) >= s.limit {
			if s.more == 0 {
				s.overAt = s.starts[i] + k*per
			}
			s.more++
			return
		}
		s.starts = append(s.starts, s.starts[i]+k*per)
		s.msgs = append(s.msgs, Message{Line: s.lineAt(pieces[k].start), Offset: pieces[k].start})
		pieces = pieces[k:]
	}
}
