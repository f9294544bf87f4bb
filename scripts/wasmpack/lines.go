package main

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// The runtime's PC-value tables. Every function's _func (runtime/runtime2.go) holds the
// offsets in moduledata.pctab of its tables: pcsp and pcdata, which the garbage collector and
// stack growth read, pcfile and pcln, which only tracebacks read (runtime.funcline1: a panic's
// stack trace, runtime.Caller, runtime.CallersFrames, Func.FileLine). shareLines points every
// function's pcln at one table that gives line 0 for every PC the function's own table covered,
// sets every pcfile offset to 0 (no table: funcline1 then gives file "?" and line 0), and
// compacts pctab: the tables still used (every pcsp and pcdata table, and the shared line
// table) are moved together to its start, in the linker's order, tables that share bytes (the
// linker gives tables with the same bytes one offset, whatever their kind) still sharing them,
// and every _func offset is rewritten to their new places (offset 0, no table, stays 0). The
// rest of pctab, where the old pcln and pcfile tables were, is left to the zeroed memory the
// module starts with: no data segment writes it. moduledata.pctab keeps its length; the runtime
// reads pctab only at the offsets the _func records hold. With no pcfile table left, the file
// names (filetab) and the compilation units' file indexes (cutab), which only funcfile reads
// at a pcfile table's values, are left to the zeroed memory too. A trace still names each
// function (and its package); its place reads "?:0" (docs/performance.md, "Size tricks").
//
// It reads the layout of Go 1.26 (layoutGo) and checks it on every function; on anything else
// it changes nothing and says why.

// layoutGo is the Go release whose moduledata, pcHeader and _func layout shareLines reads
// (runtime/symtab.go and runtime/runtime2.go of go1.26); a module whose data does not name it
// (runtime.buildVersion) is left as it is.
const layoutGo = "go1.26"

// Offsets in the runtime's structures (64-bit pointers, as on GOARCH=wasm).
const (
	hdrMinLC     = 6  // pcHeader.minLC: the PC quantum
	hdrNfunc     = 8  // pcHeader.nfunc
	hdrPctab     = 56 // pcHeader.pctabOffset
	hdrPclntable = 64 // pcHeader.pclnOffset

	mdCutab     = 8 + 24*1 // moduledata.cutab (after pcHeader, funcnametab)
	mdFiletab   = 8 + 24*2 // moduledata.filetab
	mdPctab     = 8 + 24*3 // moduledata.pctab (after pcHeader, funcnametab, cutab, filetab)
	mdPclntable = 8 + 24*4 // moduledata.pclntable
	mdFtab      = 8 + 24*5 // moduledata.ftab

	funcEntryOff  = 0  // _func.entryOff
	funcPcsp      = 16 // _func.pcsp
	funcPcfile    = 20 // _func.pcfile
	funcPcln      = 24 // _func.pcln
	funcNpcdata   = 28 // _func.npcdata
	funcNfuncdata = 43 // _func.nfuncdata, its last byte
	funcSize      = 44 // then npcdata uint32 pctab offsets, then nfuncdata uint32 offsets

	maxPcdata = 16 // more pcdata tables than any Go release writes (4 in go1.26)
)

// lineStats says what shareLines did.
type lineStats struct {
	Funcs int // functions whose pcln now points at the shared table
	Kept  int // bytes of pctab still used, moved to its start (the shared table included)
	Freed int // bytes of pctab after them, which no data segment writes any more
	Files int // bytes of cutab and filetab, which no data segment writes any more
}

// shareLines returns the segments with every function's pcln table replaced and pctab
// compacted as the comment above says, or, with an error saying why, the segments unchanged.
func shareLines(segs []segment) ([]segment, lineStats, error) {
	var st lineStats
	mem := memory(segs)
	l, err := readLineLayout(mem)
	if err != nil {
		return segs, st, err
	}
	old := mem[l.pctab : l.pctab+l.npctab]
	// The new pctab: the byte 0 that keeps offset 0 free, the shared table, then every run of
	// bytes that pcsp and pcdata tables use, in the linker's order.
	tab := append([]byte{0}, l.shared...)
	moved := make([]int, len(l.kept)) // where each run starts in tab
	for i, r := range l.kept {
		moved[i] = len(tab)
		tab = append(tab, old[r.lo:r.hi]...)
	}
	if len(tab) >= len(old) {
		return segs, st, fmt.Errorf("pctab: the tables kept take %d bytes of its %d", len(tab), len(old))
	}
	newOff := func(off int) int {
		if off == 0 {
			return 0
		}
		// The run holding off: the first whose end lies past it.
		i, _ := slices.BinarySearchFunc(l.kept, off+1, func(r tableRun, a int) int { return cmp.Compare(r.hi, a) })
		return moved[i] + off - l.kept[i].lo
	}
	out := bytes.Clone(mem)
	copy(out[l.pctab:], tab)
	clear(out[l.pctab+len(tab) : l.pctab+l.npctab])
	le := binary.LittleEndian
	for _, f := range l.funcs {
		for _, o := range tableOffsets(mem, f) {
			le.PutUint32(out[o:], uint32(newOff(int(le.Uint32(mem[o:])))))
		}
		if le.Uint32(mem[f+funcPcln:]) != 0 {
			le.PutUint32(out[f+funcPcln:], sharedAt)
			st.Funcs++
		}
		le.PutUint32(out[f+funcPcfile:], 0)
	}
	st.Kept, st.Freed = len(tab), l.npctab-len(tab)
	free := [][2]int{{l.pctab + len(tab), l.pctab + l.npctab}}
	for _, r := range l.files {
		clear(out[r[0]:r[1]])
		free = append(free, r)
		st.Files += r[1] - r[0]
	}
	return resegment(segs, mem, out, free), st, nil
}

// sharedAt is the offset in the compacted pctab of the table every pcln points to: just after
// the byte 0 that keeps offset 0 free.
const sharedAt = 1

// tableOffsets returns the addresses of the pctab offsets in the _func at f of the tables the
// runtime reads for more than tracebacks: pcsp's and each pcdata table's.
func tableOffsets(mem []byte, f int) []int {
	offs := []int{f + funcPcsp}
	for k := range int(binary.LittleEndian.Uint32(mem[f+funcNpcdata:])) {
		offs = append(offs, f+funcSize+4*k)
	}
	return offs
}

// tableRun is a run of pctab's bytes, offsets lo to hi (not included), that pcsp and pcdata
// tables use.
type tableRun struct{ lo, hi int }

// lineLayout is where readLineLayout found the tables.
type lineLayout struct {
	pctab, npctab int        // address and length of moduledata.pctab
	files         [][2]int   // cutab and filetab, from and to
	funcs         []int      // addresses of the _func of every function
	kept          []tableRun // the runs of bytes the pcsp and pcdata tables use, in order
	shared        []byte     // the table every pcln will point to
}

// readLineLayout reads moduledata, pcHeader, ftab and every function's _func and tables in
// mem, and fails on anything that is not as Go 1.26 writes it for GOARCH=wasm.
func readLineLayout(mem []byte) (*lineLayout, error) {
	if !bytes.Contains(mem, []byte(layoutGo+".")) && !bytes.Contains(mem, []byte(layoutGo+"\x00")) {
		return nil, fmt.Errorf("the data does not name %s (runtime.buildVersion): the runtime's tables are read only as %s writes them", layoutGo, layoutGo)
	}
	hdr, md, err := moduledata(mem)
	if err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	word := func(a int) int {
		if a < 0 || a+8 > len(mem) || le.Uint64(mem[a:]) > 1<<40 {
			return -1
		}
		return int(le.Uint64(mem[a:]))
	}
	u32 := func(a int) int { return int(le.Uint32(mem[a:])) }
	if q := mem[hdr+hdrMinLC]; q != 1 {
		return nil, fmt.Errorf("pcHeader: PC quantum %d, want 1 (GOARCH=wasm)", q)
	}
	nfunc := word(hdr + hdrNfunc)
	pctab, npctab := word(md+mdPctab), word(md+mdPctab+8)
	pcln, npcln := word(md+mdPclntable), word(md+mdPclntable+8)
	ftab, nftab := word(md+mdFtab), word(md+mdFtab+8)
	switch {
	case pctab < 0 || npctab < 0 || pctab != hdr+word(hdr+hdrPctab) || pctab+npctab > len(mem):
		return nil, fmt.Errorf("moduledata at %#x: pctab %#x (%d bytes) is not where pcHeader says or not in the data", md, pctab, npctab)
	case pcln < 0 || npcln < 0 || pcln != hdr+word(hdr+hdrPclntable) || pcln+npcln > len(mem):
		return nil, fmt.Errorf("moduledata at %#x: pclntable %#x (%d bytes) is not where pcHeader says or not in the data", md, pcln, npcln)
	case nfunc <= 0 || nftab != nfunc+1 || ftab < pcln || ftab+8*nftab > pcln+npcln:
		return nil, fmt.Errorf("moduledata at %#x: ftab %#x has %d entries for %d functions, or lies outside pclntable", md, ftab, nftab, nfunc)
	case npctab < 2 || mem[pctab] != 0:
		return nil, fmt.Errorf("pctab at %#x does not start with the byte 0 that keeps offset 0 free", pctab)
	}

	l := &lineLayout{pctab: pctab, npctab: npctab}
	for _, f := range [...]struct{ at, elem int }{{mdCutab, 4}, {mdFiletab, 1}} {
		a, n := word(md+f.at), word(md+f.at+8)*f.elem
		if a < 0 || n < 0 || a+n > len(mem) || a < pcln+npcln && a+n > pctab {
			return nil, fmt.Errorf("moduledata at %#x: the slice at +%d (%#x, %d bytes) is not in the data or overlaps pctab or pclntable", md, f.at, a, n)
		}
		l.files = append(l.files, [2]int{a, a + n})
	}
	used := make([]bool, npctab) // bytes of a pcsp or pcdata table
	span := 0                    // the most PCs a function's pcln table covers
	prevEntry := -1
	for i := range nfunc {
		entry, funcoff := u32(ftab+8*i), u32(ftab+8*i+4)
		f := pcln + funcoff
		if entry <= prevEntry || funcoff < 8*nftab || f+funcSize > pcln+npcln || u32(f+funcEntryOff) != entry {
			return nil, fmt.Errorf("function %d (ftab entry %#x): its _func at pclntable+%#x is not the layout of %s", i, entry, funcoff, layoutGo)
		}
		prevEntry = entry
		npcdata, nfuncdata := u32(f+funcNpcdata), int(mem[f+funcNfuncdata])
		if npcdata > maxPcdata || f+funcSize+4*(npcdata+nfuncdata) > pcln+npcln {
			return nil, fmt.Errorf("function %d (ftab entry %#x): %d pcdata and %d funcdata offsets: not the layout of %s", i, entry, npcdata, nfuncdata, layoutGo)
		}
		l.funcs = append(l.funcs, f)
		for _, o := range tableOffsets(mem, f) {
			off := u32(o)
			if off == 0 {
				continue
			}
			end, _, err := pcTable(mem[pctab:pctab+npctab], off)
			if err != nil {
				return nil, fmt.Errorf("function %d (ftab entry %#x): %w", i, entry, err)
			}
			for a := off; a < end; a++ {
				used[a] = true
			}
		}
		off := u32(f + funcPcln)
		if off == 0 {
			continue // no line table: the runtime gives file "?", line 0, as before
		}
		_, pcs, err := pcTable(mem[pctab:pctab+npctab], off)
		if err != nil {
			return nil, fmt.Errorf("function %d (ftab entry %#x): pcln: %w", i, entry, err)
		}
		span = max(span, pcs)
	}
	if span == 0 {
		return nil, errors.New("no function has a pcln table")
	}
	for a := 0; a < npctab; a++ {
		if !used[a] {
			continue
		}
		b := a
		for b < npctab && used[b] {
			b++
		}
		l.kept = append(l.kept, tableRun{a, b})
		a = b
	}
	// Line 0 from the function's entry for span PCs: the value starts at -1, so its delta is +1
	// (zig-zag 2), then the PC delta, then the 0 that ends the table.
	l.shared = binary.AppendUvarint([]byte{2}, uint64(span))
	l.shared = append(l.shared, 0)
	return l, nil
}

// pcTable decodes the table at offset off of pctab as runtime.pcvalue does (runtime.step: pairs
// of a zig-zag value delta and a PC delta, uvarints of at most 32 bits; a value delta of 0 after
// the first pair ends the table) and returns the offset just past it and the PCs it covers.
func pcTable(pctab []byte, off int) (end, pcs int, err error) {
	if off < 0 || off >= len(pctab) {
		return 0, 0, fmt.Errorf("table at pctab+%#x: outside pctab (%d bytes)", off, len(pctab))
	}
	p := off
	uvarint := func() (uint64, bool) {
		v, n := binary.Uvarint(pctab[p:])
		if n <= 0 || n > 5 || v > 1<<32-1 {
			return 0, false
		}
		p += n
		return v, true
	}
	for first := true; ; first = false {
		if p >= len(pctab) {
			return 0, 0, fmt.Errorf("table at pctab+%#x: runs past pctab's end", off)
		}
		if pctab[p] == 0 && !first {
			return p + 1, pcs, nil
		}
		_, ok1 := uvarint()
		d, ok2 := uvarint()
		if !ok1 || !ok2 || d == 0 {
			return 0, 0, fmt.Errorf("table at pctab+%#x: malformed at pctab+%#x", off, p)
		}
		pcs += int(d)
		if pcs > 1<<32-1 {
			return 0, 0, fmt.Errorf("table at pctab+%#x: covers more than 2^32 PCs", off)
		}
	}
}

// resegment returns segs with their bytes taken from mem, which differs from what segs write
// (was) where shareLines changed it, less the free ranges (from, to not included), which are
// zero in mem, and with a segment for each run of changed non-zero bytes that no segment holds.
func resegment(segs []segment, was, mem []byte, free [][2]int) []segment {
	out := make([]segment, 0, len(segs)+1)
	covered := make([]bool, len(mem))
	keep := func(lo, hi int) {
		if lo < hi {
			out = append(out, segment{lo, mem[lo:hi]})
			for a := lo; a < hi; a++ {
				covered[a] = true
			}
		}
	}
	slices.SortFunc(free, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	for _, s := range segs {
		lo, end := s.offset, s.offset+len(s.data)
		for _, f := range free {
			keep(lo, min(end, f[0]))
			lo = max(lo, f[1])
		}
		keep(lo, end)
	}
	for a := 0; a < len(mem); {
		if covered[a] || mem[a] == was[a] || mem[a] == 0 {
			a++
			continue
		}
		b := a
		for b < len(mem) && !covered[b] && mem[b] != was[b] && mem[b] != 0 {
			b++
		}
		out = append(out, segment{a, mem[a:b]})
		a = b
	}
	return sortSegments(out)
}
