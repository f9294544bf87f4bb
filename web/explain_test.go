package web

import (
	"strings"
	"testing"

	"pgoutput-inspector/hexview"
)

// fieldsOf returns the fields (leaves) of the chosen message, in order.
func fieldsOf(s State) []int32 {
	var f []int32
	t := s.Tree()
	for i := range t.Nodes {
		if t.IsLeaf(i) {
			f = append(f, int32(i))
		}
	}
	return f
}

func TestExplainSteps(t *testing.T) {
	s := NewState(0)
	tr := s.Tree()
	fields := fieldsOf(s)
	s, _ = Apply(s, SetExplain{On: true})
	if !s.Explain || s.Node != fields[0] {
		t.Fatalf("explain on: node %d, want %d", s.Node, fields[0])
	}
	rev := s.Reveal
	for k := 1; k < len(fields); k++ {
		s, _ = Apply(s, ExplainStep{Step: StepNext})
		if s.Node != fields[k] {
			t.Fatalf("step %d: node %d, want %d", k, s.Node, fields[k])
		}
		n := tr.Nodes[s.Node]
		if s.Sel != (hexview.Range{Offset: n.Offset, Length: n.Length}) {
			t.Fatalf("step %d selects %+v, the field is %d+%d", k, s.Sel, n.Offset, n.Length)
		}
		if place, total := ExplainPlace(tr, s.Node); place != k || total != len(fields) {
			t.Fatalf("step %d: place %d of %d", k, place, total)
		}
	}
	if s.Reveal != rev+len(fields)-1 {
		t.Errorf("the hex view was asked to reveal %d times, want %d", s.Reveal-rev, len(fields)-1)
	}
	// Past the last field Next stays; Previous goes back; First and Last.
	last := s.Node
	s, _ = Apply(s, ExplainStep{Step: StepNext})
	if s.Node != last {
		t.Errorf("Next after the last field moved to %d", s.Node)
	}
	s, _ = Apply(s, ExplainStep{Step: StepPrevious})
	if s.Node != fields[len(fields)-2] {
		t.Errorf("Previous: %d", s.Node)
	}
	s, _ = Apply(s, ExplainStep{Step: StepFirst})
	if s.Node != fields[0] {
		t.Errorf("First: %d", s.Node)
	}
	s, _ = Apply(s, ExplainStep{Step: StepLast})
	if s.Node != last {
		t.Errorf("Last: %d", s.Node)
	}
	// From a group, Next is its first field; Previous the field before it.
	group := tr.Nodes[0].End // not a field: find one
	for i := range tr.Nodes {
		if !tr.IsLeaf(i) && i > 0 {
			group = int32(i)
			break
		}
	}
	s, _ = Apply(s, SelectNode{Node: group})
	s, _ = Apply(s, ExplainStep{Step: StepNext})
	if s.Node != group+1 || !tr.IsLeaf(int(s.Node)) {
		t.Errorf("Next from group %d: %d", group, s.Node)
	}
	s, _ = applyAll(s, SelectNode{Node: group}, ExplainStep{Step: StepPrevious})
	if s.Node != group-1 {
		t.Errorf("Previous from group %d: %d", group, s.Node)
	}
	s, _ = Apply(s, SetExplain{On: false})
	if s.Explain {
		t.Error("explain still on")
	}
}

// TestExplainEveryExample: explain mode goes through every field of every example's message,
// each with a sentence of its own.
func TestExplainEveryExample(t *testing.T) {
	for k, ex := range Examples {
		s, _ := applyAll(StateOfExample(k), SetExplain{On: true})
		tr := s.Tree()
		fields := fieldsOf(s)
		for i, f := range fields {
			if s.Node != f {
				t.Fatalf("%s: step %d at node %d, want %d", ex.Name, i, s.Node, f)
			}
			if text := ExplainText(tr, int(f)); strings.TrimSpace(text) == "" {
				t.Errorf("%s: node %d (%s) has no sentence", ex.Name, f, tr.Label(int(f)))
			}
			s, _ = Apply(s, ExplainStep{Step: StepNext})
		}
	}
}

func TestShareKeepsExplain(t *testing.T) {
	s, _ := applyAll(NewState(0), SetExplain{On: true}, ExplainStep{Step: StepNext})
	_, fx := Apply(s, Share{})
	var payload []byte
	for _, e := range fx {
		if c, ok := e.(EffectCompress); ok {
			payload = c.Payload
		}
	}
	sh, err := ParseSharePayload(payload)
	if err != nil || !sh.Explain {
		t.Fatalf("payload %q read as %+v, %v", payload, sh, err)
	}
	o, _ := Apply(NewState(-1), OpenShared{Payload: payload})
	if !o.Explain || o.Node != s.Node || o.Msg != s.Msg {
		t.Errorf("opened: explain %v node %d msg %d; want true %d %d", o.Explain, o.Node, o.Msg, s.Node, s.Msg)
	}
}
