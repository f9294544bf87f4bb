package hexview

import (
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// checkRows asserts what every layout must satisfy: the rows are consecutive, their segments
// tile each row exactly, each segment's text is its bytes, and each byte has the span and
// marks that a byte-by-byte reading of the spans gives. It also checks that segments are
// maximal: two neighbours in a row differ in span, gap, or marks.
func checkRows(t *testing.T, m *Model, first int, rows []Row, mk Marks) {
	t.Helper()
	for k, r := range rows {
		if r.Index != first+k || r.Offset != r.Index*m.Width() {
			t.Fatalf("row %d: index %d offset %d, want index %d offset %d",
				k, r.Index, r.Offset, first+k, (first+k)*m.Width())
		}
		if want := min(m.Width(), m.Len()-r.Offset); r.Length != want {
			t.Fatalf("row %d: length %d, want %d", r.Index, r.Length, want)
		}
		if want := fmt.Sprintf("%0*x", m.digits, r.Offset); r.Label != want {
			t.Fatalf("row %d: label %q, want %q", r.Index, r.Label, want)
		}
		pos := r.Offset
		for j, s := range r.Segments {
			where := fmt.Sprintf("row %d segment %d (offset %d, length %d)", r.Index, j, s.Offset, s.Length)
			if s.Offset != pos || s.Length <= 0 {
				t.Fatalf("%s: does not start where the previous one ended (%d) or is empty", where, pos)
			}
			if s.Hex != fmt.Sprintf("% x", m.data[s.Offset:s.End()]) {
				t.Fatalf("%s: hex %q, want % x", where, s.Hex, m.data[s.Offset:s.End()])
			}
			if s.ASCII != printable(m.data[s.Offset:s.End()]) {
				t.Fatalf("%s: ascii %q, want %q", where, s.ASCII, printable(m.data[s.Offset:s.End()]))
			}
			for off := s.Offset; off < s.End(); off++ {
				si, gapStart, gapEnd := naiveSpan(m, off)
				if si != s.Span {
					t.Fatalf("%s: byte %d in span %d, want %d", where, off, s.Span, si)
				}
				runStart, runEnd, class, id := gapStart, gapEnd, ClassNone, NoID
				if si != NoSpan {
					sp := m.spans[si]
					runStart, runEnd, class, id = sp.Offset, sp.End(), sp.Class, sp.ID
				}
				if s.Class != class || s.ID != id {
					t.Fatalf("%s: class %v id %d, want %v %d", where, s.Class, s.ID, class, id)
				}
				if s.StartsSpan != (s.Offset == runStart) || s.EndsSpan != (s.End() == runEnd) {
					t.Fatalf("%s: starts/ends span %v/%v, run is [%d,%d)", where, s.StartsSpan, s.EndsSpan, runStart, runEnd)
				}
				if s.Noted != anyContains(m.noted, off) {
					t.Fatalf("%s: byte %d noted %v", where, off, s.Noted)
				}
				if s.Selected != mk.Selection.Contains(off) || s.Hovered != mk.Hover.Contains(off) {
					t.Fatalf("%s: byte %d selected/hovered %v/%v, want %v/%v", where, off,
						s.Selected, s.Hovered, mk.Selection.Contains(off), mk.Hover.Contains(off))
				}
			}
			if j > 0 {
				p := r.Segments[j-1]
				if p.Span == s.Span && p.Selected == s.Selected && p.Hovered == s.Hovered && p.Noted == s.Noted {
					t.Fatalf("%s: could have been merged with the segment before", where)
				}
			}
			pos = s.End()
		}
		if pos != r.Offset+r.Length {
			t.Fatalf("row %d: segments end at %d, row ends at %d", r.Index, pos, r.Offset+r.Length)
		}
	}
}

// naiveSpan finds the span holding off by looking at every span; for a gap it also returns
// the gap's extent.
func naiveSpan(m *Model, off int) (span, gapStart, gapEnd int) {
	gapStart, gapEnd = 0, m.Len()
	for i, s := range m.spans {
		if s.Offset <= off && off < s.End() {
			return i, 0, 0
		}
		if s.End() <= off {
			gapStart = s.End()
		}
		if s.Offset > off && s.Offset < gapEnd {
			gapEnd = s.Offset
		}
	}
	return NoSpan, gapStart, gapEnd
}

func printable(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			c = '.'
		}
		sb.WriteByte(c)
	}
	return sb.String()
}

func mustNew(t testing.TB, data []byte, spans []Span, width int) *Model {
	t.Helper()
	m, err := New(data, spans, width)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// randomLayout returns n random bytes and spans covering them with gaps here and there.
func randomLayout(rng *rand.Rand, n int) ([]byte, []Span) {
	data := make([]byte, n)
	rng.Read(data)
	var spans []Span
	for off := 0; off < n; {
		l := 1 + rng.Intn(12)
		if rng.Intn(20) == 0 {
			l += rng.Intn(60) // a long value crossing several rows
		}
		l = min(l, n-off)
		if rng.Intn(6) != 0 { // leave some gaps
			spans = append(spans, Span{Offset: off, Length: l, Class: Class(rng.Intn(int(numClasses))), ID: int32(len(spans) * 10)})
		}
		off += l
	}
	return data, spans
}

func anyContains(rs []Range, off int) bool {
	for _, r := range rs {
		if r.Contains(off) {
			return true
		}
	}
	return false
}

func randomRange(rng *rand.Rand, n int) Range {
	if rng.Intn(4) == 0 {
		return Range{}
	}
	off := rng.Intn(n + 1)
	return Range{off, rng.Intn(n - off + 1)}
}

func TestRowsRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for iter := 0; iter < 300; iter++ {
		n := rng.Intn(400)
		data, spans := randomLayout(rng, n)
		width := []int{16, 16, 8, 1, 7, 32}[rng.Intn(6)]
		m := mustNew(t, data, spans, width)
		mk := Marks{Selection: randomRange(rng, n), Hover: randomRange(rng, n)}
		// Notes on random bytes, some overlapping, some touching, some past the end.
		var noted []Range
		for range rng.Intn(5) {
			r := randomRange(rng, n)
			if rng.Intn(5) == 0 {
				r.Length += 3
			}
			noted = append(noted, r)
		}
		m = m.WithNoted(noted)
		for off := range n + 3 {
			if anyContains(m.noted, off) != (off < n && anyContains(noted, off)) {
				t.Fatalf("notes on %v: byte %d of %d noted %v", noted, off, n, !anyContains(noted, off))
			}
		}
		for k := 1; k < len(m.noted); k++ {
			if m.noted[k].Offset <= m.noted[k-1].End() {
				t.Fatalf("notes on %v: noted %v, not sorted and apart", noted, m.noted)
			}
		}
		rows := m.Rows(0, m.RowCount(), mk)
		if len(rows) != m.RowCount() {
			t.Fatalf("%d rows, want %d", len(rows), m.RowCount())
		}
		checkRows(t, m, 0, rows, mk)
		// A window of rows lays out the same as those rows of the whole.
		if m.RowCount() > 0 {
			first := rng.Intn(m.RowCount())
			win := m.Rows(first, 5, mk)
			for k := range win {
				if !win[k].Equal(&rows[first+k]) {
					t.Fatalf("row %d differs when laid out from row %d", first+k, first)
				}
			}
		}
	}
}

func TestSpanCrossingRows(t *testing.T) {
	data := []byte("0123456789abcdefghijklmnopqrstuvwxyz")
	m := mustNew(t, data, []Span{{Offset: 2, Length: 4, Class: ClassLSN, ID: 1}, {Offset: 6, Length: 20, Class: ClassString, ID: 2}}, 8)
	rows := m.Rows(0, 10, Marks{})
	checkRows(t, m, 0, rows, Marks{})
	var got []string
	for _, r := range rows {
		var parts []string
		for _, s := range r.Segments {
			b := ""
			if s.StartsSpan {
				b += "["
			}
			b += s.ASCII
			if s.EndsSpan {
				b += "]"
			}
			parts = append(parts, s.Class.String()+":"+b)
		}
		got = append(got, r.Label+" "+strings.Join(parts, " "))
	}
	want := []string{
		"0000 k-none:[01] k-lsn:[2345] k-str:[67",
		"0008 k-str:89abcdef",
		"0010 k-str:ghijklmn",
		"0018 k-str:op] k-none:[qrstuv",
		"0020 k-none:wxyz]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestSelectionEdges(t *testing.T) {
	data := make([]byte, 32)
	spans := []Span{{Offset: 0, Length: 1, Class: ClassType}, {Offset: 1, Length: 8, Class: ClassLSN}, {Offset: 9, Length: 23, Class: ClassValue}}
	m := mustNew(t, data, spans, 16)
	// Selection starting inside the LSN and ending inside the value, on the next row; hover
	// inside the selection.
	mk := Marks{Selection: Range{5, 15}, Hover: Range{7, 3}}
	rows := m.Rows(0, 2, mk)
	checkRows(t, m, 0, rows, mk)
	type seg struct {
		off, n   int
		sel, hov bool
	}
	var got []seg
	for _, r := range rows {
		for _, s := range r.Segments {
			got = append(got, seg{s.Offset, s.Length, s.Selected, s.Hovered})
		}
	}
	want := []seg{{0, 1, false, false}, {1, 4, false, false}, {5, 2, true, false}, {7, 2, true, true},
		{9, 1, true, true}, {10, 6, true, false}, {16, 4, true, false}, {20, 12, false, false}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("segments %v\nwant %v", got, want)
	}
	// A split inside a span is not a field boundary.
	if s := rows[0].Segments[2]; s.StartsSpan || s.EndsSpan {
		t.Errorf("segment %+v: boundary drawn inside the LSN", s)
	}
}

func TestSpanAtAndFieldAt(t *testing.T) {
	data := make([]byte, 20)
	m := mustNew(t, data, []Span{{Offset: 3, Length: 2, ID: 7, Class: ClassXid}, {Offset: 5, Length: 0}, {Offset: 10, Length: 5, ID: 8}}, 0)
	if m.SpanCount() != 2 {
		t.Fatalf("%d spans kept, want 2 (zero-length spans left out)", m.SpanCount())
	}
	cases := []struct {
		off   int
		span  int
		ok    bool
		field Range
		id    int32
	}{
		{-1, NoSpan, false, Range{}, NoID},
		{0, NoSpan, false, Range{0, 3}, NoID},
		{2, NoSpan, false, Range{0, 3}, NoID},
		{3, 0, true, Range{3, 2}, 7},
		{4, 0, true, Range{3, 2}, 7},
		{5, NoSpan, false, Range{5, 5}, NoID},
		{9, NoSpan, false, Range{5, 5}, NoID},
		{10, 1, true, Range{10, 5}, 8},
		{14, 1, true, Range{10, 5}, 8},
		{15, NoSpan, false, Range{15, 5}, NoID},
		{19, NoSpan, false, Range{15, 5}, NoID},
		{20, NoSpan, false, Range{}, NoID},
	}
	for _, c := range cases {
		i, ok := m.SpanAt(c.off)
		if i != c.span || ok != c.ok {
			t.Errorf("SpanAt(%d) = %d, %v; want %d, %v", c.off, i, ok, c.span, c.ok)
		}
		f, ok := m.FieldAt(c.off)
		inside := c.off >= 0 && c.off < m.Len()
		if ok != inside || f.Range != c.field || f.Span != c.span || f.ID != c.id {
			t.Errorf("FieldAt(%d) = %+v, %v; want range %v span %d id %d, %v", c.off, f, ok, c.field, c.span, c.id, inside)
		}
	}
}

func TestMove(t *testing.T) {
	data := make([]byte, 40)
	spans := []Span{{Offset: 0, Length: 1}, {Offset: 1, Length: 4}, {Offset: 5, Length: 8}, {Offset: 20, Length: 10}}
	m := mustNew(t, data, spans, 16)
	cases := []struct {
		from Range
		d    Direction
		want Range
		ok   bool
	}{
		{Range{1, 4}, Right, Range{5, 8}, true},
		{Range{5, 8}, Right, Range{13, 7}, true}, // the gap
		{Range{13, 7}, Right, Range{20, 10}, true},
		{Range{30, 10}, Right, Range{}, false},
		{Range{1, 4}, Left, Range{0, 1}, true},
		{Range{0, 1}, Left, Range{}, false},
		{Range{1, 4}, Down, Range{20, 10}, true}, // offset 20, below the last byte
		{Range{0, 1}, Down, Range{13, 7}, true},  // offset 16
		{Range{20, 10}, Up, Range{1, 4}, true},   // offset 4
		{Range{30, 10}, Down, Range{}, false},
		{Range{20, 10}, Down, Range{30, 10}, true}, // into the short last row: its last byte
		{Range{13, 7}, Down, Range{30, 10}, true},  // offset 35
		{Range{}, Right, Range{0, 1}, true},        // nothing selected: start at the first field
		{Range{Offset: 22}, Down, Range{20, 10}, true},
	}
	for _, c := range cases {
		f, ok := m.Move(c.from, c.d)
		if ok != c.ok || (ok && f.Range != c.want) {
			t.Errorf("Move(%v, %d) = %v, %v; want %v, %v", c.from, c.d, f.Range, ok, c.want, c.ok)
		}
	}
	empty := mustNew(t, nil, nil, 0)
	if f, ok := empty.Move(Range{}, Right); ok {
		t.Errorf("Move on no bytes = %+v, true", f)
	}
}

func TestEmptyInput(t *testing.T) {
	m := mustNew(t, nil, nil, 0)
	if m.RowCount() != 0 || m.Rows(0, 40, Marks{}) != nil || m.RowOf(10) != 0 {
		t.Errorf("no bytes: %d rows, Rows %v, RowOf %d", m.RowCount(), m.Rows(0, 40, Marks{}), m.RowOf(10))
	}
	if _, ok := m.SpanAt(0); ok {
		t.Error("SpanAt(0) found a span in no bytes")
	}
	if _, ok := m.FieldAt(0); ok {
		t.Error("FieldAt(0) found a field in no bytes")
	}
}

func TestRowsClamps(t *testing.T) {
	m := mustNew(t, make([]byte, 100), nil, 16)
	if m.RowCount() != 7 {
		t.Fatalf("RowCount = %d, want 7", m.RowCount())
	}
	for _, c := range []struct{ first, n, wantFirst, wantN int }{
		{-5, 3, 0, 3}, {5, 10, 5, 2}, {7, 1, 0, 0}, {100, 1, 0, 0}, {2, -1, 0, 0},
	} {
		rows := m.Rows(c.first, c.n, Marks{})
		if len(rows) != c.wantN || (c.wantN > 0 && rows[0].Index != c.wantFirst) {
			t.Errorf("Rows(%d, %d): %d rows", c.first, c.n, len(rows))
		}
	}
	if r := m.Rows(6, 1, Marks{})[0]; r.Length != 4 {
		t.Errorf("last row holds %d bytes, want 4", r.Length)
	}
	for _, c := range []struct{ off, row int }{{-1, 0}, {0, 0}, {15, 0}, {16, 1}, {99, 6}, {1000, 6}} {
		if got := m.RowOf(c.off); got != c.row {
			t.Errorf("RowOf(%d) = %d, want %d", c.off, got, c.row)
		}
	}
	if f, l := m.RowsOf(Range{15, 18}); f != 0 || l != 2 {
		t.Errorf("RowsOf([15,33)) = %d, %d; want 0, 2", f, l)
	}
	if f, l := m.RowsOf(Range{Offset: 40}); f != 2 || l != 2 {
		t.Errorf("RowsOf(empty at 40) = %d, %d; want 2, 2", f, l)
	}
}

func TestOffsetLabels(t *testing.T) {
	for _, c := range []struct {
		n    int
		last string
	}{{1, "0000"}, {0x10000, "fff0"}, {0x10001, "10000"}, {1 << 20, "ffff0"}, {1<<20 + 1, "100000"}} {
		m := mustNew(t, make([]byte, c.n), nil, 16)
		rows := m.Rows(m.RowCount()-1, 1, Marks{})
		if rows[0].Label != c.last {
			t.Errorf("%d bytes: last row label %q, want %q", c.n, rows[0].Label, c.last)
		}
		if first := m.Rows(0, 1, Marks{})[0].Label; len(first) != len(c.last) {
			t.Errorf("%d bytes: first label %q not as wide as last %q", c.n, first, c.last)
		}
	}
}

func TestASCIIColumn(t *testing.T) {
	data := []byte{0x00, 0x1f, ' ', '~', 0x7f, 0x80, 0xff, '<', 'a', '>'}
	m := mustNew(t, data, nil, 16)
	s := m.Rows(0, 1, Marks{})[0].Segments[0]
	if s.ASCII != ".. ~...<a>" || s.Hex != "00 1f 20 7e 7f 80 ff 3c 61 3e" {
		t.Errorf("ascii %q hex %q", s.ASCII, s.Hex)
	}
}

func TestNewRejects(t *testing.T) {
	data := make([]byte, 10)
	cases := []struct {
		spans []Span
		index int
		text  string
	}{
		{[]Span{{Offset: -1, Length: 2}}, 0, "negative"},
		{[]Span{{Offset: 2, Length: -1}}, 0, "negative"},
		{[]Span{{Offset: 8, Length: 3}}, 0, "ends at offset 11, past the end of the 10 bytes"},
		{[]Span{{Offset: 11, Length: 0}}, 0, "past the end"},
		{[]Span{{Offset: 0, Length: 4}, {Offset: 3, Length: 2}}, 1, "starts before offset 4"},
		{[]Span{{Offset: 5, Length: 1}, {Offset: 2, Length: 1}}, 1, "starts before offset 6"},
	}
	for _, c := range cases {
		_, err := New(data, c.spans, 16)
		var se *SpanError
		if !errors.As(err, &se) || se.Index != c.index || !strings.Contains(err.Error(), c.text) {
			t.Errorf("New(%v) = %v; want span %d: %q", c.spans, err, c.index, c.text)
		}
	}
	if _, err := New(data, nil, MaxWidth+1); err == nil {
		t.Errorf("New with width %d: no error", MaxWidth+1)
	}
	// Touching spans and a zero-length span at the very end are fine.
	if _, err := New(data, []Span{{Offset: 0, Length: 5}, {Offset: 5, Length: 5}, {Offset: 10, Length: 0}}, 16); err != nil {
		t.Error(err)
	}
}

func TestClassNames(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Classes() {
		name := c.String()
		if !strings.HasPrefix(name, "k-") || seen[name] {
			t.Errorf("class %d: name %q", c, name)
		}
		seen[name] = true
	}
	if Class(200).String() != "k-none" {
		t.Errorf("unknown class named %q", Class(200).String())
	}
}

// TestRowsCostDoesNotGrowWithInput holds the allocation budget of drawing one screen: the
// same for 64 KB as for 4 MB.
func TestRowsCostDoesNotGrowWithInput(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	var allocs []float64
	for _, n := range []int{64 << 10, 4 << 20} {
		data, spans := randomLayout(rng, n)
		m := mustNew(t, data, spans, 16)
		mid := m.RowCount() / 2
		allocs = append(allocs, testing.AllocsPerRun(20, func() { m.Rows(mid, 40, Marks{Selection: Range{mid * 16, 40}}) }))
	}
	// Rows, segments, their starts, and the text of all rows (bytes, then string).
	if allocs[0] != allocs[1] || allocs[1] > 5 {
		t.Errorf("allocations per Rows(mid, 40): %v for 64 KB and 4 MB", allocs)
	}
}

func benchmarkRows(b *testing.B, n int) {
	rng := rand.New(rand.NewSource(3))
	data, spans := randomLayout(rng, n)
	m := mustNew(b, data, spans, 16)
	mk := Marks{Selection: Range{n / 2, 100}, Hover: Range{n/2 + 50, 8}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		first := (i * 997) % max(m.RowCount()-40, 1)
		m.Rows(first, 40, mk)
	}
}

// BenchmarkRows lays out one screen (40 rows) at scattered places in inputs of growing size;
// the time per screen should not grow with the input.
func BenchmarkRows(b *testing.B) {
	for _, n := range []int{64 << 10, 1 << 20, 16 << 20} {
		b.Run(fmt.Sprintf("%dKB", n>>10), func(b *testing.B) { benchmarkRows(b, n) })
	}
}

// BenchmarkNew builds the model of 1 MB with about 160,000 spans, as done once per paste.
func BenchmarkNew(b *testing.B) {
	rng := rand.New(rand.NewSource(4))
	data, spans := randomLayout(rng, 1<<20)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := New(data, spans, 16); err != nil {
			b.Fatal(err)
		}
	}
}

func TestRangeUnion(t *testing.T) {
	for _, c := range []struct{ a, b, want Range }{
		{Range{4, 2}, Range{10, 3}, Range{4, 9}},
		{Range{10, 3}, Range{4, 2}, Range{4, 9}},
		{Range{4, 10}, Range{6, 2}, Range{4, 10}},
		{Range{}, Range{6, 2}, Range{6, 2}},
		{Range{6, 2}, Range{Offset: 40}, Range{6, 2}},
	} {
		if got := c.a.Union(c.b); got != c.want {
			t.Errorf("%v.Union(%v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestSegmentClasses(t *testing.T) {
	for _, c := range []struct {
		s    Segment
		want string
	}{
		{Segment{Class: ClassLSN}, "hv-seg k-lsn"},
		{Segment{Class: ClassType, StartsSpan: true, EndsSpan: true}, "hv-seg k-type b-start b-end"},
		{Segment{Class: ClassError, StartsSpan: true, Selected: true, Hovered: true}, "hv-seg k-error b-start sel hov"},
		{Segment{EndsSpan: true, Hovered: true}, "hv-seg k-none b-end hov"},
	} {
		if got := strings.Join(c.s.Classes(), " "); got != c.want {
			t.Errorf("%+v: classes %q, want %q", c.s, got, c.want)
		}
	}
}

func TestSelect(t *testing.T) {
	f := Field{Range: Range{20, 4}, Span: 3}
	if got := Select(Range{4, 2}, f, false); got != f.Range {
		t.Errorf("click: %v", got)
	}
	if got := Select(Range{4, 2}, f, true); got != (Range{4, 20}) {
		t.Errorf("shift-click: %v", got)
	}
	if got := Select(Range{}, f, true); got != f.Range {
		t.Errorf("shift-click with nothing selected: %v", got)
	}
	for key, d := range map[string]Direction{"ArrowLeft": Left, "ArrowRight": Right, "ArrowUp": Up, "ArrowDown": Down} {
		if got, ok := ArrowKey(key); !ok || got != d {
			t.Errorf("ArrowKey(%q) = %v, %v", key, got, ok)
		}
	}
	for _, key := range []string{"Tab", "Enter", "Left", ""} {
		if _, ok := ArrowKey(key); ok {
			t.Errorf("ArrowKey(%q) taken as an arrow", key)
		}
	}
}

func TestHex(t *testing.T) {
	m := mustNew(t, []byte{0x00, 0x1f, 0xa0, 0xff, 0x42}, nil, 16)
	for _, c := range []struct {
		r    Range
		want string
	}{
		{Range{0, 5}, "001fa0ff42"},
		{Range{1, 2}, "1fa0"},
		{Range{3, 100}, "ff42"},
		{Range{-2, 3}, "00"},
		{Range{4, 0}, ""},
		{Range{9, 2}, ""},
	} {
		if got := m.Hex(c.r); got != c.want {
			t.Errorf("Hex(%v) = %q, want %q", c.r, got, c.want)
		}
	}
}

func TestFitWidth(t *testing.T) {
	m, err := New(make([]byte, 1000), nil, DefaultWidth) // 4 offset digits
	if err != nil {
		t.Fatal(err)
	}
	if got := m.RowChars(16); got != 71 {
		t.Errorf("RowChars(16) = %d, want 71 (4 digits, 3, 64)", got)
	}
	for _, c := range []struct{ chars, want int }{
		{0, 16}, {200, 16}, {71, 16}, {70, 8}, {39, 8}, {38, 4}, {23, 4}, {10, 4},
	} {
		if got := m.FitWidth(c.chars); got != c.want {
			t.Errorf("FitWidth(%d) = %d, want %d", c.chars, got, c.want)
		}
	}
	n := m.WithWidth(8)
	if n.Width() != 8 || n.RowCount() != 125 || m.Width() != 16 || m.WithWidth(16) != m {
		t.Errorf("WithWidth(8): width %d, %d rows; the original %d wide", n.Width(), n.RowCount(), m.Width())
	}
	if rows := n.Rows(1, 1, Marks{}); rows[0].Offset != 8 || rows[0].Length != 8 {
		t.Errorf("row 1 of 8 bytes: %+v", rows[0])
	}
}

// TestWithChanged: the changed ranges cut segments where they start and end, across rows and
// inside spans, mark exactly their bytes, add the "chg" class, and leave the original model
// unmarked.
func TestWithChanged(t *testing.T) {
	data := make([]byte, 32)
	spans := []Span{{Offset: 0, Length: 1, Class: ClassType}, {Offset: 1, Length: 8, Class: ClassLSN}, {Offset: 9, Length: 23, Class: ClassValue}}
	m := mustNew(t, data, spans, 16)
	c := m.WithChanged([]Range{{Offset: 3, Length: 2}, {Offset: 14, Length: 4}, {Offset: 30, Length: 9}})
	mk := Marks{Selection: Range{Offset: 4, Length: 2}}
	var got []string
	for _, r := range c.Rows(0, 2, mk) {
		for _, s := range r.Segments {
			got = append(got, fmt.Sprintf("%d+%d:%v", s.Offset, s.Length, s.Changed))
			if s.Changed != strings.Contains(strings.Join(s.Classes(), " "), "chg") {
				t.Errorf("segment %d: classes %v", s.Offset, s.Classes())
			}
		}
	}
	want := "0+1:false 1+2:false 3+1:true 4+1:true 5+1:false 6+3:false 9+5:false 14+2:true 16+2:true 18+12:false 30+2:true"
	if strings.Join(got, " ") != want {
		t.Errorf("segments %s\nwant %s", strings.Join(got, " "), want)
	}
	for _, r := range m.Rows(0, 2, mk) {
		for _, s := range r.Segments {
			if s.Changed {
				t.Errorf("the original model marks %d as changed", s.Offset)
			}
		}
	}
}

// TestWithNoted: notes' ranges, in any order, overlapping or touching, mark their bytes as
// one run each that cuts segments where it starts and ends, add the "noted" class, lie
// under the changed bytes' mark, and leave the original model unmarked.
func TestWithNoted(t *testing.T) {
	data := make([]byte, 32)
	spans := []Span{{Offset: 0, Length: 1, Class: ClassType}, {Offset: 1, Length: 8, Class: ClassLSN}, {Offset: 9, Length: 23, Class: ClassValue}}
	m := mustNew(t, data, spans, 16)
	n := m.WithChanged([]Range{{Offset: 3, Length: 2}}).WithNoted([]Range{{Offset: 12, Length: 4}, {Offset: 2, Length: 2}, {Offset: 14, Length: 6}, {Offset: 20, Length: 1}, {Offset: 29, Length: 9}, {Offset: 40, Length: 2}, {}})
	var got []string
	for _, r := range n.Rows(0, 2, Marks{}) {
		for _, s := range r.Segments {
			got = append(got, fmt.Sprintf("%d+%d:%v,%v", s.Offset, s.Length, s.Noted, s.Changed))
			if s.Noted != strings.Contains(strings.Join(s.Classes(), " "), "noted") {
				t.Errorf("segment %d: classes %v", s.Offset, s.Classes())
			}
		}
	}
	want := "0+1:false,false 1+1:false,false 2+1:true,false 3+1:true,true 4+1:false,true 5+4:false,false 9+3:false,false 12+4:true,false " +
		"16+5:true,false 21+8:false,false 29+3:true,false"
	if strings.Join(got, " ") != want {
		t.Errorf("segments %s\nwant %s", strings.Join(got, " "), want)
	}
	if len(n.noted) != 3 {
		t.Errorf("noted %v, want 3 runs", n.noted)
	}
	for _, r := range m.Rows(0, 2, Marks{}) {
		for _, s := range r.Segments {
			if s.Noted {
				t.Errorf("the original model marks %d as noted", s.Offset)
			}
		}
	}
}
