package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
)

// readCorpus returns a capture of testdata/corpus, uncompressed.
func readCorpus(t *testing.T, name string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("../testdata/corpus", name+".capture.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// timelineDoc decodes a capture whole.
func timelineDoc(t *testing.T, text string) *Doc {
	t.Helper()
	d, ierr := NewDoc(text, input.Auto, decoder.Options{}, -1)
	if ierr != nil || d == nil || !d.Complete() {
		t.Fatalf("the capture does not decode whole: %v", ierr)
	}
	return d
}

// checkTiles fails unless the spans cover the messages in order, each message's SpanOf
// naming its span.
func checkTiles(t *testing.T, tl *Timeline) {
	t.Helper()
	next := 0
	for i, sp := range tl.Spans {
		if sp.First != next || sp.End <= sp.First {
			t.Fatalf("span %d covers messages %d to %d after message %d", i, sp.First, sp.End-1, next-1)
		}
		for m := sp.First; m < sp.End; m++ {
			if int(tl.SpanOf[m]) != i {
				t.Fatalf("message %d: SpanOf %d, in span %d", m, tl.SpanOf[m], i)
			}
		}
		next = sp.End
	}
	if next != len(tl.Doc.Trees) {
		t.Fatalf("the spans end at message %d of %d", next, len(tl.Doc.Trees))
	}
}

// flagged returns the spans of tl that carry flag f.
func flagged(tl *Timeline, f Flag) []int {
	var out []int
	for i := range tl.Spans {
		if tl.Spans[i].Flags&f != 0 {
			out = append(out, i)
		}
	}
	return out
}

// TestTimelineCorpus: every capture of the corpus (PostgreSQL 14 to 18: plain, streamed,
// streamed in parallel and two-phase transactions, origins) lays out with nothing flagged;
// every stream block and prepared transaction says what ended it, and the workload's
// transactions are all there.
func TestTimelineCorpus(t *testing.T) {
	files, err := filepath.Glob("../testdata/corpus/*.capture.gz")
	if err != nil || len(files) == 0 {
		t.Fatal("no corpus", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".capture.gz")
		t.Run(name, func(t *testing.T) {
			d := timelineDoc(t, readCorpus(t, name))
			tl := TimelineOf(d)
			checkTiles(t, tl)
			if tl.Flagged != 0 {
				for _, i := range flagged(tl, ^Flag(0)) {
					t.Errorf("span %d flagged: %s", i, tl.Label(i))
				}
			}
			kinds := map[SpanKind]int{}
			origins := 0
			for i := range tl.Spans {
				sp := &tl.Spans[i]
				kinds[sp.Kind]++
				if sp.Origin == "corpus_origin" {
					origins++
				}
				switch sp.Kind {
				case SpanStreamBlock, SpanPrepared:
					// Every one ends, in a span of its xid that ends a transaction.
					if sp.Ends < 0 {
						t.Errorf("span %d never ends: %s", i, tl.Label(i))
					} else if e := &tl.Spans[sp.Ends]; e.Kind != SpanEnd || e.Xid != sp.Xid {
						t.Errorf("span %d ends in span %d: %s", i, sp.Ends, tl.Label(sp.Ends))
					}
				}
			}
			if origins != 1 && !strings.Contains(name, "oltp") {
				t.Errorf("%d spans with the origin, want the workload's one", origins)
			}
			oltp, immediate := strings.Contains(name, "oltp"), strings.Contains(name, "immediate")
			switch {
			case oltp:
				if kinds[SpanTransaction] != 2400 || kinds[SpanStreamBlock] != 0 {
					t.Errorf("kinds %v, want the 2,400 transactions of the workload", kinds)
				}
			case immediate:
				if kinds[SpanTransaction] != 0 || kinds[SpanStreamBlock] == 0 || kinds[SpanPrepared] != 0 {
					t.Errorf("kinds %v, want every transaction streamed", kinds)
				}
			case strings.HasPrefix(name, "pg14"):
				// No two_phase on 14: 30 Begin … Commit (docs/corpus.md), no prepared ones.
				if kinds[SpanTransaction] != 30 || kinds[SpanPrepared] != 0 || kinds[SpanStreamBlock] == 0 {
					t.Errorf("kinds %v", kinds)
				}
			default:
				// 27 Begin … Commit and the two prepared transactions of the workload.
				if kinds[SpanTransaction] != 27 || kinds[SpanPrepared] != 2 || kinds[SpanStreamBlock] == 0 {
					t.Errorf("kinds %v", kinds)
				}
			}
		})
	}
}

// TestTimelineStreamed: pg17-text's streamed transactions as the workload made them: the one
// with a rolled back subtransaction streams on after its subtransaction's Stream Abort and
// ends in a Stream Commit; the one rolled back ends in a Stream Abort; the prepared ones end in
// a Stream Prepare, which a Commit or Rollback Prepared ends in turn.
func TestTimelineStreamed(t *testing.T) {
	d := timelineDoc(t, readCorpus(t, "pg17-text"))
	tl := TimelineOf(d)
	// The name of the message that ended each streamed xid, and its blocks.
	type ending struct {
		blocks int
		end    string
		then   string // what ended the Stream Prepare
	}
	got := map[uint32]ending{}
	var order []uint32
	for i := range tl.Spans {
		sp := &tl.Spans[i]
		if sp.Kind != SpanStreamBlock {
			continue
		}
		e, seen := got[sp.Xid]
		if !seen {
			order = append(order, sp.Xid)
		}
		if sp.Block != e.blocks+1 {
			t.Errorf("span %d: block %d after %d", i, sp.Block, e.blocks)
		}
		e.blocks = sp.Block
		end := &tl.Spans[sp.Ends]
		e.end = d.Summaries[end.First].Name
		if end.Ends >= 0 {
			e.then = d.Summaries[tl.Spans[end.Ends].First].Name
		}
		got[sp.Xid] = e
	}
	var sum []string
	for _, x := range order {
		e := got[x]
		sum = append(sum, strings.Join([]string{itoaTest(e.blocks), e.end, e.then}, " "))
	}
	want := "5 Stream Commit |2 Stream Abort |3 Stream Prepare Commit Prepared|3 Stream Prepare Rollback Prepared"
	if s := strings.Join(sum, "|"); s != want {
		t.Fatalf("streamed transactions (blocks, end, then):\n got %s\nwant %s", s, want)
	}
	// The subtransaction's Stream Abort, between blocks 2 and 3 of the first, ends nothing.
	sub := 0
	for i := range tl.Spans {
		if sp := &tl.Spans[i]; sp.Kind == SpanEnd && d.Summaries[sp.First].Name == "Stream Abort" && !d.Trees[sp.First].EndsTransaction() {
			sub++
			if next := &tl.Spans[i+1]; next.Kind != SpanStreamBlock || next.Xid != sp.Xid || next.Block != 3 {
				t.Errorf("after the subtransaction's Stream Abort: %s", tl.Label(i+1))
			}
		}
	}
	if sub != 1 {
		t.Errorf("%d Stream Aborts of a subtransaction, want 1", sub)
	}
	// The first transaction's blocks say how many it has, and each marks all five in the list.
	var heads []int
	marks := 0
	for i := range tl.Spans {
		if sp := &tl.Spans[i]; sp.Kind == SpanStreamBlock && sp.Xid == order[0] {
			if want := "Streamed " + itoaTest(sp.Block) + "/5 · xid " + itoaTest(int(order[0])) + " → Stream Commit · "; !strings.HasPrefix(tl.Label(i), want) {
				t.Errorf("label %q, want it to start %q", tl.Label(i), want)
			}
			heads = append(heads, sp.Head)
			marks += sp.Count()
		}
	}
	for _, h := range heads {
		k := Marks{Timeline: tl, Head: h}
		n := 0
		for m := range tl.SpanOf {
			sp := &tl.Spans[tl.SpanOf[m]]
			if k.Has(m) {
				n++
				if sp.Kind != SpanStreamBlock || sp.Xid != order[0] {
					t.Fatalf("message %d marked, in %s", m, tl.Label(int(tl.SpanOf[m])))
				}
			}
		}
		if n != marks {
			t.Fatalf("%d messages marked, the blocks hold %d", n, marks)
		}
	}
	if len(heads) != 5 {
		t.Fatalf("%d blocks", len(heads))
	}
	// Labels say what a span is and how its transaction ended.
	for i := range tl.Spans {
		if l := tl.Label(i); strings.HasPrefix(l, "Streamed 3/3 · xid") && strings.Contains(l, " → Stream Prepare · 6 msg · ") {
			return
		}
	}
	t.Error("no label of a third block that a Stream Prepare ended")
}

func itoaTest(n int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		if n /= 10; n == 0 {
			return string(b)
		}
	}
}

// cutCapture returns the capture text without the lines of the messages drop says to leave
// out: the real capture cut to make what a timeline flags.
func cutCapture(text string, d *Doc, drop func(m int) bool) string {
	skip := map[int]bool{}
	for m := range d.Messages {
		if drop(m) {
			skip[d.Messages[m].Line] = true
		}
	}
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	for i, l := range lines {
		if !skip[i+1] {
			b.WriteString(l)
		}
	}
	return b.String()
}

// nth returns the index of the k-th (from 0) message named name, or -1.
func nth(d *Doc, name string, k int) int {
	for m := range d.Summaries {
		if d.Summaries[m].Name == name {
			if k == 0 {
				return m
			}
			k--
		}
	}
	return -1
}

// TestTimelineFlags: real captures cut to make each thing the timeline flags, and only that.
func TestTimelineFlags(t *testing.T) {
	pg17 := readCorpus(t, "pg17-text")
	d17 := timelineDoc(t, pg17)
	oltp := readCorpus(t, "pg14-oltp")
	dOLTP := timelineDoc(t, oltp)
	// The xids of pg17-text's streamed transactions, in order: with a subtransaction rolled
	// back and committed, rolled back, prepared and committed, prepared and rolled back.
	var xids []uint32
	for m := range d17.Trees {
		if d17.Trees[m].Role() == decoder.RoleStreamStart {
			if x, _ := d17.Trees[m].Xid(); len(xids) == 0 || xids[len(xids)-1] != x {
				xids = append(xids, x)
			}
		}
	}
	if len(xids) != 4 {
		t.Fatalf("streamed xids %v, want 4", xids)
	}
	inStream := func(d *Doc, xid uint32, m int) bool {
		// A message of a block of xid: its span is a stream block of xid.
		tl := TimelineOf(d)
		sp := &tl.Spans[tl.SpanOf[m]]
		return sp.Kind == SpanStreamBlock && sp.Xid == xid
	}
	tl17 := TimelineOf(d17)
	for _, tc := range []struct {
		name string
		text string
		flag Flag
		// want is the label of the first span flagged.
		want string
	}{
		{
			// The Begin of the second transaction left out: its changes are outside any block.
			name: "Commit without a Begin",
			text: cutCapture(pg17, d17, func(m int) bool { return m == nth(d17, "Begin", 1) }),
			flag: FlagNoOpen,
			want: "Transaction · ⚠ closes a block never opened · 1 msg · 0/1512090",
		},
		{
			// The Commit of the first transaction left out: the next Begin opens inside it.
			name: "Begin without a Commit",
			text: cutCapture(pg17, d17, func(m int) bool { return m == nth(d17, "Commit", 0) }),
			flag: FlagNoClose,
			want: "Transaction · xid 757 · ⚠ never closed · 13 msg · 0/15119A8",
		},
		{
			// The Stream Commit of the first streamed transaction left out.
			name: "streamed xid that never ends",
			text: cutCapture(pg17, d17, func(m int) bool { return d17.Summaries[m].Name == "Stream Commit" }),
			flag: FlagNeverEnds,
			want: "Streamed 5/5 · xid " + itoaTest(int(xids[0])) + " · ⚠ streamed transaction never ends · 13 msg · 0/155C548",
		},
		{
			// The blocks of the transaction rolled back left out: its Stream Abort is of an
			// xid never streamed.
			name: "Stream Abort of an unknown xid",
			text: cutCapture(pg17, d17, func(m int) bool { return inStream(d17, xids[1], m) }),
			flag: FlagUnknownXid,
			want: "Stream Abort · xid " + itoaTest(int(xids[1])) + " · ⚠ ends an xid never streamed · 1 msg · 0/157CFB8",
		},
		{
			// The Relation of accounts left out: the first insert's relation was never described.
			name: "change of a relation never described",
			text: cutCapture(oltp, dOLTP, func(m int) bool { return m == nth(dOLTP, "Relation", 0) }),
			flag: FlagUndescribed,
			want: "Transaction · xid " + itoaTest(int(dOLTP.Summaries[nth(dOLTP, "Begin", 0)].Xid)) + " · ⚠ change of a relation never described · 3 msg · " +
				formatLSNTest(TimelineOf(dOLTP).Spans[TimelineOf(dOLTP).SpanOf[nth(dOLTP, "Commit", 0)]].EndLSN),
		},
		{
			// The transaction of pg17-text's xid 758 moved after the next one: its commit LSN
			// goes back.
			name: "LSNs going backwards",
			text: swapSpans(pg17, d17, tl17, 3, 4),
			flag: FlagLSNBack,
			want: "Transaction · xid 758 · ⚠ LSN below an earlier one · 3 msg · 0/1512090",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl := TimelineOf(timelineDoc(t, tc.text))
			checkTiles(t, tl)
			got := flagged(tl, ^Flag(0))
			if len(got) == 0 {
				t.Fatal("nothing flagged")
			}
			if tl.Spans[got[0]].Flags != tc.flag {
				t.Errorf("flags %b, want %b", tl.Spans[got[0]].Flags, tc.flag)
			}
			if l := tl.Label(got[0]); l != tc.want {
				t.Errorf("label\n got %q\nwant %q", l, tc.want)
			}
			if tc.flag != FlagUndescribed && len(got) != 1 {
				for _, i := range got {
					t.Errorf("flagged: %s", tl.Label(i))
				}
			}
		})
	}
}

// TestTimelineSubtransactionAbort: pg17-text cut so that the first streamed transaction (xid
// 787, whose subtransaction 788 rolls back between its blocks 2 and 3) never ends: no block
// says it ended in the subtransaction's Stream Abort, which ends nothing and names both xids.
func TestTimelineSubtransactionAbort(t *testing.T) {
	pg17 := readCorpus(t, "pg17-text")
	d17 := timelineDoc(t, pg17)
	tl := TimelineOf(timelineDoc(t, cutCapture(pg17, d17, func(m int) bool { return d17.Summaries[m].Name == "Stream Commit" })))
	checkTiles(t, tl)
	var got []string
	for i := range tl.Spans {
		if sp := &tl.Spans[i]; sp.HasXid && sp.Xid == 787 {
			if sp.Ends >= 0 {
				t.Errorf("span %d ends in span %d", i, sp.Ends)
			}
			got = append(got, tl.Label(i))
		}
	}
	want := []string{
		"Streamed 1/5 · xid 787 · 131 msg · 0/1527620",
		"Streamed 2/5 · xid 787 · 125 msg · 0/1537630",
		"Stream Abort of subtransaction 788 of xid 787 · 1 msg · 0/153ADE0",
		"Streamed 3/5 · xid 787 · 127 msg · 0/154ABE8",
		"Streamed 4/5 · xid 787 · 125 msg · 0/155AF28",
		"Streamed 5/5 · xid 787 · ⚠ streamed transaction never ends · 13 msg · 0/155C548",
	}
	if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
		t.Errorf("xid 787's spans:\n%s\nwant\n%s", g, w)
	}
}

func formatLSNTest(lsn uint64) string {
	const hex = "0123456789ABCDEF"
	part := func(v uint32) string {
		if v == 0 {
			return "0"
		}
		var b []byte
		for ; v > 0; v >>= 4 {
			b = append([]byte{hex[v&15]}, b...)
		}
		return string(b)
	}
	return part(uint32(lsn>>32)) + "/" + part(uint32(lsn))
}

// swapSpans returns the capture with the lines of spans a and b (a before b, adjacent) in the
// other order.
func swapSpans(text string, d *Doc, tl *Timeline, a, b int) string {
	lines := strings.SplitAfter(text, "\n")
	line := func(m int) int { return d.Messages[m].Line - 1 }
	A, B := tl.Spans[a], tl.Spans[b]
	first, mid, end := line(A.First), line(B.First), line(B.End-1)+1
	out := append([]string{}, lines[:first]...)
	out = append(out, lines[mid:end]...)
	out = append(out, lines[first:mid]...)
	out = append(out, lines[end:]...)
	return strings.Join(out, "")
}

// TestTimelinePartial: while a long input decodes a chunk at a time, a streamed transaction
// whose end is not decoded yet is not said never to end; once whole, the timeline is the same
// as decoded at once.
func TestTimelinePartial(t *testing.T) {
	text := readCorpus(t, "pg17-text")
	s := apply(t, NewState(-1), SetText{Text: text}, ShowTimeline{On: true})
	if s.Doc.Complete() {
		t.Fatal("pg17-text decoded at once; the test wants it in chunks")
	}
	for !s.Doc.Complete() {
		if s.Timeline == nil || s.Timeline.Doc != s.Doc {
			t.Fatal("the timeline does not follow the decode")
		}
		if s.Timeline.Flagged != 0 {
			t.Fatalf("%d spans flagged in a partial decode: %s", s.Timeline.Flagged, s.Timeline.Label(flagged(s.Timeline, ^Flag(0))[0]))
		}
		s = apply(t, s, DecodeMore{})
	}
	whole := TimelineOf(timelineDoc(t, text))
	if len(s.Timeline.Spans) != len(whole.Spans) {
		t.Fatalf("%d spans in chunks, %d at once", len(s.Timeline.Spans), len(whole.Spans))
	}
	for i := range whole.Spans {
		if a, b := s.Timeline.Label(i), whole.Label(i); a != b {
			t.Fatalf("span %d: %q in chunks, %q at once", i, a, b)
		}
	}
}

// TestTimelineStore: the panel takes the tree's place in turn with the relations; the arrows
// choose the first message of the span after or before; a click's SelectMessage marks its span.
func TestTimelineStore(t *testing.T) {
	s := apply(t, NewState(-1), SetText{Text: readCorpus(t, "pg17-text")}, ShowCatalog{On: true}, ShowTimeline{On: true})
	if !s.ShowTimeline || s.Timeline == nil || s.ShowCatalog || s.Catalog != nil {
		t.Fatal("the timeline does not take the relations' place")
	}
	s = apply(t, s, SelectSpan{Span: 33}) // the first stream block
	if first := s.Timeline.Spans[33].First; s.Msg != first || s.View[PanelList].Top == 0 {
		t.Fatalf("SelectSpan chose message %d (want %d), the list at %d px", s.Msg, first, s.View[PanelList].Top)
	}
	s = apply(t, s, SelectMessage{Msg: 3}) // inside the first transaction (span 1)
	if c := s.Timeline.Chosen(s.Msg); c != 1 {
		t.Fatalf("message 3 in span %d, want 1", c)
	}
	s = apply(t, s, Key{Panel: PanelTimeline, Key: "ArrowDown"})
	if s.Msg != s.Timeline.Spans[2].First {
		t.Fatalf("ArrowDown chose message %d, want span 2's first, %d", s.Msg, s.Timeline.Spans[2].First)
	}
	s = apply(t, s, Key{Panel: PanelTimeline, Key: "End"})
	if last := &s.Timeline.Spans[len(s.Timeline.Spans)-1]; s.Msg != last.First {
		t.Fatalf("End chose message %d, want %d", s.Msg, last.First)
	}
	s = apply(t, s, Key{Panel: PanelTimeline, Key: "Home"}, Key{Panel: PanelTimeline, Key: "ArrowUp"})
	if s.Msg != 0 {
		t.Fatalf("Home, ArrowUp chose message %d", s.Msg)
	}
	// The list filtered to inserts: a click on the stream block chooses its first insert, not
	// its Stream Start, which the list does not hold.
	s = apply(t, s, SetFilter{Query: "type:I"}, SelectSpan{Span: 33})
	blk := &s.Timeline.Spans[33]
	if s.Msg <= blk.First || s.Msg >= blk.End || s.Doc.Summaries[s.Msg].Name != "Insert" || s.List.RowOf(s.Msg) < 0 || s.HiddenSpan != 0 {
		t.Fatalf("filtered, SelectSpan chose message %d (%s, row %d), span %d to %d; HiddenSpan %d", s.Msg, s.Doc.Summaries[s.Msg].Name, s.List.RowOf(s.Msg), blk.First, blk.End-1, s.HiddenSpan)
	}
	ins := s.Msg
	// Span 0 holds no insert: the choice stays, and the status says why.
	s = apply(t, s, SelectSpan{Span: 0})
	if s.Msg != ins || s.HiddenSpan != 1 {
		t.Fatalf("a span the filter hides: message %d chosen (want %d), HiddenSpan %d", s.Msg, ins, s.HiddenSpan)
	}
	// Home passes over the spans the filter hides, to the first insert; ArrowUp there stays.
	s = apply(t, s, Key{Panel: PanelTimeline, Key: "Home"})
	if first := nth(s.Doc, "Insert", 0); s.Msg != first || s.HiddenSpan != 0 {
		t.Fatalf("Home chose message %d, want the first insert, %d; HiddenSpan %d", s.Msg, first, s.HiddenSpan)
	}
	s = apply(t, s, Key{Panel: PanelTimeline, Key: "ArrowUp"})
	if first := nth(s.Doc, "Insert", 0); s.Msg != first || s.HiddenSpan != 0 {
		t.Fatalf("ArrowUp from the first insert chose message %d; HiddenSpan %d", s.Msg, s.HiddenSpan)
	}
	s = apply(t, s, SetFilter{Query: ""}, ShowCatalog{On: true})
	if s.ShowTimeline || s.Timeline != nil || !s.ShowCatalog {
		t.Fatal("the relations do not take the timeline's place")
	}
}
