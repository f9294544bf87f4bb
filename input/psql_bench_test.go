package input

import (
	"bytes"
	"os"
	"testing"
)

// psqlBenchForms are outputs in testdata/input/psql that stay one valid text when repeated:
// tables and records one after another, as in a session, or rows without a header.
var psqlBenchForms = []string{
	"aligned-ascii-b1", "aligned-unicode-b2", "aligned-old-ascii-b0", "wrapped-unicode-b1",
	"wrapped-old-ascii-b2", "expanded-ascii-b1", "expanded-unicode-b2", "expanded-ascii-b0",
	"base64-aligned", "escape-aligned", "unaligned", "unaligned-tab", "unaligned-zero-t",
	"unaligned-x", "csv-t", "copy-text", "html", "asciidoc", "session-expanded-timing",
}

// psqlMegabyte repeats a real psql output to about 1 MB.
func psqlMegabyte(b *testing.B, name string) []byte {
	text, err := os.ReadFile("../testdata/input/psql/" + name + ".txt")
	if err != nil {
		b.Fatal(err)
	}
	n := (1<<20)/len(text) + 1
	if name != "session-expanded-timing" && !bytes.HasSuffix(text, []byte("\n\n")) {
		text = append(text, '\n') // a blank line between tables
	}
	return bytes.Repeat(text, n)
}

// BenchmarkPsql reads about 1 MB of each psql form, detected.
func BenchmarkPsql(b *testing.B) {
	for _, name := range psqlBenchForms {
		b.Run(name, func(b *testing.B) { benchParse(b, psqlMegabyte(b, name), Auto) })
	}
}
