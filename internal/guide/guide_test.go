package guide

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
)

// guideOrder is the documentation's order of the logical replication messages, then the
// envelopes.
var guideOrder = []string{"begin", "message", "commit", "origin", "relation", "type", "insert", "update", "delete", "truncate",
	"stream-start", "stream-stop", "stream-commit", "stream-abort", "begin-prepare", "prepare", "commit-prepared",
	"rollback-prepared", "stream-prepare", "tupledata", "copydata", "xlogdata", "primary-keepalive",
	"standby-status-update", "hot-standby-feedback"}

// wireOrder is the order a connection meets the frontend/backend protocol's messages, the
// guide's order for them.
var wireOrder = []string{"startupmessage", "sslrequest", "sslresponse", "gssencrequest", "gssencresponse", "cancelrequest",
	"authentication-request", "passwordmessage", "saslinitialresponse", "saslresponse", "gssresponse", "parameterstatus",
	"backendkeydata", "negotiateprotocolversion", "readyforquery", "query", "rowdescription", "datarow", "commandcomplete",
	"emptyqueryresponse", "errorresponse", "noticeresponse", "notificationresponse", "copyinresponse", "copyoutresponse",
	"copybothresponse", "copy-data", "copydone", "copyfail", "parse", "bind", "describe", "execute", "close", "sync", "flush",
	"parsecomplete", "bindcomplete", "closecomplete", "nodata", "portalsuspended", "parameterdescription", "functioncall",
	"functioncallresponse", "terminate"}

// TestGuideEntries: one entry per pgoutput message type, TupleData and envelope, in the
// documentation's order, each complete, its links to other entries and its fields sound.
func TestGuideEntries(t *testing.T) {
	g := Data()
	var ids []string
	for _, e := range g.Entries {
		ids = append(ids, e.ID)
	}
	if want := append(append([]string(nil), guideOrder...), wireOrder...); !reflect.DeepEqual(ids, want) {
		t.Fatalf("entries %v, want %v", ids, want)
	}
	for _, m := range decoder.Messages() {
		n := 0
		for _, e := range g.Entries {
			if e.Layer == LayerMessage && e.Type == m.Type && e.Group == m.Group && e.Name == m.Name() {
				n++
			}
		}
		if n != 1 {
			t.Errorf("message %c has %d entries", m.Type, n)
		}
	}
	for _, env := range decoder.Envelopes() {
		if e := g.Entry(strings.ToLower(strings.ReplaceAll(env.Group.Info().Name, " ", "-"))); e == nil || e.Type != env.Type {
			t.Errorf("envelope %c (%s) has no entry", env.Type, env.Group.Info().Name)
		}
	}
	// Every message of the frontend/backend protocol has its entry, of its type byte; the
	// groups a message's code or context picks (the authentication requests, the client's 'p'
	// answers) are an entry's, by the entry's group or by the name of what they are part of.
	for _, w := range decoder.WireMessages() {
		if w.Group == decoder.FieldCopyData {
			continue // an envelope's entry
		}
		e := entryOfGroup(g, w.Group)
		if e == nil || e.Layer != LayerWire || e.Type != w.Type {
			t.Errorf("%s ('%c'): entry %+v", w.Name(), w.Type, e)
		}
	}
	for id := decoder.FieldAuthentication; id <= decoder.FieldGSSResponse; id++ {
		if id.Info().Format != decoder.FormatGroup {
			continue
		}
		if e := entryOfGroup(g, id); e == nil || e.Layer != LayerWire {
			t.Errorf("%s: no entry", id.Info().Name)
		}
	}
	// The page holds the field table's meanings (hover help) but reads the guide's prose from
	// its asset: a purpose or rule that is a meaning word for word would be in main.wasm.
	meanings := map[string]bool{}
	for id := decoder.FieldID(0); int(id) < decoder.NumFields; id++ {
		meanings[id.Info().Meaning] = true
	}
	for _, e := range g.Entries {
		for _, s := range append([]string{e.Purpose}, e.Rules...) {
			if meanings[s] {
				t.Errorf("%s: %q is a field's meaning word for word", e.ID, s)
			}
		}
	}
	for _, e := range g.Entries {
		if e.Layer == LayerWire && (e.Doc.Title == "" || e.Doc.Page == pageMessages && e.Doc.AnchorSince != anchorsSince) {
			t.Errorf("%s: documentation %+v", e.ID, e.Doc)
		}
		if e.Name == "" || e.Purpose == "" || e.Travels == "" || len(e.Fields) == 0 || len(e.Related) == 0 || len(e.Changes) == 0 || e.Doc.Page == "" {
			t.Errorf("%s: incomplete entry", e.ID)
		}
		for _, r := range e.Related {
			if g.Entry(r) == nil || r == e.ID {
				t.Errorf("%s: related entry %q does not exist", e.ID, r)
			}
		}
		for _, f := range e.Fields {
			if f.Field == decoder.FieldUnknown && f.Payload == "" || f.Entry != "" && g.Entry(f.Entry) == nil {
				t.Errorf("%s: field %v: no field, or an entry that does not exist (%q)", e.ID, f.Field, f.Entry)
			}
			if w := f.Width(); w.Label == "" {
				t.Errorf("%s: field %v has no width", e.ID, f.Field)
			}
		}
		for _, c := range e.Changes {
			if c.Text == "" || c.Release != 0 && (c.Release < decoder.FirstRelease || c.Release > decoder.LastRelease) || c.Release != 0 && c.Older != "" {
				t.Errorf("%s: change %+v", e.ID, c)
			}
		}
	}
	var rel []int
	for _, r := range g.Releases {
		rel = append(rel, r.Release)
		if r.MaxProto < decoder.MinProto || r.Summary == "" || len(r.Options) < 2 {
			t.Errorf("release %d: %+v", r.Release, r)
		}
		for _, name := range r.Options {
			found := false
			for _, o := range g.Options {
				if o.Name == name {
					found = true
					if r.Release < o.Since {
						t.Errorf("release %d lists option %s, which arrives in %d", r.Release, name, o.Since)
					}
				}
			}
			if !found {
				t.Errorf("release %d: no option %s", r.Release, name)
			}
		}
	}
	if len(rel) != decoder.LastRelease-decoder.FirstRelease+1 || rel[0] != decoder.FirstRelease {
		t.Errorf("releases %v, want %d to %d", rel, decoder.FirstRelease, decoder.LastRelease)
	}
}

// TestGuideLayouts holds each entry's field list to what the decoder emits: every field of a
// decoded corpus message (and of the envelopes) is in its entry, in the entry's order, and
// every field an entry lists is emitted somewhere.
func TestGuideLayouts(t *testing.T) {
	g := Data()
	entryOf := map[decoder.FieldID]*Entry{}
	for i := range g.Entries {
		entryOf[g.Entries[i].Group] = &g.Entries[i]
	}
	tuple := g.Entry("tupledata")
	emitted := map[*Entry]map[decoder.FieldID]bool{}
	check := func(tr *decoder.Tree, root int, e *Entry, name string) {
		if emitted[e] == nil {
			emitted[e] = map[decoder.FieldID]bool{}
		}
		pos := -1
		for j := root + 1; j < int(tr.Nodes[root].End); j++ {
			n := &tr.Nodes[j]
			if n.Field == decoder.FieldRelationColumn || n.Field == decoder.FieldTupleColumn {
				continue // the repeated group: its fields are listed
			}
			if inner := entryOf[n.Field]; inner != nil && inner.Layer != LayerTupleData {
				// The message an envelope carries: its entry's Payload.
				if last := e.Fields[len(e.Fields)-1]; last.Payload == "" {
					t.Errorf("%s: %s carries %s, but its entry lists no payload", name, e.ID, inner.ID)
				}
				j = int(n.End) - 1
				continue
			}
			k := -1
			for i, f := range e.Fields {
				if f.Field == n.Field && (k < 0 || i > pos && k <= pos) {
					k = i
				}
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
			emitted[e][n.Field] = true
			if n.Field == decoder.FieldTupleNew || n.Field == decoder.FieldTupleKey || n.Field == decoder.FieldTupleOld {
				checkTuple(t, tr, j, tuple, emitted)
				j = int(n.End) - 1
			}
		}
	}
	decodeAll := func(name string, s *decoder.Session, b []byte) {
		tr := s.Decode(b)
		if tr.Err != nil {
			return
		}
		for i := range tr.Nodes {
			if e := entryOf[tr.Nodes[i].Field]; e != nil && e.Layer != LayerTupleData {
				check(tr, i, e, name)
			}
		}
	}
	for name, msgs := range corpusPayloads(t) {
		s := decoder.NewSession(decoder.Options{})
		for _, b := range msgs {
			decodeAll(name, s, b)
		}
	}
	status := be('r', int64(1), int64(2), int64(3), int64(4), byte(0))
	decodeAll("hot standby feedback", decoder.NewSession(decoder.Options{}), be('h', int64(1), int32(2), int32(3), int32(4), int32(5)))
	decodeAll("standby status update", decoder.NewSession(decoder.Options{}), status)
	decodeAll("copydata", decoder.NewSession(decoder.Options{}), append(be('d', int32(4+len(status))), status...))
	for _, e := range g.Entries {
		if e.Layer == LayerWire {
			continue // scripts/guide holds them to real captures' messages (TestWireLayouts)
		}
		for _, f := range e.Fields {
			if f.Payload == "" && !emitted[&g.Entries[indexOf(g, e.ID)]][f.Field] {
				t.Errorf("%s lists %s (%s), which no decoded message emitted", e.ID, f.Field.Info().Name, f.Field.Info().Of)
			}
		}
	}
}

// entryOfGroup returns the entry of a message's group: the entry whose group it is, or the one
// whose group names the same message it is part of (an authentication request's code).
func entryOfGroup(g *Guide, group decoder.FieldID) *Entry {
	for i := range g.Entries {
		if e := &g.Entries[i]; e.Group == group || e.Layer == LayerWire && e.Group.Info().Of == group.Info().Of {
			return e
		}
	}
	return nil
}

func indexOf(g *Guide, id string) int {
	for i := range g.Entries {
		if g.Entries[i].ID == id {
			return i
		}
	}
	return -1
}

// checkTuple checks a TupleData group's children against the TupleData entry.
func checkTuple(t *testing.T, tr *decoder.Tree, root int, e *Entry, emitted map[*Entry]map[decoder.FieldID]bool) {
	if emitted[e] == nil {
		emitted[e] = map[decoder.FieldID]bool{}
	}
	for j := root + 1; j < int(tr.Nodes[root].End); j++ {
		f := tr.Nodes[j].Field
		if f == decoder.FieldTupleColumn {
			continue
		}
		listed := false
		for _, gf := range e.Fields {
			listed = listed || gf.Field == f
		}
		if !listed {
			t.Errorf("a TupleData emits %s, which the TupleData entry does not list", f.Info().Name)
		}
		emitted[e][f] = true
	}
}

// TestGuideAssetRoundTrip: the asset reads back as the guide it was written from, and a damaged
// or foreign asset is refused with the line named.
func TestGuideAssetRoundTrip(t *testing.T) {
	g := Data()
	g.Entries[0].Example = Example{Text: "# a capture\n0/1 77\tx\\y\n", Select: 2, Source: "testdata/x"}
	g.Entries[0].Changes = append(g.Entries[0].Changes, Change{Older: "9.3.21", Text: "older"})
	g.Comparisons = []Comparison{{Release: 10, Server: "PostgreSQL 10.23", Proto: 1, Options: "proto_version=1", Text: "a\nb", Source: "s"},
		{Release: 16, Binary: true, Proto: 4, Text: "c"}, {Release: 16, Proto: 4, Setting: "streaming=parallel", Text: "d"}}
	asset := Append(nil, g)
	back, err := Read(asset)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, g) {
		for i := range g.Entries {
			if !reflect.DeepEqual(back.Entries[i], g.Entries[i]) {
				t.Errorf("entry %s differs:\n got %+v\nwant %+v", g.Entries[i].ID, back.Entries[i], g.Entries[i])
			}
		}
		t.Fatalf("the asset does not read back as the guide")
	}
	for _, bad := range []struct{ asset, want string }{
		{"hello\n", "not a guide"},
		{strings.Replace(string(asset), guideMagic+"\t"+guideVersion+"\t", guideMagic+"\t"+guideVersion+"\t7", 1), "another build"},
		{string(asset) + "field x\n", "line "},
		{string(asset) + "bogus 1\n", "unknown record"},
		{guideMagic + "\t" + guideVersion + "\t" + strconv.FormatUint(uint64(decoder.FieldTableSum()), 10) + "\nname before\n", "before any entry"},
	} {
		if _, err := Read([]byte(bad.asset)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Read(…%q): %v, want an error containing %q", bad.asset[max(0, len(bad.asset)-30):], err, bad.want)
		}
	}
}

// TestDocsURL: the documentation link of each entry, with its anchor from 16 on.
func TestDocsURL(t *testing.T) {
	g := Data()
	if got, want := g.Entry("update").Doc.DocsURL(16), "https://www.postgresql.org/docs/16/protocol-logicalrep-message-formats.html#PROTOCOL-LOGICALREP-MESSAGE-FORMATS-UPDATE"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := g.Entry("update").Doc.DocsURL(10), "https://www.postgresql.org/docs/10/protocol-logicalrep-message-formats.html"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := g.Entry("xlogdata").Doc.DocsURL(18), "https://www.postgresql.org/docs/18/protocol-replication.html#PROTOCOL-REPLICATION-XLOGDATA"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
