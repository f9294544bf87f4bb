package web

import (
	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
)

// CompareSecond is a second input pasted in the comparison (the same change captured with
// another protocol, or in binary mode): when Doc is not nil, the pinned side is its message
// Msg, not a message of the page's input. Its text is read as the text box's is (input
// detection, then the decoder, with the protocol and streaming inferred from the text itself:
// the page's options are the page input's), a chunk at a time up to the message pinned. Err
// says why the text, or a part of it, could not be read (Doc holds what could). A
// CompareSecond never changes once built. It is not in share links; closing the comparison
// forgets it.
type CompareSecond struct {
	Doc *Doc
	// Msg is the message pinned (from 0): the one asked for, or the nearest there is.
	Msg int
	// Asked is the message the number box asks for (from 0), which may be past the end.
	Asked int
	Err   string
	_     [0]func() // never compared: no equality function for it in main.wasm
}

// CompareInput: the second input's text changed. Text is read when it is another text than
// the one read last, and the message the number box asks for (the nearest there is) is pinned;
// an empty text pins the page's message again. Typing says a key typed it, as SetText's does:
// the page's glue reads a long text once typing pauses. Size, when over MaxInput, is the
// text's length in UTF-16 code units (each at least a byte of UTF-8), and Text was not
// copied out of the box.
type CompareInput struct {
	Text   string
	Typing bool
	Size   int
	_      [0]func() // never compared: no equality function for it in main.wasm
}

// ComparePick: the number box asks for the second input's message Msg (from 0); the text is
// not read again.
type ComparePick struct{ Msg int }

func (CompareInput) isAction() {}
func (ComparePick) isAction()  {}

// EffectShowPick asks for the second input's number box to show message Msg (from 1), and to
// go no further than Max (0: no bound): the message pinned, not always the number typed.
type EffectShowPick struct{ Msg, Max int }

func (EffectShowPick) isEffect() {}

// compareInput reads the second input, as the page's text box reads its text (its first
// chunk of messages decoded), when it is not the text read last, and pins the message the
// number box asks for. A text over MaxInput, or of more than MaxMessages messages, is refused.
// The same text again changes nothing.
func (s *State) compareInput(a CompareInput) []Effect {
	sec := &CompareSecond{}
	if old := s.Compare.Second; old != nil {
		if old.Doc != nil && old.Doc.Text == a.Text && a.Size <= MaxInput {
			return nil
		}
		sec.Asked = old.Asked
	}
	if n := max(a.Size, len(a.Text)); n > MaxInput {
		sec.Err = tooLargeText("the second input", n, a.Size > MaxInput)
	} else if a.Text != "" {
		d, ierr := NewDoc(a.Text, input.Auto, decoder.Options{}, 1)
		if ierr != nil {
			sec.Err = "The second input could not be read: " + ierr.Error()
		}
		if n, over := d.tooMany(); over {
			sec.Err = tooManyText(n)
		} else if d != nil && len(d.Messages) > 0 {
			sec.Doc = d
		}
	}
	return s.comparePick(sec, sec.Asked)
}

// comparePick pins message m of the second input sec (the nearest there is), m being the
// number box's (from 0), and has the box show the message pinned.
func (s *State) comparePick(sec *CompareSecond, m int) []Effect {
	sec.Asked, sec.Msg = m, max(m, 0)
	if d := sec.Doc; d != nil {
		sec.Msg = min(sec.Msg, len(d.Messages)-1)
		sec.Doc = d.Through(sec.Msg)
	}
	s.Compare.Second = sec
	f := EffectShowPick{Msg: sec.Msg + 1}
	if sec.Doc != nil {
		f.Max = len(sec.Doc.Messages)
	}
	return []Effect{f}
}

// pinned returns the pinned message and whether it is the second input's.
func (c *CompareState) pinned(d *Doc) (*decoder.Tree, bool) {
	if sec := c.Second; sec != nil && sec.Doc != nil {
		return sec.Doc.Trees[sec.Msg], true
	}
	return d.Trees[c.Pinned], false
}
