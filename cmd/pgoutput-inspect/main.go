// Command pgoutput-inspect decodes PostgreSQL logical replication bytes (pgoutput messages,
// with or without their replication protocol envelopes) in the terminal, and records the
// replication stream of a live server into a capture file.
//
// Usage:
//
//	pgoutput-inspect decode [--json] [--proto N] [--in-stream] [--format NAME] [FILE|-]
//	pgoutput-inspect capture --publication NAME [--conn CONNSTRING] [options] [-o FILE]
//	pgoutput-inspect explain [--release N] [--protocol N] [TYPE]
//	pgoutput-inspect consumer [--json] [--svg FILE] [FILE|-]
//
// decode reads text in any format the input package detects (hex, base64, psql output,
// hex dumps, byte literals, capture files) and prints an annotated dump, one field per line,
// or with --json one JSON document (see docs/cli.md, which documents it as a public
// interface). It exits 0 when every message decoded, 1 when any message (or the input
// itself) had an error, and 2 for a usage error.
//
// capture connects with a replication=database connection, creates a temporary pgoutput
// slot and writes every CopyData payload the server sends to a capture file, until a message
// count, a duration or Ctrl-C stops it.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// After the first Ctrl-C, which ends a capture cleanly, a second one kills at once.
		<-ctx.Done()
		stop()
	}()
	e := &env{
		ctx:      ctx,
		stdin:    os.Stdin,
		stdout:   os.Stdout,
		stderr:   os.Stderr,
		getenv:   os.Getenv,
		terminal: isTerminal(os.Stdout),
	}
	os.Exit(run(e, os.Args[1:]))
}

// env is what a run of the command sees of the world, so tests can run it in-process.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
	// terminal says whether stdout is a terminal (colours are on by default only then).
	terminal bool
}

// Exit codes.
const (
	exitOK    = 0 // every message decoded; the capture ended normally
	exitError = 1 // a message or the input had an error; the capture failed
	exitUsage = 2 // bad command line, or a file that cannot be read or written
)

const usageText = `usage: pgoutput-inspect <command> [arguments]

Commands:
  decode [FILE|-]   decode pgoutput messages from text (hex, base64, psql output,
                    hex dumps, byte literals, capture files) and annotate every byte
  capture           record a live server's logical replication stream into a capture file
  explain [TYPE]    the field guide's entry for a message type: its fields, rules, versions;
                    --release/--protocol show it as a release or protocol version has it
  consumer [FILE]   check the replication consumers of a packet capture: how long each took
                    to acknowledge each transaction, keepalive replies, and anomalies

Run "pgoutput-inspect <command> -h" for a command's options.
`

// run runs the command line args (without the program name) and returns the exit code.
func run(e *env, args []string) int {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, usageText)
		return exitUsage
	}
	switch args[0] {
	case "decode":
		return runDecode(e, args[1:])
	case "capture":
		return runCapture(e, args[1:])
	case "explain":
		return runExplain(e, args[1:])
	case "consumer":
		return runConsumer(e, args[1:])
	case "-h", "-help", "--help", "help":
		fmt.Fprint(e.stdout, usageText)
		return exitOK
	}
	fmt.Fprintf(e.stderr, "pgoutput-inspect: unknown command %q\n\n%s", args[0], usageText)
	return exitUsage
}

// isTerminal reports whether f is a character device (a terminal), without extra dependencies.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// plural returns one when n is 1, else many.
