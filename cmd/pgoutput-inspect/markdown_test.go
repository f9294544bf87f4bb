package main

import (
	"bytes"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"pgoutput-inspector/decoder/pgvalue"
)

// gfm renders Markdown as GitHub does (CommonMark with GitHub's extensions: tables,
// strikethrough, autolinks, task lists), without the raw HTML GitHub strips anyway.
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM))

// renderedMarkdown is what goldmark makes of decode --markdown's output: one heading whose
// text is heading, then one code block holding dump, and nothing else.
var renderedMarkdown = regexp.MustCompile(`(?s)^<h3>(.*)</h3>\n<pre><code class="language-text">(.*)</code></pre>\n$`)

// TestMarkdown: decode --markdown, rendered by a CommonMark renderer with GitHub's extensions,
// is a heading naming the input and its messages and a code block holding exactly the dump
// decode prints (decode --color=never), for every test input, hostile names and values, a
// capture read piece by piece, and a file name full of Markdown.
func TestMarkdown(t *testing.T) {
	dir := t.TempDir()
	odd := filepath.Join(dir, "*not* [a](link) <img src=x onerror=alert(1)> `x` _y_ ~~z~~ # |t| \\ 1. &amp; x.hex")
	if err := os.WriteFile(odd, []byte(hostileInput()), 0o666); err != nil {
		t.Fatal(err)
	}
	streamed := filepath.Join(dir, "streamed.hex")
	// Over 64 KiB of hex lines: read piece by piece, with the count at the end.
	if err := os.WriteFile(streamed, []byte(strings.Repeat(streamedLines(), 200)), 0o666); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("testdata/*.hex")
	files = append(files, "testdata/pg15-text.capture", "testdata/psql-aligned.txt", "testdata/update.hexdump.txt", odd, streamed)
	for _, file := range files {
		for _, extra := range [][]string{nil, {"--explain"}, {"--release", "13"}, {"--full"}} {
			args := append(append([]string{"decode"}, extra...), file)
			want := runCmd(t, "", nil, append(args, "--color=never")...)
			got := runCmd(t, "", nil, append(args, "--markdown")...)
			if got.code != want.code || got.stderr != want.stderr {
				t.Fatalf("%s --markdown: exit %d, stderr %q; without: exit %d, stderr %q", args, got.code, got.stderr, want.code, want.stderr)
			}
			var b bytes.Buffer
			if err := gfm.Convert([]byte(got.stdout), &b); err != nil {
				t.Fatal(err)
			}
			m := renderedMarkdown.FindStringSubmatch(b.String())
			if m == nil {
				t.Fatalf("%s --markdown renders as more than a heading and a code block:\n%s", args, b.String())
			}
			if code := html.UnescapeString(m[2]); code != want.stdout {
				t.Fatalf("%s --markdown: the code block holds\n%s\nnot the dump\n%s", args, diff(want.stdout, code), want.stdout)
			}
			heading := html.UnescapeString(m[1])
			name := pgvalue.SafeText(file)
			if !strings.HasPrefix(heading, name+": ") {
				t.Fatalf("%s --markdown: the heading is %q, not the file's name %q and its messages", args, heading, name)
			}
		}
	}
}
