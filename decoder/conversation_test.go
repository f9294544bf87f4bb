package decoder_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
)

// decodedCapture is a packet capture read and decoded as its connections' conversations.
type decodedCapture struct {
	res   *input.Result
	trees []*decoder.Tree
	convs []*decoder.Conversation
}

// decodeCapture reads a capture of testdata/conversation and decodes every message with its
// connection's conversation.
func decodeCapture(t testing.TB, name string) *decodedCapture {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "conversation", name))
	if err != nil {
		t.Fatal(err)
	}
	res, err := input.Parse(b, input.Auto)
	if err != nil {
		t.Fatal(err)
	}
	d := &decodedCapture{res: res, convs: make([]*decoder.Conversation, len(res.Connections))}
	for i, c := range res.Connections {
		d.convs[i] = decoder.NewConversation(decoder.Options{})
		if c.MidStream {
			d.convs[i].Resume()
		}
	}
	for _, m := range res.Messages {
		if m.Conn < 1 || m.Side == decoder.SideUnknown {
			t.Fatalf("%s: message at frame %d has connection %d and side %v", name, m.Frame, m.Conn, m.Side)
		}
		d.trees = append(d.trees, d.convs[m.Conn-1].Decode(m.Bytes, m.Side))
	}
	return d
}

// names lists the messages of connection conn as "→ Query" (client to server) and "← ReadyForQuery".
func (d *decodedCapture) names(conn int) []string {
	var out []string
	for i, m := range d.res.Messages {
		if m.Conn != conn {
			continue
		}
		arrow := "← "
		if m.Side == decoder.Frontend {
			arrow = "→ "
		}
		out = append(out, arrow+d.trees[i].Label(0))
	}
	return out
}

// find returns the first tree of connection conn whose outermost node is the message named.
func (d *decodedCapture) find(conn int, name string) *decoder.Tree {
	for i, m := range d.res.Messages {
		if m.Conn == conn && d.trees[i].Label(0) == name {
			return d.trees[i]
		}
	}
	return nil
}

// values lists the values of every node of field f in t, as text.
func values(t *decoder.Tree, f decoder.FieldID) []string {
	var out []string
	for i := range t.Nodes {
		if t.Nodes[i].Field == f {
			out = append(out, string(t.ValueBytes(i)))
		}
	}
	return out
}

// TestConversationCaptures decodes every capture of testdata/conversation: each message of
// each connection, both directions, decodes whole, and its leaves cover its bytes.
func TestConversationCaptures(t *testing.T) {
	files, _ := filepath.Glob("../testdata/conversation/*.pcapng")
	if len(files) < 10 {
		t.Fatalf("%d captures in testdata/conversation", len(files))
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			d := decodeCapture(t, name)
			for i, tr := range d.trees {
				m := d.res.Messages[i]
				if tr.Err != nil {
					t.Errorf("frame %d, connection %d, %s: %s: %v", m.Frame, m.Conn, m.Side, tr.Label(0), tr.Err)
					continue
				}
				decoder.CheckTiling(t, tr)
			}
		})
	}
}

// TestConversationRecvLogical reads pg_recvlogical's connection as the protocol's
// documentation describes it, and decodes the stream with what its START_REPLICATION asked for.
func TestConversationRecvLogical(t *testing.T) {
	d := decodeCapture(t, "recvlogical-pg17-parallel.pcapng")
	got := strings.Join(d.names(1)[:20], ", ")
	want := "→ StartupMessage, ← AuthenticationOk, ← ParameterStatus"
	if !strings.HasPrefix(got, want) {
		t.Errorf("the conversation starts %s; want %s", got, want)
	}
	for _, name := range []string{"BackendKeyData", "ReadyForQuery", "Query", "RowDescription", "DataRow", "CommandComplete", "CopyBothResponse", "Terminate"} {
		if d.find(1, name) == nil {
			t.Errorf("no %s", name)
		}
	}
	start := d.find(1, "StartupMessage")
	if got := values(start, decoder.FieldStartupValue); strings.Join(got, ",") != "postgres,postgres,database,pg_recvlogical" {
		t.Errorf("StartupMessage values %q", got)
	}
	info := d.convs[0].Info
	if info.StartupValue("replication") != "database" || !strings.HasPrefix(info.ServerVersion, "17.") {
		t.Errorf("startup %v, server version %q", info.Startup, info.ServerVersion)
	}
	rc := info.Replication
	if rc == nil {
		t.Fatal("no START_REPLICATION")
	}
	if rc.Command != "START_REPLICATION" || rc.Slot != "recv" || rc.Kind != "LOGICAL" || rc.LSN != "0/0" || !info.Streaming {
		t.Errorf("replication command %+v, streaming %v", rc, info.Streaming)
	}
	if v, _ := rc.Option("proto_version"); v != "4" {
		t.Errorf("proto_version %q", v)
	}
	if v, _ := rc.Option("streaming"); v != "parallel" {
		t.Errorf("streaming %q", v)
	}
	// The replication stream is decoded with protocol 4, as asked, not inferred.
	var sawAbortOrCommit bool
	for i, tr := range d.trees {
		if tr.MessageType() == nil {
			continue
		}
		if !tr.Reading.ProtoSet || tr.Reading.Proto != 4 {
			t.Fatalf("message %d (%s) decoded with protocol %d (set %v); START_REPLICATION asked for 4", i, tr.Label(tr.Message), tr.Reading.Proto, tr.Reading.ProtoSet)
		}
		if tr.Type == 'c' || tr.Type == 'A' {
			sawAbortOrCommit = true
		}
	}
	if !sawAbortOrCommit {
		t.Error("the streamed transaction's Stream Commit is not in the capture")
	}
	// The IDENTIFY_SYSTEM result row is named by its RowDescription.
	for i, m := range d.res.Messages {
		tr := d.trees[i]
		if m.Side != decoder.Backend || tr.Label(0) != "DataRow" || len(tr.Columns) != 4 {
			continue
		}
		var labels []string
		for j := range tr.Nodes {
			if tr.Nodes[j].Field == decoder.FieldDataRowColumn {
				labels = append(labels, tr.Label(j))
			}
		}
		if strings.Join(labels, ", ") == "column 1 (systemid), column 2 (timeline), column 3 (xlogpos), column 4 (dbname)" {
			return
		}
	}
	t.Error("no IDENTIFY_SYSTEM result row named systemid, timeline, xlogpos, dbname")
}

// TestConversationDecodesAsBefore: the replication messages of each streaming connection
// decode, with the options its START_REPLICATION sent, to the same fields and values as one
// session that guesses them from the messages (how a capture was decoded before the
// conversation was read) wherever that guess was right. It was wrong only for physical
// replication, whose WAL it read as pgoutput messages, in error: those decode now.
func TestConversationDecodesAsBefore(t *testing.T) {
	files, _ := filepath.Glob("../testdata/conversation/*.pcapng")
	for _, f := range files {
		d := decodeCapture(t, filepath.Base(f))
		guessers := map[int]*decoder.Session{}
		fixed := 0
		for i, m := range d.res.Messages {
			tr := d.trees[i]
			if tr.MessageType() == nil && tr.Reading.Envelope == 0 {
				continue // not a replication message
			}
			g := guessers[m.Conn]
			if g == nil {
				g = decoder.NewSession(decoder.Options{})
				guessers[m.Conn] = g
			}
			old := g.Decode(m.Bytes)
			diff := treeDiff(old, tr)
			if diff == "" {
				continue
			}
			if rc := d.convs[m.Conn-1].Info.Replication; rc != nil && rc.Kind != "LOGICAL" && old.Err != nil && tr.Err == nil {
				fixed++
				continue
			}
			t.Errorf("%s: message %d (frame %d): %s", filepath.Base(f), i, m.Frame, diff)
		}
		if physical := strings.HasPrefix(filepath.Base(f), "physical-"); physical != (fixed > 0) {
			t.Errorf("%s: %d messages the guess read in error decode now", filepath.Base(f), fixed)
		}
	}
}

// treeDiff says how two decodes of the same bytes differ in their nodes and values, or "".
func treeDiff(a, b *decoder.Tree) string {
	if (a.Err == nil) != (b.Err == nil) {
		return fmt.Sprintf("error %v, then %v", a.Err, b.Err)
	}
	if len(a.Nodes) != len(b.Nodes) {
		return fmt.Sprintf("%d nodes, then %d", len(a.Nodes), len(b.Nodes))
	}
	for i := range a.Nodes {
		x, y := &a.Nodes[i], &b.Nodes[i]
		if x.Field != y.Field || x.Offset != y.Offset || x.Length != y.Length || a.Label(i) != b.Label(i) || a.Value(i) != b.Value(i) {
			return fmt.Sprintf("node %d: %s = %s at %d+%d, then %s = %s at %d+%d", i, a.Label(i), a.Value(i), x.Offset, x.Length, b.Label(i), b.Value(i), y.Offset, y.Length)
		}
	}
	return ""
}

// TestConversationQueryWords reads a START_REPLICATION command word by word.
func TestConversationQueryWords(t *testing.T) {
	d := decodeCapture(t, "recvlogical-pg15-streaming.pcapng")
	for i, tr := range d.trees {
		if tr.Label(0) != "Query" || tr.Find(0, decoder.FieldReplKeyword) < 0 || string(tr.ValueBytes(tr.Find(0, decoder.FieldReplKeyword))) != "START_REPLICATION " {
			continue
		}
		var words []string
		for j := range tr.Nodes {
			if tr.IsLeaf(j) {
				words = append(words, tr.Label(j)+"="+string(tr.Bytes[tr.Nodes[j].Offset:tr.Nodes[j].Offset+tr.Nodes[j].Length]))
			}
		}
		got := strings.Join(words, "|")
		want := `Type=Q|Length=` + string(tr.Bytes[1:5]) + `|Command=START_REPLICATION |Keyword=SLOT |Slot name="recv" |Keyword=LOGICAL |Start LSN=0/0 |` +
			`Syntax=(|Option name="proto_version" |Option value='2'|Syntax=, |Option name="streaming" |Option value='on'|Syntax=, |` +
			`Option name="binary" |Option value='true'|Syntax=, |Option name="messages" |Option value='true'|Syntax=, |` +
			`Option name="publication_names" |Option value='pub'|Syntax=)|Terminator=` + "\x00"
		if got != want {
			t.Errorf("message %d:\n got %s\nwant %s", i, got, want)
		}
		return
	}
	t.Fatal("no START_REPLICATION")
}

// TestConversationSubscriber reads a subscriber's table synchronization: the COPY's rows
// named by its column list, then its apply connection's stream.
func TestConversationSubscriber(t *testing.T) {
	for _, tt := range []struct {
		file   string
		binary bool
	}{{"subscriber-pg14-pg16.pcapng", false}, {"subscriber-pg17-pg18.pcapng", true}} {
		d := decodeCapture(t, tt.file)
		if len(d.res.Connections) != 4 {
			t.Errorf("%s: %d connections, want 4 (create the slot, apply, table sync, drop)", tt.file, len(d.res.Connections))
		}
		rows := 0
		for i, tr := range d.trees {
			if d.res.Messages[i].Side != decoder.Backend || tr.Label(0) != "CopyData" || tr.Wire == nil {
				continue
			}
			rows++
			if tt.binary {
				if tr.Find(0, decoder.FieldCopyTuple) < 0 && tr.Find(0, decoder.FieldCopyTrailer) < 0 {
					t.Errorf("%s: a CopyData of the binary COPY holds no tuple: %v", tt.file, values(tr, decoder.FieldUnknown))
				}
				continue
			}
			vals := values(tr, decoder.FieldCopyValue)
			if len(vals) != 3 || !strings.HasPrefix(vals[1], "name ") {
				t.Errorf("%s: COPY row %q", tt.file, vals)
			}
			if j := tr.Find(0, decoder.FieldCopyValue); j < 0 || tr.Label(j) != "column 1 (id)" {
				t.Errorf("%s: first value labelled %q", tt.file, tr.Label(j))
			}
		}
		if rows < 3 {
			t.Errorf("%s: %d COPY data messages, want the 3 rows", tt.file, rows)
		}
		if d.find(0, "x") != nil {
			t.Fatal()
		}
	}
}

// TestConversationFailures finds the server's error in each failed start.
func TestConversationFailures(t *testing.T) {
	for file, want := range map[string]string{
		"fail-missing-slot-pg16.pcapng":        `replication slot "nosuch" does not exist`,
		"fail-proto-pg17.pcapng":               `client sent proto_version=9 but server only supports protocol 4 or lower`,
		"fail-missing-publication-pg15.pcapng": `publication "nosuch" does not exist`,
		"fail-scram-password-pg18.pcapng":      `password authentication failed for user "alice"`,
	} {
		d := decodeCapture(t, file)
		errs := d.convs[0].Info.Errors
		if len(errs) != 1 || errs[0] != want {
			t.Errorf("%s: errors %q, want %q", file, errs, want)
		}
		tr := d.find(1, "ErrorResponse")
		if tr == nil {
			t.Fatalf("%s: no ErrorResponse", file)
		}
		var fields []string
		for j := range tr.Nodes {
			if tr.Nodes[j].Field == decoder.FieldNoticeField {
				fields = append(fields, tr.Label(j))
			}
		}
		if got := strings.Join(fields, ","); !strings.HasPrefix(got, "Severity,Severity (not translated),SQLSTATE,Message,") {
			t.Errorf("%s: error fields %s", file, got)
		}
	}
}

// TestConversationSecretsRedacted: the client's SCRAM messages reach the decoder with their
// data replaced by '*'.
func TestConversationSecretsRedacted(t *testing.T) {
	for _, file := range []string{"scram-pg18.pcapng", "fail-scram-password-pg18.pcapng"} {
		d := decodeCapture(t, file)
		seen := 0
		for i, tr := range d.trees {
			switch tr.Label(0) {
			case "SASLInitialResponse", "SASLResponse":
				seen++
				j := tr.Find(0, decoder.FieldSASLData)
				if j < 0 {
					t.Fatalf("%s: %s without data", file, tr.Label(0))
				}
				data := tr.ValueBytes(j)
				if len(data) == 0 || strings.Trim(string(data), "*") != "" {
					t.Errorf("%s: message %d's data %q, want only '*'", file, i, data)
				}
				if tr.Label(0) == "SASLInitialResponse" {
					if got := values(tr, decoder.FieldSASLMechanism); len(got) != 1 || got[0] != "SCRAM-SHA-256" {
						t.Errorf("%s: mechanism %q", file, got)
					}
				}
			}
		}
		if seen != 2 {
			t.Errorf("%s: %d SASL messages from the client, want 2", file, seen)
		}
	}
}

// TestConversationSecretsNotShown: bytes not redacted (a paste of a client's messages) still
// show no password or proof as a value, only their length; the server's SCRAM data, public,
// show as text.
func TestConversationSecretsNotShown(t *testing.T) {
	cv := decoder.NewConversation(decoder.Options{})
	cv.Resume()
	for _, tc := range []struct {
		b     string
		side  decoder.Side
		field decoder.FieldID
		want  string
	}{
		{"p\x00\x00\x00\x0chunter2\x00", decoder.Frontend, decoder.FieldPassword, "secret, 7 bytes not shown"},
		{"p\x00\x00\x00\x19SCRAM-SHA-256\x00\x00\x00\x00\x03n,,", decoder.Frontend, decoder.FieldSASLData, "secret, 3 bytes not shown"},
		{"p\x00\x00\x00\x0ac=biws", decoder.Frontend, decoder.FieldSASLData, "secret, 6 bytes not shown"},
		{"R\x00\x00\x00\x0e\x00\x00\x00\x0cv=abc=", decoder.Backend, decoder.FieldAuthData, `"v=abc="`},
	} {
		b := []byte(tc.b)
		tr := cv.Decode(b, tc.side)
		if tr.Err != nil {
			t.Fatalf("%q: %v", b, tr.Err)
		}
		i := tr.Find(0, tc.field)
		if i < 0 {
			t.Fatalf("%q: no %s", b, tc.field.Info().Name)
		}
		if got := tr.Value(i); got != tc.want {
			t.Errorf("%q: %s shows %q, want %q", b, tc.field.Info().Name, got, tc.want)
		}
	}
}

// TestEveryConversationFieldEmitted: each field of the frontend/backend protocol is emitted by
// a real capture, or, for what no capture here can hold (authentication by Kerberos, GSSAPI
// or SSPI, which need a KDC or Windows), by a message built by hand.
func TestEveryConversationFieldEmitted(t *testing.T) {
	seen := make([]bool, decoder.NumFields)
	files, _ := filepath.Glob("../testdata/conversation/*.pcapng")
	for _, f := range files {
		for _, tr := range decodeCapture(t, filepath.Base(f)).trees {
			for i := range tr.Nodes {
				seen[tr.Nodes[i].Field] = true
			}
		}
	}
	cv := decoder.NewConversation(decoder.Options{})
	cv.Resume()
	for _, m := range handMade() {
		tr := cv.Decode(m.b, m.side)
		if tr.Err != nil {
			t.Errorf("%q: %v", m.b, tr.Err)
		}
		decoder.CheckTiling(t, tr)
		for i := range tr.Nodes {
			seen[tr.Nodes[i].Field] = true
		}
	}
	for id := decoder.FirstConversationField; int(id) < decoder.NumFields; id++ {
		info := id.Info()
		if info.Name == "" || info.Meaning == "" {
			t.Errorf("field %d has no name or meaning", id)
		}
		if !seen[id] {
			t.Errorf("field %s (%s) is described but never emitted", info.Name, info.Of)
		}
	}
}

type sided struct {
	b    []byte
	side decoder.Side
}

// handMade are the messages no capture here holds.
func handMade() []sided {
	msg := func(typ byte, body ...[]byte) []byte {
		var b []byte
		for _, p := range body {
			b = append(b, p...)
		}
		n := len(b) + 4
		return append([]byte{typ, byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}, b...)
	}
	i32 := func(v uint32) []byte { return []byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)} }
	be := decoder.Backend
	return []sided{
		{msg('R', i32(2)), be},                            // AuthenticationKerberosV5
		{msg('R', i32(7)), be},                            // AuthenticationGSS
		{msg('p', []byte("gss token")), decoder.Frontend}, // GSSResponse
		{msg('R', i32(8), []byte("token")), be},           // AuthenticationGSSContinue
		{msg('R', i32(9)), be},                            // AuthenticationSSPI
		{msg('R', i32(99)), be},                           // an authentication code this decoder does not know
	}
}
