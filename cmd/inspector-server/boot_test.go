//go:build !js

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"pgoutput-inspector/internal/browsertest"
)

// beginHex is a Begin message (final LSN 0/2E34AE0, xid 3556) for share links.
const beginHex = "420000000002e34ae0000292492d0f8ae600000de4"

// recordBootStatus runs in the page before its scripts: it keeps every text the boot status
// shows, and the sentence about the page, in window.__boot (a MutationObserver sees each
// change, even several within one task).
const recordBootStatus = `window.__boot = {texts: [], about: ""};
new MutationObserver((records) => {
	for (const r of records) {
		const t = r.target;
		if (t.id === "boot-status" || (t.parentElement && t.parentElement.id === "boot-status")) {
			for (const n of r.addedNodes) window.__boot.texts.push(n.textContent);
			if (!r.addedNodes.length) window.__boot.texts.push(t.textContent);
		}
		for (const n of r.addedNodes) {
			if (n.id === "boot-about") window.__boot.about = n.textContent;
		}
	}
}).observe(document, {childList: true, subtree: true, characterData: true});`

// TestDownloadProgress loads the page over a throttled link (10 Mbit/s, 40 ms, the page's
// budget link): while main.wasm downloads, the status says how much of its size has arrived,
// in more than one step, and always against main.wasm's own (uncompressed) size although it
// comes with brotli (the page carries the size: no amount is shown without it); a sentence
// says what the page does; then the page decodes a share link.
func TestDownloadProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	base := browsertest.Serve(t)
	info, err := os.Stat(filepath.Join(browsertest.StaticDir(t), "main.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	b := browsertest.Start(t)
	b.Run(chromedp.ActionFunc(func(ctx context.Context) error {
		if err := network.EmulateNetworkConditions(false, 40, 10e6/8, 10e6/8).Do(ctx); err != nil {
			return err
		}
		_, err := page.AddScriptToEvaluateOnNewDocument(recordBootStatus).Do(ctx)
		return err
	}))
	b.Navigate(base + "#hex=" + beginHex)
	b.WaitStarted()
	b.WaitVisible(".tnode")
	if text := b.Text("body"); !strings.Contains(text, "Final LSN") {
		t.Errorf("the page did not decode the link's Begin message:\n%s", text)
	}

	var boot struct {
		Texts []string
		About string
	}
	b.Eval(`window.__boot`, &boot)
	total := fmt.Sprintf("%.1f", float64(info.Size())/1e6)
	progress := regexp.MustCompile(`^Loading the decoder… (\d+\.\d) of (\d+\.\d) MB$`)
	seen := map[string]bool{}
	var bare []string // amounts shown without the size
	for _, text := range boot.Texts {
		m := progress.FindStringSubmatch(text)
		if m == nil {
			if strings.HasSuffix(text, " MB") {
				bare = append(bare, text)
			}
			continue
		}
		if m[2] != total {
			t.Errorf("progress %q: total %s MB, want main.wasm's size, %s MB", text, m[2], total)
		}
		seen[m[1]] = true
	}
	if len(bare) > 0 {
		t.Errorf("the status showed %d amounts without main.wasm's size, want none; texts: %q", len(bare), boot.Texts)
	}
	if len(seen) < 2 {
		t.Errorf("the status showed %d different amounts received, want several; texts: %q", len(seen), boot.Texts)
	}
	if !seen[total] {
		t.Errorf("the progress never reached %s of %s MB; texts: %q", total, total, boot.Texts)
	}
	if !strings.Contains(boot.About, "PostgreSQL logical replication") {
		t.Errorf("no sentence about the page while it loaded (got %q)", boot.About)
	}
	if resp, ok := b.Response(base + "main.wasm"); !ok || resp.Headers["content-encoding"] != "br" {
		t.Errorf("main.wasm came with Content-Encoding %q, want br (the total must not be the compressed size)", resp.Headers["content-encoding"])
	}
	t.Logf("%d status texts, %d amounts, e.g. %q", len(boot.Texts), len(seen), boot.Texts[:min(4, len(boot.Texts))])
}
