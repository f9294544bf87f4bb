package input

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// TestCutter cuts real files (captures by dumpcap and tshark, pg_recvlogical -f files) into
// small parts, writing them to the cutter whole and in chunks of random sizes: the parts
// follow one another from the head to the file's end, each holds at most twice MaxBytes
// (head included) and MaxItems unless it is one frame or message, and each part with the
// head is a file Parse reads: together the parts hold every frame of a capture, and, unless
// a part ends inside a message (Part.Mid: parts of 4 KiB, smaller than the captures'
// frames), every message of the file in order. Parts of 64 KiB or of 7 frames end between
// messages.
func TestCutter(t *testing.T) {
	files, _ := filepath.Glob("../testdata/conversation/*.pcapng")
	files = append(files, "../testdata/input/tshark/pcap.pcap", "../testdata/input/recvlogical/stream.bin", "../testdata/consumer/subscriber-stopped-pg15.pcapng")
	frames := regexp.MustCompile(`^Read (\d+) frames?`)
	empty := regexp.MustCompile(`the capture holds (\d+) frames? and no PostgreSQL protocol message`)
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		whole, err := Parse(b, Auto)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		count := func(r *Result) int {
			if r.Format == RecvLogical {
				return len(r.Messages)
			}
			for _, n := range r.Notes {
				if m := frames.FindStringSubmatch(n.Text); m != nil {
					k, _ := strconv.Atoi(m[1])
					return k
				}
			}
			t.Fatalf("%s: no note says how many frames: %v", path, r.Notes)
			return 0
		}
		want := count(whole)
		for _, max := range []struct {
			bytes int64
			items int
		}{{4 << 10, 1000}, {64 << 10, 1000}, {1 << 20, 7}, {1 << 30, 1 << 20}} {
			var ps *Parts
			for try := range 3 {
				c := &Cutter{MaxBytes: max.bytes, MaxItems: max.items}
				rest := b
				var final []Part // the parts called final so far
				for len(rest) > 0 {
					n := len(rest)
					if try > 0 {
						n = min(n, 1+rand.IntN(3000))
					}
					c.Write(rest[:n])
					rest = rest[n:]
					if k := c.Final(); k > len(final) {
						final = append(final, c.SoFar().Parts[len(final):k]...)
					}
				}
				got, err := c.Close()
				if err != nil {
					t.Fatalf("%s: %v", path, err)
				}
				if len(final) > len(got.Parts) || !equalParts(&Parts{Parts: final}, &Parts{Parts: got.Parts[:len(final)]}) {
					t.Fatalf("%s: parts called final %+v, cut %+v", path, final, got.Parts)
				}
				if ps != nil && !equalParts(ps, got) {
					t.Fatalf("%s: cut whole %+v, in chunks %+v", path, ps, got)
				}
				ps = got
			}
			if ps.Format != whole.Format {
				t.Errorf("%s: cut as %s, read as %s", path, ps.Format, whole.Format)
			}
			if max.bytes == 1<<30 && len(ps.Parts) != 1 {
				t.Errorf("%s: %d parts, want 1", path, len(ps.Parts))
			}
			at, total, mid := ps.Head, 0, false
			var msgs [][]byte
			for i, p := range ps.Parts {
				if p.Start != at || p.End <= p.Start {
					t.Fatalf("%s: part %d is %d to %d, after %d", path, i+1, p.Start, p.End, at)
				}
				at = p.End
				mid = mid || p.Mid
				if p.Mid && max.bytes != 4<<10 {
					t.Errorf("%s: part %d of at most %d bytes and %d items ends inside a message", path, i+1, max.bytes, max.items)
				}
				if p.Items > 1 && (ps.Head+p.End-p.Start > 2*max.bytes || p.Items > 2*max.items) {
					t.Errorf("%s: part %d holds %d bytes and %d items, more than %d and %d", path, i+1, ps.Head+p.End-p.Start, p.Items, 2*max.bytes, 2*max.items)
				}
				part := append(append([]byte(nil), b[:ps.Head]...), b[p.Start:p.End]...)
				r, err := Parse(part, ps.Format)
				if err != nil {
					// A part of frames without a message (ACKs, a close) is a capture of none.
					m := empty.FindStringSubmatch(err.Error())
					if m == nil || m[1] != strconv.Itoa(p.Items) {
						t.Fatalf("%s: part %d: %v", path, i+1, err)
					}
					total += p.Items
					continue
				}
				if n := count(r); n != p.Items {
					t.Errorf("%s: part %d: %d items read, the cutter counted %d", path, i+1, n, p.Items)
				}
				total += p.Items
				for _, m := range r.Messages {
					msgs = append(msgs, m.Bytes)
				}
			}
			if at != int64(len(b)) {
				t.Errorf("%s: the parts end at %d, the file at %d", path, at, len(b))
			}
			if total != want {
				t.Errorf("%s: the parts hold %d items, the file %d", path, total, want)
			}
			if why := partsDiffer(whole.Messages, msgs); why != "" && !mid {
				t.Errorf("%s, parts of %d bytes or %d items: %s", path, max.bytes, max.items, why)
			}
		}
	}
}

// partsDiffer says how the messages of a file's parts differ from the whole file's, or "".
func partsDiffer(whole []Message, parts [][]byte) string {
	n := min(len(whole), len(parts))
	for i := range n {
		if !bytes.Equal(whole[i].Bytes, parts[i]) {
			return "message " + strconv.Itoa(i+1) + " differs in the parts (" + strconv.Itoa(len(parts)) + " messages, the file " + strconv.Itoa(len(whole)) + ")"
		}
	}
	if len(whole) != len(parts) {
		return "the parts hold " + strconv.Itoa(len(parts)) + " messages, the file " + strconv.Itoa(len(whole))
	}
	return ""
}

func equalParts(a, b *Parts) bool {
	if a.Format != b.Format || a.Head != b.Head || len(a.Parts) != len(b.Parts) {
		return false
	}
	for i := range a.Parts {
		if a.Parts[i] != b.Parts[i] {
			return false
		}
	}
	return true
}

// TestCutterRefuses: what is not a capture or a pg_recvlogical file is refused with the byte
// where cutting stopped; a capture cut inside its last frame is cut, its last part ending
// with the file.
func TestCutterRefuses(t *testing.T) {
	b, err := os.ReadFile("../testdata/input/tshark/pcap.pcap")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		in   []byte
		want string
	}{
		{"text", []byte("0x42000000000000000000000000000000000000000000000000000000"), "at byte 0: the file is not a pcap, pcapng or pg_recvlogical file"},
		{"short", b[:20], "the file is too short"},
	} {
		cu := &Cutter{MaxBytes: 1 << 20, MaxItems: 100}
		cu.Write(c.in)
		_, err := cu.Close()
		if err == nil || !bytes.Contains([]byte(err.Error()), []byte(c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	cu := &Cutter{MaxBytes: 1 << 20, MaxItems: 100}
	cu.Write(b[:len(b)-3])
	ps, err := cu.Close()
	if err != nil || ps.Parts[len(ps.Parts)-1].End != int64(len(b)-3) {
		t.Errorf("a capture cut inside its last frame: %+v, %v", ps, err)
	}
}

// FuzzCutter: any bytes, written whole or in two pieces, never panic or hang the cutter, what
// it cuts follows on from the head without a gap, inside the bytes given, and the parts it
// called final after the first piece are the first parts in the end.
func FuzzCutter(f *testing.F) {
	for _, path := range []string{"../testdata/input/tshark/pcap.pcap", "../testdata/input/recvlogical/stream.bin", "../testdata/conversation/fail-proto-pg17.pcapng"} {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, 7)
	}
	f.Fuzz(func(t *testing.T, b []byte, split int) {
		c := &Cutter{MaxBytes: 512, MaxItems: 3}
		k := min(max(split, 0), len(b))
		c.Write(b[:k])
		final := append([]Part(nil), c.SoFar().Parts[:c.Final()]...)
		c.Write(b[k:])
		ps, err := c.Close()
		if err != nil {
			return
		}
		if len(final) > len(ps.Parts) || !equalParts(&Parts{Parts: final}, &Parts{Parts: ps.Parts[:len(final)]}) {
			t.Fatalf("final parts %+v became %+v", final, ps.Parts)
		}
		at := ps.Head
		for i, p := range ps.Parts {
			if p.Start != at || p.End < p.Start || p.End > int64(len(b)) {
				t.Fatalf("part %d is %d to %d, after %d, of %d bytes", i+1, p.Start, p.End, at, len(b))
			}
			at = p.End
		}
	})
}

// BenchmarkCutter cuts the real captures of testdata/conversation (or the file named by
// INSPECTOR_CUT_FILE, e.g. one of scripts/bigrecv -pcap) into parts of 64 KiB, written in
// chunks of 4 MiB as the page's worker writes them; its floor copies the same bytes into the
// chunk.
func BenchmarkCutter(b *testing.B) {
	var files [][]byte
	if path := os.Getenv("INSPECTOR_CUT_FILE"); path != "" {
		f, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, f)
	} else {
		paths, _ := filepath.Glob("../testdata/conversation/*.pcapng")
		for _, p := range paths {
			f, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			files = append(files, f)
		}
	}
	size := 0
	for _, f := range files {
		size += len(f)
	}
	chunk := make([]byte, 4<<20)
	each := func(b *testing.B, write func(c *Cutter, p []byte)) {
		b.SetBytes(int64(size))
		for b.Loop() {
			for _, f := range files {
				c := &Cutter{MaxBytes: 64 << 10, MaxItems: 100_000}
				for rest := f; len(rest) > 0; {
					n := copy(chunk, rest)
					write(c, chunk[:n])
					rest = rest[n:]
				}
				c.Close()
			}
		}
	}
	b.Run("cutter", func(b *testing.B) { each(b, func(c *Cutter, p []byte) { c.Write(p) }) })
	b.Run("x-floor-copy", func(b *testing.B) { each(b, func(*Cutter, []byte) {}) })
}
