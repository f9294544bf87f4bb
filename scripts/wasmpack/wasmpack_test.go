package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"pgoutput-inspector/internal/wasmbin"
)

func TestJoin(t *testing.T) {
	seg := func(offset int, data string) segment { return segment{offset, []byte(data)} }
	segs := []segment{
		seg(100, "ab"),
		seg(104, "cd"),     // 2 zeros after "ab": joined
		seg(120, "ef"),     // 14 zeros: over maxGap 8, kept apart
		seg(200, "gh"),     // inside [lo, hi) = [190, 240): kept apart
		seg(204, "ij"),     //   the same
		seg(240, "kl"),     // the gap 206-240 reaches into [190, 240): kept apart
		seg(244, "mn\x00"), // after it, joined
		seg(247, "op"),     // touching: joined
	}
	got, err := join(segs, 190, 240, 8)
	if err != nil {
		t.Fatal(err)
	}
	want := []segment{
		seg(100, "ab\x00\x00cd"),
		seg(120, "ef"),
		seg(200, "gh"),
		seg(204, "ij"),
		seg(240, "kl\x00\x00mn\x00op"),
	}
	if len(got) != len(want) {
		t.Fatalf("join: %d segments %v, want %v", len(got), got, want)
	}
	for i := range want {
		if got[i].offset != want[i].offset || !bytes.Equal(got[i].data, want[i].data) {
			t.Errorf("segment %d: %d %q, want %d %q", i, got[i].offset, got[i].data, want[i].offset, want[i].data)
		}
	}
	if _, err := join([]segment{seg(0, "abcd"), seg(2, "ef")}, 0, 0, 8); err == nil {
		t.Error("join of overlapping segments: no error")
	}
}

func TestSleb(t *testing.T) {
	for _, v := range []int64{0, 1, 63, 64, -1, -64, -65, 127, 128, 0x62240, 1<<31 - 1, -1 << 31} {
		r := wasmbin.Reader{B: wasmbin.AppendSleb(nil, v)}
		if got := r.Sleb(); got != v || r.Err != nil || r.More() {
			t.Errorf("sleb(wasmbin.AppendSleb(%d)) = %d, %v", v, got, r.Err)
		}
	}
}

func TestFindfunctabLoop(t *testing.T) {
	const lo, n = 64, 40
	table := make([]byte, n*bucketSize-16) // the last bucket's deltas lie past hi
	for k := range n {
		binary.LittleEndian.PutUint32(table[k*bucketSize:], uint32(k/16))
	}
	hi := lo + len(table)
	// The linker leaves zeros out: a segment for each bucket's non-zero bytes.
	var segs []segment
	segs = append(segs, segment{0, []byte("moduledata and more")})
	for k := 16; k < n; k++ {
		segs = append(segs, segment{lo + k*bucketSize, []byte{byte(k / 16)}})
	}
	segs = append(segs, segment{hi, []byte("typelinks")})
	if got, ok := findfunctabLoop(segs, lo, hi); !ok || got != n {
		t.Errorf("findfunctabLoop = %d, %v; want %d, true", got, ok, n)
	}
	code := findfunctabCode(lo, n)
	if len(code) > 64 || code[len(code)-1] != 0x0b {
		t.Errorf("findfunctabCode: %x", code)
	}

	changed := slices.Clone(segs)
	changed[5] = segment{changed[5].offset, []byte{7}}
	if _, ok := findfunctabLoop(changed, lo, hi); ok {
		t.Error("findfunctabLoop accepts a bucket index that is not k/16")
	}
	delta := append(slices.Clone(segs), segment{lo + 3*bucketSize + 6, []byte{1}})
	slices.SortFunc(delta, func(a, b segment) int { return a.offset - b.offset })
	if _, ok := findfunctabLoop(delta, lo, hi); ok {
		t.Error("findfunctabLoop accepts a sub-bucket delta that is not 0")
	}
	across := slices.Clone(segs)
	across[len(across)-1] = segment{hi - 2, []byte("\x00\x00typelinks")}
	if _, ok := findfunctabLoop(across, lo, hi); ok {
		t.Error("findfunctabLoop accepts a segment reaching across the table's end")
	}
}

// TestPackThePage packs the page's main.wasm as ./build.sh wasm does, checks that the module is
// the linker's with one function added (the start function) and its data segments rewritten,
// and, under Node, that the packed module starts with the linker's memory but for pctab and the
// _func records' table offsets, every table but pcln giving the same values (checkTables), and
// that no data segment writes the end of pctab that shareLines freed, the end of funcnametab
// that shortNames freed, or cutab and filetab.
func TestPackThePage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds main.wasm")
	}
	if runtime.GOOS == "js" {
		t.Skip("needs the go command")
	}
	dir := t.TempDir()
	wasm := filepath.Join(dir, "main.wasm")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", wasm, "../../wasm")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	in, err := os.ReadFile(wasm)
	if err != nil {
		t.Fatal(err)
	}
	out, st, err := Pack(in, MaxGap)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d data segments joined into %d; %d bytes raw, was %d", st.Before, st.After, len(out), len(in))
	if st.LinesKept != nil {
		t.Errorf("line tables kept: %v", st.LinesKept)
	}
	if !st.Generated {
		t.Error("findfunctab is not written by a start function: not the table this program knows (Go version?)")
	}
	if st.NamesKept != nil {
		t.Errorf("function names kept: %v", st.NamesKept)
	}
	// Browsers take up to 100,000 data segments (V8's and SpiderMonkey's limit); the packed
	// page has a few thousand (3,226 with MaxGap 12 on 2026-12-06).
	if st.After > 5000 || len(out) >= len(in) {
		t.Errorf("%d data segments, %d bytes raw: expected fewer than 5000 and fewer bytes than the linker's %d", st.After, len(out), len(in))
	}
	// Every section but the data section is the linker's, or the linker's with one entry added.
	oldSecs, newSecs := sections(t, in), sections(t, out)
	newSecs = slices.DeleteFunc(newSecs, func(s section) bool { return s.id == sectionStart })
	if len(oldSecs) != len(newSecs) {
		t.Fatalf("%d sections besides the start section, was %d", len(newSecs), len(oldSecs))
	}
	for i := range oldSecs {
		o, n := oldSecs[i], newSecs[i]
		switch {
		case o.id != n.id:
			t.Fatalf("section %d: id %d, was %d", i, n.id, o.id)
		case o.id == sectionData:
		case o.id == sectionType || o.id == sectionFunction || o.id == sectionCode:
			ro, rn := wasmbin.Reader{B: o.body}, wasmbin.Reader{B: n.body}
			if co, cn := ro.Uleb(), rn.Uleb(); cn != co+1 || !bytes.HasPrefix(n.body[rn.Off:], o.body[ro.Off:]) {
				t.Errorf("section id %d: %d entries, was %d, or the linker's entries changed", o.id, cn, co)
			}
		case !bytes.Equal(o.body, n.body):
			t.Errorf("section %d (id %d) changed", i, o.id)
		}
	}

	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the modules' memories are not compared")
	}
	packed := filepath.Join(dir, "packed.wasm")
	if err := os.WriteFile(packed, out, 0o644); err != nil {
		t.Fatal(err)
	}
	cmp := exec.Command(node, "-e", dumpMemory, wasm, packed)
	if got, err := cmp.CombinedOutput(); err != nil {
		t.Fatalf("node: %v\n%s", err, got)
	}
	before, err := os.ReadFile(wasm + ".mem")
	if err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(packed + ".mem")
	if err != nil {
		t.Fatal(err)
	}
	freeLo, freeHi, err := checkTables(before, after)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("memory of %d bytes; pctab free from %#x to %#x (%d bytes)", len(before), freeLo, freeHi, freeHi-freeLo)
	if freeHi-freeLo != st.Lines.Freed || st.Lines.Freed < 50_000 {
		t.Errorf("pctab's freed end: %d bytes, shareLines says %d: expected the same and the old line tables' tens of KB", freeHi-freeLo, st.Lines.Freed)
	}
	namesEnd, tabEnd, err := checkNames(before, after)
	if err != nil {
		t.Fatal(err)
	}
	if tabEnd-namesEnd != st.Names.Freed || st.Names.Freed < 10_000 {
		t.Errorf("funcnametab's freed end: %d bytes, shortNames says %d: expected the same and more than 10 KB", tabEnd-namesEnd, st.Names.Freed)
	}
	// cutab and filetab (checkTables holds them at zero) are written by no segment either.
	l, err := readLineLayout(before)
	if err != nil {
		t.Fatal(err)
	}
	freed := [][2]int{{freeLo, freeHi}, {namesEnd, tabEnd}}
	files := 0
	for _, r := range l.files {
		freed = append(freed, r)
		files += r[1] - r[0]
	}
	t.Logf("cutab and filetab: %d bytes unwritten", files)
	if files != st.Lines.Files || files < 5_000 {
		t.Errorf("cutab and filetab: %d bytes, shareLines says %d unwritten: expected the same and more than 5 KB", files, st.Lines.Files)
	}
	for _, s := range dataOf(t, out) {
		for _, r := range freed {
			if s.offset < r[1] && s.offset+len(s.data) > r[0] {
				t.Errorf("data segment at %#x, %d bytes, writes a freed range (%#x to %#x)", s.offset, len(s.data), r[0], r[1])
			}
		}
	}
}

// checkNames checks that every function name the runtime finds in after (each _func's and
// each inlining tree entry's) is its name in before with the module paths cut, that the names
// are different, and that funcnametab is zero after the last; it returns where that zero end
// lies and where funcnametab ends.
func checkNames(before, after []byte) (namesEnd, tabEnd int, err error) {
	l, err := readLineLayout(before)
	if err != nil {
		return 0, 0, err
	}
	_, md, err := moduledata(before)
	if err != nil {
		return 0, 0, err
	}
	tab, ntab := word(before, md+mdFuncnametab), word(before, md+mdFuncnametab+8)
	refs, err := nameRefs(before, l, word(before, md+mdGofunc), ntab)
	if err != nil {
		return 0, 0, err
	}
	name := func(mem []byte, r int) string {
		off := tab + int(binary.LittleEndian.Uint32(mem[r:]))
		return string(mem[off : off+bytes.IndexByte(mem[off:tab+ntab], 0)])
	}
	used := 0
	owner := map[string]int{} // a name after: the offset of the name before that gives it
	for _, r := range refs {
		was, is := name(before, r), name(after, r)
		want := was
		for _, p := range namePrefixes {
			want = strings.ReplaceAll(want, string(p), "")
		}
		if is != want {
			return 0, 0, fmt.Errorf("name offset at %#x: %q, was %q: want %q", r, is, was, want)
		}
		if o, ok := owner[is]; ok && o != int(binary.LittleEndian.Uint32(before[r:])) {
			return 0, 0, fmt.Errorf("%q is the name of two functions", is)
		}
		owner[is] = int(binary.LittleEndian.Uint32(before[r:]))
		used = max(used, int(binary.LittleEndian.Uint32(after[r:]))+len(is)+1)
	}
	for a := tab + used; a < tab+ntab; a++ {
		if after[a] != 0 {
			return 0, 0, fmt.Errorf("funcnametab+%#x, after the last name: %#x, not zero", a-tab, after[a])
		}
	}
	return tab + used, tab + ntab, nil
}

// dumpMemory instantiates the two modules named on its command line (imports that throw if
// called: nothing but the start function runs) and writes each one's memory to its name with
// ".mem" added.
const dumpMemory = `
const fs = require("fs");
for (const file of process.argv.slice(-2)) {
	const m = new WebAssembly.Module(fs.readFileSync(file));
	const imports = {};
	for (const i of WebAssembly.Module.imports(m)) {
		(imports[i.module] ||= {})[i.name] = () => { throw new Error("import called: " + i.name); };
	}
	fs.writeFileSync(file + ".mem", new Uint8Array(new WebAssembly.Instance(m, imports).exports.mem.buffer));
}
`

func sections(t *testing.T, wasm []byte) []section {
	t.Helper()
	var out []section
	for r := (wasmbin.Reader{B: wasm, Off: 8}); r.More(); {
		id := r.Byte()
		body := r.Bytes(int(r.Uleb()))
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		out = append(out, section{id, body})
	}
	return out
}
