// Command guide writes the field guide from the decoder's field table: the page's guide asset
// (with the real examples and the captures of one transaction across releases, from
// testdata/guide) and docs/messages.md.
//
// Usage:
//
//	go run ./scripts/guide -asset static/guide.txt   # ./build.sh wasm runs this
//	go run ./scripts/guide -docs docs/messages.md     # after changing the field table
//
// -root names the repository's root (default: the current directory).
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/guide"
	"pgoutput-inspector/internal/guide/prose"
)

func main() {
	asset := flag.String("asset", "", "write the guide asset to `FILE`")
	docs := flag.String("docs", "", "write the Markdown reference to `FILE`")
	root := flag.String("root", ".", "the repository's root `DIR` (testdata/guide is read from it)")
	flag.Parse()
	if *asset == "" && *docs == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: guide [-root DIR] [-asset FILE] [-docs FILE]")
		os.Exit(2)
	}
	if err := run(*root, *asset, *docs); err != nil {
		fmt.Fprintln(os.Stderr, "guide:", err)
		os.Exit(1)
	}
}

func run(root, asset, docs string) error {
	if docs != "" {
		if err := os.WriteFile(docs, prose.Markdown(guide.Data()), 0o644); err != nil {
			return err
		}
	}
	if asset != "" {
		g, err := Full(root)
		if err != nil {
			return err
		}
		if err := os.WriteFile(asset, guide.Append(nil, g), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Full returns the guide with its examples and comparisons from root's testdata/guide.
func Full(root string) (*guide.Guide, error) {
	g := guide.Data()
	dir := filepath.Join(root, "testdata", "guide")
	if err := readIndex(filepath.Join(dir, "examples.txt"), 4, func(f []string) error {
		e := g.Entry(f[0])
		if e == nil {
			return errors.New("no guide entry " + strconv.Quote(f[0]))
		}
		sel, err := strconv.Atoi(f[1])
		if err != nil {
			return err
		}
		text, err := os.ReadFile(filepath.Join(dir, f[2]))
		if err != nil {
			return err
		}
		e.Example = guide.Example{Text: string(text), Select: sel, Source: f[3]}
		return nil
	}); err != nil {
		return nil, err
	}
	if err := readIndex(filepath.Join(dir, "lens.txt"), 4, func(f []string) error {
		c, err := comparison(dir, f[0], f[2], f[3])
		c.Binary = f[1] == "binary"
		g.Comparisons = append(g.Comparisons, c)
		return err // Full returns no guide after an error
	}); err != nil {
		return nil, err
	}
	// The option captures (scripts/guideoptions): one change with an option set each way.
	if err := readIndex(filepath.Join(dir, "options.txt"), 4, func(f []string) error {
		c, err := comparison(dir, f[1], f[2], f[3])
		c.Setting = f[0]
		g.Comparisons = append(g.Comparisons, c)
		return err
	}); err != nil {
		return nil, err
	}
	return g, nil
}

// comparison reads the capture file of a comparison in dir (testdata/guide), made by the
// release named by its major version at the protocol version proto.
func comparison(dir, release, proto, file string) (guide.Comparison, error) {
	r, err1 := strconv.Atoi(release)
	p, err2 := strconv.Atoi(proto)
	if err := errors.Join(err1, err2); err != nil {
		return guide.Comparison{}, err
	}
	text, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return guide.Comparison{}, err
	}
	text, err = withoutKeepalives(text)
	if err != nil {
		return guide.Comparison{}, fmt.Errorf("%s: %w", file, err)
	}
	c := guide.Comparison{Release: r, Proto: p, Text: string(text),
		Source: filepath.ToSlash(filepath.Join("testdata", "guide", file))}
	c.Server, c.Options = captureHeader(c.Text)
	return c, nil
}

// withoutKeepalives returns a comparison's capture file without the server's Primary keepalive
// messages, and a header line saying how many were left out. A comparison shows what pgoutput
// sends for the same change; the walsender sends keepalives whenever it waits, so they fall at
// places that change with the timing of each recording (two recordings of the same change
// differ only in them) and would make each comparison's first message type "Primary
// keepalive". The capture file in testdata keeps them, as the server sent them.
func withoutKeepalives(text []byte) ([]byte, error) {
	res, err := input.Parse(text, input.Capture)
	if err != nil {
		return nil, err
	}
	drop := map[int]bool{} // 1-based lines
	capture := input.ReadCaptureOptions(res.Header)
	s := decoder.NewSession(capture.DecoderOptions(decoder.Options{}))
	for _, m := range res.Messages {
		if t := s.Decode(m.Bytes); t.Message < 0 && len(t.Nodes) > 0 && t.Nodes[0].Field == decoder.FieldKeepalive {
			drop[m.Line] = true
		}
	}
	if len(drop) == 0 {
		return text, nil
	}
	lines := strings.SplitAfter(string(text), "\n")
	var out strings.Builder
	noted := false
	for i, l := range lines {
		if !noted && !strings.HasPrefix(l, "#") {
			out.WriteString("# left out: " + strconv.Itoa(len(drop)) + " primary keepalive messages of the server (their places change with timing)\n")
			noted = true
		}
		if !drop[i+1] {
			out.WriteString(l)
		}
	}
	return []byte(out.String()), nil
}

// captureHeader returns a capture file's server and options header lines.
func captureHeader(text string) (server, options string) {
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(line, "# server: "); ok {
			server = v
		}
		if v, ok := strings.CutPrefix(line, "# options: "); ok {
			options = v
		}
	}
	return server, options
}

// readIndex calls fn with the tab-separated fields of each line of an index file (blank lines
// and lines starting with # skipped). A missing index is no error: the guide has no examples yet.
func readIndex(path string, n int, fn func([]string) error) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for line := 1; sc.Scan(); line++ {
		t := sc.Text()
		if strings.TrimSpace(t) == "" || strings.HasPrefix(t, "#") {
			continue
		}
		f := strings.Split(t, "\t")
		if len(f) != n {
			return fmt.Errorf("%s:%d: want %d tab-separated fields, found %d", path, line, n, len(f))
		}
		if err := fn(f); err != nil {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
	}
	return sc.Err()
}
