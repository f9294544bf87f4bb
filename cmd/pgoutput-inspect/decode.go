package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/dump"
	"pgoutput-inspector/internal/guide"
)

const decodeUsage = `usage: pgoutput-inspect decode [options] [FILE|-]

Decodes the pgoutput messages in FILE (standard input when FILE is "-" or missing) and
prints an annotated dump, one field per line: offset, the field's bytes in hex, its name
(indented by depth) and its value. The input's format is detected (--format forces one);
several messages are one per line or row. All messages are decoded in order by one session,
so Relation and Type messages name and type the columns of later changes.

A packet capture (pcap, pcapng) gives every message of each PostgreSQL connection in it, both
directions, each with its frame, time, connection and direction: the startup, the replication
commands, the server's answers and errors, and the CopyData of START_REPLICATION decoded with
the options the client sent. Secrets the client sent (passwords, SASL data) are never shown.
After the messages, each connection is summed up: what it was, its commands and its outcome.

Exit status: 0 when every message decoded, 1 when any message (or the input) had an error
(everything decodable is still printed), 2 for a usage error or a file that cannot be read.
`

// protoVersions names the protocol versions the decoder reads, "1..4", for the flags' help.
var protoVersions = strconv.Itoa(decoder.MinProto) + ".." + strconv.Itoa(decoder.MaxProto)

// decodeOptions are the decode command's flags.
type decodeOptions struct {
	json       bool
	jsonLines  bool
	markdown   bool
	color      string
	format     string
	proto      int
	inStream   decoder.Choice
	parallel   decoder.Choice
	noEnvelope bool
	full       bool
	explain    bool
	// goTest is the message (from 1) to print as a Go test against pglogrepl, or 0.
	goTest int
	// release and lensProto are the version lens (--release, --protocol): what that PostgreSQL
	// release or protocol version does not send is marked in the dump; 0 is any.
	release, lensProto *int
}

func runDecode(e *env, args []string) int {
	var o decodeOptions
	fs := flagSet(e, "decode", decodeUsage, args)
	fs.BoolVar(&o.json, "json", false, "print one JSON document (documented in docs/cli.md) instead of the annotated dump")
	fs.BoolVar(&o.jsonLines, "json-lines", false, "print each message as one line of JSON, the object of --json's \"messages\" (for jq and log pipelines)")
	fs.BoolVar(&o.markdown, "markdown", false, "print the annotated dump for an issue or a chat: a Markdown heading naming FILE and its messages, then the dump, not coloured, in a fenced code block")
	fs.Var(oneOfFlag{&o.color, []string{"auto", "always", "never"}}, "color",
		"`when` to colour the dump: auto (when stdout is a terminal and NO_COLOR is unset or empty), always or never")
	fs.StringVar(&o.format, "format", "", "read the input as this `format` instead of detecting it: "+formatList())
	fs.IntVar(&o.proto, "proto", 0, "pgoutput proto_version `"+protoVersions+"`; 0 infers it from the messages")
	fs.Var(choiceFlag{&o.inStream}, "in-stream",
		"the first message is inside Stream Start … Stream Stop (its changes carry an Xid); =false: it is not; default: decided from context and the bytes")
	fs.Var(choiceFlag{&o.parallel}, "parallel-abort",
		"Stream Abort messages carry the abort LSN and timestamp (streaming = parallel); =false: they do not; default: decided from context and the bytes")
	fs.BoolVar(&o.noEnvelope, "no-envelope", false,
		"every message is a bare pgoutput message: do not look for CopyData, XLogData or keepalive envelopes")
	fs.BoolVar(&o.full, "full", false, "print long values and hex in full instead of cutting them")
	fs.IntVar(&o.goTest, "go-test", 0, "print message `N`, counted from 1 (the dump's message N-1), as a Go test that feeds its bytes to github.com/jackc/pglogrepl's ParseV2 and checks every value pglogrepl decodes, instead of the dump")
	fs.BoolVar(&o.explain, "explain", false, "under each field, a sentence saying what its bytes mean in this message (the page's explain mode)")
	o.release, o.lensProto = lensFlags(fs,
		"mark in the dump each message, field and value that %s does not send, with since when it does (the page's version lens)",
		"mark what %s does not have; default: any (--proto says how to read the bytes, --protocol only marks them)")
	o.color = "auto"
	pos, err := parseArgs(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if o.json && o.jsonLines {
		fmt.Fprintln(e.stderr, "pgoutput-inspect decode: --json and --json-lines: choose one")
		return exitUsage
	}
	if o.markdown && (o.json || o.jsonLines) {
		fmt.Fprintln(e.stderr, "pgoutput-inspect decode: --markdown puts the annotated dump in Markdown; --json and --json-lines print JSON: choose one")
		return exitUsage
	}
	if o.explain && (o.json || o.jsonLines) {
		fmt.Fprintln(e.stderr, "pgoutput-inspect decode: --explain adds sentences to the annotated dump, not to JSON")
		return exitUsage
	}
	if o.goTest < 0 || o.goTest > 0 && (o.json || o.jsonLines || o.markdown || o.explain || o.full) {
		fmt.Fprintln(e.stderr, "pgoutput-inspect decode: --go-test N prints message N (from 1) as a Go test, alone: not with --json, --json-lines, --markdown, --explain or --full")
		return exitUsage
	}
	lens := guide.Lens{Release: *o.release, Proto: *o.lensProto}
	if lens.On() && (o.json || o.jsonLines) {
		fmt.Fprintln(e.stderr, "pgoutput-inspect decode: --release and --protocol mark the annotated dump, not JSON")
		return exitUsage
	}
	if !checkLens(e, "decode", lens.Release, lens.Proto) {
		return exitUsage
	}
	if o.proto < 0 || o.proto > decoder.MaxProto {
		fmt.Fprintf(e.stderr, "pgoutput-inspect decode: --proto %d: pgoutput protocol versions are %d to %d (0 infers it)\n", o.proto, decoder.MinProto, decoder.MaxProto)
		return exitUsage
	}
	force := input.Auto
	if o.format != "" && o.format != "auto" {
		force = input.Format(o.format)
		if !knownFormat(force) {
			fmt.Fprintf(e.stderr, "pgoutput-inspect decode: --format %q: unknown format; the formats are %s\n", o.format, formatList())
			return exitUsage
		}
	}

	name, in, live, closeInput, ok := openArg(e, "decode", pos)
	if !ok {
		return exitUsage
	}
	defer closeInput()
	kind := dump.KindText
	switch {
	case o.goTest > 0:
		kind = dump.KindGoTest
	case o.json:
		kind = dump.KindJSON
	case o.jsonLines:
		kind = dump.KindJSONLines
	case o.markdown:
		kind = dump.KindMarkdown
	}
	r := dump.Decode(e.stdout, in, dump.Options{Format: force, Live: live,
		Proto: o.proto, InStream: o.inStream, ParallelAbort: o.parallel, NoEnvelope: o.noEnvelope,
		Kind: kind, Name: displayName(name), Color: useColor(e, o.color), Full: o.full, Explain: o.explain,
		Lens: lens, GoTest: o.goTest}, func(errs []*input.Error) {
		printInputErrors(e, name, errs)
	})
	if r.Unread != nil {
		var ie *input.Error
		if !errors.As(r.Unread, &ie) {
			fmt.Fprintf(e.stderr, "pgoutput-inspect decode: reading %s: %v\n", displayName(name), r.Unread)
			return exitUsage
		}
		fmt.Fprintf(e.stderr, "pgoutput-inspect decode: %s: %v\n", displayName(name), r.Unread)
		return exitError
	}
	if r.WriteErr != nil {
		fmt.Fprintf(e.stderr, "pgoutput-inspect decode: writing the output: %v\n", r.WriteErr)
		return exitUsage
	}
	if r.NoTest != "" {
		fmt.Fprintf(e.stderr, "pgoutput-inspect decode: --go-test %d: %s\n", o.goTest, r.NoTest)
		return exitError
	}
	if r.ReadErr != nil {
		fmt.Fprintf(e.stderr, "pgoutput-inspect decode: reading %s: %v (the messages before were decoded)\n", displayName(name), r.ReadErr)
		return exitUsage
	}
	if r.Failed {
		return exitError
	}
	return exitOK
}

// printInputErrors prints errors of the input on stderr.
func printInputErrors(e *env, name string, errs []*input.Error) {
	for _, ie := range errs {
		fmt.Fprintf(e.stderr, "pgoutput-inspect decode: %s: %v\n", displayName(name), ie)
	}
}

// openArg opens the one input file the command line names in pos (standard input when it
// names none) and returns its name ("-" for standard input), or says on stderr why it cannot, as
// command.
func openArg(e *env, command string, pos []string) (name string, r io.Reader, live bool, close func(), ok bool) {
	if len(pos) > 1 {
		fmt.Fprintf(e.stderr, "pgoutput-inspect %s: one input file at most, got %d: %s\n", command, len(pos), strings.Join(pos, " "))
		return "", nil, false, nil, false
	}
	name = "-"
	if len(pos) == 1 {
		name = pos[0]
	}
	r, live, close, err := openInput(e, name)
	if err != nil {
		fmt.Fprintf(e.stderr, "pgoutput-inspect %s: %v\n", command, err)
		return name, nil, false, nil, false
	}
	return name, r, live, close, true
}

// openInput opens the named file, or standard input for "-". live says the input may still
// be being written (a pipe, a terminal or a FIFO rather than a regular file), so decode starts
// as soon as a capture file's first message is there.
func openInput(e *env, name string) (r io.Reader, live bool, close func(), err error) {
	if name == "-" {
		if f, ok := e.stdin.(*os.File); ok {
			fi, err := f.Stat()
			live = err == nil && !fi.Mode().IsRegular()
		}
		return e.stdin, live, func() {}, nil
	}
	f, err := os.Open(name)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil, fmt.Errorf("%s: no such file", name)
	}
	if err != nil {
		return nil, false, nil, err
	}
	fi, err := f.Stat()
	if err == nil && fi.IsDir() {
		f.Close()
		return nil, false, nil, fmt.Errorf("%s: is a directory", name)
	}
	return f, err == nil && !fi.Mode().IsRegular(), func() { f.Close() }, nil
}

func displayName(name string) string {
	if name == "-" {
		return "standard input"
	}
	return name
}

// useColor decides whether the dump is coloured: --color=always/never win; otherwise colours
// are on only when stdout is a terminal and NO_COLOR is unset or empty (https://no-color.org).
func useColor(e *env, mode string) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	return e.terminal && e.getenv("NO_COLOR") == ""
}

func knownFormat(f input.Format) bool {
	for _, k := range input.Formats() {
		if k == f {
			return true
		}
	}
	return false
}

// formatList lists the format names --format accepts, quoted where they hold a space.
func formatList() string {
	var names []string
	for _, f := range input.Formats() {
		n := string(f)
		if strings.ContainsRune(n, ' ') {
			n = `"` + n + `"`
		}
		names = append(names, n)
	}
	return strings.Join(names, ", ")
}
