//go:build !js

package web_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pgoutput-inspector/decoder/pgvalue"
	pginput "pgoutput-inspector/input"
	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/internal/consumer"
	"pgoutput-inspector/internal/wirecapture"
	"pgoutput-inspector/web"
)

// A file over web.MaxFile is opened in parts (static/boot.js: openBig): a real
// pg_recvlogical -f file of real traffic (scripts/bigrecv: a PostgreSQL server, pgbench's
// clients), cut by the export worker as it reads it from disk.

// bigFile is a file scripts/bigrecv makes once per test run.
type bigFile struct {
	once sync.Once
	path string
	err  error
}

var bigRecv, bigCapture bigFile

// bigRecvFile makes, once per test run, a pg_recvlogical file of more than web.MaxFile bytes.
func bigRecvFile(t testing.TB) string {
	return bigRecv.make(t, func(dir string) []string {
		return []string{"-mb", strconv.Itoa(web.MaxFile>>20 + 4), "-out", filepath.Join(dir, "big.recv")}
	})
}

// bigCaptureFile makes, once per test run, a pcapng of more than web.MaxFile bytes: dumpcap's
// recording of a pg_recvlogical connection.
func bigCaptureFile(t testing.TB) string {
	if err := wirecapture.Check(); err != nil {
		t.Skip(err)
	}
	return bigCapture.make(t, func(dir string) []string {
		return []string{"-mb", strconv.Itoa(web.MaxFile >> 20 * 3 / 4), "-out", filepath.Join(dir, "big.recv"), "-pcap", filepath.Join(dir, "big.pcapng")}
	})
}

// make runs scripts/bigrecv with the arguments args gives for a new directory; its last
// is the file.
func (f *bigFile) make(t testing.TB, args func(dir string) []string) string {
	t.Helper()
	f.once.Do(func() {
		dir, err := os.MkdirTemp("", "pgoutput-inspector-bigrecv")
		if err != nil {
			f.err = err
			return
		}
		a := args(dir)
		f.path = a[len(a)-1]
		cmd := exec.Command("go", append([]string{"run", "./scripts/bigrecv"}, a...)...)
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			f.err = err
			t.Logf("scripts/bigrecv: %s", out)
		}
	})
	if f.err != nil {
		t.Fatalf("scripts/bigrecv: %v", f.err)
	}
	return f.path
}

// TestBrowsersBigFile opens a pg_recvlogical file of more than web.MaxFile bytes: the page
// cuts it into parts (the cutter's, as the command line reads it), shows the first as soon as
// it is cut, then the next and the last as asked, each with all its messages, names the part
// in the text box, and passes axe-core's checks; "Find in every part" finds in each part
// the Commits that the parts decoded one after the other hold (web.NewPartDoc), and a part
// found opens with the list filtered to them; closed while it is cut, it opens again.
func TestBrowsersBigFile(t *testing.T) {
	if testing.Short() {
		t.Skip("makes a big file with a real server")
	}
	openBig(t, bigRecvFile(t), true)
}

// TestBrowsersBigCapture opens a pcapng of more than web.MaxFile bytes as
// TestBrowsersBigFile does a pg_recvlogical file: its parts end where the connection's
// streams are between messages (the panel says of none that it ends inside one), and each
// holds the messages the command line reads in it.
func TestBrowsersBigCapture(t *testing.T) {
	if testing.Short() {
		t.Skip("makes a big capture of a real server")
	}
	openBig(t, bigCaptureFile(t), false)
}

// openBig opens a big file in each browser: parts 1, 2 and the last, and with reopen, closes
// it while it is cut and opens it again.
func openBig(t *testing.T, path string, reopen bool) {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) <= web.MaxFile {
		t.Fatalf("%s holds %d bytes, not more than web.MaxFile", path, len(raw))
	}
	// The parts as static/boot.js asks for them.
	partMiB, partItems := bootParts(t)
	c := &pginput.Cutter{MaxBytes: int64(partMiB) << 20, MaxItems: partItems}
	c.Write(raw)
	parts, err := c.Close()
	if err != nil {
		t.Fatal(err)
	}
	n := len(parts.Parts)
	counts := map[int]string{}
	for _, k := range []int{1, 2, n} {
		p := parts.Parts[k-1]
		res, err := pginput.Parse(append(raw[:parts.Head:parts.Head], raw[p.Start:p.End]...), parts.Format)
		if err != nil {
			t.Fatal(err)
		}
		counts[k] = strconv.Itoa(len(res.Messages)) + " messages"
	}
	count := func(k int) string { return counts[k] }
	// The search's parts and counts, as the worker finds them.
	const query = "type:C"
	var found []string
	var carry web.Carry
	foundIn2 := 0
	learnt := map[int]string{} // the relations and types part k knows from the parts before
	var relQuery string        // a relation of the last part's changes
	var learntRel string       // the catalog's heading of the last relation part 1 defined, in part 2
	var learntCount string     // how many relations and types part 2 knows from part 1, as the catalog says
	relFound := 0
	// The whole file's tally, as the panel sums the parts'.
	var tally web.PartTally
	// The whole file's consumer check, as the worker makes it for the Consumer panel.
	pc := web.NewPartsConsumer(consumer.Settings{})
	type relParts struct{ n, first, last int }
	changes := map[string]*relParts{}
	for k, p := range parts.Parts {
		_, relations, types := carry.AppendBefore(nil)
		learnt[k+1] = plural(relations, "relation") + " and " + plural(types, "type")
		if k == 1 {
			learntCount = plural(relations+types, "relation or type")
			if relations+types > 1 {
				learntCount = strconv.Itoa(relations+types) + " relations and types"
			}
		}
		d := web.NewPartDoc(string(raw[:parts.Head])+string(raw[p.Start:p.End]), parts.Format, &carry)
		pc.Add(string(raw[:parts.Head])+string(raw[p.Start:p.End]), parts.Format, p.Items)
		if counts[k+1] == "" {
			counts[k+1] = strconv.Itoa(len(d.Messages)) + " messages"
		}
		if k == 0 {
			for _, e := range web.CatalogOf(d).Entries {
				if r := e.Relation; r != nil {
					learntRel = "R " + r.QualifiedName() + "|OID " + strconv.FormatUint(uint64(r.OID), 10) +
						" · replica identity " + web.IdentityName(r.ReplicaIdentity) + " · defined in the parts before"
				}
			}
		}
		pt := web.TallyPart(d)
		tally.Add(pt)
		for rel, c := range pt.Changes {
			if changes[rel] == nil {
				changes[rel] = &relParts{first: k + 1}
			}
			changes[rel].n += c
			changes[rel].last = k + 1
		}
		if k == n-1 {
			for _, tr := range d.Trees {
				if tr.Relation != nil {
					relQuery = "rel:" + tr.Relation.QualifiedName()
					relFound, _ = web.ParseFilter(relQuery).Count(d)
					break
				}
			}
		}
		if n, _ := web.ParseFilter(query).Count(d); n > 0 {
			found = append(found, fmt.Sprintf("Part %d: %s", k+1, commas(n)))
			if k == 1 {
				foundIn2 = n
			}
		}
	}
	if foundIn2 == 0 {
		t.Fatalf("part 2 holds no message %s finds", query)
	}
	if strings.HasPrefix(learnt[2], "0 relations") || learntRel == "" || relFound == 0 {
		t.Fatalf("part 2 knows %s from part 1, and the last part %d changes to one", learnt[2], relFound)
	}
	whole := fmt.Sprintf("%d parts of at most %d MiB or %s messages", n, partMiB, commas(partItems))
	if parts.Format != pginput.RecvLogical {
		whole = fmt.Sprintf("%d parts of %d MiB or %s frames, or up to twice that to end where every TCP stream is between messages", n, partMiB, commas(partItems))
	}
	wholeSays := fmt.Sprintf("Whole file: all %d parts read, %s messages", n, commas(tally.Messages))
	if tally.HasLSN {
		wholeSays += ", LSN " + pgvalue.FormatLSN(tally.MinLSN) + " to " + pgvalue.FormatLSN(tally.MaxLSN)
	}
	if tally.HasTime {
		at := func(ns int64) string { return time.Unix(0, ns).UTC().Format("2006-01-02 15:04:05") + " UTC" }
		wholeSays += ", captured " + at(tally.MinTime) + " to " + at(tally.MaxTime)
	}
	wholeSays += "."
	// The relation of the most changes (the first named, by name when counts are equal).
	var topRel string
	for rel, c := range changes {
		if topRel == "" || c.n > changes[topRel].n || c.n == changes[topRel].n && rel < topRel {
			topRel = rel
		}
	}
	if topRel == "" {
		t.Fatal("no change names a relation")
	}
	topSays := fmt.Sprintf("%s: %s in parts %d to %d", topRel, commas(changes[topRel].n), changes[topRel].first, changes[topRel].last)
	// The Consumer panel on part 1: the whole file's report, its messages in the part
	// selecting, the first of another part naming its part and its index there.
	first := []int{0}
	for _, c := range pc.Counts {
		first = append(first, first[len(first)-1]+c)
	}
	consumerSays := fmt.Sprintf("The whole file, its %d parts read in order: the messages are numbered in the file (part %d holds %s to %s); one of another part names its part and its message there (point at it).",
		n, 1, commas(first[0]+1), commas(first[1]))
	report := consumer.HTML(pc.Report())
	goes := regexp.MustCompile(`data-msg="(\d+)"`).FindAllSubmatch(report, -1)
	otherPart, otherMsg := 0, 0 // the first message of the report in another part, and its index there
	for _, m := range goes {
		g, _ := strconv.Atoi(string(m[1]))
		k := 1
		for k < n && first[k] <= g {
			k++
		}
		if k != 1 && otherPart == 0 {
			otherPart, otherMsg = k, g-first[k-1]
		}
	}
	raw = nil
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, base string) {
		shows := func(k int) {
			t.Helper()
			poll(t, b, "the panel shows part "+strconv.Itoa(k), `((e) => e && e.textContent.includes("Part `+strconv.Itoa(k)+` is bytes") ? "" : e ? e.textContent : "no panel")(document.querySelector("#bigfile-status"))`)
			waitText(t, b, ".input-status", count(k))
			// Part 1 is shown as soon as it is cut, before the parts are counted.
			name := filepath.Base(path) + " (part " + strconv.Itoa(k) + " of " + strconv.Itoa(n) + ")"
			if k == 1 {
				name = filepath.Base(path) + " (part 1"
			}
			poll(t, b, "the text box names "+name, `((e) => e && e.value.includes(`+jsQuote(name)+`) ? "" : e ? e.value.slice(0, 200) : "no box")(document.querySelector("#input-text"))`)
			var status string
			b.Eval(`document.querySelector("#bigfile-status").textContent`, &status)
			if strings.Contains(status, "inside") {
				t.Errorf("the panel says %q", status)
			}
		}
		// goesOn waits for the panel to say that part k is decoded going on from the parts
		// before, as the whole file's decode goes on.
		goesOn := func(k int) {
			t.Helper()
			from := "parts 1 to " + strconv.Itoa(k-1)
			if k == 2 {
				from = "part 1"
			}
			says := "It is decoded going on from " + from + ", knowing the " + learnt[k] + " defined there."
			poll(t, b, "part "+strconv.Itoa(k)+" goes on from the parts before", `((e) => e.textContent.includes(`+jsQuote(says)+`) ? "" : e.textContent)(document.querySelector("#bigfile-status"))`)
		}
		b.Upload("#file-open", path)
		shows(1)
		poll(t, b, "the file is cut whole", `((e) => e && e.textContent.includes(`+jsQuote(whole)+`) ? "" : e ? e.textContent : "no panel")(document.querySelector("#bigfile-status"))`)
		if parts.Format != pginput.RecvLogical {
			// The Consumer panel on part 1 (which holds the START_REPLICATION) checks the
			// whole file; a message of another part names its part and its index there.
			b.Click(".consumer-toggle")
			waitText(t, b, "#consumer-body .consumer-whole", consumerSays)
			if got := b.Count("#consumer-body [data-msg], #consumer-body [data-part]"); got != len(goes) {
				t.Errorf("the report has %d messages to go to, not %d", got, len(goes))
			}
			if otherPart == 0 {
				t.Fatal("the report names no message past part 1")
			}
			var title string
			b.Eval(`document.querySelector("#consumer-body [data-part]").getAttribute("title")`, &title)
			if !strings.HasSuffix(title, fmt.Sprintf(": part %d, its message %d", otherPart, otherMsg+1)) {
				t.Errorf("the report's first message of another part says %q, not part %d, message %d", title, otherPart, otherMsg+1)
			}
			b.Click(".consumer-toggle")
		}
		// Part 2 goes on from part 1 (shown alone until the worker has read part 1).
		b.Click("#bigfile-next")
		shows(2)
		goesOn(2)
		waitText(t, b, ".input-status", count(2))
		// The Relations panel lists what part 1 defined.
		b.Click(".catalog-toggle")
		waitFor(t, b, "part 2's relations from part 1", `(`+catalogRows+`).includes(`+jsQuote(learntRel+"\n")+`)`, catalogRows)
		says := ", " + learntCount + " defined in the parts before."
		poll(t, b, "the catalog says "+says, `((e) => e && e.textContent.includes(`+jsQuote(says)+`) ? "" : e ? e.textContent : "no sum")(document.querySelector(".catalog-sum"))`)
		b.Click(".catalog-toggle")
		// Every part searched, the parts found listed with their counts.
		b.Eval(`(() => { document.querySelector("#bigfile-query").value = `+jsQuote(query)+`; document.querySelector("#bigfile-find button[type=submit]").click(); })()`, nil)
		poll(t, b, "the search ends", `((e) => e && e.textContent.startsWith(`+jsQuote(query+":")+`) ? "" : e ? e.textContent : "no status")(document.querySelector("#bigfile-found"))`)
		var hits []string
		b.Eval(`[...document.querySelectorAll("#bigfile-hits button")].map((e) => e.textContent)`, &hits)
		if strings.Join(hits, "\n") != strings.Join(found, "\n") {
			t.Errorf("the search lists %q, not %q", hits, found)
		}
		// The search read every part: the whole file's tally is whole, its relation of the
		// most changes named first.
		waitText(t, b, "#bigfile-whole summary", wholeSays)
		waitText(t, b, "#bigfile-whole button[data-rel]", topSays)
		b.Click(`#bigfile-hits button[data-part="2"]`)
		shows(2)
		waitText(t, b, ".filter-status", strconv.Itoa(foundIn2)+" messages match")
		axeSerious(t, b, "a big file's part 2, searched")
		b.Eval(`(() => { const box = document.querySelector("#bigfile-part"); box.value = "`+strconv.Itoa(n)+`"; box.dispatchEvent(new Event("change")); })()`, nil)
		shows(n)
		// The search read every part: the last is shown at once going on from the parts before,
		// its changes named by the relations they defined.
		goesOn(n)
		if want := map[bool]int{true: 0, false: 1}[parts.Format == pginput.RecvLogical]; b.Count(".consumer-toggle") != want {
			t.Errorf("the last part has %d Consumer buttons, not %d", b.Count(".consumer-toggle"), want)
		}
		b.Eval(`(() => { const box = document.querySelector("#filter"); box.value = `+jsQuote(relQuery)+`; box.dispatchEvent(new Event("change", { bubbles: true })); })()`, nil)
		waitText(t, b, ".filter-status", strconv.Itoa(relFound)+" messages match")
		// The whole file's relation of the most changes, chosen, is found in every part.
		b.Eval(`document.querySelector("#bigfile-whole").open = true`, nil)
		b.Click("#bigfile-whole button[data-rel]")
		poll(t, b, "the search for "+topRel+" ends", `((e) => e && e.textContent.startsWith(`+jsQuote("rel:"+topRel+": ")+`) ? "" : e ? e.textContent : "no status")(document.querySelector("#bigfile-found"))`)
		var last bool
		b.Eval(`document.querySelector("#bigfile-next").disabled`, &last)
		if !last {
			t.Errorf("Next part is enabled on the last part")
		}
		b.Click("#bigfile-close")
		poll(t, b, "the panel is gone", `document.querySelector("#bigfile") ? "still there" : ""`)
		if !reopen {
			return
		}
		// Closed while it is cut (the worker reading it is stopped), the file opens again.
		b.Upload("#file-open", path)
		b.Click("#bigfile-close")
		poll(t, b, "the panel is gone", `document.querySelector("#bigfile") ? "still there" : ""`)
		b.Upload("#file-open", path)
		shows(1)
	})
}

// bootParts reads the size of a big file's parts from static/boot.js: at most partMiB MiB and
// partItems frames or messages.
func bootParts(t *testing.T) (partMiB, partItems int) {
	b, err := os.ReadFile("../static/boot.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`\nconst partBytes = (\d+) << 20;\nconst partItems = (\d+);\n`).FindSubmatch(b)
	if m == nil {
		t.Fatal("static/boot.js does not say partBytes and partItems as this test reads them")
	}
	partMiB, _ = strconv.Atoi(string(m[1]))
	partItems, _ = strconv.Atoi(string(m[2]))
	return partMiB, partItems
}

// BenchmarkPageBigFile opens files of more than web.MaxFile bytes of real traffic
// (scripts/bigrecv: a pg_recvlogical file, and with dumpcap the pcapng of its connection) in
// Chromium and Firefox, in a page loaded afresh each time (the export worker starts with the
// file): the time from choosing the file to the first rows of part 1, and to the whole file
// cut (the rate, in MB/s of the file), Chromium's page heap then (the worker's is its own),
// the rate of "Find in every part" for type:C, for a capture the rate of the Consumer panel's
// check of the whole file (after the search), and the most memory the tab held through all
// (RssAnon of the browser's biggest page process, sampled every 20 ms: the page and its
// worker).
//
// INSPECTOR_BIG_FILES (paths, comma-separated) benchmarks those files instead, e.g. the 1 GB
// ones of scripts/bigrecv -mb 1024 -pcap.
func BenchmarkPageBigFile(b *testing.B) {
	if files := os.Getenv("INSPECTOR_BIG_FILES"); files != "" {
		for _, f := range strings.Split(files, ",") {
			b.Run(filepath.Base(f), func(b *testing.B) { benchmarkBigFile(b, f) })
		}
		return
	}
	recv := bigRecvFile(b)
	b.Run("pg_recvlogical", func(b *testing.B) { benchmarkBigFile(b, recv) })
	b.Run("pcapng", func(b *testing.B) { benchmarkBigFile(b, bigCaptureFile(b)) })
}

func benchmarkBigFile(b *testing.B, path string) {
	for _, name := range browsertest.Browsers {
		b.Run(name, func(b *testing.B) { benchmarkBigFileIn(b, name, path) })
	}
}

func benchmarkBigFileIn(b *testing.B, name, path string) {
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	base := browsertest.Serve(b)
	br := browsertest.StartTab(b, name)
	var first, cut, find, check, heap, peak float64
	for range b.N {
		br.Navigate(base)
		br.WaitReady("html[data-ready]")
		br.Eval(`addEventListener("change", () => { globalThis.chosenAt = performance.now(); }, { capture: true, once: true })`, nil)
		stop, most := sampleRenderers(name)
		br.Upload("#file-open", path)
		var r struct {
			First, Cut, Heap float64
			Stuck            string
		}
		br.Eval(`new Promise((resolve) => {
			let first = -1;
			const tick = () => {
				const now = performance.now();
				const box = document.querySelector("#input-text");
				if (first < 0 && document.querySelector(".mrow") && box && box.value.includes("(part 1")) first = now - chosenAt;
				const status = document.querySelector("#bigfile-status");
				if (first >= 0 && status && status.textContent.includes(" parts of ")) {
					resolve({First: first, Cut: now - chosenAt, Heap: performance.memory ? performance.memory.usedJSHeapSize : 0});
					return;
				}
				if (now - chosenAt > 120000) {
					resolve({Stuck: "rows: " + !!document.querySelector(".mrow") + "; box: " + (box ? box.value.slice(0, 120) : "none") +
						"; panel: " + (status ? status.textContent : "none")});
					return;
				}
				setTimeout(tick, 10);
			};
			tick();
		})`, &r)
		if r.Stuck != "" {
			b.Fatalf("the file was not shown and cut in 2 minutes: %s", r.Stuck)
		}
		// Then the whole file searched for its Commits (the page notes when it ends; a search
		// of a big file outlasts the browser's time for one call).
		br.Eval(`(() => {
			globalThis.searched = -1;
			const began = performance.now();
			if (!document.querySelector("#bigfile-query")) return (globalThis.searched = 0); // a build without it
			document.querySelector("#bigfile-query").value = "type:C";
			document.querySelector("#bigfile-find button[type=submit]").click();
			const tick = () => {
				const e = document.querySelector("#bigfile-found");
				if (e && e.textContent.startsWith("type:C:")) globalThis.searched = performance.now() - began;
				else setTimeout(tick, 20);
			};
			tick();
		})()`, nil)
		// It fails when the search's status has not changed for 2 minutes (each part takes
		// well under a second), or after 20, saying what the status is.
		took, says, moved := -1.0, "", time.Now()
		for deadline := time.Now().Add(20 * time.Minute); took < 0; {
			if now := time.Now(); now.After(deadline) || now.Sub(moved) > 2*time.Minute {
				b.Fatalf("the search of the whole file did not end: %q", says)
			}
			time.Sleep(100 * time.Millisecond)
			br.Eval(`globalThis.searched`, &took)
			var now string
			br.Eval(`((e) => e ? e.textContent : "no status")(document.querySelector("#bigfile-found"))`, &now)
			if now != says {
				says, moved = now, time.Now()
			}
		}
		// Then, for a capture, the Consumer panel's check of the whole file (on part 1, which
		// holds the replication's start), once the search has read every part.
		checked := 0.0
		var hasConsumer bool
		br.Eval(`!!document.querySelector(".consumer-toggle")`, &hasConsumer)
		if hasConsumer {
			br.Eval(`(() => {
				globalThis.checked = -1;
				const began = performance.now();
				document.querySelector(".consumer-toggle").click();
				const tick = () => {
					if (document.querySelector("#consumer-body .consumer-whole")) globalThis.checked = performance.now() - began;
					else if (document.querySelector("#consumer-body .consumer-part")) globalThis.checked = 0; // a file too big to check whole
					else setTimeout(tick, 20);
				};
				tick();
			})()`, nil)
			says, moved = "", time.Now()
			for checked = -1; checked < 0; {
				if time.Since(moved) > 2*time.Minute {
					b.Fatalf("the whole file's consumer check did not end: %q", says)
				}
				time.Sleep(100 * time.Millisecond)
				br.Eval(`globalThis.checked`, &checked)
				var now string
				br.Eval(`((e) => e ? e.textContent.slice(0, 200) : "no panel") (document.querySelector("#consumer-body")) + " " + document.querySelector(".consumer-status")?.textContent`, &now)
				if now != says {
					says, moved = now, time.Now()
				}
			}
		}
		close(stop)
		first += r.First
		cut += r.Cut
		find += took
		check += checked
		heap += r.Heap
		peak = max(peak, float64(<-most))
	}
	n := float64(b.N)
	b.ReportMetric(first/n, "ms/choose-to-first-rows")
	b.ReportMetric(cut/n, "ms/choose-to-cut")
	b.ReportMetric(float64(fi.Size())/1e6/(cut/n/1000), "MB/s-cut")
	if find > 0 {
		b.ReportMetric(float64(fi.Size())/1e6/(find/n/1000), "MB/s-find")
	}
	if check > 0 {
		b.ReportMetric(float64(fi.Size())/1e6/(check/n/1000), "MB/s-consumer")
	}
	if heap > 0 {
		b.ReportMetric(heap/n/1e6, "MB-page-heap")
	}
	b.ReportMetric(peak/1e6, "MB-renderer-peak")
	b.ReportMetric(float64(fi.Size()), "file-bytes")
}

// sampleRenderers reads, every 20 ms until stop is closed, the RssAnon of every process that
// runs pages in the named browser (Chromium's renderers, Firefox's content processes), and
// then sends the most any one held.
func sampleRenderers(browser string) (stop chan struct{}, most chan int64) {
	mark := "--type=renderer"
	if browser == "firefox" {
		mark = "-contentproc"
	}
	stop, most = make(chan struct{}), make(chan int64, 1)
	go func() {
		var peak int64
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
			for _, c := range procs {
				cmd, err := os.ReadFile(c)
				if err != nil || !strings.Contains(string(cmd), mark) {
					continue
				}
				status, err := os.ReadFile(filepath.Join(filepath.Dir(c), "status"))
				if err != nil {
					continue
				}
				for _, line := range strings.Split(string(status), "\n") {
					if kb, ok := strings.CutPrefix(line, "RssAnon:"); ok {
						n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 10, 64)
						peak = max(peak, n<<10)
					}
				}
			}
			select {
			case <-stop:
				most <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return stop, most
}

// plural is n things, as the page writes it.
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return commas(n) + " " + thing + "s"
}
