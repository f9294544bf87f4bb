//go:build !js

package web_test

import (
	"bytes"
	"compress/flate"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/web"
)

// examplesFetched returns how many times the page has requested the examples asset.
func examplesFetched(b browsertest.Tab) int {
	var n int
	b.Eval(`performance.getEntriesByType("resource").filter((e) => new URL(e.name).pathname.endsWith("/`+web.ExamplesAsset+`")).length`, &n)
	return n
}

// exampleShown waits until the page shows example i decoded as the store decodes it: its
// description, its capture in the text box, its first message chosen (the hex view's title)
// and its name chosen in the menu.
func exampleShown(t *testing.T, b browsertest.Tab, i int) {
	t.Helper()
	ex := web.AllExamples()[i]
	st := web.StateOfExample(i)
	sm := st.Doc.Summaries[st.Msg]
	title := fmt.Sprintf("Bytes of message %d: %s, %d bytes", st.Msg+1, sm.Name, sm.Size)
	until(b, `document.querySelector(".example-desc").textContent === `+jsQuote(ex.Description)+` &&
		document.querySelector(".hex-panel h2").textContent.startsWith(`+jsQuote(title)+`) &&
		document.querySelector('.mrow.selected[data-msg="`+strconv.Itoa(st.Msg)+`"]')`)
	var text string
	b.Eval(`document.querySelector("#input-text").value`, &text)
	if text != ex.Text {
		t.Errorf("the text box holds %d characters, not example %q's capture (%d)", len(text), ex.Name, len(ex.Text))
	}
	if got := b.Text(".examples option:checked"); got != ex.Name {
		t.Errorf("the menu shows %q chosen, want %q", got, ex.Name)
	}
}

// chooseExample chooses example i in the menu.
func chooseExample(b browsertest.Tab, i int) {
	b.Eval(`(() => { const s = document.querySelector("select.examples"); s.value = "`+strconv.Itoa(i)+`";
		s.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil)
}

// TestBrowsersExamplesAsset: the page opens on the first example without fetching the
// examples asset; an example after the first, chosen in the menu, is fetched from it once and
// shown decoded; a link naming an example carries its capture and opens without the asset.
func TestBrowsersExamplesAsset(t *testing.T) {
	exs := web.AllExamples()
	update, origin := -1, -1
	for i, ex := range exs {
		switch ex.Name {
		case "Update, key changed":
			update = i
		case "Origin":
			origin = i
		}
	}
	if update <= 0 || origin <= 0 {
		t.Fatal("no examples \"Update, key changed\" and \"Origin\" after the first")
	}
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, base string) {
		exampleShown(t, b, 0)
		if n := examplesFetched(b); n != 0 {
			t.Errorf("the page fetched %s %d times to show the first example", web.ExamplesAsset, n)
		}
		chooseExample(b, update)
		exampleShown(t, b, update)
		chooseExample(b, origin)
		exampleShown(t, b, origin)
		if n := examplesFetched(b); n != 1 {
			t.Errorf("%s fetched %d times for two examples, want once", web.ExamplesAsset, n)
		}

		// A link made from an example (as Share makes it) in another tab.
		ex := exs[update]
		var z bytes.Buffer
		w, _ := flate.NewWriter(&z, flate.BestCompression)
		w.Write(web.SharePayload(web.Shared{Text: ex.Text, Msg: ex.Select, Example: ex.Name}))
		w.Close()
		o := openTab(t, b.Name(), base+web.ShareLink(z.Bytes()))
		exampleShown(t, o, update)
		if n := examplesFetched(o); n != 0 {
			t.Errorf("the link fetched %s %d times: it carries its capture", web.ExamplesAsset, n)
		}
	})
}

// TestBrowsersExamplesAssetMissing: when the examples asset cannot be fetched, the menu says
// so and names the file, and the page keeps showing the example it showed.
func TestBrowsersExamplesAssetMissing(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	dir := siteWithout(t, web.ExamplesAsset)
	for _, name := range browsertest.Browsers {
		t.Run(name, func(t *testing.T) {
			base := browsertest.ServeDir(t, dir)
			b := browsertest.StartTab(t, name)
			b.Allow(web.ExamplesAsset) // the failed fetch, on purpose
			b.Navigate(base)
			b.WaitStarted()
			b.WaitReady("html[data-ready]")
			exampleShown(t, b, 0)
			chooseExample(b, 1)
			want := "The examples could not be loaded: " + web.ExamplesAsset + ": HTTP 404."
			until(b, `document.querySelector(".example-desc.error") && document.querySelector(".example-desc").textContent === `+jsQuote(want))
			if got := b.Text(".examples option:checked"); got != web.Examples[0].Name {
				t.Errorf("after the failure the menu shows %q chosen, want %q (still shown)", got, web.Examples[0].Name)
			}
			if got := b.Text(".hex-panel h2"); !strings.HasPrefix(got, "Bytes of message") {
				t.Errorf("the page no longer shows the first example's message: %q", got)
			}
		})
	}
}
