package web

import (
	"maps"
	"strings"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/hexview"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/dumpjob"
	"pgoutput-inspector/internal/export"
)

// Action is a user event or a browser answer, sent up by components and the glue to Apply.
type Action interface{ isAction() }

// Actions.
type (
	// SetText: the input text changed (typed, pasted, opened from a file or dropped). Typing
	// says it came from a key press rather than a paste, a file or a drop: the page may wait
	// for a pause in typing before it reads a long text again. File says it is a file opened
	// or dropped: another input, shown from its first message, where an edit or a paste keeps
	// the place the reader was at; Name is the file's name. A binary file's Text is its bytes
	// as they are (FileView).
	SetText struct {
		Text   string
		Typing bool
		File   bool
		Name   string
		// Before: the text is a part of a big file, decoded going on from the parts before
		// (ReadBefore of this text).
		Before *Before
	}
	// SetForce: a format was chosen in the menu (input.Auto: detect).
	SetForce struct{ Format input.Format }
	// SetProto: a protocol version was chosen (0: infer).
	SetProto struct{ Proto int }
	// SetInStream: the "inside a streamed transaction" option changed.
	SetInStream struct{ Choice decoder.Choice }
	// LoadExample: an example was chosen from the menu.
	LoadExample struct{ Index int }
	// ExamplesLoaded: the examples asset arrived (or Err says why not).
	ExamplesLoaded struct {
		Asset string
		Err   string
	}
	// SelectMessage: a message was chosen in the message list, or (Reveal) elsewhere, and the
	// list scrolls to it.
	SelectMessage struct {
		Msg    int
		Reveal bool
	}
	// SelectNode: a tree node was clicked.
	SelectNode struct{ Node int32 }
	// SelectByte: a byte of the hex view was clicked: its field is selected.
	SelectByte struct{ Offset int }
	// SelectBytes: the hex view chose a selection (a click, the arrow keys, Shift to grow it);
	// ID is the node of the field it was made from, or -1.
	SelectBytes struct {
		Sel hexview.Range
		ID  int32
	}
	// HoverNode: the pointer is on a tree node (-1: left it).
	HoverNode struct{ Node int32 }
	// HoverByte: the pointer is on a byte of the hex view (-1: left it).
	HoverByte struct{ Offset int }
	// ToggleNode: a tree node's expander was clicked.
	ToggleNode struct{ Node int32 }
	// Key: a key was pressed in a list ("ArrowUp", "Home", "PageDown", "Enter", …). Tab is not
	// one: it moves the focus on, so that each list is one stop of the Tab order.
	Key struct {
		Panel Panel
		Key   string
	}
	// Scroll: a panel scrolled or changed size.
	Scroll struct {
		Panel       Panel
		Top, Height int
	}
	// OpenFragment: the page opened with, or moved to, this URL fragment.
	OpenFragment struct{ Fragment string }
	// OpenShared: a z1 payload was inflated (or Err says why not, or TooLarge says it
	// inflates to more than EffectDecompress.Limit, where the glue stopped reading).
	OpenShared struct {
		Payload  []byte
		Err      string
		TooLarge bool
	}
	// Share: the Share button was pressed.
	Share struct{}
	// ShareMade: the compressed payload is ready (or Err says why not).
	ShareMade struct {
		Compressed []byte
		Err        string
	}
	// Copied: the link, or an export (What from its EffectCopy), reached the clipboard; Err
	// says why an export did not.
	Copied struct{ What, Err string }
	// SetTheme: the theme toggle was used.
	SetTheme struct{ Theme Theme }
	// SelectBadText: the input's error was clicked: select the character it is about in the
	// text box again.
	SelectBadText struct{}
	// DecodeMore: the page has time to decode the next chunk of a long input (the Doc is not
	// Complete): the page sends it, one chunk per task, until it is.
	DecodeMore struct{}
	// SetFilter: a filter query was entered for the message list.
	SetFilter struct{ Query string }
	// ShowChange: the before and after view of an Update or Delete was turned on or off.
	ShowChange struct{ On bool }
	// ShowCatalog: the relations and types panel was turned on or off.
	ShowCatalog struct{ On bool }
	// ShowTimeline: the timeline of the stream's transactions was turned on or off.
	ShowTimeline struct{ On bool }
	// SelectSpan: a span of the timeline was clicked: its first message is chosen, and the
	// message list, away from the pointer, scrolls to it.
	SelectSpan struct{ Span int }
)

func (SetText) isAction()        {}
func (SetForce) isAction()       {}
func (SetProto) isAction()       {}
func (SetInStream) isAction()    {}
func (LoadExample) isAction()    {}
func (ExamplesLoaded) isAction() {}
func (SelectMessage) isAction()  {}
func (SelectNode) isAction()     {}
func (SelectByte) isAction()     {}
func (SelectBytes) isAction()    {}
func (HoverNode) isAction()      {}
func (HoverByte) isAction()      {}
func (ToggleNode) isAction()     {}
func (Key) isAction()            {}
func (Scroll) isAction()         {}
func (OpenFragment) isAction()   {}
func (OpenShared) isAction()     {}
func (Share) isAction()          {}
func (ShareMade) isAction()      {}
func (Copied) isAction()         {}
func (SetTheme) isAction()       {}
func (DecodeMore) isAction()     {}
func (SelectBadText) isAction()  {}
func (SetFilter) isAction()      {}
func (ShowChange) isAction()     {}
func (ShowCatalog) isAction()    {}
func (ShowTimeline) isAction()   {}
func (SelectSpan) isAction()     {}

// Apply returns the state after action a, and what the browser must do for it. It does not
// change s, and does the same for the same s and a.
func Apply(s State, a Action) (State, []Effect) {
	prev := s
	var fx []Effect
	switch a := a.(type) {
	case SetText:
		if len(a.Text) > MaxInput && !(a.File && len(a.Text) <= MaxFile && input.IsBinaryText(a.Text)) {
			return s.refuse(tooLargeText("the new text", len(a.Text), false)), nil
		}
		// Another file is read from its start; the same bytes again (a big file's part shown
		// again, going on from the parts before it) keep the reader's place.
		p := s.place()
		if a.File && a.Text != s.Text {
			p = place{}
		}
		s.Text, s.Example, s.Guide.Open, s.File, s.Before = a.Text, -1, false, a.Name, a.Before
		s.Edit = EditState{} // another input: the edits are forgotten
		s, fx = s.reread(a.Typing, p)
		fx = append(fx, s.leaveLink()...)
		if !a.Typing {
			fx = append(fx, s.selectBadText()...) // not while typing: the caret stays put
		}
	case SetForce:
		s.Force = a.Format
		s, fx = s.reread(false, s.place())
		fx = append(fx, s.selectBadText()...)
	case SelectBadText:
		fx = append(fx, s.selectBadText()...)
	case SetProto:
		s.Proto = a.Proto
		s = s.redecode()
	case SetInStream:
		s.InStream = a.Choice
		s = s.redecode()
	case LoadExample:
		if a.Index < 0 || a.Index >= len(Examples) {
			return s, nil
		}
		ex, ok := s.Menu.example(a.Index)
		if !ok {
			s.Menu.Want, s.Menu.Err = a.Index, ""
			if !s.Menu.Loading {
				s.Menu.Loading = true
				fx = append(fx, EffectFetchExamples{})
			}
			break
		}
		s.Menu.Err = ""
		s.Text, s.Force, s.Proto, s.InStream = ex.Text, input.Auto, 0, decoder.Auto
		s.Guide.Open, s.Edit = false, EditState{}
		s = s.reparse(ex.Select)
		s.Example = a.Index
		if s.Doc != nil && ex.Select >= 0 && ex.Select < len(s.Doc.Trees) {
			fx = s.selectMessage(ex.Select, true)
		}
		fx = append(fx, s.leaveLink()...)
	case ExamplesLoaded:
		want := s.Menu.Want
		s.Menu.Loading, s.Menu.Want = false, -1
		if a.Err != "" {
			s.Menu.Err = "The examples could not be loaded: " + a.Err + "."
			break
		}
		chunks, err := readMenu(a.Asset)
		if err != nil {
			s.Menu.Err = "The examples could not be read: " + err.Error() + "."
			break
		}
		s.Menu.Chunks, s.Menu.Err = chunks, ""
		if want >= 0 {
			return Apply(s, LoadExample{Index: want})
		}
	case SelectMessage:
		// Clicked in the list: the row is where the pointer is, and the list does not scroll
		// under it.
		fx = s.selectMessage(a.Msg, a.Reveal)
	case SelectSpan:
		if tl := s.Timeline; tl != nil && a.Span >= 0 && a.Span < len(tl.Spans) {
			s, fx = s.chooseSpan(a.Span)
		}
	case SelectNode:
		fx = s.selectNode(a.Node, false)
		s.Reveal++
	case SelectByte:
		if s.Model == nil {
			break
		}
		if f, ok := s.Model.FieldAt(a.Offset); ok {
			if f.ID >= 0 {
				fx = s.selectNode(f.ID, true)
			} else {
				s.Node, s.Sel = -1, f.Range
			}
		}
	case SelectBytes:
		t := s.Tree()
		if t != nil && a.ID >= 0 && int(a.ID) < len(t.Nodes) &&
			t.Nodes[a.ID].Offset == a.Sel.Offset && t.Nodes[a.ID].Length == a.Sel.Length {
			fx = s.selectNode(a.ID, true)
		} else {
			s, fx = s.selectRange(a.Sel, nil)
			if a.Sel.Empty() {
				s.Node, s.Sel = -1, hexview.Range{}
			}
		}
	case HoverNode:
		s.Hover, s.HoverBytes = -1, hexview.Range{}
		if t := s.Tree(); t != nil && a.Node >= 0 && int(a.Node) < len(t.Nodes) {
			n := &t.Nodes[a.Node]
			s.Hover, s.HoverBytes = a.Node, hexview.Range{Offset: n.Offset, Length: n.Length}
		}
	case HoverByte:
		s.Hover, s.HoverBytes = -1, hexview.Range{}
		if s.Model != nil && a.Offset >= 0 {
			if f, ok := s.Model.FieldAt(a.Offset); ok {
				s.Hover, s.HoverBytes = f.ID, f.Range
			}
		}
	case ToggleNode:
		s = s.toggle(a.Node)
	case Key:
		s, fx = s.key(a.Panel, a.Key)
	case Scroll:
		if a.Panel < numPanels {
			s.View[a.Panel] = hexview.Viewport{Top: max(a.Top, 0), Height: a.Height}
			if a.Height <= 0 {
				s.View[a.Panel].Height = defaultHeight
			}
		}
	case OpenFragment:
		s, fx = s.openFragment(a.Fragment)
	case OpenShared:
		if a.TooLarge {
			return s.refuse(linkTooLargeText()), nil
		}
		sh, msg := openShared(a)
		if msg != "" {
			s.LinkErr = msg
			break
		}
		if len(sh.Text) > MaxInput {
			return s.refuse(linkTooLargeText()), nil
		}
		s.Text, s.Force, s.Proto, s.InStream, s.File = sh.Text, sh.Format, sh.Proto, sh.InStream, ""
		s.Before = nil
		if sh.Before != nil {
			s.Before = ReadBefore(sh.Before, sh.Text)
		}
		s.Guide.Open, s.Explain, s.Lens = false, sh.Explain, sh.Lens.Valid()
		s.Filter, s.Edit, s.Notes = ParseFilter(sh.Filter), EditState{}, sh.Notes
		s = s.reparse(sh.Msg)
		s.Example = exampleByName(sh.Example)
		if s.Doc != nil && sh.Msg < len(s.Doc.Trees) {
			fx = s.selectMessage(sh.Msg, true)
		}
		s, fx = s.selectRange(sh.Sel, fx)
	case Share:
		if s.Guide.Open {
			s, fx = s.shareGuide()
			break
		}
		if s.Text == "" {
			s.Share = ShareState{Err: "Nothing to share: the input is empty."}
			break
		}
		s.Share, s.Export = ShareState{Busy: true}, ExportState{}
		sh := Shared{Text: s.Text, Format: s.Force, Proto: s.Proto, InStream: s.InStream, Msg: max(s.Msg, 0), Sel: s.Sel,
			Explain: s.Explain, Filter: s.Filter.Query, Lens: s.Lens, Notes: s.Notes}
		if s.Before != nil && s.Before.text == s.Text {
			sh.Before = s.Before.b
		}
		if s.Example >= 0 && s.Example < len(Examples) {
			sh.Example = Examples[s.Example].Name
		}
		payload := SharePayload(sh)
		s.Share.payload = string(payload)
		fx = append(fx, EffectCompress{Payload: payload})
	case ShareMade:
		if a.Err != "" {
			s.Share = ShareState{Err: "Could not make the link: " + a.Err}
			break
		}
		s, fx = s.shareMade(a.Compressed)
	case Copied:
		if a.What == "" {
			s.Share.Copied = a.Err == ""
			break
		}
		s.Export = exported(a)
	case SetTheme:
		s.Theme = a.Theme
		fx = append(fx, EffectTheme{Theme: a.Theme})
	case DecodeMore:
		if s.Doc != nil {
			s.Doc = s.Doc.Next()
		}
	case TooLarge:
		if a.File {
			return s.refuse(tooLargeFileText(a.What, a.Size)), nil
		}
		return s.refuse(tooLargeText(a.What, a.Size, a.AtLeast)), nil
	case SetFilter:
		s.Filter, s.HiddenSpan = ParseFilter(a.Query), 0
		s, fx = s.followFilter()
	case ShowChange:
		// The before and after and the relations take the tree's place in turn.
		s.ShowChange, s.ShowCatalog, s.Catalog, s.ShowTimeline, s.Timeline = a.On, false, nil, false, nil
		s.Compare.On, s.ShowNotes = false, false
		s.consumerOff()
		s.View[PanelChange].Top = 0
	case ShowCatalog:
		// Shown over the before and after, which comes back when the relations go.
		s.ShowCatalog, s.ShowTimeline, s.Timeline, s.Compare.On, s.ShowNotes = a.On, false, nil, false, false
		s.consumerOff()
		s.View[PanelCatalog].Top = 0
		if !a.On {
			s.Catalog = nil
		}
	case ShowTimeline:
		// The timeline and the relations take the tree's place in turn, over the before and after.
		s.ShowTimeline, s.ShowCatalog, s.Catalog, s.Compare.On, s.ShowNotes = a.On, false, nil, false, false
		s.consumerOff()
		s.View[PanelTimeline].Top = 0
		if !a.On {
			s.Timeline = nil
		}
	case Export:
		s, fx = s.export(a.Entry) // export.go
	case SetConsumerSettings:
		s.Consumer.SenderTimeout, s.Consumer.StatusInterval, s.Consumer.For = a.SenderTimeout, a.StatusInterval, nil
	case Dumped:
		if a.Kind == dumpjob.Consumer {
			s.Consumer.Status, s.Consumer.Err = a.Status, a.Err
		} else if a.Kind == dumpjob.SharePart {
			s, fx = s.sharePartMade(a)
		} else {
			s.Export = ExportState{Status: a.Status, Err: a.Err}
		}
	case Edit:
		fx = s.edit(a) // edit.go
		if len(s.Text) != len(prev.Text) || s.Text != prev.Text {
			fx = append(fx, s.leaveLink()...)
		}
	case CompareWith:
		s = s.compareWith(a.On) // compare.go
	case CompareStep:
		fx = s.compareStep(a.By)
	case CompareInput:
		fx = s.compareInput(a) // compare_second.go
	case ComparePick:
		sec := CompareSecond{}
		if old := s.Compare.Second; old != nil {
			sec = *old
		}
		fx = s.comparePick(&sec, a.Msg)
	case EditNote:
		s = s.editNote(a) // notes.go
	case GoToNote:
		s, fx = s.goToNote(a.Index)
	case ShowNotes:
		// In the tree's place, over the before and after, as the timeline, the relations and
		// the comparison are.
		s.ShowNotes = a.On
		if a.On {
			s.ShowCatalog, s.Catalog, s.ShowTimeline, s.Timeline, s.Compare.On = false, nil, false, nil, false
			s.consumerOff()
		}
	case ShowConsumer:
		// In the tree's place, as the timeline and the relations are (consumer.go).
		s.consumerOff()
		if a.On {
			s.ShowCatalog, s.Catalog, s.ShowTimeline, s.Timeline, s.Compare.On, s.ShowNotes = false, nil, false, nil, false, false
			s.Consumer.On = true
		}
	default:
		// The field guide (guide.go) and explain mode (explain.go).
		s, fx = s.applyGuide(a)
	}
	if s.refusing != "" {
		// The text holds more messages than the page decodes: nothing changes but the notice.
		return prev.refuse(s.refusing), nil
	}
	s.syncList()
	s.syncCatalog()
	s.syncTimeline()
	s.syncEdit()
	fx = s.syncCompare(fx)
	fx = s.syncConsumer(fx)
	if s.listMoved {
		// A new input starts the message list at its top.
		s.listMoved = false
		fx = append(fx, EffectScroll{Panel: PanelList, Top: s.View[PanelList].Top})
	}
	return s, fx
}

// leaveLink clears a fragment that no longer describes what is shown.
func (s State) leaveLink() []Effect {
	s.LinkErr = ""
	return []Effect{EffectSetHash{Hash: ""}}
}

// reread reads the text again after an edit (or a format chosen) and decodes it, showing the
// place p: the reader's, the same message and field (see place), or the first message of a
// file (the zero place). While typing leaves the text
// unreadable for a moment (an odd hex digit), the last decode that could be read stays on the
// page, marked Stale, with the error; once the text reads again it is decoded afresh. A text
// pasted or opened with a bad character shows every message that could be read, and the error.
func (s State) reread(typing bool, p place) (State, []Effect) {
	s.Menu.Want = -1 // the input changed: an example still loading is no longer wanted
	var doc *Doc
	var ierr *input.Error
	if s.Text != "" {
		doc, ierr = s.newDoc(DecodeChunk)
	}
	if n, over := doc.tooMany(); over {
		s.refusing = tooManyText(n)
		return s, nil
	}
	s.Share, s.LinkErr, s.Refused.Msg = ShareState{}, "", ""
	if ierr != nil && typing && s.Doc != nil && (s.InputErr == nil || s.Stale) {
		s.InputErr, s.Stale = ierr, true
		return s, nil
	}
	s.Doc, s.InputErr, s.Stale = doc, ierr, false
	return s.keepPlace(p)
}

// reparse reads the text again and decodes it: the first chunk and at least message m (a link
// or an example chooses it); the page decodes the rest with DecodeMore.
func (s State) reparse(m int) State {
	s.Menu.Want = -1
	s.Doc, s.InputErr, s.LinkErr, s.Stale, s.Refused.Msg = nil, nil, "", false, ""
	s.listMoved = true
	s.Share = ShareState{}
	if s.Text != "" {
		s.Doc, s.InputErr = s.newDoc(max(m+1, DecodeChunk))
		if n, over := s.Doc.tooMany(); over {
			s.refusing = tooManyText(n)
		}
	}
	s.View[PanelList].Top = 0
	s.selectMessage(0, true)
	return s
}

// redecode decodes the same messages with the options chosen now.
func (s State) redecode() State {
	if s.Doc == nil {
		return s
	}
	p := s.place()
	// The message shown first, the rest a chunk at a time (DecodeMore), as after a paste.
	s.Doc = s.Doc.Redecode(s.options(), max(s.Msg+1, 1))
	s.Share = ShareState{}
	s, _ = s.keepPlace(p)
	return s
}

// newDoc decodes the text as NewDoc does, going on from the parts before when it is a part
// of a big file (Before).
func (s *State) newDoc(n int) (*Doc, *input.Error) {
	var before func(*docDecoder)
	if s.Before != nil && s.Before.text == s.Text {
		before = s.Before.resume
	}
	return newDoc(s.Text, s.Force, s.options(), n, before)
}

func (s State) options() decoder.Options {
	return decoder.Options{Proto: s.Proto, InStream: s.InStream}
}

// selectMessage shows message m: its hex layout and tree, nothing selected. When reveal, the
// message list scrolls to its row (not for a click: the row is under the pointer, and a list
// that scrolled then would move it away).
func (s *State) selectMessage(m int, reveal bool) []Effect {
	s.Model, s.TreeRows, s.Collapsed, s.Change, s.HiddenSpan = nil, nil, nil, nil, 0
	s.Node, s.Sel, s.Hover, s.HoverBytes = -1, hexview.Range{}, -1, hexview.Range{}
	s.View[PanelTree].Top, s.View[PanelChange].Top = 0, 0
	s.Msg = -1
	if s.Doc == nil || len(s.Doc.Trees) == 0 {
		return nil
	}
	if m >= len(s.Doc.Trees) && !s.Doc.Complete() {
		// A message not decoded yet (chosen by the Consumer panel of a big file, say) is
		// decoded with those before it; the rest come a chunk at a time as before.
		s.Doc = s.Doc.dec.upTo(m/DecodeChunk + 1)
	}
	m = min(max(m, 0), len(s.Doc.Trees)-1)
	s.Msg = m
	s.Shown++
	t := s.Doc.Trees[m]
	s.Model = s.layout(t)
	s.TreeRows = VisibleNodes(t, nil)
	s.Change = ChangeOf(t)
	// The hex view brings the selection into view by itself; the tree starts at its top.
	fx := []Effect{EffectScroll{Panel: PanelTree}}
	if s.Change != nil {
		fx = append(fx, EffectScroll{Panel: PanelChange})
	}
	// Keep the chosen message's row in view.
	if s.syncList(); reveal {
		if row := s.List.RowOf(m); row >= 0 {
			fx = s.reveal(PanelList, row, fx)
		}
	}
	return fx
}

// followFilter shows the filter's list, and when the chosen message is left out, the next
// one it lets through (else the last; nothing when none is let through).
func (s State) followFilter() (State, []Effect) {
	s.syncList()
	s.View[PanelList].Top = 0
	s.listMoved = true
	if s.Doc != nil && s.Msg < 0 && !s.List.Filtered() {
		fx := s.selectMessage(0, true) // the filter taken away after it let nothing through
		return s, fx
	}
	if s.Doc == nil || s.List.RowOf(s.Msg) >= 0 {
		fx := s.reveal(PanelList, max(s.List.RowOf(s.Msg), 0), nil)
		return s, fx
	}
	if m := s.List.step(s.Msg, 1); m >= 0 {
		fx := s.selectMessage(m, true)
		return s, fx
	}
	s.selectMessage(0, false)
	s.Msg, s.Model, s.TreeRows = -1, nil, nil
	return s, nil
}

// reveal scrolls panel p, as little as it can, to show row, and adds the scroll to fx.
func (s *State) reveal(p Panel, row int, fx []Effect) []Effect {
	v := &s.View[p]
	if top := v.Reveal(row, row); top != v.Top {
		v.Top = top
		fx = append(fx, EffectScroll{Panel: p, Top: top})
	}
	return fx
}

// selectNode selects tree node n and its bytes, expanding its ancestors and, when reveal,
// scrolling the tree to it (not for a click on its row, which is under the pointer).
func (s *State) selectNode(n int32, reveal bool) []Effect {
	t := s.Tree()
	if t == nil || n < 0 || int(n) >= len(t.Nodes) {
		return nil
	}
	var fx []Effect
	node := &t.Nodes[n]
	s.Node = n
	s.Sel = hexview.Range{Offset: node.Offset, Length: node.Length}
	// Expand the ancestors so the node is visible.
	if len(s.Collapsed) > 0 {
		var c map[int32]bool
		for i, cl := range s.Collapsed {
			if cl && i < n && n < t.Nodes[i].End {
				if c == nil {
					c = maps.Clone(s.Collapsed)
				}
				delete(c, i)
			}
		}
		if c != nil {
			s.Collapsed = c
			s.TreeRows = VisibleNodes(t, c)
		}
	}
	if row := rowOfNode(s.TreeRows, n); row >= 0 && reveal {
		fx = s.reveal(PanelTree, row, fx)
	}
	return fx
}

// selectRange selects the bytes r (from a link): the smallest node that covers them exactly,
// or just the bytes.
func (s State) selectRange(r hexview.Range, fx []Effect) (State, []Effect) {
	t := s.Tree()
	if t == nil || r.Empty() {
		return s, fx
	}
	best := int32(-1)
	for i := range t.Nodes {
		if t.Nodes[i].Offset == r.Offset && t.Nodes[i].Length == r.Length {
			best = int32(i) // later nodes are deeper
		}
	}
	if best >= 0 {
		var more []Effect
		more = s.selectNode(best, true)
		return s, append(fx, more...)
	}
	s.Node, s.Sel = -1, r
	return s, fx
}

func rowOfNode(rows []int32, n int32) int {
	for i, r := range rows {
		if r == n {
			return i
		}
	}
	return -1
}

// toggle collapses or expands node n.
func (s State) toggle(n int32) State {
	t := s.Tree()
	if t == nil || n < 0 || int(n) >= len(t.Nodes) || t.IsLeaf(int(n)) {
		return s
	}
	c := maps.Clone(s.Collapsed)
	if c == nil {
		c = map[int32]bool{}
	}
	if c[n] {
		delete(c, n)
	} else {
		c[n] = true
	}
	s.Collapsed = c
	s.TreeRows = VisibleNodes(t, c)
	return s
}

// VisibleNodes lists the nodes of t in pre-order, leaving out those inside a collapsed node.
func VisibleNodes(t *decoder.Tree, collapsed map[int32]bool) []int32 {
	rows := make([]int32, 0, len(t.Nodes))
	for i := 0; i < len(t.Nodes); {
		rows = append(rows, int32(i))
		if collapsed[int32(i)] {
			i = int(t.Nodes[i].End)
		} else {
			i++
		}
	}
	return rows
}

// page returns how many rows PageDown moves in panel p: a box's height, less one row.
func (s *State) page(p Panel) int {
	return max(s.View[p].Height/hexview.RowHeight-1, 1)
}

// key moves the selection with the keyboard.
func (s State) key(p Panel, key string) (State, []Effect) {
	switch p {
	case PanelList, PanelTimeline:
		if s.Doc == nil {
			return s, nil
		}
		n := 0
		switch key {
		case "ArrowDown", "j":
			n = 1
		case "ArrowUp", "k":
			n = -1
		case "PageDown":
			n = s.page(p)
		case "PageUp":
			n = -s.page(p)
		case "Home":
			n = -len(s.Doc.Trees)
		case "End":
			n = len(s.Doc.Trees)
		default:
			return s, nil
		}
		if p == PanelTimeline {
			return s.timelineStep(n)
		}
		m := s.Msg + n
		if s.List.Filtered() {
			// Among the messages the filter lets through.
			if m = s.List.step(s.Msg, n); m < 0 {
				return s, nil
			}
		}
		fx := s.selectMessage(m, true)
		return s, fx
	case PanelTree:
		t := s.Tree()
		if t == nil || len(s.TreeRows) == 0 {
			return s, nil
		}
		// to is the node chosen (-1: none).
		row, last, to := rowOfNode(s.TreeRows, s.Node), len(s.TreeRows)-1, int32(-1)
		switch key {
		case "ArrowDown":
			to = s.TreeRows[min(row+1, last)]
		case "ArrowUp":
			to = s.TreeRows[max(row-1, 0)]
		case "PageDown":
			to = s.TreeRows[min(row+s.page(PanelTree), last)]
		case "PageUp":
			to = s.TreeRows[max(row-s.page(PanelTree), 0)]
		case "Home":
			to = s.TreeRows[0]
		case "End":
			to = s.TreeRows[last]
		case "ArrowRight":
			switch {
			case s.Node < 0:
				to = 0
			case s.Collapsed[s.Node]:
				return s.toggle(s.Node), nil
			case !t.IsLeaf(int(s.Node)):
				to = s.Node + 1
			}
		case "ArrowLeft":
			if s.Node >= 0 && !t.IsLeaf(int(s.Node)) && !s.Collapsed[s.Node] {
				return s.toggle(s.Node), nil
			}
			if s.Node >= 0 {
				to = int32(t.Parent(int(s.Node)))
			}
		case "Enter", " ":
			if s.Node >= 0 {
				return s.toggle(s.Node), nil
			}
		}
		if to >= 0 {
			fx := s.selectNode(to, true)
			return s, fx
		}
	}
	return s, nil
}

// openFragment opens a share link's fragment. An empty fragment changes nothing but the Share
// status, which speaks of a link no longer in the address bar (after Back, for instance).
func (s State) openFragment(frag string) (State, []Effect) {
	if s.Share.Link != "" && s.Share.Link != "#"+strings.TrimPrefix(frag, "#") {
		s.Share = ShareState{}
	}
	f, err := ParseFragment(frag)
	if err != nil {
		s.LinkErr = "The link could not be opened: " + err.Error()
		return s, nil
	}
	if f.Key == GuideKey {
		return s.openGuideLink(f)
	}
	if msg := f.emptyLink(); msg != "" {
		s.LinkErr = msg
		return s, nil
	}
	switch f.Key {
	case "":
		// An empty fragment (Back from a guide entry or a link to the page before it, or "#") is
		// the inspector as it is: an error or a refusal spoke of an input before it.
		s.LinkErr, s.Refused.Msg, s.Guide.Open = "", "", false
		return s, nil
	case ShareVersion:
		b, err := f.Unpack()
		if err != nil {
			s.LinkErr = damagedLink(err.(*FragmentError).Msg)
			return s, nil
		}
		return s, []Effect{EffectDecompress{Data: b, Limit: MaxSharePayload}}
	}
	// The message goes into the input box as one line of hex, decoded as the one message it is
	// (an empty one too, so that its error shows).
	if 2*len(f.Bytes) > MaxInput {
		return s.refuse(tooLargeText("the link's message as hex", 2*len(f.Bytes), false)), nil
	}
	s.Proto, s.InStream, s.Force, s.Example = f.Proto, f.InStream, input.Auto, -1
	s.Notes = nil // the link's message comes without notes
	s.Guide.Open = false
	if f.HasLens {
		s.Lens = f.Lens.Valid()
	}
	s.Text, s.Edit, s.Menu.Want = hexText(f.Bytes), EditState{}, -1
	s.Doc, s.InputErr, s.LinkErr, s.Share = NewDocBytes(s.Text, input.Hex, f.Bytes, s.options()), nil, "", ShareState{}
	s.Refused.Msg = "" // a refusal speaks of an input before this one
	s.View[PanelList].Top = 0
	s.listMoved = true
	fx := s.selectMessage(0, true)
	if f.HasSel {
		s, fx = s.selectRange(f.Sel, fx)
	}
	return s, fx
}

// hexText writes b as one line of lower-case hex, the text a hex= link puts in the input box.
func hexText(b []byte) string {
	return string(export.AppendBytes(make([]byte, 0, 2*len(b)), export.Hex, b))
}

// selectBadText selects, in the text box, the character the input could not be read at.
func (s State) selectBadText() []Effect {
	e := s.InputErr
	if e == nil || e.Offset > len(s.Text) || input.IsBinaryText(s.Text) {
		return nil // a binary file is not in the box (FileView)
	}
	end := min(max(e.End, e.Offset), len(s.Text))
	start := utf16Len(s.Text[:e.Offset])
	return []Effect{EffectSelectText{Start: start, End: start + utf16Len(s.Text[e.Offset:end]), Line: e.Line, Column: e.Column}}
}

// utf16Len counts the UTF-16 code units of s, as a browser's text box counts positions.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}
