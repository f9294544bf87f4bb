//go:build js

// These tests build the View's vecty elements and read them back; they run under GOOS=js only,
// because vecty stops any native program that links it. In Node, vecty also wants a document
// object at start-up; run them as:
//
//	NODE_OPTIONS=--require=$PWD/hexview/render/testdata/vecty_node.js \
//	PATH="$(go env GOROOT)/lib/wasm:$PATH" GOOS=js GOARCH=wasm go test ./hexview/render

package render

import (
	"fmt"
	"html"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/hexops/vecty"

	"pgoutput-inspector/hexview"
)

func mustNew(t testing.TB, data []byte, spans []hexview.Span, width int) *hexview.Model {
	t.Helper()
	m, err := hexview.New(data, spans, width)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// randomLayout returns n random bytes and spans of 1 to 12 bytes covering them, with gaps.
func randomLayout(rng *rand.Rand, n int) ([]byte, []hexview.Span) {
	data := make([]byte, n)
	rng.Read(data)
	var spans []hexview.Span
	for off := 0; off < n; {
		l := min(1+rng.Intn(12), n-off)
		if rng.Intn(6) != 0 {
			spans = append(spans, hexview.Span{Offset: off, Length: l, Class: hexview.Class(1 + rng.Intn(12)), ID: int32(len(spans))})
		}
		off += l
	}
	return data, spans
}

// node is what a vecty element will put in the DOM, read back from the *vecty.HTML that a
// Render returns; components among the children are rendered in turn, as vecty would.
type node struct {
	tag      string
	classes  []string
	text     string // the textContent property
	data     map[string]string
	styles   map[string]string
	attrs    map[string]string
	events   []string
	children []*node
}

// domNodes counts the DOM nodes the element makes: itself, its text and its children.
func (n *node) domNodes() int {
	c := 1
	if n.text != "" {
		c++
	}
	for _, ch := range n.children {
		c += ch.domNodes()
	}
	return c
}

func (n *node) has(class string) bool { return slices.Contains(n.classes, class) }

// field returns the unexported field name of v, made readable.
func field(v reflect.Value, name string) reflect.Value {
	f := v.FieldByName(name)
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

func readHTML(t *testing.T, c vecty.ComponentOrHTML) *node {
	t.Helper()
	switch c := c.(type) {
	case nil:
		return nil
	case vecty.Component:
		return readHTML(t, c.Render())
	case *vecty.HTML:
		v := reflect.ValueOf(c).Elem()
		n := &node{tag: field(v, "tag").String(), data: map[string]string{}, styles: map[string]string{}, attrs: map[string]string{}}
		if inner := field(v, "innerHTML").String(); inner != "" {
			n.children = parseMarkup(t, inner)
		}
		for _, k := range field(v, "classes").MapKeys() {
			n.classes = append(n.classes, k.String())
		}
		slices.Sort(n.classes)
		for _, m := range []struct {
			name string
			to   map[string]string
		}{{"dataset", n.data}, {"styles", n.styles}} {
			iter := field(v, m.name).MapRange()
			for iter.Next() {
				m.to[iter.Key().String()] = iter.Value().String()
			}
		}
		iter := field(v, "attributes").MapRange()
		for iter.Next() {
			n.attrs[iter.Key().String()] = fmt.Sprint(iter.Value().Interface())
		}
		if p := field(v, "properties"); p.Len() > 0 {
			for _, k := range p.MapKeys() {
				if k.String() != "textContent" {
					t.Fatalf("unexpected property %q", k.String())
				}
				n.text = p.MapIndex(k).Interface().(string)
			}
		}
		for _, l := range field(v, "eventListeners").Interface().([]*vecty.EventListener) {
			n.events = append(n.events, l.Name)
		}
		for _, ch := range field(v, "children").Interface().([]vecty.ComponentOrHTML) {
			if k := readHTML(t, ch); k != nil {
				n.children = append(n.children, k)
			}
		}
		return n
	}
	t.Fatalf("unexpected child %T", c)
	return nil
}

// parseMarkup reads the markup hexview.Row.AppendHTML writes, as the browser would: span
// elements with a class and a data-o attribute, and escaped text. Anything else fails the test.
func parseMarkup(t *testing.T, markup string) []*node {
	t.Helper()
	root := &node{}
	stack := []*node{root}
	for rest := markup; rest != ""; {
		top := stack[len(stack)-1]
		i := strings.IndexByte(rest, '<')
		if i != 0 {
			if i < 0 {
				i = len(rest)
			}
			top.text += html.UnescapeString(rest[:i])
			rest = rest[i:]
			continue
		}
		j := strings.IndexByte(rest, '>')
		tag := rest[:j+1]
		rest = rest[j+1:]
		if tag == "</span>" {
			stack = stack[:len(stack)-1]
			continue
		}
		var class, o string
		if _, err := fmt.Sscanf(tag, `<span class=%q data-o=%q>`, &class, &o); err != nil {
			if _, err := fmt.Sscanf(tag, `<span class=%q>`, &class); err != nil {
				t.Fatalf("unexpected tag %q", tag)
			}
		}
		n := &node{tag: "span", classes: strings.Fields(class), data: map[string]string{}, styles: map[string]string{}}
		slices.Sort(n.classes)
		if o != "" {
			n.data["o"] = o
		}
		top.children = append(top.children, n)
		stack = append(stack, n)
	}
	if len(stack) != 1 || root.text != "" {
		t.Fatalf("unbalanced markup or text outside elements: %s", markup)
	}
	return root.children
}

func render(t *testing.T, v *View) (box, spacer *node) {
	t.Helper()
	box = readHTML(t, v.Render())
	if !box.has("hv") || len(box.children) != 2 || !box.children[0].has("hv-spacer") || !box.children[1].has("hv-probe") {
		t.Fatalf("box %v: want div.hv > div.hv-spacer, span.hv-probe", box.classes)
	}
	return box, box.children[0]
}

func TestViewDrawsOnlyRowsInView(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	var counts []int
	for _, size := range []int{4 << 10, 1 << 20} {
		data, spans := randomLayout(rng, size)
		m := mustNew(t, data, spans, 16)
		v := &View{Model: m, Height: 600}
		box, spacer := render(t, v)
		first, n := v.viewport().Window(m.RowCount(), hexview.Overscan)
		if len(spacer.children) != n {
			t.Fatalf("%d bytes: %d rows drawn, want %d", size, len(spacer.children), n)
		}
		if h := spacer.styles["height"]; h != fmt.Sprintf("%dpx", m.RowCount()*hexview.RowHeight) {
			t.Errorf("%d bytes: spacer height %s", size, h)
		}
		if box.styles["height"] != "600px" || box.styles["--hv-row-h"] != "20px" || box.styles["--hv-cols"] != "16" || box.attrs["tabindex"] != "0" {
			t.Errorf("box styles %v attributes %v", box.styles, box.attrs)
		}
		slices.Sort(box.events)
		if want := []string{"keydown", "mousedown", "mouseleave", "mouseover", "mouseup", "scroll"}; !slices.Equal(box.events, want) {
			t.Errorf("box listens to %v, want %v", box.events, want)
		}
		rows := m.Rows(first, n, hexview.Marks{})
		segs := 0
		for _, r := range rows {
			segs += len(r.Segments)
		}
		// Per row: the row, the offset and its text, the two columns; per segment: an element and
		// its text in each column; the probe and its text. Nothing else, and no listener below
		// the box.
		want := 2 + n*5 + segs*4 + 2
		if got := box.domNodes(); got != want {
			t.Errorf("%d bytes: %d DOM nodes, want %d", size, got, want)
		}
		counts = append(counts, box.domNodes())
	}
	t.Logf("DOM nodes for one screen: %v (4 KB, 1 MB)", counts)
}

func TestViewRows(t *testing.T) {
	data := []byte("B\x00\x00\x00\x00\x01\x02\x03\x04<img src=x onerror=alert(1)>\x00tail")
	spans := []hexview.Span{
		{Offset: 0, Length: 1, Class: hexview.ClassType, ID: 1},
		{Offset: 1, Length: 8, Class: hexview.ClassLSN, ID: 2},
		{Offset: 9, Length: 29, Class: hexview.ClassString, ID: 3},
	}
	m := mustNew(t, data, spans, 16)
	v := &View{Model: m, Height: 200, Marks: hexview.Marks{Selection: hexview.Range{Offset: 1, Length: 8}, Hover: hexview.Range{Offset: 4, Length: 2}}}
	_, spacer := render(t, v)
	if len(spacer.children) != m.RowCount() {
		t.Fatalf("%d rows drawn, want %d", len(spacer.children), m.RowCount())
	}
	var lines []string
	for i, row := range spacer.children {
		if !row.has("hv-row") || len(row.children) != 3 {
			t.Fatalf("row %d: %v with %d children", i, row.classes, len(row.children))
		}
		if want := fmt.Sprintf("%dpx", i*hexview.RowHeight); row.styles["top"] != want {
			t.Errorf("row %d at top %s, want %s", i, row.styles["top"], want)
		}
		off, hex, ascii := row.children[0], row.children[1], row.children[2]
		if !off.has("hv-off") || !hex.has("hv-hex") || !ascii.has("hv-ascii") || len(hex.children) != len(ascii.children) {
			t.Fatalf("row %d: columns %v %v %v", i, off.classes, hex.classes, ascii.classes)
		}
		line := off.text + ":"
		for j, s := range hex.children {
			a := ascii.children[j]
			if !slices.Equal(s.classes, a.classes) || s.data["o"] != a.data["o"] {
				t.Errorf("row %d segment %d: hex %v @%s, ascii %v @%s", i, j, s.classes, s.data["o"], a.classes, a.data["o"])
			}
			line += fmt.Sprintf(" [%s @%s %s|%s]", strings.Join(s.classes, " "), s.data["o"], s.text, a.text)
		}
		lines = append(lines, line)
	}
	want := []string{
		"0000: [b-end b-start hv-seg k-type @0 42|B]" +
			" [b-start hv-seg k-lsn sel @1 00 00 00|...]" +
			" [hov hv-seg k-lsn sel @4 00 01|..]" +
			" [b-end hv-seg k-lsn sel @6 02 03 04|...]" +
			" [b-start hv-seg k-str @9 3c 69 6d 67 20 73 72|<img sr]",
		"0010: [hv-seg k-str @16 63 3d 78 20 6f 6e 65 72 72 6f 72 3d 61 6c 65 72|c=x onerror=aler]",
		"0020: [b-end hv-seg k-str @32 74 28 31 29 3e 00|t(1)>.] [b-end b-start hv-seg k-none @38 74 61 69 6c|tail]",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func TestViewSlots(t *testing.T) {
	m := mustNew(t, make([]byte, 100<<10), nil, 16)
	v := &View{Model: m, Height: 180, Overscan: 2}
	v.top = 20*500 + 7
	_, spacer := render(t, v)
	first, n := hexview.Viewport{Height: 180, Top: v.top}.Window(m.RowCount(), 2)
	if first != 498 || n != 14 || len(spacer.children) != n {
		t.Fatalf("window %d+%d, %d rows drawn", first, n, len(spacer.children))
	}
	for i, row := range spacer.children {
		index := (first/n)*n + i
		if index < first {
			index += n
		}
		if want := fmt.Sprintf("%dpx", index*20); row.styles["top"] != want {
			t.Errorf("slot %d at top %s, want row %d at %s", i, row.styles["top"], index, want)
		}
	}
}

func TestViewRevealsSelection(t *testing.T) {
	m := mustNew(t, make([]byte, 1<<20), nil, 16)
	v := &View{Model: m, Height: 200, Marks: hexview.Marks{Selection: hexview.Range{Offset: 0x80000, Length: 4}}}
	render(t, v)
	row := 0x80000 / 16
	if want := (row+1)*hexview.RowHeight - 200; v.top != want || v.pendingTo != want {
		t.Fatalf("scrolled to %d (pending %d), want %d", v.top, v.pendingTo, want)
	}
	_, spacer := render(t, v)
	found := false
	for _, r := range spacer.children {
		found = found || r.children[0].text == "80000"
	}
	if !found {
		t.Error("the selected row is not drawn")
	}
	// The same selection again does not scroll: the reader may have scrolled away on purpose.
	v.top = 0
	render(t, v)
	if v.top != 0 {
		t.Errorf("unchanged selection scrolled to %d", v.top)
	}
	// Unless asked to: the same node chosen again in the tree.
	v.Reveal++
	render(t, v)
	if want := (row+1)*hexview.RowHeight - 200; v.top != want {
		t.Errorf("asked to reveal the selection again: scrolled to %d, want %d", v.top, want)
	}
	v.top = 0
	// A selection in view does not scroll either.
	v.Marks.Selection = hexview.Range{Offset: 0x20, Length: 2}
	render(t, v)
	if v.top != 0 {
		t.Errorf("selection in view scrolled to %d", v.top)
	}
	// A selection made in the View (a drag) shows the field moved to, not the selection's
	// first row, which may be far above.
	var spans []hexview.Span
	for off := 0; off < 1<<20; off += 16 {
		spans = append(spans, hexview.Span{Offset: off, Length: 16, Class: hexview.ClassValue})
	}
	v.Model = mustNew(t, make([]byte, 1<<20), spans, 16)
	render(t, v)
	v.top = 1024 * hexview.RowHeight // rows 1024 to 1035 in view
	f, _ := v.Model.FieldAt(1039 * 16)
	sel := hexview.Range{Offset: 16 * 16, Length: 1040*16 - 16*16}
	v.selectField(sel, f)
	v.Marks.Selection = sel
	render(t, v)
	if want := 1040*hexview.RowHeight - 200; v.top != want {
		t.Errorf("dragging to row 1039 scrolled to %d px, want %d", v.top, want)
	}
	// Other bytes without a selection start at the top.
	v.top = 5000
	v.Marks.Selection = hexview.Range{}
	render(t, v)
	if v.top != 5000 {
		t.Errorf("clearing the selection scrolled to %d", v.top)
	}
	// The same bytes decoded again keep their place; other bytes start at the top.
	v.Model = mustNew(t, make([]byte, 1<<20), spans, 16)
	render(t, v)
	if v.top != 5000 {
		t.Errorf("the same bytes again shown from %d px, want 5000", v.top)
	}
	v.Model, v.Shown = mustNew(t, make([]byte, 1<<16), nil, 16), v.Shown+1
	render(t, v)
	if v.top != 0 {
		t.Errorf("new bytes shown from %d px, want the top", v.top)
	}
}

// TestViewBoundsRows checks that a box as tall as all its rows (a page that forgot to bound
// it) still draws a bounded number of rows.
func TestViewBoundsRows(t *testing.T) {
	m := mustNew(t, make([]byte, 1<<20), nil, 16)
	v := &View{Model: m}
	v.measured = m.RowCount() * hexview.RowHeight
	_, spacer := render(t, v)
	if max := MaxHeight/hexview.RowHeight + 2 + 2*hexview.Overscan; len(spacer.children) > max {
		t.Errorf("%d rows drawn, want at most %d", len(spacer.children), max)
	}
}

func TestViewEmpty(t *testing.T) {
	for _, m := range []*hexview.Model{nil, mustNew(t, nil, nil, 0)} {
		_, spacer := render(t, &View{Model: m, Marks: hexview.Marks{Selection: hexview.Range{Offset: 5, Length: 5}}})
		if len(spacer.children) != 0 || spacer.styles["height"] != "0px" {
			t.Errorf("model %v: %d rows, height %s", m, len(spacer.children), spacer.styles["height"])
		}
	}
}

func TestRowSkipRender(t *testing.T) {
	m := mustNew(t, make([]byte, 64), []hexview.Span{{Offset: 0, Length: 20, Class: hexview.ClassValue}}, 16)
	a := &rowView{Row: m.Rows(1, 1, hexview.Marks{})[0]}
	same := &rowView{Row: m.Rows(1, 1, hexview.Marks{})[0]}
	if !same.SkipRender(a) {
		t.Error("an unchanged row is redrawn")
	}
	for name, other := range map[string]*rowView{
		"selected": {Row: m.Rows(1, 1, hexview.Marks{Selection: hexview.Range{Offset: 17, Length: 1}})[0]},
		"hovered":  {Row: m.Rows(1, 1, hexview.Marks{Hover: hexview.Range{Offset: 0, Length: 20}})[0]},
		"moved":    {Row: m.Rows(2, 1, hexview.Marks{})[0]},
	} {
		if other.SkipRender(a) {
			t.Errorf("%s row not redrawn", name)
		}
	}
	if a.SkipRender(&View{}) {
		t.Error("skipped against another component type")
	}
}

// BenchmarkViewRender builds one screen of a 1 MB input: the View's vecty elements and every
// row's markup (what a scroll that moves every row costs in Go, before the DOM is touched).
func BenchmarkViewRender(b *testing.B) {
	rng := rand.New(rand.NewSource(6))
	data, spans := randomLayout(rng, 1<<20)
	m := mustNew(b, data, spans, 16)
	v := &View{Model: m, Height: 600}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.top = (i * 7919 % m.RowCount()) * hexview.RowHeight
		box := v.Render().(*vecty.HTML)
		// Render each row as vecty would after SkipRender said no.
		sp := reflect.ValueOf(box).Elem().FieldByName("children").Index(0).Elem().Elem()
		rows := field(sp, "children")
		for j := 0; j < rows.Len(); j++ {
			rows.Index(j).Interface().(*rowView).Render()
		}
	}
}

// TestViewFitsRowsToBox checks that a narrow box gets rows of fewer bytes, whole, and that the
// byte at the top of the box stays at the top when the rows change width.
func TestViewFitsRowsToBox(t *testing.T) {
	m := mustNew(t, make([]byte, 4096), nil, 16)
	v := &View{Model: m, Height: 200}
	render(t, v)
	v.top = 64 * hexview.RowHeight // byte 1024 at the top
	v.resized(200, 45)             // 45 characters: 8 bytes a row (39), not 16 (71)
	box, spacer := render(t, v)
	if box.styles["--hv-cols"] != "8" || v.model().Width() != 8 {
		t.Fatalf("in 45 characters rows of %s bytes", box.styles["--hv-cols"])
	}
	if h := spacer.styles["height"]; h != fmt.Sprintf("%dpx", 512*hexview.RowHeight) {
		t.Errorf("spacer height %s for 512 rows", h)
	}
	if v.top != 128*hexview.RowHeight {
		t.Errorf("top %d px, want row 128 (byte 1024)", v.top)
	}
	for _, row := range spacer.children {
		if len(row.children[2].text) > 8 {
			t.Errorf("row %s shows %q as text", row.children[0].text, row.children[2].text)
		}
	}
	v.resized(200, 0) // not measured: the model's own width
	if box, _ := render(t, v); box.styles["--hv-cols"] != "16" || v.top != 64*hexview.RowHeight {
		t.Errorf("unmeasured: rows of %s bytes, top %d", box.styles["--hv-cols"], v.top)
	}
}
