package pgvalue

import (
	"math"
	"strconv"
)

// maxArrayDims is PostgreSQL's MAXDIM; maxArrayItems is its MaxArraySize.
const (
	maxArrayDims  = 6
	maxArrayItems = 134217727
)

// arrayHeader is the fixed part of array_send's format.
type arrayHeader struct {
	ndim   int
	dims   [maxArrayDims]int
	lbound [maxArrayDims]int
	nitems int
	data   int // offset of the first element's length
}

// readArrayHeader reads and checks ndim, the has-null flag, the element type and the
// dimensions, as array_recv does.
func readArrayHeader(oid, elem uint32, b []byte) (h arrayHeader, err *ValueError) {
	if len(b) < 12 {
		return h, valueError(oid, 0, "need 12 bytes (ndim, flags, element type), have "+itoa(len(b)))
	}
	ndim := int32(be32(b))
	flags := int32(be32(b[4:]))
	elemOID := be32(b[8:])
	if ndim < 0 || ndim > maxArrayDims {
		return h, valueError(oid, 0, "invalid number of dimensions "+itoa(int(ndim))+" (want 0 to 6)")
	}
	if flags != 0 && flags != 1 {
		return h, valueError(oid, 4, "invalid array flags "+itoa(int(flags))+" (want 0 or 1)")
	}
	if elemOID != elem {
		return h, valueError(oid, 8, "element type "+strconv.FormatUint(uint64(elemOID), 10)+", want "+strconv.FormatUint(uint64(elem), 10)+" ("+TypeName(elem)+")")
	}
	h.ndim = int(ndim)
	off := 12
	if len(b) < off+8*h.ndim {
		return h, valueError(oid, off, "need "+itoa(8*h.ndim)+" bytes for "+itoa(h.ndim)+" dimensions, have "+itoa(len(b)-off))
	}
	h.nitems = 1
	if h.ndim == 0 {
		h.nitems = 0
	}
	for i := 0; i < h.ndim; i++ {
		n := int64(int32(be32(b[off:])))
		lb := int64(int32(be32(b[off+4:])))
		if n < 0 {
			return h, valueError(oid, off, "negative dimension size "+strconv.FormatInt(n, 10))
		}
		if n > 0 && lb+n-1 > math.MaxInt32 {
			return h, valueError(oid, off+4, "upper bound of dimension "+itoa(i+1)+" out of range")
		}
		h.dims[i], h.lbound[i] = int(n), int(lb)
		p := int64(h.nitems) * n
		if p > maxArrayItems {
			return h, valueError(oid, off, "array size exceeds the maximum allowed ("+itoa(maxArrayItems)+")")
		}
		h.nitems = int(p)
		off += 8
	}
	h.data = off
	// Every element has at least its Int32 length.
	if rest := len(b) - off; h.nitems > rest/4 {
		return h, valueError(oid, off, itoa(h.nitems)+" elements need at least "+itoa(4*h.nitems)+" bytes, have "+itoa(rest))
	}
	return h, nil
}

// nextElement reads the element at off: its bytes, whether it is NULL, and where the next one starts.
func nextElement(oid uint32, b []byte, off, n int) (v []byte, null bool, next int, err *ValueError) {
	if len(b)-off < 4 {
		return nil, false, off, valueError(oid, off, "element "+itoa(n)+" length: need 4 bytes, have "+itoa(len(b)-off))
	}
	l := int32(be32(b[off:]))
	off += 4
	if l == -1 {
		return nil, true, off, nil
	}
	if l < 0 || int(l) > len(b)-off {
		return nil, false, off, valueError(oid, off-4, "element "+itoa(n)+" length "+itoa(int(l))+", have "+itoa(len(b)-off)+" bytes")
	}
	return b[off : off+int(l)], false, off + int(l), nil
}

// elementError places an element's error inside the array value.
func elementError(oid uint32, n, at int, e *ValueError) *ValueError {
	return valueError(oid, at+e.Offset, "element "+itoa(n)+": "+TypeName(e.Type)+": "+e.Reason)
}

// checkArray checks array_send's format as array_recv does, and each element as its type's
// receive function does.
func checkArray(oid, elem uint32, b []byte) *ValueError {
	h, err := readArrayHeader(oid, elem, b)
	if err != nil {
		return err
	}
	if h.nitems == 0 {
		if h.data != len(b) {
			return valueError(oid, h.data, itoa(len(b)-h.data)+" trailing bytes after an empty array")
		}
		return nil
	}
	off := h.data
	for n := 1; n <= h.nitems; n++ {
		v, null, next, err := nextElement(oid, b, off, n)
		if err != nil {
			return err
		}
		if !null {
			if eerr := check(elem, v); eerr != nil {
				return elementError(oid, n, off+4, eerr)
			}
		}
		off = next
	}
	if off != len(b) {
		return valueError(oid, off, itoa(len(b)-off)+" trailing bytes after the last element")
	}
	return nil
}

// formatArray writes a checked array_send value as array_out does: "{1,2,NULL}", elements quoted
// when empty, "NULL" in any case, or holding a quote, backslash, brace, comma or white space;
// "[0:1]={…}" when a lower bound is not 1; "{}" for no elements. It stops at the cap.
func formatArray(o *out, oid, elem uint32, b []byte) {
	h, _ := readArrayHeader(oid, elem, b)
	if h.nitems == 0 {
		o.str("{}")
		return
	}
	for i := 0; i < h.ndim; i++ {
		if h.lbound[i] != 1 {
			p := o.scratch[:0]
			for i := 0; i < h.ndim; i++ {
				p = append(p, '[')
				p = strconv.AppendInt(p, int64(h.lbound[i]), 10)
				p = append(p, ':')
				p = strconv.AppendInt(p, int64(h.lbound[i]+h.dims[i]-1), 10)
				p = append(p, ']')
				if len(p) > len(o.scratch)-24 {
					o.bytes(p)
					p = o.scratch[:0]
				}
			}
			o.bytes(append(p, '='))
			break
		}
	}
	var index [maxArrayDims]int
	off := h.data
	open := 0 // dimensions already opened
	for n := 1; !o.done(); n++ {
		o.steps++
		for ; open < h.ndim; open++ {
			o.byte1('{')
		}
		v, null, next, _ := nextElement(oid, b, off, n)
		if null {
			o.str("NULL")
		} else {
			formatElement(o, elem, v)
		}
		off = next
		// Close the dimensions that are complete and separate from the next element.
		i := h.ndim - 1
		for ; i >= 0; i-- {
			index[i]++
			if index[i] < h.dims[i] {
				o.byte1(',')
				break
			}
			index[i] = 0
			o.byte1('}')
		}
		if i < 0 {
			break
		}
		open = i + 1
	}
}

// formatElement writes a checked element's text as array_out does, quoted where needed.
func formatElement(o *out, elem uint32, v []byte) {
	switch elem {
	case oidText, oidVarchar, oidBPChar, oidName, oidJSON, oidJSONB:
		if elem == oidJSONB {
			v = v[1:]
		}
		if quoteElement(v) {
			o.byte1('"')
			o.text(v, true)
			o.byte1('"')
			return
		}
		o.text(v, false)
	case oidBytea:
		// "\x…": the backslash of the hex form needs quoting and escaping.
		o.str(`"\\x`)
		formatHexDigits(o, v)
		o.byte1('"')
	case oidNumeric:
		// Digits, a sign and a point, NaN or Infinity: never quoted.
		formatNumeric(o, v)
	default:
		var p []byte
		if elem == oidChar {
			p = appendCharOut(o.scratch[:0], v[0])
		} else {
			p = appendScalar(o.scratch[:0], elem, v)
		}
		if quoteElement(p) {
			o.byte1('"')
			o.text(p, true)
			o.byte1('"')
			return
		}
		o.text(p, false)
	}
}

// quoteElement reports whether array_out quotes an element's text: empty, "NULL" in any case,
// or holding a quote, backslash, brace, comma or white space.
func quoteElement(el []byte) bool {
	if len(el) == 0 || len(el) == 4 && (el[0]|0x20) == 'n' && (el[1]|0x20) == 'u' && (el[2]|0x20) == 'l' && (el[3]|0x20) == 'l' {
		return true
	}
	for _, c := range el {
		switch c {
		case '"', '\\', '{', '}', ',', ' ', '\t', '\n', '\r', '\v', '\f':
			return true
		}
	}
	return false
}
