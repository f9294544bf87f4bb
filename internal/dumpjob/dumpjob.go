// Package dumpjob is what the page asks of its export worker: one of pgoutput-inspect decode's
// outputs for the page's input (a dump of it, or its chosen message as a Go test), read and decoded as the page read and decoded it. The page
// (package web) makes a Job; wasm/main.go hands it to static/boot.js, which posts it to the
// worker (static/export-worker.js); the worker's program (wasm/export) gives it to
// dump.RunJob, the command line tool's own writers.
//
// The page links this package and not package dump, whose writers live in export.wasm only
// (docs/performance.md, "Size tricks").
package dumpjob

import (
	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
)

// Kind is what a Job writes.
type Kind uint8

// The kinds, each what decode prints with the flag named.
const (
	Text     Kind = iota // the annotated dump (decode)
	Markdown             // the dump in Markdown (decode --markdown)
	JSON                 // the JSON document (decode --json)
	GoTest               // the chosen message as a Go test against pglogrepl (decode --go-test N)
	NumKinds
)

// Consumer is the Consumer panel's report (pgoutput-inspect consumer, as HTML): not a dump of
// the Export menu, whose entries are the kinds before NumKinds.
const Consumer = NumKinds

// SharePart is a part of the input for Share when the whole input's link is too long: Text is
// that link's payload, before compression, and Message the first part to try (web's
// SharePartAnswer).
const SharePart = NumKinds + 1

// Job is one export: the input text and the settings the page decoded it with, which decode
// is given as flags (--format, --proto, --in-stream), and what to write.
type Job struct {
	Kind Kind
	// Text is the input as the page has it (the text box's text).
	Text string
	// Format is the format the page read Text as when it did not detect it (the format
	// menu's choice, or hex for a link's bytes); input.Auto: detected, as the page did.
	Format input.Format
	// Proto and InStream are the page's decoder options.
	Proto    int
	InStream decoder.Choice
	// Name names the input where the output does (Markdown's heading, the Go test's
	// comment).
	Name string
	// Message is the chosen message, counted from 1: the one GoTest writes.
	Message int
	// Max is the most the output may be, in bytes: the worker writes no more (set by
	// static/boot.js: the most it copies or downloads).
	Max int
	// SenderTimeout and StatusInterval are the Consumer report's settings, in milliseconds:
	// the publisher's wal_sender_timeout and the consumer's wal_receiver_status_interval (0:
	// PostgreSQL's defaults).
	SenderTimeout, StatusInterval int

	_ [0]func() // never compared: no equality function for it in main.wasm
}
