// Package wasmbin reads WebAssembly's binary encodings (LEB128 integers, vectors, limits) for
// the build's tools that look inside main.wasm: scripts/wasmpack and scripts/wasmsize.
package wasmbin

import (
	"encoding/binary"
	"fmt"
)

// Reader reads B from Off; after the first error (Err) every read returns zero.
type Reader struct {
	B   []byte
	Off int
	Err error
}

// More reports whether bytes are left and no error has occurred.
func (r *Reader) More() bool { return r.Err == nil && r.Off < len(r.B) }

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if r.Err != nil || r.Off >= len(r.B) {
		r.Fail()
		return 0
	}
	r.Off++
	return r.B[r.Off-1]
}

// Bytes reads n bytes, sharing B's memory.
func (r *Reader) Bytes(n int) []byte {
	if r.Err != nil || n < 0 || n > len(r.B)-r.Off {
		r.Fail()
		return nil
	}
	r.Off += n
	return r.B[r.Off-n : r.Off]
}

// Uleb reads an unsigned LEB128 integer.
func (r *Reader) Uleb() uint64 {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		c := r.Byte()
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	r.Fail()
	return 0
}

// Sleb reads a signed LEB128 integer.
func (r *Reader) Sleb() int64 {
	var v int64
	for shift := 0; shift < 64; shift += 7 {
		c := r.Byte()
		v |= int64(c&0x7f) << shift
		if c < 0x80 {
			if shift+7 < 64 && c&0x40 != 0 {
				v |= -1 << (shift + 7)
			}
			return v
		}
	}
	r.Fail()
	return 0
}

// Name reads a name: its length, then its bytes.
func (r *Reader) Name() string { return string(r.Bytes(int(r.Uleb()))) }

// Limits skips a table's or memory's limits: flags, minimum and, when flags say so, maximum.
func (r *Reader) Limits() {
	hasMax := r.Byte()&1 != 0
	r.Uleb()
	if hasMax {
		r.Uleb()
	}
}

// Fail records that the bytes ended or were malformed at the current offset, unless an
// error is already recorded.
func (r *Reader) Fail() {
	if r.Err == nil {
		r.Err = fmt.Errorf("truncated or malformed at byte %d", r.Off)
	}
}

// AppendSleb appends v in the signed LEB128 encoding.
func AppendSleb(dst []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(dst, c)
		}
		dst = append(dst, c|0x80)
	}
}

// pcHeaderMagic starts the Go runtime's pcHeader (Go 1.20 and later), which moduledata points to.
const pcHeaderMagic = 0xfffffff1

// PCHeader returns the offset in mem, a Go module's linear memory, of the runtime's pcHeader
// (magic, 0, 0, minLC, ptrSize 8), or -1.
func PCHeader(mem []byte) int {
	for a := 0; a+8 <= len(mem); a += 8 {
		if binary.LittleEndian.Uint32(mem[a:]) == pcHeaderMagic && mem[a+4] == 0 && mem[a+5] == 0 && mem[a+7] == 8 {
			return a
		}
	}
	return -1
}
