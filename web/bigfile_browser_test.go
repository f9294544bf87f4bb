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

	pginput "pgoutput-inspector/input"
	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/internal/wirecapture"
	"pgoutput-inspector/web"
)

// A file over web.MaxFile is opened in parts (static/boot.js: openBig): a real
// pg_recvlogical -f file of real traffic (scripts/bigrecv: a PostgreSQL server, pgbench's
// clients), cut by the export worker as it reads it from disk.

var bigRecv struct {
	once sync.Once
	path string
	err  error
}

// bigRecvFile makes, once per test run, a pg_recvlogical file of more than web.MaxFile bytes.
func bigRecvFile(t testing.TB) string {
	t.Helper()
	bigRecv.once.Do(func() {
		dir, err := os.MkdirTemp("", "pgoutput-inspector-bigrecv")
		if err != nil {
			bigRecv.err = err
			return
		}
		bigRecv.path = filepath.Join(dir, "big.recv")
		mb := strconv.Itoa(web.MaxFile>>20 + 4)
		cmd := exec.Command("go", "run", "./scripts/bigrecv", "-mb", mb, "-out", bigRecv.path)
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			bigRecv.err = err
			t.Logf("scripts/bigrecv: %s", out)
		}
	})
	if bigRecv.err != nil {
		t.Fatalf("scripts/bigrecv: %v", bigRecv.err)
	}
	return bigRecv.path
}

// TestBrowsersBigFile opens a pg_recvlogical file of more than web.MaxFile bytes: the page
// cuts it into parts (the cutter's, as the command line reads it), shows the first as soon as
// it is cut, then the next and the last as asked, each with all its messages, names the part
// in the text box, and passes axe-core's checks; closed while it is cut, it opens again.
func TestBrowsersBigFile(t *testing.T) {
	if testing.Short() {
		t.Skip("makes a big file with a real server")
	}
	path := bigRecvFile(t)
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
		res, err := pginput.Parse(append(raw[:parts.Head:parts.Head], raw[p.Start:p.End]...), pginput.RecvLogical)
		if err != nil {
			t.Fatal(err)
		}
		counts[k] = strconv.Itoa(len(res.Messages)) + " messages"
	}
	count := func(k int) string { return counts[k] }
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
		}
		b.Upload("#file-open", path)
		shows(1)
		poll(t, b, "the file is cut whole", `((e) => e && e.textContent.includes(" `+strconv.Itoa(n)+` parts of at most") ? "" : e ? e.textContent : "no panel")(document.querySelector("#bigfile-status"))`)
		b.Click("#bigfile-next")
		shows(2)
		axeSerious(t, b, "a big file's part 2")
		b.Eval(`(() => { const box = document.querySelector("#bigfile-part"); box.value = "`+strconv.Itoa(n)+`"; box.dispatchEvent(new Event("change")); })()`, nil)
		shows(n)
		var last bool
		b.Eval(`document.querySelector("#bigfile-next").disabled`, &last)
		if !last {
			t.Errorf("Next part is enabled on the last part")
		}
		var status string
		b.Eval(`document.querySelector("#bigfile-status").textContent`, &status)
		if want := fmt.Sprintf("%d parts of at most %d MiB or %s messages", n, partMiB, commas(partItems)); !strings.Contains(status, want) {
			t.Errorf("the panel says %q, not %q", status, want)
		}
		b.Click("#bigfile-close")
		poll(t, b, "the panel is gone", `document.querySelector("#bigfile") ? "still there" : ""`)
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
// and the most memory the tab held (RssAnon of the browser's biggest page process, sampled
// every 20 ms: the page and its worker).
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
	b.Run("pcapng", func(b *testing.B) {
		if err := wirecapture.Check(); err != nil {
			b.Skip(err)
		}
		dir := b.TempDir()
		cmd := exec.Command("go", "run", "./scripts/bigrecv", "-mb", "70", "-out", filepath.Join(dir, "big.recv"), "-pcap", filepath.Join(dir, "big.pcapng"))
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("scripts/bigrecv: %v: %s", err, out)
		}
		benchmarkBigFile(b, filepath.Join(dir, "big.pcapng"))
	})
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
	var first, cut, heap, peak float64
	for range b.N {
		br.Navigate(base)
		br.WaitReady("html[data-ready]")
		br.Eval(`addEventListener("change", () => { globalThis.chosenAt = performance.now(); }, { capture: true, once: true })`, nil)
		stop, most := sampleRenderers(name)
		br.Upload("#file-open", path)
		var r struct{ First, Cut, Heap float64 }
		br.Eval(`new Promise((resolve) => {
			let first = -1;
			const tick = () => {
				const now = performance.now();
				const box = document.querySelector("#input-text");
				if (first < 0 && document.querySelector(".mrow") && box && box.value.includes("(part 1")) first = now - chosenAt;
				const status = document.querySelector("#bigfile-status");
				if (first >= 0 && status && status.textContent.includes(" parts of at most")) {
					resolve({First: first, Cut: now - chosenAt, Heap: performance.memory ? performance.memory.usedJSHeapSize : 0});
					return;
				}
				requestAnimationFrame(tick);
			};
			tick();
		})`, &r)
		close(stop)
		first += r.First
		cut += r.Cut
		heap += r.Heap
		peak = max(peak, float64(<-most))
	}
	n := float64(b.N)
	b.ReportMetric(first/n, "ms/choose-to-first-rows")
	b.ReportMetric(cut/n, "ms/choose-to-cut")
	b.ReportMetric(float64(fi.Size())/1e6/(cut/n/1000), "MB/s-cut")
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
