package input

import "strconv"

// Atoi is strconv.Atoi with ok in place of the error, the form the readers and the page's
// controls test.
func Atoi(s string) (n int, ok bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil
}
