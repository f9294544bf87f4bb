package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/input"
	"pgoutput-inspector/web"
)

// xlogLine is a capture line: the LSN and an XLogData payload around the pgoutput message.
func xlogLine(lsn uint64, msg string) string {
	b, err := hex.DecodeString(msg)
	if err != nil {
		panic(err)
	}
	env := make([]byte, 25, 25+len(b))
	env[0] = 'w'
	for i := 0; i < 8; i++ {
		env[1+i] = byte(lsn >> (56 - 8*i))
		env[9+i] = byte(lsn >> (56 - 8*i))
	}
	return pgvalue.FormatLSN(lsn) + " " + hex.EncodeToString(append(env, b...)) + "\n"
}

// abortCapture is a capture whose options line is the given one (none when empty) and whose
// streamed transaction ends in a Stream Abort of 25 bytes: with the abort LSN and timestamp,
// which pgoutput writes only with streaming=parallel.
func abortCapture(options string) string {
	var b strings.Builder
	b.WriteString("# pgoutput-inspect capture v1\n")
	if options != "" {
		b.WriteString("# options: " + options + "\n")
	}
	b.WriteString(xlogLine(0x1000, "53"+"000002f2"+"01"))                                             // Stream Start, xid 754, first segment
	b.WriteString(xlogLine(0x1010, "4d"+"000002f2"+"01"+"0000000000001010"+"7000"+"00000002"+"6869")) // Message in the stream
	b.WriteString(xlogLine(0x1020, "45"))                                                             // Stream Stop
	b.WriteString(xlogLine(0x1030, "41"+"000002f2"+"000002f2"+"0000000000001030"+"0002a2b1c3d4e5f6")) // Stream Abort, 25 bytes
	b.WriteString(xlogLine(0x1040, "41"+"000002f3"+"000002f3"))                                       // Stream Abort, 9 bytes
	return b.String()
}

// TestCaptureHeaderPageAndCLIAgree feeds the same inputs to the command line's decode and to
// the page's decode (web.NewDoc), and compares every message: the same fields at the same
// offsets and the same error. Both take a capture file's options line from
// input.ReadCaptureOptions: streaming=parallel says a Stream Abort carries the abort LSN and
// timestamp, any other options line that it does not.
func TestCaptureHeaderPageAndCLIAgree(t *testing.T) {
	inputs := map[string]string{
		"streaming=on, 25-byte abort":       abortCapture(`proto_version=4 publication_names="pub" streaming=on`),
		"streaming=parallel, 25-byte abort": abortCapture(`proto_version=4 publication_names="pub" streaming=parallel`),
		"no streaming option":               abortCapture(`proto_version=4 publication_names="pub"`),
		"no options line":                   abortCapture(""),
		"proto 3, streaming=on":             abortCapture(`proto_version=3 publication_names="pub" streaming=on`),
	}
	files, _ := filepath.Glob("testdata/*.capture")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[f] = string(b)
	}
	corpus, _ := filepath.Glob(filepath.Join(corpusDir, "*.capture.gz"))
	for _, f := range corpus {
		inputs[f] = string(readCorpus(t, f))
	}
	// What the header decides, so that agreement is not agreement on something else.
	wantErr := map[string]bool{
		"streaming=on, 25-byte abort":       true, // trailing bytes: pgoutput would not send them
		"streaming=parallel, 25-byte abort": true, // the 9-byte abort is short
		"no streaming option":               true,
		"no options line":                   true, // the first abort's bytes decide (a note says so), the second follows
		"proto 3, streaming=on":             true,
	}
	for name, text := range inputs {
		t.Run(name, func(t *testing.T) {
			cli := cliMessages(t, text)
			doc, ierr := web.NewDoc(text, input.Auto, decoder.Options{}, -1)
			if ierr != nil {
				t.Fatalf("page: %v", ierr)
			}
			if len(doc.Trees) != len(cli) {
				t.Fatalf("page decoded %d messages, the command line %d", len(doc.Trees), len(cli))
			}
			anyErr := false
			for i, tr := range doc.Trees {
				page := pageMessage(tr)
				if page != cli[i] {
					t.Errorf("message %d:\npage %s\ncli  %s", i, page, cli[i])
				}
				anyErr = anyErr || tr.Err != nil
			}
			if want, ok := wantErr[name]; ok && anyErr != want {
				t.Errorf("some message has an error: %v, want %v", anyErr, want)
			}
		})
	}
}

// cliMessages runs decode --json on text and returns each message's leaves and error.
func cliMessages(t *testing.T, text string) []string {
	t.Helper()
	r := runCmd(t, text, nil, "decode", "--json")
	var doc struct {
		Messages []struct {
			Tree  *jsonTestNode `json:"tree"`
			Error *struct {
				Offset  int    `json:"offset"`
				Message string `json:"message"`
			} `json:"error"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("decode --json: %v; stderr:\n%s", err, r.stderr)
	}
	out := make([]string, len(doc.Messages))
	for i, m := range doc.Messages {
		var b strings.Builder
		var walk func(n *jsonTestNode)
		walk = func(n *jsonTestNode) {
			if len(n.Children) == 0 {
				fmt.Fprintf(&b, "%d+%d %s; ", n.Offset, n.Length, n.Field())
			}
			for _, c := range n.Children {
				walk(c)
			}
		}
		if m.Tree != nil {
			walk(m.Tree)
		}
		if m.Error != nil {
			fmt.Fprintf(&b, "error at %d: %s", m.Error.Offset, m.Error.Message)
		}
		out[i] = b.String()
	}
	return out
}

type jsonTestNode struct {
	Name     string          `json:"name"`
	FieldKey string          `json:"field"`
	Offset   int             `json:"offset"`
	Length   int             `json:"length"`
	Children []*jsonTestNode `json:"children"`
}

// Field is the node's documented field name.
func (n *jsonTestNode) Field() string {
	if n.FieldKey != "" {
		return n.FieldKey
	}
	return n.Name
}

// pageMessage describes a page's decoded tree as cliMessages describes the command line's.
func pageMessage(tr *decoder.Tree) string {
	var b strings.Builder
	for i := range tr.Nodes {
		if tr.IsLeaf(i) {
			n := &tr.Nodes[i]
			fmt.Fprintf(&b, "%d+%d %s; ", n.Offset, n.Length, n.Field.Info().Name)
		}
	}
	if tr.Err != nil {
		fmt.Fprintf(&b, "error at %d: %s", tr.Err.Offset, tr.Err.Error())
	}
	return b.String()
}
