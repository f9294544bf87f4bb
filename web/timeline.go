package web

import (
	"strconv"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
)

// Timeline is the stream as a run of spans in stream order (which is LSN order): Begin …
// Commit transactions, the Stream Start … Stream Stop blocks of streamed transactions (their
// blocks interleaved as they came, tied together by xid), Begin Prepare … Prepare, the
// messages that end a streamed or prepared transaction between blocks, and the messages
// outside any block. It flags what does not fit. The panel draws Spans, only those in view.
// A Timeline never changes once built; it is read from the decoder's Role, Xid and
// EndsTransaction of each message, never from type bytes.
type Timeline struct {
	Doc   *Doc
	Spans []Span
	// SpanOf gives the span of each message.
	SpanOf []int32
	// Flagged counts the spans with a flag.
	Flagged int
}

// SpanKind says what a span is.
type SpanKind uint8

// Span kinds.
const (
	SpanOutside     SpanKind = iota // messages outside any block (Relation, Type, keepalives, a non-transactional Message)
	SpanTransaction                 // Begin … Commit
	SpanStreamBlock                 // Stream Start … Stream Stop: one block of a streamed transaction
	SpanPrepared                    // Begin Prepare … Prepare
	SpanEnd                         // a message that ends a transaction between blocks: Stream Commit, Stream Abort, Stream Prepare, Commit Prepared, Rollback Prepared
)

// Flag marks what does not fit in a span.
type Flag uint8

// Flags.
const (
	// FlagLSNBack: the span's LSN is below the one of a span before it.
	FlagLSNBack Flag = 1 << iota
	// FlagNoOpen: it closes a block no message opened (a Commit without a Begin, a Stream
	// Stop without a Stream Start, a Prepare without a Begin Prepare).
	FlagNoOpen
	// FlagNoClose: the block was not closed before the next one opened or the input ended.
	FlagNoClose
	// FlagNeverEnds: the last block of a streamed transaction that no Stream Commit, Stream
	// Abort or Stream Prepare ended by the end of the input.
	FlagNeverEnds
	// FlagUnknownXid: it ends a streamed transaction (Stream Commit, Stream Abort, Stream
	// Prepare) whose xid no Stream Start opened.
	FlagUnknownXid
	// FlagUndescribed: it holds a change of a relation no Relation message described before.
	FlagUndescribed
	numFlags = 6
)

// flagTexts say what each flag means, in the order of the flags' bits.
var flagTexts = [numFlags]string{
	"LSN below an earlier one",
	"closes a block never opened",
	"never closed",
	"streamed transaction never ends",
	"ends an xid never streamed",
	"change of a relation never described",
}

// Span is a run of messages of the timeline.
type Span struct {
	Kind SpanKind
	// First and End are the span's messages: First to End-1.
	First, End int
	// Xid is the transaction's xid (for SpanOutside: none).
	Xid    uint32
	HasXid bool
	// EndLSN is the last non-zero LSN of its pgoutput messages (a capture gives Relation and
	// Type messages LSN 0/0; keepalives carry how far the server has read the WAL, often past
	// the changes it sends next).
	EndLSN uint64
	HasLSN bool
	// Origin is the origin name an Origin message in the span gave, or "".
	Origin string
	// Block is a stream block's number among its transaction's, from 1, and Blocks how many
	// blocks its transaction has (so far); Prev is the span of the transaction's block before
	// it, or -1, and Head its first block's span (for a span not a stream block: itself).
	Block, Blocks, Prev, Head int
	// Ends is the span that ended the transaction of a stream block (its Stream Commit, Abort
	// or Prepare) or of a prepared one (its Commit or Rollback Prepared), or -1.
	Ends  int
	Flags Flag
}

// Count is the number of messages in the span.
func (sp *Span) Count() int { return sp.End - sp.First }

// TimelineOf returns the timeline of d's messages (those decoded so far: a streamed
// transaction is said never to end, or a block never to close, only when d is complete).
func TimelineOf(d *Doc) *Timeline {
	tl := &Timeline{Doc: d}
	if d == nil {
		return tl
	}
	tl.SpanOf = make([]int32, len(d.Trees))
	open := false // the last span is a block not closed yet
	// last holds, for each transaction going on, its last stream block, or its Prepare or
	// Stream Prepare waiting for a Commit or Rollback Prepared.
	last := map[uint32]int{}
	for m, t := range d.Trees {
		role := t.Role()
		xid, hasXid := t.Xid()
		cur := len(tl.Spans) - 1
		kind := SpanEnd
		switch role.Block() {
		case decoder.BlockTransaction:
			kind = SpanTransaction
		case decoder.BlockStream:
			kind = SpanStreamBlock
		case decoder.BlockPrepared:
			kind = SpanPrepared
		}
		// A message that opens a block, ends a transaction, closes a block none opened, or
		// stands outside every block after a block starts a span.
		opens := role.Opens() || role == decoder.RoleStreamEnd || role == decoder.RolePreparedEnd ||
			role.Closes() && (!open || tl.Spans[cur].Kind != kind) || !open && (cur < 0 || tl.Spans[cur].Kind != SpanOutside)
		if opens {
			if open { // a block opens, or a transaction ends, inside it
				tl.Spans[cur].Flags |= FlagNoClose
			}
			if role == decoder.RoleInside || role == decoder.RoleNone {
				kind = SpanOutside
			}
			cur++
			tl.Spans = append(tl.Spans, Span{Kind: kind, First: m, Xid: xid, HasXid: hasXid, Prev: -1, Head: cur, Ends: -1})
			open = role.Opens()
			if role.Closes() {
				tl.Spans[cur].Flags |= FlagNoOpen
			}
		}
		sp := &tl.Spans[cur]
		sp.End = m + 1
		tl.SpanOf[m] = int32(cur)
		if sm := &d.Summaries[m]; sm.HasLSN && sm.LSN != 0 && t.MessageType() != nil {
			sp.EndLSN, sp.HasLSN = sm.LSN, true
		}
		if mt := t.MessageType(); mt != nil && mt.Group == decoder.FieldOrigin && sp.Origin == "" {
			if k := t.Find(t.Message, decoder.FieldOriginName); k >= 0 {
				sp.Origin = string(t.ValueBytes(k))
			}
		}
		if t.MissingRelation != 0 {
			sp.Flags |= FlagUndescribed
		}
		if role.Closes() {
			open = false
		}
		if !hasXid {
			continue
		}
		p, going := last[xid]
		switch role {
		case decoder.RoleStreamStart:
			sp.Block = 1
			if going && tl.Spans[p].Kind == SpanStreamBlock {
				sp.Prev, sp.Block, sp.Head = p, tl.Spans[p].Block+1, tl.Spans[p].Head
			}
			last[xid] = cur
		case decoder.RolePrepare:
			last[xid] = cur
		case decoder.RoleStreamEnd:
			if !going || tl.Spans[p].Kind != SpanStreamBlock {
				sp.Flags |= FlagUnknownXid
				break
			}
			if t.EndsTransaction() { // not a Stream Abort of a subtransaction, which ends nothing
				for q := p; q >= 0; q = tl.Spans[q].Prev {
					tl.Spans[q].Ends = cur
				}
				delete(last, xid)
				if t.MessageType().Group == decoder.FieldStreamPrepare {
					last[xid] = cur // a Commit or Rollback Prepared follows
				}
			}
		case decoder.RolePreparedEnd:
			if going {
				tl.Spans[p].Ends = cur
				delete(last, xid)
			}
		}
	}
	if d.Complete() {
		if open {
			tl.Spans[len(tl.Spans)-1].Flags |= FlagNoClose
		}
		for _, p := range last {
			if tl.Spans[p].Kind == SpanStreamBlock {
				tl.Spans[p].Flags |= FlagNeverEnds
			}
		}
	}
	// Each block learns how many its transaction has, from its last one back.
	for i := len(tl.Spans) - 1; i >= 0; i-- {
		if sp := &tl.Spans[i]; sp.Kind == SpanStreamBlock && sp.Blocks == 0 {
			for q := i; q >= 0; q = tl.Spans[q].Prev {
				tl.Spans[q].Blocks = sp.Block
			}
		}
	}
	// A span's messages may go back within it (a transaction's Begin and changes carry
	// their own records' LSNs, older than the Commit of a transaction sent before it), but
	// the last LSN of each span, its commit's or stream block's, moves on.
	var lsn uint64
	for i := range tl.Spans {
		sp := &tl.Spans[i]
		if sp.HasLSN {
			if sp.EndLSN < lsn {
				sp.Flags |= FlagLSNBack
			}
			lsn = max(lsn, sp.EndLSN)
		}
		if sp.Flags != 0 {
			tl.Flagged++
		}
	}
	return tl
}

// syncTimeline brings Timeline up to date with Doc while the panel is shown.
func (s *State) syncTimeline() {
	if s.ShowTimeline && (s.Timeline == nil || s.Timeline.Doc != s.Doc) {
		s.Timeline = TimelineOf(s.Doc)
	}
}

// Chosen returns the span of the chosen message, or -1.
func (tl *Timeline) Chosen(msg int) int {
	if msg < 0 || msg >= len(tl.SpanOf) {
		return -1
	}
	return int(tl.SpanOf[msg])
}

// Label is what the timeline's row says of span i: what it is, how its transaction ended and
// what does not fit in it, then its messages, last LSN and origin.
func (tl *Timeline) Label(i int) string {
	d := tl.Doc
	sp := &tl.Spans[i]
	s := d.Summaries[sp.First].Name
	switch sp.Kind {
	case SpanOutside:
		s = "Outside transactions"
	case SpanTransaction:
		s = "Transaction"
	case SpanStreamBlock:
		s = "Streamed " + strconv.Itoa(sp.Block) + "/" + strconv.Itoa(sp.Blocks) // block 1 of 5
	case SpanPrepared:
		s = "Prepared"
	}
	of := " · xid "
	// A Stream Abort of a subtransaction ends nothing: it names both its xids.
	if t := d.Trees[sp.First]; sp.Kind == SpanEnd && sp.HasXid && t.MessageType().Group == decoder.FieldStreamAbort && !t.EndsTransaction() {
		if k := t.Find(t.Message, decoder.FieldStreamAbortSubXid); k >= 0 {
			s, of = s+" of subtransaction "+strconv.FormatUint(t.ValueOf(k).Num, 10), " of xid "
		}
	}
	if sp.HasXid {
		s += of + strconv.FormatUint(uint64(sp.Xid), 10)
	}
	// How it ended and what does not fit come before the rest, which a narrow panel cuts off.
	if sp.Ends >= 0 {
		s += " → " + d.Summaries[tl.Spans[sp.Ends].First].Name
	}
	for k, f := 0, sp.Flags; f != 0; k, f = k+1, f>>1 {
		if f&1 != 0 {
			s += " · ⚠ " + flagTexts[k]
		}
	}
	s += " · " + strconv.Itoa(sp.Count()) + " msg"
	if sp.HasLSN {
		s += " · " + pgvalue.FormatLSN(sp.EndLSN)
	}
	if sp.Origin != "" {
		s += " · origin " + sp.Origin
	}
	return s
}

// timelineStep chooses the span n spans after (before, n < 0) the chosen message's or, when
// the filter hides its messages, the nearest one past it (else short of it) that it does not.
func (s State) timelineStep(n int) (State, []Effect) {
	tl := s.Timeline
	if tl == nil || len(tl.Spans) == 0 {
		return s, nil
	}
	i := min(max(tl.Chosen(s.Msg)+n, 0), len(tl.Spans)-1)
	dir := 1
	if n < 0 {
		dir = -1
	}
	for j, k := i, 0; k < 2; j, dir, k = i, -dir, k+1 {
		for ; j >= 0 && j < len(tl.Spans) && s.List.firstIn(tl.Spans[j].First, tl.Spans[j].End) < 0; j += dir {
		}
		if j >= 0 && j < len(tl.Spans) {
			i = j
			break
		}
	}
	s, fx := s.chooseSpan(i)
	fx = s.reveal(PanelTimeline, i, fx)
	return s, fx
}

// chooseSpan chooses the first message of span i the list holds, and scrolls the message list
// to show the span's rows from its heading on (its start at the top when they do not all fit).
// When the filter hides all of the span's messages, the choice stays and HiddenSpan says so.
func (s State) chooseSpan(i int) (State, []Effect) {
	sp := &s.Timeline.Spans[i]
	m := s.List.firstIn(sp.First, sp.End)
	if m < 0 {
		s.HiddenSpan = i + 1
		return s, nil
	}
	fx := s.selectMessage(m, false)
	if a := s.List.RowOf(m); a >= 0 {
		v := &s.View[PanelList]
		if top := v.Reveal(max(a-1, 0), max(s.List.RowOf(sp.End-1), a)); top != v.Top {
			v.Top = top
			fx = append(fx, EffectScroll{Panel: PanelList, Top: top})
		}
	}
	return s, fx
}

// Marks says which messages the message list marks as the chosen span's (class in-span):
// those of span Head of Timeline or, for a stream block, of every block of its transaction.
// The zero Marks marks none.
type Marks struct {
	Timeline *Timeline
	Head     int
}

// Has reports whether message m is marked.
func (k Marks) Has(m int) bool {
	tl := k.Timeline
	return tl != nil && m >= 0 && m < len(tl.SpanOf) && tl.Spans[tl.SpanOf[m]].Head == k.Head
}
