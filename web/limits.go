package web

import (
	"strconv"
)

// What the page holds. An input above these limits is refused, whether pasted, opened from a
// file, dropped or carried by a link: the page keeps what it showed and says which limit the
// input passed and that the command line tool has none.
const (
	// MaxInput is the most text the page reads, in bytes (16 MiB); a share link stops
	// inflating there.
	MaxInput = 16 << 20
	// MaxMessages is the most messages the page decodes from one input. Each costs about
	// 500 bytes of memory once decoded, and the message list must stay shorter than the
	// tallest box a browser lays out (Firefox: 17,895,697 px; a row is RowHeight px, and a
	// transaction heading can add a row per message).
	MaxMessages = 400_000
	// MaxEditText is the longest text the text box shows for editing (2 MiB). Laying out a
	// textarea costs the browser about half a second per megabyte, far more on a busy
	// machine; a longer input is decoded all the same, and the box shows its start
	// (TextPreview), read-only.
	MaxEditText = 2 << 20
	// previewText is how much of a long input the text box shows.
	previewText = 64 << 10
	// MaxFile is the largest binary file the page reads (64 MiB): a packet capture, a
	// pg_recvlogical file, a raw message. Its bytes are read as they are, not as text, so
	// MaxInput does not bound them; memory does: the page holds the file and the messages
	// read from it (about twice its size) besides their decodes.
	MaxFile = 64 << 20
)

// cliHint is where a refusal sends the reader.
const cliHint = " Decode it with the command line tool, which has no such limit: pgoutput-inspect decode FILE."

// Refusal says why the last input was refused; the page keeps showing the one before.
type Refusal struct {
	// N counts the refusals so far: the text box redraws on each, to show the text kept
	// instead of the text refused.
	N int
	// Msg says what was refused and which limit it passed ("" after an input was accepted).
	Msg string
}

// TooLarge: an input over MaxInput reached the page (a paste, a file, a drop, a link), and
// was not read. Size is its size in bytes, or a lower bound when AtLeast (a JavaScript
// string's length in UTF-16 code units, each at least one byte of UTF-8); What names it ("the
// dropped text", "the file app.capture").
type TooLarge struct {
	Size    int
	AtLeast bool
	What    string
	// File says it is a file over MaxFile.
	File bool
}

func (TooLarge) isAction() {}

// refuse keeps everything s shows and says why the input was refused.
func (s State) refuse(msg string) State {
	s.Refused = Refusal{N: s.Refused.N + 1, Msg: msg}
	return s
}

// tooLargeText is the refusal of an input of size bytes (at least, when atLeast) over MaxInput.
func tooLargeText(what string, size int, atLeast bool) string {
	is := " is "
	if atLeast {
		is = " is at least "
	}
	return upperFirst(what) + is + Commas(size) + " bytes, more than the " + Commas(MaxInput) +
		" bytes (16 MiB) the page reads; the page still shows the input before it." + cliHint
}

// tooMany reports a Doc of more messages than MaxMessages, and how many its text holds.
func (d *Doc) tooMany() (int, bool) {
	if d == nil {
		return 0, false
	}
	n := len(d.Messages) + d.More
	return n, n > MaxMessages
}

// tooLargeFileText is the refusal of a file of size bytes over MaxFile.
func tooLargeFileText(what string, size int) string {
	return upperFirst(what) + " is " + Commas(size) + " bytes, more than the " + Commas(MaxFile) +
		" bytes (64 MiB) of a file the page reads; the page still shows the input before it." +
		" Cut a capture with editcap (editcap -r in.pcapng part.pcapng 1-100000 keeps frames 1 to 100,000)," +
		" or decode it with the command line tool, which has no such limit: pgoutput-inspect decode FILE."
}

// tooManyText is the refusal of an input of n messages, over MaxMessages.
func tooManyText(n int) string {
	return "The input holds " + Commas(n) + " messages, more than the " + Commas(MaxMessages) +
		" the page decodes; the page still shows the input before it." + cliHint
}

// linkTooLargeText is the refusal of a z1 link whose text inflates past MaxInput.
func linkTooLargeText() string {
	return "This link's text inflates to more than " + Commas(MaxInput) +
		" bytes (16 MiB), more than the page reads: the page stopped inflating it there and still shows the input before it." +
		" Ask for the input as a file instead." + cliHint
}

// FileView returns what the text box shows of a binary file's bytes, in place of a dump of
// them: the file's name (name; "" when not known, as for a link's) and size.
func FileView(text, name string) string {
	what := "A binary input of"
	if name != "" {
		what = "The file " + Cut(name, MaxRowText) + ":"
	}
	return "[" + what + " " + Commas(len(text)) + " bytes, decoded as they are; the box shows no dump of a binary file. Paste, type or open a file to replace it.]"
}

// TextPreview returns what the text box shows of a text longer than MaxEditText: its first
// lines, up to 64 KiB, and a line saying how much more there is.
func TextPreview(text string) string {
	head := text[:min(len(text), previewText)]
	if i := lastIndexByte(head, '\n'); i > 0 {
		head = head[:i+1]
	} else {
		head = Cut(head, previewText) + "\n"
	}
	return head + "[… " + Commas(len(text)-len(head)) + " more bytes: the box shows the start of inputs over " +
		Commas(MaxEditText) + " bytes (2 MiB); all " + Commas(len(text)) + " bytes are decoded]"
}

func lastIndexByte(s string, c byte) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// Commas writes n in decimal with thousands separators ("16,777,216").
func Commas(n int) string {
	s := strconv.Itoa(n)
	start := 0
	if n < 0 {
		start = 1
	}
	for i := len(s) - 3; i > start; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func upperFirst(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}
