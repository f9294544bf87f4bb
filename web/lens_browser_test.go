//go:build !js

package web_test

import (
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/internal/guide"
	"pgoutput-inspector/web"
)

// The version lens in every browser: in the guide (what a release or protocol version lacks is
// struck through, with since when; the address keeps the lens) and in a decoded message (the
// message list, the tree, the hex view and the description mark what the lens lacks), and the
// lens in a share link.

// chooseLens picks a release and a protocol version (0: any) in the first lens control, as a
// reader does with its menus.
func chooseLens(b browsertest.Tab, release, proto int) {
	b.Eval(`(() => { for (const [sel, v] of [[".lens-release", "`+strconv.Itoa(release)+`"], [".lens-proto", "`+strconv.Itoa(proto)+`"]]) {
		const s = document.querySelector(".lens " + sel);
		if (s.value !== v) { s.value = v; s.dispatchEvent(new Event("change", {bubbles: true})); } } })()`, nil)
}

// struck is a JavaScript condition: the element matching selector is drawn struck through.
func struck(selector string) string {
	return `((e) => e !== null && getComputedStyle(e).textDecorationLine.includes("line-through"))(document.querySelector(` + strconv.Quote(selector) + `))`
}

// lensShows is a JavaScript condition: the guide shows entry id through the lens, its
// menus and the address saying so.
func lensShows(id string, release, proto int) string {
	hash := "#guide=" + id
	if release > 0 {
		hash += "&release=" + strconv.Itoa(release)
	}
	if proto > 0 {
		hash += "&protocol=" + strconv.Itoa(proto)
	}
	return `(() => { const r = document.querySelector(".lens .lens-release"), p = document.querySelector(".lens .lens-proto");
		return document.querySelector('.guide-nav a[aria-current="page"][data-entry="` + id + `"]') !== null &&
			r && r.value === "` + strconv.Itoa(release) + `" && p.value === "` + strconv.Itoa(proto) + `" &&
			location.hash === "` + hash + `"; })()`
}

// newField returns the field of entry id that its oldest releases lack.
func newField(t *testing.T, id string) decoder.FieldID {
	t.Helper()
	for _, f := range guide.Data().Entry(id).Fields {
		if f.Field != decoder.FieldUnknown && f.Field.Info().Since > decoder.FirstRelease {
			return f.Field
		}
	}
	t.Fatalf("%s has no field newer than PostgreSQL %d", id, decoder.FirstRelease)
	return 0
}

func TestBrowsersLensInGuide(t *testing.T) {
	xid := newField(t, "update") // the Xid of a streamed change: PostgreSQL 14, protocol 2
	row := `.guide-fields tr[data-field="` + strconv.Itoa(int(xid)) + `"]`
	eachBrowser(t, "#guide=stream-start&release=13", func(t *testing.T, b browsertest.Tab, _ string) {
		// Stream Start does not exist in PostgreSQL 13: the entry says so, the list strikes it.
		until(b, lensShows("stream-start", 13, 0)+` && document.querySelector("#guide-title") !== null &&
			getComputedStyle(document.querySelector(".guide-body p.lens-note")).display === "block" &&
			`+struck(`.guide-nav a[data-entry="stream-start"]`))
		if s := b.Text(".guide-body p.lens-note"); !strings.Contains(s, "since PostgreSQL 14, protocol 2") {
			t.Errorf("the entry's note says %q", s)
		}
		// At each release, the entries it lacks are struck in the list and the documentation
		// link is that release's.
		g := guide.Data()
		for r := decoder.FirstRelease; r <= decoder.LastRelease; r++ {
			lacks := 0
			for _, e := range g.Entries {
				if !decoder.FieldAt(e.Group, r, 0).Exists {
					lacks++
				}
			}
			chooseLens(b, r, 0)
			until(b, lensShows("stream-start", r, 0)+` && [...document.querySelectorAll(".guide-nav a")].filter((a) =>
				getComputedStyle(a).textDecorationLine.includes("line-through")).length === `+strconv.Itoa(lacks)+` &&
				[...document.querySelectorAll(".guide-doc a")].filter((a) => getComputedStyle(a).display !== "none").map((a) => a.href).join() === `+
				strconv.Quote(g.Entry("stream-start").Doc.DocsURL(r)))
		}
		// In 14 it does: nothing is struck, the note is gone.
		chooseLens(b, 14, 0)
		until(b, lensShows("stream-start", 14, 0)+` &&
			getComputedStyle(document.querySelector(".guide-body p.lens-note")).display === "none" &&
			!`+struck(`.guide-nav a[data-entry="stream-start"]`))
		// An entry link keeps the lens; Update's Xid exists in 14 but not with protocol 1.
		b.Click(`.guide-nav a[data-entry="update"]`)
		until(b, lensShows("update", 14, 0)+` && document.querySelector(`+strconv.Quote(row)+`) !== null && !`+struck(row))
		chooseLens(b, 14, 1)
		until(b, lensShows("update", 14, 1)+` && `+struck(row))
		if n := b.Count(".guide-fields tbody tr"); n < 2 {
			t.Fatalf("%d field rows", n)
		}
		var others int
		b.Eval(`[...document.querySelectorAll(".guide-fields tbody tr")].filter((r) =>
			getComputedStyle(r).textDecorationLine.includes("line-through")).length`, &others)
		if others != 1 {
			t.Errorf("%d of Update's fields struck with protocol 1, want 1 (the Xid)", others)
		}
		// What changed after the lens's release is "not yet"; with no lens nothing is.
		b.Click(`.guide-nav a[data-entry="stream-abort"]`)
		until(b, lensShows("stream-abort", 14, 1)+` && [...document.querySelectorAll(".guide-changes .lens-only")].some((e) => getComputedStyle(e).display !== "none")`)
		chooseLens(b, 0, 0)
		until(b, lensShows("stream-abort", 0, 0)+` && document.querySelectorAll(".guide-changes tr").length > 1 &&
			[...document.querySelectorAll(".guide-changes .lens-only, .guide-body .lens-note")].every((e) => getComputedStyle(e).display === "none")`)
	})
}

func TestBrowsersLensInInspector(t *testing.T) {
	ex := -1
	for i, e := range web.Examples {
		if e.Name == "Streamed transaction" {
			ex = i
		}
	}
	st := web.StateOfExample(ex)
	if st.Tree() == nil || guide.EntryID(st.Tree()) != "stream-start" {
		t.Fatal("the streamed example does not open at its Stream Start")
	}
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, base string) {
		until(b, `document.querySelector(".tnode") !== null`)
		b.Eval(`(() => { const s = document.querySelector("select.examples"); s.value = "`+strconv.Itoa(ex)+`";
			s.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil)
		until(b, `/^Bytes of message [0-9]+: Stream Start/.test(document.querySelector(".hex-panel h2").textContent) &&
			document.querySelector(".tnode") !== null && !document.querySelector(".lens-absent, .k-absent")`)
		// Seen as PostgreSQL 13: the Stream Start (row, tree, bytes) is marked, since when said.
		chooseLens(b, 13, 0)
		until(b, `document.querySelector(".mrow.selected.lens-absent") !== null &&
			document.querySelector(".tnode.lens-absent .t-lens") !== null &&
			document.querySelectorAll(".hv-hex .hv-seg.k-absent").length > 0`)
		if s := b.Text(".tnode.lens-absent .t-lens"); s != "since PostgreSQL 14, protocol 2" {
			t.Errorf("the tree says %q", s)
		}
		var title string
		b.Eval(`document.querySelector(".mrow.selected .m-type").title`, &title)
		if !strings.Contains(title, "not in PostgreSQL 13: since PostgreSQL 14, protocol 2") {
			t.Errorf("the message row's tooltip is %q", title)
		}
		b.Click(".tnode.lens-absent")
		until(b, `document.querySelector(".desc-facts") !== null && document.querySelector(".desc-facts").textContent.includes("not in PostgreSQL 13")`)
		// The lens goes into the share link.
		b.Click(".share")
		until(b, `document.querySelector(".share-status") && document.querySelector(".share-status").textContent.includes("characters")`)
		var hash string
		b.Eval(`location.hash`, &hash)
		o := openTab(t, b.Name(), base+hash)
		until(o, `document.querySelector(".lens .lens-release").value === "13" && document.querySelector(".tnode.lens-absent") !== null`)
		// In 16 nothing is marked.
		chooseLens(b, 16, 0)
		until(b, `document.querySelector(".tnode") !== null && !document.querySelector(".lens-absent, .k-absent")`)
	})
}
