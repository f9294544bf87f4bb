package input

import (
	"bytes"
	"testing"
)

// TestSplitRecvLogicalNoQuadratic gives the splitter a file that no newline ends a message of:
// a string without its zero byte across thousands of newlines, and a truncated Relation. It must
// give up after a few decodes, not try every newline.
func TestSplitRecvLogicalNoQuadratic(t *testing.T) {
	for _, b := range [][]byte{
		append([]byte("R\x00\x00\x40\x00"), bytes.Repeat([]byte("x\n"), 200000)...),
		append([]byte("M\x01\x00\x00\x00\x00\x01\x52\x86\x60"), bytes.Repeat([]byte("\n"), 400000)...),
	} {
		allocs := testing.AllocsPerRun(1, func() { splitRecvLogical(b) })
		if allocs > 1000 {
			t.Errorf("%d allocations: the splitter tries newline after newline", int(allocs))
		}
	}
}
