package main

import (
	"bytes"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/guide"
	"pgoutput-inspector/internal/wirecapture"
)

// conversations returns the recorded connections of testdata/conversation, parsed as the page
// reads them, by file name.
func conversations(t *testing.T) map[string]*input.Result {
	t.Helper()
	paths, err := filepath.Glob("../../testdata/conversation/*.pcapng")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no recorded conversations: %v", err)
	}
	out := map[string]*input.Result{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		res, err := input.Parse(b, input.Auto)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out[filepath.Base(p)] = res
	}
	return out
}

// TestWireLayouts holds each frontend/backend entry's field list to what the decoder emits
// for the real messages of every recorded conversation and of every example: each field a
// message emits is listed by its entry, in the entry's order (fields repeated together may
// come again), and every field an entry lists is emitted by some real message. COPY's rows
// are held to the COPY data entry, the CopyData around them being an envelope's.
func TestWireLayouts(t *testing.T) {
	g, err := Full("../..")
	if err != nil {
		t.Fatal(err)
	}
	emitted := map[string]map[decoder.FieldID]bool{}
	seen := map[string]bool{}
	check := func(name string, tr *decoder.Tree) {
		if tr.Err != nil || tr.Wire == nil || len(tr.Nodes) == 0 {
			return
		}
		from := 1
		e := entryOfGroup(g, tr.Nodes[0].Field)
		if tr.Nodes[0].Field == decoder.FieldCopyData {
			// A COPY's CopyData: its type and length, then COPY data.
			e, from = g.Entry("copy-data"), 3
			if len(tr.Nodes) <= from {
				return
			}
		}
		if e == nil || e.Layer != guide.LayerWire {
			t.Errorf("%s: a %s has no frontend/backend entry", name, tr.Nodes[0].Field.Info().Name)
			return
		}
		seen[e.ID] = true
		if emitted[e.ID] == nil {
			emitted[e.ID] = map[decoder.FieldID]bool{}
		}
		pos := -1
		for j := from; j < int(tr.Nodes[0].End); j++ {
			n := &tr.Nodes[j]
			k := -1
			for i, f := range e.Fields {
				if f.Field == n.Field && (k < 0 || i > pos && k <= pos) {
					k = i
				}
			}
			if k < 0 && n.Format == decoder.FormatGroup {
				continue // a repeated group (a parameter, a column): its fields are listed
			}
			if k < 0 {
				t.Errorf("%s: %s emits %s (%s), which its entry does not list", name, e.ID, n.Field.Info().Name, n.Field.Info().Of)
				return
			}
			if k < pos && e.Fields[k].Repeat == "" {
				t.Errorf("%s: %s emits %s after %s; the entry lists it before", name, e.ID, n.Field.Info().Name, e.Fields[pos].Field.Info().Name)
				return
			}
			pos = k
			emitted[e.ID][n.Field] = true
		}
	}
	for name, res := range conversations(t) {
		for k, tr := range decodeExample(res) {
			check(name+" message "+itoa(k), tr)
		}
	}
	for _, e := range g.Entries {
		if e.Layer != guide.LayerWire || e.Example.Text == "" {
			continue
		}
		res, err := input.Parse([]byte(e.Example.Text), input.Auto)
		if err != nil {
			t.Fatalf("%s: %v", e.ID, err)
		}
		for k, tr := range decodeExample(res) {
			check(e.ID+" example, message "+itoa(k), tr)
		}
	}
	for _, e := range g.Entries {
		if e.Layer != guide.LayerWire {
			continue
		}
		if noCapture[e.ID] != "" {
			if seen[e.ID] {
				t.Errorf("%s: a recorded conversation holds one now; take it off noCapture", e.ID)
			}
			continue
		}
		for _, f := range e.Fields {
			if !emitted[e.ID][f.Field] && neverSent[e.ID] != f.Field {
				t.Errorf("%s lists %s (%s), which no real message emitted", e.ID, f.Field.Info().Name, f.Field.Info().Of)
			}
		}
	}
}

// neverSent names a field of an entry that the documentation lists but no real message of its
// entry has: CopyBothResponse's column formats, since a replication stream has no columns
// (its column count is always 0).
var neverSent = map[string]decoder.FieldID{"copybothresponse": decoder.FieldCopyColumnFormat}

func itoa(n int) string { return strconv.Itoa(n) }

// secretPatterns find what a client sent as a secret in a capture file's raw bytes: an MD5
// password ("md5" and 32 hex digits) and SCRAM's proof (p=… in the client-final-message).
var secretPatterns = []*regexp.Regexp{regexp.MustCompile(`md5[0-9a-f]{32}`), regexp.MustCompile(`p=[A-Za-z0-9+/]{16,}=*`)}

// TestExamplesHoldNoSecret: the examples of the messages that carry a password or SASL data show
// their bytes as '*' only, and nothing the guide writes holds a scenario's password or the
// MD5 hashes and SCRAM proofs the clients sent, in text or in hex.
func TestExamplesHoldNoSecret(t *testing.T) {
	g, err := Full("../..")
	if err != nil {
		t.Fatal(err)
	}
	secrets := append([]string(nil), wirecapture.Passwords...)
	paths, _ := filepath.Glob("../../testdata/conversation/*.pcapng")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, re := range secretPatterns {
			for _, m := range re.FindAll(b, -1) {
				secrets = append(secrets, string(m))
			}
		}
	}
	if len(secrets) == len(wirecapture.Passwords) {
		t.Fatal("no MD5 password or SCRAM proof found in the recorded conversations: this test checks too little")
	}
	asset := string(guide.Append(nil, g))
	for _, s := range secrets {
		for _, form := range []string{s, hex.EncodeToString([]byte(s))} {
			if strings.Contains(asset, form) {
				t.Errorf("the guide asset holds the secret %q", form)
			}
		}
	}
	for _, id := range []string{"passwordmessage", "saslinitialresponse", "saslresponse"} {
		e := g.Entry(id)
		res, err := input.Parse([]byte(e.Example.Text), input.Auto)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		m := res.Messages[e.Example.Select]
		from, to := decoder.SecretSpan(m.Bytes)
		if to-from < 8 {
			t.Fatalf("%s: the example's message carries %d secret bytes", id, to-from)
		}
		if redacted := bytes.Repeat([]byte{'*'}, to-from); !bytes.Equal(m.Bytes[from:to], redacted) {
			t.Errorf("%s: the example's secret bytes are %q, not '*'", id, m.Bytes[from:to])
		}
	}
}
