// Command guideexamples cuts the field guide's examples out of real captures: for every guide
// entry, the first message of that kind in the sources below, with the messages it needs before
// it (the transaction's or stream block's opening message, and the Relation and Type messages
// sent in it) and the message closing its block. It writes testdata/guide/<entry>.txt and the
// index testdata/guide/examples.txt that scripts/guide reads into the guide asset.
//
//	go run ./scripts/guideexamples            # from the repository's root
//
// Capture files (testdata/corpus) are cut line by line, keeping their header, so an example is
// itself a capture file. Wire captures (testdata/input/tshark: pg_recvlogical's traffic, with
// the CopyData framing and the client's Standby status updates; testdata/guide/standby: a
// physical standby's walreceiver, made by scripts/guide-standby.sh, for Hot standby feedback)
// become one hex line per message. A message that does not decode (a physical stream's WAL)
// is never an example.
//
// The frontend/backend protocol's entries take theirs from the recorded connections of
// testdata/conversation (convSources). Who sent a message decides what it is ('D' is a
// DataRow from the server, a Describe from the client), so such an example is written as
// tshark's follow,tcp,raw output of its connection, which keeps both directions: the
// connection's first message (with the encryption requests and answers before its
// StartupMessage), the messages of the query cycle the message belongs to that
// set what the rest means (the query, the authentication request, the RowDescription, the
// Copy…Response) and up to maxContext others before it, the message, and the ReadyForQuery
// that ends its cycle. The bytes are the ones the inspector reads: a client's password or SASL
// data are already '*' (input redacts them as a capture is read).
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/guide"
)

// sources are searched in order; the first that holds an entry's message gives its example.
var sources = []string{
	"testdata/corpus/pg18-text.capture.gz",
	"testdata/corpus/pg18-text-immediate.capture.gz",
	"testdata/corpus/pg18-binary-parallel.capture.gz",
	"testdata/input/tshark/pcap.pcap",
	"testdata/guide/standby/physical.pcapng",
}

// convSources are the recorded connections the frontend/backend entries' examples come from,
// searched in order after sources: a replication connection with SCRAM authentication and
// START_REPLICATION first, then a subscription's table synchronizations (text, then binary
// COPY), a replication command that fails, and the ordinary connections that show the rest.
var convSources = []string{
	"testdata/conversation/scram-pg18.pcapng",
	"testdata/conversation/subscriber-pg14-pg16.pcapng",
	"testdata/conversation/subscriber-pg17-pg18.pcapng",
	"testdata/conversation/fail-missing-slot-pg16.pcapng",
	"testdata/conversation/ordinary-pg18.pcapng",
}

// wants picks, for an entry, which of its messages makes the better example: Query shows a
// START_REPLICATION with its options rather than the first SQL a client sends.
var wants = map[string]func(*decoder.Tree) bool{
	"query": func(t *decoder.Tree) bool { return t.Find(0, decoder.FieldReplOptions) >= 0 },
	// IDENTIFY_SYSTEM's result (systemid, timeline, xlogpos, dbname) rather than the one empty
	// column of the set_config a client runs first.
	"rowdescription": func(t *decoder.Tree) bool { return count(t, decoder.FieldRowDescriptionName) >= 4 },
	"datarow":        func(t *decoder.Tree) bool { return count(t, decoder.FieldDataRowColumn) >= 4 && !emptyLeaf(t) },
}

// count returns how many nodes of field f t has.
func count(t *decoder.Tree, f decoder.FieldID) int {
	n := 0
	for i := range t.Nodes {
		if t.Nodes[i].Field == f {
			n++
		}
	}
	return n
}

// emptyLeaf reports a field of no bytes (an empty value), which has nothing to point at in
// the example's bytes.
func emptyLeaf(t *decoder.Tree) bool {
	for i := range t.Nodes {
		if t.IsLeaf(i) && t.Nodes[i].Length == 0 {
			return true
		}
	}
	return false
}

// alsoShows: an entry whose example should show another entry inside it (a CopyData around
// an XLogData rather than around the first Standby status update).
var alsoShows = map[string]string{"copydata": "xlogdata"}

// maxContext caps the messages kept between a block's opening message and the example's.
const maxContext = 2

type message struct {
	side    decoder.Side
	conn    int // 1-based, in a recorded conversation
	tree    *decoder.Tree
	rels    []int // the Relation messages behind the message's relation OIDs
	line    int   // the capture file's line, 0 for binary input
	bytes   []byte
	entries map[string]bool
}

type source struct {
	name   string
	text   []string // the capture file's lines; nil for binary input
	header []int    // the header lines' numbers (1-based)
	msgs   []message
	// conns are the connections of a recorded conversation (nil for the other sources).
	conns []input.Connection
}

func main() {
	if err := run("."); err != nil {
		fmt.Fprintln(os.Stderr, "guideexamples:", err)
		os.Exit(1)
	}
}

func run(root string) error {
	g := guide.Data()
	var srcs []*source
	for _, name := range sources {
		s, err := load(g, filepath.Join(root, name))
		if err != nil {
			return err
		}
		s.name = name
		srcs = append(srcs, s)
	}
	for _, name := range convSources {
		s, err := loadConversation(g, filepath.Join(root, name))
		if err != nil {
			return err
		}
		s.name = name
		srcs = append(srcs, s)
	}
	dir := filepath.Join(root, "testdata", "guide")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var index strings.Builder
	index.WriteString("# entry\tselected message\tfile\tsource (made by go run ./scripts/guideexamples)\n")
	var missing []string
	for _, e := range g.Entries {
		text, sel, from, ok := example(srcs, e.ID)
		if !ok {
			missing = append(missing, e.ID)
			continue
		}
		file := e.ID + ".txt"
		if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(&index, "%s\t%d\t%s\t%s\n", e.ID, sel, file, from)
	}
	if len(missing) > 0 {
		fmt.Fprintf(&index, "# no real capture yet: %s\n", strings.Join(missing, ", "))
		fmt.Fprintf(os.Stderr, "guideexamples: no real capture holds %s\n", strings.Join(missing, ", "))
	}
	return os.WriteFile(filepath.Join(dir, "examples.txt"), []byte(index.String()), 0o644)
}

// load reads and decodes one source, noting for each message the guide entries its groups
// belong to.
func load(g *guide.Guide, path string) (*source, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, err
		}
		if b, err = io.ReadAll(zr); err != nil {
			return nil, err
		}
	}
	res, err := input.Parse(b, input.Auto)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s := &source{}
	if res.Messages[0].Line > 0 {
		s.text = strings.Split(string(b), "\n")
		for i, l := range s.text {
			if strings.HasPrefix(l, "#") {
				s.header = append(s.header, i+1)
			}
		}
	}
	capture := input.ReadCaptureOptions(res.Header)
	sess := decoder.NewSession(capture.DecoderOptions(decoder.Options{}))
	relIndex := map[*decoder.Relation]int{}
	byGroup := map[decoder.FieldID]string{}
	for _, e := range g.Entries {
		byGroup[e.Group] = e.ID
	}
	for _, m := range res.Messages {
		t := sess.Decode(m.Bytes)
		msg := message{tree: t, line: m.Line, bytes: m.Bytes, entries: map[string]bool{}}
		if t.Err != nil {
			s.msgs = append(s.msgs, msg)
			continue
		}
		for i, n := range t.Nodes {
			if id, ok := byGroup[n.Field]; ok && n.Format == decoder.FormatGroup {
				msg.entries[id] = true
			}
			if r := t.RelationOf(i); r != nil {
				if ri, ok := relIndex[r]; ok {
					msg.rels = append(msg.rels, ri)
				}
			}
		}
		if mt := t.MessageType(); mt != nil && mt.Group == decoder.FieldRelation {
			if k := t.Find(0, decoder.FieldRelationOID); k >= 0 {
				relIndex[sess.Relation(uint32(t.ValueOf(k).Num))] = len(s.msgs)
			}
		}
		s.msgs = append(s.msgs, msg)
	}
	return s, nil
}

// example finds the first message showing entry id and cuts its example: a message whose
// Relation messages came inside its own transaction when there is one, so the excerpt is in the
// order the server sent it and reads the same on its own.
func example(srcs []*source, id string) (text string, sel int, from string, ok bool) {
	also, want := alsoShows[id], wants[id]
	for _, whole := range []bool{true, false} {
		for _, s := range srcs {
			for k, m := range s.msgs {
				if !m.entries[id] || also != "" && !m.entries[also] || want != nil && !want(m.tree) {
					continue
				}
				if s.conns != nil {
					text, sel := s.cutConversation(k)
					return text, sel, s.name + ", connection " + strconv.Itoa(m.conn), true
				}
				if !whole || s.selfContained(k) {
					text, sel := s.cut(k)
					return text, sel, s.name, true
				}
			}
		}
	}
	return "", 0, "", false
}

// opener returns the index of the message opening k's block (Begin, Stream Start, Begin
// Prepare), or -1 when k is in none.
func (s *source) opener(k int) int {
	for i := k; i >= 0; i-- {
		r := s.msgs[i].tree.Role()
		if i < k && r.Closes() {
			return -1
		}
		if r.Opens() {
			return i
		}
	}
	return -1
}

// selfContained says whether the Relation messages behind k came inside k's block.
func (s *source) selfContained(k int) bool {
	open := s.opener(k)
	for _, r := range s.msgs[k].rels {
		if r < open || open < 0 {
			return false
		}
	}
	return true
}

// cut returns the excerpt for message k and the index of message k in it: the message opening
// k's block (when k is inside one), the Relation and Type messages and up to maxContext others
// of that block before k, k, and the message closing the block.
func (s *source) cut(k int) (string, int) {
	keep := map[int]bool{k: true}
	// The Relation messages that name k's relations, wherever they came (pgoutput sends one
	// per relation and session), with the Type messages sent right before each.
	for _, r := range s.msgs[k].rels {
		keep[r] = true
		for i := r - 1; i >= 0; i-- {
			m := s.msgs[i].tree.MessageType()
			if m == nil || m.Group != decoder.FieldType {
				break
			}
			keep[i] = true
		}
	}
	if open := s.opener(k); open >= 0 {
		keep[open] = true
		others := 0
		for i := k - 1; i > open; i-- {
			t := s.msgs[i].tree
			if m := t.MessageType(); m != nil && (m.Group == decoder.FieldRelation || m.Group == decoder.FieldType) {
				keep[i] = true
			} else if others < maxContext && s.selfContained(i) {
				keep[i] = true
				others++
			}
		}
		if !s.msgs[k].tree.Role().Closes() {
			for i := k + 1; i < len(s.msgs); i++ {
				if s.msgs[i].tree.Role().Closes() {
					keep[i] = true
					break
				}
			}
		}
	}
	idx := make([]int, 0, len(keep))
	for i := range keep {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	var b strings.Builder
	sel := 0
	if s.text != nil {
		for _, h := range s.header {
			b.WriteString(s.text[h-1] + "\n")
		}
	}
	for n, i := range idx {
		if i == k {
			sel = n
		}
		if s.text != nil {
			b.WriteString(s.text[s.msgs[i].line-1] + "\n")
		} else {
			b.WriteString(hex.EncodeToString(s.msgs[i].bytes) + "\n")
		}
	}
	return b.String(), sel
}

// loadConversation reads and decodes a recorded conversation (a pcapng file of whole
// connections), each message as what its side sends, noting the guide entries of each
// message's groups: an entry's own group, or for the frontend/backend entries any group that
// is part of the same message (an authentication request's code picks its group).
func loadConversation(g *guide.Guide, path string) (*source, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	res, err := input.Parse(b, input.Auto)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(res.Connections) == 0 {
		return nil, fmt.Errorf("%s: no connections", path)
	}
	byGroup := map[decoder.FieldID]string{}
	for _, e := range g.Entries {
		byGroup[e.Group] = e.ID
	}
	for f := decoder.FieldID(0); int(f) < decoder.NumFields; f++ {
		for _, e := range g.Entries {
			if e.Layer == guide.LayerWire && f.Info().Format == decoder.FormatGroup && f.Info().Of == e.Group.Info().Of {
				byGroup[f] = e.ID
			}
		}
	}
	s := &source{conns: res.Connections}
	cs := decoder.NewConnections(decoder.Options{})
	for _, m := range res.Messages {
		t := &decoder.Tree{}
		cs.DecodeInto(t, m.Bytes, m.Side, m.Conn)
		msg := message{tree: t, bytes: m.Bytes, side: m.Side, conn: m.Conn, entries: map[string]bool{}}
		if t.Err == nil {
			for _, n := range t.Nodes {
				if id, ok := byGroup[n.Field]; ok && n.Format == decoder.FormatGroup {
					msg.entries[id] = true
				}
			}
		}
		s.msgs = append(s.msgs, msg)
	}
	return s, nil
}

// setsContext reports a message that the ones after it in its cycle need to be read as what
// they are: the encryption requests and answers, the startup, a query, the server's
// authentication requests (which say what a client's 'p' is), RowDescription (the columns of
// the rows), the Copy…Responses (what the CopyData carry).
func setsContext(t *decoder.Tree) bool {
	if len(t.Nodes) == 0 {
		return false
	}
	w := t.Wire
	if w == nil {
		return false
	}
	switch {
	case w.Type == 0, w.Type == 'Q' && w.Side == decoder.Frontend, w.Type == 'P' && w.Side == decoder.Frontend,
		w.Type == 'B' && w.Side == decoder.Frontend:
		return true
	case w.Side == decoder.Backend:
		switch w.Type {
		case 'R', 'T', 'G', 'H', 'W':
			return true
		}
	}
	return false
}

// readyForQuery reports the server's ReadyForQuery, which ends a query cycle.
func readyForQuery(m message) bool {
	return m.side == decoder.Backend && len(m.bytes) > 0 && m.bytes[0] == 'Z'
}

// cutConversation returns the excerpt for message k of a recorded conversation, as tshark's
// follow,tcp,raw output of its connection (each message a line, the server's indented by a
// tab), and the index of message k in it.
func (s *source) cutConversation(k int) (string, int) {
	conn := s.msgs[k].conn
	var idx []int // the connection's messages, in capture order
	at := 0
	for i, m := range s.msgs {
		if m.conn == conn {
			if i == k {
				at = len(idx)
			}
			idx = append(idx, i)
		}
	}
	keep := map[int]bool{0: true, at: true}
	// The connection's untyped start whole: encryption requests with their one-byte answers
	// (which only the requests before them say are answers), up to the StartupMessage.
	for j := 0; j < len(idx); j++ {
		w := s.msgs[idx[j]].tree.Wire
		if w == nil || w.Type != 0 {
			break
		}
		keep[j] = true
		if w.Group == decoder.FieldStartupMessage {
			break
		}
	}
	start := 0
	for j := at - 1; j >= 0; j-- {
		if readyForQuery(s.msgs[idx[j]]) {
			start = j + 1
			break
		}
	}
	others := 0
	for j := at - 1; j >= start; j-- {
		if setsContext(s.msgs[idx[j]].tree) {
			keep[j] = true
		} else if others < maxContext {
			keep[j] = true
			others++
		}
	}
	if !readyForQuery(s.msgs[k]) {
		for j := at + 1; j < len(idx); j++ {
			if readyForQuery(s.msgs[idx[j]]) {
				keep[j] = true
				break
			}
		}
	}
	var js []int
	for j := range keep {
		js = append(js, j)
	}
	sort.Ints(js)
	cn := s.conns[conn-1]
	var b strings.Builder
	b.WriteString("===================================================================\n")
	b.WriteString("Follow: tcp,raw\n")
	b.WriteString("Filter: tcp.stream eq " + strconv.Itoa(conn-1) + "\n")
	b.WriteString("Node 0: " + cn.Client + "\n")
	b.WriteString("Node 1: " + cn.Server + "\n")
	sel := 0
	for n, j := range js {
		if j == at {
			sel = n
		}
		m := s.msgs[idx[j]]
		if m.side == decoder.Backend {
			b.WriteByte('\t')
		}
		b.WriteString(hex.EncodeToString(m.bytes) + "\n")
	}
	b.WriteString("===================================================================\n")
	return b.String(), sel
}
