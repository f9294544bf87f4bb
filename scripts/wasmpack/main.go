// Command wasmpack rewrites the data section of a main.wasm built by the Go linker so that it
// compresses better: the linker starts a new data segment after every run of 8 or more zero
// bytes, and each segment costs a header of about 7 bytes whose memory address brotli cannot
// predict. wasmpack joins two neighbouring segments when fewer than MaxGap zero bytes lie between
// them, writing those zeros out. The memory the module starts with is the same byte for byte,
// and no other section changes. ./build.sh wasm runs it on every build (docs/performance.md,
// "WASM size").
//
// The runtime's PC lookup table (findfunctab) is left as the linker wrote it: it is 20 bytes
// for every 4 KiB of PC space, of which only the 2-byte bucket index is not zero, and writing
// its zeros out would add 0.4 MB to the file for about 37 KB of brotli.
//
// Usage:
//
//	go run ./scripts/wasmpack FILE.wasm   # rewrites FILE.wasm in place and prints the sizes
package main

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
)

// MaxGap is the longest run of zero bytes written out between two data segments: beyond about
// 64 bytes, joining segments gains almost nothing more with brotli and the zeros cost raw bytes
// (measured on the page: docs/performance.md, "WASM size").
const MaxGap = 64

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: wasmpack FILE.wasm")
		os.Exit(2)
	}
	path := os.Args[1]
	if err := packFile(path); err != nil {
		fmt.Fprintf(os.Stderr, "wasmpack: %s: %v\n", path, err)
		os.Exit(1)
	}
}

func packFile(path string) error {
	in, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, st, err := Pack(in, MaxGap)
	if err != nil {
		return err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, out, fi.Mode().Perm()); err != nil {
		return err
	}
	fmt.Printf("%s: %s data segments joined into %s (runs of up to %d zero bytes written out): %s bytes raw, was %s\n",
		path, commas(st.Before), commas(st.After), MaxGap, commas(len(out)), commas(len(in)))
	return nil
}

// Stats says what Pack did: the number of data segments before and after.
type Stats struct {
	Before, After int
}

// section ids of the WebAssembly binary format.
const (
	sectionData      = 11
	sectionDataCount = 12
)

// Pack returns the module wasm with its active data segments joined where at most maxGap zero
// bytes separate them, outside the runtime's findfunctab. It fails, leaving nothing half done,
// on a module it does not understand: a data segment other than an active one of memory 0 with
// an i32.const address, overlapping segments, or no Go runtime tables.
func Pack(wasm []byte, maxGap int) ([]byte, Stats, error) {
	var st Stats
	if len(wasm) < 8 || !bytes.Equal(wasm[:8], []byte("\x00asm\x01\x00\x00\x00")) {
		return nil, st, errors.New("not a WebAssembly module (version 1)")
	}
	type section struct {
		id   byte
		body []byte
	}
	var sections []section
	dataAt := -1
	for r := (reader{b: wasm, off: 8}); r.more(); {
		id := r.byte()
		body := r.bytes(int(r.uleb()))
		if r.err != nil {
			return nil, st, fmt.Errorf("section %d: %w", id, r.err)
		}
		if id == sectionData {
			dataAt = len(sections)
		}
		sections = append(sections, section{id, body})
	}
	if dataAt < 0 {
		return nil, st, errors.New("no data section")
	}
	segs, err := readSegments(sections[dataAt].body)
	if err != nil {
		return nil, st, err
	}
	st.Before = len(segs)
	lo, hi, err := findfunctab(segs)
	if err != nil {
		return nil, st, err
	}
	joined, err := join(segs, lo, hi, maxGap)
	if err != nil {
		return nil, st, err
	}
	st.After = len(joined)

	data := binary.AppendUvarint(nil, uint64(len(joined)))
	for _, s := range joined {
		data = append(data, 0, 0x41) // active, memory 0; i32.const
		data = appendSleb(data, int64(s.offset))
		data = append(data, 0x0b) // end
		data = binary.AppendUvarint(data, uint64(len(s.data)))
		data = append(data, s.data...)
	}
	sections[dataAt].body = data
	out := append([]byte(nil), wasm[:8]...)
	for _, s := range sections {
		if s.id == sectionDataCount {
			s.body = binary.AppendUvarint(nil, uint64(len(joined)))
		}
		out = append(out, s.id)
		out = binary.AppendUvarint(out, uint64(len(s.body)))
		out = append(out, s.body...)
	}
	return out, st, nil
}

// join joins each segment to the one before it when at most maxGap zero bytes lie between them
// and those bytes are not inside [lo, hi).
func join(segs []segment, lo, hi, maxGap int) ([]segment, error) {
	var joined []segment
	for _, s := range segs {
		if n := len(joined); n > 0 {
			last := &joined[n-1]
			end := last.offset + len(last.data)
			gap := s.offset - end
			if gap < 0 {
				return nil, fmt.Errorf("data segments at %#x and %#x overlap", last.offset, s.offset)
			}
			if gap <= maxGap && (s.offset <= lo || end >= hi) {
				last.data = append(append(last.data, make([]byte, gap)...), s.data...)
				continue
			}
		}
		joined = append(joined, segment{s.offset, append([]byte(nil), s.data...)})
	}
	return joined, nil
}

// segment is an active data segment: the address it initialises and its bytes.
type segment struct {
	offset int
	data   []byte
}

// readSegments reads a data section's segments and returns them in address order.
func readSegments(body []byte) ([]segment, error) {
	r := reader{b: body}
	n := int(r.uleb())
	segs := make([]segment, 0, min(n, len(body)))
	for i := range n {
		if flags := r.uleb(); flags != 0 {
			return nil, fmt.Errorf("data segment %d: flags %d, want 0 (active, memory 0)", i, flags)
		}
		if op := r.byte(); op != 0x41 {
			return nil, fmt.Errorf("data segment %d: address opcode %#x, want i32.const", i, op)
		}
		offset := r.sleb()
		if op := r.byte(); op != 0x0b {
			return nil, fmt.Errorf("data segment %d: opcode %#x after the address, want end", i, op)
		}
		data := r.bytes(int(r.uleb()))
		if r.err != nil {
			return nil, fmt.Errorf("data segment %d: %w", i, r.err)
		}
		segs = append(segs, segment{int(offset), data})
	}
	if r.more() {
		return nil, fmt.Errorf("%d bytes after the data segments", len(body)-r.off)
	}
	// The linker writes them section by section, not in address order; the order of active
	// segments that do not overlap does not matter.
	slices.SortStableFunc(segs, func(a, b segment) int { return cmp.Compare(a.offset, b.offset) })
	return segs, nil
}

// pcHeaderMagic starts the runtime's pcHeader (Go 1.20 and later), which moduledata points to.
const pcHeaderMagic = 0xfffffff1

// findfunctab returns the addresses where the runtime's findfunctab starts and ends, read from
// the runtime's moduledata (runtime/symtab.go) in the memory the segments initialise:
// moduledata starts with a pointer to the pcHeader and six slices, then findfunctab, minpc,
// maxpc, … and epclntab, where the linker puts the end of the pclntab section that findfunctab
// closes (the layout scripts/wasmsize reads too).
func findfunctab(segs []segment) (lo, hi int, err error) {
	mem := memory(segs)
	le := binary.LittleEndian
	word := func(a int) int {
		if a < 0 || a+8 > len(mem) {
			return -1
		}
		return int(le.Uint64(mem[a:]))
	}
	hdr := -1
	for a := 0; a+8 <= len(mem); a += 8 {
		if le.Uint32(mem[a:]) == pcHeaderMagic && mem[a+4] == 0 && mem[a+5] == 0 && mem[a+7] == 8 {
			hdr = a
			break
		}
	}
	if hdr < 0 {
		return 0, 0, errors.New("no runtime pcHeader in the data (not built by Go 1.20 or later?)")
	}
	for md := 0; md+8 <= len(mem); md += 8 {
		if word(md) != hdr || word(md+8) != hdr+word(hdr+32) {
			continue
		}
		fields := md + 8 + 24*6
		lo, hi = word(fields), word(fields+8*22)
		if lo <= hdr || hi <= lo || hi > md {
			return 0, 0, fmt.Errorf("moduledata at %#x: findfunctab %#x to %#x: not the layout this program knows (Go version?)", md, lo, hi)
		}
		return lo, hi, nil
	}
	return 0, 0, errors.New("no runtime moduledata pointing to the pcHeader")
}

// memory returns the memory the segments initialise, up to the last byte they write.
func memory(segs []segment) []byte {
	var mem []byte
	for _, s := range segs {
		if end := s.offset + len(s.data); end > len(mem) {
			mem = append(mem, make([]byte, end-len(mem))...)
		}
		copy(mem[s.offset:], s.data)
	}
	return mem
}

// reader reads the binary format; after the first error every read returns zero.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) more() bool { return r.err == nil && r.off < len(r.b) }

func (r *reader) byte() byte {
	if r.err != nil || r.off >= len(r.b) {
		r.fail()
		return 0
	}
	r.off++
	return r.b[r.off-1]
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b)-r.off {
		r.fail()
		return nil
	}
	r.off += n
	return r.b[r.off-n : r.off]
}

func (r *reader) uleb() uint64 {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		c := r.byte()
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	r.fail()
	return 0
}

func (r *reader) sleb() int64 {
	var v int64
	for shift := 0; shift < 64; shift += 7 {
		c := r.byte()
		v |= int64(c&0x7f) << shift
		if c < 0x80 {
			if shift+7 < 64 && c&0x40 != 0 {
				v |= -1 << (shift + 7)
			}
			return v
		}
	}
	r.fail()
	return 0
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = fmt.Errorf("truncated or malformed at byte %d", r.off)
	}
}

// appendSleb appends v in the signed LEB128 encoding.
func appendSleb(dst []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(dst, c)
		}
		dst = append(dst, c|0x80)
	}
}

// commas writes n with thousands separators, as docs/performance.md gives sizes.
func commas(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
