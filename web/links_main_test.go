//go:build !js

package web_test

import (
	"os"
	"strings"
	"testing"
)

// TestMakeShareLinks writes share links made by the page's Share button, in Chromium, from a
// few views (a field chosen, a byte range, a filter, and on main d8ba63a also explain mode
// with the version lens), one per line, to the file $SHARE_LINKS_OUT. It made
// testdata/links/main-REV.txt on commit REV (1090c42, d8ba63a: the page as it was before notes,
// this file copied into a checkout of it), for TestOldShareLinks:
//
//	SHARE_LINKS_OUT=$PWD/web/testdata/links/main-REV.txt go test -count=1 -run '^TestMakeShareLinks$' ./web
func TestMakeShareLinks(t *testing.T) {
	out := os.Getenv("SHARE_LINKS_OUT")
	if out == "" {
		t.Skip("SHARE_LINKS_OUT not set")
	}
	b, base := open(t, "")
	var links []string
	share := func() {
		b.Eval(`location.hash = ""`, nil)
		b.Click(".share")
		waitJS(b, `location.hash.startsWith("#z1=") && document.querySelector(".share-status") && document.querySelector(".share-status").textContent.includes("characters")`)
		var h string
		b.Eval(`location.hash`, &h)
		links = append(links, h)
	}
	b.WaitVisible(".tnode")
	b.Click(`.mrow[data-msg="2"]`)
	waitJS(b, `document.querySelector(".hex-panel h2").textContent.startsWith("Bytes of message 3:") && document.querySelector(".tnode[data-node='4']")`)
	b.Click(`.tnode[data-node="4"]`)
	waitJS(b, `document.querySelector(".tnode.selected[data-node='4']")`)
	share()
	b.Navigate(base + "#hex=420000000002e34ae0000292492d0f8ae600000de4&sel=9-3&proto=2&stream=1")
	waitJS(b, `document.querySelector(".hex-panel h2").textContent.includes("Begin") && document.querySelector(".hv-seg.sel")`)
	share()
	b.Navigate(base + "#")
	b.Eval(`(() => { const f = document.querySelector("#filter"); f.value = "type:I"; f.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil)
	waitJS(b, `document.querySelector("#list-title").textContent.includes(" of ")`)
	share()
	// Explain mode (at the message's first field) on a hand-written link's message, with the
	// version lens; the filter of the view before stays.
	b.Navigate(base + "#hex=420000000002e34ae0000292492d0f8ae600000de4&sel=9-3&proto=2&stream=1&release=13&protocol=1")
	waitJS(b, `document.querySelector(".hex-panel h2").textContent.includes("Begin") && document.querySelector(".hv-seg.sel")`)
	b.Click(".explain-toggle")
	waitJS(b, `document.querySelector(".explain-toggle").getAttribute("aria-pressed") === "true" && document.querySelector(".desc-panel.explain")`)
	share()
	if err := os.WriteFile(out, []byte(strings.Join(links, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}
