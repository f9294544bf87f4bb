package web

import (
	"strconv"
	"strings"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/dumpjob"
	"pgoutput-inspector/internal/export"
)

// Links of inputs too long for one (docs/page.md, "Share links"). Share first links the
// whole input; when that link is longer than MaxLink, it links a part holding the chosen
// message: its connection's messages, its transaction's, or the message alone, the last two
// after the Relation and Type messages the input described before them. A packet capture's
// part is written as tshark's tcp.payload fields, any other input's as editedText writes one
// (a capture file as a capture file, anything else as hex, one message a line); a part is
// taken only when it decodes to the same trees as its messages in the input. The first part
// whose link fits is linked, and the page says which it holds; when none fits, Share says so:
// never a silent cut. The export worker finds the parts (SharePartAnswer), which main.wasm
// has no room for (docs/performance.md, "Size tricks").

// MaxLink is the longest link Share makes, in characters: Firefox opens addresses of up to
// 1 MiB (network.standard-url.max-length), Chromium of up to 2 MiB; 1 KiB is left for the
// page's own address.
const MaxLink = 1<<20 - 1<<10

// The parts of an input a link holds, in the order Share tries them.
const (
	shareWhole = iota
	shareConn
	shareTxn
	shareMsg
	numShareParts
)

// shareMade takes the link Share asked for: when it is too long, it asks the export worker for
// the next part that holds the chosen message (SharePartAnswer).
func (s State) shareMade(compressed []byte) (State, []Effect) {
	link := ShareLink(compressed)
	if len(link) <= MaxLink {
		s.Share = ShareState{Link: link, Holds: s.Share.Holds, Whole: s.Share.Whole}
		return s, []Effect{EffectSetHash{Hash: link, Push: true}, EffectCopy{Text: link}}
	}
	if s.Share.Part == shareWhole {
		s.Share.Whole = len(link)
	}
	if s.Share.Part+1 == numShareParts {
		s.Share = ShareState{Err: s.tooLongForALink("none of its parts holding the chosen message fits in one either")}
		return s, nil
	}
	return s, []Effect{EffectDump{Job: dumpjob.Job{Kind: dumpjob.SharePart, Text: s.Share.payload, Message: s.Share.Part + 1}}}
}

// sharePartMade takes the export worker's answer to shareMade (SharePartAnswer): the part
// and the payload of its link, or why there is none.
func (s State) sharePartMade(a Dumped) (State, []Effect) {
	if !s.Share.Busy {
		return s, nil // another Share, or another input, came since
	}
	if a.Err {
		s.Share = ShareState{Err: s.tooLongForALink(a.Status)}
		return s, nil
	}
	part, rest, _ := strings.Cut(a.Status, "\n")
	holds, payload, ok := strings.Cut(rest, "\n")
	if len(part) != 1 || part[0] <= '0' || part[0]-'0' >= numShareParts || !ok {
		s.Share = ShareState{Err: "Could not make the link: the export worker's answer could not be read."}
		return s, nil
	}
	s.Share.Part, s.Share.Holds = int(part[0]-'0'), holds
	return s, []Effect{EffectCompress{Payload: []byte(payload)}}
}

// tooLongForALink says that the input's link is too long, and why no part of it was linked.
func (s State) tooLongForALink(why string) string {
	return "The input makes a link of " + Commas(s.Share.Whole) + " characters, more than the " + Commas(MaxLink) +
		" a browser opens: " + why + ". Export the input instead, or the message as hex."
}

// SharePartAnswer is the export worker's part of Share (dumpjob.SharePart): the first part
// of the input of the z1 payload whole, from part from on, that holds its chosen message and
// decodes alone as it does in the input, as its part number and what it holds on a line each,
// then its z1 payload; or why there is none.
func SharePartAnswer(whole []byte, from int) (answer []byte, why string) {
	sh, err := ParseSharePayload(whole)
	if err != nil {
		return nil, err.Error()
	}
	d, ierr := newDoc(sh.Text, sh.Format, decoder.Options{Proto: sh.Proto, InStream: sh.InStream}, -1, ReadBefore(sh.Before, sh.Text).resume)
	if d == nil {
		return nil, "the input could not be read: " + ierr.Error()
	}
	for p := max(from, shareConn); p < numShareParts; p++ {
		if part, holds, ok := d.sharePart(sh, p); ok {
			return append([]byte(strconv.Itoa(p)+"\n"+holds+"\n"), SharePayload(part)...), ""
		}
	}
	return nil, "no part of it holding the chosen message decodes alone as it does in the input"
}

// sharePart returns the link's content of part p of d with sh's message chosen, and a
// sentence naming it, or false when d has no such part, or it would not decode alone as it
// does in d.
func (d *Doc) sharePart(sh Shared, p int) (part Shared, holds string, ok bool) {
	m := sh.Msg
	if !d.Complete() || m < 0 || m >= len(d.Messages) {
		return part, "", false
	}
	var idx []int
	switch p {
	case shareConn:
		c := d.Messages[m].Conn
		if c <= 0 || c > len(d.Connections) || len(d.Connections) < 2 {
			return part, "", false
		}
		for i := range d.Messages {
			if d.Messages[i].Conn == c {
				idx = append(idx, i)
			}
		}
		holds = "connection " + strconv.Itoa(c) + "'s " + Commas(len(idx)) + " messages"
	case shareTxn:
		g := d.Summaries[m].Group
		if g < 0 {
			return part, "", false
		}
		for i := range d.Summaries {
			if d.Summaries[i].Group == g {
				idx = append(idx, i)
			}
		}
		holds = "the chosen message's transaction (messages " + strconv.Itoa(idx[0]+1) + " to " + strconv.Itoa(idx[len(idx)-1]+1) + ")"
	default:
		idx = []int{m}
		holds = "the chosen message"
	}
	if len(idx) == len(d.Messages) {
		return part, "", false // not a part
	}
	if p != shareConn {
		if before := d.describedBefore(idx[0]); len(before) > 0 {
			holds += " after the " + strconv.Itoa(len(before)) + pgvalue.Plural(len(before), " Relation or Type message", " Relation and Type messages") + " before it"
			idx = append(before, idx...)
		}
	}
	part = Shared{Format: input.Hex, Proto: sh.Proto, InStream: sh.InStream, Sel: sh.Sel, Explain: sh.Explain, Filter: sh.Filter, Lens: sh.Lens}
	if part.Proto == 0 {
		part.Proto = d.Proto
	}
	switch {
	case len(d.Connections) > 0:
		part.Format, part.Text = input.TCPPayload, d.payloadText(idx)
		holds += ", as tshark's tcp.payload fields (without the capture's times)"
	case d.Format == input.Capture:
		part.Format, part.Text = input.Capture, d.linesText(idx, -1, nil)
	default:
		part.Text = d.linesText(idx, -1, nil)
	}
	if sh.Before != nil {
		part.Before = d.partBefore(sh.Before, d.Messages[m].Conn, part.Text, part.Format)
	}
	if part.Text == "" || !d.decodesAlike(idx, part.Text, part.Format, decoder.Options{Proto: part.Proto, InStream: part.InStream}, part.Before) {
		return part, "", false
	}
	if len(items(part.Before)) > 1 {
		holds += ", knowing the relations and types the parts before defined"
	}
	for i, k := range idx {
		if k == m {
			part.Msg = i
		}
		for _, n := range sh.Notes {
			if n.Msg == k {
				n.Msg = i
				part.Notes = append(part.Notes, n)
			}
		}
	}
	return part, holds, true
}

// payloadText writes messages idx of one connection of a packet capture as tshark -T fields
// -E header=y -e tcp.srcport -e tcp.dstport -e tcp.payload writes their frames, one message a
// frame: the ports say which side sent each.
func (d *Doc) payloadText(idx []int) string {
	c := d.Connections[d.Messages[idx[0]].Conn-1]
	client, server := port(c.Client), port(c.Server)
	out := []byte("tcp.srcport\ttcp.dstport\ttcp.payload\n")
	for _, k := range idx {
		m := &d.Messages[k]
		from, to := client, server
		if m.Side == decoder.Backend {
			from, to = server, client
		}
		out = append(append(append(append(out, from...), '\t'), to...), '\t')
		out = append(export.AppendBytes(out, export.Hex, m.Bytes), '\n')
	}
	return string(out)
}

// port is the port of an address as input.Connection writes it ("127.0.0.1:5432").
func port(addr string) string {
	i := len(addr)
	for i > 0 && addr[i-1] != ':' {
		i--
	}
	return addr[i:]
}

// describedBefore returns, in order, the last Relation and Type message the input described
// each relation and type with before message m, on m's connection.
func (d *Doc) describedBefore(m int) []int {
	var out []int
	n := 0
	for n < len(d.Described) && d.Described[n].Msg < m {
		n++
	}
	for i := range n {
		// One of the parts before the input (-1) is not a message of it.
		if k := d.Described[i].Msg; k < 0 || d.Messages[k].Conn != d.Messages[m].Conn {
			continue
		}
		later := false // described again before m
		for j := i + 1; j < n && !later; j++ {
			later = describedOID(d.Described[j]) == describedOID(d.Described[i])
		}
		if !later {
			out = append(out, d.Described[i].Msg)
		}
	}
	return out
}

// describedOID is the OID of the relation or type x describes.
func describedOID(x Described) uint32 {
	if x.Relation != nil {
		return x.Relation.OID
	}
	return x.Type.OID
}

// partBefore returns what a part of d of connection c's messages (0: of an input of no
// connections), written as text read as force, goes on from when d goes on from before
// (Carry.AppendBefore): the transaction left open, and c's relations and types by the part's
// own connection's endpoints.
func (d *Doc) partBefore(before []byte, c int, text string, force input.Format) []byte {
	l := items(before)
	if len(l) == 0 {
		return nil
	}
	key, to := "", ""
	if c > 0 {
		key = endpoints(&d.Connections[c-1])
		res, _ := input.Parse([]byte(text), force)
		if res == nil || len(res.Connections) != 1 {
			return nil
		}
		to = endpoints(&res.Connections[0])
	}
	out := appendItem(nil, l[0])
	for i := 1; i+1 < len(l); i += 2 {
		if string(l[i]) == key {
			out = appendItem(appendItem(out, []byte(to)), l[i+1])
		}
	}
	return out
}

// decodesAlike reports whether text, read as force and decoded with opts going on from before
// (nil: nothing), gives the trees of messages idx of d, node for node.
func (d *Doc) decodesAlike(idx []int, text string, force input.Format, opts decoder.Options, before []byte) bool {
	nd, ierr := newDoc(text, force, opts, len(idx), ReadBefore(before, text).resume)
	if ierr != nil || nd == nil || len(nd.Trees) != len(idx) {
		return false
	}
	for i, k := range idx {
		a, b := d.Trees[k], nd.Trees[i]
		// The same nodes, and the same relation known or not (its columns' names are not
		// in the nodes).
		if len(a.Nodes) != len(b.Nodes) || (a.Err == nil) != (b.Err == nil) || (a.Relation == nil) != (b.Relation == nil) || a.MissingRelation != b.MissingRelation {
			return false
		}
		for j := range a.Nodes {
			x, y := &a.Nodes[j], &b.Nodes[j]
			if x.Field != y.Field || x.Format != y.Format || x.Offset != y.Offset || x.Length != y.Length || x.Index != y.Index || x.Depth != y.Depth {
				return false
			}
		}
	}
	return true
}
