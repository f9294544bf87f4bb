package input

import (
	"encoding/binary"
	"errors"
	"strconv"
)

// Cutting a file too big to read whole into parts, each a file of the same format that Parse
// reads on its own: the page reads a file of at most web.MaxFile bytes, and opens a bigger
// one a part at a time (its export worker cuts it as it reads it from disk). Only the file's
// frame or message boundaries are read, and of a capture the TCP streams' message headers
// (partflows.go): a part ends where every stream is between two messages. Where none is
// found, a stream is cut between two parts and loses the message it was cut in (each part
// says so, as a capture begun or ended mid-stream does).

// Parts is how a file is cut.
type Parts struct {
	Format Format // Pcap, Pcapng or RecvLogical
	// Head is how many bytes from the file's start go before each part's bytes: a pcap's file
	// header, a pcapng's blocks before its first packet (its section header and interfaces).
	Head  int64
	Parts []Part
}

// Part is one part: its bytes in the file (after the head) and the frames or messages in them.
type Part struct {
	Start, End int64
	Items      int
	// Mid says the part ends inside a message of a TCP stream, which the next part goes on
	// with.
	Mid bool
}

// Cutter cuts a file into parts of at most MaxBytes bytes (head included) and MaxItems
// frames or messages, as its bytes are written to it in order (an io.Writer). A frame or
// message bigger than a part is a part alone. A capture's part grows to twice the limits
// to end where every TCP stream is between two messages, and where none is found, ends
// inside one (Part.Mid); a part does not begin where a stream's first bytes in it are
// resent ones.
type Cutter struct {
	MaxBytes int64
	MaxItems int

	parts Parts
	order binary.ByteOrder
	// off is how many bytes were written; pending the start of a record or block not yet
	// whole (its header), skip the bytes of the current one still to come.
	off     int64
	pending []byte
	skip    int64
	// A packet's or interface's block: its type, where it is in the file, and its body's
	// length and bytes held.
	typ      uint32
	from, to int64
	body     int64
	held     []byte
	links    []uint32 // the link types of a pcap or of a pcapng's interfaces
	flows    partFlows
	// open says the last part's start is not final: it is undone (the part joins the one
	// before) if a stream's first bytes in it are resent ones, until every stream followed has
	// sent new ones (partFlows.waiting), or the next part begins.
	open bool
	// recv cuts a pg_recvlogical file (its bytes from base on are in buf).
	recv *recvSplitter
	buf  []byte
	base int64
	err  error
}

// Write reads the file's next bytes. After an error, the file cannot be cut (Close says why).
func (c *Cutter) Write(b []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n := len(b)
	if c.parts.Format == Auto {
		c.pending = append(c.pending, b...)
		if !c.start() {
			return n, c.err
		}
		b, c.pending = c.pending, nil
	}
	if c.parts.Format == RecvLogical {
		c.buf = append(c.buf, b...)
		c.cutRecv(false)
		c.off += int64(len(b))
		return n, c.err
	}
	for len(b) > 0 && c.err == nil {
		if c.skip > 0 {
			k := min(c.skip, int64(len(b)))
			c.skip -= k
			c.off += k
			b = b[k:]
			continue
		}
		if c.body > 0 {
			if len(c.held) == 0 && int64(len(b)) >= c.body {
				// The whole body is in this chunk.
				c.block(b[:c.body])
				c.off += c.body
				b = b[c.body:]
				c.body = 0
				continue
			}
			k := min(c.body-int64(len(c.held)), int64(len(b)))
			c.held = append(c.held, b[:k]...)
			c.off += k
			b = b[k:]
			if int64(len(c.held)) == c.body {
				c.block(c.held)
				c.held, c.body = c.held[:0], 0
			}
			continue
		}
		// A record's or block's header: 16 bytes of a pcap record, 8 of a pcapng block.
		need := 16
		if c.parts.Format == Pcapng {
			need = 8
		}
		if len(c.pending) == 0 && len(b) >= need {
			// A whole header: read where it is.
			c.off += int64(need)
			h := b[:need]
			b = b[need:]
			c.record(h)
			continue
		}
		k := min(need-len(c.pending), len(b))
		c.pending = append(c.pending, b[:k]...)
		c.off += int64(k)
		b = b[k:]
		if len(c.pending) == need {
			c.record(c.pending)
			c.pending = c.pending[:0]
		}
	}
	return n, c.err
}

// start reads the file's format from its first bytes, once there are enough.
func (c *Cutter) start() bool {
	b := c.pending
	switch {
	case len(b) < 28:
		return false
	case isPcap(b):
		c.parts.Format, c.parts.Head = Pcap, 24
		c.order = binary.LittleEndian
		if m := binary.LittleEndian.Uint32(b); m == 0xd4c3b2a1 || m == 0x4d3cb2a1 {
			c.order = binary.BigEndian
		}
		c.links = []uint32{c.order.Uint32(b[20:]) & 0xffff}
		c.off, b = 24, b[24:]
	case isPcapng(b):
		c.parts.Format = Pcapng
		c.order = binary.LittleEndian
		if binary.LittleEndian.Uint32(b[8:]) != 0x1a2b3c4d {
			c.order = binary.BigEndian
		}
	case isBinary(b) && b[0] >= 'A' && b[0] <= 'Z':
		c.parts.Format = RecvLogical
		c.recv = newRecvSplitter()
	default:
		c.err = c.fail(0, "the file is not a pcap, pcapng or pg_recvlogical file")
		return false
	}
	c.pending = b
	return true
}

// record reads a pcap record's or pcapng block's header h, which starts at c.off minus its
// length.
func (c *Cutter) record(h []byte) {
	at := c.off - int64(len(h))
	if c.parts.Format == Pcap {
		n := int64(c.order.Uint32(h[8:]))
		if n > 1<<28 {
			c.err = c.fail(at, "a pcap record of "+strconv.FormatInt(n, 10)+" bytes")
			return
		}
		c.read(0, at, at+16+n, n)
		return
	}
	typ, n := c.order.Uint32(h), int64(c.order.Uint32(h[4:]))
	if n < 12 || n%4 != 0 || n > 1<<28 {
		c.err = c.fail(at, "a pcapng block of length "+strconv.FormatInt(n, 10))
		return
	}
	c.skip = n - 8
	switch {
	case typ == 2 || typ == 3 || typ == 6: // packet blocks
		if c.parts.Head == 0 {
			c.parts.Head = at
		}
		c.read(typ, at, at+n, n-8)
	case c.parts.Head == 0:
		// Before the first packet: the head every part starts with.
		if typ == 1 {
			c.read(typ, at, at+n, n-8)
		}
	case typ == 0x0a0d0d0a || typ == 1:
		c.err = c.fail(at, "a second section or an interface added after the first packet (editcap -r cuts such a file)")
	default:
		// Statistics, name resolution, decryption secrets: kept in the part they fall in.
		c.end(at + n)
	}
}

// read has the cutter read a block's body, its next n bytes, unless it is too big to be a
// frame the capture reader reads: a packet's (from to to in the file, counted once read) or
// an interface's (typ 1).
func (c *Cutter) read(typ uint32, from, to, n int64) {
	c.typ, c.from, c.to = typ, from, to
	if n > 1<<20 {
		c.skip = n
		if typ != 1 {
			c.flows.none()
			c.counted()
		}
		return
	}
	c.body, c.skip = n, 0
	if n == 0 {
		c.block(nil) // a pcap record of no bytes
	}
}

// block reads a pcap record's data (typ 0) or a pcapng block's body (its trailing length
// included): an interface's link type, or a packet's frame.
func (c *Cutter) block(b []byte) {
	o := c.order
	c.flows.none()
	switch {
	case c.typ == 0:
		c.flows.frame(c.links[0], b)
	case c.typ == 1:
		c.links = append(c.links, uint32(o.Uint16(b)))
		return
	case c.typ == 3 && len(c.links) > 0 && len(b) >= 8: // Simple Packet Block
		c.flows.frame(c.links[0], b[4:4+min(int64(o.Uint32(b)), int64(len(b)-8))])
	case len(b) >= 24: // Enhanced Packet Block, or the obsolete Packet Block (a 16-bit interface)
		link, n := o.Uint32(b), int64(o.Uint32(b[12:]))
		if c.typ == 2 {
			link = uint32(o.Uint16(b))
		}
		if int64(link) < int64(len(c.links)) && n <= int64(len(b)-24) {
			c.flows.frame(c.links[link], b[20:20+n])
		}
	}
	c.counted()
}

// counted counts the packet just read in its part, then follows its TCP segment.
func (c *Cutter) counted() {
	n := len(c.parts.Parts)
	c.add(c.from, c.to, c.flows.between)
	if len(c.parts.Parts) > n && n > 0 {
		c.flows.begin()
		c.open = !c.parts.Parts[n-1].Mid
	}
	c.flows.feed()
	if c.flows.resent && c.open {
		// The part begins with bytes resent: it joins the one before.
		ps := c.parts.Parts
		last, prev := ps[len(ps)-1], &ps[len(ps)-2]
		prev.End, prev.Items = last.End, prev.Items+last.Items
		c.parts.Parts, c.open = ps[:len(ps)-1], false
	}
	c.open = c.open && c.flows.waiting > 0
	c.flows.resent = false
}

// cutRecv cuts the pg_recvlogical file's messages out of the bytes read so far.
func (c *Cutter) cutRecv(final bool) {
	for {
		m, st := c.recv.nextQuick(c.buf, final)
		switch st {
		case splitFound:
			// The message and its newline.
			c.add(c.base+int64(m.start), c.base+int64(m.end)+1, true)
			continue
		case splitBad:
			c.err = c.fail(c.base+int64(c.recv.start), "no newline ends a pg_recvlogical message that decodes")
		}
		break
	}
	// Keep only the message being cut.
	if k := c.recv.start; k > 0 && k >= len(c.buf)/2 {
		c.buf = append(c.buf[:0], c.buf[k:]...)
		c.recv.shift(k)
		c.base += int64(k)
	}
}

// add counts a frame or message from from to to, starting a part when it would not fit, and
// between (no stream is inside a message) or twice the limits would not hold it either.
func (c *Cutter) add(from, to int64, between bool) {
	ps := &c.parts.Parts
	n := len(*ps)
	if n == 0 {
		*ps = append(*ps, Part{Start: from, End: from})
	} else if last := &(*ps)[n-1]; last.Items > 0 {
		size := c.parts.Head + to - last.Start
		full := last.Items >= c.MaxItems || size > c.MaxBytes
		if full && (between || last.Items >= 2*c.MaxItems || size > 2*c.MaxBytes) {
			last.Mid = !between
			*ps = append(*ps, Part{Start: from, End: from})
		}
	}
	p := &(*ps)[len(*ps)-1]
	p.Items++
	p.End = to
}

// end makes the last part end at to (a block that is not a packet).
func (c *Cutter) end(to int64) {
	if n := len(c.parts.Parts); n > 0 {
		c.parts.Parts[n-1].End = to
	}
}

func (c *Cutter) fail(at int64, what string) error {
	return errors.New("cannot cut the file at byte " + strconv.FormatInt(at, 10) + ": " + what)
}

// SoFar is the cut so far: the format and head once known, and the parts, the last of which
// may still grow, and so may the one before it, which Final says. It is the Cutter's: read it
// before the next Write.
func (c *Cutter) SoFar() *Parts { return &c.parts }

// Final is how many of the parts so far will not change.
func (c *Cutter) Final() int {
	n := len(c.parts.Parts) - 1
	if c.open {
		n--
	}
	return max(n, 0)
}

// Close says how the file is cut, or why it cannot be.
func (c *Cutter) Close() (*Parts, error) {
	if c.err == nil && c.parts.Format == RecvLogical {
		c.cutRecv(true)
	}
	switch {
	case c.err != nil:
		return nil, c.err
	case c.parts.Format == Auto:
		return nil, c.fail(0, "the file is too short")
	case len(c.parts.Parts) == 0:
		return nil, c.fail(c.off, "the file holds no frame or message")
	}
	// A file cut inside its last frame (a capture stopped while writing): the last part ends
	// with the file, and says so when read.
	if c.body > 0 && c.typ != 1 {
		c.flows.none()
		c.counted()
	}
	c.end(c.off)
	return &c.parts, nil
}
