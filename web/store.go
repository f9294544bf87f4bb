package web

import (
	"strconv"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/hexview"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/guide"
)

// Panel names a list whose scroll position the store keeps: rows of hexview.RowHeight drawn
// only where in view (hexview.Viewport). The hex view keeps its own.
type Panel uint8

// Panels.
const (
	PanelList     Panel = iota // the message list
	PanelTree                  // the tree
	PanelChange                // an Update's or Delete's columns before and after
	PanelCatalog               // the relations and types the stream described
	PanelTimeline              // the stream's transactions in order
	numPanels
)

// defaultHeight is a list's height before the page reports it: a screenful of rows, so that
// the first render draws enough of them.
const defaultHeight = 1200

// Theme is the colour theme: follow the system, or forced light or dark.
type Theme string

// Themes.
const (
	ThemeSystem Theme = ""
	ThemeLight  Theme = "light"
	ThemeDark   Theme = "dark"
)

// ShareState is the Share button's progress.
type ShareState struct {
	Busy   bool
	Link   string // the fragment made, "#z1=…"
	Err    string
	Copied bool
	// Part is the part of the input the link being made holds (share.go: shareWhole…);
	// Holds names it when it is not the whole input, whose link was Whole characters long.
	Part  int
	Holds string
	Whole int
	// payload is the whole input's link before compression, which the parts are cut from.
	payload string
}

// State is everything the page shows. Apply never changes a State: it returns a new one, sharing
// what did not change (a Doc, a hex Model and the tree rows are never modified once built).
type State struct {
	// Text is the input text, or a binary file's bytes (FileView); Force the format chosen in
	// the menu (input.Auto: detect). File is the name of the file Text was opened from, or "".
	Text  string
	Force input.Format
	File  string
	// Before is what the parts before it said, when Text is a part of a big file (nil
	// otherwise); it goes with that text only.
	Before *Before
	// Proto and InStream are the decoder options chosen (0 and decoder.Auto: infer).
	Proto    int
	InStream decoder.Choice
	// Doc is the decoded input, nil when the text is empty or could not be read.
	Doc      *Doc
	InputErr *input.Error
	// Stale says that Doc is the last decode that could be read: the text, being typed, does
	// not read now (InputErr says where).
	Stale bool
	// LinkErr says why the URL fragment could not be opened.
	LinkErr string
	// Refused says why the last input was refused as more than the page holds (MaxInput,
	// MaxMessages); what the page showed before stays.
	Refused Refusal
	// refusing is set by reparse when the text holds more than MaxMessages: Apply then
	// returns the state before the action, refusing the input.
	refusing string
	// Example is the index of the example shown, or -1.
	Example int
	// Menu is the examples menu's captures: read from the examples asset when an example
	// after the first is first chosen.
	Menu ExampleMenu

	// Msg is the chosen message; Model lays out its bytes; TreeRows are the tree's visible
	// nodes (those not inside a collapsed node).
	Msg      int
	Model    *hexview.Model
	TreeRows []int32
	// Collapsed holds the collapsed nodes of the chosen message's tree.
	Collapsed map[int32]bool
	// Node is the selected tree node, or -1; Sel the selected bytes.
	Node int32
	Sel  hexview.Range
	// Hover is the node under the pointer (in the tree or the hex view), or -1; HoverBytes its bytes.
	Hover      int32
	HoverBytes hexview.Range
	// Reveal counts selections of tree nodes: the hex view brings the selection into view
	// whenever it changes, even when the same node is chosen again.
	Reveal int
	// Shown counts the messages shown: the hex view starts at the top for another message,
	// and keeps its place when the same one is decoded again after an edit.
	Shown int

	View [numPanels]hexview.Viewport
	// listMoved: the message list's scroll position was reset and the page must follow.
	listMoved bool
	Theme     Theme
	Share     ShareState
	// Export is the Export menu (export.go).
	Export ExportState

	// Guide is the field guide, shown instead of the inspector when open (guide.go).
	Guide GuideState
	// Explain says explain mode steps through the chosen message's fields; the field
	// explained is the one selected (explain.go).
	Explain bool

	// Change is the chosen message's before and after (an Update or a Delete), or nil;
	// ShowChange says the tree's panel shows it instead of the tree.
	Change     *Change
	ShowChange bool

	// Filter is the message list's filter (filter.go); List the list it lets through, kept
	// up to date with Doc by Apply.
	Filter Filter
	List   *List

	// ShowCatalog says the tree's panel shows the relations and types the stream described
	// (Catalog, kept up to date with Doc by Apply while shown) instead of the tree.
	ShowCatalog bool
	Catalog     *Catalog
	// ShowTimeline says the tree's panel shows the stream's transactions in order (Timeline,
	// kept up to date with Doc by Apply while shown) instead of the tree.
	ShowTimeline bool
	Timeline     *Timeline
	// HiddenSpan is 1 + the span of the timeline last clicked whose messages the filter all
	// hides (the choice stayed: the list's status says so), or 0; choosing a message or
	// filtering again clears it.
	HiddenSpan int
	// Compare is two messages side by side, in the tree's place while on (compare.go).
	Compare CompareState
	// Consumer is the Consumer panel, in the tree's place while on (consumer.go).
	Consumer ConsumerState
	// Lens is the version lens, which marks what a release or protocol version lacks in the
	// guide and in the chosen message (lens.go).
	Lens guide.Lens
	// Edit is the editing of the chosen message (edit.go).
	Edit EditState
	// Notes are the notes on fields and bytes (notes.go), never changed in place; ShowNotes
	// says the tree's panel lists them.
	Notes     []Note
	ShowNotes bool
}

// syncList brings List up to date with Doc and Filter.
func (s *State) syncList() {
	if s.List == nil || s.List.Doc != s.Doc || s.List.Query != s.Filter.Query {
		s.List = s.Filter.list(s.Doc, s.List)
	}
}

// Tree returns the chosen message's decode, or nil.
func (s *State) Tree() *decoder.Tree {
	if s.Doc == nil || s.Msg < 0 || s.Msg >= len(s.Doc.Trees) {
		return nil
	}
	return s.Doc.Trees[s.Msg]
}

// Described returns the node the description panel shows: the hovered one, else the selected one.
func (s *State) Described() int32 {
	if s.Hover >= 0 {
		return s.Hover
	}
	return s.Node
}

// Effect is something Apply asks the page's glue to do in the browser.
type Effect interface{ isEffect() }

// EffectCompress asks for Payload compressed with deflate-raw, then a ShareMade action.
type EffectCompress struct{ Payload []byte }

// EffectDecompress asks for Data inflated (deflate-raw), then an OpenShared action. The glue
// stops reading the inflated stream after Limit bytes and answers OpenShared{TooLarge: true}.
type EffectDecompress struct {
	Data  []byte
	Limit int
}

// EffectSetHash asks for the URL fragment to become Hash ("" removes it), as a new history
// entry when Push.
type EffectSetHash struct {
	Hash string
	Push bool
}

// EffectCopy asks for Text on the clipboard, then a Copied action. What says what an export
// is, for its status ("4 bytes as Go"); it is empty for the Share button's link. An export's
// text is made when its menu entry is chosen and held only by the effect.
type EffectCopy struct{ Text, What string }

// EffectScroll asks for a panel to scroll to Top pixels.
type EffectScroll struct {
	Panel Panel
	Top   int
}

// EffectTheme asks for the page's theme to change.
type EffectTheme struct{ Theme Theme }

// EffectSelectText asks for the text box's selection to cover [Start, End), counted in UTF-16
// code units as the browser counts them: the character the input could not be read at, on
// Line at Column (1-based), which the text box scrolls to.
type EffectSelectText struct{ Start, End, Line, Column int }

func (EffectCompress) isEffect()   {}
func (EffectDecompress) isEffect() {}
func (EffectSetHash) isEffect()    {}
func (EffectCopy) isEffect()       {}
func (EffectScroll) isEffect()     {}
func (EffectTheme) isEffect()      {}
func (EffectSelectText) isEffect() {}

// ExampleMenu is what the page has of the examples menu's captures (see ExamplesAsset).
type ExampleMenu struct {
	// Chunks is the examples asset's chunks by example name once it is read (readMenu), else
	// nil: then only the first example's capture is known (Examples[0]).
	Chunks map[string]string
	// Loading says the asset is being fetched; Want is the example chosen meanwhile, shown
	// once the asset is read (-1: none, or the input changed since).
	Loading bool
	Want    int
	// Err says why the asset could not be fetched or read.
	Err string
}

// example returns example i with its capture, or false while its capture is not known.
func (m *ExampleMenu) example(i int) (Example, bool) {
	if i < 0 || i >= len(Examples) || i > 0 && m.Chunks == nil {
		return Example{}, false
	}
	ex := Examples[i]
	if i > 0 {
		ex.Text, ex.Select, ex.Source, _ = captureOf(m.Chunks[ex.Name]) // readMenu checked it
	}
	return ex, true
}

// Shown returns the index of the example the menu shows chosen: the one chosen while the
// asset loads, else example (the index of the example shown, or -1).
func (m *ExampleMenu) Shown(example int) int {
	if m.Want >= 0 {
		return m.Want
	}
	return example
}

// Status returns what the menu's description says instead of the example's description, or
// "": that the asset is loading, or why it could not be had (failed).
func (m *ExampleMenu) Status() (status string, failed bool) {
	switch {
	case m.Want >= 0:
		return "Loading the examples (" + ExamplesAsset + ")…", false
	case m.Err != "":
		return m.Err, true
	}
	return "", false
}

// NewState returns the state of a page showing the first example (ex 0), or nothing (ex -1).
// It panics for an example after the first: its capture is not in main.wasm but in the
// examples asset, which the page fetches when it is chosen (LoadExample, then ExamplesLoaded;
// tests have StateOfExample), and a state made without it would show nothing.
func NewState(ex int) State {
	s := State{Example: -1, Node: -1, Hover: -1, Msg: -1, Menu: ExampleMenu{Want: -1}}
	for p := range s.View {
		s.View[p].Height = defaultHeight
	}
	switch {
	case ex == 0:
		s, _ = Apply(s, LoadExample{Index: ex})
	case ex > 0:
		panic("web.NewState(" + strconv.Itoa(ex) + "): the capture of an example after the first is in " + ExamplesAsset + ", not main.wasm")
	}
	return s
}
