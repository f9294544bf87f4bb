// Package consumer checks a replication consumer from a captured conversation: what the
// server sent it (transaction ends, keepalives), what it acknowledged (standby status
// updates: written, flushed, applied), how long each acknowledgement took, and what in the
// exchange puts the slot or the data at risk. It reads decoded messages in capture order,
// each with its side, connection and capture time (a packet capture's), and is used by the
// command line's consumer command and the page.
package consumer

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
)

// Defaults of the server settings the checks measure against, when the conversation does not
// show another value: PostgreSQL's own.
const (
	DefaultSenderTimeout  = 60e9 // wal_sender_timeout, ns
	DefaultStatusInterval = 10e9 // wal_receiver_status_interval, ns
)

// Settings are the server settings the checks compare with, in nanoseconds.
type Settings struct {
	// SenderTimeout is the publisher's wal_sender_timeout; StatusInterval the consumer's
	// wal_receiver_status_interval (how often PostgreSQL's own subscriber reports).
	SenderTimeout, StatusInterval int64
}

// Position says which of a status update's three LSNs.
type Position uint8

// The positions a status update reports.
const (
	Write Position = iota
	Flush
	Apply
	numPositions
)

var positionNames = [numPositions]string{"write", "flush", "apply"}

// String names the position as pg_stat_replication's columns do: "write", "flush", "apply".
func (p Position) String() string { return positionNames[p] }

// End is a transaction's end the server sent: Commit, Stream Commit, Commit Prepared, or a
// Stream Abort of a whole transaction or a Rollback Prepared (which need no apply).
type End struct {
	// Msg is the message's index in the input; Time its frame's capture time (Unix ns).
	Msg  int
	Time int64
	// Kind is the message's name ("Commit"); LSN the transaction's end LSN, which a status
	// update acknowledges (the message's end LSN field, or the XLogData's WAL start for a
	// Stream Abort, which has none).
	Kind string
	LSN  uint64
	// NeedsApply is false for an end that discards the transaction (nothing to apply).
	NeedsApply bool
	// Acks are the first status updates at or past LSN, by position.
	Acks [numPositions]Ack
}

// Ack is a status update that acknowledged an End at one position.
type Ack struct {
	// Update is the index in Conn.Updates of the first status update that reported the end's
	// LSN or beyond, or -1 when none did before the capture (or the connection) ended.
	Update int
	// Lag is the time from the end's frame to that update's, ns.
	Lag int64
}

// Update is a standby status update the client sent.
type Update struct {
	Msg  int
	Time int64
	// Pos are the written, flushed and applied LSNs it reported (0: not reported).
	Pos [numPositions]uint64
	// ReplyRequested: the client asked the server for a keepalive at once.
	ReplyRequested bool
	// Answers is the index in Conn.Keepalives of the keepalive asking for a reply that this
	// update is the first answer to, or -1.
	Answers int
	// Sent is the end of the WAL the server had sent before it; Unflushed the part of it not
	// reported flushed (Sent minus Flush, 0 when Flush is at or past it).
	Sent, Unflushed uint64
	// SentUnknown says the capture lost bytes of the server's stream since its last keepalive
	// (Builder.Lost): what the server had sent is not known, and the update is not checked
	// against it.
	SentUnknown bool
}

// Keepalive is a Primary keepalive message the server sent.
type Keepalive struct {
	Msg    int
	Time   int64
	WALEnd uint64
	// ReplyRequested: the server asked for a status update at once (it does when half of
	// wal_sender_timeout has passed without one).
	ReplyRequested bool
	// Reply is the index in Conn.Updates of the client's first status update after it, or -1;
	// ReplyAfter the time until it, ns.
	Reply      int
	ReplyAfter int64
}

// Anomaly is something in the exchange that puts data or the slot at risk, with the messages
// that show it.
type Anomaly struct {
	Kind AnomalyKind
	// Msgs are the indexes in the input of the messages that show it.
	Msgs []int
	// Text says what happened, with the figures.
	Text string
}

// AnomalyKind names a kind of anomaly.
type AnomalyKind string

// The kinds of anomaly.
const (
	// A flush or apply LSN past all the WAL the server had sent: the client claims WAL it never
	// received, which the slot then drops (lost on the client's crash).
	BeyondSent AnomalyKind = "beyond-sent"
	// A reported LSN lower than the same position reported before.
	Backwards AnomalyKind = "backwards"
	// Flush past write, or apply past write: a position past what the client says it received.
	Order AnomalyKind = "order"
	// No status update for longer than wal_receiver_status_interval while the server sent data.
	Silent AnomalyKind = "silent"
	// A keepalive that asked for a reply got none, or got it after wal_sender_timeout's half
	// had passed again (the server ends the connection at the full timeout).
	LateReply AnomalyKind = "late-reply"
	// A later connection of the same slot started from before the last flush acknowledged
	// (transactions delivered again) or after it (transactions skipped).
	Redelivery AnomalyKind = "redelivery"
	Gap        AnomalyKind = "gap"
	// The server ended the stream with an error.
	ServerError AnomalyKind = "server-error"
	// The server closed the connection after a keepalive asking for a reply got none: the
	// walsender's wal_sender_timeout. It sends the client no error for it (it logs
	// "terminating walsender process due to replication timeout"): the close is all the wire
	// shows.
	Timeout AnomalyKind = "timeout"
)

// Close is how a connection's TCP connection ended, as the capture shows it.
type Close struct {
	// Frame is the frame of the first FIN or RST either end sent (0: none captured); Time its
	// capture time (Unix ns); By the end that sent it; Reset says it was a RST.
	Frame int
	Time  int64
	By    decoder.Side
	Reset bool
}

// Conn is one replication connection's exchange.
type Conn struct {
	// Number is the connection's number in the input (from 1), or 0 for messages of no known
	// connection.
	Number int
	// Slot is the START_REPLICATION command's slot, Start its start LSN ("" and 0 when the
	// capture does not hold it); Application the client's application_name.
	Slot, Application string
	Start             uint64
	// First and Last are the capture times of its first and last replication messages.
	First, Last int64
	// StartMsg is the index in the input of the client's last query before the stream (its
	// START_REPLICATION), or of the stream's first message when the capture lacks it.
	StartMsg int
	// Sent is the end of the WAL the server sent (the highest XLogData WAL end or keepalive
	// WAL end).
	Sent       uint64
	Ends       []End
	Updates    []Update
	Keepalives []Keepalive
	Anomalies  []Anomaly
	// Reported says which positions the client ever reported as not 0 (pg_recvlogical never
	// reports apply).
	Reported [numPositions]bool
	// Errors are the server's error messages on the connection, with their message indexes.
	Errors    []string
	ErrorMsgs []int
	// Data are the capture times of the XLogData the server sent, in order.
	Data []int64
	// Close is the TCP connection's end; LastClient and LastClientTime the index and capture
	// time of the client's last message before it (the walsender's timeout counts from the
	// last message it received), LastClient -1 when there was none.
	Close          Close
	LastClient     int
	LastClientTime int64
	// Lost counts the bytes of the connection's two streams the capture lost (Builder.Lost):
	// the checks cannot see what the messages in them held.
	Lost int
	// lastServer is the index of the server's last XLogData or keepalive so far.
	lastServer int
	// startSeen says the input holds the START_REPLICATION command.
	startSeen bool
}

// Report is every replication connection's exchange and its anomalies.
type Report struct {
	Settings Settings
	// Conns are the connections that carried a replication stream, in the order of their
	// first messages.
	Conns []*Conn
	// Timed says the input's messages carry capture times (a packet capture's): without them
	// no lag can be measured.
	Timed bool
}

// Builder reads messages in capture order and builds a Report.
type Builder struct {
	settings Settings
	conns    map[int]*Conn
	// query is the index of each connection's last query from the client.
	query map[int]int
	order []*Conn
	timed bool
	// last is each connection's last message from the client: index and time.
	last  map[int][2]int64
	close map[int]Close
	// lost counts each connection's lost bytes; blind says the server's stream lost bytes
	// since its last keepalive.
	lost  map[int]int
	blind map[int]bool
}

// NewBuilder returns a builder that measures against the settings (zero fields take the
// defaults).
func NewBuilder(s Settings) *Builder {
	if s.SenderTimeout <= 0 {
		s.SenderTimeout = DefaultSenderTimeout
	}
	if s.StatusInterval <= 0 {
		s.StatusInterval = DefaultStatusInterval
	}
	return &Builder{settings: s, conns: map[int]*Conn{}, query: map[int]int{}, last: map[int][2]int64{}, close: map[int]Close{},
		lost: map[int]int{}, blind: map[int]bool{}}
}

// Add reads message msg (its index in the input), decoded into t, sent by side on connection
// conn at time (Unix ns, 0 when not known). A message with no known side is the server's
// when it is XLogData or a keepalive and the client's when it is a status update, as their
// types say.
func (b *Builder) Add(msg int, t *decoder.Tree, side decoder.Side, conn int, time int64) {
	if len(t.Nodes) == 0 {
		return
	}
	if time != 0 {
		b.timed = true
	}
	if side == decoder.Frontend {
		b.last[conn] = [2]int64{int64(msg), time}
	}
	root := t.Nodes[0].Field
	if t.Wire != nil {
		if root == decoder.FieldQuery && side == decoder.Frontend {
			b.query[conn] = msg
		}
		if root == decoder.FieldErrorResponse && side == decoder.Backend {
			if c := b.conns[conn]; c != nil {
				c.Errors = append(c.Errors, pgvalue.SafeText(t.NoticeField('M')))
				c.ErrorMsgs = append(c.ErrorMsgs, msg)
			}
		}
		return
	}
	// The replication message, inside its CopyData when the capture holds the whole wire.
	env := 0
	if root == decoder.FieldCopyData && len(t.Nodes) > 3 {
		env = 3 // the CopyData's type byte and length come first
		root = t.Nodes[env].Field
	}
	switch root {
	case decoder.FieldXLogData, decoder.FieldKeepalive, decoder.FieldStandbyStatus:
	default:
		return
	}
	c := b.conn(conn, msg, time)
	c.Last = time
	switch root {
	case decoder.FieldXLogData:
		c.lastServer = msg
		c.Data = append(c.Data, time)
		start := value(t, env, decoder.FieldXLogDataStart)
		c.Sent = max(c.Sent, start, value(t, env, decoder.FieldXLogDataEnd))
		if e, ok := endOf(t, start); ok {
			e.Msg, e.Time = msg, time
			for p := range e.Acks {
				e.Acks[p].Update = -1
			}
			c.Ends = append(c.Ends, e)
		}
	case decoder.FieldKeepalive:
		c.Sent = max(c.Sent, value(t, env, decoder.FieldKeepaliveWALEnd))
		delete(b.blind, conn)
		c.lastServer = msg
		c.Keepalives = append(c.Keepalives, Keepalive{Msg: msg, Time: time, WALEnd: value(t, env, decoder.FieldKeepaliveWALEnd),
			ReplyRequested: value(t, env, decoder.FieldKeepaliveReply) != 0, Reply: -1})
	case decoder.FieldStandbyStatus:
		b.update(c, msg, t, env, time)
	}
}

// Lost says the capture lost n bytes of connection conn's stream from side right before the
// message read next (input.Message.Lost). A loss from the server happened after its message
// before: the client's status updates since then, and until the server's next keepalive
// (whose WAL end is all it sent), are not checked against the WAL sent.
func (b *Builder) Lost(conn int, side decoder.Side, n int) {
	b.lost[conn] += n
	if side == decoder.Frontend {
		return
	}
	b.blind[conn] = true
	if c := b.conns[conn]; c != nil {
		for i := len(c.Updates) - 1; i >= 0 && c.Updates[i].Msg > c.lastServer; i-- {
			c.Updates[i].SentUnknown = true
		}
	}
}

// Closed says how connection conn's TCP connection ended (a packet capture's FIN or RST).
func (b *Builder) Closed(conn int, c Close) { b.close[conn] = c }

// conn returns connection n's exchange, starting it.
func (b *Builder) conn(n, msg int, time int64) *Conn {
	c := b.conns[n]
	if c == nil {
		c = &Conn{Number: n, First: time, StartMsg: msg}
		if q, ok := b.query[n]; ok {
			c.StartMsg = q
		}
		b.conns[n] = c
		b.order = append(b.order, c)
	}
	return c
}

// update reads a standby status update: it acknowledges the ends it reaches and answers the
// keepalives before it that asked for a reply.
func (b *Builder) update(c *Conn, msg int, t *decoder.Tree, env int, time int64) {
	u := Update{Msg: msg, Time: time, Answers: -1, Sent: c.Sent,
		Pos: [numPositions]uint64{
			value(t, env, decoder.FieldStandbyStatusWritten),
			value(t, env, decoder.FieldStandbyStatusFlushed),
			value(t, env, decoder.FieldStandbyStatusApplied)},
		ReplyRequested: value(t, env, decoder.FieldStandbyStatusReply) != 0, SentUnknown: b.blind[c.Number]}
	if u.Pos[Flush] < c.Sent {
		u.Unflushed = c.Sent - u.Pos[Flush]
	}
	n := len(c.Updates)
	for p := range u.Pos {
		if u.Pos[p] != 0 {
			c.Reported[p] = true
		}
	}
	for i := range c.Ends {
		e := &c.Ends[i]
		for p := range e.Acks {
			if e.Acks[p].Update < 0 && u.Pos[p] != 0 && u.Pos[p] >= e.LSN && (Position(p) != Apply || e.NeedsApply) {
				e.Acks[p] = Ack{Update: n, Lag: time - e.Time}
			}
		}
	}
	for i := range c.Keepalives {
		if k := &c.Keepalives[i]; k.ReplyRequested && k.Reply < 0 {
			k.Reply, k.ReplyAfter = n, time-k.Time
			if u.Answers < 0 {
				u.Answers = i
			}
		}
	}
	c.Updates = append(c.Updates, u)
}

// endOf returns the End an XLogData's pgoutput message is, if it ends a transaction.
func endOf(t *decoder.Tree, start uint64) (End, bool) {
	if t.Message < 0 {
		return End{}, false
	}
	m := t.Message
	switch t.Nodes[m].Field {
	case decoder.FieldCommit:
		return End{Kind: "Commit", LSN: value(t, m, decoder.FieldCommitEndLSN), NeedsApply: true}, true
	case decoder.FieldStreamCommit:
		return End{Kind: "Stream Commit", LSN: value(t, m, decoder.FieldStreamCommitEndLSN), NeedsApply: true}, true
	case decoder.FieldCommitPrepared:
		return End{Kind: "Commit Prepared", LSN: value(t, m, decoder.FieldCommitPreparedEndLSN), NeedsApply: true}, true
	case decoder.FieldRollbackPrepared:
		return End{Kind: "Rollback Prepared", LSN: value(t, m, decoder.FieldRollbackPreparedEndLSN)}, true
	case decoder.FieldStreamAbort:
		// A subtransaction's abort ends nothing; the walsender sends a whole transaction's
		// abort at its abort record's LSN, as the XLogData's WAL start says.
		if t.EndsTransaction() {
			return End{Kind: "Stream Abort", LSN: start}, true
		}
	}
	return End{}, false
}

// value returns the value of the first field f inside node i, or 0.
func value(t *decoder.Tree, i int, f decoder.FieldID) uint64 {
	if j := t.Find(i, f); j >= 0 {
		return t.ValueOf(j).Num
	}
	return 0
}

// Finish checks the connections for anomalies and returns the report. info, when not nil,
// gives a connection's conversation (its START_REPLICATION and application_name).
func (b *Builder) Finish(info func(conn int) *decoder.ConversationInfo) *Report {
	r := &Report{Settings: b.settings, Conns: b.order, Timed: b.timed}
	for _, c := range r.Conns {
		if info != nil {
			if ci := info(c.Number); ci != nil {
				c.Application = ci.StartupValue("application_name")
				if rc := ci.Replication; rc != nil {
					c.startSeen = true
					c.Slot = rc.Slot
					c.Start, _ = pgvalue.ParseLSN(rc.LSN)
				}
			}
		}
		c.Close, c.LastClient, c.Lost = b.close[c.Number], -1, b.lost[c.Number]
		if l, ok := b.last[c.Number]; ok {
			c.LastClient, c.LastClientTime = int(l[0]), l[1]
		}
		b.check(c)
	}
	b.checkRestarts(r.Conns)
	return r
}

// check finds the anomalies within one connection.
func (b *Builder) check(c *Conn) {
	s := b.settings
	var last [numPositions]uint64
	var lastMsg [numPositions]int
	prevTime, prevMsg := c.First, -1
	for i := range c.Updates {
		u := &c.Updates[i]
		// What the server had sent by then, with what the client had before it started. When
		// the input lacks the stream's start (a capture begun after it), that is known from
		// the server's first keepalive on.
		sent := max(u.Sent, c.Start)
		if !c.startSeen && (len(c.Keepalives) == 0 || c.Keepalives[0].Msg > u.Msg) {
			u.SentUnknown = true
		}
		var beyond, back []string
		var from []int
		for _, p := range [...]Position{Flush, Apply} {
			if u.Pos[p] > sent {
				beyond = append(beyond, p.String()+" "+lsn(u.Pos[p]))
			}
		}
		if len(beyond) > 0 && !u.SentUnknown {
			c.add(BeyondSent, "the client reported "+strings.Join(beyond, " and ")+", past the end of the WAL the server had sent ("+lsn(sent)+"): it claims WAL it never received, which the server no longer keeps for it", u.Msg)
		}
		for p := range u.Pos {
			if u.Pos[p] != 0 && u.Pos[p] < last[p] {
				back = append(back, Position(p).String()+" from "+lsn(last[p])+" to "+lsn(u.Pos[p]))
				if !slices.Contains(from, lastMsg[p]) {
					from = append(from, lastMsg[p])
				}
			}
			if u.Pos[p] != 0 {
				last[p], lastMsg[p] = u.Pos[p], u.Msg
			}
		}
		if len(back) > 0 {
			c.add(Backwards, "the client's LSNs went back: "+strings.Join(back, ", "), append(from, u.Msg)...)
		}
		// PostgreSQL's subscriber reports in apply what it has committed locally, before it is
		// flushed, so apply past flush is its normal state; past write it is not.
		if w := u.Pos[Write]; w != 0 {
			for _, p := range [...]Position{Flush, Apply} {
				if u.Pos[p] > w {
					c.add(Order, "the client reported "+p.String()+" "+lsn(u.Pos[p])+" past write "+lsn(w)+": more "+p.String()+"ed than received", u.Msg)
				}
			}
		}
		if c.dataBetween(prevTime, u.Time) && u.Time-prevTime > silence(s) && prevTime != 0 {
			from := "the stream's first message"
			msgs := []int{u.Msg}
			if prevMsg >= 0 {
				from = "the status update before"
				msgs = []int{prevMsg, u.Msg}
			}
			c.add(Silent, "no status update for "+seconds(u.Time-prevTime)+" after "+from+" while the server sent data (wal_receiver_status_interval "+seconds(s.StatusInterval)+")", msgs...)
		}
		prevTime, prevMsg = u.Time, u.Msg
	}
	if c.Last-prevTime > silence(s) && c.dataBetween(prevTime, c.Last) && prevTime != 0 {
		msgs := []int{}
		if prevMsg >= 0 {
			msgs = append(msgs, prevMsg)
		}
		c.add(Silent, "no status update in the last "+seconds(c.Last-prevTime)+" of the stream while the server sent data (wal_receiver_status_interval "+seconds(s.StatusInterval)+")", msgs...)
	}
	for _, k := range c.Keepalives {
		switch {
		case !k.ReplyRequested:
		case k.Reply < 0 && k.Time == c.Last:
			c.add(LateReply, "the server asked for a reply at "+lsn(k.WALEnd)+" and got none: nothing followed on the connection (the server ends it when wal_sender_timeout, "+seconds(s.SenderTimeout)+", passes without one)", k.Msg)
		case k.Reply < 0:
			c.add(LateReply, "the server asked for a reply at "+lsn(k.WALEnd)+" and got none in the "+seconds(c.Last-k.Time)+" the stream went on (wal_sender_timeout "+seconds(s.SenderTimeout)+")", k.Msg)
		case k.ReplyAfter > s.SenderTimeout/2:
			c.add(LateReply, "the server asked for a reply and got it "+seconds(k.ReplyAfter)+" later, past the "+seconds(s.SenderTimeout/2)+" left before wal_sender_timeout ("+seconds(s.SenderTimeout)+") ends the connection", k.Msg, c.Updates[k.Reply].Msg)
		}
	}
	for i, e := range c.Errors {
		c.add(ServerError, "the server ended the stream with an error: "+e, c.ErrorMsgs[i])
	}
	b.checkTimeout(c)
}

// checkTimeout finds a close by the server after a keepalive asking for a reply that got
// none: the walsender's wal_sender_timeout, which the client learns of only by the close.
// The walsender asks for a reply when half the timeout has passed since the last message it
// received and ends the connection when the whole has: the close comes the timeout after the
// client's last message, and the ask half of it.
func (b *Builder) checkTimeout(c *Conn) {
	if c.Close.By != decoder.Backend || c.Close.Time == 0 || c.LastClient < 0 {
		return
	}
	ask := -1
	for i, k := range c.Keepalives {
		if k.ReplyRequested && k.Reply < 0 && k.Time > c.LastClientTime {
			ask = i
			break
		}
	}
	if ask < 0 {
		return
	}
	k, timeout := c.Keepalives[ask], b.settings.SenderTimeout
	after := c.Close.Time - c.LastClientTime
	how := "FIN"
	if c.Close.Reset {
		how = "RST"
	}
	s := "the server closed the connection (" + how + ", frame " + strconv.Itoa(c.Close.Frame) + ") " + seconds(after) +
		" after the client's last message and " + seconds(c.Close.Time-k.Time) + " after a keepalive asking for a reply that got none: "
	if after >= timeout-timeout/100 && after <= timeout+timeout/10+100e6 {
		s += "wal_sender_timeout (" + seconds(timeout) + ") passed"
	} else {
		// The ask came half the server's timeout after the client's last message.
		s += "not wal_sender_timeout as given (" + seconds(timeout) + "); the ask " + seconds(k.Time-c.LastClientTime) +
			" after the client's last message puts the server's wal_sender_timeout near " + seconds(2*(k.Time-c.LastClientTime))
	}
	c.add(Timeout, s+". The server sends no error for it: its log says \"terminating walsender process due to replication timeout\"", c.LastClient, k.Msg)
}

// silence is how long a client may send no status update while data flows before it is an
// anomaly: wal_receiver_status_interval and a tenth of it, for the timers' slack (a client that
// reports every second sends its updates 1.000 to 1.005 s apart).
func silence(s Settings) int64 { return s.StatusInterval + s.StatusInterval/10 }

// checkRestarts compares each connection of a slot with the one of that slot before it.
func (b *Builder) checkRestarts(conns []*Conn) {
	bySlot := map[string]*Conn{}
	for _, c := range conns {
		if c.Slot == "" {
			continue
		}
		prev := bySlot[c.Slot]
		bySlot[c.Slot] = c
		if prev == nil {
			continue
		}
		acked, ackMsg := uint64(0), -1
		for _, u := range prev.Updates {
			if u.Pos[Flush] > acked {
				acked, ackMsg = u.Pos[Flush], u.Msg
			}
		}
		if acked == 0 {
			continue
		}
		if c.Start > acked {
			c.add(Gap, "connection "+strconv.Itoa(c.Number)+" started slot "+c.Slot+" at "+lsn(c.Start)+", past the "+lsn(acked)+" connection "+strconv.Itoa(prev.Number)+" acknowledged flushed: the server skips the transactions that end between", ackMsg, c.StartMsg)
		}
		// Every end the earlier connection had acknowledged flushed: a slot that lost the
		// acknowledgement (a server stopped before a checkpoint saved it) sends them all again.
		var again []string
		msgs := []int{ackMsg}
		for _, e := range c.Ends {
			if e.LSN <= acked {
				again = append(again, e.Kind+" "+lsn(e.LSN)+" (message "+strconv.Itoa(e.Msg)+")")
				msgs = append(msgs, e.Msg)
			}
		}
		if len(again) > 0 {
			c.add(Redelivery, "connection "+strconv.Itoa(c.Number)+" received again "+strings.Join(again, ", ")+", which connection "+strconv.Itoa(prev.Number)+
				" had acknowledged flushed (up to "+lsn(acked)+", message "+strconv.Itoa(ackMsg)+"): the slot sent from before that acknowledgement", msgs...)
		}
	}
}

// dataBetween reports whether the server sent an XLogData after from and up to to.
func (c *Conn) dataBetween(from, to int64) bool {
	i := sort.Search(len(c.Data), func(i int) bool { return c.Data[i] > from })
	return i < len(c.Data) && c.Data[i] <= to
}

func (c *Conn) add(k AnomalyKind, text string, msgs ...int) {
	c.Anomalies = append(c.Anomalies, Anomaly{Kind: k, Msgs: msgs, Text: text})
}

// Summary is a connection's figures for one position.
type Summary struct {
	// Acked and Unacked count the ends acknowledged and not; Max and Median are lags, ns; MaxEnd
	// the index in Conn.Ends of the slowest.
	Acked, Unacked int
	Max, Median    int64
	MaxEnd         int
}

// Lags returns the connection's lag figures at position p, over the ends that need it.
func (c *Conn) Lags(p Position) Summary {
	s := Summary{MaxEnd: -1}
	var lags []int64
	for i, e := range c.Ends {
		if p == Apply && !e.NeedsApply {
			continue
		}
		if e.Acks[p].Update < 0 {
			s.Unacked++
			continue
		}
		s.Acked++
		lags = append(lags, e.Acks[p].Lag)
		if s.MaxEnd < 0 || e.Acks[p].Lag > s.Max {
			s.Max, s.MaxEnd = e.Acks[p].Lag, i
		}
	}
	if len(lags) > 0 {
		sort.Slice(lags, func(i, j int) bool { return lags[i] < lags[j] })
		s.Median = lags[len(lags)/2]
		if len(lags)%2 == 0 {
			s.Median = (lags[len(lags)/2-1] + lags[len(lags)/2]) / 2
		}
	}
	return s
}

// Slowest returns the indexes in c.Ends of the n ends with the longest flush lag (those never
// flushed first), slowest first.
func (c *Conn) Slowest(n int) []int {
	idx := make([]int, len(c.Ends))
	for i := range idx {
		idx[i] = i
	}
	lag := func(i int) int64 {
		if a := c.Ends[i].Acks[Flush]; a.Update >= 0 {
			return a.Lag
		}
		return 1<<63 - 1
	}
	sort.SliceStable(idx, func(a, b int) bool { return lag(idx[a]) > lag(idx[b]) })
	return idx[:min(n, len(idx))]
}

func lsn(v uint64) string { return pgvalue.FormatLSN(v) }

// seconds writes a duration in ns as seconds with three decimals: "13.004 s".
func seconds(ns int64) string {
	return strconv.FormatFloat(float64(ns)/1e9, 'f', 3, 64) + " s"
}

// Counts returns how many of the connection's ends commit (need applying) and abort.
func (c *Conn) Counts() (commits, aborts int) {
	for _, e := range c.Ends {
		if e.NeedsApply {
			commits++
		} else {
			aborts++
		}
	}
	return commits, aborts
}

// AskedReply returns how many keepalives asked for a reply.
func (c *Conn) AskedReply() int {
	n := 0
	for _, k := range c.Keepalives {
		if k.ReplyRequested {
			n++
		}
	}
	return n
}

// MaxReply returns the longest a keepalive that asked waited for its reply, ns, or -1 when
// none was answered.
func (c *Conn) MaxReply() int64 {
	n := int64(-1)
	for _, k := range c.Keepalives {
		if k.ReplyRequested && k.Reply >= 0 {
			n = max(n, k.ReplyAfter)
		}
	}
	return n
}

// Unacknowledged returns the indexes in c.Ends of the ends never reported flushed.
func (c *Conn) Unacknowledged() []int {
	var un []int
	for i, e := range c.Ends {
		if e.Acks[Flush].Update < 0 {
			un = append(un, i)
		}
	}
	return un
}

// CloseText says how the TCP connection ended, "" when the capture does not hold its end:
// "closed by the server (FIN, frame 45) 2.010 s after the client's last message".
func (c *Conn) CloseText() string {
	if c.Close.Frame == 0 {
		return ""
	}
	s := "closed by the client ("
	if c.Close.By == decoder.Backend {
		s = "closed by the server ("
	}
	if c.Close.Reset {
		s += "RST"
	} else {
		s += "FIN"
	}
	s += ", frame " + strconv.Itoa(c.Close.Frame) + ")"
	if c.LastClient >= 0 && c.Close.Time != 0 && c.LastClientTime != 0 {
		s += " " + seconds(c.Close.Time-c.LastClientTime) + " after the client's last message"
	}
	return s
}

// LostText says what the input lacks of the connection, or "": its start, and the bytes the
// capture lost ("the capture lost 193 bytes of this connection: …").
func (c *Conn) LostText() string {
	s := ""
	if !c.startSeen {
		s = "the input does not hold the stream's start (START_REPLICATION): a flush past the WAL sent is checked from the server's first keepalive on"
	}
	if c.Lost > 0 {
		if s != "" {
			s += "; "
		}
		s += "the capture lost " + strconv.Itoa(c.Lost) + " bytes of this connection: the messages in them are not checked, " +
			"and a flush past the WAL sent is not checked from a loss in the server's stream until its next keepalive"
	}
	return s
}

// Seconds writes a duration in ns as seconds with three decimals: "13.004 s".
func Seconds(ns int64) string { return seconds(ns) }
