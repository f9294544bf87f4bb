package web

import (
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/internal/guide"
)

// viewAsset writes a view asset as web/guideview does, with the given chunks ("KIND ID",
// content) in order.
func viewAsset(chunks ...string) string {
	b := GuideViewMagic + "\n"
	for i := 0; i+1 < len(chunks); i += 2 {
		b += "@" + chunks[i] + " " + strconv.Itoa(len(chunks[i+1])) + "\n" + chunks[i+1] + "\n"
	}
	return b
}

// guideLoaded is the page's answer to EffectFetchGuide: a view asset with an entry per
// message type (the web/guideview tests check the real one).
func guideLoaded(t *testing.T) GuideLoaded {
	t.Helper()
	var chunks []string
	for _, e := range guide.Data().Entries {
		chunks = append(chunks, "nav "+e.ID, "<ul>\n</ul>", "head "+e.ID, "<h2>"+e.ID+"</h2>", "tail "+e.ID, "")
	}
	chunks = append(chunks, "page "+guide.VersionsPage, "<h2>Releases</h2>")
	return GuideLoaded{View: viewAsset(chunks...)}
}

// applyAll applies actions in turn and returns the state and the effects of the last one.
func applyAll(s State, acts ...Action) (State, []Effect) {
	var fx []Effect
	for _, a := range acts {
		s, fx = Apply(s, a)
	}
	return s, fx
}

func hashOf(fx []Effect) (string, bool, bool) {
	for _, e := range fx {
		if h, ok := e.(EffectSetHash); ok {
			return h.Hash, h.Push, true
		}
	}
	return "", false, false
}

func TestOpenGuideAtTheChosenMessage(t *testing.T) {
	s := StateOfExample(0) // the Insert example, the examples asset read
	s, fx := Apply(s, OpenGuide{})
	if !s.Guide.Open || s.Guide.Entry != "insert" || !s.Guide.Loading {
		t.Fatalf("guide %+v, want open at insert and loading", s.Guide)
	}
	var fetch bool
	for _, e := range fx {
		_, fetch = e.(EffectFetchGuide)
		if fetch {
			break
		}
	}
	if !fetch {
		t.Errorf("effects %#v: no fetch of the guide's asset", fx)
	}
	if h, push, ok := hashOf(fx); !ok || h != "#guide=insert" || !push {
		t.Errorf("hash %q (push %v), want #guide=insert pushed", h, push)
	}
	s, _ = Apply(s, guideLoaded(t))
	if s.Guide.View == nil || s.Guide.Loading || s.Guide.Err != "" || s.Guide.First != "begin" {
		t.Fatalf("guide after loading: %+v", s.Guide)
	}
	if s.Guide.Entry != "insert" || s.Guide.View["head insert"] != "<h2>insert</h2>" || s.Guide.View["nav insert"] != "<ul>\n</ul>" {
		t.Fatalf("entry %q, view %q", s.Guide.Entry, s.Guide.View["head insert"])
	}
	// The inspector is left as it was.
	if s.Tree() == nil || s.Msg != 0 && guide.EntryID(s.Tree()) != "insert" {
		t.Errorf("the inspector's message changed")
	}
	// A second opening fetches nothing.
	s, fx = Apply(s, CloseGuide{})
	if s.Guide.Open {
		t.Fatal("CloseGuide left the guide open")
	}
	if h, push, ok := hashOf(fx); !ok || h != "" || !push {
		t.Errorf("closing: hash %q push %v, want the fragment left as a new history entry", h, push)
	}
	_, fx = Apply(s, OpenGuide{Entry: "update"})
	for _, e := range fx {
		if _, ok := e.(EffectFetchGuide); ok {
			t.Errorf("the guide was fetched twice")
		}
	}
	// Choosing an example or typing leaves the guide.
	s, _ = applyAll(s, OpenGuide{Entry: "update"}, LoadExample{Index: 1})
	if s.Guide.Open {
		t.Error("LoadExample left the guide open")
	}
	s, _ = applyAll(s, OpenGuide{Entry: "update"}, SetText{Text: "42"})
	if s.Guide.Open {
		t.Error("SetText left the guide open")
	}
}

func TestGuideLoadFails(t *testing.T) {
	s, _ := applyAll(NewState(0), OpenGuide{Entry: "update"}, GuideLoaded{Err: "guideview.txt: HTTP 404"})
	if s.Guide.View != nil || !strings.Contains(s.Guide.Err, "HTTP 404") || !s.Guide.Open || s.Guide.Loading {
		t.Errorf("guide %+v", s.Guide)
	}
	for _, bad := range []string{
		"pgoutput-guide-view 1\n@head begin\n<h2>Begin</h2>\n", // another build's layout
		GuideViewMagic + "\n@head begin 99\n<h2>Begin</h2>\n",  // a length past the end
		GuideViewMagic + "\n@head begin 3\n<h2>Begin</h2>\n",   // a length short of the line
		GuideViewMagic + "\nhead begin 3\nabc\n",               // no @
		GuideViewMagic + "\n@nav begin 3\nabc\n",               // no entry
		"",
	} {
		s, _ := applyAll(NewState(0), OpenGuide{Entry: "update"}, GuideLoaded{View: bad})
		if s.Guide.View != nil || !strings.Contains(s.Guide.Err, "could not be read") {
			t.Errorf("%q: guide %+v", bad, s.Guide)
		}
	}
}

func TestReadGuideView(t *testing.T) {
	b := viewAsset("nav a", "<a>\n</a>", "head a", "", "head b", "x y", "example a", "2\nsrc\nline 1\nline 2\n")
	view, first, err := ReadGuideView(b)
	if err != nil || first != "a" {
		t.Fatalf("%v, first %q", err, first)
	}
	want := map[string]string{"nav a": "<a>\n</a>", "head a": "", "head b": "x y", "example a": "2\nsrc\nline 1\nline 2\n"}
	if len(view) != len(want) {
		t.Errorf("view %q", view)
	}
	for k, v := range want {
		if view[k] != v {
			t.Errorf("%s: %q, want %q", k, view[k], v)
		}
	}
}

func TestGuideLinks(t *testing.T) {
	loaded := guideLoaded(t)
	s, fx := Apply(NewState(0), OpenFragment{Fragment: "#guide=update"})
	if !s.Guide.Open || s.Guide.Entry != "update" {
		t.Fatalf("#guide=update opened %+v", s.Guide)
	}
	if _, _, ok := hashOf(fx); ok {
		t.Errorf("opening a link set the address: %#v", fx)
	}
	s, _ = Apply(s, loaded)
	if s.Guide.Entry != "update" || s.Guide.Err != "" {
		t.Fatalf("entry %q, error %q", s.Guide.Entry, s.Guide.Err)
	}
	// An entry link inside the guide (a plain #guide= anchor).
	s, _ = Apply(s, OpenFragment{Fragment: "#guide=delete"})
	if s.Guide.Entry != "delete" || !s.Guide.Open {
		t.Errorf("entry %s", s.Guide.Entry)
	}
	// Share makes the guide's own link.
	s, fx = Apply(s, Share{})
	if s.Share.Link != "#guide=delete" {
		t.Errorf("share link %q", s.Share.Link)
	}
	if h, push, _ := hashOf(fx); h != "#guide=delete" || !push {
		t.Errorf("share hash %q push %v", h, push)
	}
	// Back to the page without a fragment is the inspector, as it was.
	text := s.Text
	s, _ = Apply(s, OpenFragment{Fragment: ""})
	if s.Guide.Open || s.Text != text || s.Tree() == nil {
		t.Error("an empty fragment left the guide open or changed the inspector")
	}
	// An entry the guide lacks shows the first entry; the versions page has no entry.
	s, _ = Apply(s, OpenFragment{Fragment: "#guide=nosuch"})
	if !s.Guide.Open || s.Guide.Entry != s.Guide.First {
		t.Errorf("#guide=nosuch: %q", s.Guide.Entry)
	}
	s, _ = Apply(s, OpenFragment{Fragment: "#guide=" + guide.VersionsPage})
	if s.Guide.Entry != guide.VersionsPage {
		t.Errorf("versions page: entry %q", s.Guide.Entry)
	}
	// A hex link leaves the guide.
	s, _ = Apply(s, OpenFragment{Fragment: "#hex=420000000002e34ae0000292492d0f8ae600000de4"})
	if s.Guide.Open || s.Tree() == nil || guide.EntryID(s.Tree()) != "begin" {
		t.Errorf("a hex link: guide open %v", s.Guide.Open)
	}
}

func TestGuideEntryForEveryMessage(t *testing.T) {
	g := guide.Data()
	for _, m := range decoder.Messages() {
		if id := guide.EntryOf(m.Group); g.Entry(id) == nil {
			t.Errorf("%s: no guide entry %q", m.Group.Info().Name, id)
		}
	}
	for _, f := range []decoder.FieldID{decoder.FieldTupleNew, decoder.FieldColumnKind, decoder.FieldCopyData,
		decoder.FieldXLogData, decoder.FieldKeepalive, decoder.FieldStandbyStatus, decoder.FieldHotStandby} {
		if id := guide.EntryOf(f); g.Entry(id) == nil {
			t.Errorf("%s: no guide entry %q", f.Info().Name, id)
		}
	}
	// The frontend/backend protocol's messages: every group a decoded message can have (an
	// authentication request's code, the client's 'p' answer by the request it answers).
	for _, w := range decoder.WireMessages() {
		if id := guide.EntryOf(w.Group); g.Entry(id) == nil {
			t.Errorf("%s: no guide entry %q", w.Name(), id)
		}
	}
	for f := decoder.FieldAuthentication; f <= decoder.FieldGSSResponse; f++ {
		if f.Info().Kind != decoder.KindGroup {
			continue
		}
		id := guide.EntryOf(f)
		if e := g.Entry(id); e == nil || e.Layer != guide.LayerWire {
			t.Errorf("%s: no guide entry %q", f.Info().Name, id)
		}
	}
	for f, want := range map[decoder.FieldID]string{decoder.FieldSASLResponse: "saslresponse", decoder.FieldAuthSASLFinal: "authentication-request",
		decoder.FieldCopyRow: "copy-data", decoder.FieldPasswordMessage: "passwordmessage", decoder.FieldGSSResponse: "gssresponse"} {
		if got := guide.EntryOf(f); got != want {
			t.Errorf("guide.EntryOf(%s) = %q, want %q", f.Info().Name, got, want)
		}
	}
	for _, ex := range AllExamples() {
		d, _ := NewDoc(ex.Text, "", decoder.Options{}, -1)
		if id := guide.EntryID(d.Trees[ex.Select]); g.Entry(id) == nil {
			t.Errorf("example %s: no guide entry %q", ex.Name, id)
		}
	}
}

func TestOpenExampleInInspector(t *testing.T) {
	l := guideLoaded(t)
	ex := AllExamples()[exampleByName("Update, key changed")]
	l.View += "@example update " + strconv.Itoa(len(strconv.Itoa(ex.Select)+"\nsrc\n"+ex.Text)) + "\n" + strconv.Itoa(ex.Select) + "\nsrc\n" + ex.Text + "\n"
	s, _ := applyAll(NewState(0), OpenGuide{Entry: "update"}, l)
	if text, sel, ok := s.Guide.ExampleOf("update"); !ok || text != ex.Text || sel != ex.Select {
		t.Fatalf("example of update: %v %d", ok, sel)
	}
	s, fx := Apply(s, OpenExample{Explain: true})
	if s.Guide.Open || s.Text != ex.Text || s.Msg != ex.Select || guide.EntryID(s.Tree()) != "update" {
		t.Fatalf("after OpenExample: guide open %v, message %d (want %d)", s.Guide.Open, s.Msg, ex.Select)
	}
	if h, push, ok := hashOf(fx); !ok || h != "" || !push {
		t.Errorf("hash %q push %v: want the guide's fragment left as a new history entry", h, push)
	}
	if !s.Explain || s.Node != int32(nextField(s.Tree(), -1)) {
		t.Errorf("explain %v at node %d, want the first field", s.Explain, s.Node)
	}
	// Without explain; an entry without an example opens nothing.
	s, _ = applyAll(s, OpenGuide{Entry: "update"}, OpenExample{})
	if s.Guide.Open || s.Explain || s.Msg != ex.Select {
		t.Errorf("plain OpenExample: guide %v explain %v msg %d", s.Guide.Open, s.Explain, s.Msg)
	}
	s, _ = applyAll(s, OpenGuide{Entry: "delete"}, OpenExample{})
	if !s.Guide.Open {
		t.Error("an entry without an example left the guide")
	}
}
