package web

import (
	"errors"
	"strings"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/guide"
)

// The field guide's view in the store: which entry is open and the guide's pages, read from
// their asset when the guide is first opened (so that the guide costs the first decode
// nothing).

// GuideViewAsset is the guide's file beside main.wasm, which ./build.sh wasm writes: the HTML
// of its pages and the captures of its examples, rendered at build time from the guide
// (web/guideview) and inserted as the page shows them. Drawing the guide's long, fixed
// text with vecty, or reading the guide's data in the page, would cost main.wasm far more than
// the asset costs the first opening of the guide.
// size: docs/performance.md, "Size tricks".
const GuideViewAsset = "guideview.txt"

// GuideViewMagic is the view asset's first line; a new layout gets a new number.
const GuideViewMagic = "pgoutput-guide-view 2"

// GuideState is the field guide as the page shows it.
type GuideState struct {
	// Open says the guide is shown instead of the inspector.
	Open bool
	// Entry is the ID of the entry shown (guide.VersionsPage for the versions page).
	Entry string
	// Loading says the view asset is being fetched; Err says why it could not be read.
	Loading bool
	Err     string
	// View is the view asset once read (ReadGuideView): the chunks of each entry by "KIND ID"
	// ("nav update", "head update", "tail update", "example update"), "page versions", and
	// "cmp K" for each capture compared across releases; nil until read.
	View map[string]string
	// First is the ID of the guide's first entry.
	First string
}

// Actions of the field guide.
type (
	// OpenGuide: show the guide at an entry ("": the entry of the message chosen in the
	// inspector, else the one shown last, else the first).
	OpenGuide struct{ Entry string }
	// CloseGuide: back to the inspector.
	CloseGuide struct{}
	// GuideLoaded: the guide's view asset arrived (or Err says why not).
	GuideLoaded struct {
		View string
		Err  string
	}
	// OpenExample: open the entry's example in the inspector, in explain mode when Explain.
	OpenExample struct{ Explain bool }
)

func (OpenGuide) isAction()   {}
func (CloseGuide) isAction()  {}
func (GuideLoaded) isAction() {}
func (OpenExample) isAction() {}

// EffectFetchGuide asks for the guide's view asset (GuideViewAsset), then a GuideLoaded action.
type EffectFetchGuide struct{}

func (EffectFetchGuide) isEffect() {}

// applyGuide applies the actions of the field guide, and of explain mode (explain.go).
func (s State) applyGuide(a Action) (State, []Effect) {
	switch a := a.(type) {
	case OpenGuide:
		id := a.Entry
		if t := s.Tree(); id == "" && t != nil {
			id = guide.EntryID(t)
		}
		s, fx := s.showGuide(id)
		return s, append(fx, EffectSetHash{Hash: GuideHash(s.Guide.Entry, s.Lens), Push: true})
	case CloseGuide:
		if !s.Guide.Open {
			return s, nil
		}
		s.Guide.Open = false
		s.Share = ShareState{}
		return s, []Effect{EffectSetHash{Hash: "", Push: true}}
	case GuideLoaded:
		s.Guide.Loading = false
		if a.Err != "" {
			s.Guide.Err = "The field guide could not be loaded: " + a.Err + "."
			return s, nil
		}
		view, first, err := ReadGuideView(a.View)
		if err != nil {
			s.Guide.Err = "The field guide could not be read: " + err.Error() + "."
			return s, nil
		}
		s.Guide.View, s.Guide.First, s.Guide.Err = view, first, ""
		return s.showEntry(s.Guide.Entry), nil
	case OpenExample:
		text, sel, ok := s.Guide.ExampleOf(s.Guide.Entry)
		if !ok {
			return s, nil
		}
		return s.openCapture(text, sel, a.Explain)
	case SetExplain, ExplainStep:
		return s.applyExplain(a)
	case SetLens:
		return s.setLens(a.Lens)
	case SetLensRelease:
		return s.setLens(guide.Lens{Release: a.Release, Proto: s.Lens.Proto})
	case SetLensProto:
		return s.setLens(guide.Lens{Release: s.Lens.Release, Proto: a.Proto})
	}
	return s, nil
}

// showGuide opens the guide at entry id (see OpenGuide), fetching its asset the first time.
func (s State) showGuide(id string) (State, []Effect) {
	if id == "" {
		id = s.Guide.Entry
	}
	s.Guide.Open = true
	s.Share = ShareState{}
	s = s.showEntry(id)
	if s.Guide.View == nil && !s.Guide.Loading {
		s.Guide.Loading, s.Guide.Err = true, ""
		return s, []Effect{EffectFetchGuide{}}
	}
	return s, nil
}

// showEntry shows entry id (the first entry for "" or an ID the guide does not have).
func (s State) showEntry(id string) State {
	s.Guide.Entry = id
	g := &s.Guide
	if g.View != nil && id != guide.VersionsPage && !g.HasEntry(id) {
		g.Entry = g.First
	}
	return s
}

// ExampleOf returns the capture of entry id's example and the index of its message, from the
// "example ID" chunk (captureOf).
func (g *GuideState) ExampleOf(id string) (text string, sel int, ok bool) {
	text, sel, _, ok = captureOf(g.View["example "+id])
	return text, sel, ok
}

// openCapture shows a capture from the guide in the inspector, message m chosen (and its
// first field explained, when explain), and leaves the guide. The address loses the guide's
// fragment as a new history entry, so Back returns to the guide.
func (s State) openCapture(text string, m int, explain bool) (State, []Effect) {
	s.Text, s.Force, s.Proto, s.InStream, s.Example = text, input.Auto, 0, decoder.Auto, -1
	s = s.reparse(m)
	var fx []Effect
	if s.Doc != nil && m >= 0 && m < len(s.Doc.Trees) {
		fx = s.selectMessage(m, true)
	}
	s.Guide.Open, s.Explain, s.Share = false, false, ShareState{}
	if explain {
		var more []Effect
		s, more = s.explainStep(StepFirst)
		fx = append(fx, more...)
	}
	return s, append(fx, EffectSetHash{Hash: "", Push: true})
}

// HasEntry reports whether the guide, once read, has entry id.
func (g *GuideState) HasEntry(id string) bool {
	_, ok := g.View["head "+id]
	return ok
}

// GuideHash is the fragment of a guide entry, with the version lens: "#guide=update",
// "#guide=update&release=13".
func GuideHash(entry string, l guide.Lens) string { return "#guide=" + entry + l.Query() }

// openGuideLink opens a #guide= link: the guide at its entry, through the link's lens. The
// address already says it, so nothing is pushed. A link inside the guide names the entry
// only: the lens chosen stays, and the address is written again to say it.
func (s State) openGuideLink(f Fragment) (State, []Effect) {
	s.LinkErr = ""
	if f.HasLens {
		s.Lens = f.Lens.Valid()
	}
	s, fx := s.showGuide(f.Guide)
	if !f.HasLens && s.Lens.On() {
		fx = append(fx, EffectSetHash{Hash: GuideHash(s.Guide.Entry, s.Lens)})
	}
	return s, fx
}

// shareGuide makes the Share button's link for the guide: its fragment, short enough to need
// no compression.
func (s State) shareGuide() (State, []Effect) {
	link := GuideHash(s.Guide.Entry, s.Lens)
	s.Share = ShareState{Link: link}
	return s, []Effect{EffectSetHash{Hash: link, Push: true}, EffectCopy{Text: link}}
}

// ReadGuideView reads the view asset (see web/guideview): chunks (readChunks) after the
// GuideViewMagic line. It returns the chunks by "KIND ID" and the ID of the first entry (the
// first "head" chunk's).
func ReadGuideView(asset string) (view map[string]string, first string, err error) {
	view = map[string]string{}
	err = readChunks(asset, GuideViewAsset, GuideViewMagic, func(key, c string) {
		view[key] = c
		if id, ok := strings.CutPrefix(key, "head "); ok && first == "" {
			first = id
		}
	})
	if err == nil && first == "" {
		err = errors.New(GuideViewAsset + " has no entries")
	}
	if err != nil {
		return nil, "", err
	}
	return view, first, nil
}
