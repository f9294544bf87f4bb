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
	Msg int
	Err string
	_   [0]func() // never compared: no equality function for it in main.wasm
}

// CompareInput: the second input's text or the number of its message to pin changed: Text is
// read when it is another text than the one read last, and its message Msg (the nearest there
// is) is pinned. An empty text pins the page's message again.
type CompareInput struct {
	Text string
	Msg  int
	_    [0]func() // never compared: no equality function for it in main.wasm
}

func (CompareInput) isAction() {}

// compareInput reads the second input, as the page's text box reads its text (its first
// chunk of messages decoded), when it is not the text read last, and pins its message. A text
// over MaxInput, or of more than MaxMessages messages, is refused.
func (s *State) compareInput(a CompareInput) {
	var sec CompareSecond
	if old := s.Compare.Second; old != nil && old.Doc != nil && old.Doc.Text == a.Text {
		sec = *old
	} else if len(a.Text) > MaxInput {
		sec.Err = tooLargeText("the second input", len(a.Text), false)
	} else if a.Text != "" {
		d, ierr := NewDoc(a.Text, input.Auto, decoder.Options{}, 1)
		if ierr != nil {
			// A space before the decode's error that change may add.
			sec.Err = "The second input could not be read: " + ierr.Error() + " "
		}
		if n, over := d.tooMany(); over {
			sec.Err = tooManyText(n)
		} else if d != nil && len(d.Messages) > 0 {
			sec.Doc = d
		}
	}
	if d := sec.Doc; d != nil {
		sec.Msg = min(max(a.Msg, 0), len(d.Messages)-1)
		sec.Doc = d.Through(sec.Msg)
	}
	s.Compare.Second = &sec
}

// pinned returns the pinned message and whether it is the second input's.
func (c *CompareState) pinned(d *Doc) (*decoder.Tree, bool) {
	if sec := c.Second; sec != nil && sec.Doc != nil {
		return sec.Doc.Trees[sec.Msg], true
	}
	return d.Trees[c.Pinned], false
}
