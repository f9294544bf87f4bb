package input

import (
	"cmp"
	"encoding/binary"
	"slices"
	"sort"
	"strconv"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
)

// Packet captures: pcap and pcapng files, and frames dumped as text by tshark -x. The
// frames' link, IP and TCP headers are read, each TCP connection's two byte streams are put
// together in sequence order, and the PostgreSQL protocol's messages are read from them: the
// whole conversation of every connection, both directions (the startup, the authentication,
// queries and their results, the CopyData of a replication stream or of a COPY), in the order
// their first bytes were captured, each with who sent it, its connection and its time. What a
// client sends as a password or a SASL proof is overwritten with '*' as it is read
// (decoder.Redact), so it shows nowhere.
//
// A packet library (gopacket's layers and pcapgo) would add far more to the page's WASM than
// this reader, which knows only what a PostgreSQL connection needs (docs/performance.md).

// Link-layer header types (LINKTYPE_* of the pcap and pcapng specifications).
const (
	linkNull     = 0   // BSD loopback: 4-byte address family in host order
	linkEthernet = 1   // Ethernet II, with 802.1Q tags
	linkRaw      = 101 // raw IPv4 or IPv6
	linkLoop     = 108 // OpenBSD loopback: 4-byte address family, big-endian
	linkSLL      = 113 // Linux "cooked" capture v1 (tcpdump -i any)
	linkIPv4     = 228
	linkIPv6     = 229
	linkSLL2     = 276 // Linux "cooked" capture v2 (dumpcap -i any)
)

// pcap magic numbers: microsecond and nanosecond timestamps, in either byte order.
func isPcap(b []byte) bool {
	if len(b) < 24 {
		return false
	}
	m := binary.LittleEndian.Uint32(b)
	return m == 0xa1b2c3d4 || m == 0xd4c3b2a1 || m == 0xa1b23c4d || m == 0x4d3cb2a1
}

// isPcapng reports a pcapng Section Header Block.
func isPcapng(b []byte) bool {
	return len(b) >= 28 && binary.LittleEndian.Uint32(b) == 0x0a0d0d0a
}

func sniffPcap(sm *sample) bool   { return isPcap(sm.text) }
func sniffPcapng(sm *sample) bool { return isPcapng(sm.text) }

// frame is one captured packet.
type frame struct {
	num  int // 1-based, as Wireshark numbers frames
	link uint32
	data []byte
	off  int   // where its bytes start in the file or text
	ts   int64 // capture time, Unix nanoseconds (0: not known)
}

// pgMsg is a PostgreSQL protocol message found in a capture.
type pgMsg struct {
	b     []byte
	frame int
	off   int
	side  decoder.Side
	conn  int   // 1-based index of its connection
	ts    int64 // the capture time of its first byte's frame
	need  int   // a message the captured bytes end inside: its whole length (b is its start)
	lost  int   // Message.Lost
}

// captureResult is what a capture held.
type captureResult struct {
	msgs  []pgMsg
	conns []Connection
	// secrets are the places in the capture file of the bytes a client sent as a password or
	// SASL data (decoder.SecretSpan), each from and to (not included).
	secrets [][2]int
	// cut are messages of the server the captured bytes end inside (pgMsg.need), from frames
	// read from text; a capture file's are left out, as the end of a capture cuts one.
	cut    []pgMsg
	notes  []string
	err    string
	errOff int
}

// readPcap reads a pcap or pcapng file.
func readPcap(s *state) *failure {
	c := readPacketCapture(s.text)
	if c.err != "" {
		return failf(c.errOff, c.err)
	}
	s.takeCapture(&c)
	return nil
}

// takeCapture makes a capture's messages the state's, with their frames, sides, connections
// and times.
func (s *state) takeCapture(c *captureResult) {
	total := 0
	for _, m := range c.msgs {
		total += len(m.b)
	}
	s.grow(total)
	s.growMessages(len(c.msgs))
	for _, m := range c.msgs {
		msg := s.begin(m.off)
		msg.Frame, msg.Side, msg.Conn, msg.Time, msg.Lost = m.frame, m.side, m.conn, m.ts, m.lost
		s.buf = append(s.buf, m.b...)
	}
	s.conns = c.conns
	for _, n := range c.notes {
		s.note(-1, n)
	}
}

// readPacketCapture reads the frames of a pcap or pcapng file and their CopyData messages.
func readPacketCapture(b []byte) captureResult {
	var frames []frame
	var err string
	var errOff int
	if !isPcap(b) && !isPcapng(b) {
		return captureResult{err: "expected a pcap or pcapng file: its first four bytes are the magic number a1b2c3d4 (pcap, either byte order) or 0a0d0d0a (pcapng)"}
	}
	if isPcapng(b) {
		frames, err, errOff = pcapngFrames(b)
	} else {
		frames, err, errOff = pcapFrames(b)
	}
	if err != "" && len(frames) == 0 {
		return captureResult{err: err, errOff: errOff}
	}
	c := framesMessages(frames, b)
	if err != "" {
		c.notes = append(c.notes, "The capture file is cut short: "+err+" (byte "+itoa(errOff)+"); the frames before are read.")
	}
	if len(c.msgs) == 0 && c.err == "" {
		c.err, c.errOff = "the capture holds "+itoa(len(frames))+" frames and no PostgreSQL protocol message"+c.why(), 0
	}
	return c
}

// why says what the capture held instead, for an error.
func (c *captureResult) why() string {
	if len(c.notes) == 0 {
		return ""
	}
	return " (" + c.notes[len(c.notes)-1] + ")"
}

// pcapFrames reads a libpcap file.
func pcapFrames(b []byte) ([]frame, string, int) {
	var bo binary.ByteOrder = binary.LittleEndian
	switch binary.LittleEndian.Uint32(b) {
	case 0xd4c3b2a1, 0x4d3cb2a1:
		bo = binary.BigEndian
	}
	link := bo.Uint32(b[20:]) & 0xffff
	// The second word of a record's time is in microseconds, or nanoseconds for these magics.
	unit := int64(1000)
	if m := binary.LittleEndian.Uint32(b); m == 0xa1b23c4d || m == 0x4d3cb2a1 {
		unit = 1
	}
	frames := make([]frame, 0, len(b)/128)
	for off := 24; off < len(b); {
		if len(b)-off < 16 {
			return frames, "a record header needs 16 bytes, " + itoa(len(b)-off) + " remain", off
		}
		n := int(bo.Uint32(b[off+8:]))
		if n > len(b)-off-16 {
			return frames, "a record of " + itoa(n) + " bytes runs past the end of the file", off
		}
		ts := int64(bo.Uint32(b[off:]))*1e9 + int64(bo.Uint32(b[off+4:]))*unit
		frames = append(frames, frame{num: len(frames) + 1, link: link, data: b[off+16 : off+16+n], off: off, ts: ts})
		off += 16 + n
	}
	return frames, "", 0
}

// pcapngFrames reads a pcapng file: Section Header, Interface Description and (Enhanced or
// Simple) Packet Blocks; other blocks are skipped.
func pcapngFrames(b []byte) ([]frame, string, int) {
	var bo binary.ByteOrder = binary.LittleEndian
	var links []uint32
	var units []tsUnit // each interface's time unit (if_tsresol)
	frames := make([]frame, 0, len(b)/128)
	for off := 0; off < len(b); {
		if len(b)-off < 12 {
			return frames, "a block header needs 12 bytes, " + itoa(len(b)-off) + " remain", off
		}
		typ := bo.Uint32(b[off:])
		if typ == 0x0a0d0d0a {
			switch binary.LittleEndian.Uint32(b[off+8:]) {
			case 0x1a2b3c4d:
				bo = binary.LittleEndian
			case 0x4d3c2b1a:
				bo = binary.BigEndian
			default:
				return frames, "a Section Header Block without the byte-order magic", off + 8
			}
			links, units = links[:0], units[:0]
		}
		n := int(bo.Uint32(b[off+4:]))
		if n < 12 || n%4 != 0 || n > len(b)-off {
			return frames, "a block of " + itoa(n) + " bytes does not fit the file", off + 4
		}
		body := b[off+8 : off+n-4]
		switch typ {
		case 1: // Interface Description Block
			if len(body) >= 2 {
				links = append(links, uint32(bo.Uint16(body)))
				units = append(units, tsResolution(body, bo))
			}
		case 6: // Enhanced Packet Block
			if len(body) < 20 {
				return frames, "an Enhanced Packet Block too short for its header", off
			}
			ifc := int(bo.Uint32(body))
			capLen := int(bo.Uint32(body[12:]))
			if capLen > len(body)-20 || ifc >= len(links) {
				return frames, "an Enhanced Packet Block whose data or interface does not exist", off
			}
			ts := units[ifc].nanos(uint64(bo.Uint32(body[4:]))<<32 | uint64(bo.Uint32(body[8:])))
			frames = append(frames, frame{num: len(frames) + 1, link: links[ifc], data: body[20 : 20+capLen], off: off, ts: ts})
		case 3: // Simple Packet Block
			if len(body) < 4 || len(links) == 0 {
				return frames, "a Simple Packet Block without an interface", off
			}
			capLen := min(int(bo.Uint32(body)), len(body)-4)
			frames = append(frames, frame{num: len(frames) + 1, link: links[0], data: body[4 : 4+capLen], off: off})
		case 2: // obsolete Packet Block
			if len(body) < 20 {
				return frames, "a Packet Block too short for its header", off
			}
			ifc := int(bo.Uint16(body))
			capLen := int(bo.Uint32(body[12:]))
			if capLen > len(body)-20 || ifc >= len(links) {
				return frames, "a Packet Block whose data or interface does not exist", off
			}
			frames = append(frames, frame{num: len(frames) + 1, link: links[ifc], data: body[20 : 20+capLen], off: off})
		}
		off += n
	}
	return frames, "", 0
}

// tsUnit is a pcapng interface's time resolution: 10^-exp or 2^-exp seconds.
type tsUnit struct {
	exp    uint8
	binary bool
}

// tsResolution reads an Interface Description Block's if_tsresol option (code 9); the
// default is microseconds.
func tsResolution(body []byte, bo binary.ByteOrder) tsUnit {
	u := tsUnit{exp: 6}
	for opts := body[min(8, len(body)):]; len(opts) >= 4; {
		code, n := bo.Uint16(opts), int(bo.Uint16(opts[2:]))
		if code == 0 || 4+n > len(opts) {
			break
		}
		if code == 9 && n >= 1 {
			u = tsUnit{exp: opts[4] & 0x7f, binary: opts[4]&0x80 != 0}
		}
		opts = opts[4+(n+3)&^3:]
	}
	return u
}

// nanos converts a timestamp in the unit to Unix nanoseconds.
func (u tsUnit) nanos(v uint64) int64 {
	switch {
	case u.binary:
		if u.exp >= 64 {
			return 0
		}
		sec := v >> u.exp
		frac := v & (1<<u.exp - 1)
		return int64(sec)*1e9 + int64(frac*1e9>>u.exp)
	case u.exp <= 9:
		mul := int64(1)
		for i := u.exp; i < 9; i++ {
			mul *= 10
		}
		return int64(v) * mul
	default:
		div := uint64(1)
		for i := uint8(9); i < u.exp && i < 28; i++ {
			div *= 10
		}
		return int64(v / div)
	}
}

// segment is a TCP segment's payload.
type segment struct {
	seq   uint32
	data  []byte
	frame int
	off   int   // the frame's offset in the input
	ts    int64 // the frame's capture time
	order int   // capture order
	at    int   // the payload's offset in the capture file, or -1
}

// flowKey names one direction of a TCP connection.
type flowKey struct {
	src, dst         [16]byte
	srcPort, dstPort uint16
}

// flow is one direction of a TCP connection.
type flow struct {
	key     flowKey
	syn     bool
	isn     uint32
	segs    []segment
	first   int // capture order of its first segment
	reverse *flow
	// end is the frame of its first FIN or RST (reset says which), or nil.
	end   *frame
	reset bool
}

// tcpPayload finds the TCP segment in a frame: its flow, sequence number, flags and payload.
func tcpPayload(f *frame) (key flowKey, seq uint32, flags byte, payload []byte, ok bool) {
	key, seq, flags, payload, ok, _ = tcpSegment(f)
	return
}

// TCP flags.
const (
	tcpFIN = 0x01
	tcpSYN = 0x02
	tcpRST = 0x04
	tcpACK = 0x10
)

// tcpSegment is tcpPayload that also says when the frame holds a fragment of an IP packet,
// which this reader does not put together.
func tcpSegment(f *frame) (key flowKey, seq uint32, flags byte, payload []byte, ok, fragment bool) {
	b := f.data
	var ethertype uint16
	switch f.link {
	case linkEthernet:
		if len(b) < 14 {
			return
		}
		ethertype, b = binary.BigEndian.Uint16(b[12:]), b[14:]
		for (ethertype == 0x8100 || ethertype == 0x88a8) && len(b) >= 4 {
			ethertype, b = binary.BigEndian.Uint16(b[2:]), b[4:]
		}
	case linkSLL:
		if len(b) < 16 {
			return
		}
		ethertype, b = binary.BigEndian.Uint16(b[14:]), b[16:]
	case linkSLL2:
		if len(b) < 20 {
			return
		}
		ethertype, b = binary.BigEndian.Uint16(b), b[20:]
	case linkNull, linkLoop:
		if len(b) < 4 {
			return
		}
		fam := binary.LittleEndian.Uint32(b)
		if f.link == linkLoop || fam > 0xffff {
			fam = binary.BigEndian.Uint32(b)
		}
		ethertype = 0x0800
		if fam != 2 {
			ethertype = 0x86dd
		}
		b = b[4:]
	case linkRaw, linkIPv4, linkIPv6, 12, 14:
		if len(b) == 0 {
			return
		}
		ethertype = 0x0800
		if b[0]>>4 == 6 {
			ethertype = 0x86dd
		}
	default:
		return
	}
	switch ethertype {
	case 0x0800:
		if len(b) < 20 || b[0]>>4 != 4 {
			return
		}
		ihl := int(b[0]&15) * 4
		total := int(binary.BigEndian.Uint16(b[2:]))
		if binary.BigEndian.Uint16(b[6:])&0x3fff != 0 { // more fragments, or a fragment offset
			fragment = true
			return
		}
		if ihl < 20 || total < ihl || b[9] != 6 {
			return // not TCP
		}
		if total > len(b) {
			total = len(b) // a capture cut to its snap length
		}
		key.src[10], key.src[11] = 0xff, 0xff
		key.dst[10], key.dst[11] = 0xff, 0xff
		copy(key.src[12:], b[12:16])
		copy(key.dst[12:], b[16:20])
		b = b[ihl:total]
	case 0x86dd:
		if len(b) < 40 || b[0]>>4 != 6 {
			return
		}
		next := b[6]
		plen := int(binary.BigEndian.Uint16(b[4:]))
		copy(key.src[:], b[8:24])
		copy(key.dst[:], b[24:40])
		b = b[40:]
		if plen < len(b) {
			b = b[:plen]
		}
		for next == 0 || next == 43 || next == 60 { // hop-by-hop, routing, destination options
			if len(b) < 8 {
				return
			}
			n := 8 + int(b[1])*8
			if n > len(b) {
				return
			}
			next, b = b[0], b[n:]
		}
		if next == 44 { // the Fragment header
			fragment = true
			return
		}
		if next != 6 {
			return
		}
	default:
		return
	}
	if len(b) < 20 {
		return
	}
	key.srcPort = binary.BigEndian.Uint16(b)
	key.dstPort = binary.BigEndian.Uint16(b[2:])
	seq = binary.BigEndian.Uint32(b[4:])
	doff := int(b[12]>>4) * 4
	if doff < 20 || doff > len(b) {
		return
	}
	flags = b[13]
	payload = b[doff:]
	ok = flags&tcpRST == 0 // a reset carries nothing to read
	return
}

// framesMessages puts the TCP streams of the frames together and reads their messages. file
// is the capture file the frames' bytes are slices of, or nil (frames read from text): it
// places the secrets a client sent (captureResult.secrets).
func framesMessages(frames []frame, file []byte) captureResult {
	flows := map[flowKey]*flow{}
	var order []*flow
	tcp := 0
	var fragments []int // frame numbers of IP fragments
	for i := range frames {
		key, seq, flags, payload, ok, frag := tcpSegment(&frames[i])
		if frag {
			fragments = append(fragments, frames[i].num)
		}
		fl := flows[key]
		if !ok {
			if flags&tcpRST != 0 && fl != nil && fl.end == nil {
				fl.end, fl.reset = &frames[i], true
			}
			continue
		}
		tcp++
		if fl == nil {
			fl = &flow{key: key, first: i}
			flows[key] = fl
			order = append(order, fl)
			rk := flowKey{src: key.dst, dst: key.src, srcPort: key.dstPort, dstPort: key.srcPort}
			if r := flows[rk]; r != nil {
				fl.reverse, r.reverse = r, fl
			}
		}
		if flags&tcpFIN != 0 && fl.end == nil {
			fl.end = &frames[i]
		}
		if flags&tcpSYN != 0 {
			fl.syn, fl.isn = true, seq+1
			seq++
		}
		if len(payload) > 0 {
			at := -1
			if file != nil {
				at = cap(file) - cap(payload) // every slice down to the payload is of the file
			}
			fl.segs = append(fl.segs, segment{seq: seq, data: payload, frame: frames[i].num, off: frames[i].off, ts: frames[i].ts, order: i, at: at})
		}
	}
	var c captureResult
	if len(fragments) > 0 {
		verb := "hold fragments"
		if len(fragments) == 1 {
			verb = "holds a fragment"
		}
		c.notes = append(c.notes, itoa(len(fragments))+pgvalue.Plural(len(fragments), " frame", " frames")+" ("+frameList(fragments)+") "+verb+
			" of IP packets, which this reader does not put together: skipped, so TCP bytes they carry are missing. "+
			"Wireshark puts them together: tshark -r FILE -q -z follow,tcp,raw,N (N the TCP stream) prints a connection's bytes in a form read here.")
	}
	if tcp == 0 {
		c.err = "the capture holds " + itoa(len(frames)) + " frames and no TCP segment this reader can read (Ethernet, Linux cooked, loopback or raw IP; IPv4 or IPv6)" + c.why()
		return c
	}
	copies := 0
	tlsConns := 0
	done := map[*flow]bool{}
	for _, fl := range order {
		if done[fl] {
			continue
		}
		done[fl] = true
		client, server := fl, fl.reverse
		if server != nil {
			done[server] = true
			if server.syn && client.syn && server.first < client.first {
				client, server = server, client
			}
		}
		var sc, ss []streamPiece
		sc = streamOf(client)
		if server != nil {
			ss = streamOf(server)
		}
		cn := Connection{Client: endpoint(client.key.src, client.key.srcPort), Server: endpoint(client.key.dst, client.key.dstPort)}
		if !client.syn || server == nil || !server.syn {
			cn.MidStream = true
		}
		msgs, secrets, ok := readConn(&cn, sc, ss, len(c.conns)+1)
		if !ok {
			continue
		}
		c.secrets = append(c.secrets, secrets...)
		swapped := cn.Client != endpoint(client.key.src, client.key.srcPort)
		if swapped {
			cn.MidStream = true // its sides were told by its messages
		}
		// The first FIN or RST, and which end sent it.
		closer := client
		if server != nil && server.end != nil && (client.end == nil || server.end.num < client.end.num) {
			closer, swapped = server, !swapped
		}
		if e := closer.end; e != nil {
			cn.CloseFrame, cn.Closed, cn.Reset, cn.ClosedBy = e.num, e.ts, closer.reset, decoder.Frontend
			if swapped {
				cn.ClosedBy = decoder.Backend
			}
		}
		if cn.Encrypted != "" {
			tlsConns++
		}
		whole := msgs[:0]
		for _, m := range msgs {
			if m.need > 0 {
				cn.Messages--
				if file == nil {
					c.cut = append(c.cut, m)
				}
				continue
			}
			if m.b[0] == 'd' {
				copies++
			}
			whole = append(whole, m)
		}
		if len(whole) == 0 && len(msgs) > 0 && file != nil {
			continue
		}
		c.conns = append(c.conns, cn)
		c.msgs = append(c.msgs, whole...)
	}
	sortMsgs(c.msgs)
	conns := len(c.conns)
	c.notes = append(c.notes, "Read "+itoa(len(frames))+pgvalue.Plural(len(frames), " frame", " frames")+": "+itoa(conns)+pgvalue.Plural(conns, " PostgreSQL connection", " PostgreSQL connections")+
		", "+itoa(len(c.msgs))+pgvalue.Plural(len(c.msgs), " message", " messages")+" in capture order ("+itoa(copies)+" CopyData).")
	for i, cn := range c.conns {
		if cn.Lost > 0 {
			where := "after its last message"
			if len(cn.LostBefore) > 0 {
				where = "before the messages of frames [" + frameList(cn.LostBefore) + "] or " + where
			}
			c.notes = append(c.notes, "Connection "+itoa(i+1)+": "+itoa(cn.Lost)+" bytes lost ("+where+
				"): dropped by the capture, or not messages. Messages are missing there.")
		}
	}
	if tlsConns > 0 {
		// Last: an error about a capture without messages quotes the last note.
		c.notes = append(c.notes, itoa(tlsConns)+pgvalue.Plural(tlsConns, " connection", " connections")+" encrypted (SSL or GSS encryption, as the server accepted): "+
			"only the encryption request and the server's answer are read, since encrypted bytes cannot be decoded. "+
			"To read its messages, capture a connection made with sslmode=disable (and gssencmode=disable).")
	}
	return c
}

// Connection is one TCP connection of a capture that carried PostgreSQL protocol messages.
type Connection struct {
	// Client and Server are its two ends, "127.0.0.1:51234" ("[::1]:5432" for IPv6); empty
	// for a followed stream (tshark -z follow), which does not name them in its bytes.
	Client, Server string
	// FirstFrame and LastFrame are the frames of its first and last message's first bytes;
	// Start and End their capture times, Unix nanoseconds (0 when the input has no times).
	FirstFrame, LastFrame int
	Start, End            int64
	// ToServer and ToClient count the bytes of its messages each way.
	ToServer, ToClient int
	// Messages counts its messages.
	Messages int
	// MidStream says the capture began after the connection had started (no TCP handshake or
	// no startup captured): it is read from its first whole message on.
	MidStream bool
	// Lost counts the bytes of its two streams the capture lacks (the TCP sequence numbers
	// skip them: packets the capture dropped) or holds but cannot read as messages, after the
	// first message read: the messages in them are missing. LostBefore are the frames of the
	// messages that follow each such place (Message.Lost), LostAtEnd the bytes lost after
	// each direction's last message.
	Lost, LostAtEnd int
	LostBefore      []int
	// Encrypted is "SSL" or "GSSAPI" when the server accepted encryption: only the request and
	// its answer can be read.
	Encrypted string
	// CloseFrame is the frame of the first FIN or RST either end sent (0: none captured),
	// Closed its capture time, ClosedBy the end that sent it and Reset says it was a RST. A
	// server that ends a connection without a word (a walsender at wal_sender_timeout logs
	// why and sends nothing) shows only here.
	CloseFrame int
	Closed     int64
	ClosedBy   decoder.Side
	Reset      bool
}

// Describe says how the connection was captured: "127.0.0.1:50740 → 127.0.0.1:37511, frames
// 23 to 231, 2026-12-04T14:46:14.679155Z to 2026-12-04T14:46:15.248154Z (0.569 s), 854
// messages, 594 bytes to the server, 82295 to the client", with its encryption and a start
// not captured.
func (c *Connection) Describe() string {
	s := ""
	if c.Client != "" {
		s = c.Client + " → " + c.Server + ", "
	}
	s += "frames " + itoa(c.FirstFrame) + " to " + itoa(c.LastFrame)
	if c.Start != 0 {
		ms := int((c.End - c.Start) / 1e6)
		s += ", " + string(pgvalue.AppendUnixNano(nil, c.Start)) + " to " + string(pgvalue.AppendUnixNano(nil, c.End)) +
			" (" + itoa(ms/1000) + "." + itoa(1000 + ms%1000)[1:] + " s)"
	}
	s += ", " + itoa(c.Messages) + pgvalue.Plural(c.Messages, " message", " messages") + ", " + itoa(c.ToServer) + " bytes to the server, " +
		itoa(c.ToClient) + " to the client"
	if c.Encrypted != "" {
		s += "; encrypted with " + c.Encrypted + ": only the request and the answer can be read"
	}
	if c.MidStream {
		s += "; its start was not captured: read from its first whole message"
	}
	return s
}

// endpoint writes an address and port: 127.0.0.1:5432, [::1]:5432 (each group of an IPv6
// address in hex, without leading zeros).
func endpoint(a [16]byte, port uint16) string {
	s := ""
	if a == [16]byte{10: 0xff, 11: 0xff, 12: a[12], 13: a[13], 14: a[14], 15: a[15]} {
		for i := 12; i < 16; i++ {
			s += "." + itoa(int(a[i]))
		}
		s = s[1:]
	} else {
		for i := 0; i < 16; i += 2 {
			s += ":" + strconv.FormatUint(uint64(a[i])<<8|uint64(a[i+1]), 16)
		}
		s = "[" + s[1:] + "]"
	}
	return s + ":" + itoa(int(port))
}

// readConn reads the messages of one connection's two streams, client's and server's as a
// capture saw them (either may be nil), into msgs of connection number conn, and fills in
// what cn says of them. The sides are swapped when the messages show the server's stream was
// taken for the client's. ok is false when neither stream holds PostgreSQL messages.
func readConn(cn *Connection, client, server []streamPiece, conn int) (msgs []pgMsg, secrets [][2]int, ok bool) {
	startup := looksLikeStartup(client)
	if !startup && looksLikeStartup(server) || !startup && serverLike(client) > serverLike(server) {
		client, server = server, client
		cn.Client, cn.Server = cn.Server, cn.Client
		startup = looksLikeStartup(client)
	}
	if !startup {
		cn.MidStream = true
		if tlsRecords(client) && (len(server) == 0 || tlsRecords(server)) {
			cn.Encrypted = "SSL"
			return nil, nil, true // TLS records from its first byte: nothing can be read
		}
	}
	cm, cok, ctail := pgStream(client, true, startup, 0, &secrets)
	// The server answers each encryption request with one byte before anything else.
	answers := 0
	for _, m := range cm {
		if len(m.b) == 8 && (binary.BigEndian.Uint32(m.b[4:]) == 80877103 || binary.BigEndian.Uint32(m.b[4:]) == 80877104) {
			answers++
		}
	}
	sm, sok, stail := pgStream(server, false, startup, answers, nil)
	cn.Lost, cn.LostAtEnd = ctail+stail, ctail+stail
	if !cok && !sok {
		return nil, nil, false
	}
	if enc := encryption(cm, sm); enc != "" {
		// After the answer every byte is encrypted: only the requests and the answers count.
		cn.Encrypted = enc
		cn.Lost, cn.LostAtEnd = 0, 0 // not lost: encrypted
		k := 0
		for k < len(cm) && len(cm[k].b) == 8 {
			k++
		}
		cm = cm[:k]
		for k = 0; k < len(sm) && len(sm[k].b) == 1; k++ {
		}
		sm = sm[:k]
	}
	for i := range cm {
		cm[i].side = decoder.Frontend
		cn.ToServer += len(cm[i].b)
	}
	for i := range sm {
		sm[i].side = decoder.Backend
		cn.ToClient += len(sm[i].b)
	}
	msgs = append(cm, sm...)
	sortMsgs(msgs)
	for i := range msgs {
		msgs[i].conn = conn
		if msgs[i].lost > 0 {
			cn.Lost += msgs[i].lost
			cn.LostBefore = append(cn.LostBefore, msgs[i].frame)
		}
	}
	if len(msgs) > 0 {
		first, last := msgs[0], msgs[len(msgs)-1]
		cn.FirstFrame, cn.LastFrame, cn.Start, cn.End = first.frame, last.frame, first.ts, last.ts
	}
	cn.Messages = len(msgs)
	return msgs, secrets, true
}

// encryption names the encryption the server accepted on a connection: its first client
// message an SSLRequest or a GSSENCRequest, the server's first message the one byte 'S' or
// 'G'.
func encryption(client, server []pgMsg) string {
	for _, m := range client {
		if len(m.b) != 8 {
			break
		}
		code := binary.BigEndian.Uint32(m.b[4:])
		if code != 80877103 && code != 80877104 {
			break
		}
		for _, a := range server {
			if len(a.b) == 1 && a.b[0] == 'S' {
				return "SSL"
			}
			if len(a.b) == 1 && a.b[0] == 'G' {
				return "GSSAPI"
			}
		}
	}
	return ""
}

// serverLike scores a stream read from its middle by the messages only a server sends: the
// higher score of a connection's two streams is the server's.
func serverLike(ps []streamPiece) int {
	score := 0
	for _, p := range ps {
		if len(p.data) == 0 {
			continue
		}
		switch p.data[0] {
		case 'Z', 'T', 'R', 'K', 'W', 'G', 'N', 'A', '1', '2', '3', 'n', 't', 'V', 'v', 'I':
			score++
		case 'Q', 'P', 'B', 'p', 'X', 'F', 'f':
			score--
		case 'd':
			if len(p.data) > 5 && (p.data[5] == 'w' || p.data[5] == 'k') {
				score++
			} else if len(p.data) > 5 && (p.data[5] == 'r' || p.data[5] == 'h') {
				score--
			}
		}
	}
	return score
}

// frameList names up to five frame numbers, then how many more.
func frameList(nums []int) string {
	var b []byte
	for i, n := range nums {
		if i == 5 {
			b = append(b, ", and "...)
			b = append(b, itoa(len(nums)-5)...)
			b = append(b, " more"...)
			break
		}
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, itoa(n)...)
	}
	return string(b)
}

// tlsRecords reports a stream that starts with two TLS records one after the other (content
// type 20 to 23, version 3.x, a length below 2^14 plus expansion).
func tlsRecords(ps []streamPiece) bool {
	if len(ps) == 0 || ps[0].gap {
		return false
	}
	b := ps[0].data
	for k, pos := 0, 0; k < 2; k++ {
		if pos == len(b) && k > 0 {
			return true // one record fills the first piece
		}
		if pos+5 > len(b) || b[pos] < 20 || b[pos] > 23 || b[pos+1] != 3 || b[pos+2] > 4 {
			return false
		}
		n := int(binary.BigEndian.Uint16(b[pos+3:]))
		if n > 1<<14+2048 {
			return false
		}
		pos += 5 + n
	}
	return true
}

// sortMsgs puts messages in the order their first bytes were captured.
func sortMsgs(m []pgMsg) {
	slices.SortStableFunc(m, func(a, b pgMsg) int { return cmp.Compare(a.frame, b.frame) })
}

// streamPiece is a run of a TCP stream's bytes from one frame.
type streamPiece struct {
	data  []byte
	frame int
	off   int
	ts    int64
	at    int  // the offset of data[0] in the capture file, or -1
	gap   bool // bytes are missing before this piece
	seq   int  // where data[0] is in the stream (from the first byte seen)
}

// streamOf puts a flow's segments in sequence order, dropping retransmitted bytes. The stream
// starts after its SYN, or else at its first segment captured: bytes before it, captured
// after it, are resent ones first sent before the capture (or the part of a big file, which
// holds their first sending) began, and are dropped too.
func streamOf(fl *flow) []streamPiece {
	if fl == nil || len(fl.segs) == 0 {
		return nil
	}
	base := fl.segs[0].seq
	if fl.syn {
		base = fl.isn
	}
	segs := fl.segs
	slices.SortStableFunc(segs, func(a, b segment) int { return cmp.Compare(a.seq-base, b.seq-base) })
	out := make([]streamPiece, 0, len(segs))
	next := uint32(0)
	for _, s := range segs {
		rel := s.seq - base
		if d := base - s.seq; d > 0 && d <= 1<<30 { // before the stream's start, within a TCP window
			if int(d) >= len(s.data) {
				continue
			}
			s.data, rel = s.data[d:], 0
			if s.at >= 0 {
				s.at += int(d)
			}
		}
		end := rel + uint32(len(s.data))
		if end <= next {
			continue // a retransmission
		}
		p := streamPiece{frame: s.frame, off: s.off, ts: s.ts, at: s.at, seq: int(max(rel, next))}
		if rel > next {
			p.gap = true
		} else {
			s.data = s.data[next-rel:]
			if p.at >= 0 {
				p.at += int(next - rel)
			}
		}
		p.data = s.data
		out = append(out, p)
		next = end
	}
	return out
}

// Untyped messages a client sends first: StartupMessage (protocol 3.0 and 3.2),
// CancelRequest, SSLRequest, GSSENCRequest.
func startupCode(v uint32) bool {
	return v == 196608 || v == 196610 || v == 80877102 || v == 80877103 || v == 80877104
}

func looksLikeStartup(ps []streamPiece) bool {
	if len(ps) == 0 || ps[0].gap || len(ps[0].data) < 8 {
		return false
	}
	b := ps[0].data
	n := binary.BigEndian.Uint32(b)
	return n >= 8 && n < 10000 && startupCode(binary.BigEndian.Uint32(b[4:]))
}

// pgStream reads the protocol messages of one direction. client: the frontend's side, whose
// first messages are untyped (StartupMessage, SSLRequest, GSSENCRequest, CancelRequest) when
// startup says the stream starts with them; the server's side then starts with its one-byte
// answers to the client's encryption requests, as many as answers says. A client's password
// or SASL data are redacted.
//
// Bytes between two messages, missing from the capture (a TCP sequence gap) or captured but
// not readable as messages, are counted in the second's lost; those after the last message
// in tail.
func pgStream(ps []streamPiece, client, startup bool, answers int, secrets *[][2]int) (msgs []pgMsg, ok bool, tail int) {
	if len(ps) == 0 {
		return nil, false, 0
	}
	// Join the pieces, remembering where each starts, and where bytes are missing.
	total := 0
	for _, p := range ps {
		total += len(p.data)
	}
	data := make([]byte, 0, total)
	starts := make([]int, 0, len(ps))
	var gaps []int
	for _, p := range ps {
		if p.gap {
			gaps = append(gaps, len(data))
		}
		starts = append(starts, len(data))
		data = append(data, p.data...)
	}
	pieceAt := func(off int) int {
		i := sort.Search(len(starts), func(i int) bool { return starts[i] > off }) - 1
		return max(i, 0)
	}
	end := -1 // where the last message ended in the stream
	add := func(from, to int) {
		pi := pieceAt(from)
		at := ps[pi].seq + from - starts[pi]
		m := pgMsg{b: data[from:to:to], frame: ps[pi].frame, off: ps[pi].off, ts: ps[pi].ts}
		if end >= 0 {
			m.lost = at - end
		}
		end = at + to - from
		msgs = append(msgs, m)
	}
	pos := 0
	if startup && client {
		for pos+8 <= len(data) {
			n := int(binary.BigEndian.Uint32(data[pos:]))
			code := binary.BigEndian.Uint32(data[pos+4:])
			if !startupCode(code) || n < 8 || pos+n > len(data) {
				break
			}
			add(pos, pos+n)
			pos += n
			if code == 196608 || code == 196610 || code == 80877102 {
				break
			}
		}
	}
	for ; answers > 0 && pos < len(data) && (data[pos] == 'N' || data[pos] == 'S' || data[pos] == 'G'); answers-- {
		add(pos, pos+1)
		pos++
		if data[pos-1] != 'N' {
			return msgs, true, 0 // encrypted from here on: nothing more to read
		}
	}
	ok = startup
	gi := 0
	for pos < len(data) {
		for gi < len(gaps) && gaps[gi] <= pos {
			gi++
		}
		if !validMsg(data, pos) || (gi < len(gaps) && pos+msgLen(data, pos) > gaps[gi]) {
			// Not a message boundary: the capture began mid-stream or lost bytes. Find the
			// next place where messages follow one another.
			next := resync(data, pos+1)
			if next < 0 {
				break
			}
			pos = next
			continue
		}
		n := msgLen(data, pos)
		if pos+n > len(data) {
			// Cut by the end of the capture. A client's message may hold a password: only a
			// server's start is kept.
			if !client {
				pi := pieceAt(pos)
				msgs = append(msgs, pgMsg{b: data[pos:], frame: ps[pi].frame, off: ps[pi].off, ts: ps[pi].ts, need: n})
				ok = true
			}
			end = -1 // cut by the capture's end, not lost
			break
		}
		ok = true
		add(pos, pos+n)
		if from, to := decoder.SecretSpan(data[pos : pos+n]); client && to > from {
			decoder.Redact(data[pos : pos+n])
			if secrets != nil {
				*secrets = fileRanges(*secrets, ps, starts, pos+from, pos+to)
			}
		}
		pos += n
	}
	if last := ps[len(ps)-1]; end >= 0 {
		tail = last.seq + len(last.data) - end
	}
	return msgs, ok, tail
}

// fileRanges appends to ranges the places in the capture file of the stream's bytes from lo to
// hi (not included), which may span pieces; starts[i] is where piece i starts in the stream.
func fileRanges(ranges [][2]int, ps []streamPiece, starts []int, lo, hi int) [][2]int {
	for i, p := range ps {
		a, b := max(lo, starts[i]), min(hi, starts[i]+len(p.data))
		if a < b && p.at >= 0 {
			ranges = append(ranges, [2]int{p.at + a - starts[i], p.at + b - starts[i]})
		}
	}
	return ranges
}

// RedactCapture returns a pcap or pcapng file with every byte a client sent as a password or
// SASL data overwritten with '*', as the messages read from it are (decoder.Redact): a copy
// when it held any, else b itself. Anything else is returned as it is.
func RedactCapture(b []byte) []byte {
	if !isPcap(b) && !isPcapng(b) {
		return b
	}
	c := readPacketCapture(b)
	if len(c.secrets) == 0 {
		return b
	}
	out := append([]byte(nil), b...)
	for _, r := range c.secrets {
		for i := r[0]; i < r[1]; i++ {
			out[i] = '*'
		}
	}
	return out
}

// msgLen is the length of the typed message at pos, type byte included.
func msgLen(b []byte, pos int) int { return 1 + int(binary.BigEndian.Uint32(b[pos+1:])) }

// validMsg reports whether a typed message could start at pos: a letter or digit as its type,
// and a length of at least 4 that is not absurd.
func validMsg(b []byte, pos int) bool {
	if pos+5 > len(b) {
		return false
	}
	c := b[pos]
	if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '1' && c <= '3') {
		return false
	}
	n := binary.BigEndian.Uint32(b[pos+1:])
	return n >= 4 && n < 1<<30
}

// resync finds the first offset from pos where three messages follow one another, or
// messages run exactly to the end.
func resync(b []byte, pos int) int {
	for ; pos+5 <= len(b); pos++ {
		p, k := pos, 0
		for k < 3 && validMsg(b, p) {
			p += msgLen(b, p)
			k++
			if p == len(b) {
				return pos
			}
			if p > len(b) {
				break
			}
		}
		if k == 3 && p <= len(b) {
			return pos
		}
	}
	return -1
}

// Frames dumped as text: tshark -x, Wireshark's "Copy as Hex Dump" of whole frames.

// readFrames reads a Wireshark dump whose blocks are frames (Frames forced).
func readFrames(s *state) *failure {
	if f := readWiresharkDump(s); f != nil {
		return f
	}
	if !s.asFrames() {
		return failf(0, "expected frames as tshark -x prints them: each block an Ethernet or Linux cooked frame holding a TCP segment of PostgreSQL messages")
	}
	return nil
}

// asFrames reads the messages of a Wireshark dump as frames when every one of them holds an
// IPv4 or IPv6 TCP segment behind the same link header (Ethernet, as on lo; Linux cooked v2
// or v1, as on any), and replaces them by the PostgreSQL messages of the TCP streams. It
// reports whether it did. A server's message that goes on past the frames is kept as far as
// it goes, and s.frameCut says so. One frame whose bytes also decode as a message is
// Result.Also.
func (s *state) asFrames() bool {
	frames := make([]frame, len(s.msgs))
	links := [...]uint32{linkEthernet, linkSLL2, linkSLL}
	k := 0
	for i := 0; i < len(s.msgs) && k < len(links); i++ {
		end := len(s.buf)
		if i+1 < len(s.starts) {
			end = s.starts[i+1]
		}
		frames[i] = frame{num: i + 1, link: links[k], data: s.buf[s.starts[i]:end], off: s.msgs[i].Offset}
		if _, _, _, _, ok := tcpPayload(&frames[i]); !ok {
			k, i = k+1, -1 // the next link type, from the first frame
		}
	}
	if len(frames) == 0 || k == len(links) {
		return false
	}
	c := framesMessages(frames, nil)
	if len(c.msgs)+len(c.cut) == 0 {
		return false
	}
	if len(frames) == 1 && decoder.NewSession(decoder.Options{}).Check(frames[0].data) == nil {
		s.also = append(s.also, Alternative{Format: WiresharkDump, Messages: 1, Note: "the frame's bytes decode as one message too"})
	}
	old := s.buf
	s.buf = make([]byte, 0, len(old)/2)
	s.msgs, s.starts = s.msgs[:0], s.starts[:0]
	s.note(-1, "The dump holds "+itoa(len(frames))+" "+[...]string{"Ethernet", "Linux cooked v2", "Linux cooked v1"}[k]+
		pgvalue.Plural(len(frames), " frame", " frames")+" (as tshark -x prints them); their TCP streams are put together and the PostgreSQL protocol's messages read.")
	if len(c.cut) > 0 {
		m := c.cut[0]
		s.frameCut = failf(m.off, "frame "+itoa(m.frame)+"'s TCP stream ends "+itoa(len(m.b))+" bytes into a message of "+itoa(m.need)+
			" bytes (type '"+string(m.b[:1])+"'): the rest is in frames the dump does not hold (print them all, tshark -r FILE -x, or tshark -r FILE -q -z follow,tcp,raw,N); its start is read as far as it goes")
		c.msgs = append(c.msgs, c.cut...)
		sortMsgs(c.msgs)
	}
	s.takeCapture(&c)
	return true
}
