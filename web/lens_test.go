package web

import (
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/hexview"
	"pgoutput-inspector/internal/guide"
)

// absentSpans counts the hex view's bytes marked as absent under the lens.
func absentSpans(m *hexview.Model, t *decoder.Tree, l guide.Lens) (marked, want int) {
	for _, sp := range Spans(t) {
		if sp.ID >= 0 && sp.Class != hexview.ClassError && !l.Node(t, int(sp.ID)).Exists {
			want += sp.Length
		}
	}
	for off := range t.Bytes {
		if f, ok := m.FieldAt(off); ok && f.Class == hexview.ClassAbsent {
			marked++
		}
	}
	return marked, want
}

// TestLensMarksTheChosenMessage: a Stream Start does not exist in PostgreSQL 13 nor with
// protocol 1: the lens marks its bytes and nodes, says since when, and marks nothing in 16.
func TestLensMarksTheChosenMessage(t *testing.T) {
	s := StateOfExample(exampleNamed(t, "Streamed transaction"))
	tr := s.Tree()
	if tr == nil || guide.EntryID(tr) != "stream-start" {
		t.Fatalf("the example opens %v", tr)
	}
	for _, l := range []guide.Lens{{Release: 13}, {Proto: 1}, {Release: 16, Proto: 1}} {
		s, _ = Apply(s, SetLens{Lens: l})
		if s.Lens != l {
			t.Fatalf("lens %+v, want %+v", s.Lens, l)
		}
		marked, want := absentSpans(s.Model, tr, l)
		if marked == 0 || marked != want {
			t.Errorf("%s: %d bytes marked absent, want %d (not 0)", l.Name(), marked, want)
		}
		if got := l.Absent(tr, tr.Message); got != "since PostgreSQL 14, protocol 2" {
			t.Errorf("%s: the Stream Start node is absent %q", l.Name(), got)
		}
		if got := l.AbsentMessage('S'); got != "since PostgreSQL 14, protocol 2" {
			t.Errorf("%s: message S absent %q", l.Name(), got)
		}
	}
	s, _ = Apply(s, SetLens{Lens: guide.Lens{Release: 16}})
	if marked, _ := absentSpans(s.Model, tr, s.Lens); marked != 0 || s.Lens.Absent(tr, tr.Message) != "" || s.Lens.AbsentMessage('S') != "" {
		t.Errorf("PostgreSQL 16 marks %d bytes of a Stream Start", marked)
	}
	// Begin exists everywhere; an envelope or an unknown type is never marked.
	for _, typ := range []byte{'B', 'k', 'w', 0} {
		if got := (guide.Lens{Release: 10, Proto: 1}).AbsentMessage(typ); got != "" {
			t.Errorf("type %q absent in 10: %q", typ, got)
		}
	}
	// A TupleData 'b' column exists from PostgreSQL 14 only: its kind byte is marked in 13.
	s = StateOfExample(exampleNamed(t, "Insert, binary values"))
	s, _ = Apply(s, SetLens{Lens: guide.Lens{Release: 13}})
	tr = s.Tree()
	found := false
	for i := range tr.Nodes {
		if tr.Nodes[i].Field == decoder.FieldColumnKind && tr.ValueOf(i).Num == 'b' {
			found = true
			if got := s.Lens.Absent(tr, i); got != "since PostgreSQL 14" {
				t.Errorf("a 'b' column kind in 13: %q", got)
			}
		}
	}
	if !found {
		t.Error("the binary example has no 'b' column")
	}
}

// TestLensInLinks: the lens goes into the guide's address and Share link, and into z1 and
// hand-written links, and comes back out of them.
func TestLensInLinks(t *testing.T) {
	s, _ := Apply(NewState(0), OpenFragment{Fragment: "#guide=update&release=13"})
	s, _ = Apply(s, guideLoaded(t))
	if !s.Guide.Open || s.Guide.Entry != "update" || s.Lens != (guide.Lens{Release: 13}) {
		t.Fatalf("guide %q lens %+v", s.Guide.Entry, s.Lens)
	}
	s, fx := Apply(s, SetLens{Lens: guide.Lens{Release: 15, Proto: 3}})
	if h, push, _ := hashOf(fx); h != "#guide=update&release=15&protocol=3" || push {
		t.Errorf("lens chosen in the guide: address %q push %v", h, push)
	}
	// An entry link inside the guide names the entry only: the lens stays and the address
	// says it again.
	s, fx = Apply(s, OpenFragment{Fragment: "#guide=delete"})
	if h, _, _ := hashOf(fx); h != "#guide=delete&release=15&protocol=3" || s.Lens != (guide.Lens{Release: 15, Proto: 3}) {
		t.Errorf("entry link: address %q lens %+v", h, s.Lens)
	}
	s, _ = Apply(s, Share{})
	if s.Share.Link != "#guide=delete&release=15&protocol=3" {
		t.Errorf("guide share link %q", s.Share.Link)
	}
	// The inspector's Share link carries the lens.
	s, _ = Apply(s, CloseGuide{})
	s, fx = Apply(s, Share{})
	var payload []byte
	for _, e := range fx {
		if c, ok := e.(EffectCompress); ok {
			payload = c.Payload
		}
	}
	sh, err := ParseSharePayload(payload)
	if err != nil || sh.Lens != (guide.Lens{Release: 15, Proto: 3}) {
		t.Fatalf("share payload lens %+v, %v", sh.Lens, err)
	}
	o, _ := Apply(NewState(-1), OpenShared{Payload: payload})
	if o.Lens != (guide.Lens{Release: 15, Proto: 3}) || o.Tree() == nil {
		t.Errorf("opened share link: lens %+v", o.Lens)
	}
	// A hand-written link may name the lens; a release the lens does not know is refused
	// with the parameter named.
	o, _ = Apply(NewState(-1), OpenFragment{Fragment: "#hex=420000000002e34ae0000292492d0f8ae600000de4&release=12&protocol=1"})
	if o.Lens != (guide.Lens{Release: 12, Proto: 1}) || o.Tree() == nil {
		t.Errorf("hex link: lens %+v", o.Lens)
	}
	for _, frag := range []string{"#guide=update&release=9", "#guide=update&protocol=0", "#guide=update&release=x"} {
		if _, err := ParseFragment(frag); err == nil {
			t.Errorf("%s: no error", frag)
		}
	}
	// A z1 payload with a lens the page does not know opens its input, lens left out.
	o, _ = Apply(NewState(-1), OpenShared{Payload: []byte("release=99\nprotocol=7\n\n420000000002e34ae0000292492d0f8ae600000de4\n")})
	if o.Lens.On() || o.Tree() == nil || o.LinkErr != "" {
		t.Errorf("unknown lens in z1: lens %+v, error %q", o.Lens, o.LinkErr)
	}
}

// TestLensMenus: each menu changes its own part of the lens as the store has it, so two
// choices made before the page redraws (the menus still showing the older lens) both hold.
func TestLensMenus(t *testing.T) {
	s, _ := Apply(NewState(0), SetLens{Lens: guide.Lens{Release: 14, Proto: 1}})
	s, _ = Apply(s, SetLensRelease{Release: 0})
	s, _ = Apply(s, SetLensProto{Proto: 0})
	if s.Lens.On() {
		t.Errorf("any release, then any protocol: lens %+v", s.Lens)
	}
	s, _ = Apply(s, SetLensProto{Proto: 4})
	s, _ = Apply(s, SetLensRelease{Release: 16})
	if s.Lens != (guide.Lens{Release: 16, Proto: 4}) {
		t.Errorf("protocol 4, then PostgreSQL 16: lens %+v", s.Lens)
	}
	// A release older than the protocol version chosen takes the protocol back to any.
	s, _ = Apply(s, SetLensRelease{Release: 13})
	if s.Lens != (guide.Lens{Release: 13}) {
		t.Errorf("PostgreSQL 13 after protocol 4: lens %+v", s.Lens)
	}
}
