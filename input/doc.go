// Package input turns text as a person pastes it into message bytes, naming the format it
// found, and keeps the LSN and xid that psql rows and capture files carry with each message.
//
//	r, err := input.Parse(text, input.Auto) // or a forced format, e.g. input.Xxd
//	// r.Format names what was found; r.Messages[i].Bytes, .Line, .LSN/.HasLSN, .Xid/.HasXid
//	// err is an *Error: Line, Column, Offset, the Format it fits best, the Formats tried.
//
// # Formats, in detection order
//
// Detection looks at the start of the text (the first 64 KiB) to pick the candidate formats,
// tries them in this order, and takes the first that reads the whole text. Formats() lists
// them in the same order; every one can also be forced.
//
// Binary input comes first: a file is binary when it starts with a pcap or pcapng magic
// number or holds bytes no text holds (control characters, bytes that are not UTF-8); it is
// read as it is, never cleaned as a paste.
//
//   - pcap, pcapng: packet captures. Frames (Ethernet, Linux cooked v1/v2, loopback, raw IP;
//     IPv4, IPv6) to TCP segments; each connection's two streams in sequence order
//     (retransmissions dropped, gaps skipped); the PostgreSQL protocol's messages read from
//     the startup on, or from where three messages follow one another when the capture began
//     mid-stream; the CopyData messages of both directions, envelope included, in the order
//     their first bytes were captured (Message.Frame).
//   - copyboth: the bytes of a replication connection's CopyBoth stream, as a raw dump of one
//     direction after CopyBothResponse gives them (with the 'W' message or not; both
//     directions' messages interleaved, whole, read as well): protocol messages one after
//     another, each a type byte and an Int32 length, CopyData among them, to the end of the
//     file. Each message is its own, a CopyData with a standby status update ('r') or hot
//     standby feedback ('h') the client's, the others the server's.
//   - pg_recvlogical: a pg_recvlogical -f file (-P pgoutput): every message followed by a
//     newline. Newline bytes also occur inside messages, so each message ends at the first
//     newline where it decodes completely (package decoder), skipping those a truncated
//     field's length rules out.
//   - binary: one message's raw bytes.
//
// Text formats:
//
//   - capture: the capture file. First line "# pgoutput-inspect capture v1"; then "#" header
//     lines (Result.Header) and "LSN HEX" lines, one message each, LSN kept.
//   - psql-expanded: psql's \x display in every linestyle and border: "* Record 1" (border 0),
//     "-[ RECORD 1 ]---" (1), "+-[ RECORD 1 ]---+" or "┌─[ RECORD 1 ]──┐" (2), then "name | value"
//     lines. A paste may start at any record (a note says so), or be the field lines of one
//     record without its heading ("lsn  | 0/1522A60": blanks before the bar, unlike -A -x).
//   - psql-aligned: psql's table, aligned or \pset format wrapped, in every \pset linestyle
//     (ascii, old-ascii, unicode) and border (0, 1, 2): header, rule, rows, "(N rows)" footer
//     (a count that does not match the rows is a note). The rule gives each column's place, so
//     cells are read by position. Values continued on the next line are joined: a line break
//     in the value ('+', '↵', old-ascii ':') or a wrap ('.', '…', ';'). Prompts, echoed
//     commands, psql's banner and messages, timing lines and several tables one after another
//     (a pasted session) are read too; a title line above a table is skipped. Rows without
//     the header and rule (psql -t, or rows selected from a table: a bar with blanks on both
//     sides) are read as psql -A's rows with the blanks and borders dropped, a first cell cut
//     short noted; a -t column of encode(data, 'base64') lines, '+' after those that continue,
//     is read as base64 lines are. A paste that starts at the rule under the header has its
//     columns told by the first row's values; a header that lost its first blanks (a
//     selection from its first visible character) is read where its bars stand.
//     psql's display shows a tab byte of an encode(data, 'escape') value as blanks up to a
//     multiple of 8 columns and hides blanks next to a line break: such values are read in
//     the way, of those the display allows, under which the message decodes (fewest changes
//     first, a note when anything was changed and another when a second way decodes too);
//     none decoding is an error.
//   - psql-html: psql -H, tables and expanded records; entities and <br /> undone.
//   - psql-asciidoc: \pset format asciidoc, tables and expanded records.
//   - copy: COPY (…) TO STDOUT in the text format: tab-separated, COPY's backslash escapes
//     undone (bytea is "\\x…" there, encode(data, 'base64')'s line breaks "\n"), header line
//     optional.
//   - psql-csv: psql --csv and COPY … (FORMAT csv), header optional, quoted fields, --csv -x.
//   - psql-unaligned: psql -A with any field separator (-F '|', '\t', ';', -z for a zero
//     byte), "lsn|xid|data" header and footer optional (-t), and psql -A -x. A column of
//     encode(data, 'base64') runs on over lines of 76 characters; one of encode(data,
//     'escape') (only "\000", "\\" and bytes from "\200" escaped: bytea_output = 'escape'
//     escapes control bytes too) leaves newline bytes raw, so its rows end at the first line
//     break where a message decodes, as in a pg_recvlogical file. A carriage return before a
//     line end is the value's own unless the text's lines end in CRLF. Forced, it reads
//     the rows of an aligned table without its header too (detection names them
//     psql-aligned). In every psql form, columns are found by name: lsn, xid, data (or encode, or an alias; extra columns are
//     ignored, in any order); a one-column result is the data whatever its name. A data value
//     is "\x" and hex (bytea), bytea_output = 'escape' or encode(data, 'escape') (octal
//     escapes; psql's aligned forms show control bytes as \xHH), encode(data, 'hex') or
//     encode(data, 'base64') (its line breaks skipped), in every psql form. A value the paste
//     cut in the middle is read as far as it goes, with a note.
//   - tshark-follow: tshark -z follow,tcp,hex or follow,tcp,raw; the second node's chunks
//     are indented by a tab. Read as a capture's connection.
//   - node-buffer: console.log of a Buffer, "<Buffer 42 00 …>"; node-uint8array:
//     "Uint8Array(21) [ 66, 0, … ]". Node cuts them ("… 181 more bytes>", "… 142 more
//     items"): that is an error saying so and how to print all of it, not a stub decoded.
//   - go: []byte{0x42, 'B', 66, 0o102, …}, [N]byte, uint8, [][]byte{{…}, {…}}; comments and
//     the declarations around the literals are skipped. One message per literal.
//   - python: b'…', b"…", rb'…', triple quotes, with Python's escapes; literals that Python
//     would join (adjacent on a line, inside brackets, or across '+') are one message.
//   - elixir: <<66, 0, "text", ?A, 1::32, -1::16-little, 2::size(16)>>; a binary that inspect
//     cut short ("...") is an error, and so is a value wider than its segment (Elixir would
//     silently keep the low bits).
//   - go-print: fmt.Println, %v or %d of a []byte, "[66 0 0 …]", one a line; go-string:
//     %q, "B\x00\x00…".
//   - json: [66, 0, …], several arrays apart by blanks or commas, or [[…], […]]; Node's
//     JSON.stringify of a Buffer, {"type":"Buffer","data":[…]}. Python's list(b) and Rust's
//     {:?} print the same.
//   - java: Arrays.toString(byte[]), signed, "[66, 0, -1]" (Kotlin's contentToString() and
//     toList() print the same); kotlin-join: Kotlin's joinToString(), "66, 0, -1", one message
//     a line; rust-hex: {:02x?}, "[42, 00, ff]". A byte array printed as itself, "[B@1b6d3586"
//     (its type and hash code), is an error that says what to print instead.
//   - c: {0x42, 'B', 0102, …} initializers, as xxd -i writes them, with declarations, comments
//     and preprocessor lines around them; {{…}, {…}} gives one message per inner list.
//   - xxd: "00000000: 4200 0000 …  B...." (any -g grouping and -c width, -u).
//   - hexdump -C: "00000000  42 00 …  |B...|", '*' lines, the closing length line.
//   - hexdump: hexdump's default, -x and -d: 16-bit words after 7-digit hex offsets.
//   - od: od in any form: -t x1, -t x1z (">B...<" column), -b, -c (escapes, octal, "**" after
//     a multi-byte character), words (od, -x, -t x2, -d, -t x4), offsets -A o/d/x/n, '*'
//     lines, the length line. Words of two or more bytes are in the byte order of the machine
//     that printed them and are read little-endian (x86, ARM), with a note; an odd final byte
//     is the low byte of the last word, as the length line says, and its padding must be zero
//     (else the dump is read big-endian, and the note says so).
//   - tshark -x: a Wireshark dump whose blocks are all frames holding a TCP segment, one frame
//     or many (tshark -x, with -Y 'frame.number==N' or -c 1 too; "Copy as Hex Dump" of a
//     frame), behind the same link header: Ethernet (a capture on lo), Linux cooked v2 or v1
//     (on any); IPv4 or IPv6. Their TCP streams are read as a capture's. A server's message
//     that goes on past the last frame (one segment of a CopyData split over several) is kept
//     as far as it goes, with an error that says where it was cut. A single frame whose bytes
//     also decode as one message names wireshark-dump in Result.Also.
//   - wireshark-dump: Wireshark's "Copy Bytes as Hex + ASCII Dump" and "…as Hex Dump":
//     "0000   42 00 …   B....". Forced, the bytes as they are, frames or not.
//   - xxd -p: plain hex wrapped at 60 digits a line, one message.
//   - wireshark-stream: "…as a Hex Stream", one run of hex. Detection reads it as hex (the
//     two look the same); forcing it joins every line into one message.
//   - csharp: BitConverter.ToString, "42-00-FF", one message a line.
//   - tshark-payload: tshark -T fields -e tcp.payload, one frame a line (empty for a frame
//     without payload), other fields apart by tabs or not, a header line (-E header=y) or
//     not. The lines' payloads are joined into streams, one per value of the other fields
//     (two that differ in one field, or hold the same values swapped, are a connection's two
//     directions), and read as a capture's connections. With the payload alone, a line joins
//     the lines before it while their last message is not complete, and each run goes to the
//     side its first message says. Detection takes tab-separated lines of hex, dots and colons;
//     the payload alone is read as hex lines first, and this reading is their rival.
//   - tshark-fields: tshark -T fields -e pgsql.copydata: hex items apart by commas, one frame a
//     line; each item a message (a CopyData payload).
//   - hex: one message per non-empty line. Any case; groups of digits may be separated by
//     blanks or colons and may start with "\x" (psql bytea) or "0x"; every group holds an
//     even number of digits, so "0x0" is an error rather than a guess at a leading zero.
//   - base64, base64url: one message per non-empty line, padding optional; the bits of the
//     last character beyond the last byte must be zero.
//
// A hex dump is one message: its rows are concatenated, their offsets must run on without a
// gap (an error names the row that does not follow), and a row at offset 0 after other rows
// starts the next message. Only the hex column is read: the column ends where the tool
// ends it (two blanks for xxd and Wireshark, '|' for hexdump -C, '>' for od), so hex-looking
// characters in the ASCII column are never taken for bytes. When the ASCII column is there it
// must agree with the bytes, blanks at its ends aside, which catches a row pasted wrongly.
// A '*' line stands for repeats of the row before it, up to 16 MiB.
//
//   - base64 wrapped: base64 over lines of 76 (base64(1), encode(data, 'base64') in psql -At)
//     or 64 (openssl, PEM) characters: each message's lines joined, a shorter line (or a
//     blank one) ending it. A message whose text fills its last line is joined with the next
//     line's too, unless only the lines up to the full one decode (a note says so).
//
// A dump (xxd, xxd -p, hexdump -C, hexdump, od, base64 wrapped) that reads as one message is
// looked at once more: a pcap, pcapng, CopyBoth stream or pg_recvlogical file in it is read
// as such.
//
// Before any text format is read, what the place a paste came through added is taken off,
// with a note: a Markdown code block's or a chat's indentation (a first line indented less
// than the rest loses its own), e-mail quoting ("> ") and code fences.
//
// # Ambiguity
//
//   - Readings decided by decoding: when the messages of the format detected do not all
//     decode, its rivals are read too (hex lines against the lines joined and base64, base64
//     per line against wrapped, JSON against Rust's hex lists, xxd -p against hex lines, hex
//     lines against tshark's tcp.payload lines joined into streams), and
//     the reading with the larger share of messages that decode (package decoder, at most 64
//     messages) is kept. A rival whose messages all decode is listed in Result.Also; a text up
//     to 1 MiB is compared with its rivals also when its own messages all decode, and a rival
//     that decodes too and reads as many bytes is listed (the page offers it as a button, the
//     CLI as --format).
//   - Hex before base64: a line of hex digits only ("42000000") is also valid base64, and is
//     read as hex. Pasted bytes are hex far more often, and base64 of a real message almost
//     always holds letters beyond f. When the text does not read as hex but at most one in 16
//     of its letters and digits lies outside 0-9a-fA-F, base64 is not tried at all: that is hex
//     with a typo, and the error points at the typo instead of yielding base64 garbage.
//   - Base64 before base64url: text with neither '+', '/', '-' nor '_' decodes the same in
//     both, and is named base64.
//   - Dumps before plain hex: "0000  42 00 00" is a Wireshark dump (its first offset is 0000
//     and the rows run on), not the hex 0000420000; two or more lines whose first holds
//     exactly 60 hex digits and nothing else are xxd -p output, one message, not messages of
//     30 bytes.
//   - Source literals before dumps and hex: the literal's syntax decides.
//   - psql before everything but the capture file: the rule line, a record heading, an HTML
//     table, an asciidoc table, tabs with "\\x" values (COPY), a comma-separated or
//     otherwise separated "lsn…" / "X/X…" first line decide.
//
// # Errors
//
// Every failure is an *Error with the line and column (counted in characters) of the first
// character that does not fit, what was expected and what was found. Forced, the error is
// that format's; detecting, it is the error of the candidate that read furthest into the text,
// and Tried lists every candidate.
//
// The package uses the standard library only and neither regexp nor encoding/json, so that it
// stays small in the WebAssembly page. Reading costs one pass over the text; the messages share
// one buffer sized from the text, so memory follows the output.
//
// # Reading as the text arrives
//
// A Stream reads from an io.Reader: it detects the format in the first 64 KiB (a shorter text
// is read whole by Parse), then reads a text in a line format (capture, hex, base64,
// base64url) a piece of complete lines at a time with the same readers, and psql's output
// (psql-aligned with its header, psql-expanded, psql-unaligned, psql-csv, copy) a piece of
// whole rows at a time, each piece after the header and rule its rows need; it hands out
// messages as they are read, so memory does not grow with the text. A value over several
// lines stays with its row: the reader says where each row begins, and the row a piece ends in
// is read again at the start of the next. An xxd or hexdump -C dump of a pg_recvlogical -f
// file (its first window splits into two messages or more) is de-hexed a piece of rows at a
// time, each message handed out once a newline after it ends a message that decodes, with the
// line of the row holding its first byte; the bytes of the message being cut are all it keeps.
// Unlike Parse, which gives such a dump as one message when its tail does not split, it has
// handed out the messages before the tail by then: it gives the rest as one last message, with
// an error naming the byte where no newline ends a message that decodes. Other dumps (od,
// hexdump's words, xxd -p, pcap or CopyBoth bytes in a dump) are read whole. Notes are those
// of the first piece. With Live set, a capture file still being written is read from its
// first message on.
package input
