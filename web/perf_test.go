package web_test

import (
	"context"
	"encoding/base64"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"

	"pgoutput-inspector/internal/browsertest"
)

// Page benchmarks, in headless Chromium. Each reports milliseconds measured inside the page
// with performance.now(); run them with
//
//	./build.sh bench ./web   (or: go test -run '^$' -bench Page -benchtime 5x ./web)
//
// and record the numbers in docs/performance.md, section "Page".

// tenThousand returns about 1 MB of capture text of about 10,000 messages: the short lines of
// a real capture (keepalives, Begin, Commit, small changes), repeated.
func tenThousand(b testing.TB) string {
	text := corpus(b, "pg16-text-immediate")
	var head, short []string
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "#"):
			head = append(head, l)
		case len(l) > 0 && len(l) < 160:
			short = append(short, l)
		}
	}
	var out strings.Builder
	for _, h := range head {
		out.WriteString(h + "\n")
	}
	for out.Len() < 1<<20 {
		for _, l := range short {
			out.WriteString(l + "\n")
			if out.Len() >= 1<<20 {
				break
			}
		}
	}
	return out.String()
}

// The page's budget link (docs/performance.md, "Page"): 10 Mbit/s down and up, 40 ms latency, as
// Chromium's DevTools throttling applies it.
const (
	budgetLatencyMs  = 40
	budgetThroughput = 10e6 / 8 // bytes per second
)

// mainThreadCPU returns the CPU time the page's main thread has spent on tasks so far, in
// milliseconds (Chromium's TaskDuration metric in thread time, which the waiting for a core of a
// loaded machine does not count: on a shared machine, compare builds by it). It enables the
// metrics on first use.
func mainThreadCPU(br *browsertest.Browser) float64 {
	var ms float64
	br.Run(chromedp.ActionFunc(func(ctx context.Context) error {
		if err := performance.Enable().WithTimeDomain(performance.EnableTimeDomainThreadTicks).Do(ctx); err != nil {
			return err
		}
		metrics, err := performance.GetMetrics().Do(ctx)
		for _, m := range metrics {
			if m.Name == "TaskDuration" {
				ms = m.Value * 1e3
			}
		}
		return err
	}))
	return ms
}

// firstScreenProbe runs in the page before its own scripts (a test's script, outside the
// page's CSP). It records, in performance marks, when the document first holds rows of all
// three of the message list, the tree and the hex view ("first rows") and when the browser has
// then drawn them ("first rows painted": a task posted from an animation frame callback runs
// after the frame's style, layout and paint; rows put in by a task outside a frame, as the
// first render's are, are marked painted before the frame that draws them); and it counts the
// rows put into the document (globalThis.firstScreen: the lists' in added, the hex view's in
// addedHex). data-ready does not say when the rows are drawn: main sets it in an animation
// frame callback asked for before the first render, and vecty draws what the first render's
// Mount methods asked for (the lists at their measured heights) in a callback of the same
// frame after it, or of a later frame when that frame's 16 ms are spent.
const firstScreenProbe = `(() => {
  const probe = globalThis.firstScreen = {added: 0, addedHex: 0, shown: false, painted: false};
  const count = (n, sel) => (n.matches(sel) ? 1 : 0) + n.querySelectorAll(sel).length;
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (n.nodeType !== 1) continue;
      probe.added += count(n, ".vrow");
      probe.addedHex += count(n, ".hv-row");
    }
    if (!probe.shown && document.querySelector(".msg-list .vrow") && document.querySelector(".tree .vrow") &&
        document.querySelector(".hv-row")) {
      probe.shown = true;
      performance.mark("first rows");
      setTimeout(() => { performance.mark("first rows painted"); probe.painted = true; }, 0);
    }
  }).observe(document, {childList: true, subtree: true});
})()`

// BenchmarkPageFirstExample measures the time from navigation start to the first decoded
// example on screen (the page marks it with data-ready once drawn, with the time since
// navigation start), on localhost and over the budget link, each with an empty cache (a first
// visit: every file downloaded, main.wasm compiled while it downloads), and on localhost with a
// warm cache too (a return visit: main.wasm from the HTTP cache, its code from the browser's
// compiled-code cache). It also reports where the time goes: when the page asked for main.wasm
// (ms/wasm-requested, resource timing's startTime), when main.wasm's last byte arrived
// (ms/wasm-downloaded, resource timing), when boot.js had the compiled instance
// (ms/wasm-instantiated), and when Go's main began (ms/go-main: the runtime and package
// initialisation before it); the first example is decoded and drawn after that.
func BenchmarkPageFirstExample(b *testing.B) {
	for _, c := range []struct {
		name      string
		cold      bool
		throttled bool
	}{
		{"localhost-cold", true, false},
		{"localhost-warm", false, false},
		{"10Mbit-40ms-cold", true, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			base := browsertest.Serve(b)
			br := browsertest.Start(b)
			br.Run(chromedp.ActionFunc(func(ctx context.Context) error {
				if err := network.SetCacheDisabled(c.cold).Do(ctx); err != nil {
					return err
				}
				if !c.throttled {
					return nil
				}
				return network.EmulateNetworkConditions(false, budgetLatencyMs, budgetThroughput, budgetThroughput).Do(ctx)
			}))
			br.Run(chromedp.ActionFunc(func(ctx context.Context) error {
				_, err := page.AddScriptToEvaluateOnNewDocument(firstScreenProbe).Do(ctx)
				return err
			}))
			if !c.cold {
				br.Navigate(base) // fills the caches
				br.WaitReady("html[data-ready]")
			}
			var sum struct{ Ready, Requested, Downloaded, Instantiated, GoMain, Rows, Painted, CPU float64 }
			for i := range b.N {
				cpu := mainThreadCPU(br)
				br.Navigate(base + "?" + strconv.Itoa(i)) // a new document each time
				br.WaitReady("html[data-ready]")
				br.Eval(`new Promise((r) => { const tick = () => globalThis.firstScreen.painted ? r(true) : setTimeout(tick, 5); tick(); })`, nil)
				if after := mainThreadCPU(br); after >= cpu {
					sum.CPU += after - cpu
				} else { // a new renderer process: its count started at the navigation
					sum.CPU += after
				}
				var t struct{ Ready, Requested, Downloaded, Instantiated, GoMain, Rows, Painted float64 }
				br.Eval(`(() => {
					const at = (name) => { const e = performance.getEntriesByName(name); return e.length ? e[e.length-1].startTime : -1 };
					const wasm = performance.getEntriesByType("resource").filter((e) => e.name.endsWith("/main.wasm"));
					return {Ready: +document.documentElement.dataset.readyMs,
						Requested: wasm.length ? wasm[0].startTime : -1,
						Downloaded: wasm.length ? wasm[0].responseEnd : -1,
						Instantiated: at("main.wasm instantiated"), GoMain: at("go main"),
						Rows: at("first rows"), Painted: at("first rows painted")};
				})()`, &t)
				sum.Ready += t.Ready
				sum.Requested += t.Requested
				sum.Downloaded += t.Downloaded
				sum.Instantiated += t.Instantiated
				sum.GoMain += t.GoMain
				sum.Rows += t.Rows
				sum.Painted += t.Painted
			}
			n := float64(b.N)
			b.ReportMetric(sum.Ready/n, "ms/first-example")
			b.ReportMetric(sum.Requested/n, "ms/wasm-requested")
			b.ReportMetric(sum.Downloaded/n, "ms/wasm-downloaded")
			b.ReportMetric(sum.Instantiated/n, "ms/wasm-instantiated")
			b.ReportMetric(sum.GoMain/n, "ms/go-main")
			b.ReportMetric(sum.Rows/n, "ms/first-rows")
			b.ReportMetric(sum.Painted/n, "ms/first-rows-painted")
			b.ReportMetric(sum.CPU/n, "cpu-ms/main-thread")
		})
	}
}

// BenchmarkPagePaste1MB measures pasting about 1 MB (15,048 short messages): the time until
// the first screen of results is drawn and until every message is decoded (the status then
// gives the count instead of "decoding… N of M"); the longest main-thread task from the paste
// on, and after the first screen (a PerformanceObserver's "longtask" entries, 50 ms and over);
// the longest and the median background decoding step (the page's setTimeout callbacks, timed
// by wrapping setTimeout); and the longest and the median gap between animation frames after
// the first screen. Then the
// DOM's size, and the time to draw the message list after scrolling it far.
func BenchmarkPagePaste1MB(b *testing.B) {
	text := tenThousand(b)
	base := browsertest.Serve(b)
	br := browsertest.Start(b)
	br.Navigate(base)
	br.WaitReady("html[data-ready]")
	var scroll float64
	var sum struct {
		First, Done, Longest, LongestAfter, Step, MedianStep, Gap, MedianGap, Scroll float64
	}
	var nodes, msgs int
	var cpu float64
	for i := range b.N {
		cpu0 := mainThreadCPU(br)
		// Alternate with a small input so that each paste changes the text.
		var r struct {
			First, Done, Longest, LongestAfter, Step, MedianStep, Gap, MedianGap float64
		}
		br.Eval(`((text) => new Promise((resolve) => {
			const ta = document.querySelector("#input-text");
			const status = () => document.querySelector(".input-status").textContent;
			const tasks = [];
			const obs = new PerformanceObserver((l) => tasks.push(...l.getEntries()));
			obs.observe({type: "longtask"});
			const setTimeout0 = window.setTimeout;
			const steps = [], gaps = [];
			window.setTimeout = (f, ms, ...args) => setTimeout0((...a) => {
				const s = performance.now();
				f(...a);
				steps.push(performance.now() - s);
			}, ms, ...args);
			const median = (xs) => xs.length ? xs.sort((a, b) => a - b)[xs.length >> 1] : 0;
			let first = -1;
			const t0 = performance.now();
			let last = t0;
			ta.value = text;
			ta.dispatchEvent(new Event("input", {bubbles: true}));
			const tick = () => {
				const now = performance.now();
				if (first >= 0) gaps.push(now - last);
				last = now;
				if (first < 0 && document.querySelector(".mrow") && /^(decoding|[0-9]+ messages)/.test(status())) first = now - t0;
				if (/^[0-9]{4,} messages/.test(status())) {
					const done = now - t0;
					window.setTimeout = setTimeout0;
					setTimeout0(() => {
						tasks.push(...obs.takeRecords());
						obs.disconnect();
						const after = tasks.filter((e) => e.startTime >= t0 + first);
						resolve({First: first, Done: done,
							Step: Math.max(0, ...steps), MedianStep: median(steps),
							Gap: Math.max(0, ...gaps), MedianGap: median(gaps),
							Longest: Math.max(0, ...tasks.map((e) => e.duration)),
							LongestAfter: Math.max(0, ...after.map((e) => e.duration))});
					}, 50);
					return;
				}
				requestAnimationFrame(tick);
			};
			requestAnimationFrame(tick);
		}))(`+jsQuote(text+strings.Repeat("\n", i%2))+`)`, &r)
		cpu += mainThreadCPU(br) - cpu0
		nodes = br.NodeCount()
		br.Eval(`document.querySelectorAll(".mrow").length`, &msgs)
		// Scroll the message list 5,000 rows down, or back to the top: time until those rows
		// are drawn. The list may start a few rows down (the chosen message in view), so the
		// way is chosen by how far down it is: back from a few rows would redraw nothing.
		br.Eval(scrollJS(".msg-list", ".vrow", `box.scrollTop > 2500 * 20 ? 0 : 5000 * 20`), &scroll)
		sum.First += r.First
		sum.Done += r.Done
		sum.Longest += r.Longest
		sum.LongestAfter += r.LongestAfter
		sum.Step += r.Step
		sum.MedianStep += r.MedianStep
		sum.Gap += r.Gap
		sum.MedianGap += r.MedianGap
		sum.Scroll += scroll
	}
	n := float64(b.N)
	b.ReportMetric(sum.First/n, "ms/paste-to-first-screen")
	b.ReportMetric(sum.Done/n, "ms/paste-to-decoded")
	b.ReportMetric(sum.Longest/n, "ms/longest-task")
	b.ReportMetric(sum.LongestAfter/n, "ms/longest-task-after-first-screen")
	b.ReportMetric(sum.Step/n, "ms/longest-decode-step")
	b.ReportMetric(sum.MedianStep/n, "ms/median-decode-step")
	b.ReportMetric(sum.Gap/n, "ms/longest-frame-gap-after-first-screen")
	b.ReportMetric(sum.MedianGap/n, "ms/median-frame-gap-after-first-screen")
	b.ReportMetric(sum.Scroll/n, "ms/list-scroll")
	b.ReportMetric(cpu/n, "cpu-ms/paste-to-decoded")
	b.ReportMetric(float64(nodes), "dom-nodes")
	b.ReportMetric(float64(len(text)), "input-bytes")
}

// BenchmarkPageHexScroll1MB opens one message of 1 MB and measures redrawing the hex view after
// a scroll of 20,000 rows.
func BenchmarkPageHexScroll1MB(b *testing.B) {
	// A logical decoding message (M) whose 1 MB content is the text of a real capture.
	content := []byte(tenThousand(b))
	msg := []byte{'M', 0, 0, 0, 0, 0, 0, 0, 0, 0, 'p', 0}
	n := len(content)
	msg = append(msg, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	msg = append(msg, content...)
	base := browsertest.Serve(b)
	br := browsertest.Start(b)
	br.Navigate(base + "#b64=" + base64.RawURLEncoding.EncodeToString(msg))
	br.WaitReady("html[data-ready]")
	br.WaitVisible(".hv-row")
	var ms float64
	var total float64
	for i := range b.N {
		br.Eval(scrollJS(".hv", ".hv-row", strconv.Itoa((i%2+1)*20000)+` * 20`), &ms)
		total += ms
	}
	b.ReportMetric(total/float64(b.N), "ms/hex-scroll")
	b.ReportMetric(float64(br.NodeCount()), "dom-nodes")
}

// scrollJS returns a script that scrolls the box matching boxSel to the offset the expression
// to gives (in pixels, "box" names the box) and resolves to the milliseconds until a row
// (matching rowSel) placed at the new scroll offset is in the DOM: the scroll event, the
// store's action and the render. A MutationObserver sees the row as soon as vecty has drawn it,
// without waiting for another frame.
func scrollJS(boxSel, rowSel, to string) string {
	return `new Promise((resolve) => {
		const box = document.querySelector(` + jsQuote(boxSel) + `);
		let want = -1;
		const has = () => [...box.querySelectorAll(` + jsQuote(rowSel) + `)].some((e) => Math.abs(parseFloat(e.style.top) - want) < 20);
		const obs = new MutationObserver(() => { if (has()) { obs.disconnect(); resolve(performance.now() - t0); } });
		obs.observe(box, {childList: true, subtree: true, attributes: true});
		const t0 = performance.now();
		box.scrollTop = ` + to + `;
		want = box.scrollTop - box.scrollTop % 20;
	})`
}

func jsQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(c)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// BenchmarkPageReturnVisit measures a return visit over the budget link once the service
// worker (sw.js) keeps the page's files: from navigation start to the first rows of the message
// list, the tree and the hex view (ms/first-rows, ms/first-rows-painted, as in
// BenchmarkPageFirstExample), with every file from the worker's cache; the first visit, not
// measured, fills it. Budget: the first rows within 0.4 s.
func BenchmarkPageReturnVisit(b *testing.B) {
	base := browsertest.Serve(b)
	br := browsertest.Start(b)
	br.Run(chromedp.ActionFunc(func(ctx context.Context) error {
		return network.EmulateNetworkConditions(false, budgetLatencyMs, budgetThroughput, budgetThroughput).Do(ctx)
	}))
	br.Run(chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(firstScreenProbe).Do(ctx)
		return err
	}))
	br.Navigate(base)
	br.WaitReady("html[data-ready]")
	br.Eval(`new Promise((r) => { const tick = async () => {
		const keys = await caches.keys();
		const full = keys.length === 1 && (await (await caches.open(keys[0])).keys()).length >= 13;
		full && navigator.serviceWorker.controller ? r(true) : setTimeout(tick, 20); }; tick(); })`, nil)
	var sum struct{ Ready, Downloaded, GoMain, Rows, Painted float64 }
	for i := range b.N {
		br.Navigate(base + "?" + strconv.Itoa(i))
		br.WaitReady("html[data-ready]")
		br.Eval(`new Promise((r) => { const tick = () => globalThis.firstScreen.painted ? r(true) : setTimeout(tick, 5); tick(); })`, nil)
		var t struct{ Ready, Downloaded, GoMain, Rows, Painted float64 }
		br.Eval(`(() => {
			const at = (name) => { const e = performance.getEntriesByName(name); return e.length ? e[e.length-1].startTime : -1 };
			const wasm = performance.getEntriesByType("resource").filter((e) => e.name.endsWith("/main.wasm"));
			return {Ready: +document.documentElement.dataset.readyMs, Downloaded: wasm.length ? wasm[0].responseEnd : -1,
				GoMain: at("go main"), Rows: at("first rows"), Painted: at("first rows painted")};
		})()`, &t)
		sum.Ready += t.Ready
		sum.Downloaded += t.Downloaded
		sum.GoMain += t.GoMain
		sum.Rows += t.Rows
		sum.Painted += t.Painted
	}
	n := float64(b.N)
	b.ReportMetric(sum.Ready/n, "ms/first-example")
	b.ReportMetric(sum.Downloaded/n, "ms/wasm-downloaded")
	b.ReportMetric(sum.GoMain/n, "ms/go-main")
	b.ReportMetric(sum.Rows/n, "ms/first-rows")
	b.ReportMetric(sum.Painted/n, "ms/first-rows-painted")
}
