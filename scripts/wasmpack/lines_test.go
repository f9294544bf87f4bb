package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// buildJS builds the main package in dir for GOOS=js as ./build.sh wasm builds main.wasm and
// returns the linker's module, once per test binary and package.
func buildJS(t *testing.T, dir string) []byte {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a GOOS=js module")
	}
	if runtime.GOOS == "js" {
		t.Skip("needs the go command")
	}
	buildMu.Lock()
	defer buildMu.Unlock()
	if b, ok := buildCache[dir]; ok {
		return b
	}
	if buildDir == "" {
		var err error
		if buildDir, err = os.MkdirTemp("", "wasmpack-test"); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(buildDir, strconv.Itoa(len(buildCache))+".wasm")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w -buildid=", "-o", out, dir)
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", dir, err, msg)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	buildCache[dir] = b
	return b
}

var (
	buildMu    sync.Mutex
	buildCache = map[string][]byte{}
	buildDir   string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// dataOf returns the data segments of a module.
func dataOf(t *testing.T, wasm []byte) []segment {
	t.Helper()
	for _, s := range sections(t, wasm) {
		if s.id == sectionData {
			segs, err := readSegments(s.body)
			if err != nil {
				t.Fatal(err)
			}
			return segs
		}
	}
	t.Fatal("no data section")
	return nil
}

// TestTraceback runs testdata/traceback under Node as the linker wrote it and packed: the same
// output but for the lines, which are 0 in the packed module, and no complaint of the runtime.
func TestTraceback(t *testing.T) {
	linked := buildJS(t, "./testdata/traceback")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	packed, st, err := Pack(linked, MaxGap)
	if err != nil {
		t.Fatal(err)
	}
	if st.LinesKept != nil {
		t.Fatalf("line tables kept: %v", st.LinesKept)
	}
	src, err := os.ReadFile("testdata/traceback/main.go")
	if err != nil {
		t.Fatal(err)
	}
	lineOf := func(text string) int {
		i := bytes.Index(src, []byte(text))
		if i < 0 {
			t.Fatalf("testdata/traceback/main.go has no %q", text)
		}
		return bytes.Count(src[:i], []byte("\n")) + 1
	}
	// The frames runtime.CallersFrames gives in the deferred function that recovers, and the
	// lines they are at in the source.
	frames := []struct {
		fn   string
		line int
	}{
		{"main.outer.func1", lineOf("n := runtime.Callers(1, pcs)")},
		{"main.explode", lineOf(`panic("explode panics")`)},
		{"main.inner", lineOf("return explode(n) * 2")},
		{"main.middle", lineOf("return inner(n) + 1")},
		{"main.outer", lineOf("middle(1)")},
		{"main.main", lineOf("frames := outer()")},
	}
	const file = "pgoutput-inspector/scripts/wasmpack/testdata/traceback/main.go"
	for _, m := range []struct {
		name  string
		wasm  []byte
		lines bool
	}{{"linked", linked, true}, {"packed", packed, false}} {
		t.Run(m.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "traceback.wasm")
			if err := os.WriteFile(path, m.wasm, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(node, filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec_node.js"), path)
			// system: the trace shows the runtime's frames too, and every goroutine.
			cmd.Env = append(os.Environ(), "GOTRACEBACK=system")
			out, err := cmd.CombinedOutput()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
				t.Errorf("exit: %v, want exit status 2 (a goroutine's unrecovered panic)", err)
			}
			text := string(out)
			t.Logf("output:\n%s", text)
			line := func(l int) int {
				if m.lines {
					return l
				}
				return 0
			}
			var want []string
			want = append(want, "recovered explode panics")
			for _, f := range frames {
				want = append(want, fmt.Sprintf("frame %s %s %d", f.fn, file, line(f.line)))
			}
			want = append(want,
				fmt.Sprintf("caller main.main %s %d true", file, line(lineOf("pc, file, line, ok := runtime.Caller(0)"))),
				fmt.Sprintf("fileline %s %d", file, line(lineOf("pc, file, line, ok := runtime.Caller(0)"))),
				"recursion 5000",
				"heap 9990000",
				"panic: unrecovered panic")
			if got := strings.Split(text, "\n"); len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
				t.Errorf("output does not start\n%s", strings.Join(want, "\n"))
			}
			// The goroutine's trace: each frame a function and, indented, its file and line.
			trace := text[strings.Index(text, "panic: unrecovered panic"):]
			for _, bad := range []string{"fatal error", "\nruntime:", "unexpected return pc", "?:"} {
				if strings.Contains(text, bad) {
					t.Errorf("the output holds %q", bad)
				}
			}
			wantFrames := regexp.MustCompile(`(?s)goroutine \d+ gp=\S+ m=\S+ mp=\S+ \[running\]:\n` +
				`panic\(.*\)\n\truntime/panic.go:(\d+) .*\n` +
				`main.unrecovered\(0x0\)\n\t` + regexp.QuoteMeta(file) + `:(\d+) .*` +
				`main.unrecovered\(0x3\)\n\t` + regexp.QuoteMeta(file) + `:(\d+) .*` +
				`main.main.func1\(\)\n\t` + regexp.QuoteMeta(file) + `:(\d+) .*` +
				`created by main.main in goroutine 1\n\t` + regexp.QuoteMeta(file) + `:(\d+) `)
			sub := wantFrames.FindStringSubmatch(trace)
			if sub == nil {
				t.Fatalf("the unrecovered panic's trace is not\n%s", wantFrames)
			}
			wantLines := []int{-1, lineOf(`panic("unrecovered panic")`), lineOf("unrecovered(n - 1)"), lineOf("unrecovered(3)"), lineOf("go func() {")}
			for i, s := range sub[1:] {
				n, _ := strconv.Atoi(s)
				if m.lines && i > 0 && n != wantLines[i] || m.lines && n == 0 || !m.lines && n != 0 {
					t.Errorf("trace line %d: %d, want %d", i, n, line(wantLines[i]))
				}
			}
			// Every frame of every goroutine names a file: "?" would mean a line table the
			// runtime could not read.
			for _, l := range strings.Split(trace, "\n") {
				if strings.HasPrefix(l, "\t") && !regexp.MustCompile(`^\t\S+\.(go|s):\d+( |$)`).MatchString(l) {
					t.Errorf("trace line %q: not a file and line", l)
				}
				if !m.lines && strings.HasPrefix(l, "\t") && !strings.Contains(l, ":0") {
					t.Errorf("trace line %q: not line 0", l)
				}
			}
		})
	}
}

// TestShareLines checks on a real module that the tables the garbage collector and stack growth
// read (pcsp, pcdata) and the file tables are the same bytes after shareLines, that every
// pcln points at a table of line 0 covering every function's PCs, and that the module's memory
// changed only in pcln tables and offsets.
func TestShareLines(t *testing.T) {
	segs := dataOf(t, buildJS(t, "./testdata/traceback"))
	before := memory(segs)
	l, err := readLineLayout(before)
	if err != nil {
		t.Fatal(err)
	}
	out, st, err := shareLines(segs)
	if err != nil {
		t.Fatal(err)
	}
	after := memory(out)
	if len(after) > len(before) {
		t.Fatalf("memory %d bytes, was %d", len(after), len(before))
	}
	after = append(after, make([]byte, len(before)-len(after))...)
	t.Logf("%d functions, %d bytes zeroed, shared table %x at pctab+%#x", st.Funcs, st.Zeroed, l.shared, l.sharedAt)
	mayChange := linesMayChange(l, len(before))
	pctab := func(mem []byte) []byte { return mem[l.pctab : l.pctab+len(l.onlyLines)] }
	for _, f := range l.funcs {
		// pcsp, pcfile and every pcdata table: the same bytes.
		offs := []int{f + funcPcsp, f + funcPcfile}
		for k := range int(binary.LittleEndian.Uint32(before[f+funcNpcdata:])) {
			offs = append(offs, f+funcSize+4*k)
		}
		for _, o := range offs {
			off := int(binary.LittleEndian.Uint32(before[o:]))
			if off == 0 {
				continue
			}
			end, _, err := pcTable(pctab(before), off)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(pctab(before)[off:end], pctab(after)[off:end]) {
				t.Fatalf("_func at %#x: the table at pctab+%#x changed", f, off)
			}
		}
		// pcln: the shared table, which covers as many PCs as the function's own did.
		_, pcsOld, err := pcTable(pctab(before), int(binary.LittleEndian.Uint32(before[f+funcPcln:])))
		if err != nil {
			t.Fatal(err)
		}
		off := int(binary.LittleEndian.Uint32(after[f+funcPcln:]))
		if off != l.sharedAt {
			t.Fatalf("_func at %#x: pcln at pctab+%#x, want the shared table's pctab+%#x", f, off, l.sharedAt)
		}
		_, pcs, err := pcTable(pctab(after), off)
		if err != nil || pcs < pcsOld {
			t.Fatalf("_func at %#x: the shared table covers %d PCs (%v), the function's own %d", f, pcs, err, pcsOld)
		}
	}
	if !bytes.Equal(pctab(after)[l.sharedAt:l.sharedAt+len(l.shared)], l.shared) {
		t.Errorf("pctab+%#x: %x, want the shared table %x", l.sharedAt, pctab(after)[l.sharedAt:][:len(l.shared)], l.shared)
	}
	// The shared table: value -1+1 = 0 from the entry on, then the end.
	if v, n := binary.Varint(l.shared); v != 1 || n != 1 || l.shared[len(l.shared)-1] != 0 {
		t.Errorf("shared table %x: not a value delta of +1, a PC delta and the end", l.shared)
	}
	changed, zeroed := 0, 0
	for a := range before {
		if before[a] != after[a] {
			changed++
			if !mayChange[a] {
				t.Fatalf("byte %#x changed (%#x to %#x): not a pcln table's or offset's", a, before[a], after[a])
			}
			if after[a] == 0 {
				zeroed++
			}
		}
	}
	if changed == 0 || zeroed < 1000 {
		t.Errorf("%d bytes changed, %d zeroed: shareLines did nothing worth having", changed, zeroed)
	}
	// The linker's segments, at the same addresses, and only the bytes of pcln offsets that
	// no segment held besides them.
	extra := 0
	for _, s := range out {
		if i, ok := slices.BinarySearchFunc(segs, s.offset, func(o segment, a int) int { return o.offset - a }); ok && len(segs[i].data) == len(s.data) {
			continue
		}
		extra++
		for a := s.offset; a < s.offset+len(s.data); a++ {
			if !mayChange[a] || l.pctab <= a && a < l.pctab+len(l.onlyLines) {
				t.Errorf("segment at %#x, %d bytes: not the linker's, and not a pcln offset", s.offset, len(s.data))
				break
			}
		}
	}
	t.Logf("%d segments, %d of them new", len(out), extra)
}

// linesMayChange returns, for each byte of a memory of n bytes, whether shareLines may change it:
// a byte of pctab that only pcln tables use, or a function's pcln offset.
func linesMayChange(l *lineLayout, n int) []bool {
	may := make([]bool, n)
	for a, b := range l.onlyLines {
		may[l.pctab+a] = b
	}
	for _, f := range l.funcs {
		for a := f + funcPcln; a < f+funcPcln+4; a++ {
			may[a] = true
		}
	}
	return may
}

// TestShareLinesUnknownLayout changes the module's tables in ways shareLines must not accept
// and checks that it leaves the segments as they are and says why.
func TestShareLinesUnknownLayout(t *testing.T) {
	segs := dataOf(t, buildJS(t, "./testdata/traceback"))
	mem := memory(segs)
	l, err := readLineLayout(mem)
	if err != nil {
		t.Fatal(err)
	}
	hdr, md, err := moduledata(mem)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	f := l.funcs[len(l.funcs)/2]
	pctabLen := word(mem, md+mdPctab+8)
	for _, c := range []struct {
		name   string
		change func(m []byte)
		want   string
	}{
		{"another Go release", func(m []byte) {
			for i := bytes.Index(m, []byte(layoutGo)); i >= 0; i = bytes.Index(m, []byte(layoutGo)) {
				copy(m[i:], "go1.99")
			}
		}, "does not name go1.26"},
		{"PC quantum 4", func(m []byte) { m[hdr+hdrMinLC] = 4 }, "PC quantum 4"},
		{"pctab elsewhere", func(m []byte) { le.PutUint64(m[md+mdPctab:], uint64(word(m, md+mdPctab)+8)) }, "pctab"},
		{"a function more", func(m []byte) { le.PutUint64(m[hdr+hdrNfunc:], uint64(word(m, hdr+hdrNfunc)+1)) }, "ftab"},
		{"entryOff not ftab's", func(m []byte) { le.PutUint32(m[f+funcEntryOff:], le.Uint32(m[f+funcEntryOff:])+1) }, "not the layout of go1.26"},
		{"too many pcdata tables", func(m []byte) { le.PutUint32(m[f+funcNpcdata:], maxPcdata+1) }, "pcdata"},
		{"pcln past pctab", func(m []byte) { le.PutUint32(m[f+funcPcln:], uint32(pctabLen)) }, "outside pctab"},
		{"pcsp running past pctab", func(m []byte) { le.PutUint32(m[f+funcPcsp:], uint32(pctabLen-1)) }, "pctab"},
		{"pcfile with a PC delta of 0", func(m []byte) {
			p := l.pctab + int(le.Uint32(m[f+funcPcfile:]))
			_, n := binary.Uvarint(m[p:]) // the value delta; then the PC delta
			m[p+n] = 0
		}, "malformed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := bytes.Clone(mem)
			c.change(m)
			in := []segment{{0, m}}
			out, _, err := shareLines(in)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one that says %q", err, c.want)
			}
			if len(out) != 1 || !bytes.Equal(out[0].data, m) {
				t.Error("the segments changed")
			}
		})
	}
}
