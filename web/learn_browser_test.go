//go:build !js

package web_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/internal/guide"
	"pgoutput-inspector/web"
)

// Learning the format, in every browser, one page load each: every guide entry's example
// opened in the inspector with one click, in explain mode, and for each message type every
// field of it explained in turn; the version lens at every release and protocol version, in the
// guide and on a decoded message.

// guideExample is what the page shows once entry's example is open in explain mode: the
// message chosen, its title, and each field's node and sentence in explain's order, from the
// same view asset the page reads and the same store.
type guideExample struct {
	entry   string
	msg     int
	title   string
	whole   bool // the example's message is of the entry's own type: explain it whole
	nodes   []int32
	explain []string
}

// viewAsset reads the built page's guide view (the asset the page fetches).
func viewAsset(t *testing.T) string {
	t.Helper()
	asset, err := os.ReadFile(filepath.Join(browsertest.StaticDir(t), web.GuideViewAsset))
	if err != nil {
		t.Fatal(err)
	}
	return string(asset)
}

// guideExamples opens every guide entry's example in explain mode in the store, as the page
// does, and returns what each shows.
func guideExamples(t *testing.T, asset string) []guideExample {
	t.Helper()
	var out []guideExample
	for _, e := range guide.Data().Entries {
		s, _ := web.Apply(web.NewState(0), web.OpenGuide{Entry: e.ID})
		s, _ = web.Apply(s, web.GuideLoaded{View: asset})
		if _, _, ok := s.Guide.ExampleOf(e.ID); !ok && e.ID == "gssresponse" {
			continue // no recorded capture has a GSSAPI login; its entry says so
		}
		s, _ = web.Apply(s, web.OpenExample{Explain: true})
		tr := s.Tree()
		if s.Guide.Open || tr == nil || tr.Err != nil || !s.Explain {
			t.Fatalf("%s: its example does not open decoded in explain mode", e.ID)
		}
		sm := s.Doc.Summaries[s.Msg]
		bytes := "bytes"
		if sm.Size == 1 {
			bytes = "byte" // an SSLResponse or a GSSENCResponse
		}
		ex := guideExample{entry: e.ID, msg: s.Msg, whole: guide.EntryID(tr) == e.ID,
			title: fmt.Sprintf("Bytes of message %d: %s, %d %s", s.Msg+1, sm.Name, sm.Size, bytes)}
		for n := range tr.Nodes {
			if tr.IsLeaf(n) {
				ex.nodes = append(ex.nodes, int32(n))
				ex.explain = append(ex.explain, web.ExplainText(tr, n))
			}
		}
		if e.Layer == guide.LayerMessage && !ex.whole {
			t.Fatalf("%s: its example opens at a %s", e.ID, sm.Name)
		}
		out = append(out, ex)
	}
	return out
}

// firefoxFields is how many fields of each message explain mode steps through in Firefox.
const firefoxFields = 20

// explainWalk steps explain mode with its Next button from field first (0-based) through
// field last of ex, waiting at each for the count, the sentence, the field's row selected in
// the tree and its bytes in the hex view, inside the page (one call for many fields). It
// returns "" or what the page showed instead.
func explainWalk(b browsertest.Tab, ex guideExample, first, last int) string {
	type step struct {
		Node int32  `json:"n"`
		Text string `json:"x"`
	}
	var steps []step
	for k := first; k <= last; k++ {
		steps = append(steps, step{ex.nodes[k], ex.explain[k]})
	}
	js, _ := json.Marshal(steps)
	var seen string
	b.Eval(`(async (steps, first, total) => {
		const q = (s) => document.querySelector(s);
		const now = () => { const c = q(".explain .explain-count"), x = q(".explain .explain-text"), n = q(".tnode.selected");
			return (c ? c.textContent : "no count") + "; " + (n ? "row of node " + n.dataset.node : "no row selected") + "; " +
				(q(".hv-seg.sel") ? "" : "no bytes selected; ") + (x ? JSON.stringify(x.textContent) : "no sentence"); };
		for (let k = 0; k < steps.length; k++) {
			if (k > 0 || first > 0) q(".explain-next").click();
			const want = "field " + (first + k + 1) + " of " + total, s = steps[k], end = Date.now() + 20000;
			for (;;) {
				const c = q(".explain .explain-count"), x = q(".explain .explain-text");
				if (c && c.textContent === want && x && x.textContent === s.x &&
					q('.tnode.selected[data-node="' + s.n + '"]') && q(".hv-seg.sel")) break;
				if (Date.now() > end) return want + ", node " + s.n + ", " + JSON.stringify(s.x) + ": not within 20 s; last seen: " + now();
				await new Promise((r) => setTimeout(r, 5));
			}
		}
		return "";
	})(`+string(js)+`, `+strconv.Itoa(first)+`, `+strconv.Itoa(len(ex.nodes))+`)`, &seen)
	return seen
}

// TestBrowsersEveryGuideExample opens each guide entry's example in the inspector with its
// "explain" button: the message of the entry's type (for TupleData and the envelopes, the
// message carrying them) is chosen and decoded, explain mode at its first field; for each
// message type it steps through every field to the last (in Firefox, through the first
// firefoxFields), each field's sentence shown. Back returns to the entry each time.
func TestBrowsersEveryGuideExample(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	examples := guideExamples(t, viewAsset(t))
	g := guide.Data()
	whole := 0
	for _, ex := range examples {
		if ex.whole && g.Entry(ex.entry).Layer == guide.LayerMessage {
			whole++
		}
	}
	if want := len(decoder.Messages()); whole != want {
		t.Fatalf("%d guide entries' examples are a message of their own type, want the %d message types", whole, want)
	}
	eachBrowser(t, "#guide="+examples[0].entry, func(t *testing.T, b browsertest.Tab, _ string) {
		for _, ex := range examples {
			e := g.Entry(ex.entry)
			b.Click(`.guide-nav a[data-entry="` + e.ID + `"]`)
			poll(t, b, e.ID+": the entry shown", `(`+guideShows(e.ID, e.Name)+`) ? "" : location.hash + " " + (document.querySelector("#guide-title") || {}).textContent`)
			b.Click(`button[data-open="1"]`)
			poll(t, b, e.ID+": its example open at message "+strconv.Itoa(ex.msg+1), `((h, r) => document.querySelector(".guide") === null && location.hash === "" &&
				h && h.textContent.startsWith(`+jsQuote(ex.title)+`) && r ? "" :
				location.hash + "; " + (h ? h.textContent : "no hex panel") + "; selected row " + (r ? "found" : "not found"))(
				document.querySelector(".hex-panel h2"), document.querySelector('.mrow.selected[data-msg="`+strconv.Itoa(ex.msg)+`"]'))`)
			last := 0
			switch {
			case !ex.whole:
			case b.Name() == "chromium":
				last = len(ex.nodes) - 1
			default:
				// Firefox draws the same page: its first fields of each message are enough
				// there (the whole of 16 of the 19 types; Relation, Insert and Delete have
				// a column per type) and keep the test short.
				last = min(len(ex.nodes), firefoxFields) - 1
			}
			for k := 0; k <= last; k += 20 {
				if seen := explainWalk(b, ex, k, min(k+19, last)); seen != "" {
					t.Fatalf("%s, explained: %s", e.ID, seen)
				}
			}
			b.Eval(`history.back()`, nil)
			poll(t, b, e.ID+": Back to the entry", `(`+guideShows(e.ID, e.Name)+`) ? "" : location.hash`)
		}
	})
}

// TestBrowsersLensAtEachRelease looks at Stream Abort (PostgreSQL 14, protocol 2; its abort
// LSN and time since 16, protocol 4) through the lens at every release with each protocol
// version it accepts: in the guide the fields it lacks are struck and the entry's note shows
// when the message is missing; in the inspector, on its example, the message row is marked
// when the message is missing and exactly the bytes of the fields it lacks are marked.
func TestBrowsersLensAtEachRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	const id = "stream-abort"
	e := guide.Data().Entry(id)
	var ex guideExample
	for _, x := range guideExamples(t, viewAsset(t)) {
		if x.entry == id {
			ex = x
		}
	}
	s, _ := web.Apply(web.NewState(0), web.OpenGuide{Entry: id})
	s, _ = web.Apply(s, web.GuideLoaded{View: viewAsset(t)})
	s, _ = web.Apply(s, web.OpenExample{})
	tr := s.Tree()
	type view struct {
		lens   guide.Lens
		struck []string // data-field of the guide's rows struck
		absent int      // bytes of the example marked absent
		row    bool     // the example's message row marked absent
	}
	var views []view
	kinds := map[string]bool{}
	for r := decoder.FirstRelease; r <= decoder.LastRelease; r++ {
		for p := 0; p <= decoder.MaxProtoAt(r); p++ {
			v := view{lens: guide.Lens{Release: r, Proto: p}, struck: []string{}}
			for _, f := range e.Fields {
				if f.Field != decoder.FieldUnknown && !decoder.FieldAt(f.Field, r, p).Exists {
					v.struck = append(v.struck, strconv.Itoa(int(f.Field)))
				}
			}
			for _, sp := range web.Spans(tr) {
				if id := int(sp.ID); id >= 0 && id < len(tr.Nodes) && v.lens.Absent(tr, id) != "" {
					v.absent += sp.Length
				}
			}
			v.row = v.lens.AbsentMessage(s.Doc.Summaries[s.Msg].Type) != ""
			kinds[fmt.Sprint(v.struck, v.absent, v.row)] = true
			views = append(views, v)
		}
	}
	// The releases see it three ways at least: missing, without the abort LSN and time, whole.
	if len(kinds) < 3 {
		t.Fatalf("the lens sees %s in %d ways only: %v", id, len(kinds), kinds)
	}
	eachBrowser(t, "#guide="+id, func(t *testing.T, b browsertest.Tab, _ string) {
		poll(t, b, "the entry shown", `(`+guideShows(id, e.Name)+`) ? "" : location.hash`)
		for _, v := range views {
			chooseLens(b, v.lens.Release, v.lens.Proto)
			poll(t, b, v.lens.Name()+": the guide's struck fields "+strings.Join(v.struck, ","),
				`((struck, note) => (`+lensShows(id, v.lens.Release, v.lens.Proto)+`) && struck === `+jsQuote(strings.Join(v.struck, ","))+` && note === `+strconv.FormatBool(v.row)+` ? "" :
				location.hash + "; struck " + struck + "; note shown " + note)(
				[...document.querySelectorAll(".guide-fields tbody tr")].filter((r) => getComputedStyle(r).textDecorationLine.includes("line-through")).map((r) => r.dataset.field).join(),
				getComputedStyle(document.querySelector(".guide-body p.lens-note")).display === "block")`)
		}
		// Its example in the inspector, through the lens last chosen, then each release's.
		b.Click(`button[data-open="0"]`)
		for i := len(views) - 1; i >= 0; i-- {
			v := views[i]
			if i < len(views)-1 {
				chooseLens(b, v.lens.Release, v.lens.Proto)
			}
			poll(t, b, v.lens.Name()+": the example with "+strconv.Itoa(v.absent)+" bytes marked absent",
				`((h, row, bytes) => document.querySelector(".guide") === null && h && h.textContent.startsWith(`+jsQuote(ex.title)+`) &&
				row === `+strconv.FormatBool(v.row)+` && bytes === `+strconv.Itoa(v.absent)+` ? "" :
				(h ? h.textContent : "no hex panel") + "; row marked " + row + "; " + bytes + " bytes marked")(
				document.querySelector(".hex-panel h2"),
				document.querySelector('.mrow.selected.lens-absent[data-msg="`+strconv.Itoa(ex.msg)+`"]') !== null,
				[...document.querySelectorAll(".hv-hex .hv-seg.k-absent")].reduce((n, s) => n + s.textContent.trim().split(/\s+/).length, 0))`)
		}
	})
}
