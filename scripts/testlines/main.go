// Command testlines reads `go test -json` on its standard input and prints one line per
// package as each finishes, in the order they finish, as `go test` words them ("ok", "FAIL",
// "?"), with the whole output of a package that failed. Lines a test announces at once
// (internal/announce: a download, an install) are printed as they come, so a long silence
// has its reason on screen. ./build.sh test runs the tests through it.
//
//	go test -json ./... 2>&1 | go run ./scripts/testlines
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"pgoutput-inspector/internal/announce"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action     string
	Package    string
	Test       string
	Elapsed    float64
	Output     string
	ImportPath string
}

func main() {
	failed := run(bufio.NewScanner(os.Stdin), os.Stdout)
	if failed {
		os.Exit(1)
	}
}

// run prints the report of the events read by sc and reports whether a package failed.
func run(sc *bufio.Scanner, w io.Writer) bool {
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	tests := map[[2]string]*strings.Builder{} // each running test's output
	report := map[string]*strings.Builder{}   // each package's failed tests and own output
	text := func(m map[string]*strings.Builder, k string) *strings.Builder {
		if m[k] == nil {
			m[k] = &strings.Builder{}
		}
		return m[k]
	}
	failed := false
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			// Not an event: the go command's own messages ("go: downloading …").
			fmt.Fprintf(w, "%s\n", line)
			continue
		}
		key := [2]string{e.Package, e.Test}
		switch e.Action {
		case "build-output":
			fmt.Fprint(w, e.Output)
		case "build-fail":
			failed = true
		case "output":
			switch {
			case strings.HasPrefix(e.Output, announce.Prefix):
				fmt.Fprint(w, e.Output)
			case strings.HasPrefix(e.Output, "=== "), e.Test == "" && (e.Output == "PASS\n" || strings.HasPrefix(e.Output, "FAIL\t") || strings.HasPrefix(e.Output, "ok  \t")):
				// go test -v's markers and the package's result line, which the report writes.
			case e.Test != "":
				if tests[key] == nil {
					tests[key] = &strings.Builder{}
				}
				tests[key].WriteString(e.Output)
			default:
				text(report, e.Package).WriteString(e.Output)
			}
		case "pass", "fail", "skip":
			if e.Test != "" {
				if b := tests[key]; b != nil && e.Action == "fail" {
					text(report, e.Package).WriteString(b.String())
				}
				delete(tests, key)
				continue
			}
			switch e.Action {
			case "pass":
				fmt.Fprintf(w, "ok  \t%s\t%.3fs\n", e.Package, e.Elapsed)
			case "skip":
				fmt.Fprintf(w, "?   \t%s\t[no test files]\n", e.Package)
			case "fail":
				failed = true
				if b := report[e.Package]; b != nil {
					fmt.Fprint(w, b.String())
				}
				fmt.Fprintf(w, "FAIL\t%s\t%.3fs\n", e.Package, e.Elapsed)
			}
			delete(report, e.Package)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(w, "testlines: %v\n", err)
		return true
	}
	return failed
}
