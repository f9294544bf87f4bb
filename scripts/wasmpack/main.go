// Command wasmpack rewrites the data of a main.wasm built by the Go linker so that it is smaller
// and compresses better; the memory the module starts with is the same byte for byte but for
// the runtime's PC-value tables (pctab) and the offsets of them in its _func records.
//
//   - The runtime's PC lookup table (findfunctab) has 20 bytes for every 4 KiB of PC space; on
//     WebAssembly every function spans 64 KiB, so bucket k holds the index k/16 and 16 zero
//     bytes, and the linker writes it as one data segment for every bucket's non-zero bytes
//     (about 9 % of main.wasm). wasmpack checks that the table is exactly that and replaces
//     those segments by a start function of a few instructions that writes it (the engine runs
//     it once the data segments are in memory, before Go's run); a table it does not recognise
//     is left as it is.
//   - The runtime's PC-to-line and PC-to-file tables (each function's pcln and pcfile, about
//     10 % of main.wasm with brotli) serve only tracebacks. wasmpack points every function's
//     pcln at one shared table that gives line 0, sets every pcfile offset to 0 (no table),
//     and moves the tables still used (pcsp, pcdata) together to the start of pctab,
//     rewriting every function's offsets; the end of pctab that the old tables held is left
//     to the zeroed memory, written by no data segment (lines.go), and so are the file names
//     (filetab) and the compilation units' file indexes (cutab), which the runtime reads only
//     at a pcfile table's values (runtime.funcline1, funcfile): a panic's trace and
//     runtime.CallersFrames still name each function, at "?:0". It checks the runtime's
//     tables on every function first and leaves them as they are, saying why, when they are
//     not the layout it knows (Go 1.26). A build without wasmpack has the lines.
//   - The linker starts a new data segment after every run of 8 or more zero bytes, and each
//     segment costs a header whose memory address brotli cannot predict. wasmpack joins two
//     neighbouring segments when at most MaxGap zero bytes lie between them, writing those
//     zeros out.
//
// ./build.sh wasm runs it on every build (docs/performance.md, "Size tricks").
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

	"pgoutput-inspector/internal/wasmbin"
)

// MaxGap is the longest run of zero bytes written out between two data segments. Joining
// segments saves their headers, which brotli cannot predict, and costs the zeros' raw bytes:
// a higher MaxGap trades raw bytes for brotli bytes (docs/performance.md, "Size tricks"). 12
// leaves room under both budgets: on 2026-12-06, 20, 16, 14, 12 and 8 gave 4,501,464,
// 4,500,469, 4,494,722, 4,488,377 and 4,486,506 B raw, and 890,104, 890,377, 891,879,
// 894,110 and 899,159 B brotli.
const MaxGap = 12

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
	how := "findfunctab left to its data segments: not the table this program knows"
	if st.Generated {
		how = "findfunctab written by a start function"
	}
	if st.LinesKept != nil {
		fmt.Fprintf(os.Stderr, "wasmpack: %s: the runtime's line tables left as they are: %v\n", path, st.LinesKept)
	} else {
		fmt.Printf("%s: the line tables of %s functions pointed at one that gives line 0; the %s bytes of tables still used moved to pctab's start, its %s bytes after them and the %s bytes of cutab and filetab no longer written\n",
			path, commas(st.Lines.Funcs), commas(st.Lines.Kept), commas(st.Lines.Freed), commas(st.Lines.Files))
		if st.NamesKept != nil {
			fmt.Fprintf(os.Stderr, "wasmpack: %s: the function names left as they are: %v\n", path, st.NamesKept)
		} else {
			fmt.Printf("%s: %s function names cut of their module paths, %s bytes of funcnametab no longer written\n",
				path, commas(st.Names.Names), commas(st.Names.Freed))
		}
	}
	fmt.Printf("%s: %s data segments joined into %s (runs of up to %d zero bytes written out; %s): %s bytes raw, was %s\n",
		path, commas(st.Before), commas(st.After), MaxGap, how, commas(len(out)), commas(len(in)))
	return nil
}

// Stats says what Pack did: the number of data segments before and after, whether a start
// function writes findfunctab, and what shareLines did to the line tables (LinesKept: why it
// left them as they were).
type Stats struct {
	Before, After int
	Generated     bool
	Lines         lineStats
	LinesKept     error
	Names         nameStats
	NamesKept     error // why shortNames left the names as they were
}

// section ids of the WebAssembly binary format.
const (
	sectionCustom    = 0
	sectionType      = 1
	sectionImport    = 2
	sectionFunction  = 3
	sectionStart     = 8
	sectionElement   = 9
	sectionCode      = 10
	sectionData      = 11
	sectionDataCount = 12
)

// Pack returns the module wasm with every function's line table shared (shareLines) and
// findfunctab written by a start function where they are what this program knows, and its other active data segments joined where at most maxGap
// zero bytes separate them. It fails, leaving nothing half done,
// on a module it does not understand: a data segment other than an active one of memory 0 with
// an i32.const address, overlapping segments, or no Go runtime tables.
func Pack(wasm []byte, maxGap int) ([]byte, Stats, error) {
	var st Stats
	if len(wasm) < 8 || !bytes.Equal(wasm[:8], []byte("\x00asm\x01\x00\x00\x00")) {
		return nil, st, errors.New("not a WebAssembly module (version 1)")
	}
	var sections []section
	at := map[byte]int{}
	for r := (wasmbin.Reader{B: wasm, Off: 8}); r.More(); {
		id := r.Byte()
		body := r.Bytes(int(r.Uleb()))
		if r.Err != nil {
			return nil, st, fmt.Errorf("section %d: %w", id, r.Err)
		}
		if id != sectionCustom {
			at[id] = len(sections)
		}
		sections = append(sections, section{id, body})
	}
	dataAt, ok := at[sectionData]
	if !ok {
		return nil, st, errors.New("no data section")
	}
	segs, err := readSegments(sections[dataAt].body)
	if err != nil {
		return nil, st, err
	}
	st.Before = len(segs)
	segs, st.Lines, st.LinesKept = shareLines(segs)
	if st.LinesKept == nil {
		segs, st.Names, st.NamesKept = shortNames(segs)
	}
	lo, hi, err := findfunctab(segs)
	if err != nil {
		return nil, st, err
	}
	if n, ok := findfunctabLoop(segs, lo, hi); ok {
		if sections, err = addStart(sections, at, findfunctabCode(lo, n)); err != nil {
			return nil, st, err
		}
		segs = slices.DeleteFunc(segs, func(s segment) bool { return s.offset >= lo && s.offset < hi })
		st.Generated = true
	}
	joined, err := join(segs, lo, hi, maxGap)
	if err != nil {
		return nil, st, err
	}
	st.After = len(joined)

	data := binary.AppendUvarint(nil, uint64(len(joined)))
	for _, s := range joined {
		data = append(data, 0, 0x41) // active, memory 0; i32.const
		data = wasmbin.AppendSleb(data, int64(s.offset))
		data = append(data, 0x0b) // end
		data = binary.AppendUvarint(data, uint64(len(s.data)))
		data = append(data, s.data...)
	}
	out := append([]byte(nil), wasm[:8]...)
	for _, s := range sections {
		switch s.id {
		case sectionData:
			s.body = data
		case sectionDataCount:
			s.body = binary.AppendUvarint(nil, uint64(len(joined)))
		}
		out = append(out, s.id)
		out = binary.AppendUvarint(out, uint64(len(s.body)))
		out = append(out, s.body...)
	}
	return out, st, nil
}

// section is one section of a module: its id and its contents.
type section struct {
	id   byte
	body []byte
}

// findfunctabLoop says whether the findfunctab the segments write in [lo, hi) is exactly what
// the loop of findfunctabCode writes: n buckets of 20 bytes, bucket k holding the uint32 k/16
// (on WebAssembly every function spans 64 KiB of PC space, 16 buckets, and the buckets' 16
// sub-bucket deltas are 0) and nothing else, with no segment reaching across lo or hi. It
// returns n, the number of buckets whose index lies wholly in [lo, hi).
func findfunctabLoop(segs []segment, lo, hi int) (n int, ok bool) {
	for _, s := range segs {
		end := s.offset + len(s.data)
		if (s.offset < lo && end > lo) || (s.offset < hi && end > hi) {
			return 0, false
		}
	}
	if hi-lo < 4 {
		return 0, false
	}
	n = (hi-lo-4)/bucketSize + 1
	want := make([]byte, hi-lo)
	for k := range n {
		binary.LittleEndian.PutUint32(want[k*bucketSize:], uint32(k/16))
	}
	mem := memory(segs)
	if len(mem) < hi || !bytes.Equal(mem[lo:hi], want) {
		return 0, false
	}
	return n, true
}

// bucketSize is the size of a findfunctab bucket (runtime.findfuncbucket: a uint32 index and 16
// one-byte deltas).
const bucketSize = 20

// findfunctabCode returns the body of a function without parameters or results that writes n
// findfunctab buckets at lo as findfunctabLoop describes them.
func findfunctabCode(lo, n int) []byte {
	b := []byte{1, 2, 0x7f}               // locals: 2 i32: the address, the bucket
	b = append(b, 0x41)                   // i32.const lo
	b = wasmbin.AppendSleb(b, int64(lo))  //
	b = append(b, 0x21, 0)                // local.set 0
	b = append(b, 0x03, 0x40)             // loop
	b = append(b, 0x20, 0, 0x20, 1)       //   local.get 0, local.get 1
	b = append(b, 0x41, 4, 0x76)          //   i32.const 4, i32.shr_u
	b = append(b, 0x36, 2, 0)             //   i32.store align=4 offset=0
	b = append(b, 0x20, 0, 0x41)          //   local.get 0, i32.const bucketSize
	b = wasmbin.AppendSleb(b, bucketSize) //
	b = append(b, 0x6a, 0x21, 0)          //   i32.add, local.set 0
	b = append(b, 0x20, 1, 0x41, 1)       //   local.get 1, i32.const 1
	b = append(b, 0x6a, 0x22, 1)          //   i32.add, local.tee 1
	b = append(b, 0x41)                   //   i32.const n
	b = wasmbin.AppendSleb(b, int64(n))   //
	b = append(b, 0x49, 0x0d, 0)          //   i32.lt_u, br_if 0 (the loop)
	b = append(b, 0x0b, 0x0b)             // end loop, end function
	return b
}

// addStart adds a function with the given body (no parameters, no results) to the module and
// makes it the module's start function, which the engine runs once the data segments are in
// memory and before any export can be called.
func addStart(sections []section, at map[byte]int, code []byte) ([]section, error) {
	if _, ok := at[sectionStart]; ok {
		return nil, errors.New("the module already has a start function")
	}
	typ, ok1 := at[sectionType]
	fn, ok2 := at[sectionFunction]
	cd, ok3 := at[sectionCode]
	if !ok1 || !ok2 || !ok3 {
		return nil, errors.New("no type, function or code section")
	}
	imported := 0
	if im, ok := at[sectionImport]; ok {
		var err error
		if imported, err = countFuncImports(sections[im].body); err != nil {
			return nil, err
		}
	}
	var err error
	sections = slices.Clone(sections)
	var types, funcs int
	if sections[typ].body, types, err = appendVector(sections[typ].body, []byte{0x60, 0, 0}); err != nil {
		return nil, fmt.Errorf("type section: %w", err)
	}
	if sections[fn].body, funcs, err = appendVector(sections[fn].body, binary.AppendUvarint(nil, uint64(types))); err != nil {
		return nil, fmt.Errorf("function section: %w", err)
	}
	if sections[cd].body, _, err = appendVector(sections[cd].body, binary.AppendUvarint(code[:0:0], uint64(len(code)))); err != nil {
		return nil, fmt.Errorf("code section: %w", err)
	}
	sections[cd].body = append(sections[cd].body, code...)
	start := section{sectionStart, binary.AppendUvarint(nil, uint64(imported+funcs))}
	// The start section comes after the export section and before the element, data count, code
	// and data sections.
	i := slices.IndexFunc(sections, func(s section) bool {
		return s.id == sectionElement || s.id == sectionDataCount || s.id == sectionCode || s.id == sectionData
	})
	return slices.Insert(sections, i, start), nil
}

// appendVector appends one entry to a section made of a vector (a count, then the entries): it
// rewrites the count and returns the new body and the entry's index.
func appendVector(body, entry []byte) ([]byte, int, error) {
	r := wasmbin.Reader{B: body}
	n := int(r.Uleb())
	if r.Err != nil {
		return nil, 0, r.Err
	}
	out := binary.AppendUvarint(nil, uint64(n+1))
	out = append(out, body[r.Off:]...)
	return append(out, entry...), n, nil
}

// countFuncImports returns how many functions the import section imports (they come first in
// the function index space).
func countFuncImports(body []byte) (int, error) {
	r := wasmbin.Reader{B: body}
	funcs := 0
	for range int(r.Uleb()) {
		r.Bytes(int(r.Uleb())) // module
		r.Bytes(int(r.Uleb())) // name
		switch kind := r.Byte(); kind {
		case 0: // function: type index
			r.Uleb()
			funcs++
		case 1: // table: reference type, limits
			r.Byte()
			r.Limits()
		case 2: // memory: limits
			r.Limits()
		case 3: // global: value type, mutability
			r.Byte()
			r.Byte()
		default:
			return 0, fmt.Errorf("import of kind %d", kind)
		}
	}
	if r.Err != nil || r.More() {
		return 0, fmt.Errorf("import section: malformed at byte %d", r.Off)
	}
	return funcs, nil
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
	r := wasmbin.Reader{B: body}
	n := int(r.Uleb())
	segs := make([]segment, 0, min(n, len(body)))
	for i := range n {
		if flags := r.Uleb(); flags != 0 {
			return nil, fmt.Errorf("data segment %d: flags %d, want 0 (active, memory 0)", i, flags)
		}
		if op := r.Byte(); op != 0x41 {
			return nil, fmt.Errorf("data segment %d: address opcode %#x, want i32.const", i, op)
		}
		offset := r.Sleb()
		if op := r.Byte(); op != 0x0b {
			return nil, fmt.Errorf("data segment %d: opcode %#x after the address, want end", i, op)
		}
		data := r.Bytes(int(r.Uleb()))
		if r.Err != nil {
			return nil, fmt.Errorf("data segment %d: %w", i, r.Err)
		}
		segs = append(segs, segment{int(offset), data})
	}
	if r.More() {
		return nil, fmt.Errorf("%d bytes after the data segments", len(body)-r.Off)
	}
	// The linker writes them section by section, not in address order; the order of active
	// segments that do not overlap does not matter.
	return sortSegments(segs), nil
}

// sortSegments sorts segs by address and returns them.
func sortSegments(segs []segment) []segment {
	slices.SortStableFunc(segs, func(a, b segment) int { return cmp.Compare(a.offset, b.offset) })
	return segs
}

// findfunctab returns the addresses where the runtime's findfunctab starts and ends, read from
// the runtime's moduledata (runtime/symtab.go) in the memory the segments initialise:
// moduledata starts with a pointer to the pcHeader and six slices, then findfunctab, minpc,
// maxpc, … and epclntab, where the linker puts the end of the pclntab section that findfunctab
// closes (the layout scripts/wasmsize reads too).
func findfunctab(segs []segment) (lo, hi int, err error) {
	mem := memory(segs)
	hdr, md, err := moduledata(mem)
	if err != nil {
		return 0, 0, err
	}
	lo, hi = word(mem, md+8+24*6), word(mem, md+8+24*6+8*22)
	if lo <= hdr || hi <= lo || hi > md {
		return 0, 0, fmt.Errorf("moduledata at %#x: findfunctab %#x to %#x: not the layout this program knows (Go version?)", md, lo, hi)
	}
	return lo, hi, nil
}

// word returns the uint64 at address a of mem, or -1 if it lies outside mem.
func word(mem []byte, a int) int {
	if a < 0 || a+8 > len(mem) {
		return -1
	}
	return int(binary.LittleEndian.Uint64(mem[a:]))
}

// moduledata returns the addresses of the runtime's pcHeader and of the moduledata that points
// to it (its first word, and funcnametab where pcHeader.funcnameOffset says) in mem.
func moduledata(mem []byte) (hdr, md int, err error) {
	hdr = wasmbin.PCHeader(mem)
	if hdr < 0 {
		return 0, 0, errors.New("no runtime pcHeader in the data (not built by Go 1.20 or later?)")
	}
	for md = 0; md+8 <= len(mem); md += 8 {
		if word(mem, md) != hdr || word(mem, md+8) != hdr+word(mem, hdr+32) {
			continue
		}
		return hdr, md, nil
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

// commas writes n with thousands separators, as docs/performance.md gives sizes.
func commas(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
