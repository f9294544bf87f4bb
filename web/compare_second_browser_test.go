//go:build !js

package web_test

import (
	"strconv"
	"testing"

	"pgoutput-inspector/hexview"
	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/web"
)

// TestBrowsersCompareSecondInput pastes a second input in the comparison: the binary-mode
// capture of the changes the page's text capture holds (PostgreSQL 18). The number box,
// stepped with the arrow key, pins the first Insert into public.types of the second input
// beside the one chosen in the list: the sentence and the heads say which input the pinned
// message is from, and c_int4's value is the same value in other bytes (≈), as web.Compare
// says of the two messages; the boxes are all the DOM the second input adds. A number past the
// last message shows the last, the one pinned, and the sentence says there is no such message.
// A second input that does not read shows its error, and the page's message is pinned again;
// one that reads in part, its message cut short, shows both errors.
func TestBrowsersCompareSecondInput(t *testing.T) {
	text, second := corpus(t, "pg18-text"), corpus(t, "pg18-binary-parallel")
	d, d2 := decodedWhole(t, text), decodedWhole(t, second)
	b, a := web.NthChange(t, d, 'I', "public.types", 1), web.NthChange(t, d2, 'I', "public.types", 1)
	c := web.Compare(d2.Trees[a], d.Trees[b], a, b)
	row := web.ValueRow(t, c, 7)
	if c.Rows[row].Diff != web.DiffEncoded {
		t.Fatalf("the model: c_int4's row %d", row)
	}
	ma, mb := strconv.Itoa(a+1), strconv.Itoa(b+1)
	pinned := "message " + ma + " of " + strconv.Itoa(len(d2.Messages)) + " of the second input" + " (" + d2.Summaries[a].Line() + ")"
	const why = `(document.querySelector(".change-why") || {}).textContent`
	const heads = `[...document.querySelector(".change-head").children].map((e) => e.textContent).join(" | ")`
	const setBox = `((sel, v) => { const e = document.querySelector(".compare-steps " + sel); e.value = v; e.focus();
		e.dispatchEvent(new InputEvent("input", {bubbles: true, inputType: "insertFromPaste"})); })`
	// The errors of a second input read in part whose one message is cut short, as the store
	// writes them.
	s, _ := web.Apply(web.NewState(-1), web.SetText{Text: text})
	s, _ = web.Apply(s, web.SelectMessage{Msg: b})
	s, _ = web.Apply(s, web.CompareWith{On: true})
	s, _ = web.Apply(s, web.CompareInput{Text: "4900004001\nzz"})
	partErr := s.Compare.Change.Err + " " + s.Compare.Change.MsgErr
	if s.Compare.Change.Err == "" || s.Compare.Change.MsgErr == "" {
		t.Fatalf("the model: errors %q, %q", s.Compare.Change.Err, s.Compare.Change.MsgErr)
	}
	h := strconv.Itoa(hexview.RowHeight)
	eachBrowser(t, "", func(t *testing.T, br browsertest.Tab, _ string) {
		pasteAt1400(t, br, text)
		chooseMessage(t, br, d, b)
		br.Click(".compare-toggle")
		waitFor(t, br, "message "+mb+" pinned", why+` === "Message `+mb+` is pinned: choose another message in the list to compare it with."`, why)
		// The number first (one short of the message), then the text, then the arrow key.
		br.Eval(setBox+`("input[type=number]", `+jsQuote(strconv.Itoa(a))+`)`, nil)
		br.Eval(setBox+`("textarea", `+jsQuote(second)+`)`, nil)
		waitFor(t, br, "message "+strconv.Itoa(a)+" of the second input pinned", why+`.startsWith("Message `+strconv.Itoa(a)+` of ")`, why)
		br.Eval(`document.querySelector(".compare-steps input[type=number]").focus()`, nil)
		br.Press("ArrowUp")
		waitFor(t, br, "message "+ma+" of the second input pinned", why+`.startsWith(`+jsQuote("M"+pinned[1:]+", pinned, beside message "+mb+", chosen in the list. Fields: ")+`)`, why)
		var got string
		br.Eval(heads, &got)
		if got != "field | "+pinned+" | message "+mb {
			t.Errorf("the heads: %s", got)
		}
		br.Eval(`document.querySelectorAll(".compare-steps *").length + " " + document.querySelectorAll(".change > .error-box").length`, &got)
		if got != "4 0" {
			t.Errorf("the steps' elements and the errors: %s", got)
		}
		// c_int4's value: ≈, the same value in other bytes.
		br.Eval(`document.querySelector(".change-list").scrollTop = `+strconv.Itoa((row-5)*hexview.RowHeight), nil)
		listSettled(t, br, "the comparison", ".change-list", ".crow")
		br.Eval(`(() => { const r = [...document.querySelectorAll(".change-list .crow")].find((e) => Math.round(parseFloat(e.style.top) / `+h+`) === `+strconv.Itoa(row)+`);
			return r.classList.contains("changed") + " | " + r.firstElementChild.textContent.trim() + " | " + r.firstElementChild.title.trim(); })()`, &got)
		if want := "false | Value ≈ | Value ≈ (the same value in other bytes)"; got != want {
			t.Errorf("c_int4's value: %s, want %s", got, want)
		}
		// A number past the last message: the box shows the last, pinned, bounded by min and
		// max, and the sentence says why.
		n := strconv.Itoa(len(d2.Messages))
		br.Eval(setBox+`("input[type=number]", "9999")`, nil)
		const box = `document.querySelector(".compare-steps input[type=number]")`
		waitFor(t, br, "the last message pinned", box+`.value === "`+n+`" && `+box+`.max === "`+n+`" && `+box+`.min === "1" && `+
			why+`.startsWith(`+jsQuote("Message "+n+" of "+n+" of the second input"+" ("+d2.Summaries[len(d2.Messages)-1].Line()+")"+", pinned (the nearest there is to the number asked), beside message "+mb)+`)`,
			box+`.value + " " + `+box+`.max + " / " + `+why)
		// A second input that does not read.
		br.Eval(setBox+`("textarea", "not bytes at all")`, nil)
		waitFor(t, br, "the error", `(document.querySelector(".compare-error") || {}).textContent?.startsWith("The second input could not be read: line 1, column ") &&
			document.querySelector(".compare-error").getAttribute("role") === "alert" && `+why+`.startsWith("Message `+mb+` is pinned")`,
			`(document.querySelector(".compare-error") || {}).textContent + " / " + `+why)
		// A second input read in part, its one message cut short: both errors, one after the other.
		br.Eval(setBox+`("textarea", "4900004001\nzz")`, nil)
		waitFor(t, br, "both errors", `(document.querySelector(".compare-error") || {}).textContent === `+jsQuote(partErr), `(document.querySelector(".compare-error") || {}).textContent`)
	})
}
