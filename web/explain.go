package web

import "pgoutput-inspector/decoder"

// Explain mode steps through the chosen message field by field: the field explained is the
// node selected (so its bytes are highlighted, and the hex view and the tree show it), and a
// sentence says what its bytes mean in this message, with what the session knew when it was
// decoded.

// Actions of explain mode.
type (
	// SetExplain: explain mode on (at the first field when nothing is selected) or off.
	SetExplain struct{ On bool }
	// ExplainStep: move explain mode to the next, previous, first or last field.
	ExplainStep struct{ Step Step }
)

func (SetExplain) isAction()  {}
func (ExplainStep) isAction() {}

// Step is a move in explain mode.
type Step uint8

// Steps.
const (
	StepNext Step = iota
	StepPrevious
	StepFirst
	StepLast
)

// applyExplain applies the actions of explain mode.
func (s State) applyExplain(a Action) (State, []Effect) {
	switch a := a.(type) {
	case SetExplain:
		s.Explain = a.On
		if a.On && s.Node < 0 {
			return s.explainStep(StepFirst)
		}
	case ExplainStep:
		return s.explainStep(a.Step)
	}
	return s, nil
}

// ExplainText is explain mode's sentence for node i of t: what its bytes mean in this message,
// with what the session knew when it was decoded (the decoder's Tree.Explain, from the field
// table's templates; the command line's decode --explain prints the same sentences).
func ExplainText(t *decoder.Tree, i int) string {
	if i < 0 || i >= len(t.Nodes) {
		return ""
	}
	return t.Explain(i)
}

// ExplainPlace returns the place of node n among the fields (leaves) of t, 0-based (-1 when n
// is not a field), and how many there are.
func ExplainPlace(t *decoder.Tree, n int32) (k, total int) {
	k = -1
	for i := range t.Nodes {
		if t.IsLeaf(i) {
			if int32(i) == n {
				k = total
			}
			total++
		}
	}
	return k, total
}

// explainStep moves explain mode to another field of the chosen message and selects it.
func (s State) explainStep(step Step) (State, []Effect) {
	t := s.Tree()
	if t == nil || len(t.Nodes) == 0 {
		return s, nil
	}
	s.Explain = true
	var n int
	switch {
	case step == StepFirst, step == StepPrevious && s.Node < 0:
		n = nextField(t, -1)
	case step == StepLast:
		n = prevField(t, len(t.Nodes))
	case step == StepNext:
		n = nextField(t, int(s.Node))
	default:
		n = prevField(t, int(s.Node))
	}
	if n < 0 {
		return s, nil
	}
	fx := s.selectNode(int32(n), true)
	s.Reveal++
	return s, fx
}

// nextField returns the first leaf after node i, or -1.
func nextField(t *decoder.Tree, i int) int {
	for j := i + 1; j < len(t.Nodes); j++ {
		if t.IsLeaf(j) {
			return j
		}
	}
	return -1
}

// prevField returns the last leaf before node i, or -1.
func prevField(t *decoder.Tree, i int) int {
	for j := min(i, len(t.Nodes)) - 1; j >= 0; j-- {
		if t.IsLeaf(j) {
			return j
		}
	}
	return -1
}
