// Package announce prints, at once, a line about a long step a test takes before it can run
// (a download, an install), so a person waiting sees why it is quiet. ./build.sh test shows
// these lines as they come (scripts/testlines); a plain go test shows them with the package's
// output.
package announce

import (
	"fmt"
	"os"
)

// Prefix starts every announced line.
const Prefix = "==> "

// Printf writes Prefix and the formatted line to standard error, unbuffered.
func Printf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, Prefix+format+"\n", args...)
}
