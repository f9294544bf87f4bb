package input

import (
	"strconv"
	"testing"
	"unicode/utf8"
)

// TestQuoteRune holds QuoteRune to strconv.QuoteRune for every valid rune.
func TestQuoteRune(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		if got, want := QuoteRune(r), strconv.QuoteRune(r); got != want {
			t.Fatalf("QuoteRune(%U) = %s, want %s", r, got, want)
		}
	}
}
