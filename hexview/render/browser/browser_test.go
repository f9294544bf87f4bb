//go:build !js

// The browser tests build the page and start Chromium: native only.

package browser

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"pgoutput-inspector/hexview"
	"pgoutput-inspector/internal/browsertest"
)

// rowHeight is the height of every row; boxHeight is the box's height in the page's CSS.
const (
	rowHeight = hexview.RowHeight
	boxHeight = 600
)

// servePage builds testdata/page for the browser and serves it with wasm_exec.js and
// hexview.css, under the inspector's headers and Content-Security-Policy: the View must work
// without inline styles or scripts.
func servePage(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the page: %v", err)
	}
	build := exec.Command(goBin, "build", "-trimpath", "-o", filepath.Join(dir, "main.wasm"), "./testdata/page")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the page: %v\n%s", err, out)
	}
	goroot, err := exec.Command(goBin, "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	for dst, src := range map[string]string{
		"wasm_exec.js": filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"),
		"hexview.css":  filepath.Join("..", "..", "hexview.css"),
		"index.html":   filepath.Join("testdata", "page", "index.html"),
		"frames.js":    filepath.Join("testdata", "page", "frames.js"),
		"boot.js":      filepath.Join("testdata", "page", "boot.js"),
		"page.css":     filepath.Join("testdata", "page", "page.css"),
	} {
		copyFile(t, src, filepath.Join(dir, dst))
	}
	return browsertest.ServeDir(t, dir) // with the page's Content-Security-Policy
}

func copyFile(t testing.TB, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

type stats struct {
	Bytes, Spans, Rows     int
	ModelMs, FirstRenderMs float64
}

// open starts the browser on the page and waits for the program's first render.
func open(t testing.TB) (*browsertest.Browser, stats) {
	t.Helper()
	base := servePage(t)
	b := browsertest.Start(t)
	b.Navigate(base)
	var s stats
	b.Eval(`new Promise((resolve) => {
		const tick = () => window.hvStats ? resolve(window.hvStats) : setTimeout(tick, 5);
		tick();
	})`, &s)
	return b, s
}

// marks returns the page's selection and hover.
func marks(t *testing.T, b *browsertest.Browser) (sel, hov [2]int) {
	t.Helper()
	var s string
	b.Eval(`hvMarks()`, &s)
	var v [4]int
	for i, f := range strings.Split(s, ",") {
		v[i], _ = strconv.Atoi(f)
	}
	return [2]int{v[0], v[1]}, [2]int{v[2], v[3]}
}

// settle waits until vecty has drawn everything asked for: two frames in which it drew
// nothing more.
func settle(b *browsertest.Browser) {
	b.Eval(`(async () => {
		const frame = () => new Promise((r) => hvRaf(r));
		let n = -1;
		while (n !== hvFrames.length) { n = hvFrames.length; await frame(); await frame(); }
	})()`, nil)
}

// held is a mouse event made while the left button is down.
func held(p *input.DispatchMouseEventParams) *input.DispatchMouseEventParams {
	return p.WithButton(input.Left).WithButtons(1)
}

// center returns the middle of the first element matching the selector, in page pixels.
func center(t *testing.T, b *browsertest.Browser, selector string) (x, y float64) {
	t.Helper()
	var r []float64
	b.Eval(fmt.Sprintf(`(() => {
		const e = document.querySelector(%q);
		if (!e) return null;
		const r = e.getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2];
	})()`, selector), &r)
	if len(r) != 2 {
		t.Fatalf("no element %s", selector)
	}
	return r[0], r[1]
}

// segmentAt returns data-o of the segments of the field the selector's segment belongs to
// that carry the class, in the hex column.
func offsetsWith(t *testing.T, b *browsertest.Browser, class string) []int {
	t.Helper()
	var offs []int
	b.Eval(fmt.Sprintf(`[...document.querySelectorAll(".hv-hex .hv-seg.%s")].map((e) => +e.dataset.o)`, class), &offs)
	slices.Sort(offs)
	return offs
}

func TestViewInChromium(t *testing.T) {
	b, s := open(t)
	t.Logf("page: %d bytes, %d spans, %d rows; model built in %.1f ms, first render done %.1f ms after start",
		s.Bytes, s.Spans, s.Rows, s.ModelMs, s.FirstRenderMs)
	settle(b)

	// Only the rows in view are drawn.
	wantRows := (boxHeight+rowHeight-1)/rowHeight + 1 + 2*4
	if got := b.Count(".hv-row"); got != wantRows {
		t.Errorf("%d rows in the DOM, want %d", got, wantRows)
	}
	nodes, elements := b.NodeCount(), b.ElementCount()
	t.Logf("DOM after the first render of %d bytes: %d nodes, %d elements", s.Bytes, nodes, elements)
	if nodes > 3000 {
		t.Errorf("%d DOM nodes for one screen", nodes)
	}
	var scrollHeight int
	b.Eval(`document.querySelector(".hv").scrollHeight`, &scrollHeight)
	if scrollHeight != s.Rows*rowHeight {
		t.Errorf("scroll height %d, want %d rows of %d px", scrollHeight, s.Rows, rowHeight)
	}
	if n := b.Count("img"); n != 0 {
		t.Errorf("%d img elements: bytes were read as markup", n)
	}
	var ascii string
	b.Eval(`[...document.querySelectorAll(".hv-ascii")].map((e) => e.textContent).join("")`, &ascii)
	if !strings.Contains(ascii, "<img src=x onerror=alert(1)>") {
		t.Errorf("the ASCII column %q does not show the value as text", ascii)
	}

	// The View follows the box's height as the page changes it.
	b.Eval(`document.querySelector(".hv").style.height = "700px"`, nil)
	settle(b)
	if got, want := b.Count(".hv-row"), (700+rowHeight-1)/rowHeight+1+2*4; got != want {
		t.Errorf("box grown to 700 px: %d rows in the DOM, want %d", got, want)
	}
	b.Eval(`document.querySelector(".hv").style.height = ""`, nil)
	settle(b)
	if got := b.Count(".hv-row"); got != wantRows {
		t.Errorf("box back to %d px: %d rows in the DOM, want %d", boxHeight, got, wantRows)
	}

	// Hover: the field under the pointer is reported and drawn.
	x, y := center(t, b, `.hv-hex .hv-seg.k-oid`)
	b.Run(chromedp.MouseEvent(input.MouseMoved, x, y))
	settle(b)
	_, hov := marks(t, b)
	var oid int
	b.Eval(`+document.querySelector(".hv-hex .hv-seg.k-oid").dataset.o`, &oid)
	if hov != [2]int{oid, 4} {
		t.Errorf("hovering the OID at %d: hover %v, want [%d 4]", oid, hov, oid)
	}
	if got := offsetsWith(t, b, "hov"); !slices.Equal(got, []int{oid}) {
		t.Errorf("hovered segments at %v, want [%d]", got, oid)
	}

	// Click selects the field; Shift-click grows the selection; the arrow keys move it.
	b.Run(chromedp.MouseClickXY(x, y))
	settle(b)
	if sel, _ := marks(t, b); sel != [2]int{oid, 4} {
		t.Errorf("clicking the OID: selection %v, want [%d 4]", sel, oid)
	}
	if got := offsetsWith(t, b, "sel"); !slices.Equal(got, []int{oid}) {
		t.Errorf("selected segments at %v, want [%d]", got, oid)
	}
	b.Run(chromedp.KeyEvent(kb.ArrowRight))
	settle(b)
	if sel, _ := marks(t, b); sel != [2]int{oid + 4, 1} {
		t.Errorf("ArrowRight from the OID: selection %v, want the marker [%d 1]", sel, oid+4)
	}
	x2, y2 := center(t, b, `.hv-hex .hv-seg.k-len`)
	var length int
	b.Eval(`+document.querySelector(".hv-hex .hv-seg.k-len").dataset.o`, &length)
	b.Run(chromedp.MouseClickXY(x2, y2, chromedp.ButtonModifiers(input.ModifierShift)))
	settle(b)
	if sel, _ := marks(t, b); sel != [2]int{oid + 4, length + 4 - (oid + 4)} {
		t.Errorf("Shift-click on the length at %d: selection %v", length, sel)
	}

	// Dragging from the OID to the length selects from one to the other.
	b.Run(
		chromedp.MouseEvent(input.MousePressed, x, y, chromedp.ButtonType(input.Left), chromedp.ClickCount(1)),
		chromedp.MouseEvent(input.MouseMoved, x2, y2, held),
		chromedp.MouseEvent(input.MouseReleased, x2, y2, chromedp.ButtonType(input.Left), chromedp.ClickCount(1)),
	)
	settle(b)
	if sel, _ := marks(t, b); sel != [2]int{oid, length + 4 - oid} {
		t.Errorf("dragging from the OID at %d to the length at %d: selection %v", oid, length, sel)
	}

	// Copying puts the selected bytes on the clipboard as hex.
	var copied, want string
	b.Eval(`new Promise((resolve) => {
		document.addEventListener("copy", (e) => resolve(e.clipboardData.getData("text/plain")), {once: true});
		document.querySelector(".hv").focus();
		document.execCommand("copy");
	})`, &copied)
	b.Eval(fmt.Sprintf(`[...document.querySelectorAll(".hv-hex .hv-seg.sel")].map((e) => e.textContent).join("").replaceAll(" ", "")`), &want)
	if copied != want || len(copied) != 2*(length+4-oid) {
		t.Errorf("copied %q, want %q", copied, want)
	}

	// Selecting far away (as the tree does) scrolls the bytes into view.
	const far = 0x80000
	b.Eval(fmt.Sprintf(`hvSelect(%d, 4)`, far), nil)
	settle(b)
	var top int
	b.Eval(`document.querySelector(".hv").scrollTop`, &top)
	row := far / 16
	if row*rowHeight < top || (row+1)*rowHeight > top+boxHeight {
		t.Errorf("after selecting offset %#x (row %d) the box is scrolled to %d px", far, row, top)
	}
	if got := offsetsWith(t, b, "sel"); len(got) == 0 || got[0] != far {
		t.Errorf("selected segments at %v, want from %d", got, far)
	}

	// The last bytes, which no field describes, are marked as errors.
	b.Eval(`document.querySelector(".hv").scrollTop = 1e9`, nil)
	settle(b)
	if got := offsetsWith(t, b, "k-error"); len(got) != 1 || got[0] != s.Bytes-4 {
		t.Errorf("error segments at %v, want [%d]", got, s.Bytes-4)
	}

	if dir := os.Getenv("HEXVIEW_SCREENSHOT"); dir != "" {
		b.Eval(`document.querySelector(".hv").scrollTop = 0`, nil)
		settle(b)
		b.Run(chromedp.MouseClickXY(x, y))
		b.Run(chromedp.MouseEvent(input.MouseMoved, x2, y2))
		settle(b)
		b.Screenshot(filepath.Join(dir, "hexview-light.png"))
		b.Eval(`document.documentElement.dataset.theme = "dark"`, nil)
		settle(b)
		b.Screenshot(filepath.Join(dir, "hexview-dark.png"))
	}
}

type scrollResult struct {
	Latency float64   // from setting scrollTop to the frame after the new rows are in the DOM
	Frames  []float64 // the animation-frame callbacks that ran meanwhile (vecty's renders)
}

// scroll scrolls the box steps times, each time by delta pixels (or, when delta is 0, to a
// random place), and waits each time until the rows newly in view are drawn.
func scroll(b *browsertest.Browser, steps, delta int) []scrollResult {
	var res []scrollResult
	b.Eval(fmt.Sprintf(`(async () => {
		const box = document.querySelector(".hv");
		const frame = () => new Promise((r) => hvRaf(r));
		const res = [];
		let seed = 7;
		for (let i = 0; i < %d; i++) {
			seed = (seed * 1103515245 + 12345) %% 2147483648;
			const to = %d ? box.scrollTop + %d : seed %% (box.scrollHeight - box.clientHeight);
			const n0 = hvFrames.length;
			const t0 = performance.now();
			box.scrollTop = to;
			const want = Math.floor(Math.floor(box.scrollTop / %d) * 16);
			const last = want + 16 * Math.floor((box.clientHeight - 1) / %d);
			for (;;) {
				await frame();
				const labels = [...box.querySelectorAll(".hv-off")].map((e) => parseInt(e.textContent, 16));
				if (labels.includes(want) && labels.includes(last)) break;
			}
			res.push({Latency: performance.now() - t0, Frames: hvFrames.slice(n0)});
		}
		return res;
	})()`, steps, delta, delta, rowHeight, rowHeight), &res)
	return res
}

func summarize(res []scrollResult) (medLatency, maxLatency, medFrame, maxFrame float64) {
	var lat, fr []float64
	for _, r := range res {
		lat = append(lat, r.Latency)
		worst := 0.0
		for _, f := range r.Frames {
			worst = max(worst, f)
		}
		fr = append(fr, worst)
	}
	slices.Sort(lat)
	slices.Sort(fr)
	return lat[len(lat)/2], lat[len(lat)-1], fr[len(fr)/2], fr[len(fr)-1]
}

// BenchmarkScroll measures redrawing on scroll in 1 MB: by one row, by a wheel step, and by
// jumps to random places (every row drawn anew). It reports, per scroll, the time vecty's
// animation frame took (frame-ms: building the rows and updating the DOM; the budget
// is 50 ms) and the time from setting scrollTop to the first frame that has the new rows in
// the DOM (latency-ms: at least one frame, 16.7 ms at 60 Hz), as median and worst. The DOM
// node count afterwards shows that scrolling does not grow the DOM.
func BenchmarkScroll(b *testing.B) {
	br, _ := open(b)
	settle(br)
	for _, c := range []struct {
		name  string
		delta int
	}{
		{"row", rowHeight},
		{"wheel100px", 100},
		{"jump", 0},
	} {
		b.Run(c.name, func(b *testing.B) {
			res := scroll(br, b.N, c.delta)
			medLat, maxLat, medFrame, maxFrame := summarize(res)
			b.ReportMetric(medFrame, "frame-ms-median")
			b.ReportMetric(maxFrame, "frame-ms-max")
			b.ReportMetric(medLat, "latency-ms-median")
			b.ReportMetric(maxLat, "latency-ms-max")
			b.ReportMetric(float64(br.NodeCount()), "dom-nodes")
		})
	}
}
