package input

import (
	"bytes"
	"encoding/binary"

	"pgoutput-inspector/decoder/pgvalue"
)

// tshark -T fields -e tcp.payload: one frame a line, its TCP payload in hex (empty for a
// frame without one), maybe with other fields apart by tabs (-e tcp.stream -e tcp.srcport,
// addresses) and a header line (-E header=y). A message longer than a segment spans lines,
// so the lines are put together into each direction's stream, as a capture's segments are.

// sniffTCPPayload accepts a header naming tcp.payload, or a first line of tab-separated fields
// in a text of hex digits, dots and colons (addresses) only.
func sniffTCPPayload(sm *sample) bool {
	if bytes.Contains(sm.first, []byte("tcp.payload")) {
		return true
	}
	if bytes.IndexByte(sm.first, '\t') < 0 {
		return false
	}
	for _, c := range sm.text {
		if hexVal(c) > 15 && c != '\t' && c != '\n' && c != '\r' && c != '.' && c != ':' {
			return false
		}
	}
	return true
}

// readTCPPayload reads the lines' payloads into streams: one per value of the other fields
// (two that differ in one field, or hold the same values in another order, are a
// connection's two directions). With the payload alone, a line is joined to the lines before
// it while their last message is not complete, and each run of lines goes to the side its
// first message says (serverLike). The streams' messages are read as a capture's.
func readTCPPayload(s *state) *failure {
	t := s.text
	col, first := -1, 0
	if line, next := nextLine(t, 0); bytes.Contains(line, []byte("tcp.payload")) {
		col, first = bytes.Count(line[:bytes.Index(line, []byte("tcp.payload"))], []byte{'\t'}), next
	}
	if col < 0 { // the column whose longest value is the longest
		longest := 0
		for off := first; off < len(t); {
			line, next := nextLine(t, off)
			off = next
			for i, f := range bytes.Split(line, []byte{'\t'}) {
				if len(f) > longest {
					col, longest = i, len(f)
				}
			}
		}
	}
	buf := make([]byte, 0, len(t)/2) // never grown: the pieces are views of it
	var keys [][]byte
	var dirs [][]streamPiece
	frame := 0
	for off := first; off < len(t); {
		line, next := nextLine(t, off)
		lineOff := off
		off = next
		frame++
		fields := bytes.Split(line, []byte{'\t'})
		if col >= len(fields) || len(fields[col]) == 0 {
			continue
		}
		start := len(buf)
		sub := &state{text: t, buf: buf}
		if f := sub.hexDigits(fields[col], lineOff+len(bytes.Join(fields[:col], []byte{'\t'}))+min(col, 1)); f != nil {
			return f
		}
		buf = sub.buf
		key := bytes.Join(append(fields[:col:col], fields[col+1:]...), []byte{'\t'})
		k := 0
		for k < len(keys) && !bytes.Equal(keys[k], key) {
			k++
		}
		if k == len(keys) {
			keys, dirs = append(keys, key), append(dirs, nil)
		}
		dirs[k] = append(dirs[k], streamPiece{data: buf[start:], frame: frame, off: lineOff, at: -1})
	}
	if len(dirs) == 0 {
		return failf(first, "expected TCP payloads in hex, one frame a line (tshark -T fields -e tcp.payload)")
	}
	single := len(keys) == 1 && len(keys[0]) == 0
	if single {
		dirs = splitRuns(dirs[0])
	}
	var c captureResult
	paired := make([]bool, len(dirs))
	for i := range dirs {
		if paired[i] {
			continue
		}
		var other []streamPiece
		for j := i + 1; j < len(dirs); j++ {
			if !paired[j] && (single || sameConn(keys[i], keys[j])) {
				other, paired[j] = dirs[j], true
				break
			}
		}
		var cn Connection
		msgs, _, ok := readConn(&cn, dirs[i], other, len(c.conns)+1)
		if ok && len(msgs) > 0 {
			c.conns = append(c.conns, cn)
			c.msgs = append(c.msgs, msgs...)
		}
	}
	if len(c.msgs) == 0 {
		return failf(first, "the TCP payloads hold no PostgreSQL protocol message")
	}
	sortMsgs(c.msgs)
	s.note(-1, "Read as tshark's tcp.payload fields, one frame a line: "+itoa(len(dirs))+pgvalue.Plural(len(dirs), " stream", " streams")+
		" put together, "+itoa(len(c.conns))+pgvalue.Plural(len(c.conns), " connection", " connections")+", "+itoa(len(c.msgs))+" messages.")
	s.takeCapture(&c)
	return nil
}

// sameConn reports whether two lines' other fields name a connection's two directions: they
// differ in one field (tcp.stream and tcp.srcport), or hold the same values in another order
// (addresses and ports, source and destination).
func sameConn(a, b []byte) bool {
	fa, fb := bytes.Split(a, []byte{'\t'}), bytes.Split(b, []byte{'\t'})
	if len(fa) != len(fb) {
		return false
	}
	diff, left := 0, 0
	for i := range fa {
		if !bytes.Equal(fa[i], fb[i]) {
			diff++
		}
		for j := range fb {
			if bytes.Equal(fa[i], fb[j]) {
				left++
				break
			}
		}
	}
	return diff == 1 || left == len(fa)
}

// splitRuns puts the payloads of a text without other fields into two directions: lines
// joined while the last message is not complete make a run, and a run goes to the client's
// side when it starts with a startup message or a message only a client sends.
func splitRuns(ps []streamPiece) [][]streamPiece {
	var dirs [2][]streamPiece
	var run []byte
	side := 1
	for _, p := range ps {
		if len(run) == 0 || complete(run) {
			run = nil
			side = 1
			if looksLikeStartup([]streamPiece{p}) || serverLike([]streamPiece{p}) < 0 {
				side = 0
			}
		}
		run = append(run, p.data...)
		dirs[side] = append(dirs[side], p)
	}
	return dirs[:]
}

// complete reports whether b ends where a message does: its messages (a startup message
// first, maybe) run exactly to its end, or it is not messages at all.
func complete(b []byte) bool {
	pos := 0
	if len(b) >= 8 && startupCode(binary.BigEndian.Uint32(b[4:])) {
		pos = int(binary.BigEndian.Uint32(b))
	}
	for pos < len(b) && validMsg(b, pos) {
		pos += msgLen(b, pos)
	}
	return pos <= len(b)
}
