//go:build !js

package web_test

import (
	"os"
	"path/filepath"
	"testing"

	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/web"
)

// siteWithout returns a copy of the built page without the files named (and their .br and
// .gz copies): a host that lacks them answers 404.
func siteWithout(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(browsertest.StaticDir(t))); err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		for _, ext := range []string{"", ".br", ".gz"} {
			if err := os.Remove(filepath.Join(dir, name+ext)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// TestBrowsersGuideAssetMissing: when the guide's view asset cannot be fetched, the guide
// says so with the HTTP status, naming the file, and the page goes on (it once stopped:
// syscall/js cannot call a method of the status number).
func TestBrowsersGuideAssetMissing(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	dir := siteWithout(t, web.GuideViewAsset)
	for _, name := range browsertest.Browsers {
		t.Run(name, func(t *testing.T) {
			base := browsertest.ServeDir(t, dir)
			b := browsertest.StartTab(t, name)
			b.Allow(web.GuideViewAsset) // the failed fetch, on purpose
			b.Navigate(base + "#guide=update")
			b.WaitStarted()
			b.WaitReady("html[data-ready]")
			want := "The field guide could not be loaded: " + web.GuideViewAsset + ": HTTP 404."
			until(b, `document.querySelector(".error-box") && document.querySelector(".error-box").textContent === `+jsQuote(want))
			// The page still answers: back to the inspector, the first example shown.
			b.Click(".guide-toggle")
			until(b, `document.querySelector(".hex-panel h2") && document.querySelector(".hex-panel h2").textContent.startsWith("Bytes of message")`)
		})
	}
}
