// Package dump writes decoded pgoutput messages as the command line tool prints them and the
// page exports them: the annotated text dump (Text), the JSON document or lines (JSON), and
// the text dump in Markdown for issues and chat (Markdown). One writer of each format serves
// pgoutput-inspect decode and the page's Export menu, so the two give the same bytes.
//
// A Writer is given an input's messages in order: Begin once, Message for each (Comment and
// InputErrors where they came), End. Writers append to buffers they reuse and write to an
// io.Writer a piece at a time, so memory does not grow with the input.
package dump

import (
	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
)

// Writer writes the output of decode: Begin once, Message for each message in order, End.
// Write errors are kept and returned by End.
type Writer interface {
	// Begin writes what comes before the messages; count is the number of messages, or -1
	// when it is known only at the end (a text read piece by piece).
	Begin(res *input.Result, count int)
	// InputErrors is given the errors met reading an input in pieces, as they are met (the
	// errors of an input read whole are in Begin's res.Errors).
	InputErrors(errs []*input.Error)
	// Comment writes a capture file's "#" line that came before message index.
	Comment(index int, text string)
	// Message writes message index.
	Message(index int, m *Message)
	// Connections writes the connections of a packet capture, after its messages: how each
	// was captured and what its messages said (not called for other inputs).
	Connections(conns []Connection)
	// End writes what comes after the messages, count of them, and returns the first write
	// error.
	End(count int) error
}

// Connection is one connection of a packet capture: how it was captured, and what its
// messages said.
type Connection struct {
	input.Connection
	decoder.ConversationInfo
}

// Message is one input message and its decode.
type Message struct {
	*input.Message
	Tree *decoder.Tree
}
