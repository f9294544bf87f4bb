package web

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
)

// TestExamplesAssetRoundTrip: the asset AppendExamples writes of the menu reads back with
// ReadExamples as the same examples, and static/examples.txt is the asset of the examples
// the generator makes (AllExamples reads it).
func TestExamplesAssetRoundTrip(t *testing.T) {
	all := AllExamples()
	asset, err := AppendExamples(nil, all)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile("../static/" + ExamplesAsset)
	if err != nil {
		t.Fatal(err)
	}
	if string(committed) != string(asset) {
		t.Errorf("static/%s is not the asset of its own examples: run go test -run TestGenerateExamples -update-examples", ExamplesAsset)
	}
	got, err := ReadExamples(string(asset))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(Examples) {
		t.Fatalf("%d examples read back, want %d", len(got), len(Examples))
	}
	for i := range got {
		if got[i] != all[i] || got[i].Name != Examples[i].Name || got[i].Description != Examples[i].Description {
			t.Errorf("example %d read back as %+.60v, want %+.60v", i, got[i], all[i])
		}
		if i > 0 && strings.Contains(string(asset), Examples[i].Description) {
			t.Errorf("example %d's description is in the asset: the menu holds it", i)
		}
	}
	if got[0] != Examples[0] || strings.Contains(string(asset), "\n@"+Examples[0].Name+" ") {
		t.Error("the first example is not main.wasm's alone")
	}
	// A name with a line break would break its chunk's line.
	bad := append([]Example(nil), all...)
	bad[1].Name = "two\nlines"
	if _, err := AppendExamples(nil, bad); err == nil {
		t.Error("AppendExamples wrote a name with a line break")
	}
}

// TestExamplesAssetErrors: an asset that departs from its layout, or from the menu, is
// refused with an error naming the file and the byte where it departs.
func TestExamplesAssetErrors(t *testing.T) {
	good, err := AppendExamples(nil, AllExamples())
	if err != nil {
		t.Fatal(err)
	}
	asset := string(good)
	second := strings.Index(asset, "\n@"+Examples[2].Name+" ") + 1 // where example 2's chunk starts
	for _, tc := range []struct {
		name, asset, want string
	}{
		{"empty", "", "examples.txt: byte 0: it does not start with the line \"pgoutput-examples 1\""},
		{"another layout", "pgoutput-examples 0\n" + asset[len(examplesMagic)+1:], "examples.txt: byte 0: "},
		{"a chunk's length past the end", asset[:second] + "@x 99999999\nabc\n", "examples.txt: byte " + strconv.Itoa(second) + ": the line \"@x 99999999\" does not frame a chunk"},
		{"no @", asset[:second] + "x 3\nabc\n", "examples.txt: byte " + strconv.Itoa(second) + ": the line \"x 3\" does not frame"},
		{"a length short of the chunk", asset[:second] + "@x 2\nabc\n", "examples.txt: byte " + strconv.Itoa(second) + ": "},
		{"cut inside a chunk", asset[:second+40], "examples.txt: byte " + strconv.Itoa(second) + ": "},
		{"an example missing", asset[:second], "examples.txt has no example \"" + Examples[2].Name + "\""},
		{"a chunk that is no capture", asset + "@" + Examples[2].Name + " 1\nx\n", "examples.txt has no example \"" + Examples[2].Name + "\""},
	} {
		_, err := ReadExamples(tc.asset)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one starting %q", tc.name, err, tc.want)
		}
	}
}

// TestExampleFromAsset: choosing an example after the first fetches the examples asset once,
// the menu showing it chosen and saying that the asset loads; the example is shown when the
// asset arrives. The first example needs no asset.
func TestExampleFromAsset(t *testing.T) {
	asset, err := os.ReadFile("../static/" + ExamplesAsset)
	if err != nil {
		t.Fatal(err)
	}
	s := NewState(0)
	if s.Example != 0 || s.Doc == nil || s.Menu.Loading {
		t.Fatalf("the first example: example %d, loading %v", s.Example, s.Menu.Loading)
	}
	const want = 5
	s, fx := Apply(s, LoadExample{Index: 3})
	s, fx2 := Apply(s, LoadExample{Index: want})
	if len(fx) != 1 || len(fx2) != 0 {
		t.Fatalf("effects %#v then %#v, want one EffectFetchExamples", fx, fx2)
	}
	if _, ok := fx[0].(EffectFetchExamples); !ok {
		t.Fatalf("effect %#v", fx[0])
	}
	if !s.Menu.Loading || s.Example != 0 || s.Menu.Shown(s.Example) != want || !strings.Contains(note(s), "Loading the examples (examples.txt)") {
		t.Fatalf("while loading: example %d, menu shows %d, note %q", s.Example, s.Menu.Shown(s.Example), note(s))
	}
	if s.Text != Examples[0].Text {
		t.Error("the first example's text left before the asset arrived")
	}
	s, fx = Apply(s, ExamplesLoaded{Asset: string(asset)})
	ex := AllExamples()[want]
	if s.Example != want || s.Text != ex.Text || s.Msg != ex.Select || s.Menu.Loading || note(s) != "" || s.Menu.Shown(s.Example) != want {
		t.Errorf("after loading: example %d, message %d, loading %v, note %q", s.Example, s.Msg, s.Menu.Loading, note(s))
	}
	// Once read, every example is shown at once.
	if s2, fx := Apply(s, LoadExample{Index: 1}); len(fx) != 0 && fx[0] == (EffectFetchExamples{}) || s2.Example != 1 || s2.Text != AllExamples()[1].Text {
		t.Errorf("example 1 after loading: example %d, effects %#v", s2.Example, fx)
	}

	// The input changed while the asset loaded: the example is no longer wanted.
	s, _ = Apply(NewState(0), LoadExample{Index: want})
	s, _ = Apply(s, SetText{Text: "42"})
	s, _ = Apply(s, ExamplesLoaded{Asset: string(asset)})
	if s.Example != -1 || s.Text != "42" || s.Menu.Chunks == nil {
		t.Errorf("example %d, text %q after typing while the asset loaded", s.Example, s.Text)
	}
}

// TestExamplesAssetFails: a fetch that fails, or an asset that does not read, leaves the
// example shown and says why, naming the file; choosing again fetches again.
func TestExamplesAssetFails(t *testing.T) {
	for _, loaded := range []ExamplesLoaded{
		{Err: "examples.txt: HTTP 404"},
		{Asset: "<html>not found</html>"},
	} {
		s, _ := Apply(NewState(0), LoadExample{Index: 2})
		s, _ = Apply(s, loaded)
		if s.Example != 0 || s.Text != Examples[0].Text || s.Menu.Loading || s.Menu.Shown(s.Example) != 0 {
			t.Errorf("%+v: example %d, loading %v", loaded, s.Example, s.Menu.Loading)
		}
		if n, failed := s.Menu.Status(); !failed || !strings.HasPrefix(n, "The examples could not be") || !strings.Contains(n, "examples.txt") {
			t.Errorf("%+v: note %q", loaded, n)
		}
		s, fx := Apply(s, LoadExample{Index: 2})
		if len(fx) != 1 || !s.Menu.Loading || s.Menu.Err != "" {
			t.Errorf("%+v: choosing again: effects %#v, loading %v, error %q", loaded, fx, s.Menu.Loading, s.Menu.Err)
		}
	}
}

// note returns what the examples menu says instead of an example's description.
func note(s State) string {
	n, _ := s.Menu.Status()
	return n
}

// TestNewStateLaterExample: a state made with NewState for an example after the first fails
// at once, naming the asset its capture is in, rather than showing nothing: a test that
// needs such an example takes StateOfExample, which reads the asset as the page does.
func TestNewStateLaterExample(t *testing.T) {
	for i := 1; i < len(Examples); i++ {
		if Examples[i].Text != "" || Examples[i].Source != "" {
			t.Errorf("example %d's capture is in main.wasm", i)
		}
	}
	func() {
		defer func() {
			if p, _ := recover().(string); !strings.Contains(p, "NewState(1)") || !strings.Contains(p, ExamplesAsset) {
				t.Errorf("NewState(1) panicked with %q, want it named and the asset", p)
			}
		}()
		s := NewState(1)
		t.Errorf("NewState(1) made a state: example %d, example %d wanted", s.Example, s.Menu.Want)
	}()
	if s := NewState(0); s.Example != 0 || s.Doc == nil {
		t.Errorf("NewState(0): example %d", s.Example)
	}
	if s := NewState(-1); s.Example != -1 || s.Text != "" {
		t.Errorf("NewState(-1): example %d", s.Example)
	}
}

// TestExampleLoadingGivesWayToInput: an input the user makes while the examples asset loads
// (typing, an edit and its undo, a link, a #hex= fragment) is kept when the asset arrives: the
// example chosen before it is no longer wanted.
func TestExampleLoadingGivesWayToInput(t *testing.T) {
	asset, err := os.ReadFile("../static/" + ExamplesAsset)
	if err != nil {
		t.Fatal(err)
	}
	first := NewState(0)
	kind := findNode(t, first, decoder.FieldColumnKind, 0)
	edited := apply(t, first, SelectNode{Node: kind}, Edit{Op: EditSet, Node: kind, Text: "n"})
	if edited.Text == first.Text {
		t.Fatal("the edit changed nothing")
	}
	for _, tc := range []struct {
		name string
		do   []Action
		want func(s State) bool
	}{
		{"typing", []Action{SetText{Text: "42"}}, func(s State) bool { return s.Text == "42" }},
		{"an edit", []Action{SelectNode{Node: kind}, Edit{Op: EditSet, Node: kind, Text: "n"}},
			func(s State) bool { return s.Text == edited.Text && len(s.Edit.Undo) == 1 }},
		{"an edit undone", []Action{SelectNode{Node: kind}, Edit{Op: EditSet, Node: kind, Text: "n"}, Edit{Op: EditUndo}},
			func(s State) bool { return s.Text == first.Text && s.Example == 0 }},
		{"a #hex= fragment", []Action{OpenFragment{Fragment: "#hex=420000000002e34ae0000292492d0f8ae600000de4"}},
			func(s State) bool { return strings.TrimSpace(s.Text) == "420000000002e34ae0000292492d0f8ae600000de4" }},
	} {
		s := apply(t, NewState(0), LoadExample{Index: 5})
		s = apply(t, s, tc.do...)
		s = apply(t, s, ExamplesLoaded{Asset: string(asset)})
		if !tc.want(s) || s.Example == 5 {
			t.Errorf("%s while the asset loaded: example %d shown, text %.40q", tc.name, s.Example, s.Text)
		}
		if s.Menu.Chunks == nil || s.Menu.Shown(s.Example) == 5 {
			t.Errorf("%s while the asset loaded: the asset not kept, or the menu shows example %d", tc.name, s.Menu.Shown(s.Example))
		}
	}
}
