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
	const source = "pgoutput-inspector/scripts/wasmpack/testdata/traceback/main.go"
	for _, m := range []struct {
		name  string
		wasm  []byte
		lines bool // the linker's tables; packed, every place reads "?:0"
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
			file, panicFile := source, "runtime/panic.go"
			if !m.lines {
				file, panicFile = "?", "?"
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
			for _, bad := range []string{"fatal error", "\nruntime:", "unexpected return pc"} {
				if strings.Contains(text, bad) {
					t.Errorf("the output holds %q", bad)
				}
			}
			wantFrames := regexp.MustCompile(`(?s)goroutine \d+ gp=\S+ m=\S+ mp=\S+ \[running\]:\n` +
				`panic\(.*\)\n\t` + regexp.QuoteMeta(panicFile) + `:(\d+) .*\n` +
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
			// As linked, every frame of every goroutine names a file ("?" would mean a table the
			// runtime could not read); packed, every frame's place is "?:0".
			for _, l := range strings.Split(trace, "\n") {
				if m.lines && strings.HasPrefix(l, "\t") && !regexp.MustCompile(`^\t\S+\.(go|s):\d+( |$)`).MatchString(l) {
					t.Errorf("trace line %q: not a file and line", l)
				}
				if !m.lines && strings.HasPrefix(l, "\t") && !strings.HasPrefix(l, "\t?:0") {
					t.Errorf("trace line %q: not ?:0", l)
				}
			}
		})
	}
}

// TestShareLines checks on a real module that after shareLines every function's pcsp and
// pcdata tables give the same values at the same PCs, every pcln gives line 0 for all the
// function's PCs, every pcfile offset is 0, the memory changed only in pctab and _func offsets,
// and no data segment writes the freed end of pctab.
func TestShareLines(t *testing.T) {
	segs := dataOf(t, buildJS(t, "./testdata/traceback"))
	before := memory(segs)
	out, st, err := shareLines(segs)
	if err != nil {
		t.Fatal(err)
	}
	after := memory(out)
	if len(after) > len(before) {
		t.Fatalf("memory %d bytes, was %d", len(after), len(before))
	}
	after = append(after, make([]byte, len(before)-len(after))...)
	freeLo, freeHi, err := checkTables(before, after)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d functions, %d bytes of pctab kept, %d freed (%#x to %#x); %d segments, were %d", st.Funcs, st.Kept, st.Freed, freeLo, freeHi, len(out), len(segs))
	if st.Funcs == 0 || st.Freed < 1000 || freeHi-freeLo != st.Freed {
		t.Errorf("%d functions, %d bytes freed (checked: %d): shareLines did nothing worth having", st.Funcs, st.Freed, freeHi-freeLo)
	}
	l, err := readLineLayout(before)
	if err != nil {
		t.Fatal(err)
	}
	if st.Files == 0 {
		t.Error("cutab and filetab were kept")
	}
	for _, s := range out {
		for _, r := range append([][2]int{{freeLo, freeHi}}, l.files...) {
			if s.offset < r[1] && s.offset+len(s.data) > r[0] {
				t.Errorf("segment at %#x, %d bytes, writes a freed range (%#x to %#x)", s.offset, len(s.data), r[0], r[1])
			}
		}
	}
}

// TestCheckTables checks that checkTables, which TestShareLines and TestPackThePage rely on,
// fails on what a wrong rewrite of the tables would leave.
func TestCheckTables(t *testing.T) {
	segs := dataOf(t, buildJS(t, "./testdata/traceback"))
	before := memory(segs)
	out, _, err := shareLines(segs)
	if err != nil {
		t.Fatal(err)
	}
	after := memory(out)
	after = append(after, make([]byte, len(before)-len(after))...)
	freeLo, _, err := checkTables(before, after)
	if err != nil {
		t.Fatal(err)
	}
	l, err := readLineLayout(before)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	// A function with a pcsp table and a pcdata table.
	f := -1
	for _, g := range l.funcs[len(l.funcs)/2:] {
		if le.Uint32(after[g+funcPcsp:]) != 0 && le.Uint32(after[g+funcNpcdata:]) > 0 && le.Uint32(after[g+funcSize:]) != 0 {
			f = g
			break
		}
	}
	if f < 0 {
		t.Fatal("no function with pcsp and pcdata tables")
	}
	for _, c := range []struct {
		name   string
		change func(m []byte)
		want   string
	}{
		{"pcsp offset one byte on", func(m []byte) { le.PutUint32(m[f+funcPcsp:], le.Uint32(m[f+funcPcsp:])+1) }, "pcsp"},
		{"pcdata offset 0", func(m []byte) { le.PutUint32(m[f+funcSize:], 0) }, "pcdata 0"},
		{"pcfile at the pcsp table", func(m []byte) { copy(m[f+funcPcfile:f+funcPcfile+4], m[f+funcPcsp:]) }, "pcfile"},
		{"pcfile at offset 1", func(m []byte) { le.PutUint32(m[f+funcPcfile:], 1) }, "pcfile"},
		{"pcln at the pcsp table", func(m []byte) { copy(m[f+funcPcln:f+funcPcln+4], m[f+funcPcsp:]) }, "pcln"},
		{"startLine changed", func(m []byte) { m[f+36]++ }, "not in pctab"}, // _func.startLine
		{"a byte after the tables", func(m []byte) { m[freeLo] = 1 }, "not zero"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := bytes.Clone(after)
			c.change(m)
			if _, _, err := checkTables(before, m); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("checkTables: %v, want an error that says %q", err, c.want)
			}
		})
	}
}

// checkTables checks that after, the memory of a module packed from one whose memory is before,
// holds the same pcsp and pcdata tables for every function (each gives the same values at the
// same PCs, decoded as runtime.step does; offset 0 stays 0), that every pcln gives line 0 for
// at least the PCs the function's own table covered, that every pcfile offset is 0, that
// cutab and filetab are zero, that nothing else but pctab and the _func records' table offsets
// changed, and that pctab is zero from the end of the last table on. It returns where that
// zero end of pctab lies.
func checkTables(before, after []byte) (freeLo, freeHi int, err error) {
	if len(before) != len(after) {
		return 0, 0, fmt.Errorf("memories of %d and %d bytes", len(before), len(after))
	}
	l, err := readLineLayout(before)
	if err != nil {
		return 0, 0, err
	}
	tb, ta := before[l.pctab:l.pctab+l.npctab], after[l.pctab:l.pctab+l.npctab]
	le := binary.LittleEndian
	may := make([]bool, len(before)) // the bytes that may change
	for a := l.pctab; a < l.pctab+l.npctab; a++ {
		may[a] = true
	}
	// The function names and their offsets change (checkNames checks them).
	if _, md, err := moduledata(before); err == nil {
		tab, ntab := word(before, md+mdFuncnametab), word(before, md+mdFuncnametab+8)
		for a := tab; a < tab+ntab; a++ {
			may[a] = true
		}
		refs, err := nameRefs(before, l, word(before, md+mdGofunc), ntab)
		if err != nil {
			return 0, 0, err
		}
		for _, r := range refs {
			for a := r; a < r+4; a++ {
				may[a] = true
			}
		}
	}
	// cutab and filetab, which only a pcfile table's values lead to, are zero.
	for _, r := range l.files {
		for a := r[0]; a < r[1]; a++ {
			if after[a] != 0 {
				return 0, 0, fmt.Errorf("byte %#x of cutab or filetab (%#x to %#x): %#x, not zero", a, r[0], r[1], after[a])
			}
			may[a] = true
		}
	}
	used := 1 // pctab's byte 0 keeps offset 0 free
	decode := func(f, o int) (want, got [][2]int64, err error) {
		ob, oa := int(le.Uint32(before[o:])), int(le.Uint32(after[o:]))
		if ob == 0 || oa == 0 {
			if ob != oa {
				return nil, nil, fmt.Errorf("offset pctab+%#x, was pctab+%#x", oa, ob)
			}
			return nil, nil, nil
		}
		if want, err = pcPairs(tb, ob); err != nil {
			return nil, nil, err
		}
		if got, err = pcPairs(ta, oa); err != nil {
			return nil, nil, err
		}
		end, _, _ := pcTable(ta, oa)
		used = max(used, end)
		return want, got, nil
	}
	for _, f := range l.funcs {
		for a := f + funcPcfile; a < f+funcPcfile+4; a++ {
			may[a] = true
		}
		if off := le.Uint32(after[f+funcPcfile:]); off != 0 {
			return 0, 0, fmt.Errorf("_func at %#x: pcfile at pctab+%#x, want 0 (no table)", f, off)
		}
		for k, o := range tableOffsets(before, f) {
			name := "pcsp"
			if k >= 1 {
				name = fmt.Sprintf("pcdata %d", k-1)
			}
			for a := o; a < o+4; a++ {
				may[a] = true
			}
			want, got, err := decode(f, o)
			if err == nil && !slices.Equal(got, want) {
				err = fmt.Errorf("values and PCs %v, were %v", got, want)
			}
			if err != nil {
				return 0, 0, fmt.Errorf("_func at %#x: %s: %w", f, name, err)
			}
		}
		for a := f + funcPcln; a < f+funcPcln+4; a++ {
			may[a] = true
		}
		want, got, err := decode(f, f+funcPcln)
		if err == nil && len(want) > 0 {
			if len(got) == 0 || got[len(got)-1][1] < want[len(want)-1][1] {
				err = fmt.Errorf("covers %v, the function's own table %v", got, want)
			}
			for _, p := range got {
				if p[0] != 0 {
					err = fmt.Errorf("line %d (%v), want 0", p[0], got)
				}
			}
		}
		if err != nil {
			return 0, 0, fmt.Errorf("_func at %#x: pcln: %w", f, err)
		}
	}
	for a := range before {
		if before[a] != after[a] && !may[a] {
			return 0, 0, fmt.Errorf("byte %#x changed (%#x to %#x): not in pctab nor a _func's table offset", a, before[a], after[a])
		}
	}
	for a := used; a < len(ta); a++ {
		if ta[a] != 0 {
			return 0, 0, fmt.Errorf("pctab+%#x, after the last table (pctab+%#x): %#x, not zero", a, used, ta[a])
		}
	}
	return l.pctab + used, l.pctab + l.npctab, nil
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
		{"pcsp with a PC delta of 0", func(m []byte) {
			p := l.pctab + int(le.Uint32(m[f+funcPcsp:]))
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
