package input

import "bytes"

// tshark -z follow,tcp,hex and follow,tcp,raw (and Wireshark's "Follow TCP Stream" saved the
// same way): a header naming the two nodes, then the stream's chunks in order, the second
// node's indented by a tab. hex shows each chunk as rows "00000000  00 00 00 5e …  ascii"
// (offsets counted per direction), raw as one line of hex per chunk.

func sniffFollow(sm *sample) bool {
	return bytes.Contains(sm.text, []byte("Follow: tcp,hex")) || bytes.Contains(sm.text, []byte("Follow: tcp,raw"))
}

// readFollow reads the chunks of both directions and the PostgreSQL protocol's messages in
// them: the followed connection's whole conversation.
func readFollow(s *state) *failure {
	t := s.text
	raw := bytes.Contains(t, []byte("Follow: tcp,raw"))
	if !raw && !bytes.Contains(t, []byte("Follow: tcp,hex")) {
		return failf(0, "expected tshark's \"Follow: tcp,hex\" or \"Follow: tcp,raw\" header")
	}
	type piece struct{ dir, start, end, frame, off int }
	var pieces []piece
	last := -1
	n := 0
	var buf []byte
	for off := 0; off < len(t); {
		line, next := nextLine(t, off)
		lineOff := off
		off = next
		if len(bytes.TrimSpace(line)) == 0 || bytes.HasPrefix(line, []byte("====")) || bytes.HasPrefix(line, []byte("Follow:")) ||
			bytes.HasPrefix(line, []byte("Filter:")) || bytes.HasPrefix(line, []byte("Node ")) {
			continue
		}
		dir := 0
		body, bodyOff := line, lineOff
		if line[0] == '\t' {
			dir, body, bodyOff = 1, line[1:], lineOff+1
		}
		start := len(buf)
		if raw {
			a, b := trimSpace(body, bodyOff)
			sub := &state{text: t, buf: buf}
			if f := sub.hexDigits(t[a:b], a); f != nil {
				return f
			}
			buf = sub.buf
		} else {
			// "00000010  74 67 72 65 …  74 61 62 61  tgres.da tabase.p": the offset, two
			// blanks, up to 16 bytes (a blank more after the eighth), two blanks, ASCII.
			k := 0
			for k < len(body) && hexVal(body[k]) < 16 {
				k++
			}
			if k != 8 || len(body) < 12 || body[8] != ' ' || body[9] != ' ' {
				return s.fail(bodyOff, "expected a follow,tcp,hex row: an 8-digit offset and two blanks")
			}
			for k := 0; k < 16; k++ {
				col := 10 + 3*k
				if k >= 8 {
					col++
				}
				if col+2 > len(body) || hexVal(body[col]) > 15 || hexVal(body[col+1]) > 15 || (col+2 < len(body) && body[col+2] != ' ') {
					break
				}
				buf = append(buf, hexVal(body[col])<<4|hexVal(body[col+1]))
			}
			if len(buf) == start {
				return s.fail(bodyOff+10, "expected the row's hex bytes")
			}
		}
		if dir == last && !raw {
			pieces[len(pieces)-1].end = len(buf)
			continue
		}
		n++
		pieces = append(pieces, piece{dir, start, len(buf), n, lineOff})
		last = dir
	}
	var dirs [2][]streamPiece
	for _, p := range pieces {
		dirs[p.dir] = append(dirs[p.dir], streamPiece{data: buf[p.start:p.end], frame: p.frame, off: p.off, at: -1})
	}
	var cn Connection
	msgs, _, ok := readConn(&cn, dirs[0], dirs[1], 1)
	if !ok || len(msgs) == 0 && cn.Encrypted == "" {
		return failf(0, "the followed stream holds no PostgreSQL protocol messages")
	}
	s.grow(len(t) / 3)
	s.note(-1, "Read as tshark's follow,tcp output: both directions' bytes in order, and the PostgreSQL protocol's messages read from them in stream order.")
	s.takeCapture(&captureResult{msgs: msgs, conns: []Connection{cn}})
	return nil
}
