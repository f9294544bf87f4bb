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
	"strings"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
)

// sources are searched in order; the first that holds an entry's message gives its example.
var sources = []string{
	"testdata/corpus/pg18-text.capture.gz",
	"testdata/corpus/pg18-text-immediate.capture.gz",
	"testdata/corpus/pg18-binary-parallel.capture.gz",
	"testdata/input/tshark/pcap.pcap",
	"testdata/guide/standby/physical.pcapng",
}

// alsoShows: an entry whose example should show another entry inside it (a CopyData around
// an XLogData rather than around the first Standby status update).
var alsoShows = map[string]string{"copydata": "xlogdata"}

// maxContext caps the messages kept between a block's opening message and the example's.
const maxContext = 2

type message struct {
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
}

func main() {
	if err := run("."); err != nil {
		fmt.Fprintln(os.Stderr, "guideexamples:", err)
		os.Exit(1)
	}
}

func run(root string) error {
	g := decoder.GuideData()
	var srcs []*source
	for _, name := range sources {
		s, err := load(g, filepath.Join(root, name))
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
func load(g *decoder.Guide, path string) (*source, error) {
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
	also := alsoShows[id]
	for _, whole := range []bool{true, false} {
		for _, s := range srcs {
			for k, m := range s.msgs {
				if m.entries[id] && (also == "" || m.entries[also]) && (!whole || s.selfContained(k)) {
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
