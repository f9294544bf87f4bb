package web

import (
	"bytes"
	"compress/flate"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/hexview"
)

// hostile is a note that would reorder the text around it (U+202E) and read as markup.
const hostile = "<script>alert(1)</script> \u202egnp.exe & \"q\""

// shared returns the z1 payload the Share button would compress for s, and a link to it.
func shared(t *testing.T, s State) ([]byte, string) {
	t.Helper()
	_, fx := Apply(s, Share{})
	for _, e := range fx {
		if c, ok := e.(EffectCompress); ok {
			var z bytes.Buffer
			w, _ := flate.NewWriter(&z, flate.BestCompression)
			w.Write(c.Payload)
			w.Close()
			return c.Payload, ShareLink(z.Bytes())
		}
	}
	t.Fatal("Share made no payload")
	return nil, ""
}

// notedState is the Insert example with a note on a tree node of message 3 and one on bytes
// of message 2.
func notedState(t *testing.T) State {
	s := apply(t, NewState(-1), SetText{Text: txnInsert}, SelectMessage{Msg: 2}, SelectNode{Node: 4}, EditNote{Index: -1, Text: hostile},
		SelectMessage{Msg: 1}, SelectBytes{Sel: hexview.Range{Offset: 30, Length: 5}, ID: -1}, EditNote{Index: -1, Text: "bytes 30 to 34"})
	want := []Note{{Msg: 2, Sel: hexview.Range{Offset: 6, Length: 35}, Node: 4, Text: hostile},
		{Msg: 1, Sel: hexview.Range{Offset: 30, Length: 5}, Node: -1, Text: "bytes 30 to 34"}}
	if !reflect.DeepEqual(s.Notes, want) {
		t.Fatalf("notes %+v, want %+v", s.Notes, want)
	}
	return s
}

// Notes travel in the link, open with it, and a link shared again from the opened page is the
// same link.
func TestNotesInShareLink(t *testing.T) {
	s := notedState(t)
	p, link := shared(t, s)
	if !bytes.Contains(p, []byte("note=2,6-35,4,"+hostile+"\nnote=1,30-5,-1,bytes 30 to 34\n\n")) {
		t.Errorf("payload %q", p)
	}
	o := openLink(NewState(0), link)
	if !reflect.DeepEqual(o.Notes, s.Notes) || o.LinkErr != "" {
		t.Fatalf("opened with notes %+v (%q), want %+v", o.Notes, o.LinkErr, s.Notes)
	}
	if p2, link2 := shared(t, o); !bytes.Equal(p2, p) || link2 != link {
		t.Errorf("shared again: %q, want %q", p2, p)
	}
	// A hand-written link's message comes without notes.
	if h := openLink(o, "#hex=4200"); h.Notes != nil {
		t.Errorf("a hex= link kept the notes %+v", h.Notes)
	}
}

// The page shows a note's text escaped as it escapes values: U+202E as \u202e; markup stays
// text (the page sets it as text, never as HTML).
func TestNotesEscaped(t *testing.T) {
	s := notedState(t)
	s = apply(t, s, SelectMessage{Msg: 2})
	text := NoteText(s.Notes, s.Doc, 2, 4)
	if want := `<script>alert(1)</script> \u202egnp.exe & "q"`; text != want {
		t.Errorf("marker text %q, want %q", text, want)
	}
	if noted := NotedBytes(s.Notes, s.Doc, 2); len(noted) != 1 || noted[0] != (hexview.Range{Offset: 6, Length: 35}) {
		t.Errorf("noted bytes %v", noted)
	}
	// A byte note marks the leaves it overlaps, and no others.
	s = apply(t, s, SelectMessage{Msg: 1})
	t1 := s.Tree()
	for i := range t1.Nodes {
		n := &t1.Nodes[i]
		text := NoteText(s.Notes, s.Doc, 1, int32(i))
		if want := t1.IsLeaf(i) && n.Offset < 35 && n.Offset+n.Length > 30; (text != "") != want {
			t.Errorf("node %d (%d+%d): marker %q", i, n.Offset, n.Length, text)
		}
	}
}

// The limits: MaxNotes notes, MaxNoteText characters, one line; a link over them is damaged.
func TestNoteLimits(t *testing.T) {
	s := apply(t, NewState(0), SelectNode{Node: 3})
	long := strings.Repeat("é", MaxNoteText)
	for i := 0; i < MaxNotes+1; i++ {
		s = apply(t, s, EditNote{Index: -1, Text: long})
	}
	if len(s.Notes) != MaxNotes {
		t.Fatalf("%d notes, want %d", len(s.Notes), MaxNotes)
	}
	if want := "Up to " + strconv.Itoa(MaxNotes) + " notes of up to " + strconv.Itoa(MaxNoteText) + " characters,"; !strings.HasPrefix(NotesHelp, want) {
		t.Errorf("the notes panel says %q, want it to start %q", NotesHelp, want)
	}
	s.Notes = s.Notes[:1]
	for _, bad := range []string{long + "e", "two\nlines", ""} {
		if g := apply(t, s, EditNote{Index: -1, Text: bad}); len(g.Notes) != 1 {
			t.Errorf("%.20q: added", bad)
		}
		if g := apply(t, s, EditNote{Index: 0, Text: bad}); bad != "" && g.Notes[0].Text != long {
			t.Errorf("%.20q: note 0 edited", bad)
		}
	}
	if g := apply(t, s, EditNote{Index: 0}); len(g.Notes) != 0 {
		t.Errorf("an emptied note stays: %+v", g.Notes)
	}
	if g := apply(t, s, EditNote{Index: 0, Text: "new"}); g.Notes[0].Text != "new" || s.Notes[0].Text != long {
		t.Errorf("edited: %q, before %q", g.Notes[0].Text, s.Notes[0].Text)
	}
	// Nothing selected: no note.
	if g := apply(t, s, SelectBytes{Sel: hexview.Range{}, ID: -1}, EditNote{Index: -1, Text: "x"}); len(g.Notes) != 1 {
		t.Errorf("a note on nothing: %+v", g.Notes)
	}
	head := strings.Repeat("note=0,1-1,-1,x\n", MaxNotes)
	if sh, err := ParseSharePayload([]byte(head + "\n" + txnInsert)); err != nil || len(sh.Notes) != MaxNotes {
		t.Errorf("%d notes: %v", len(sh.Notes), err)
	}
	for _, bad := range []string{
		head + "note=0,1-1,-1,x\n",
		"note=0,1-1,-1," + long + "e\n",
		"note=0,1-1,-1,\n",
		"note=0,1-0,-1,x\n",
		"note=0,1-1,-2,x\n",
		"note=-1,1-1,-1,x\n",
		"note=0,1-1,x\n",
		"note=0,99999999999999999999-1,-1,x\n",
	} {
		if _, err := ParseSharePayload([]byte(bad + "\n" + txnInsert)); err == nil {
			t.Errorf("%.60q: read", bad)
		}
	}
}

// A note whose message, field or bytes an edit took away stays, says so, and still goes into
// the link.
func TestNoteAfterEdit(t *testing.T) {
	s := notedState(t)
	lines := strings.SplitAfter(s.Text, "\n")
	s = apply(t, s, SetText{Text: lines[0] + lines[1][:60]})
	if len(s.Notes) != 2 {
		t.Fatalf("notes %+v", s.Notes)
	}
	place, ok := s.Notes[0].Place(s.Doc)
	if ok || !strings.Contains(place, "message 3, bytes 6–40: not in the input") {
		t.Errorf("note on message 3: %q, %v", place, ok)
	}
	place, ok = s.Notes[1].Place(s.Doc)
	if ok || !strings.Contains(place, "message 2, bytes 30–34: not in the input") {
		t.Errorf("note on bytes 30-34 of a 30-byte message: %q, %v", place, ok)
	}
	if p, _ := shared(t, s); bytes.Count(p, []byte("\nnote=")) != 2 {
		t.Errorf("payload %q", p)
	}
	if g := apply(t, s, GoToNote{Index: 0}); g.Msg != s.Msg {
		t.Errorf("went to a note that is not there")
	}
	// Back as it was: both in place again.
	s = apply(t, s, SetText{Text: txnInsert})
	for i, n := range s.Notes {
		if place, ok := n.Place(s.Doc); !ok {
			t.Errorf("note %d: %q", i, place)
		}
	}
	g := apply(t, s, GoToNote{Index: 0})
	if g.Msg != 2 || g.Node != 4 {
		t.Errorf("GoToNote: message %d node %d", g.Msg, g.Node)
	}
	if g = apply(t, g, GoToNote{Index: 1}); g.Msg != 1 || g.Node != -1 || g.Sel != (hexview.Range{Offset: 30, Length: 5}) {
		t.Errorf("GoToNote: message %d node %d sel %v", g.Msg, g.Node, g.Sel)
	}
}
