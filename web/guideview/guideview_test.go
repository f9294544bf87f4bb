//go:build !js

// The renderer runs natively, at build time (go run builds the guide asset), so its tests
// do too.

package guideview_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/internal/guide"
	"pgoutput-inspector/web"
	"pgoutput-inspector/web/guideview"
)

var built struct {
	once  sync.Once
	asset []byte
	err   error
}

// guideAsset returns the guide asset as ./build.sh wasm writes it (scripts/guide, with the
// examples and comparisons of testdata/guide), made once per test process.
func guideAsset(t *testing.T) []byte {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "guideview-test-")
		if err != nil {
			built.err = err
			return
		}
		defer os.RemoveAll(dir)
		cmd := exec.Command("go", "run", "./scripts/guide", "-asset", filepath.Join(dir, "guide.txt"))
		cmd.Dir = "../.."
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("scripts/guide: %v\n%s", err, out)
			return
		}
		built.asset, built.err = os.ReadFile(filepath.Join(dir, "guide.txt"))
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.asset
}

// render renders the view asset of the guide asset and reads it back as the page does.
func render(t *testing.T) (*guide.Guide, map[string]string, int) {
	t.Helper()
	asset := guideAsset(t)
	g, err := guide.Read(asset)
	if err != nil {
		t.Fatal(err)
	}
	b, err := guideview.Render(asset, menuExamples(t))
	if err != nil {
		t.Fatal(err)
	}
	view, first, err := web.ReadGuideView(string(b))
	if err != nil {
		t.Fatal(err)
	}
	if first != g.Entries[0].ID {
		t.Errorf("first entry %q, want %q", first, g.Entries[0].ID)
	}
	return g, view, len(b)
}

func TestEveryEntryHasItsPages(t *testing.T) {
	g, view, size := render(t)
	t.Logf("view asset: %d bytes, %d chunks", size, len(view))
	for _, e := range g.Entries {
		head, tail, nav := view["head "+e.ID], view["tail "+e.ID], view["nav "+e.ID]
		if head == "" || nav == "" {
			t.Errorf("%s: no head or nav", e.ID)
			continue
		}
		if _, ok := view["tail "+e.ID]; !ok {
			t.Errorf("%s: no tail", e.ID)
		}
		// The list of entries links every entry, this one the current page.
		for _, o := range g.Entries {
			if !strings.Contains(nav, `href="#guide=`+o.ID+`"`) {
				t.Errorf("%s: the list lacks %s", e.ID, o.ID)
			}
		}
		if !strings.Contains(nav, `href="#guide=`+e.ID+`" data-entry="`+e.ID+`" aria-current="page"`) {
			t.Errorf("%s: the list does not mark it current", e.ID)
		}
		if !strings.Contains(head, ">"+e.Name) || !strings.Contains(head, htmlText(e.Purpose)) {
			t.Errorf("%s: the head lacks its name or purpose", e.ID)
		}
		// A documentation link per release.
		for r := decoder.FirstRelease; r <= decoder.LastRelease; r++ {
			if u := e.Doc.DocsURL(r); u != "" && !strings.Contains(head, `href="`+u+`"`) {
				t.Errorf("%s: no link to %s", e.ID, u)
			}
		}
		// The byte diagram: a box per field, and the same fields in a table for screen
		// readers; then the field table.
		if n := strings.Count(head, `<div class="dbox `); n != len(e.Fields) {
			t.Errorf("%s: %d boxes, %d fields", e.ID, n, len(e.Fields))
		}
		fig := head[strings.Index(head, `<figure`):strings.Index(head, `</figure>`)]
		if n := strings.Count(fig, "<tr"); n != len(e.Fields)+1 {
			t.Errorf("%s: the diagram's table has %d rows, want %d fields and a head", e.ID, n-1, len(e.Fields))
		}
		if !strings.Contains(fig, `aria-hidden="true"`) || !strings.Contains(fig, `<div class="visually-hidden"><table>`) {
			t.Errorf("%s: the boxes are not hidden from screen readers or the table is missing", e.ID)
		}
		for _, f := range e.Fields {
			if f.Field == decoder.FieldUnknown {
				continue
			}
			name := f.Field.Info().Name
			if !strings.Contains(head, `<span class="dbox-name">`+htmlText(name)+`</span>`) {
				t.Errorf("%s: no box for %s", e.ID, name)
			}
			if w := f.Width(); w.Bytes > 0 && !strings.Contains(head, "dbox fixed w"+strconv.Itoa(w.Bytes)) {
				t.Errorf("%s: no %d-byte box for %s", e.ID, w.Bytes, name)
			}
		}
		if n := strings.Count(head, `data-field="`); n != len(e.Fields) {
			t.Errorf("%s: the field table has %d rows, %d fields", e.ID, n, len(e.Fields))
		}
		for _, id := range e.Related {
			if !strings.Contains(tail, `href="#guide=`+id+`"`) {
				t.Errorf("%s: no link to related %s", e.ID, id)
			}
		}
		// The page's CSP allows no inline script or style.
		for _, chunk := range []string{head, tail, nav} {
			if strings.Contains(chunk, "<script") || strings.Contains(chunk, "style=") || strings.Contains(chunk, " on") && strings.Contains(chunk, "onclick") {
				t.Errorf("%s: inline script or style", e.ID)
			}
		}
	}
	if view["page "+guide.VersionsPage] == "" || view["nav "+guide.VersionsPage] == "" {
		t.Error("no versions page")
	}
	for _, r := range g.Releases {
		if !strings.Contains(view["page "+guide.VersionsPage], ">PostgreSQL "+strconv.Itoa(r.Release)) {
			t.Errorf("the versions page lacks release %d", r.Release)
		}
	}
}

// TestLayers: the list of entries shows each layer in a section of its own, under its heading,
// the frontend/backend protocol's messages last before the versions page; each of those
// entries names its documentation section and the release of each change (7.4 for protocol
// 3.0), never "PostgreSQL 0".
func TestLayers(t *testing.T) {
	g, view, _ := render(t)
	nav := view["nav "+g.Entries[0].ID]
	heads := []string{"pgoutput messages", "Inside changes", "Replication protocol", "Frontend/backend protocol", "Across releases"}
	last := -1
	for _, h := range heads {
		at := strings.Index(nav, `<li class="guide-layer" role="presentation">`+h+`</li>`)
		if at < last {
			t.Fatalf("the list's sections: %q at %d, after %d", h, at, last)
		}
		last = at
	}
	wire := nav[strings.Index(nav, ">Frontend/backend protocol<"):strings.Index(nav, ">Across releases<")]
	n := 0
	for _, e := range g.Entries {
		in := strings.Contains(wire, `data-entry="`+e.ID+`"`)
		if in != (e.Layer == guide.LayerWire) {
			t.Errorf("%s (layer %d): in the frontend/backend section %v", e.ID, e.Layer, in)
		}
		if e.Layer != guide.LayerWire {
			continue
		}
		n++
		if !strings.Contains(view["head "+e.ID], htmlText(e.Doc.Title)+" ↗") {
			t.Errorf("%s: the documentation link does not say %q", e.ID, e.Doc.Title)
		}
	}
	if n < 40 {
		t.Errorf("%d frontend/backend entries", n)
	}
	for _, e := range g.Entries {
		if strings.Contains(view["tail "+e.ID], "PostgreSQL 0<") {
			t.Errorf("%s: a change says PostgreSQL 0", e.ID)
		}
	}
	if !strings.Contains(view["tail query"], "<td>PostgreSQL 7.4</td>") || !strings.Contains(view["tail copydata"], "<td>before PostgreSQL 10</td>") {
		t.Error("the changes do not say PostgreSQL 7.4 and before PostgreSQL 10")
	}
}

// TestSinceOnce: the field table's Since column says since when a field is sent once, in
// words, and nothing for a field sent by every release and protocol version.
func TestSinceOnce(t *testing.T) {
	g, view, _ := render(t)
	seen := 0
	for _, e := range g.Entries {
		head := view["head "+e.ID]
		table := head[strings.Index(head, `<table class="guide-fields"`):]
		table = table[:strings.Index(table, "</table>")]
		rows := strings.Split(table, "<tr")[2:] // after the head's row
		if len(rows) != len(e.Fields) {
			t.Fatalf("%s: %d rows, %d fields", e.ID, len(rows), len(e.Fields))
		}
		for i, f := range e.Fields {
			cell := strings.TrimSuffix(strings.TrimSuffix(rows[i][strings.LastIndex(rows[i], "<td"):], "</tbody>"), "</tr>")
			want := ""
			if f.Field != decoder.FieldUnknown {
				want = sinceWords(decoder.FieldAt(f.Field, 0, 0))
			}
			got := htmlText(want)
			if want == "" {
				got = `<td class="guide-since"></td>`
			} else {
				seen++
				got = `<td class="guide-since">` + got + `</td>`
			}
			if cell != got {
				t.Errorf("%s, field %d: Since column %q, want %q", e.ID, i+1, cell, got)
			}
		}
	}
	if seen == 0 {
		t.Error("no field of any entry says since when it is sent")
	}
}

// sinceWords is sinceText as the guide's reader reads it (the test's own copy).
func sinceWords(p decoder.Presence) string {
	var s string
	if p.Since > 0 {
		s = "since PostgreSQL " + strconv.Itoa(p.Since)
	}
	if p.Proto > 1 {
		if s == "" {
			return "with protocol " + strconv.Itoa(p.Proto)
		}
		s += ", protocol " + strconv.Itoa(p.Proto)
	}
	return s
}

// TestRepeatedFields: fields repeated together (per column, per relation) sit in one box
// that says so.
func TestRepeatedFields(t *testing.T) {
	g, view, _ := render(t)
	for _, e := range g.Entries {
		groups := 0
		for i, f := range e.Fields {
			if f.Repeat != "" && (i == 0 || e.Fields[i-1].Repeat != f.Repeat) {
				groups++
				if !strings.Contains(view["head "+e.ID], "repeated per "+f.Repeat) {
					t.Errorf("%s: no box repeated per %s", e.ID, f.Repeat)
				}
			}
		}
		if n := strings.Count(view["head "+e.ID], `<div class="drepeat">`); n != groups {
			t.Errorf("%s: %d repeated boxes, want %d", e.ID, n, groups)
		}
	}
	if !strings.Contains(view["head tupledata"], "repeated per column") {
		t.Error("TupleData's columns are not repeated per column")
	}
}

func htmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

// TestExamples: an entry with a real example shows its message's fields with their bytes and
// values, and the buttons that open it; the page can read the example's capture back.
func TestExamples(t *testing.T) {
	g, view, _ := render(t)
	st := web.GuideState{View: view}
	with := 0
	for _, e := range g.Entries {
		tail := view["tail "+e.ID]
		if e.Example.Text == "" {
			if !strings.Contains(tail, "No real capture") {
				t.Errorf("%s: no example and no word of it", e.ID)
			}
			continue
		}
		with++
		text, sel, ok := st.ExampleOf(e.ID)
		if !ok || text != e.Example.Text || sel != e.Example.Select {
			t.Errorf("%s: the example reads back as %v, message %d", e.ID, ok, sel)
			continue
		}
		d, _ := web.NewDoc(text, "", decoder.Options{}, -1)
		tr := d.Trees[sel]
		has := false
		for i := range tr.Nodes {
			has = has || guide.EntryOf(tr.Nodes[i].Field) == e.ID
		}
		if !has {
			t.Errorf("%s: the example is a %s and holds none", e.ID, guide.EntryID(tr))
		}
		for _, want := range []string{`data-open="0"`, `data-open="1"`, `<table class="guide-example"`} {
			if !strings.Contains(tail, want) {
				t.Errorf("%s: the example lacks %s", e.ID, want)
			}
		}
		leaves := 0
		for i := range tr.Nodes {
			if tr.IsLeaf(i) {
				leaves++
			}
		}
		if n := strings.Count(tail, `<td class="k-cell`); n != min(leaves, 40) {
			t.Errorf("%s: %d rows of bytes, the message has %d fields", e.ID, n, leaves)
		}
	}
	if with < len(g.Entries)-2 {
		t.Errorf("only %d of %d entries have an example", with, len(g.Entries))
	}
}

// TestOptionComparisons: the versions page shows each option capture (scripts/guideoptions)
// beside the others of its option and release: its setting, the messages it holds in order,
// and its bytes in the message tables; the page is not sent the captures themselves.
func TestOptionComparisons(t *testing.T) {
	g, view, _ := render(t)
	page := view["page "+guide.VersionsPage]
	at := strings.Index(page, `id="guide-options-compare-title"`)
	if at < 0 {
		t.Fatal("the versions page has no option comparison")
	}
	options := page[at:]
	n := 0
	for k, c := range g.Comparisons {
		if c.Setting == "" {
			continue
		}
		n++
		if !strings.Contains(options, "<code>"+c.Setting+"</code>") {
			t.Errorf("%s: its setting %s is not shown", c.Source, c.Setting)
		}
		if _, ok := view["cmp "+strconv.Itoa(k)]; ok {
			t.Errorf("%s: the capture is sent to the page", c.Source)
		}
	}
	if n == 0 {
		t.Fatal("no option captures in the guide")
	}
	for _, want := range []string{
		"Stream Start, Relation, Insert, Update, Stream Stop, Stream Abort, Stream Commit",
		"Begin Prepare, Relation, Insert, Update, Prepare, Commit Prepared",
		"Begin, Origin, Relation, Insert, Update, Commit, Begin, Insert, Commit",
		"Message, Begin, Relation, Insert, Message, Update, Commit",
		"<summary>Stream Abort</summary>", "Abort LSN",
	} {
		if !strings.Contains(options, want) {
			t.Errorf("the option comparison lacks %q", want)
		}
	}
	// The server's keepalives fall where the timing of each recording puts them: the
	// comparisons leave them out (scripts/guide), so no table compares them.
	if strings.Contains(page, "Primary keepalive") {
		t.Error("the versions page compares Primary keepalive messages")
	}
}

// menuExamples returns the examples menu with every capture, from the examples asset the page
// fetches (static/examples.txt).
func menuExamples(t *testing.T) []web.Example {
	t.Helper()
	asset, err := os.ReadFile("../../static/" + web.ExamplesAsset)
	if err != nil {
		t.Fatal(err)
	}
	exs, err := web.ReadExamples(string(asset))
	if err != nil {
		t.Fatal(err)
	}
	return exs
}
