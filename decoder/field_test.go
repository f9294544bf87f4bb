package decoder

import "testing"

// TestEveryFieldEmitted: each field description belongs to a field the decoder emits, on the
// real corpus or on the hand-built messages of the other tests, and each describes itself.
func TestEveryFieldEmitted(t *testing.T) {
	seen := make([]bool, NumFields)
	see := func(s *Session, b []byte) {
		tr := s.Decode(b)
		for i := range tr.Nodes {
			seen[tr.Nodes[i].Field] = true
		}
	}
	for _, c := range corpusCaptures(t) {
		s := NewSession(Options{})
		for _, b := range c.msgs {
			see(s, b)
		}
	}
	for _, b := range fuzzSeeds() {
		see(NewSession(Options{}), b)
	}
	see(NewSession(Options{}), []byte("Zq"))                                      // unknown type, undecoded
	see(NewSession(Options{}), wire{}.b1('E').raw("x"))                           // trailing
	see(NewSession(Options{}), wire{}.b1('h').i64(1).i32(2).i32(3).i32(4).i32(5)) // hot standby feedback
	see(NewSession(Options{}), wire{}.b1('r').i64(1).i64(2).i64(3).i64(4).b1(0))  // standby status
	// The frontend/backend protocol's fields are emitted by the captures of
	// testdata/conversation (TestEveryConversationFieldEmitted).
	for id := FieldID(0); id < wireFieldsStart; id++ {
		info := id.Info()
		if info.Name == "" || info.Meaning == "" {
			t.Errorf("field %d has no name or meaning", id)
		}
		if id != FieldUnknown && !seen[id] {
			t.Errorf("field %s (%s) is described but never emitted", info.Name, info.Of)
		}
	}
}
