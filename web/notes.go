package web

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/hexview"
	"pgoutput-inspector/input"
)

// Notes are short plain-text remarks on a tree node or a byte range of a message (for a bug
// report, a lesson, a review). They travel in the z1 share link, one payload line each:
//
//	note=MSG,OFFSET-LENGTH,NODE,TEXT   on tree node NODE of message MSG (both from 0)
//	note=MSG,OFFSET-LENGTH,-1,TEXT     on the bytes OFFSET to OFFSET+LENGTH-1
//
// A page older than notes ignores these lines and opens the rest of the link as before.
// A note stays where it was put when the input is edited: when its message, node or bytes are
// gone, the notes panel says so (Note.Place) and keeps it until it is deleted.
const (
	// MaxNotes is the most notes a page (and a link) holds: the notes panel draws them all.
	MaxNotes = 20
	// MaxNoteText is the longest note, in characters.
	MaxNoteText = 200
	// NotesHelp is the notes panel's first line, with the limits (TestNoteLimits checks them).
	NotesHelp = "Up to 20 notes of up to 200 characters, on the selected field or bytes. They go into the Share button's link. Empty a note to delete it."
)

// Note is one note.
type Note struct {
	// Msg is the message it is on (from 0), Sel its bytes.
	Msg int
	Sel hexview.Range
	// Node is the tree node it is on, or -1 for a byte range.
	Node int32
	// Text is the note as written: one line of at most MaxNoteText characters, shown escaped
	// (pgvalue.SafeText) wherever the page shows it.
	Text string
}

// Notes actions.
type (
	// EditNote: note Index now says Text; an empty Text deletes it; Index -1 adds a note on the
	// selected tree node (else the selected bytes) of the chosen message.
	EditNote struct {
		Index int
		Text  string
	}
	// GoToNote: note Index was chosen in the notes panel: its message, node or bytes are shown.
	GoToNote struct{ Index int }
	// ShowNotes: the notes panel was turned on or off.
	ShowNotes struct{ On bool }
)

func (EditNote) isAction()  {}
func (GoToNote) isAction()  {}
func (ShowNotes) isAction() {}

// editNote applies an EditNote, unless the text is empty (for a new note), longer than
// MaxNoteText characters or more than one line, or a new note would be the MaxNotes+1st or has
// nothing selected to be on (the notes panel offers none of these). Notes is never changed in
// place: a new slice replaces it.
func (s State) editNote(a EditNote) State {
	n := utf8.RuneCountInString(a.Text)
	switch {
	case n > MaxNoteText || strings.IndexByte(a.Text, '\n') >= 0 || a.Index >= len(s.Notes):
		return s
	case a.Index >= 0 && n == 0:
		m := s.Notes[a.Index].Msg
		s.Notes = append(s.Notes[:a.Index:a.Index], s.Notes[a.Index+1:]...)
		s.markNoted(m)
	case a.Index >= 0:
		s.Notes = append([]Note(nil), s.Notes...)
		s.Notes[a.Index].Text = a.Text
	case n == 0 || s.Tree() == nil || s.Node < 0 && s.Sel.Empty() || len(s.Notes) >= MaxNotes:
		return s
	default:
		s.Notes = append(s.Notes[:len(s.Notes):len(s.Notes)], Note{Msg: s.Msg, Sel: s.Sel, Node: s.Node, Text: a.Text})
		s.markNoted(s.Msg)
	}
	s.Share = ShareState{}
	return s
}

// markNoted lays out the chosen message again when a note on message m came or went, and
// keeps the marks of the bytes an edit wrote.
func (s *State) markNoted(m int) {
	if t := s.Tree(); t != nil && m == s.Msg && s.Model != nil {
		s.Model = s.layout(t).WithChanged(s.Model.Changed())
	}
}

// goToNote shows note i: its message, and its node or bytes selected.
func (s State) goToNote(i int) (State, []Effect) {
	if i < 0 || i >= len(s.Notes) || !s.Notes[i].placed(s.Doc) {
		return s, nil
	}
	n := s.Notes[i]
	fx := s.selectMessage(n.Msg, true)
	s.Node, s.Sel = -1, n.Sel
	if n.Node >= 0 {
		var more []Effect
		more = s.selectNode(n.Node, true)
		fx = append(fx, more...)
	}
	s.Reveal++
	return s, fx
}

// placed reports whether note n's message, node or bytes are in doc: an edit of the input can
// take them away (the notes panel then says so, and keeps the note). Not inlined: one copy, not
// one in each of its callers.
// size: docs/performance.md, "Size tricks".
//
//go:noinline
func (n *Note) placed(doc *Doc) bool {
	if doc == nil || n.Msg >= len(doc.Trees) {
		return false
	}
	t := doc.Trees[n.Msg]
	if n.Node < 0 {
		return n.Sel.End() <= len(t.Bytes)
	}
	return int(n.Node) < len(t.Nodes) && t.Nodes[n.Node].Offset == n.Sel.Offset && t.Nodes[n.Node].Length == n.Sel.Length
}

// Place says where note n is: "message 3, bytes 12–15" (a byte range), "message 3, bytes
// 12–15, Relation OID" (a node), followed by why when ok is false and the place is not in doc
// (any more, or not decoded yet).
func (n Note) Place(doc *Doc) (place string, ok bool) {
	place = "message " + strconv.Itoa(n.Msg+1) + ", bytes " + strconv.Itoa(n.Sel.Offset) + "–" + strconv.Itoa(n.Sel.End()-1)
	if !n.placed(doc) {
		return place + ": not in the input (not any more, or not decoded yet)", false
	}
	if n.Node >= 0 {
		place += ", " + LabelText(doc.Trees[n.Msg], int(n.Node), MaxRowText)
	}
	return place, true
}

// NotedBytes returns the bytes of message m that notes are on, one range per note in place in
// doc: what the hex view marks (layout) and counts in its name.
func NotedBytes(notes []Note, doc *Doc, m int) []hexview.Range {
	var noted []hexview.Range
	for _, n := range notes {
		if n.Msg == m && n.placed(doc) {
			noted = append(noted, n.Sel)
		}
	}
	return noted
}

// NoteText returns the notes on node i of message m, escaped, one per line: a note on the
// node, or on bytes within it when it is a leaf (the tree's marker), "" when none is (or i is
// not a node of m).
func NoteText(notes []Note, doc *Doc, m int, i int32) string {
	var b []byte
	for _, n := range notes {
		if n.Msg != m || !n.placed(doc) || i < 0 || int(i) >= len(doc.Trees[m].Nodes) {
			continue
		}
		t := doc.Trees[m]
		nd := &t.Nodes[i]
		if n.Node == i || n.Node < 0 && t.IsLeaf(int(i)) && n.Sel.Offset < nd.Offset+nd.Length && nd.Offset < n.Sel.End() {
			b = pgvalue.AppendSafe(append(b, '\n'), n.Text)
		}
	}
	if len(b) == 0 {
		return ""
	}
	return string(b[1:])
}

// appendNotes writes the notes' payload lines: note=MSG,OFFSET-LENGTH,NODE,TEXT (NODE -1 for
// bytes).
func appendNotes(b []byte, notes []Note) []byte {
	for _, n := range notes {
		b = appendNum(append(b, "note="...), n.Msg, ',')
		b = appendNum(appendNum(b, n.Sel.Offset, '-'), n.Sel.Length, ',')
		b = append(append(appendNum(b, int(n.Node), ','), n.Text...), '\n')
	}
	return b
}

// appendNum appends n in decimal and then sep. One call, not strconv.AppendInt's inlined fast
// path at every call site.
// size: docs/performance.md, "Size tricks".
//
//go:noinline
func appendNum(b []byte, n int, sep byte) []byte {
	return append(strconv.AppendInt(b, int64(n), 10), sep)
}

// parseNote reads a note= payload line's value; msg says what is wrong.
func parseNote(v string) (Note, string) {
	var n Note
	m, rest, _ := strings.Cut(v, ",")
	sel, rest, _ := strings.Cut(rest, ",")
	id, text, ok := strings.Cut(rest, ",")
	if ok {
		var okM, okS, okN bool
		var node int
		n.Msg, okM = input.Atoi(m)
		n.Sel, okS = parseSel(sel)
		node, okN = input.Atoi(id)
		n.Node, n.Text = int32(node), text
		if c := utf8.RuneCountInString(n.Text); okM && okS && okN && !n.Sel.Empty() && n.Msg >= 0 && n.Msg <= MaxMessages &&
			n.Sel.Offset <= MaxInput && n.Sel.Length <= MaxInput && node >= -1 && node <= MaxInput && c > 0 && c <= MaxNoteText {
			return n, ""
		}
	}
	return n, "note: expected MSG,OFFSET-LENGTH,NODE,TEXT (NODE -1 for bytes; 1 to " + strconv.Itoa(MaxNoteText) +
		" characters of text), found \"" + Cut(v, 40) + "\""
}
