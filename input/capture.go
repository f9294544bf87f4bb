package input

import "bytes"

// captureMagic is the first line of a capture file, without its version number.
const captureMagic = "# pgoutput-inspect capture v"

// captureVersion is the capture file version this package reads.
const captureVersion = "1"

func sniffCapture(sm *sample) bool { return bytes.HasPrefix(sm.first, []byte(captureMagic)) }

// readCapture reads a capture file: the magic line, "#" header lines, and "LSN HEX" lines,
// one message each. Blank lines are ignored.
func readCapture(s *state) *failure {
	s.grow(len(s.text) / 2)
	seenMagic := s.continued
	for off := 0; off < len(s.text); {
		line, next := nextLine(s.text, off)
		start, end := trimSpace(line, off)
		l := s.text[start:end]
		switch {
		case start == end:
		case !seenMagic:
			if !bytes.HasPrefix(l, []byte(captureMagic)) {
				return failf(start, "expected the capture file's first line \""+captureMagic+captureVersion+"\"")
			}
			if v := l[len(captureMagic):]; string(v) != captureVersion {
				return failf(start+len(captureMagic), "capture file version "+string(v)+" is not supported; this reader knows version "+captureVersion)
			}
			seenMagic = true
			s.header = append(s.header, string(l[2:]))
			s.headerOff = append(s.headerOff, start)
		case l[0] == '#':
			h := l[1:]
			if len(h) > 0 && h[0] == ' ' {
				h = h[1:]
			}
			s.header = append(s.header, string(h))
			s.headerOff = append(s.headerOff, start)
		default:
			if f := s.captureLine(l, start); f != nil {
				return f
			}
		}
		off = next
	}
	if !seenMagic {
		return failf(0, "expected the capture file's first line \""+captureMagic+captureVersion+"\"")
	}
	return nil
}

// captureLine reads "LSN HEX", which starts at byte offset off.
func (s *state) captureLine(l []byte, off int) *failure {
	lsn, n, f := s.lsn(l, off)
	if f != nil {
		return f
	}
	if n >= len(l) || l[n] != ' ' {
		return s.fail(off+n, "expected a space between the LSN and the payload")
	}
	n++
	if n >= len(l) {
		return s.fail(off+n, "expected the payload's hex digits")
	}
	m := s.begin(off)
	m.LSN, m.HasLSN = lsn, true
	return s.hexDigits(l[n:], off+n)
}

// lsn reads a log sequence number written X/X (each half 1 to 8 hex digits) at the start of b,
// which is at byte offset off. It returns the LSN and how many bytes it took.
func (s *state) lsn(b []byte, off int) (uint64, int, *failure) {
	var hi, lo uint64
	i := 0
	for ; i < len(b) && hexVal(b[i]) < 16; i++ {
		if i == 8 {
			return 0, 0, failf(off+i, "an LSN's upper half has at most 8 hex digits")
		}
		hi = hi<<4 | uint64(hexVal(b[i]))
	}
	if i == 0 {
		return 0, 0, s.fail(off, "expected an LSN (X/X)")
	}
	if i >= len(b) || b[i] != '/' {
		return 0, 0, s.fail(off+i, "expected '/' in the LSN")
	}
	i++
	j := i
	for ; j < len(b) && hexVal(b[j]) < 16; j++ {
		if j-i == 8 {
			return 0, 0, failf(off+j, "an LSN's lower half has at most 8 hex digits")
		}
		lo = lo<<4 | uint64(hexVal(b[j]))
	}
	if j == i {
		return 0, 0, s.fail(off+j, "expected the LSN's lower half in hex")
	}
	return hi<<32 | lo, j, nil
}
