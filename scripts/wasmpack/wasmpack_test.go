package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
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
		r := reader{b: appendSleb(nil, v)}
		if got := r.sleb(); got != v || r.err != nil || r.more() {
			t.Errorf("sleb(appendSleb(%d)) = %d, %v", v, got, r.err)
		}
	}
}

// TestPackThePage packs the page's main.wasm as ./build.sh wasm does and checks that the module
// is the same but for the data section, that the memory it starts with is the same byte for byte,
// that findfunctab's segments are as they were, and that the file has far fewer segments.
func TestPackThePage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds main.wasm")
	}
	if runtime.GOOS == "js" {
		t.Skip("needs the go command")
	}
	wasm := filepath.Join(t.TempDir(), "main.wasm")
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
	if st.After > st.Before*95/100 {
		t.Errorf("%d data segments joined into %d: expected at least 5 %% fewer", st.Before, st.After)
	}
	if len(out) > len(in)+64<<10 {
		t.Errorf("packed main.wasm is %d bytes, %d more than the linker's: findfunctab's zeros written out?", len(out), len(out)-len(in))
	}
	oldSecs, newSecs := sections(t, in), sections(t, out)
	if len(oldSecs) != len(newSecs) {
		t.Fatalf("%d sections, was %d", len(newSecs), len(oldSecs))
	}
	var oldData, newData []byte
	for i := range oldSecs {
		if oldSecs[i].id != newSecs[i].id {
			t.Fatalf("section %d: id %d, was %d", i, newSecs[i].id, oldSecs[i].id)
		}
		if oldSecs[i].id == sectionData {
			oldData, newData = oldSecs[i].body, newSecs[i].body
		} else if !bytes.Equal(oldSecs[i].body, newSecs[i].body) {
			t.Errorf("section %d (id %d) changed", i, oldSecs[i].id)
		}
	}
	oldSegs, err := readSegments(oldData)
	if err != nil {
		t.Fatal(err)
	}
	newSegs, err := readSegments(newData)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(memory(oldSegs), memory(newSegs)) {
		t.Error("the packed module's initial memory differs from the linker's")
	}
	lo, hi, err := findfunctab(oldSegs)
	if err != nil {
		t.Fatal(err)
	}
	inside := func(segs []segment) (n int) {
		for _, s := range segs {
			if s.offset > lo && s.offset < hi {
				n++
			}
		}
		return n
	}
	if a, b := inside(oldSegs), inside(newSegs); a != b || a < 1000 {
		t.Errorf("findfunctab (%#x to %#x) had %d segments, now %d", lo, hi, a, b)
	}
}

type section struct {
	id   byte
	body []byte
}

func sections(t *testing.T, wasm []byte) []section {
	t.Helper()
	var out []section
	for r := (reader{b: wasm, off: 8}); r.more(); {
		id := r.byte()
		body := r.bytes(int(r.uleb()))
		if r.err != nil {
			t.Fatal(r.err)
		}
		out = append(out, section{id, body})
	}
	return out
}
