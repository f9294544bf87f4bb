//go:build !js

package web_test

import (
	"fmt"
	"strconv"
	"testing"

	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/internal/guide"
	"pgoutput-inspector/web"
)

// explainShows is a JavaScript condition: explain mode shows field k (1-based) of total, node
// selected in the tree, with sentence.
func explainShows(k, total int, node int32, sentence string) string {
	return `(() => { const c = document.querySelector(".explain .explain-count"), x = document.querySelector(".explain .explain-text");
		return c && c.textContent === "field ` + strconv.Itoa(k) + ` of ` + strconv.Itoa(total) + `" &&
			x.textContent === ` + jsQuote(sentence) + ` &&
			document.querySelector('.tnode.selected[data-node="` + strconv.Itoa(int(node)) + `"]') !== null &&
			document.querySelector(".hv-seg.sel") !== null; })()`
}

// TestBrowserExplainEveryMessageType turns explain mode on at a message of each type in the
// examples menu and checks the first and the last field's sentence (the decoder's, for that
// node), selection and count, and that Next stays at the last; then the keyboard. Stepping
// through every field of a message of each type is TestBrowsersEveryGuideExample's.
func TestBrowserExplainEveryMessageType(t *testing.T) {
	b, _ := open(t, "")
	b.WaitVisible(".tnode")
	seen := map[string]bool{}
	for i, ex := range web.Examples {
		st := web.StateOfExample(i)
		tr := st.Tree()
		if tr == nil || tr.Err != nil || seen[guide.EntryID(tr)] {
			continue
		}
		seen[guide.EntryID(tr)] = true
		sm := st.Doc.Summaries[st.Msg]
		title := fmt.Sprintf("Bytes of message %d: %s, %d bytes", st.Msg+1, sm.Name, sm.Size)
		b.Eval(`(() => { const s = document.querySelector("select.examples"); s.value = "`+strconv.Itoa(i)+`";
			s.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil)
		waitJS(b, `document.querySelector(".example-desc").textContent === `+jsQuote(ex.Description)+` &&
			document.querySelector(".hex-panel h2").textContent.startsWith(`+jsQuote(title)+`) &&
			document.querySelector(".desc-panel:not(.explain)") !== null`)
		var fields []int32
		for n := range tr.Nodes {
			if tr.IsLeaf(n) {
				fields = append(fields, int32(n))
			}
		}
		b.Click(".explain-toggle")
		waitJS(b, explainShows(1, len(fields), fields[0], web.ExplainText(tr, int(fields[0]))))
		// Every field in turn, of a message of each type, is TestBrowsersEveryGuideExample's
		// walk; here the last field (End), where Next stays; Done gives the description back.
		b.Eval(`document.querySelector(".explain").focus()`, nil)
		b.Press("End")
		last := len(fields) - 1
		waitJS(b, explainShows(last+1, len(fields), fields[last], web.ExplainText(tr, int(fields[last]))))
		b.Click(".explain-next")
		frame(b)
		waitJS(b, explainShows(last+1, len(fields), fields[last], web.ExplainText(tr, int(fields[last]))))
		b.Click(".explain-stop")
		waitJS(b, `document.querySelector(".explain") === null && document.querySelector(".desc-panel") !== null`)
	}
	if len(seen) < 20 {
		t.Errorf("explained %d message types: %v", len(seen), seen)
	}
	// The keyboard, with the panel focused: → ← Home End, Escape leaves.
	st := web.NewState(0)
	tr := st.Tree()
	var fields []int32
	for n := range tr.Nodes {
		if tr.IsLeaf(n) {
			fields = append(fields, int32(n))
		}
	}
	b.Eval(`(() => { const s = document.querySelector("select.examples"); s.value = "0";
		s.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil)
	waitJS(b, `document.querySelector(".example-desc").textContent === `+jsQuote(web.Examples[0].Description))
	b.Click(".explain-toggle")
	waitJS(b, explainShows(1, len(fields), fields[0], web.ExplainText(tr, int(fields[0]))))
	b.Eval(`document.querySelector(".explain").focus()`, nil)
	b.Press("ArrowRight")
	waitJS(b, explainShows(2, len(fields), fields[1], web.ExplainText(tr, int(fields[1]))))
	b.Press("End")
	last := len(fields) - 1
	waitJS(b, explainShows(last+1, len(fields), fields[last], web.ExplainText(tr, int(fields[last]))))
	b.Press("ArrowLeft")
	waitJS(b, explainShows(last, len(fields), fields[last-1], web.ExplainText(tr, int(fields[last-1]))))
	b.Press("Home")
	waitJS(b, explainShows(1, len(fields), fields[0], web.ExplainText(tr, int(fields[0]))))
	b.Press("Escape")
	waitJS(b, `document.querySelector(".explain") === null`)
}

// TestBrowsersExplain: explain mode steps in every browser.
func TestBrowsersExplain(t *testing.T) {
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, _ string) {
		until(b, `document.querySelector(".tnode")`)
		st := web.NewState(0)
		tr := st.Tree()
		var fields []int32
		for n := range tr.Nodes {
			if tr.IsLeaf(n) {
				fields = append(fields, int32(n))
			}
		}
		b.Click(".explain-toggle")
		until(b, explainShows(1, len(fields), fields[0], web.ExplainText(tr, int(fields[0]))))
		b.Click(".explain-next")
		until(b, explainShows(2, len(fields), fields[1], web.ExplainText(tr, int(fields[1]))))
		b.Click(".explain-stop")
		until(b, `document.querySelector(".explain") === null`)
	})
}
