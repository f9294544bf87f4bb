package input

import (
	"strconv"
	"testing"
)

// TestAtoi holds Atoi to strconv.Atoi.
func TestAtoi(t *testing.T) {
	for _, s := range []string{
		"", "0", "7", "-7", "+7", "007", "-0", "+", "-", "+-1", "--1", " 1", "1 ", "1_000", "0x10", "1e3", "12a",
		"١", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"18446744073709551615", "18446744073709551616", "99999999999999999999", "+9223372036854775807",
		"00000000000000000000000000000000042",
	} {
		want, err := strconv.Atoi(s)
		n, ok := Atoi(s)
		if ok != (err == nil) || (ok && n != want) {
			t.Errorf("Atoi(%q) = %d, %v; strconv.Atoi gives %d, %v", s, n, ok, want, err)
		}
	}
}

func FuzzAtoi(f *testing.F) {
	f.Add("-123")
	f.Add("9223372036854775808")
	f.Fuzz(func(t *testing.T, s string) {
		want, err := strconv.Atoi(s)
		n, ok := Atoi(s)
		if ok != (err == nil) || (ok && n != want) {
			t.Errorf("Atoi(%q) = %d, %v; strconv.Atoi gives %d, %v", s, n, ok, want, err)
		}
	})
}
