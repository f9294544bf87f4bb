package input

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// streamAll reads text through a Stream and returns what it handed out: the result of Start,
// every message (copied), the errors and the comments.
func streamAll(t *testing.T, r io.Reader, force Format, window int) (*Result, []Message, []*Error, []Comment, error, bool) {
	t.Helper()
	return streamPieces(t, r, force, window, window)
}

// streamPieces is streamAll with psql's rows read in pieces of pieceSize bytes at least.
func streamPieces(t *testing.T, r io.Reader, force Format, window, pieceSize int) (*Result, []Message, []*Error, []Comment, error, bool) {
	t.Helper()
	st := NewStream(r, force)
	if window > 0 {
		st.window = window
	}
	if pieceSize > 0 {
		st.pieceSize = pieceSize
	}
	res, err := st.Start()
	errs := st.Errors()
	var msgs []Message
	var comments []Comment
	if res != nil {
		for m := st.Next(); m != nil; m = st.Next() {
			c := *m
			c.Bytes = append([]byte(nil), m.Bytes...)
			msgs = append(msgs, c)
			comments = append(comments, st.Comments()...)
			errs = append(errs, st.Errors()...)
		}
		comments = append(comments, st.Comments()...)
		errs = append(errs, st.Errors()...)
	}
	if st.Err() != nil {
		t.Fatalf("read error %v", st.Err())
	}
	return res, msgs, errs, comments, err, st.PieceByPiece()
}

// sameAsParse checks that a Stream hands out what Parse finds in text: the same format,
// messages (bytes, line, offset, LSN, xid) and errors, and the header lines followed by the
// comments are Parse's header.
func sameAsParse(t *testing.T, name string, text []byte, force Format, r io.Reader, window int, wantPieces bool) {
	t.Helper()
	if pieces := streamSame(t, name, text, force, r, window, window); pieces != wantPieces {
		t.Errorf("%s: read piece by piece %v, want %v", name, pieces, wantPieces)
	}
}

// streamSame is sameAsParse without the check of how the text was read, which it returns:
// piece by piece or whole.
func streamSame(t *testing.T, name string, text []byte, force Format, r io.Reader, window, pieceSize int) bool {
	t.Helper()
	want, werr := Parse(text, force)
	res, msgs, errs, comments, err, pieces := streamPieces(t, r, force, window, pieceSize)
	if (want == nil) != (res == nil) {
		t.Errorf("%s: Parse gave %v (%v), the stream %v (%v)", name, want != nil, werr, res != nil, err)
		return pieces
	}
	if want == nil {
		if err == nil || err.Error() != werr.Error() {
			t.Errorf("%s: error %v, want %v", name, err, werr)
		}
		return pieces
	}
	if res.Format != want.Format {
		t.Errorf("%s: format %s, want %s", name, res.Format, want.Format)
	}
	header := append([]string(nil), res.Header...)
	for _, c := range comments {
		header = append(header, c.Text)
	}
	if fmt.Sprint(header) != fmt.Sprint(want.Header) {
		t.Errorf("%s: header %q, want %q", name, header, want.Header)
	}
	if len(msgs) != len(want.Messages) {
		t.Errorf("%s: %d messages, want %d", name, len(msgs), len(want.Messages))
		return pieces
	}
	for i := range msgs {
		g, w := msgs[i], want.Messages[i]
		if !bytes.Equal(g.Bytes, w.Bytes) || g.Line != w.Line || g.Offset != w.Offset || g.LSN != w.LSN ||
			g.HasLSN != w.HasLSN || g.Xid != w.Xid || g.HasXid != w.HasXid {
			t.Errorf("%s: message %d: %+v, want %+v", name, i, g, w)
			return pieces
		}
	}
	wantErrs := want.Errors
	if len(wantErrs) == 0 && werr != nil {
		wantErrs = []*Error{werr.(*Error)}
	}
	if len(errs) != len(wantErrs) {
		t.Errorf("%s: %d errors, want %d: %v", name, len(errs), len(wantErrs), errs)
		return pieces
	}
	for i := range errs {
		g, w := *errs[i], *wantErrs[i]
		if g.Line != w.Line || g.Column != w.Column || g.Offset != w.Offset || g.End != w.End || g.Msg != w.Msg {
			t.Errorf("%s: error %d: %+v, want %+v", name, i, g, w)
		}
	}
	return pieces
}

// Every input of the golden tests, read through a Stream with the usual window (whole: they
// are small) and with a tiny one, one byte per read (line formats piece by piece).
func TestStreamSameAsParse(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txt")
	files = append(files, "testdata/vectors.hex")
	if len(files) < 20 {
		t.Fatalf("only %d inputs", len(files))
	}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		force := goldenForced[filepath.Base(f)]
		sameAsParse(t, f, text, force, bytes.NewReader(text), 0, false)
		// With a window of 16 bytes, the line formats are read piece by piece.
		r, _ := Parse(text, force)
		lines := false
		if r != nil && cleanPaste(text).note == "" {
			for _, p := range parsers {
				lines = lines || p.format == r.Format && p.lines
			}
		}
		first := bytes.IndexByte(text, '\n')
		w := text[:min(16, len(text))]
		cut := bytes.LastIndexByte(w, '\n') + 1
		// A window of blank lines (tshark -T fields before the first frame with a value)
		// detects nothing: the text is read whole.
		pieces := lines && first >= 0 && first < len(text)-1 && first < 16 && !isBlank(text[:cut])
		if lines && !pieces {
			continue // its first line is longer than the window: read whole
		}
		if r != nil && rowsFormat(r.Format) {
			// psql rows, read in pieces of rows: 16 bytes are too few to detect them
			// (TestStreamRowsSameAsParse reads them with windows of some rows).
			continue
		}
		sameAsParse(t, f+" (window 16, one byte a read)", text, force, iotest.OneByteReader(bytes.NewReader(text)), 16, pieces)
	}
}

func readGzip(t testing.TB, file string) []byte {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The corpus captures (larger than the window) are read piece by piece, with the same
// messages and header as Parse; so are hex lines with bad lines among them.
func TestStreamPieceByPiece(t *testing.T) {
	files, _ := filepath.Glob("../testdata/corpus/*.capture.gz")
	if len(files) == 0 {
		t.Fatal("no corpus")
	}
	for _, f := range files {
		text := readGzip(t, f)
		if len(text) <= streamWindow {
			t.Fatalf("%s: %d bytes, not more than the window", f, len(text))
		}
		sameAsParse(t, f, text, Auto, bytes.NewReader(text), 0, true)
		sameAsParse(t, f+" (odd reads)", text, Auto, iotest.HalfReader(bytes.NewReader(text)), 4096, true)
		// A notice between messages: a comment where it came, and in Parse's header.
		i := bytes.Index(text[len(text)/2:], []byte("\n0/")) + len(text)/2 + 1
		noted := append(append(append([]byte(nil), text[:i]...), "# notice: WARNING: something\n"...), text[i:]...)
		sameAsParse(t, f+" (notice)", noted, Auto, bytes.NewReader(noted), 0, true)
	}
	var b strings.Builder
	for i := 0; b.Len() < 3*streamWindow; i++ {
		switch {
		case i%1000 == 7:
			fmt.Fprintf(&b, "42 00 zz %d\n", i) // a bad line, skipped
		case i%5 == 0:
			b.WriteString("\n")
		default:
			fmt.Fprintf(&b, "%x\n", []byte(fmt.Sprintf("message %d", i)))
		}
	}
	text := []byte(b.String())
	sameAsParse(t, "hex with bad lines", text, Auto, bytes.NewReader(text), 0, true)
	sameAsParse(t, "hex with bad lines (forced)", text, Hex, iotest.OneByteReader(bytes.NewReader(text)), 0, true)
}

// A capture still being written is read message by message: Start returns once the header and
// the first message are there, and each message comes out before the next is written.
func TestStreamLive(t *testing.T) {
	pr, pw := io.Pipe()
	st := NewStream(pr, Auto)
	st.Live = true
	lines := make(chan string, 8)
	go func() {
		for l := range lines {
			io.WriteString(pw, l)
		}
		pw.Close()
	}()
	lines <- "# pgoutput-inspect capture v1\n# options: proto_version=4 streaming=parallel\n"
	lines <- "0/10 6b00000000000000100000000000000000"
	lines <- "00\n"
	res, err := st.Start()
	if err != nil || res.Format != Capture || len(res.Header) != 2 || !st.PieceByPiece() {
		t.Fatalf("Start: %+v, %v", res, err)
	}
	if o := ReadCaptureOptions(res.Header); o.Proto != 4 || o.Streaming != "parallel" {
		t.Errorf("options %+v", o)
	}
	for i := 1; i <= 3; i++ {
		m := st.Next()
		if m == nil || m.LSN != uint64(i*16) {
			t.Fatalf("message %d: %+v", i, m)
		}
		if i == 2 && (len(st.Comments()) != 1 || st.Comments()[0].Text != "notice: hello") {
			t.Errorf("comments before message 2: %+v", st.Comments())
		}
		if i < 3 {
			lines <- fmt.Sprintf("# notice: hello\n0/%X 6b00000000000000%02x0000000000000000", (i+1)*16, (i+1)*16)
			lines <- "00\n"
		}
	}
	close(lines)
	if m := st.Next(); m != nil {
		t.Errorf("after the end: %+v", m)
	}
}

// Every real psql output of testdata/input/psql, and every xxd dump, read through a Stream
// whose pieces are a few bytes, one byte a read: rows are cut at every place a piece can
// end, and the stream hands out what Parse finds in the text read whole, detected and forced.
func TestStreamRowsSameAsParse(t *testing.T) {
	files, _ := filepath.Glob("../testdata/input/psql/*.txt")
	xxd, _ := filepath.Glob("../testdata/input/xxd/*.txt")
	files = append(files, xxd...)
	if len(files) < 100 {
		t.Fatalf("only %d inputs", len(files))
	}
	rows := map[Format]int{}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := Parse(text, Auto)
		for _, force := range []Format{Auto, r.Format} {
			if force == Auto && !rowsFormat(r.Format) {
				// Detection in a window of a few lines may see another format (one line of
				// xxd -p is hex): the usual window, then.
				streamSame(t, filepath.Base(f), text, force, bytes.NewReader(text), 0, 0)
				continue
			}
			for _, window := range []int{len(text) / 2, len(text) / 3} {
				for _, size := range []int{1, 7, 100} {
					name := fmt.Sprintf("%s (%q, window %d, pieces %d)", filepath.Base(f), force, window, size)
					if streamSame(t, name, text, force, iotest.OneByteReader(bytes.NewReader(text)), window, size) && rowsFormat(r.Format) {
						rows[r.Format]++
					}
				}
			}
		}
	}
	for _, f := range []Format{PsqlAligned, PsqlExpanded, PsqlUnaligned, PsqlCSV, Copy} {
		if rows[f] < 8 {
			t.Errorf("%s: read in pieces of rows %d times", f, rows[f])
		}
	}
	t.Logf("read in pieces of rows: %v", rows)
}

// The files of $STREAM_SAME_DIR (scripts/bigpsql's outputs; skipped when unset) read through a
// Stream, with its usual window and pieces, give what Parse gives reading them whole.
func TestStreamSameBig(t *testing.T) {
	dir := os.Getenv("STREAM_SAME_DIR")
	if dir == "" {
		t.Skip("STREAM_SAME_DIR is not set")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		in, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		if !streamSame(t, f, text, Auto, in, 0, 0) {
			t.Errorf("%s: read whole", f)
		}
		in.Close()
	}
}

// The real xxd and hexdump -C dumps of testdata/input, read through a Stream with small windows
// and pieces, one byte a read: a dump of a pg_recvlogical -f file (xxd and hexdump -C of
// stream.recv) is split piece by piece, each message with the line and offset of the row
// holding its first byte, as Parse gives them; the other dumps are read whole.
func TestStreamDumpSameAsParse(t *testing.T) {
	xxd, _ := filepath.Glob("../testdata/input/xxd/*.txt")
	files := append(xxd, "../testdata/input/hexdump/C_many.txt", "../testdata/input/hexdump/C_one.txt", "../testdata/input/hexdump/C_repeat.txt")
	pieces := map[string]int{}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := Parse(text, Auto)
		for _, force := range []Format{Auto, r.Format} {
			if r.Format != Xxd && r.Format != HexdumpC {
				// xxd -p and xxd -i: one line of xxd -p is hex, and neither is read in pieces.
				streamSame(t, filepath.Base(f), text, force, bytes.NewReader(text), 0, 0)
				continue
			}
			for _, window := range []int{len(text) / 2, len(text) / 5, 1500} {
				for _, size := range []int{1, 7, 100, 1000} {
					name := fmt.Sprintf("%s (%q, window %d, pieces %d)", filepath.Base(f), force, window, size)
					if streamSame(t, name, text, force, iotest.OneByteReader(bytes.NewReader(text)), window, size) {
						pieces[filepath.Base(f)]++
					}
				}
			}
		}
	}
	for _, f := range []string{"many.txt", "C_many.txt"} {
		if pieces[f] != 24 {
			t.Errorf("%s: read piece by piece %d times of 24", f, pieces[f])
		}
	}
	t.Logf("read piece by piece: %v", pieces)
}

// A dump of a pg_recvlogical -f file whose tail does not split: read whole it is one message;
// read in pieces, the messages before the tail come out as they are cut, then the tail as one
// message with an error naming its first byte. A row whose offset does not follow ends the
// reading with that row's error.
func TestStreamDumpTail(t *testing.T) {
	file, err := os.ReadFile("../testdata/input/recvlogical/stream.bin")
	if err != nil {
		t.Fatal(err)
	}
	whole, err := Parse(file, RecvLogical)
	if err != nil {
		t.Fatal(err)
	}
	bad := append(append([]byte(nil), file...), "Zzz\n"...)
	text := []byte(FileText(bad))
	if r, _ := Parse(text, Auto); r == nil || len(r.Messages) != 1 {
		t.Fatalf("Parse: %+v, want one message", r)
	}
	_, msgs, errs, _, _, pieces := streamPieces(t, iotest.OneByteReader(bytes.NewReader(text)), Auto, 2000, 100)
	if !pieces || len(msgs) != len(whole.Messages)+1 {
		t.Fatalf("piece by piece %v, %d messages, want %d", pieces, len(msgs), len(whole.Messages)+1)
	}
	for i, m := range whole.Messages {
		if !bytes.Equal(msgs[i].Bytes, m.Bytes) {
			t.Errorf("message %d: % x, want % x", i, msgs[i].Bytes, m.Bytes)
		}
	}
	lastRow := len(file) / 16 * 68 // FileText's rows are 68 bytes long
	if m := msgs[len(msgs)-1]; string(m.Bytes) != "Zzz\n" || m.Offset != lastRow || m.Line != len(file)/16+1 {
		t.Errorf("the tail: %q at %d (line %d), want \"Zzz\\n\" at %d", m.Bytes, m.Offset, m.Line, lastRow)
	}
	want := "no newline after byte " + fmt.Sprint(len(file)) + " of the dumped pg_recvlogical -f file"
	if len(errs) != 1 || !strings.Contains(errs[0].Msg, want) || errs[0].Offset != lastRow {
		t.Errorf("errors %v, want one at %d: %s", errs, lastRow, want)
	}

	gap := bytes.Replace([]byte(FileText(file)), []byte("\n00000800: "), []byte("\n00000810: "), 1)
	_, msgs, errs, _, _, _ = streamPieces(t, bytes.NewReader(gap), Auto, 1000, 500)
	if len(errs) == 0 || !strings.Contains(errs[0].Msg, "does not follow the previous row") || errs[0].Line != 0x800/16+1 {
		t.Errorf("a gap: errors %v", errs)
	}
	if len(msgs) == 0 || len(msgs) >= len(whole.Messages) {
		t.Errorf("a gap: %d messages, want some before it", len(msgs))
	}
}
