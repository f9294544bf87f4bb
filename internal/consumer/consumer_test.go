package consumer

import (
	"encoding/binary"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
)

// copyData wraps a replication message in its CopyData.
func copyData(payload []byte) []byte {
	return append(binary.BigEndian.AppendUint32([]byte{'d'}, uint32(4+len(payload))), payload...)
}

func u64(b []byte, v uint64) []byte { return binary.BigEndian.AppendUint64(b, v) }

// commit is an XLogData at the commit's end LSN holding a Commit of that end.
func commit(end uint64) []byte {
	b := u64(u64(u64([]byte{'w'}, end), end), 0)
	b = u64(u64(u64(append(b, 'C', 0), end-8), end), 0)
	return copyData(b)
}

// status is a standby status update.
func status(write, flush, apply uint64) []byte {
	return copyData(append(u64(u64(u64(u64([]byte{'r'}, write), flush), apply), 0), 0))
}

type event struct {
	conn int
	at   int64 // seconds
	side decoder.Side
	b    []byte
}

func build(t *testing.T, events []event, starts map[int]string) *Report {
	t.Helper()
	b := NewBuilder(Settings{})
	convs := map[int]*decoder.Conversation{}
	for i, e := range events {
		cv := convs[e.conn]
		if cv == nil {
			cv = decoder.NewConversation(decoder.Options{})
			cv.Resume()
			convs[e.conn] = cv
		}
		tr := cv.Decode(e.b, e.side)
		if tr.Err != nil {
			t.Fatalf("event %d: %v", i, tr.Err)
		}
		b.Add(i, tr, e.side, e.conn, e.at*1e9)
	}
	return b.Finish(func(conn int) *decoder.ConversationInfo {
		return &decoder.ConversationInfo{Replication: &decoder.ReplCommand{Command: "START_REPLICATION", Slot: "s", LSN: starts[conn]}}
	})
}

// TestLagsAndRedelivery: a flush acknowledged a second after its commit is a lag of 1 s; a
// second connection of the slot that receives a commit the first acknowledged flushed is a
// redelivery, named with the acknowledgement and the commit.
func TestLagsAndRedelivery(t *testing.T) {
	r := build(t, []event{
		{1, 1, decoder.Backend, commit(0x2000)},
		{1, 2, decoder.Frontend, status(0x2000, 0x1000, 0)},
		{1, 4, decoder.Frontend, status(0x2000, 0x2000, 0)},
		{2, 10, decoder.Backend, commit(0x2000)},
		{2, 11, decoder.Frontend, status(0x2000, 0x2000, 0)},
	}, map[int]string{1: "0/0", 2: "0/1000"})
	if len(r.Conns) != 2 {
		t.Fatalf("%d connections", len(r.Conns))
	}
	c := r.Conns[0]
	if w, f := c.Lags(Write), c.Lags(Flush); w.Max != 1e9 || f.Max != 3e9 || f.Acked != 1 || c.Reported[Apply] {
		t.Errorf("write %+v, flush %+v, apply reported %v", w, f, c.Reported[Apply])
	}
	if len(c.Anomalies) != 0 {
		t.Errorf("connection 1: %+v", c.Anomalies)
	}
	a := r.Conns[1].Anomalies
	if len(a) != 1 || a[0].Kind != Redelivery || len(a[0].Msgs) != 2 || a[0].Msgs[0] != 2 || a[0].Msgs[1] != 3 || !strings.Contains(a[0].Text, "0/2000") {
		t.Errorf("connection 2: %+v", a)
	}
}

// TestUntimed: messages without capture times (a paste) give ends and updates but no
// anomaly of time.
func TestUntimed(t *testing.T) {
	b := NewBuilder(Settings{})
	cv := decoder.NewConversation(decoder.Options{})
	cv.Resume()
	for i, m := range [][]byte{commit(0x2000), status(0x2000, 0x2000, 0x2000)} {
		side := decoder.Backend
		if i == 1 {
			side = decoder.Frontend
		}
		b.Add(i, cv.Decode(m, side), side, 1, 0)
	}
	r := b.Finish(nil)
	if r.Timed || len(r.Conns) != 1 || len(r.Conns[0].Ends) != 1 || r.Conns[0].Ends[0].Acks[Flush].Update != 0 || len(r.Conns[0].Anomalies) != 0 {
		t.Errorf("%+v %+v", r, r.Conns[0])
	}
}

// keepalive is a Primary keepalive message, asking for a reply or not.
func keepalive(walEnd uint64, reply bool) []byte {
	b := u64(u64([]byte{'k'}, walEnd), 0)
	if reply {
		return copyData(append(b, 1))
	}
	return copyData(append(b, 0))
}

// TestTimeout: a connection the server closed after a keepalive asking for a reply got none
// is a timeout, matched against wal_sender_timeout, or, when the close does not come that long
// after the client's last message, with the timeout the ask's time suggests (it comes at
// half); a close by the client, or after a reply, is none.
func TestTimeout(t *testing.T) {
	for _, tc := range []struct {
		ask, close int64 // seconds; the client's last status update is at 1
		by         decoder.Side
		want       string // in the timeout's text; "" for no timeout
	}{
		{31, 61, decoder.Backend, "(FIN, frame 9) 60.000 s after the client's last message and 30.000 s after a keepalive asking for a reply that got none: wal_sender_timeout (60.000 s) passed"},
		{2, 3, decoder.Backend, "not wal_sender_timeout as given (60.000 s); the ask 1.000 s after the client's last message puts the server's wal_sender_timeout near 2.000 s"},
		{31, 61, decoder.Frontend, ""},
	} {
		b := NewBuilder(Settings{})
		cv := decoder.NewConversation(decoder.Options{})
		cv.Resume()
		for i, e := range []event{
			{1, 0, decoder.Backend, commit(0x2000)},
			{1, 1, decoder.Frontend, status(0x2000, 0x2000, 0)},
			{1, tc.ask, decoder.Backend, keepalive(0x2000, true)},
		} {
			b.Add(i, cv.Decode(e.b, e.side), e.side, e.conn, e.at*1e9)
		}
		b.Closed(1, Close{Frame: 9, Time: tc.close * 1e9, By: tc.by})
		c := b.Finish(nil).Conns[0]
		var got []string
		for _, a := range c.Anomalies {
			if a.Kind == Timeout {
				got = append(got, a.Text)
				if len(a.Msgs) != 2 || a.Msgs[0] != 1 || a.Msgs[1] != 2 {
					t.Errorf("the timeout's messages %v, want the last status update and the ask (1, 2)", a.Msgs)
				}
			}
		}
		if tc.want == "" && len(got) > 0 || tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)) {
			t.Errorf("ask at %d s, closed by %s at %d s: timeouts %q, want %q", tc.ask, tc.by, tc.close, got, tc.want)
		}
	}
}
