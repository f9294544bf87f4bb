package pgvalue

import (
	"strconv"
	"testing"
)

// TestHexValue: HexValue reads every byte as strconv reads a one-digit hex number.
func TestHexValue(t *testing.T) {
	for c := range 256 {
		want := byte(0xff)
		if v, err := strconv.ParseUint(string(rune(c)), 16, 8); err == nil && c < 0x80 {
			want = byte(v)
		}
		if got := HexValue(byte(c)); got != want {
			t.Errorf("HexValue(%q) = %#x, want %#x", rune(c), got, want)
		}
		if c < 16 && HexValue(HexDigits[c]) != byte(c) {
			t.Errorf("HexValue(HexDigits[%d]) = %d", c, HexValue(HexDigits[c]))
		}
	}
}
