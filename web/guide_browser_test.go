//go:build !js

package web_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/internal/guide"
)

// The field guide in the browser: every entry reached through the guide's own links, its
// byte diagram and its table alternative, the Guide button at the chosen message, Back and
// Forward, and #guide= links opened directly.

// guideShows is a JavaScript condition: the guide shows entry id (its title, its place in
// the list of entries marked current, the address).
func guideShows(id, title string) string {
	return `(() => { const h = document.querySelector("#guide-title");
		return h && h.textContent.startsWith(` + strconv.Quote(title) + `) &&
			document.querySelector('.guide-nav a[aria-current="page"][data-entry="` + id + `"]') !== null &&
			location.hash === "#guide=` + id + `"; })()`
}

func TestBrowserGuideEveryEntry(t *testing.T) {
	g := guide.Data()
	b, _ := open(t, "#guide="+g.Entries[0].ID)
	waitJS(b, guideShows(g.Entries[0].ID, g.Entries[0].Name))
	for _, e := range append(g.Entries[1:], g.Entries[0]) {
		// The guide's own link, as a reader clicks it.
		b.Click(`.guide-nav a[data-entry="` + e.ID + `"]`)
		waitJS(b, guideShows(e.ID, e.Name))
		var got struct {
			Boxes, Rows, Fields, Docs, Example int
			Top                                float64
			Wide, PageScrolls                  bool
		}
		b.Eval(`(() => { const h = document.querySelector(".guide-body");
			return {Boxes: h.querySelectorAll(".diagram .dbox").length,
				Rows: h.querySelectorAll("figure .visually-hidden table tbody tr").length,
				Fields: h.querySelectorAll("table.guide-fields tbody tr").length,
				Docs: h.querySelectorAll(".guide-doc a[href^='https://www.postgresql.org/docs/']").length,
				Example: h.querySelectorAll(".guide-example tbody td.k-cell").length + h.querySelectorAll("button[data-open]").length,
				Top: h.scrollTop, Wide: h.scrollWidth > h.clientWidth,
				PageScrolls: document.documentElement.scrollHeight > innerHeight || document.documentElement.scrollWidth > innerWidth}; })()`, &got)
		n := len(e.Fields)
		if got.Boxes != n || got.Rows != n || got.Fields != n {
			t.Errorf("%s: %d boxes, %d rows in the diagram's table, %d in the field table; the entry has %d fields",
				e.ID, got.Boxes, got.Rows, got.Fields, n)
		}
		// Every entry has a real example: its bytes field by field and the two buttons that
		// open it in the inspector. GSSResponse's needs a Kerberos login no recorded capture
		// has: its entry says so.
		if e.ID == "gssresponse" {
			if !strings.Contains(b.Text(".guide-body"), "No real capture") {
				t.Errorf("%s: no example and no word of it", e.ID)
			}
		} else if got.Example < 3 {
			t.Errorf("%s: no example with its bytes and Open buttons", e.ID)
		}
		if got.Docs == 0 {
			t.Errorf("%s: no link to the PostgreSQL documentation", e.ID)
		}
		if got.Wide || got.PageScrolls {
			t.Errorf("%s: the entry is wider than its panel (%v) or the page scrolls (%v)", e.ID, got.Wide, got.PageScrolls)
		}
		if got.Top != 0 {
			t.Errorf("%s: the entry opened scrolled to %v", e.ID, got.Top)
		}
	}
	// The versions page.
	b.Click(`.guide-nav a[data-entry="versions"]`)
	waitJS(b, guideShows("versions", "Releases"))
	if n := b.Count(".guide-releases tbody tr"); n != decoder.LastRelease-decoder.FirstRelease+1 {
		t.Errorf("the versions page lists %d releases", n)
	}
	// Every pgoutput option is shown set each way on the same change (binary: in the release
	// comparisons, text beside binary); no table compares the server's keepalives.
	var shown struct {
		Options   []string
		Summaries []string
	}
	b.Eval(`({Options: [...document.querySelectorAll(".option-compare h4 code")].map((c) => c.textContent),
		Summaries: [...document.querySelectorAll(".guide-body details.compare summary")].map((s) => s.textContent)})`, &shown)
	for _, o := range guide.Data().Options {
		if o.Name != "binary" && !slices.Contains(shown.Options, o.Name) {
			t.Errorf("the versions page does not compare the option %s (it compares %v)", o.Name, shown.Options)
		}
	}
	if len(shown.Summaries) == 0 || slices.Contains(shown.Summaries, "Primary keepalive") {
		t.Errorf("the versions page's comparisons: %v", shown.Summaries)
	}
}

func TestBrowserGuideButtonAndBack(t *testing.T) {
	b, _ := open(t, "")
	b.WaitVisible(".tnode")
	treeSettled(t, b)
	tree := treeText(b)
	// The Insert example is chosen: the guide opens at Insert.
	b.Click(".guide-toggle")
	waitJS(b, guideShows("insert", "Insert"))
	if n := b.Count(".hex-panel"); n != 0 {
		t.Errorf("the inspector's panels are still drawn beside the guide")
	}
	b.Click(`.guide-nav a[data-entry="update"]`)
	waitJS(b, guideShows("update", "Update"))
	// Back goes to Insert, then to the inspector as it was; Forward to the guide again.
	b.Eval(`history.back()`, nil)
	waitJS(b, guideShows("insert", "Insert"))
	b.Eval(`history.back()`, nil)
	waitJS(b, `document.querySelector(".tnode") !== null && document.querySelector(".guide") === null && location.hash === ""`)
	waitSameRows(t, b, tree)
	b.Eval(`history.forward()`, nil)
	waitJS(b, guideShows("insert", "Insert"))
	// The guide's own button leads back to the inspector.
	b.Click(".guide-toggle")
	waitJS(b, `document.querySelector(".tnode") !== null && document.querySelector(".guide") === null && location.hash === ""`)
}

// TestBrowsersGuideLink: a #guide= link opens its entry in every browser; the related
// entries are links too, and so are the frontend/backend protocol's entries.
func TestBrowsersGuideLink(t *testing.T) {
	eachBrowser(t, "#guide=update", func(t *testing.T, b browsertest.Tab, _ string) {
		until(b, guideShows("update", "Update"))
		if n := b.Count(".diagram .dbox"); n == 0 {
			t.Error("no byte diagram")
		}
		text := b.Text(".guide-body")
		for _, want := range []string{"Where it travels", "Byte layout", "Fields", "Related"} {
			if !strings.Contains(text, want) {
				t.Errorf("the Update entry lacks %q", want)
			}
		}
		b.Click(`.guide-related a[data-entry="relation"]`)
		until(b, guideShows("relation", "Relation"))
		// The frontend/backend protocol's section: a SASLResponse, its proof shown as '*'.
		if nav := b.Text(".guide-nav"); !strings.Contains(nav, "Frontend/backend protocol") {
			t.Error("the list of entries has no frontend/backend protocol section")
		}
		b.Click(`.guide-nav a[data-entry="saslresponse"]`)
		until(b, guideShows("saslresponse", "SASLResponse"))
		if ex := b.Text(".guide-example"); !strings.Contains(ex, "2a 2a 2a 2a") {
			t.Errorf("the SASLResponse example does not show its data as '*': %.200q", ex)
		}
		b.Click(".guide-toggle")
		until(b, `document.querySelector(".tnode") !== null && document.querySelector(".guide") === null`)
	})
}

// TestBrowserGuideScreenshot takes the guide's picture for the README (docs/guide.png with
// -update-screenshot): the Update entry, its byte diagram in view.
func TestBrowserGuideScreenshot(t *testing.T) {
	b, _ := open(t, "#guide=update")
	b.SetViewport(1400, 900)
	waitJS(b, `innerWidth === 1400`)
	waitJS(b, guideShows("update", "Update"))
	path := t.TempDir() + "/guide.png"
	if *updateScreenshot {
		path = "../docs/guide.png"
	}
	b.Screenshot(path)
}

// TestBrowserGuideExample: an entry's example opens in the inspector in explain mode with one
// click, its message chosen; Back returns to the entry.
func TestBrowserGuideExample(t *testing.T) {
	b, _ := open(t, "#guide=update")
	waitJS(b, guideShows("update", "Update"))
	if n := b.Count(".guide-example tbody tr"); n == 0 {
		t.Fatal("the Update entry shows no example")
	}
	b.Click(`button[data-open="1"]`)
	waitJS(b, `document.querySelector(".guide") === null && location.hash === "" &&
		/^Bytes of message [0-9]+: Update/.test(document.querySelector(".hex-panel h2").textContent) &&
		/^field 1 of [0-9]+$/.test(document.querySelector(".explain .explain-count").textContent) &&
		document.querySelector(".explain .explain-text").textContent !== ""`)
	b.Click(".explain-next")
	waitJS(b, `/^field 2 of [0-9]+$/.test(document.querySelector(".explain .explain-count").textContent)`)
	b.Eval(`history.back()`, nil)
	waitJS(b, guideShows("update", "Update"))
	b.Click(`button[data-open="0"]`)
	waitJS(b, `document.querySelector(".guide") === null && document.querySelector(".explain") === null &&
		/^Bytes of message [0-9]+: Update/.test(document.querySelector(".hex-panel h2").textContent)`)
}
