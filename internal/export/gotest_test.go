package export_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/export"
	"pgoutput-inspector/web"
)

// testCase is a message to make a Go test of, and where it came from.
type testCase struct {
	name, about string
	tree        *decoder.Tree
}

// corpusPerKind is how many messages of each kind (type, in a stream or not) each corpus
// capture gives the pglogrepl test.
const corpusPerKind = 3

// casesToTest returns every message of every example, and the
// first corpusPerKind messages of each kind in every corpus capture.
func casesToTest(t *testing.T) []testCase {
	t.Helper()
	var cases []testCase
	// The captures of the examples after the first are in the examples asset, read as the page
	// reads what it fetches.
	asset, err := os.ReadFile("../../static/" + web.ExamplesAsset)
	if err != nil {
		t.Fatal(err)
	}
	exs, err := web.ReadExamples(string(asset))
	if err != nil {
		t.Fatalf("%s: %v", web.ExamplesAsset, err)
	}
	examples := 0
	for e, ex := range exs {
		if ex.Text == "" {
			t.Fatalf("example %q has no capture in %s", ex.Name, web.ExamplesAsset)
		}
		examples++
		doc, ierr := web.NewDoc(ex.Text, input.Auto, decoder.Options{}, -1)
		if ierr != nil {
			t.Fatalf("example %q: %v", ex.Name, ierr)
		}
		for i, tr := range doc.Trees {
			cases = append(cases, testCase{"Example" + strconv.Itoa(e) + "Message" + strconv.Itoa(i),
				"message " + strconv.Itoa(i+1) + " of the example " + strconv.Quote(ex.Name), tr})
		}
	}
	if examples == 0 {
		t.Fatal("no example with its capture")
	}
	files, _ := filepath.Glob("../../testdata/corpus/*.capture.gz")
	if len(files) == 0 {
		t.Fatal("no corpus captures")
	}
	for f, file := range files {
		doc, ierr := web.NewDoc(readGzip(t, file), input.Auto, decoder.Options{}, -1)
		if ierr != nil {
			t.Fatalf("%s: %v", file, ierr)
		}
		seen := map[string]int{}
		for i, tr := range doc.Trees {
			kind := fmt.Sprint(tr.Type, tr.Reading.InStream)
			if seen[kind] >= corpusPerKind {
				continue
			}
			seen[kind]++
			cases = append(cases, testCase{"Corpus" + strconv.Itoa(f) + "Message" + strconv.Itoa(i),
				"message " + strconv.Itoa(i+1) + " of " + filepath.Base(file), tr})
		}
	}
	return cases
}

func readGzip(t *testing.T, file string) string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestGoTestAgainstPglogrepl makes the Go test of every example message and of real corpus
// messages, and runs them all with go test against the pglogrepl of go.mod, in a module of
// their own: each must compile and pass. One more, fed a byte changed after the test was made,
// must fail, so that the tests are seen to check something.
func TestGoTestAgainstPglogrepl(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	mod = regexp.MustCompile(`(?m)^module .*$`).ReplaceAll(mod, []byte("module pglogrepltest"))
	sum, err := os.ReadFile("../../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", mod)
	write("go.sum", sum)

	made := map[byte]int{}
	var mutated string
	for _, c := range casesToTest(t) {
		src, err := export.AppendGoTest(nil, c.tree, c.name, c.about)
		switch {
		case errors.Is(err, export.ErrNotInPglogrepl), errors.Is(err, export.ErrNoMessage):
			continue
		case errors.Is(err, export.ErrDecodeError) && c.tree.Err != nil:
			continue
		case err != nil:
			t.Fatalf("%s: %v", c.about, err)
		}
		if _, err := parser.ParseFile(token.NewFileSet(), c.name+".go", src, parser.AllErrors); err != nil {
			t.Fatalf("%s: the test does not parse: %v\n%s", c.about, err, src)
		}
		write(c.name+"_test.go", src)
		made[c.tree.Type]++
		// The first Insert whose last column is text: its last byte is in that column's value.
		if mutated == "" && c.tree.Type == 'I' && bytes.Contains(src, []byte(`.Data); got != "`)) {
			mutated = "Mutated" + c.name
			src, _ := export.AppendGoTest(nil, c.tree, mutated, c.about)
			src = bytes.Replace(src, []byte("ParseV2(data, "), []byte("ParseV2(flipLastBit(data), "), 1)
			write(mutated+"_test.go", src)
		}
	}
	for _, typ := range []byte("BCRYIUDTMSEcA") {
		if made[typ] == 0 {
			t.Errorf("no test made of a %s message", decoder.MessageName(typ))
		}
	}
	if mutated == "" {
		t.Fatal("no Insert to change a byte of")
	}
	write("flip_test.go", []byte("package pgoutput_test\n\nfunc flipLastBit(b []byte) []byte {\n\tc := append([]byte(nil), b...)\n\tc[len(c)-1] ^= 1\n\treturn c\n}\n"))

	cmd := exec.Command(goTool, "test", "-count=1", "-v", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	out, _ := cmd.CombinedOutput()
	passed := regexp.MustCompile(`(?m)^--- PASS: Test(\w+)`).FindAllSubmatch(out, -1)
	failed := regexp.MustCompile(`(?m)^--- FAIL: Test(\w+)`).FindAllSubmatch(out, -1)
	total := 0
	for _, n := range made {
		total += n
	}
	if len(passed) != total || len(failed) != 1 || string(failed[0][1]) != mutated {
		t.Fatalf("%d tests passed and %d failed, want %d to pass and %s to fail; go test said:\n%s",
			len(passed), len(failed), total, mutated, lastLines(out, 60))
	}
	if !bytes.Contains(out, []byte(`.Data = "`)) {
		t.Errorf("%s failed for another reason than the column's bytes:\n%s", mutated, lastLines(out, 60))
	}
	t.Logf("%d tests made and passed (%v by type), and %s failed", total, made, mutated)
}

// lastLines returns the last n lines of b.
func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
