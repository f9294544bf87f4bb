package input

import "encoding/binary"

// Where a capture's TCP streams are in their PostgreSQL messages, for the Cutter: a part
// begins where every stream followed is between two messages, and each stream's first bytes
// in it are the ones that follow (not resent ones, which the capture reader would start the
// stream at and read again, nor ones after a hole, whose bytes coming later out of order it
// would drop as before the stream's start: streamOf), so that a part read alone holds its
// messages, no more and no fewer. The frames' link, IP and TCP headers
// are read as the capture reader reads them (tcpSegment); of the payload only the messages'
// headers are read, to skip their bodies.

// cutFlow is one direction of a TCP connection as the cutter follows it.
type cutFlow struct {
	mode    byte   // flowUnknown, flowStartup, flowTyped or flowOff
	next    uint32 // the sequence number of its next byte
	need    int    // bytes of the current message still to come
	head    [8]byte
	headN   int // bytes of the next message's header read so far
	answers int // one-byte answers to encryption requests the server still owes
	// waiting says it has sent no bytes since the part's start: its next ones may be resent
	// ones (even of bytes acknowledged: a resend may be on its way when the acknowledgment
	// comes).
	waiting bool
	reverse *cutFlow
}

const (
	flowUnknown = iota // where its messages start is not known (begun mid-stream, bytes lost)
	flowStartup        // a client's untyped first messages (StartupMessage, SSLRequest…)
	flowTyped          // typed messages
	flowOff            // ended, or encrypted: nothing a part can cut
)

// busy reports a stream a part cannot begin at: inside a message, or with a server owing an
// answer to an encryption request (a part beginning with the answer would not read it as
// one).
func (fl *cutFlow) busy() bool {
	return (fl.mode == flowStartup || fl.mode == flowTyped) && (fl.need > 0 || fl.headN > 0 || fl.answers > 0)
}

// partFlows follows the streams of a capture's frames: frame reads a frame's headers and says
// whether a part could begin with it, then feed follows its segment.
type partFlows struct {
	flows map[flowKey]*cutFlow
	busy  int // streams busy
	// between says a part could begin with the last frame read: no stream was busy before it,
	// and its bytes, if any, follow its stream's.
	between bool
	// waiting counts the streams waiting (cutFlow.waiting); resent says a waiting stream's
	// next bytes do not follow its bytes before (resent, or after a hole).
	waiting int
	resent  bool
	// The stream last looked up, and its key.
	last    *cutFlow
	lastKey flowKey
	// The frame's segment.
	key     flowKey
	seq     uint32
	flags   byte
	payload []byte
	ok      bool
}

// frame reads a frame's link, IP and TCP headers.
func (pf *partFlows) frame(link uint32, data []byte) {
	f := frame{link: link, data: data}
	pf.key, pf.seq, pf.flags, pf.payload, pf.ok, _ = tcpSegment(&f)
	fl := pf.flow(pf.key)
	pf.between = pf.busy == 0 && !(pf.ok && fl != nil && len(pf.payload) > 0 && fl.next != pf.seq)
}

// flow looks a stream up: most frames are of the stream of the frame before.
func (pf *partFlows) flow(key flowKey) *cutFlow {
	if pf.last == nil || key != pf.lastKey {
		pf.last, pf.lastKey = pf.flows[key], key
	}
	return pf.last
}

// none is a frame read without its headers (too big for the capture reader, or not a packet
// it reads).
func (pf *partFlows) none() { pf.between, pf.ok, pf.flags = pf.busy == 0, false, 0 }

// feed follows the frame's segment, once the Cutter has counted it in a part.
func (pf *partFlows) feed() {
	key, seq, flags, payload := pf.key, pf.seq, pf.flags, pf.payload
	fl := pf.flow(key)
	if !pf.ok {
		if flags&tcpRST != 0 && fl != nil {
			pf.set(fl, flowOff)
		}
		return
	}
	if pf.flows == nil {
		pf.flows = map[flowKey]*cutFlow{}
	}
	if fl == nil || flags&tcpSYN != 0 {
		if fl != nil {
			pf.set(fl, flowOff)
		}
		fl = &cutFlow{mode: flowUnknown, next: seq}
		pf.flows[key] = fl
		pf.last = nil
		if r := pf.flows[flowKey{src: key.dst, dst: key.src, srcPort: key.dstPort, dstPort: key.srcPort}]; r != nil {
			fl.reverse, r.reverse = r, fl
		}
		if flags&tcpSYN != 0 {
			// A client's SYN, or the server's SYN-ACK.
			fl.next++
			seq++
			fl.mode = flowTyped
			if flags&tcpACK == 0 { // no ACK: the client's
				fl.mode = flowStartup
			}
		}
	}
	was := fl.busy()
	pf.segment(fl, seq, payload)
	if flags&tcpFIN != 0 {
		fl.mode = flowOff
	}
	pf.ended(fl) // a FIN, or encrypted from here on
	pf.count(fl, was)
}

// segment reads a segment's payload, which starts at sequence number seq.
func (pf *partFlows) segment(fl *cutFlow, seq uint32, p []byte) {
	if len(p) == 0 || fl.mode == flowOff {
		return
	}
	d := int32(fl.next - seq)
	if fl.waiting {
		pf.resent = pf.resent || d != 0
		pf.settle(fl)
	}
	switch {
	case d < 0:
		// Bytes are missing before it.
		fl.mode = flowUnknown
	case int(d) >= len(p):
		return // resent
	default:
		p = p[d:]
	}
	fl.next = seq + uint32(len(p))
	if fl.mode == flowUnknown {
		// Messages start at the segment's first byte when three of them follow one another
		// there, or they run exactly to its end (as the capture reader finds them: resync).
		pos, k := 0, 0
		for ; k < 3 && pos < len(p) && validMsg(p, pos); k++ {
			pos += msgLen(p, pos)
		}
		if pos > len(p) || pos < len(p) && k < 3 || k == 0 {
			return
		}
		fl.mode, fl.need, fl.headN, fl.answers = flowTyped, 0, 0, 0
	}
	pf.read(fl, p)
}

// read follows the messages in a stream's next bytes.
func (pf *partFlows) read(fl *cutFlow, p []byte) {
	for len(p) > 0 && (fl.mode == flowStartup || fl.mode == flowTyped) {
		if fl.need > 0 {
			k := min(fl.need, len(p))
			fl.need -= k
			p = p[k:]
			continue
		}
		if fl.mode == flowTyped && fl.headN == 0 && fl.answers == 0 && len(p) >= 5 {
			// A whole header: read where it is.
			if !validMsg(p, 0) {
				fl.mode = flowUnknown
				return
			}
			n := msgLen(p, 0)
			if n > len(p) {
				fl.need = n - len(p)
				return
			}
			p = p[n:]
			continue
		}
		if fl.answers > 0 && fl.mode == flowTyped && fl.headN == 0 {
			// 'N': go on unencrypted; 'S' or 'G': encrypted from here on, both ways.
			fl.answers--
			if p[0] != 'N' {
				fl.mode = flowOff
				if fl.reverse != nil {
					pf.set(fl.reverse, flowOff)
				}
			}
			p = p[1:]
			continue
		}
		n := 5
		if fl.mode == flowStartup {
			n = 8
		}
		k := copy(fl.head[fl.headN:n], p)
		fl.headN += k
		p = p[k:]
		if fl.headN < n {
			return
		}
		fl.headN = 0
		if fl.mode == flowTyped {
			if !validMsg(fl.head[:5], 0) {
				fl.mode = flowUnknown
				return
			}
			fl.need = msgLen(fl.head[:], 0) - 5
			continue
		}
		size, code := int(binary.BigEndian.Uint32(fl.head[:])), binary.BigEndian.Uint32(fl.head[4:])
		if size < 8 || !startupCode(code) {
			fl.mode = flowUnknown
			return
		}
		fl.need = size - 8
		switch {
		case code == 80877103 || code == 80877104: // SSLRequest, GSSENCRequest
			if r := fl.reverse; r != nil {
				was := r.busy()
				r.answers++
				pf.count(r, was)
			}
		default: // StartupMessage, CancelRequest
			fl.mode = flowTyped
		}
	}
}

// begin marks every stream not ended waiting, at a part's start (one whose messages are not
// followed too: the capture reader reads its bytes from the first).
func (pf *partFlows) begin() {
	for _, fl := range pf.flows {
		if fl.waiting {
			pf.settle(fl) // from the part before, which is final now
		}
		if fl.waiting = fl.mode != flowOff; fl.waiting {
			pf.waiting++
		}
	}
}

// settle ends a stream's waiting.
func (pf *partFlows) settle(fl *cutFlow) {
	fl.waiting = false
	pf.waiting--
}

// set changes a stream's mode.
func (pf *partFlows) set(fl *cutFlow, mode byte) {
	was := fl.busy()
	fl.mode = mode
	pf.count(fl, was)
	pf.ended(fl)
}

// ended ends the waiting of a stream that ended: it sends no more.
func (pf *partFlows) ended(fl *cutFlow) {
	if fl.mode == flowOff && fl.waiting {
		pf.settle(fl)
	}
}

// count counts a stream busy or not after a change, was before it.
func (pf *partFlows) count(fl *cutFlow, was bool) {
	switch now := fl.busy(); {
	case now && !was:
		pf.busy++
	case was && !now:
		pf.busy--
	}
}
