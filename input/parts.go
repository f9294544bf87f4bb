package input

import (
	"encoding/binary"
	"errors"
	"strconv"
)

// Cutting a file too big to read whole into parts, each a file of the same format that Parse
// reads on its own: the page reads a file of at most web.MaxFile bytes, and opens a bigger
// one a part at a time (its export worker cuts it as it reads it from disk). Only the file's
// frame or message boundaries are read, not its messages: a TCP stream cut between two
// parts loses the message it was cut in (each part says so, as a capture begun or ended
// mid-stream does).

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
}

// Cutter cuts a file into parts of at most MaxBytes bytes (head included) and MaxItems
// frames or messages, as its bytes are written to it in order (an io.Writer). A frame or
// message bigger than a part is a part alone.
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
		// A record's or block's header: 16 bytes of a pcap record, 8 of a pcapng block.
		need := 16
		if c.parts.Format == Pcapng {
			need = 8
		}
		k := min(need-len(c.pending), len(b))
		c.pending = append(c.pending, b[:k]...)
		c.off += int64(k)
		b = b[k:]
		if len(c.pending) == need {
			c.record()
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

// record reads a pcap record's or pcapng block's header (c.pending), which starts at c.off
// minus its length.
func (c *Cutter) record() {
	h := c.pending
	at := c.off - int64(len(h))
	if c.parts.Format == Pcap {
		n := int64(c.order.Uint32(h[8:]))
		if n > 1<<28 {
			c.err = c.fail(at, "a pcap record of "+strconv.FormatInt(n, 10)+" bytes")
			return
		}
		c.add(at, at+16+n)
		c.skip = n
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
		c.add(at, at+n)
	case c.parts.Head == 0:
		// Before the first packet: the head every part starts with.
	case typ == 0x0a0d0d0a || typ == 1:
		c.err = c.fail(at, "a second section or an interface added after the first packet (editcap -r cuts such a file)")
	default:
		// Statistics, name resolution, decryption secrets: kept in the part they fall in.
		c.end(at + n)
	}
}

// cutRecv cuts the pg_recvlogical file's messages out of the bytes read so far.
func (c *Cutter) cutRecv(final bool) {
	for {
		m, st := c.recv.nextQuick(c.buf, final)
		switch st {
		case splitFound:
			// The message and its newline.
			c.add(c.base+int64(m.start), c.base+int64(m.end)+1)
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

// add counts a frame or message from from to to, starting a part when it would not fit.
func (c *Cutter) add(from, to int64) {
	ps := &c.parts.Parts
	if n := len(*ps); n == 0 || (*ps)[n-1].Items >= c.MaxItems || c.parts.Head+to-(*ps)[n-1].Start > c.MaxBytes && (*ps)[n-1].Items > 0 {
		*ps = append(*ps, Part{Start: from, End: from})
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
// may still grow. It is the Cutter's: read it before the next Write.
func (c *Cutter) SoFar() *Parts { return &c.parts }

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
	c.end(c.off)
	return &c.parts, nil
}
