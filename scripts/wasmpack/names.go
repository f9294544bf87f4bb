package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
)

// The runtime's function names (moduledata.funcnametab): the names a trace, runtime.FuncForPC
// and runtime.CallersFrames give, NUL-terminated, each found at an offset that the function's
// _func record (nameOff) and the inlining trees' entries (inlinedCall.nameOff) hold.
// shortNames drops the module paths that most of the page's names start with
// (namePrefixes: "pgoutput-inspector/decoder.(*cursor).String" becomes
// "decoder.(*cursor).String"), writes the names again one after another at the start of
// funcnametab, in the order of their old offsets, rewrites every offset, and leaves the rest of
// funcnametab to the zeroed memory. It reads the layout of Go 1.26, as shareLines does, and
// changes nothing on anything else. Only names change: no name is the same as another after
// the cut (checked), and the runtime compares names only with "runtime." prefixes, which stay.

// namePrefixes are the module paths cut from the names, wherever they occur in one (a
// closure's, an instantiation's type arguments).
var namePrefixes = [][]byte{[]byte("pgoutput-inspector/"), []byte("github.com/hexops/")}

// Offsets in the runtime's structures for the names (64-bit pointers, as on GOARCH=wasm).
const (
	mdFuncnametab = 8   // moduledata.funcnametab
	mdGofunc      = 320 // moduledata.gofunc: after 7 slices and 21 addresses
	funcNameOff   = 4   // _func.nameOff
	funcdataInl   = 3   // FUNCDATA_InlTree: the inlining tree's funcdata index
	pcdataInl     = 2   // PCDATA_InlTreeIndex: the pcdata table that indexes it
	inlSize       = 16  // an inlinedCall: funcID, 3 bytes, nameOff, parentPc, startLine
	inlNameOff    = 4   // inlinedCall.nameOff
)

// nameStats says what shortNames did.
type nameStats struct {
	Names int // names written
	Freed int // bytes of funcnametab after them, which no data segment writes any more
}

// shortNames returns the segments with the function names cut and compacted as the comment
// above says, or, with an error saying why, the segments unchanged.
func shortNames(segs []segment) ([]segment, nameStats, error) {
	var st nameStats
	mem := memory(segs)
	l, err := readLineLayout(mem)
	if err != nil {
		return segs, st, err
	}
	_, md, err := moduledata(mem)
	if err != nil {
		return segs, st, err
	}
	tab, ntab := word(mem, md+mdFuncnametab), word(mem, md+mdFuncnametab+8)
	gofunc := word(mem, md+mdGofunc)
	if tab < 0 || ntab <= 0 || tab+ntab > len(mem) || gofunc < 0 || gofunc > len(mem) {
		return segs, st, fmt.Errorf("moduledata at %#x: funcnametab %#x (%d bytes) or gofunc %#x not in the data", md, tab, ntab, gofunc)
	}
	le := binary.LittleEndian
	refs, err := nameRefs(mem, l, gofunc, ntab)
	if err != nil {
		return segs, st, err
	}
	// The new table: each name cut, in the order of the old offsets.
	offs := make([]int, 0, len(refs))
	for _, r := range refs {
		offs = append(offs, int(int32(le.Uint32(mem[r:]))))
	}
	slices.Sort(offs)
	offs = slices.Compact(offs)
	names := mem[tab : tab+ntab]
	moved := make(map[int]uint32, len(offs))
	seen := make(map[string]int, len(offs))
	var out []byte
	for _, off := range offs {
		end := bytes.IndexByte(names[off:], 0)
		if end < 0 {
			return segs, st, fmt.Errorf("funcnametab+%#x: a name without its NUL", off)
		}
		name := names[off : off+end]
		short := name
		for _, p := range namePrefixes {
			short = bytes.ReplaceAll(short, p, nil)
		}
		if other, ok := seen[string(short)]; ok && other != off {
			return segs, st, fmt.Errorf("the names at funcnametab+%#x and +%#x are both %q once cut", other, off, short)
		}
		seen[string(short)] = off
		moved[off] = uint32(len(out))
		out = append(append(out, short...), 0)
	}
	if len(out) >= ntab {
		return segs, st, fmt.Errorf("funcnametab: the names cut take %d bytes of its %d", len(out), ntab)
	}
	fresh := bytes.Clone(mem)
	copy(fresh[tab:], out)
	clear(fresh[tab+len(out) : tab+ntab])
	for _, r := range refs {
		le.PutUint32(fresh[r:], moved[int(int32(le.Uint32(mem[r:])))])
	}
	st.Names, st.Freed = len(offs), ntab-len(out)
	return resegment(segs, mem, fresh, [][2]int{{tab + len(out), tab + ntab}}), st, nil
}

// nameRefs returns the addresses of every name offset in mem: each function's nameOff and each
// entry's of its inlining tree (as many entries as its PCDATA_InlTreeIndex table's highest
// value and one), each checked to lie inside a funcnametab of ntab bytes.
func nameRefs(mem []byte, l *lineLayout, gofunc, ntab int) ([]int, error) {
	le := binary.LittleEndian
	var refs []int
	check := func(a int, what string) error {
		if a < 0 || a+4 > len(mem) {
			return fmt.Errorf("%s at %#x: outside the data", what, a)
		}
		if off := int(int32(le.Uint32(mem[a:]))); off < 0 || off >= ntab {
			return fmt.Errorf("%s at %#x: name offset %d outside funcnametab (%d bytes)", what, a, off, ntab)
		}
		refs = append(refs, a)
		return nil
	}
	pctab := mem[l.pctab : l.pctab+l.npctab]
	for _, f := range l.funcs {
		if err := check(f+funcNameOff, "_func.nameOff"); err != nil {
			return nil, err
		}
		npcdata, nfuncdata := int(le.Uint32(mem[f+funcNpcdata:])), int(mem[f+funcNfuncdata])
		if nfuncdata <= funcdataInl || npcdata <= pcdataInl {
			continue
		}
		off := le.Uint32(mem[f+funcSize+4*npcdata+4*funcdataInl:])
		idx := int(le.Uint32(mem[f+funcSize+4*pcdataInl:]))
		if off == ^uint32(0) || idx == 0 {
			continue
		}
		pairs, err := pcPairs(pctab, idx)
		if err != nil {
			return nil, fmt.Errorf("_func at %#x: PCDATA_InlTreeIndex: %w", f, err)
		}
		n := 0
		for _, p := range pairs {
			n = max(n, int(p[0])+1)
		}
		tree := gofunc + int(off)
		for k := range n {
			if err := check(tree+k*inlSize+inlNameOff, "inlinedCall.nameOff"); err != nil {
				return nil, err
			}
		}
	}
	return refs, nil
}

// pcPairs decodes the table at offset off of pctab as runtime.step does and returns its pairs
// of a value and the PC (counted from the function's entry) up to which it holds.
func pcPairs(pctab []byte, off int) ([][2]int64, error) {
	if _, _, err := pcTable(pctab, off); err != nil {
		return nil, err
	}
	var pairs [][2]int64
	val, pc := int64(-1), int64(0)
	for p, first := off, true; first || pctab[p] != 0; first = false {
		uv, n := binary.Uvarint(pctab[p:])
		p += n
		u := uint32(uv)
		if u&1 != 0 {
			u = ^(u >> 1)
		} else {
			u >>= 1
		}
		val += int64(int32(u))
		d, n := binary.Uvarint(pctab[p:])
		p += n
		pc += int64(d)
		pairs = append(pairs, [2]int64{val, pc})
	}
	return pairs, nil
}
