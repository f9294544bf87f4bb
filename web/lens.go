package web

import (
	"pgoutput-inspector/decoder"
	"pgoutput-inspector/hexview"
	"pgoutput-inspector/internal/guide"
)

// The version lens in the store: the lens chosen (State.Lens, a guide.Lens), and the
// decoded message's bytes laid out with what the lens lacks marked.

// SetLens: the version lens was chosen whole (a link, a test).
type SetLens struct{ Lens guide.Lens }

// SetLensRelease: a release was chosen in the lens's menu; the protocol version stays as the
// lens has it then. Each menu changes only its own part of the lens in the store, so two
// choices made before the page redraws both hold.
type SetLensRelease struct{ Release int }

// SetLensProto: a protocol version was chosen in the lens's menu; the release stays.
type SetLensProto struct{ Proto int }

func (SetLens) isAction()        {}
func (SetLensRelease) isAction() {}
func (SetLensProto) isAction()   {}

// layout lays out the bytes of t, the chosen message, for the hex view, tinted by field kind:
// the fields that do not exist under the lens marked hexview.ClassAbsent (bytes a newer
// server sent), and, when the comparison compares t with a pinned message, the fields that
// differ marked hexview.ClassDiffers (Comparison.marks), the comparison's mark over the
// lens's; the bytes of a field in error keep their mark. The bytes notes are on are marked
// noted (NotedBytes).
func (s *State) layout(t *decoder.Tree) *hexview.Model {
	lens, cmp := s.Lens, s.Compare.Cmp
	spans := Spans(t)
	if lens.On() {
		for k := range spans {
			if id := int(spans[k].ID); id >= 0 && id < len(t.Nodes) && spans[k].Class != hexview.ClassError && !lens.Node(t, id).Exists {
				spans[k].Class = hexview.ClassAbsent
			}
		}
	}
	if cmp.marks(t) {
		// The spans and the rows' fields of t are both in t's order.
		k := 0
		for _, row := range cmp.Rows {
			if row.B < 0 || row.Diff == DiffSame {
				continue
			}
			for k < len(spans) && spans[k].ID < row.B {
				k++
			}
			if k < len(spans) && spans[k].ID == row.B && spans[k].Class != hexview.ClassError {
				spans[k].Class = hexview.ClassDiffers
			}
		}
	}
	model, err := hexview.New(t.Bytes, spans, hexview.DefaultWidth)
	if err != nil {
		model, _ = hexview.New(t.Bytes, nil, hexview.DefaultWidth)
	}
	if noted := NotedBytes(s.Notes, s.Doc, s.Msg); noted != nil {
		model = model.WithNoted(noted)
	}
	return model
}

// setLens chooses the lens: the chosen message is laid out again, and in the guide the
// address says the lens.
func (s State) setLens(l guide.Lens) (State, []Effect) {
	s.Lens = l.Valid()
	if t := s.Tree(); t != nil {
		s.Model = s.layout(t)
	}
	if s.Guide.Open {
		s.Share = ShareState{}
		return s, []Effect{EffectSetHash{Hash: GuideHash(s.Guide.Entry, s.Lens)}}
	}
	return s, nil
}
