package ui

import (
	"strconv"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"

	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/web"
)

// NotesView lists the notes in the tree's place (the message list's Notes button shows it): a
// box to add one on the selected field (or bytes), then each note: where it is (a button that shows it), its text to edit (Enter or
// leaving the box applies; emptied, it deletes the note) and a Delete button. It holds at most
// web.MaxNotes notes, so its DOM is bounded. Its events are handled once on the panel (as the
// lists do), the note's index in data-note.
type NotesView struct {
	vecty.Core
	Notes []web.Note `vecty:"prop"`
	Doc   *web.Doc   `vecty:"prop"`
	// Target says what a new note would be on ("" when nothing is selected).
	Target   string   `vecty:"prop"`
	Dispatch Dispatch `vecty:"prop"`

	box *vecty.HTML // the new note's text box as last rendered
}

// Render implements vecty.Component.
func (v *NotesView) Render() vecty.ComponentOrHTML {
	off := v.Target == "" || len(v.Notes) >= web.MaxNotes
	v.box = elem.Input(markup(attr("id", "note-new"), attr("aria-label", "New note on "+v.Target),
		attr("placeholder", "Note on "+v.Target), attr("maxlength", strconv.Itoa(web.MaxNoteText)), prop("disabled", off)))
	items := []vecty.MarkupOrChild{markup(class("notes"),
		onClick(func(e *vecty.Event) {
			if i, ok := dataOf(e, "note"); ok {
				switch e.Target.Get("className").String() {
				case "note-place":
					v.Dispatch(web.GoToNote{Index: i})
				case "note-delete":
					v.Dispatch(web.EditNote{Index: i})
				}
			}
		}),
		onChange(func(e *vecty.Event) {
			// The note's text as shown is escaped: left as it was, it is not sent back.
			if i, ok := dataOf(e, "note"); ok && i < len(v.Notes) {
				if t := e.Target.Get("value").String(); t != pgvalue.SafeText(v.Notes[i].Text) {
					v.Dispatch(web.EditNote{Index: i, Text: t})
				}
			}
		})),
		paragraph(text(web.NotesHelp)),
		elem.Form(markup(event.Submit(func(*vecty.Event) {
			n := v.box.Node()
			v.Dispatch(web.EditNote{Index: -1, Text: n.Get("value").String()})
			n.Set("value", "")
		}).PreventDefault()),
			v.box, elem.Button(markup(prop("disabled", off)), text("Add note"))),
	}
	for i, n := range v.Notes {
		place, ok := n.Place(v.Doc)
		num := strconv.Itoa(i + 1)
		items = append(items, div(markup(class("note"), data("note", strconv.Itoa(i))),
			elem.Button(markup(class("note-place"), prop("disabled", !ok)), text(num+". "+pgvalue.SafeText(place))),
			elem.Input(markup(attr("aria-label", "Note "+num), prop("value", pgvalue.SafeText(n.Text)))),
			elem.Button(markup(class("note-delete"), attr("aria-label", "Delete note "+num)), text("Delete"))))
	}
	return div(items...)
}

// noteTarget says what a new note would be on: the selected field, else the selected bytes.
func noteTarget(s *web.State) string {
	if s.Tree() != nil && (s.Node >= 0 || !s.Sel.Empty()) {
		place, _ := web.Note{Msg: s.Msg, Sel: s.Sel, Node: s.Node}.Place(s.Doc)
		return place
	}
	return ""
}

// notesLabel is the notes button's text: "Notes", with their count when there are some.
func notesLabel(n int) string {
	if n == 0 {
		return "Notes"
	}
	return "Notes (" + strconv.Itoa(n) + ")"
}

// notePrefix is a tree row's note marker text: "Note: " and the notes, or "".
func notePrefix(note string) string {
	if note == "" {
		return ""
	}
	return "Note: " + note
}

// notedText adds to the hex view's name how many notes are on its bytes (drawn underlined).
func notedText(n int) string {
	if n == 0 {
		return ""
	}
	return ", " + countOf(n, "note", "notes") + " on these bytes"
}
