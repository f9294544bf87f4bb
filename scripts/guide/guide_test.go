package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/guide"
	"pgoutput-inspector/internal/guide/prose"
)

// TestMessagesDoc fails when docs/messages.md is not what the field table makes: run
// `go run ./scripts/guide -docs docs/messages.md` after changing decoder/fieldtable.go or
// internal/guide/table.go.
func TestMessagesDoc(t *testing.T) {
	have, err := os.ReadFile("../../docs/messages.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := prose.Markdown(guide.Data()); !bytes.Equal(have, want) {
		t.Fatal("docs/messages.md is out of date: run go run ./scripts/guide -docs docs/messages.md")
	}
}

// TestAsset: the asset made from the repository reads back whole, with an example for every
// entry and the captures of one transaction across releases.
func TestAsset(t *testing.T) {
	g, err := Full("../..")
	if err != nil {
		t.Fatal(err)
	}
	back, err := guide.Read(guide.Append(nil, g))
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Entries) != len(g.Entries) || len(back.Comparisons) != len(g.Comparisons) {
		t.Fatalf("read back %d entries and %d comparisons, want %d and %d", len(back.Entries), len(back.Comparisons), len(g.Entries), len(g.Comparisons))
	}
}

// TestExamples: every entry has a real example (made by scripts/guideexamples) whose selected
// message decodes without error and shows the entry.
func TestExamples(t *testing.T) {
	g, err := Full("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range g.Entries {
		if e.Example.Text == "" {
			if noCapture[e.ID] == "" {
				t.Errorf("%s: no example", e.ID)
			}
			continue
		}
		if noCapture[e.ID] != "" {
			t.Errorf("%s has an example now: take it off noCapture", e.ID)
		}
		res, err := input.Parse([]byte(e.Example.Text), input.Auto)
		if err != nil {
			t.Errorf("%s: %v", e.ID, err)
			continue
		}
		for k, tr := range decodeExample(res) {
			if tr.Err != nil {
				t.Errorf("%s: message %d: %v", e.ID, k, tr.Err)
			}
			if k != e.Example.Select {
				continue
			}
			// Explain mode selects each field's bytes in the hex view: an example's fields
			// each have some.
			for i := range tr.Nodes {
				if tr.IsLeaf(i) && tr.Nodes[i].Length == 0 {
					t.Errorf("%s: the selected message's %s has no bytes", e.ID, tr.Nodes[i].Field.Info().Name)
				}
			}
			shows := false
			for _, n := range tr.Nodes {
				if x := entryOfGroup(g, n.Field); n.Format == decoder.FormatGroup && x != nil && x.ID == e.ID {
					shows = true
				}
			}
			if !shows {
				t.Errorf("%s: the selected message %d does not show it", e.ID, k)
			}
		}
		if e.Example.Select >= len(res.Messages) {
			t.Errorf("%s: selects message %d of %d", e.ID, e.Example.Select, len(res.Messages))
		}
	}
}

// noCapture names the entries no real capture shows yet, and why.
var noCapture = map[string]string{
	"gssresponse": "a GSSAPI (Kerberos) or SSPI login, which needs a KDC or a Windows server that no recorded scenario has",
}

// decodeExample decodes a parsed example as the page does: each message as what its side sends
// on its connection (a followed stream's), the others as replication messages, with the options
// a capture file's header gives.
func decodeExample(res *input.Result) []*decoder.Tree {
	capture := input.ReadCaptureOptions(res.Header)
	cs := decoder.NewConnections(capture.DecoderOptions(decoder.Options{}))
	var trees []*decoder.Tree
	for _, m := range res.Messages {
		tr := &decoder.Tree{}
		cs.DecodeInto(tr, m.Bytes, m.Side, m.Conn)
		trees = append(trees, tr)
	}
	return trees
}

// entryOfGroup returns the entry a message's group is shown by: the entry of that group, or the
// frontend/backend entry of the message it is part of (an authentication request's code picks
// the group AuthenticationSASL, which the entry "Authentication request" shows).
func entryOfGroup(g *guide.Guide, group decoder.FieldID) *guide.Entry {
	for i := range g.Entries {
		if e := &g.Entries[i]; e.Group == group {
			return e
		}
	}
	for i := range g.Entries {
		if e := &g.Entries[i]; e.Layer == guide.LayerWire && group.Info().Format == decoder.FormatGroup && e.Group.Info().Of == group.Info().Of {
			return e
		}
	}
	return nil
}

// TestComparisons: the captures of one transaction (made by scripts/guidelens) cover releases
// 10 to 18 with text values and 14 to 18 with binary values too; each decodes without error
// into the same messages, binary values only where binary was asked for.
func TestComparisons(t *testing.T) {
	g, err := Full("../..")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, c := range g.Comparisons {
		if c.Setting != "" {
			continue // TestOptionCaptures
		}
		kind := "text"
		if c.Binary {
			kind = "binary"
		}
		have[strconv.Itoa(c.Release)+kind] = true
		name := c.Source
		if !strings.HasPrefix(c.Server, "PostgreSQL "+strconv.Itoa(c.Release)+".") || !strings.Contains(c.Options, "proto_version="+strconv.Itoa(c.Proto)) {
			t.Errorf("%s: server %q, options %q: not release %d at protocol %d", name, c.Server, c.Options, c.Release, c.Proto)
		}
		binary := false
		types, ok := decodeCapture(t, name, c.Text, func(tr *decoder.Tree) {
			for i, n := range tr.Nodes {
				if n.Field == decoder.FieldColumnKind && tr.ValueOf(i).Num == 'b' {
					binary = true
				}
			}
		})
		if !ok {
			continue
		}
		if string(types) != "BRIUC" || binary != c.Binary {
			t.Errorf("%s: messages %q, binary values %v; want BRIUC, %v", name, types, binary, c.Binary)
		}
	}
	for r := decoder.FirstRelease; r <= decoder.LastRelease; r++ {
		if !have[strconv.Itoa(r)+"text"] || r >= 14 && !have[strconv.Itoa(r)+"binary"] {
			t.Errorf("no capture of PostgreSQL %d with text values, or from 14 on binary values", r)
		}
	}
}

// TestOptionCaptures: the option captures (made by scripts/guideoptions) show, on real
// servers, what each option changes in the messages of the same change: each decodes without
// error, at the release and protocol version its index says, with the option as its header
// says, into the messages that option gives.
func TestOptionCaptures(t *testing.T) {
	g, err := Full("../..")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"14 streaming=off":                  "BRIUC",
		"14 streaming=on":                   "SRIUEAc",
		"16 streaming=off":                  "BRIUC",
		"16 streaming=on":                   "SRIUEAc",
		"16 streaming=parallel":             "SRIUEAc",
		"15 two_phase=off":                  "BRIUC",
		"15 two_phase=on":                   "bRIUPK",
		"16 origin=any":                     "BORIUCBIC",
		"16 origin=none":                    "BRIC",
		"14 messages=off":                   "BRIUC",
		"14 messages=on":                    "MBRIMUC",
		"16 publication_names=pub_lens":     "BRIRIUC",
		"16 publication_names=pub_accounts": "BRIUC",
		"16 publication_names=pub_bulk":     "BRIC",
		"16 proto_version=1":                "BRIUC",
		"16 proto_version=2":                "BRIUC",
		"16 proto_version=3":                "BRIUC",
		"16 proto_version=4":                "BRIUC",
	}
	seen := 0
	for _, c := range g.Comparisons {
		if c.Setting == "" {
			continue
		}
		seen++
		name := c.Source
		key := strconv.Itoa(c.Release) + " " + c.Setting
		if !strings.HasPrefix(c.Server, "PostgreSQL "+strconv.Itoa(c.Release)+".") || !strings.Contains(c.Options, "proto_version="+strconv.Itoa(c.Proto)) {
			t.Errorf("%s: server %q, options %q: not release %d at protocol %d", name, c.Server, c.Options, c.Release, c.Proto)
		}
		// As sent to START_REPLICATION: two_phase and messages are sent as true or not at all.
		sent := map[string]string{"two_phase=on": "two_phase=true", "two_phase=off": "", "messages=on": "messages=true", "messages=off": ""}
		opt, ok := sent[c.Setting]
		if !ok {
			opt = c.Setting
		}
		if v, ok := strings.CutPrefix(c.Setting, "publication_names="); ok {
			opt = `publication_names="` + v + `"`
		}
		name0, _, _ := strings.Cut(c.Setting, "=")
		if opt != "" && !strings.Contains(c.Options, opt) || opt == "" && strings.Contains(c.Options, name0) {
			t.Errorf("%s: options %q do not set %s", name, c.Options, c.Setting)
		}
		types, ok := decodeCapture(t, name, c.Text, nil)
		if !ok {
			continue
		}
		if w, ok := want[key]; !ok || string(types) != w {
			t.Errorf("%s (%s): messages %q, want %q", name, key, types, w)
		}
	}
	if seen != len(want) {
		t.Errorf("%d option captures, want %d", seen, len(want))
	}
}

// decodeCapture decodes a comparison's capture text with the options its header says, fails
// the test on a message that does not decode and on a Primary keepalive (the guide's
// comparisons leave them out), calls each (if not nil) with each message's tree, and returns
// the pgoutput message types in order; ok is false when the text does not parse.
func decodeCapture(t *testing.T, name, text string, each func(*decoder.Tree)) (types []byte, ok bool) {
	t.Helper()
	res, err := input.Parse([]byte(text), input.Auto)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return nil, false
	}
	capture := input.ReadCaptureOptions(res.Header)
	s := decoder.NewSession(capture.DecoderOptions(decoder.Options{}))
	for k, m := range res.Messages {
		tr := s.Decode(m.Bytes)
		if tr.Err != nil {
			t.Errorf("%s: message %d: %v", name, k, tr.Err)
		}
		if len(tr.Nodes) > 0 && tr.Nodes[0].Field == decoder.FieldKeepalive {
			t.Errorf("%s: message %d is a Primary keepalive", name, k)
		}
		if mt := tr.MessageType(); mt != nil {
			types = append(types, mt.Type)
		}
		if each != nil {
			each(tr)
		}
	}
	return types, true
}

// TestComparisonsLeaveOutKeepalives: the comparisons' texts are their capture files without
// the server's keepalives, each such file saying how many were left out, every other line kept.
func TestComparisonsLeaveOutKeepalives(t *testing.T) {
	g, err := Full("../..")
	if err != nil {
		t.Fatal(err)
	}
	dropped := 0
	for _, c := range g.Comparisons {
		file, err := os.ReadFile(filepath.Join("../..", c.Source))
		if err != nil {
			t.Fatal(err)
		}
		res, err := input.Parse(file, input.Capture)
		if err != nil {
			t.Fatalf("%s: %v", c.Source, err)
		}
		s := decoder.NewSession(decoder.Options{})
		keepalives := 0
		for _, m := range res.Messages {
			if tr := s.Decode(m.Bytes); len(tr.Nodes) > 0 && tr.Nodes[0].Field == decoder.FieldKeepalive {
				keepalives++
			}
		}
		dropped += keepalives
		kept := 0
		for _, line := range strings.SplitAfter(c.Text, "\n") {
			if !strings.HasPrefix(line, "# left out:") {
				if !strings.Contains(string(file), line) {
					t.Errorf("%s: line %q is not the file's", c.Source, line)
				}
				kept++
			}
		}
		note := "# left out: " + strconv.Itoa(keepalives) + " primary keepalive messages"
		if keepalives > 0 && !strings.Contains(c.Text, note) || keepalives == 0 && strings.Contains(c.Text, "# left out:") {
			t.Errorf("%s: %d keepalives in the file; the comparison's header: %q", c.Source, keepalives, res.Header)
		}
		if want := len(strings.SplitAfter(string(file), "\n")) - keepalives; kept != want {
			t.Errorf("%s: %d lines kept, want %d", c.Source, kept, want)
		}
	}
	if dropped == 0 {
		t.Error("no capture had a keepalive: this test checks nothing")
	}
}

// TestProtoVersionChangesNoByte: the proto_version captures (one server, the same change,
// no other option) hold the same pgoutput messages byte for byte at every protocol version,
// as the versions page says.
func TestProtoVersionChangesNoByte(t *testing.T) {
	g, err := Full("../..")
	if err != nil {
		t.Fatal(err)
	}
	var first []string
	n := 0
	for _, c := range g.Comparisons {
		if !strings.HasPrefix(c.Setting, "proto_version=") {
			continue
		}
		n++
		var msgs []string
		decodeCapture(t, c.Source, c.Text, func(tr *decoder.Tree) {
			if tr.Message >= 0 {
				m := tr.Nodes[tr.Message]
				msgs = append(msgs, fmt.Sprintf("%x", tr.Bytes[m.Offset:m.Offset+m.Length]))
			}
		})
		if first == nil {
			first = msgs
		} else if !slices.Equal(msgs, first) {
			t.Errorf("%s: messages\n%s\nwant the first capture's\n%s", c.Source, strings.Join(msgs, "\n"), strings.Join(first, "\n"))
		}
	}
	if n < 2 || len(first) == 0 {
		t.Errorf("%d proto_version captures, %d messages", n, len(first))
	}
}
