package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pgoutput-inspector/internal/pgserver"
)

// lockedBuffer collects a child's output while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestDecodeLiveCapture pipes a running capture into decode: each change is decoded and shown
// while the capture still runs, before the next one is made; Ctrl-C ends the capture, and
// decode ends with the count.
func TestDecodeLiveCapture(t *testing.T) {
	srv := pgserver.ForTest(t, serverVersion())
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	conn := connect(t, ctx, srv.ConnString())
	if _, err := conn.Exec(ctx, "CREATE TABLE live (id int PRIMARY KEY, note text); CREATE PUBLICATION live_pub FOR TABLE live").ReadAll(); err != nil {
		t.Fatal(err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	capture := command(t, ctx, "capture", "--conn", srv.ConnString(), "--publication", "live_pub",
		"--status-interval", "100ms", "--duration", "2m")
	var captureErr, decodeOut, decodeErr lockedBuffer
	capture.Stdout, capture.Stderr = pw, &captureErr
	decode := command(t, ctx, "decode")
	decode.Stdin, decode.Stdout, decode.Stderr = pr, &decodeOut, &decodeErr
	if err := capture.Start(); err != nil {
		t.Fatal(err)
	}
	defer capture.Process.Kill()
	if err := decode.Start(); err != nil {
		t.Fatal(err)
	}
	defer decode.Process.Kill()
	pw.Close() // the children hold their ends
	pr.Close()
	captureDone := make(chan error, 1)
	go func() { captureDone <- capture.Wait() }()
	decodeDone := make(chan error, 1)
	go func() { decodeDone <- decode.Wait() }()

	waitOutput := func(what, want string) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for !strings.Contains(decodeOut.String(), want) {
			select {
			case err := <-captureDone:
				t.Fatalf("capture exited (%v) before decode showed %s; capture stderr:\n%s\ndecode output:\n%s", err, what, captureErr.String(), decodeOut.String())
			case err := <-decodeDone:
				t.Fatalf("decode exited (%v) before showing %s; stderr:\n%s", err, what, decodeErr.String())
			case <-time.After(50 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				t.Fatalf("decode did not show %s within 60 s; its output:\n%s\nstderr:\n%s\ncapture stderr:\n%s", what, decodeOut.String(), decodeErr.String(), captureErr.String())
			}
		}
	}
	// The capture has started once the server's slot exists; changes made from then on are
	// captured. Each one must be shown before the next is made.
	deadline := time.Now().Add(60 * time.Second)
	for {
		res, err := conn.Exec(ctx, "SELECT count(*) FROM pg_replication_slots WHERE active").ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(res) > 0 && len(res[0].Rows) > 0 && string(res[0].Rows[0][0]) != "0" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the capture did not start; stderr:\n%s", captureErr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	for i := 1; i <= 3; i++ {
		note := fmt.Sprintf("live change %d", i)
		if _, err := conn.Exec(ctx, fmt.Sprintf("INSERT INTO live VALUES (%d, '%s')", i, note)).ReadAll(); err != nil {
			t.Fatal(err)
		}
		waitOutput(note, `"`+note+`"`)
	}
	out := decodeOut.String()
	if !strings.HasPrefix(out, "format capture, decoded as it is read\n# pgoutput-inspect capture v1\n") ||
		!strings.Contains(out, "Insert of public.live") {
		t.Errorf("decode output:\n%s", out)
	}
	select {
	case err := <-captureDone:
		t.Fatalf("the capture ended (%v) before it was stopped", err)
	default:
	}
	if err := capture.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := <-captureDone; err != nil {
		t.Fatalf("capture: %v; stderr:\n%s", err, captureErr.String())
	}
	select {
	case err := <-decodeDone:
		if err != nil {
			t.Fatalf("decode: %v; stderr:\n%s", err, decodeErr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("decode still runs 30 s after the capture ended")
	}
	if !strings.Contains(decodeOut.String(), "\nend of input, ") {
		t.Errorf("decode output does not end with the count:\n%s", decodeOut.String())
	}
}

// built holds the programs the memory tests run, each built once per test run.
var built sync.Map // package directory -> *buildResult

type buildResult struct {
	once sync.Once
	path string
	err  error
}

// removeBuilt removes the programs built for the tests.
func removeBuilt() {
	built.Range(func(_, v any) bool {
		if b := v.(*buildResult); b.path != "" {
			os.RemoveAll(filepath.Dir(b.path))
		}
		return true
	})
}

// buildProgram builds the main package in dir (relative to this package) as a user would.
func buildProgram(t *testing.T, dir string) string {
	t.Helper()
	v, _ := built.LoadOrStore(dir, &buildResult{})
	b := v.(*buildResult)
	b.once.Do(func() {
		out, err := os.MkdirTemp("", "pgoutput-inspect-build-")
		if err != nil {
			b.err = err
			return
		}
		name := filepath.Base(dir)
		if dir == "." {
			name = "pgoutput-inspect"
		}
		b.path = filepath.Join(out, name)
		if msg, err := exec.Command("go", "build", "-o", b.path, "./"+dir).CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build ./%s: %v\n%s", dir, err, msg)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// peakRSS runs the built command with args, its standard input written by gen through a pipe
// as the command reads it, its output thrown away; it returns the exit code, the peak resident
// set size in bytes (measured by testdata/rsslaunch), and the last 4 KiB of stderr.
func peakRSS(t *testing.T, gen func(w io.Writer) error, args ...string) (int, int64, string) {
	t.Helper()
	prog := buildProgram(t, ".")
	launcher := buildProgram(t, "testdata/rsslaunch")
	cmd := exec.Command(launcher, append([]string{prog}, args...)...)
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	cmd.Stdout = devnull
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	reportR, reportW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer reportR.Close()
	cmd.ExtraFiles = []*os.File{reportW}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reportW.Close()
	genErr := make(chan error, 1)
	go func() {
		bw := bufio.NewWriterSize(in, 1<<20)
		err := gen(bw)
		if err == nil {
			err = bw.Flush()
		}
		in.Close()
		genErr <- err
	}()
	report, _ := io.ReadAll(reportR)
	err = cmd.Wait()
	msg := stderr.String()
	if len(msg) > 4096 {
		msg = msg[len(msg)-4096:]
	}
	if gerr := <-genErr; gerr != nil {
		t.Fatalf("writing the input: %v (command: %v); stderr:\n%s", gerr, err, msg)
	}
	var code int
	var rss int64
	if _, serr := fmt.Sscan(string(report), &code, &rss); err != nil || serr != nil {
		t.Fatalf("rsslaunch: %v, report %q; stderr:\n%s", err, report, msg)
	}
	return code, rss, msg
}

// corpusBody returns a corpus capture's header lines and its data lines.
func corpusBody(t *testing.T, name string) (header, body []byte) {
	t.Helper()
	text := readCorpus(t, filepath.Join(corpusDir, name+".capture.gz"))
	for _, line := range bytes.SplitAfter(text, []byte("\n")) {
		if bytes.HasPrefix(line, []byte("#")) {
			header = append(header, line...)
		} else {
			body = append(body, line...)
		}
	}
	return header, body
}

// TestDecodeGigabyteCaptureFlatMemory decodes a 1 GiB capture (a corpus capture's messages
// repeated, made on the fly and piped in) in under 64 MB of peak RSS.
func TestDecodeGigabyteCaptureFlatMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes 1 GiB")
	}
	header, body := corpusBody(t, "pg18-text-immediate")
	gen := func(w io.Writer) error {
		if _, err := w.Write(header); err != nil {
			return err
		}
		for n := int64(len(header)); n < 1<<30; n += int64(len(body)) {
			if _, err := w.Write(body); err != nil {
				return err
			}
		}
		return nil
	}
	const limit = 64 << 20
	for _, args := range [][]string{{"decode"}, {"decode", "--json"}} {
		code, rss, stderr := peakRSS(t, gen, args...)
		t.Logf("%s of 1 GiB: peak RSS %.1f MB", strings.Join(args, " "), float64(rss)/1e6)
		if code != exitOK {
			t.Errorf("%v: exit %d; stderr:\n%s", args, code, stderr)
		}
		if rss > limit {
			t.Errorf("%v: peak RSS %d bytes, over %d: %s", args, rss, limit, stderr)
		}
	}
}

// A long input read in pieces: its bad lines are reported with their line numbers (stderr, and
// "input_errors" after the messages in the JSON), every other line is decoded, the count
// comes at the end.
func TestDecodeLongInputInPieces(t *testing.T) {
	var b strings.Builder
	n := 0
	for line := 1; b.Len() < 300<<10; line++ {
		if line == 1000 || line == 5000 {
			fmt.Fprintf(&b, "42 zz %d\n", line)
			continue
		}
		b.WriteString("420000000001773fe80002a2b1c3d4e5f6000002f2\n") // Begin
		n++
	}
	r := runCmd(t, b.String(), nil, "decode")
	if r.code != exitError {
		t.Errorf("exit %d, want %d", r.code, exitError)
	}
	if !strings.HasPrefix(r.stdout, "format hex, decoded as it is read\n") ||
		!strings.HasSuffix(r.stdout, fmt.Sprintf("\nend of input, %d messages\n", n)) {
		t.Errorf("output starts %q, ends %q", r.stdout[:60], r.stdout[len(r.stdout)-60:])
	}
	if !strings.Contains(r.stderr, "line 1000, column 4: hex:") || !strings.Contains(r.stderr, "line 5000, column 4: hex:") ||
		strings.Count(r.stderr, "\n") != 2 {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	r = runCmd(t, b.String(), nil, "decode", "--json")
	checkJSONDocument(t, []byte(r.stdout))
	var doc struct {
		Messages    []json.RawMessage `json:"messages"`
		InputErrors []struct {
			Line int `json:"line"`
		} `json:"input_errors"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Messages) != n || len(doc.InputErrors) != 2 || doc.InputErrors[0].Line != 1000 || doc.InputErrors[1].Line != 5000 {
		t.Errorf("%d messages (want %d), input_errors %+v", len(doc.Messages), n, doc.InputErrors)
	}
}

// writeHexLine writes the hex of msg as one line, a piece at a time.
func writeHexLine(w io.Writer, msg []byte) error {
	buf := make([]byte, 64<<10)
	for len(msg) > 0 {
		n := min(len(msg), len(buf)/2)
		hex.Encode(buf, msg[:n])
		if _, err := w.Write(buf[:2*n]); err != nil {
			return err
		}
		msg = msg[n:]
	}
	_, err := w.Write([]byte("\n"))
	return err
}

// hugeNumerics returns a Relation of 65,535 numeric columns and an Insert of a binary numeric
// of weight 32767 in each (131,072 digits each as text; 4 MB of message), as hex lines.
func hugeNumerics(w io.Writer) error {
	const cols = 65535
	rel := wire{}.b1('R').i32(16384).str("public").str("wide").b1('d').i16(cols)
	for i := range cols {
		rel = rel.b1(0).str("c" + strconv.Itoa(i)).i32(1700).i32(0xffffffff)
	}
	// ndigits 26, weight 32767, sign +, dscale 0, base-10000 digits 9999…: 64 bytes a value.
	value := wire{}.i16(26).i16(32767).i16(0).i16(0)
	for range 26 {
		value = value.i16(9999)
	}
	ins := wire{}.b1('I').i32(16384).b1('N').i16(cols)
	for range cols {
		ins = ins.col('b', string(value))
	}
	if err := writeHexLine(w, rel); err != nil {
		return err
	}
	return writeHexLine(w, ins)
}

// hugeTruncate writes a Truncate of 12.5 million relations (50 MB), as one hex line.
func hugeTruncate(w io.Writer) error {
	const n = 50 << 20 / 4
	msg := wire{}.b1('T').i32(n).b1(0)
	msg = append(msg, make([]byte, 4*n)...)
	for i := range n {
		binary.BigEndian.PutUint32(msg[6+4*i:], uint32(16384+i))
	}
	return writeHexLine(w, msg)
}

// tinyMessages writes size bytes of 1-byte messages, Stream Stop ('E'), one hex line each.
func tinyMessages(size int) func(w io.Writer) error {
	return func(w io.Writer) error {
		chunk := bytes.Repeat([]byte("45\n"), 64<<10/3)
		for n := 0; n < size; n += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return err
			}
		}
		return nil
	}
}

// TestDecodeBoundedMemory: inputs that expand far past their size decode in bounded memory,
// dump and JSON: 65,535 numerics of weight 32767 in one 4 MB message (8.6 GB of JSON), a 50 MB
// Truncate (12.5 million nodes), and many 1-byte messages (each costs the same whatever came
// before it).
func TestDecodeBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes inputs of up to 100 MB")
	}
	const limit = 1 << 30
	dump, json := []string{"decode"}, []string{"decode", "--json"}
	cases := []struct {
		name  string
		gen   func(w io.Writer) error
		modes [][]string
	}{
		{"numerics of weight 32767", hugeNumerics, [][]string{dump, json}},
		{"50 MB Truncate", hugeTruncate, [][]string{dump, json}},
		{"1-byte messages", tinyMessages(tinyMessagesSize()), [][]string{dump, json}},
	}
	for _, c := range cases {
		for _, mode := range c.modes {
			start := time.Now()
			code, rss, stderr := peakRSS(t, c.gen, mode...)
			t.Logf("%s, %s: peak RSS %.0f MB, %v", c.name, strings.Join(mode, " "), float64(rss)/1e6, time.Since(start).Round(time.Second))
			if code != exitOK {
				t.Errorf("%s, %v: exit %d; stderr:\n%s", c.name, mode, code, stderr)
			}
			if rss > limit {
				t.Errorf("%s, %v: peak RSS %d bytes, over %d", c.name, mode, rss, limit)
			}
		}
	}
}

// tinyMessagesSize is how much of 1-byte messages TestDecodeBoundedMemory decodes: 55 MB (19
// million messages), or PGOUTPUT_INSPECT_TINY_MB megabytes (220 reproduces the report of
// 8.6 GB for 220 MB; it takes minutes).
func tinyMessagesSize() int {
	if mb, err := strconv.Atoi(os.Getenv("PGOUTPUT_INSPECT_TINY_MB")); err == nil && mb > 0 {
		return mb << 20
	}
	return 55 << 20
}
