package input

import (
	"bytes"
	"strconv"
	"strings"

	"pgoutput-inspector/decoder"
)

// failure is a format reader's verdict: the byte offset in the text of the first character that
// does not fit, and what was expected there.
type failure struct {
	off int
	msg string
	// cut: the message being read is known to be a stub (a tool printed only its start), so it
	// is left out rather than decoded.
	cut bool
}

// fail builds a failure at off whose message ends with what is there: "expected X, found 'g'".
func (s *state) fail(off int, expected string) *failure {
	what := describe(s.text, off)
	if off >= len(s.text) && s.endName != "" {
		what = s.endName
	}
	return &failure{off: off, msg: expected + ", found " + what}
}

// failf builds a failure at off with a complete message.
func failf(off int, msg string) *failure { return &failure{off: off, msg: msg} }

// state is one attempt at reading text in one format. The output bytes of all messages go to
// one buffer; starts[i] is where message i begins in it.
type state struct {
	text   []byte
	auto   bool // detecting: readers may refuse ambiguous text they would accept when forced
	buf    []byte
	msgs   []Message
	starts []int
	header []string
	// headerOff holds the byte offset of each header line (a stream places the "#" lines that
	// come between messages by it).
	headerOff []int
	notes     []Note
	// continued: the text goes on from text read before (a Stream's later piece), so a
	// capture file's first line is not expected in it.
	continued bool
	// skipped are failures a reader read past: a psql row whose value cannot be read is left
	// out, and the rows after it are read (see withSkipped).
	skipped []*failure
	// endName names the end of text in messages when text is a piece of the input
	// ("the end of the value"); empty means "end of input".
	endName string
	// words is the layout of the od or hexdump output being read; wordToks the values of
	// the row in hand, wordNext the offset after it (rows without offsets), wordOdd that the
	// last word's padding was not zero.
	words    *wordSpec
	wordToks []odToken
	wordNext uint64
	wordOdd  bool
	// wordLength: the dump ended with its length line.
	wordLength bool
	// labels: the dump may hold tshark -x's "Frame (N bytes):" lines.
	labels bool
	// rows maps a dump's output bytes to the rows they came from (see unwrap).
	rows []dumpRowRef
	// row is the psql row being read (see newRow).
	row psqlRow
	// lineOff and lineNo remember where lineAt last counted to.
	lineOff, lineNo int
	// named is the format a reader found the text to be in when it is another's: the readers
	// of psql -A rows and base64 lines also read what psql's aligned output shows without
	// its header and rule, and name it so when detecting.
	named Format
	// limit, when above zero, is the most messages kept (ParseAtMost); more counts those read
	// past it, whose bytes start at overAt in buf; spare takes what readers write to them.
	limit, more, overAt int
	spare               Message
	// conns are a capture's connections (Result.Connections).
	conns []Connection
	// tabSess decodes the readings of psql values whose blanks may be tabs (displayReadings).
	tabSess *decoder.Session
	// frameCut says where the last of a dump's frames ends inside a message (see asFrames).
	frameCut *failure
	// also is another reading of the whole text (Result.Also).
	also []Alternative
	// marks are where psql rows began, for a Stream that cuts the text between them.
	marks rowMarks
}

// reset empties the state for another attempt, keeping its buffers.
func (s *state) reset() {
	s.buf = s.buf[:0]
	s.msgs = s.msgs[:0]
	s.starts = s.starts[:0]
	s.header = nil
	s.headerOff = s.headerOff[:0]
	s.notes = nil
	s.wordNext, s.wordOdd, s.wordLength = 0, false, false
	s.rows = s.rows[:0]
	s.skipped = s.skipped[:0]
	s.lineOff, s.lineNo = 0, 0
	s.more, s.overAt = 0, 0
	s.conns = nil
	s.frameCut, s.also = nil, nil
}

// begin starts a message whose text starts at byte offset off.
func (s *state) begin(off int) *Message {
	if s.limit > 0 && len(s.msgs) >= s.limit {
		// Past the limit: counted, not kept, so that a text of millions of messages is
		// refused for its count without first holding them all.
		if s.more == 0 {
			s.overAt = len(s.buf)
		}
		s.more++
		s.spare = Message{}
		return &s.spare
	}
	s.starts = append(s.starts, len(s.buf))
	s.msgs = append(s.msgs, Message{Line: s.lineAt(off), Offset: off})
	return &s.msgs[len(s.msgs)-1]
}

// result hands the messages out, each Bytes a capacity-limited view of the shared buffer.
func (s *state) result(f Format) *Result {
	msgs := s.msgs
	s.msgs = nil // the result owns them now
	if s.more > 0 {
		s.buf = s.buf[:s.overAt]
	}
	for i := range msgs {
		end := len(s.buf)
		if i+1 < len(s.starts) {
			end = s.starts[i+1]
		}
		msgs[i].Bytes = s.buf[s.starts[i]:end:end]
	}
	return &Result{Format: f, Messages: msgs, Header: s.header, Notes: s.notes, More: s.more, Connections: s.conns, Also: s.also}
}

// finish hands out the result of a complete read. A dump of one file is looked at once more:
// it may be a packet capture or a pg_recvlogical file (see unwrap).
func (s *state) finish(f Format) *Result {
	if s.named != Auto && s.auto {
		f = s.named // a forced format keeps its name
	}
	switch f {
	case Pcap, Pcapng, CopyBoth, RecvLogical, Binary:
		// Bytes have no lines: Offset (and Frame, for captures) say where a message is.
		for i := range s.msgs {
			s.msgs[i].Line = 0
		}
	}
	switch f {
	case Xxd, XxdPlain, HexdumpC, Hexdump, Od, WiresharkStream, Base64Wrapped:
		s.unwrap()
	case WiresharkDump:
		// Forced, a dump is its bytes; detecting, a dump of frames is read as tshark -x.
		if s.auto && s.asFrames() {
			f = Frames
		}
	}
	return s.result(f)
}

// done hands out a result read whole, with the error of frames that end inside a message.
func (s *state) done(r *Result, tried []Format) (*Result, error) {
	if s.frameCut == nil {
		return r, nil
	}
	e := newError(s.text, s.frameCut.off, r.Format, s.frameCut.msg)
	e.Tried = tried
	r.Errors = []*Error{e}
	return r, e
}

// growMessages makes room for n more messages.
func (s *state) growMessages(n int) {
	if s.limit > 0 {
		n = min(n, s.limit-len(s.msgs)) // no room for messages that will not be kept
	}
	if cap(s.msgs)-len(s.msgs) < n {
		s.msgs = append(make([]Message, 0, len(s.msgs)+n), s.msgs...)
		s.starts = append(make([]int, 0, len(s.starts)+n), s.starts...)
	}
}

// grow makes room for about n more output bytes, so that the common case allocates once.
func (s *state) grow(n int) {
	if cap(s.buf)-len(s.buf) < n {
		nb := make([]byte, len(s.buf), len(s.buf)+n)
		copy(nb, s.buf)
		s.buf = nb
	}
}

// lineAt returns the 1-based line number of byte offset off, counting on from the previous
// call, so that numbering the messages of a text costs one pass over it.
func (s *state) lineAt(off int) int {
	if off < s.lineOff || s.lineNo == 0 {
		s.lineOff, s.lineNo = 0, 1
	}
	s.lineNo += bytes.Count(s.text[s.lineOff:off], []byte{'\n'})
	s.lineOff = off
	return s.lineNo
}

// lineOf returns the 1-based line number of byte offset off.
func lineOf(text []byte, off int) int {
	if off > len(text) {
		off = len(text)
	}
	return bytes.Count(text[:off], []byte{'\n'}) + 1
}

// nextLine returns the line starting at off without its "\n" or "\r\n", and where the next
// line starts (len(text) after the last line).
func nextLine(text []byte, off int) (line []byte, next int) {
	i := bytes.IndexByte(text[off:], '\n')
	if i < 0 {
		line, next = text[off:], len(text)
	} else {
		line, next = text[off:off+i], off+i+1
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, next
}

// isSpace reports whether c is a blank that separates things on a line.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' }

// isBlank reports whether b holds only white space.
func isBlank(b []byte) bool {
	for _, c := range b {
		if !isSpace(c) && c != '\n' {
			return false
		}
	}
	return true
}

// trimSpace returns the offsets of line (which starts at byte offset off) without leading and
// trailing blanks.
func trimSpace(line []byte, off int) (start, end int) {
	i, j := 0, len(line)
	for i < j && isSpace(line[i]) {
		i++
	}
	for j > i && isSpace(line[j-1]) {
		j--
	}
	return off + i, off + j
}

// sample is what sniffers look at: the first two non-blank lines and the start of the text.
type sample struct {
	text          []byte
	first, second []byte
	lines         int // non-blank lines, counted up to 3
}

// sniffWindow bounds how much of the text sniffers look at, so that detection costs the same
// for a megabyte as for a line.
const sniffWindow = 64 << 10

func newSample(text []byte) *sample {
	if len(text) > sniffWindow {
		text = text[:sniffWindow]
	}
	sm := &sample{text: text}
	for off := 0; off < len(text) && sm.lines < 3; {
		line, next := nextLine(text, off)
		off = next
		if isBlank(line) {
			continue
		}
		switch sm.lines {
		case 0:
			sm.first = line
		case 1:
			sm.second = line
		}
		sm.lines++
	}
	return sm
}

// reader is one format: a cheap look at the text that says whether detection should try it
// (nil: always), and the reader itself.
type reader struct {
	format Format
	sniff  func(*sample) bool
	read   func(*state) *failure
	// lines: each line of the text is read on its own, so after a bad line reading can go on
	// with the next (see readOn).
	lines bool
}

// parsers is the detection order. A text goes to the first format whose sniff accepts it and
// whose reader reads all of it.
var parsers = [...]reader{
	{Pcap, sniffPcap, readPcap, false},
	{Pcapng, sniffPcapng, readPcap, false},
	{CopyBoth, sniffBinary, readCopyBoth, false},
	{RecvLogical, sniffBinary, readRecvLogical, false},
	{Binary, sniffBinary, readBinary, false},
	{Capture, sniffCapture, readCapture, true},
	{PsqlExpanded, sniffPsqlExpanded, readPsqlExpanded, false},
	{PsqlAligned, sniffPsqlAligned, readPsqlAligned, false},
	{PsqlHTML, sniffPsqlHTML, readPsqlHTML, false},
	{PsqlAsciidoc, sniffPsqlAsciidoc, readPsqlAsciidoc, false},
	{Copy, sniffCopy, readCopy, false},
	{PsqlCSV, sniffPsqlCSV, readPsqlCSV, false},
	{PsqlUnaligned, sniffPsqlUnaligned, readPsqlUnaligned, false},
	{Follow, sniffFollow, readFollow, false},
	{NodeBuffer, sniffNodeBuffer, readNodeBuffer, false},
	{NodeUint8Array, sniffNodeUint8Array, readNodeUint8Array, false},
	{GoBytes, sniffGo, readGo, false},
	{GoPrint, sniffGoPrint, readGoPrint, false},
	{GoString, sniffGoString, readGoString, false},
	{PythonBytes, sniffPython, readPython, false},
	{ElixirBinary, sniffElixir, readElixir, false},
	{JSONArray, sniffJSON, readJSON, false},
	{Java, sniffBracketList, readJava, false},
	{RustHex, sniffBracketList, readRustHex, false},
	{KotlinJoin, sniffKotlinJoin, readKotlinJoin, true},
	{CBytes, sniffC, readC, false},
	{Xxd, sniffXxd, readXxd, false},
	{HexdumpC, sniffHexdumpC, readHexdumpC, false},
	{Hexdump, sniffHexdumpWords, readHexdumpWords, false},
	{Od, sniffOdWords, readOdWords, false},
	{Frames, func(*sample) bool { return false }, readFrames, false},
	{WiresharkDump, sniffWiresharkDump, readWiresharkDump, false},
	{XxdPlain, sniffXxdPlain, readXxdPlain, false},
	{WiresharkStream, func(*sample) bool { return false }, readWiresharkStream, false},
	{CSharp, sniffCSharp, readCSharp, true},
	{TCPPayload, sniffTCPPayload, readTCPPayload, false},
	{HexItems, sniffHexItems, readHexItems, true},
	{Hex, nil, readHex, true},
	{Base64Wrapped, sniffBase64Wrapped, readBase64Wrapped, false},
	{Base64, nil, readBase64, true},
	{Base64URL, nil, readBase64URL, true},
}

// Parse reads the bytes in text. With force == Auto it detects the format, trying the formats
// in the order the package comment gives and taking the first that reads the whole text;
// otherwise it reads text as force. The error, when there is one, is an *Error.
func Parse(text []byte, force Format) (*Result, error) { return ParseAtMost(text, force, 0) }

// ParseAtMost is Parse keeping at most limit messages (limit <= 0: all): Result.More counts
// the messages read past it, which are not kept, so that a text of more messages than a
// reader can hold is refused for that after one pass and without holding them.
func ParseAtMost(text []byte, force Format, limit int) (*Result, error) {
	if isPcap(text) || isPcapng(text) || isBinary(text) || (force == Auto || force == Od) && odNoOffsets(text) {
		// Bytes, not a paste: nothing to clean. od -A n's rows start with the blank that
		// cleaning would take for indentation.
		return parseLimit(text, force, limit)
	}
	p := cleanPaste(text)
	r, err := parseLimit(p.text, force, limit)
	if !p.changed {
		return r, err
	}
	// Positions found in the cleaned text are moved back to the text as pasted.
	fix := func(e *Error) {
		end, tried := p.origOffset(e.End), e.Tried
		*e = *newError(text, p.origOffset(e.Offset), e.Format, e.Msg)
		e.Tried, e.End = tried, max(end, e.Offset)
	}
	if e, ok := err.(*Error); ok {
		fix(e)
	}
	if r != nil {
		for _, e := range r.Errors {
			if e != err {
				fix(e)
			}
		}
		for i := range r.Messages {
			r.Messages[i].Offset = p.origOffset(r.Messages[i].Offset)
		}
		if p.note != "" {
			r.Notes = append([]Note{{Message: -1, Text: p.note}}, r.Notes...)
		}
	}
	return r, err
}

// parse is Parse on text cleaned of a paste's indentation, quoting, fences and line ends.
func parse(text []byte, force Format) (*Result, error) { return parseLimit(text, force, 0) }

// parseLimit is parse keeping at most limit messages (see ParseAtMost).
func parseLimit(text []byte, force Format, limit int) (*Result, error) {
	s := &state{text: text, auto: force == Auto, limit: limit}
	if r := detectedAs(text, force, limit); r != nil {
		return r, nil
	}
	if force != Auto {
		for i := range parsers {
			if parsers[i].format == force {
				if isBlank(text) {
					return nil, blankError(text, []Format{force}, force)
				}
				if f := parsers[i].read(s); f != nil {
					return s.readOn(&parsers[i], f, []Format{force})
				}
				if len(s.skipped) > 0 {
					return s.withSkipped(force, []Format{force})
				}
				return s.done(s.finish(force), []Format{force})
			}
		}
		names := make([]string, len(parsers))
		for i := range parsers {
			names[i] = string(parsers[i].format)
		}
		return nil, &Error{Line: 1, Column: 1, Format: force, Tried: []Format{force},
			Msg: "unknown format; the formats are " + strings.Join(names, ", ")}
	}
	if isBlank(text) {
		return nil, blankError(text, nil, Auto)
	}
	sm := newSample(text)
	var tried []Format
	var best *failure
	var bestReader *reader
	hexLikeDone, hexLikeVal := false, false
	hexLike := func(text []byte) bool {
		if !hexLikeDone {
			hexLikeDone, hexLikeVal = true, mostlyHex(text)
		}
		return hexLikeVal
	}
	for i := range parsers {
		p := &parsers[i]
		if p.sniff != nil && !p.sniff(sm) {
			continue
		}
		if (p.format == Base64 || p.format == Base64URL) && hexLike(text) {
			// Hex, tried first, failed, yet almost every character is a hex digit: this is hex
			// with a typo far more likely than base64, and base64 would hide the typo.
			continue
		}
		tried = append(tried, p.format)
		s.reset()
		s.named = Auto
		f := p.read(s)
		if f == nil && len(s.skipped) > 0 {
			if len(s.msgs) > len(s.skipped) {
				return s.withSkipped(p.format, tried)
			}
			f = s.skipped[0] // more failed than read: maybe not this format at all
		}
		if f == nil {
			r := s.finish(p.format)
			if r.More > 0 || s.frameCut != nil {
				// More messages than the caller keeps, or frames cut: no other reading matters.
				return s.done(r, tried)
			}
			return choose(text, r), nil
		}
		if p.format == Pcap || p.format == Pcapng {
			// The magic number says it is a capture: why it gave nothing is the answer.
			return s.readOn(p, f, tried)
		}
		if best == nil || f.off > best.off {
			best, bestReader = f, p
		}
	}
	// No format reads all of the text: read as much as the most plausible one can.
	s.reset()
	s.auto = false
	f := bestReader.read(s)
	if f == nil && len(s.skipped) > 0 {
		return s.withSkipped(bestReader.format, tried) // it read past more failures than messages
	}
	if f == nil { // cannot happen: the reader failed on the same text before
		f = best
	}
	return s.readOn(bestReader, f, tried)
}

// detectedAs returns detection's reading of text when it names it the format forced, for
// the formats that detection names after what other readers read (see state.named): psql's
// aligned rows without their header (psql -t) and an expanded record's field lines.
func detectedAs(text []byte, force Format, limit int) *Result {
	if force != PsqlAligned && force != PsqlExpanded {
		return nil
	}
	if r, err := parseLimit(text, Auto, limit); err == nil && r.Format == force {
		return r
	}
	return nil
}

// maxErrors bounds how many bad lines reading skips before it gives up on the rest.
const maxErrors = 100

// readOn makes the most of a text that reader p failed on at f: the messages read before the
// failure, the message it cut short, and, for formats whose lines are messages of their own,
// every other line, with each bad line skipped. The first error is returned with the partial
// result (nil when no message could be read), and Result.Errors lists all of them.
func (s *state) readOn(p *reader, f *failure, tried []Format) (*Result, error) {
	text := s.text
	if e := arrayIdentity(text, tried); e != nil {
		return nil, e // a known mistake: what to print instead says more than where reading stopped
	}
	e := newError(text, f.off, p.format, f.msg+ocrHint(text, f.off, p.format, f.msg))
	e.Tried = tried
	errs := []*Error{e}
	if p.lines {
		masked := append([]byte(nil), text...)
		for len(errs) < maxErrors {
			maskLine(masked, f.off)
			s.text = masked
			s.reset()
			prev := f.off
			if f = p.read(s); f == nil {
				break
			}
			if f.off == prev { // masking did not help: the failure is not about one line
				break
			}
			e := newError(text, f.off, p.format, f.msg)
			e.Tried = tried
			errs = append(errs, e)
		}
		s.text = text
		if f != nil { // too many bad lines: keep what came before the last
			s.cutAt(f.off)
		}
	} else if n := len(s.msgs); n > 0 && (s.starts[n-1] == len(s.buf) || f.cut) {
		s.buf = s.buf[:s.starts[n-1]]
		s.msgs, s.starts = s.msgs[:n-1], s.starts[:n-1] // the message the failure cut held no bytes yet
	} else if n > 0 {
		s.note(n-1, "This message ends where the text could not be read (line "+itoa(e.Line)+", column "+
			itoa(e.Column)+"), so it may be cut short.")
	}
	if len(s.msgs) == 0 {
		return nil, e
	}
	r := s.finish(p.format)
	r.Errors = errs
	return r, e
}

// cutAt drops the messages that start at or after byte offset off of the text.
func (s *state) cutAt(off int) {
	n := len(s.msgs)
	for n > 0 && s.msgs[n-1].Offset >= off {
		n--
	}
	if n < len(s.msgs) {
		s.buf = s.buf[:s.starts[n]]
	}
	s.msgs, s.starts = s.msgs[:n], s.starts[:n]
}

// maskLine blanks the line of text holding byte offset off, keeping every offset in place.
func maskLine(text []byte, off int) {
	if off >= len(text) || (off > 0 && text[off] == '\n') {
		off-- // the failure is at the end of its line
	}
	if off < 0 {
		return
	}
	for i := off; i >= 0 && text[i] != '\n'; i-- {
		text[i] = ' '
	}
	for i := off + 1; i < len(text) && text[i] != '\n'; i++ {
		text[i] = ' '
	}
}

// note adds a note about message m (-1: the whole input).
func (s *state) note(m int, text string) { s.notes = append(s.notes, Note{Message: m, Text: text}) }

// itoa formats a small non-negative number.
func itoa(n int) string { return strconv.Itoa(n) }

func blankError(text []byte, tried []Format, f Format) *Error {
	e := newError(text, 0, f, "no input: the text is empty or only white space")
	e.Tried = tried
	return e
}

// mostlyHex reports whether at most one in 16 of the text's letters, digits and base64
// punctuation falls outside the hex digits. Base64 of real messages has far more: each
// non-hex letter is as likely as a hex one.
func mostlyHex(text []byte) bool {
	hex, other := 0, 0
	for _, c := range text {
		switch b64Std[c] | b64URL[c] {
		case 0:
			if c == '=' {
				other++
			}
		default:
			if hexVal(c) != 0xff {
				hex++
			} else {
				other++
			}
		}
	}
	return other*16 <= hex+other
}

// ocrHint explains a letter that text recognition (OCR) of a screenshot puts where a digit
// belongs in hex: O for 0, l and I for 1, S for 5, Z for 2, G for 6, B for 8 is a hex digit.
func ocrHint(text []byte, off int, f Format, msg string) string {
	if off >= len(text) || !strings.Contains(msg, "hex digit") {
		return ""
	}
	switch f {
	case Hex, Xxd, XxdPlain, HexdumpC, Hexdump, Od, WiresharkDump, WiresharkStream, CSharp, HexItems, Capture:
	default:
		return ""
	}
	digit := map[byte]string{'O': "0", 'o': "0", 'l': "1", 'I': "1", 'S': "5", 'Z': "2", 'G': "6", 'q': "9"}[text[off]]
	if digit == "" {
		return ""
	}
	return "; if the text was recognised from a screenshot (OCR), this " + strconv.QuoteRune(rune(text[off])) +
		" is likely a " + digit + ": OCR confuses them, so check the text against the picture"
}

// withSkipped returns what a reader read when it read past failures: the messages, and an
// error for each failure (the first is also the error returned).
func (s *state) withSkipped(f Format, tried []Format) (*Result, error) {
	errs := make([]*Error, len(s.skipped))
	for i, k := range s.skipped {
		errs[i] = newError(s.text, k.off, f, k.msg)
		errs[i].Tried = tried
	}
	if len(s.msgs) == 0 {
		return nil, errs[0]
	}
	r := s.finish(f)
	r.Errors = errs
	return r, errs[0]
}
