package input

import (
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
)

// corpusCase is one real tool output in testdata/input and the messages it must give.
type corpusCase struct {
	name    string // path under the corpus directory, without the extension
	input   []byte
	want    [][]byte
	wantErr string // when reading must fail: a piece of the error's text
	// errMessages: the error comes with the messages of want ("# with the messages below").
	errMessages bool
}

// loadCorpus reads every case under dir (testdata/input/<tool>/<case>.<ext> with
// <case>.want), skipping the directories named in skip.
func loadCorpus(t testing.TB, dir string, skip ...string) []corpusCase {
	var cases []corpusCase
	wants, _ := filepath.Glob(filepath.Join(dir, "*", "*.want"))
	for _, w := range wants {
		if s := filepath.Base(filepath.Dir(w)); contains(skip, s) {
			continue
		}
		base := strings.TrimSuffix(w, ".want")
		ins, _ := filepath.Glob(base + ".*")
		var in string
		for _, f := range ins {
			if f != w {
				in = f
			}
		}
		if in == "" {
			t.Fatalf("%s: no input beside it", w)
		}
		data, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(in, ".gz") {
			z, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if data, err = io.ReadAll(z); err != nil {
				t.Fatal(err)
			}
		}
		wt, err := os.ReadFile(w)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, base)
		c := corpusCase{name: rel, input: data}
		for _, l := range strings.Split(strings.TrimSpace(string(wt)), "\n") {
			switch {
			case strings.HasPrefix(l, "# error: "):
				c.wantErr = strings.TrimPrefix(l, "# error: ")
			case l == "# with the messages below":
				c.errMessages = true
			case strings.HasPrefix(l, "#"), l == "":
			default:
				b, err := hex.DecodeString(l)
				if err != nil {
					t.Fatalf("%s: %v", w, err)
				}
				c.want = append(c.want, b)
			}
		}
		cases = append(cases, c)
	}
	return cases
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkCase parses one case and returns what is wrong with the result, or "".
func checkCase(c corpusCase) (problem string, r *Result, err error) {
	r, err = Parse(c.input, Auto)
	if c.wantErr != "" {
		if err == nil {
			return "read as " + string(r.Format) + ", want an error containing " + c.wantErr, r, err
		}
		if !strings.Contains(err.Error(), c.wantErr) {
			return "error " + err.Error() + ", want one containing " + c.wantErr, r, err
		}
		if !c.errMessages {
			return "", r, err
		}
		// The messages read up to the error must be there too (a frame that ends inside a
		// message gives its start).
		if r == nil {
			return "no messages with the error, want " + itoa(len(c.want)), r, err
		}
	} else if err != nil {
		return "error: " + err.Error(), r, err
	}
	msgs := r.Messages
	if len(r.Connections) > 0 {
		// A capture gives its connections' whole conversations; its .want holds the
		// replication stream's CopyData, which the tools' outputs were made to show.
		if p := conversationProblem(r); p != "" {
			return p, r, err
		}
		msgs = nil
		for _, m := range r.Messages {
			if m.Bytes[0] == 'd' {
				msgs = append(msgs, m)
			}
		}
	}
	if len(msgs) != len(c.want) {
		return "read as " + string(r.Format) + ": " + itoa(len(msgs)) + " messages, want " + itoa(len(c.want)), r, err
	}
	for i, m := range msgs {
		if !bytes.Equal(m.Bytes, c.want[i]) {
			return "read as " + string(r.Format) + ": message " + itoa(i) + " is " + hex.EncodeToString(m.Bytes) + ", want " + hex.EncodeToString(c.want[i]), r, err
		}
	}
	return "", r, err
}

// conversationProblem says what is wrong with a capture's conversation: every message must
// have its side and connection, and each connection's client must speak first when its start
// was captured.
func conversationProblem(r *Result) string {
	first := make([]bool, len(r.Connections)+1)
	for i, m := range r.Messages {
		if m.Side == decoder.SideUnknown || m.Conn < 1 || m.Conn > len(r.Connections) {
			return "message " + itoa(i) + " has side " + m.Side.String() + " and connection " + itoa(m.Conn)
		}
		if !first[m.Conn] {
			first[m.Conn] = true
			if c := r.Connections[m.Conn-1]; !c.MidStream && m.Side != decoder.Frontend {
				return "connection " + itoa(m.Conn) + " starts with a message from the server, yet its start was captured"
			}
		}
	}
	return ""
}

// TestCorpus reads every real tool output in testdata/input (the held-out set aside) and
// checks it gives exactly the messages it must.
func TestCorpus(t *testing.T) {
	cases := loadCorpus(t, "../testdata/input", "holdout")
	if len(cases) == 0 {
		t.Fatal("no corpus in ../testdata/input")
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if p, _, _ := checkCase(c); p != "" {
				t.Error(p)
			}
		})
	}
}
