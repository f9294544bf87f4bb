package input

import (
	"strconv"
	"unicode/utf8"

	"pgoutput-inspector/decoder"
)

// Format names a textual shape of bytes. Its value is the name shown to people and accepted by
// the command line's --format flag.
type Format string

// The formats Parse knows, in the order automatic detection tries them (see the package comment).
const (
	// Auto asks Parse to detect the format.
	Auto Format = ""
	// Pcap is a libpcap capture file (tcpdump, dumpcap -P, Wireshark's "pcap"): the TCP
	// streams of PostgreSQL connections are put together and their CopyData messages read.
	Pcap Format = "pcap"
	// Pcapng is a pcapng capture file (Wireshark's and dumpcap's default), read as Pcap.
	Pcapng Format = "pcapng"
	// CopyBoth is the raw bytes of a replication connection's CopyBoth stream: protocol
	// messages one after another ('d', an Int32 length, the payload; CopyBothResponse 'W'
	// first, or the two directions' messages interleaved, as may be).
	CopyBoth Format = "copyboth"
	// RecvLogical is a file written by pg_recvlogical -f with -P pgoutput: messages, each
	// followed by a newline, split where each message's decoded length ends.
	RecvLogical Format = "pg_recvlogical"
	// Binary is a file holding one message's raw bytes.
	Binary Format = "binary"
	// Capture is the capture file: a "# pgoutput-inspect capture v1" header, then "LSN HEX" lines.
	Capture Format = "capture"
	// PsqlExpanded is psql's expanded display (\x on): "-[ RECORD 1 ]" blocks of "name | value".
	PsqlExpanded Format = "psql-expanded"
	// PsqlAligned is psql's default table: header, "---+---" rule, rows, "(N rows)" footer;
	// also its rows alone (psql -t, or a selection of rows).
	PsqlAligned Format = "psql-aligned"
	// PsqlHTML is psql -H output: an HTML table, or expanded records.
	PsqlHTML Format = "psql-html"
	// PsqlAsciidoc is psql's \pset format asciidoc: "|====" tables of "|cell" lines.
	PsqlAsciidoc Format = "psql-asciidoc"
	// Copy is COPY (…) TO STDOUT in the text format: tab-separated, bytea as "\\x…".
	Copy Format = "copy"
	// PsqlCSV is psql --csv output, and COPY (…) TO STDOUT WITH (FORMAT csv).
	PsqlCSV Format = "psql-csv"
	// PsqlUnaligned is psql -A output: "lsn|xid|data" header (optional), rows apart by any
	// field separator (-F, -z), and -A -x's "name|value" lines.
	PsqlUnaligned Format = "psql-unaligned"
	// GoBytes is Go source: []byte{0x42, 'B', 66, …} literals.
	GoBytes Format = "go"
	// Follow is tshark -z follow,tcp,hex or follow,tcp,raw of a PostgreSQL connection: its
	// CopyData messages in stream order.
	Follow Format = "tshark-follow"
	// NodeBuffer is Node's console.log of a Buffer: "<Buffer 42 00 …>". A Buffer cut short
	// ("… 181 more bytes>") is an error that says how to print it whole.
	NodeBuffer Format = "node-buffer"
	// NodeUint8Array is Node's console.log of a Uint8Array: "Uint8Array(21) [ 66, 0, … ]".
	NodeUint8Array Format = "node-uint8array"
	// GoPrint is Go's fmt.Println, %v or %d of a []byte: "[66 0 0 …]".
	GoPrint Format = "go-print"
	// GoString is Go's %q of a []byte: "B\x00\x00…".
	GoString Format = "go-string"
	// PythonBytes is Python source: b'\x42…' / b"…" literals.
	PythonBytes Format = "python"
	// ElixirBinary is Elixir source: <<66, 0, "text", 1::32>> binaries.
	ElixirBinary Format = "elixir"
	// JSONArray is a JSON array of byte values: [66, 0, …], or an array of such arrays.
	JSONArray Format = "json"
	// Java is Java's Arrays.toString(byte[]) (Kotlin's contentToString): signed bytes,
	// "[66, 0, -1]".
	Java Format = "java"
	// KotlinJoin is Kotlin's joinToString() of a ByteArray: signed bytes without brackets,
	// "66, 0, -1", one message a line.
	KotlinJoin Format = "kotlin-join"
	// RustHex is Rust's {:02x?} of a &[u8]: "[42, 00, ff]".
	RustHex Format = "rust-hex"
	// CSharp is C#'s BitConverter.ToString: "42-00-FF", one message a line.
	CSharp Format = "csharp"
	// TCPPayload is tshark -T fields -e tcp.payload: a TCP segment's payload in hex a line, with
	// other fields (tcp.stream, ports, addresses) apart by tabs or not; the segments are joined
	// into each direction's stream and read as a capture's.
	TCPPayload Format = "tshark-payload"
	// HexItems is tshark -T fields -e pgsql.copydata: hex items apart by commas, one frame a
	// line; each item is a message.
	HexItems Format = "tshark-fields"
	// CBytes is C source: {0x42, …} initializers, as xxd -i writes them.
	CBytes Format = "c"
	// Xxd is xxd's default dump: "00000000: 4200 0000 …  B...".
	Xxd Format = "xxd"
	// HexdumpC is hexdump -C: "00000000  42 00 …  |B...|", ending with the length line.
	HexdumpC Format = "hexdump -C"
	// Od is od in any of its forms: od, od -x, -t x2, -t x1, -t x1z, -b, -c, -d, with any -A
	// offsets: "0000000 000102 000000 …", ending with the length line. Words of two or more
	// bytes are read in little-endian order, the order of the machines that print them.
	Od Format = "od"
	// Hexdump is hexdump's default, -x, -d and -o (16-bit words), -b (octal bytes) and -c
	// (characters, as od -c writes them), after a 7-digit hex offset.
	Hexdump Format = "hexdump"
	// Frames is tshark -x (or Wireshark's "Copy as Hex Dump") of whole frames, one or many:
	// Ethernet or Linux cooked (v1, v2) frames with IPv4 or IPv6 TCP segments, whose streams
	// are read as a capture's. Detection reads a Wireshark dump as frames when every block is one.
	Frames Format = "tshark -x"
	// WiresharkDump is Wireshark's "Copy as Hex Dump" or "Hex + ASCII Dump": "0000   42 00 …   B...".
	WiresharkDump Format = "wireshark-dump"
	// XxdPlain is xxd -p: one message as plain hex wrapped at 60 digits a line.
	XxdPlain Format = "xxd -p"
	// WiresharkStream is Wireshark's "Copy as a Hex Stream": one message, one run of hex digits.
	// Detection calls such a run Hex; force WiresharkStream to join several lines into one message.
	WiresharkStream Format = "wireshark-stream"
	// Hex is plain hex, one message per non-empty line.
	Hex Format = "hex"
	// Base64 is standard base64 (RFC 4648 §4), padded or not, one message per non-empty line.
	Base64 Format = "base64"
	// Base64Wrapped is one base64 text wrapped over lines, as base64(1) (76 columns), openssl
	// and PEM (64) write a file: the lines are joined. Detection tries it before Base64 and
	// keeps the reading whose messages decode.
	Base64Wrapped Format = "base64 wrapped"
	// Base64URL is URL-safe base64 (RFC 4648 §5), padded or not, one message per non-empty line.
	Base64URL Format = "base64url"
)

// Formats returns every format Parse knows, in detection order, for menus and flag help.
func Formats() []Format {
	f := make([]Format, len(parsers))
	for i, p := range parsers {
		f[i] = p.format
	}
	return f
}

// Message is one message's bytes as found in the text.
type Message struct {
	// Bytes are the message's bytes. Parse's messages share one backing array; each Bytes has
	// its capacity cut to its length, so appending to one never overwrites another.
	Bytes []byte
	// Line is the 1-based line of the text where the message starts; 0 for binary input
	// (pcap, pcapng, copyboth, pg_recvlogical, binary), which has no lines.
	Line int
	// LSN is the row's lsn (psql output) or the line's LSN (capture file), when HasLSN.
	LSN uint64
	// HasLSN says whether the text gave the message an LSN.
	HasLSN bool
	// Xid is the row's xid (psql output), when HasXid.
	Xid uint32
	// HasXid says whether the text gave the message an xid.
	HasXid bool
	// Offset is the byte offset in the text where the message starts (for binary input and
	// dumps of it: where its first byte is written).
	Offset int
	// Frame is the 1-based number of the captured frame holding the message's first byte
	// (pcap, pcapng and Wireshark dumps of frames), or 0.
	Frame int
	// Side is who sent the message, when the input holds a connection's two directions (a
	// packet capture, tshark's follow output): the whole conversation is read, and each
	// message is decoded as what its side sends (decoder.Conversation). SideUnknown otherwise.
	Side decoder.Side
	// Conn is the 1-based number of the message's connection in Result.Connections, or 0.
	Conn int
	// Time is the capture time of the frame holding the message's first byte, Unix
	// nanoseconds, or 0 when the input has none.
	Time int64
	// Lost counts the bytes of the message's direction lost right before it (Connection.Lost):
	// messages are missing there.
	Lost int
}

// Result is what Parse found.
type Result struct {
	// Format is the forced or detected format.
	Format Format
	// Messages are the messages in text order.
	Messages []Message
	// Header holds a capture file's "#" lines, without the "#" and one following space,
	// including the "pgoutput-inspect capture v1" line. Nil for other formats.
	Header []string
	// Notes are sentences to read with the messages: how the text was read where it could be
	// read more than one way (the byte order of 16-bit words, a file split into messages by
	// their lengths), what the text holds besides messages, a message cut short.
	Notes []Note
	// Also lists other readings of the whole text, less likely than the one taken; forcing
	// their format gives them.
	Also []Alternative
	// More counts the messages ParseAtMost read past its limit and left out (0: none).
	More int
	// Errors are the problems met when the text could be read only in part, in text order;
	// Parse's error is the first. Messages then holds every message that could be read.
	Errors []*Error
	// Connections are the PostgreSQL connections of a packet capture (or a followed stream),
	// in the order of their first messages; Message.Conn numbers them from 1.
	Connections []Connection
}

// Note is a sentence about the input or one of its messages.
type Note struct {
	// Message is the index in Result.Messages of the message the note is about, or -1 for
	// the whole input.
	Message int
	// Text is the sentence.
	Text string
}

// Alternative is another reading of the whole text.
type Alternative struct {
	// Format is the format to force for this reading.
	Format Format
	// Messages is how many messages it gives.
	Messages int
	// Note says why it was not taken.
	Note string
}

// Error says where and why text does not fit a format.
type Error struct {
	// Line and Column are 1-based; Column counts characters (code points), a tab counting one.
	Line, Column int
	// Offset is the byte offset in the text of the character that does not fit.
	Offset int
	// Format is the forced format, or the most plausible one: the candidate that read furthest.
	Format Format
	// Tried lists the formats tried, in order.
	Tried []Format
	// Msg says what was expected and what was there.
	Msg string
	// End is the byte offset just past the text the error is about (at least Offset+1 when
	// there is a character there), so that a page can select it.
	End int
}

// Error returns "line L, column C: FORMAT: MSG (tried: …)".
func (e *Error) Error() string {
	// Appending to a []byte: strings.Builder's WriteString, inlined at every call, made this
	// method 4 KB bigger in the page's WASM.
	// size: docs/performance.md, "Size tricks".
	b := []byte("line ")
	b = strconv.AppendInt(b, int64(e.Line), 10)
	b = append(b, ", column "...)
	b = strconv.AppendInt(b, int64(e.Column), 10)
	b = append(b, ": "...)
	if e.Format != Auto {
		b = append(b, e.Format...)
		b = append(b, ": "...)
	}
	b = append(b, e.Msg...)
	if len(e.Tried) > 1 {
		b = append(b, " (tried: "...)
		for i, f := range e.Tried {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(b, f...)
		}
		b = append(b, ')')
	}
	return string(b)
}

// newError places a failure at byte offset off of text.
func newError(text []byte, off int, f Format, msg string) *Error {
	if off > len(text) {
		off = len(text)
	}
	if off < 0 {
		off = 0
	}
	line, start := 1, 0
	for i := 0; i < off; i++ {
		if text[i] == '\n' {
			line++
			start = i + 1
		}
	}
	end := off
	if off < len(text) {
		_, n := utf8.DecodeRune(text[off:])
		end += n
	}
	return &Error{Line: line, Column: utf8.RuneCount(text[start:off]) + 1, Offset: off, End: end, Format: f, Msg: msg}
}

// describe names the character at off for an error message: 'g', '\t', end of line, end of input.
func describe(text []byte, off int) string {
	if off >= len(text) {
		return "end of input"
	}
	c := text[off]
	if c == '\n' || c == '\r' {
		return "end of line"
	}
	if c < utf8.RuneSelf {
		return strconv.QuoteRune(rune(c))
	}
	r, _ := utf8.DecodeRune(text[off:])
	return strconv.QuoteRune(r)
}
