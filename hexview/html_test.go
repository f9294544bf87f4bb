package hexview

import (
	"html"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

func TestRowHTML(t *testing.T) {
	data := []byte("I\x00\x00\x40\x00<b>&'\"\x00")
	m := mustNew(t, data, []Span{{Offset: 0, Length: 1, Class: ClassType}, {Offset: 1, Length: 4, Class: ClassOID}, {Offset: 5, Length: 7, Class: ClassString}}, 16)
	row := m.Rows(0, 1, Marks{Selection: Range{3, 4}})[0]
	got := string(row.AppendHTML(nil))
	want := `<span class="hv-off">0000</span>` +
		`<span class="hv-hex">` +
		`<span class="hv-seg k-type b-start b-end" data-o="0">49</span>` +
		`<span class="hv-seg k-oid b-start" data-o="1">00 00</span>` +
		`<span class="hv-seg k-oid b-end sel" data-o="3">40 00</span>` +
		`<span class="hv-seg k-str b-start sel" data-o="5">3c 62</span>` +
		`<span class="hv-seg k-str b-end" data-o="7">3e 26 27 22 00</span>` +
		`</span><span class="hv-ascii">` +
		`<span class="hv-seg k-type b-start b-end" data-o="0">I</span>` +
		`<span class="hv-seg k-oid b-start" data-o="1">..</span>` +
		`<span class="hv-seg k-oid b-end sel" data-o="3">@.</span>` +
		`<span class="hv-seg k-str b-start sel" data-o="5">&lt;b</span>` +
		`<span class="hv-seg k-str b-end" data-o="7">&gt;&amp;&#39;&#34;.</span>` +
		`</span>`
	if got != want {
		t.Errorf("markup:\n%s\nwant:\n%s", got, want)
	}
}

// TestRowHTMLIsInert checks, for every byte value, that the row's markup holds only the
// elements the view writes, and that the text between them reads back as the segments' text.
func TestRowHTMLIsInert(t *testing.T) {
	data := make([]byte, 256*3)
	for i := range data {
		data[i] = byte(i)
	}
	rng := rand.New(rand.NewSource(8))
	rng.Shuffle(len(data), func(i, j int) { data[i], data[j] = data[j], data[i] })
	_, spans := randomLayout(rng, len(data))
	m := mustNew(t, data, spans, 16)
	for _, row := range m.Rows(0, m.RowCount(), Marks{Selection: Range{100, 300}, Hover: Range{150, 7}}) {
		markup := string(row.AppendHTML(nil))
		var texts []string
		for rest := markup; rest != ""; {
			i := strings.IndexByte(rest, '<')
			if i < 0 {
				texts = append(texts, rest)
				break
			}
			if i > 0 {
				texts = append(texts, rest[:i])
			}
			j := strings.IndexByte(rest[i:], '>')
			tag := rest[i : i+j+1]
			if tag != "</span>" && !(strings.HasPrefix(tag, `<span class="`) && strings.Count(tag, `"`) == 2+2*strings.Count(tag, "data-o")) {
				t.Fatalf("row %d: unexpected tag %q in %s", row.Index, tag, markup)
			}
			rest = rest[i+j+1:]
		}
		want := []string{row.Label}
		for _, s := range row.Segments {
			want = append(want, s.Hex)
		}
		for _, s := range row.Segments {
			want = append(want, s.ASCII)
		}
		if len(texts) != len(want) {
			t.Fatalf("row %d: %d texts, want %d: %s", row.Index, len(texts), len(want), markup)
		}
		for i := range texts {
			if html.UnescapeString(texts[i]) != want[i] || strings.ContainsAny(texts[i], "<>\"'") {
				t.Fatalf("row %d: text %q reads as %q, want %q", row.Index, texts[i], html.UnescapeString(texts[i]), want[i])
			}
		}
	}
}

func BenchmarkRowHTML(b *testing.B) {
	rng := rand.New(rand.NewSource(9))
	data, spans := randomLayout(rng, 1<<20)
	m := mustNew(b, data, spans, 16)
	rows := m.Rows(1000, 40, Marks{})
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := range rows {
			buf = rows[k].AppendHTML(buf[:0])
		}
	}
}

// TestParseOffset reads back the offsets AppendHTML writes, and nothing else.
func TestParseOffset(t *testing.T) {
	for _, off := range []int{0, 7, 16, 1 << 20, 999999999999999999} {
		s := string(strconv.AppendInt(nil, int64(off), 10))
		if got, ok := ParseOffset(s); !ok || got != off {
			t.Errorf("ParseOffset(%q) = %d, %v; want %d, true", s, got, ok, off)
		}
	}
	for _, s := range []string{"", "-1", "+1", " 1", "1 ", "1a", "0x10", "99999999999999999999"} {
		if got, ok := ParseOffset(s); ok {
			t.Errorf("ParseOffset(%q) = %d, true; want false", s, got)
		}
	}
}
