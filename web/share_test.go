package web

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"pgoutput-inspector/internal/dumpjob"
)

// tooLong stands for a compressed payload whose link is longer than MaxLink.
var tooLong = make([]byte, MaxLink)

// shareAsked returns the payload of the EffectCompress among fx, or nil.
func shareAsked(fx []Effect) []byte {
	for _, e := range fx {
		if c, ok := e.(EffectCompress); ok {
			return c.Payload
		}
	}
	return nil
}

// worker does what the export worker does for a job of kind dumpjob.SharePart among fx
// (SharePartAnswer), and gives its answer to the page.
func worker(t *testing.T, s State, fx []Effect) (State, []Effect) {
	t.Helper()
	for _, e := range fx {
		if d, ok := e.(EffectDump); ok && d.Job.Kind == dumpjob.SharePart {
			answer, why := SharePartAnswer([]byte(d.Job.Text), d.Job.Message)
			if why != "" {
				return Apply(s, Dumped{Kind: dumpjob.SharePart, Status: why, Err: true})
			}
			return Apply(s, Dumped{Kind: dumpjob.SharePart, Status: string(answer)})
		}
	}
	t.Fatalf("no part asked of the export worker: %v", fx)
	return s, nil
}

// linkOpens opens payload as a link would and checks it shows the messages want of s's input,
// with s's chosen message chosen.
func linkOpens(t *testing.T, s State, payload []byte, want []int) {
	t.Helper()
	o := apply(t, NewState(-1), OpenShared{Payload: payload})
	if o.Doc == nil || len(o.Doc.Messages) != len(want) {
		t.Fatalf("the link opens %v: %v", o.Doc != nil, o.InputErr)
	}
	for i, k := range want {
		if !bytes.Equal(o.Doc.Messages[i].Bytes, s.Doc.Messages[k].Bytes) {
			t.Errorf("the link's message %d is not message %d", i+1, k+1)
		}
	}
	if !bytes.Equal(o.Tree().Bytes, s.Tree().Bytes) || o.Tree().Nodes[0].Field != s.Tree().Nodes[0].Field {
		t.Errorf("the link chooses message %d, not the chosen one", o.Msg+1)
	}
}

// TestShareTooLongForALink: when the whole input's link is too long, Share links the chosen
// message's transaction after the Relation message before it, then the message alone, and says
// which; when nothing fits it says so. Each part decodes as it does in the input.
func TestShareTooLongForALink(t *testing.T) {
	s := apply(t, NewState(-1), SetText{Text: txnInsert + txnInsert}, SelectMessage{Msg: 6}) // the second Insert
	s, fx := Apply(s, Share{})
	if shareAsked(fx) == nil {
		t.Fatal("Share asked for no link")
	}
	s, fx = Apply(s, ShareMade{Compressed: tooLong})
	s, fx = worker(t, s, fx)
	txn := shareAsked(fx)
	if txn == nil || s.Share.Part != shareTxn || s.Share.Whole != len(ShareLink(tooLong)) {
		t.Fatalf("after a whole link too long: part %d, payload %v", s.Share.Part, txn != nil)
	}
	linkOpens(t, s, txn, []int{1, 4, 5, 6, 7}) // the first Relation, then Begin…Commit
	// That link fits: it is made, and the page says what it holds.
	g, fx := Apply(s, ShareMade{Compressed: []byte("short")})
	if g.Share.Link == "" || g.Share.Holds != "the chosen message's transaction (messages 5 to 8) after the 1 Relation or Type message before it" || len(fx) != 2 {
		t.Errorf("link %q holds %q, effects %v", g.Share.Link, g.Share.Holds, fx)
	}
	// Too long too: the message alone, after the Relation message.
	s, fx = Apply(s, ShareMade{Compressed: tooLong})
	s, fx = worker(t, s, fx)
	one := shareAsked(fx)
	if one == nil || s.Share.Part != shareMsg || !strings.HasPrefix(s.Share.Holds, "the chosen message after") {
		t.Fatalf("after the transaction too long: part %d, %q", s.Share.Part, s.Share.Holds)
	}
	linkOpens(t, s, one, []int{5, 6})
	// Nothing fits: said, with the whole link's length.
	s, fx = Apply(s, ShareMade{Compressed: tooLong})
	if len(fx) != 0 || s.Share.Link != "" || !strings.Contains(s.Share.Err, "The input makes a link of "+Commas(len(ShareLink(tooLong)))+" characters") || !strings.Contains(s.Share.Err, "none of its parts") {
		t.Errorf("nothing fits: %q, effects %v", s.Share.Err, fx)
	}
}

// TestShareConnectionOfACapture: a capture of several connections links the chosen message's
// connection, read from its own messages as the capture gives them (a real capture: four
// connections of a PostgreSQL 18 subscriber to a PostgreSQL 17 publisher).
func TestShareConnectionOfACapture(t *testing.T) {
	raw, err := os.ReadFile("../testdata/conversation/subscriber-pg17-pg18.pcapng")
	if err != nil {
		t.Fatal(err)
	}
	s := apply(t, NewState(-1), SetText{Text: string(raw), File: true, Name: "c.pcapng"})
	for !s.Doc.Complete() {
		s = apply(t, s, DecodeMore{})
	}
	last := len(s.Doc.Messages) - 1
	s = apply(t, s, SelectMessage{Msg: last}, Share{})
	s, fx := Apply(s, ShareMade{Compressed: tooLong})
	s, fx = worker(t, s, fx)
	conn := shareAsked(fx)
	c := s.Doc.Messages[last].Conn
	var want []int
	for i, m := range s.Doc.Messages {
		if m.Conn == c {
			want = append(want, i)
		}
	}
	if conn == nil || s.Share.Part != shareConn || len(want) == len(s.Doc.Messages) {
		t.Fatalf("part %d, payload %v, %d of %d messages", s.Share.Part, conn != nil, len(want), len(s.Doc.Messages))
	}
	linkOpens(t, s, conn, want)
}

// TestShareTransactionOfACapture: a capture of one replication connection links the chosen
// change's transaction, as tshark's tcp.payload fields (a real capture of pg_recvlogical and
// PostgreSQL 14).
func TestShareTransactionOfACapture(t *testing.T) {
	raw, err := os.ReadFile("../testdata/conversation/recvlogical-pg14.pcapng")
	if err != nil {
		t.Fatal(err)
	}
	s := apply(t, NewState(-1), SetText{Text: string(raw), File: true, Name: "c.pcapng"})
	for !s.Doc.Complete() {
		s = apply(t, s, DecodeMore{})
	}
	m := -1 // the last message in a transaction
	for i, sm := range s.Doc.Summaries {
		if sm.Group >= 0 {
			m = i
		}
	}
	s = apply(t, s, SelectMessage{Msg: m}, Share{})
	s, fx := Apply(s, ShareMade{Compressed: tooLong})
	s, fx = worker(t, s, fx)
	txn := shareAsked(fx)
	if txn == nil || s.Share.Part != shareTxn {
		t.Fatalf("part %d (%q), payload %v: %s", s.Share.Part, s.Share.Holds, txn != nil, s.Share.Err)
	}
	if !strings.HasPrefix(s.Share.Holds, "the chosen message's transaction (messages ") || !strings.HasSuffix(s.Share.Holds, ", as tshark's tcp.payload fields (without the capture's times)") {
		t.Errorf("the link holds %q", s.Share.Holds)
	}
	var want []int
	for i, sm := range s.Doc.Summaries {
		if sm.Group == s.Doc.Summaries[m].Group {
			want = append(want, i)
		}
	}
	linkOpens(t, s, txn, append(s.Doc.describedBefore(want[0]), want...))
}
