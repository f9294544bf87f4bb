// Package axecore runs axe-core, the accessibility checker (the npm package axe-core), in a page
// under test. The package is installed with npm into the tests' npm cache (internal/npmcache)
// the first time a test asks for it; nothing of it is in the repository.
//
//	src, err := axecore.Source(ctx)                // axe.min.js, installed once
//	b.Eval(axecore.Script(src, nil), &violations)  // in the page: every violation found
//
// Script's program works in any browser a test drives (Chromium through chromedp, Firefox
// through WebDriver BiDi): it evaluates axe in the page and runs it on the document.
package axecore

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"pgoutput-inspector/internal/npmcache"
)

// Pin is the npm pin (internal/npmcache) that installs axe-core: its package.json names the
// release the tests use.
const Pin = "axe-core"

// Source returns the text of axe.min.js, installing the pin with npm first when it is not in
// the cache (internal/npmcache, beside puppeteer-core).
func Source(ctx context.Context) (string, error) {
	prefix, err := npmcache.Install(ctx, Pin, "the accessibility tests", nil)
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(filepath.Join(prefix, "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		return "", fmt.Errorf("axecore: %w", err)
	}
	return string(b), nil
}

// Violation is one rule the page breaks, as axe reports it.
type Violation struct {
	ID     string // the rule, such as "color-contrast"
	Impact string // "minor", "moderate", "serious" or "critical"
	Help   string
	Nodes  []Node
}

// Node is an element that breaks a rule.
type Node struct {
	Target  []string // CSS selectors that find it
	HTML    string
	Summary string // what to fix
}

// Serious reports whether the violation's impact is serious or critical.
func (v Violation) Serious() bool { return v.Impact == "serious" || v.Impact == "critical" }

func (v Violation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): %s", v.ID, v.Impact, v.Help)
	for _, n := range v.Nodes {
		fmt.Fprintf(&b, "\n\t\t%s %s\n\t\t\t%s", strings.Join(n.Target, " "), n.HTML, strings.ReplaceAll(n.Summary, "\n", "\n\t\t\t"))
	}
	return b.String()
}

// Script returns a JavaScript expression that loads axe (src, from Source) into the page,
// once, runs it on the whole document with options (axe.run's; nil for its defaults) and
// resolves to the violations as a JSON array of Violation. It is one expression, not a
// program of statements, so that every browser driver's evaluation takes it (the Firefox
// driver wraps what it evaluates in an arrow function).
func Script(src string, options map[string]any) string {
	opts, _ := json.Marshal(options)
	if options == nil {
		opts = []byte("{}")
	}
	// The source goes into the expression itself, not through eval, which the page's
	// Content-Security-Policy forbids.
	return `(async () => {
	if (typeof window.axe === "undefined") { (function () {
` + src + `
}).call(window); }
	const r = await window.axe.run(document, Object.assign({resultTypes: ["violations"]}, ` + string(opts) + `));
	return r.violations.map((v) => ({ID: v.id, Impact: v.impact || "", Help: v.help,
		Nodes: v.nodes.map((n) => ({Target: n.target.map(String), HTML: n.html, Summary: n.failureSummary || ""}))}));
})()`
}
