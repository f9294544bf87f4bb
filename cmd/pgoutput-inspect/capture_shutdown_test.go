package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"golang.org/x/sys/unix"

	"pgoutput-inspector/internal/pgcapture"
	"pgoutput-inspector/internal/pgserver"
)

// shutdownLimit is how long a server may take to stop while a capture runs. pg_recvlogical
// lets it stop in well under a second; a capture that reports positions the walsender never
// sent keeps it waiting for ever.
const shutdownLimit = 5 * time.Second

// TestCaptureServerStops runs a capture against every server the project tests with and ends
// it from the server's side: a fast shutdown (the server must stop within shutdownLimit, the
// capture must end with its summary), a restart, an immediate shutdown, a connection cut by a
// TCP proxy, and pg_terminate_backend of the walsender. After each, the capture file must
// decode up to the last change made.
func TestCaptureServerStops(t *testing.T) {
	for _, version := range []string{"14", "15", "16", "17", "18", pgserver.Debian15} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			srv := pgserver.ForTest(t, version)
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			sql(t, ctx, srv, "CREATE TABLE t (id int PRIMARY KEY, v text)", "CREATE PUBLICATION pub FOR TABLE t")

			t.Run("fast shutdown", func(t *testing.T) {
				c := startCapture(t, ctx, srv, srv.ConnString())
				c.change(t, ctx, srv, 1)
				start := time.Now()
				if err := srv.Shutdown(pgserver.Fast, shutdownLimit); err != nil {
					t.Errorf("%v\ncapture file so far: %s", err, c.fileSummary())
					srv.Shutdown(pgserver.Immediate, time.Minute)
				} else {
					t.Logf("fast shutdown took %v", time.Since(start).Round(time.Millisecond))
				}
				r := c.wait(t)
				if r.code != exitOK || !strings.Contains(r.stderr, "stopped: the server shut down") {
					t.Errorf("capture after a fast shutdown: exit %d, want 0 and a summary saying the server shut down; stderr:\n%s", r.code, r.stderr)
				}
				t.Logf("%s", strings.TrimSpace(r.stderr))
				c.check(t, 1)
			})
			t.Run("restart", func(t *testing.T) {
				if err := srv.Restart(ctx); err != nil {
					t.Fatal(err)
				}
				// The temporary slot went with the walsender; a new capture starts afresh.
				if slots := sql(t, ctx, srv, "SELECT count(*) FROM pg_replication_slots"); slots != "0" {
					t.Errorf("%s replication slots after the restart, want 0", slots)
				}
				c := startCapture(t, ctx, srv, srv.ConnString())
				c.change(t, ctx, srv, 2)
				c.interrupt(t)
				c.check(t, 2)
			})
			t.Run("immediate shutdown", func(t *testing.T) {
				c := startCapture(t, ctx, srv, srv.ConnString())
				c.change(t, ctx, srv, 3)
				if err := srv.Shutdown(pgserver.Immediate, shutdownLimit); err != nil {
					t.Fatal(err)
				}
				r := c.wait(t)
				wantOneLineErrorAfter(t, r, "connection to the server lost")
				c.check(t, 3)
				if err := srv.Restart(ctx); err != nil {
					t.Fatal(err)
				}
			})
			t.Run("connection cut", func(t *testing.T) {
				proxy := startProxy(t, fmt.Sprintf("127.0.0.1:%d", srv.Port))
				c := startCapture(t, ctx, srv, strings.Replace(srv.ConnString(), fmt.Sprintf("port=%d", srv.Port), fmt.Sprintf("port=%d", proxy.port), 1))
				c.change(t, ctx, srv, 4)
				proxy.cut()
				r := c.wait(t)
				wantOneLineErrorAfter(t, r, "connection to the server lost")
				c.check(t, 4)
			})
			t.Run("walsender terminated", func(t *testing.T) {
				c := startCapture(t, ctx, srv, srv.ConnString())
				c.change(t, ctx, srv, 5)
				sql(t, ctx, srv, "SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = '"+c.slot+"'")
				r := c.wait(t)
				wantOneLineErrorAfter(t, r, "terminating connection due to administrator command")
				c.check(t, 5)
			})
		})
	}
}

// runningCapture is the capture command running as its own process.
type runningCapture struct {
	slot   string
	out    string
	cmd    *exec.Cmd
	stderr *syncBuffer
	exited chan error
}

// startCapture starts `capture` on connString with a slot name of its own and waits until the
// slot is active, that is until START_REPLICATION was accepted.
func startCapture(t *testing.T, ctx context.Context, srv *pgserver.Server, connString string) *runningCapture {
	t.Helper()
	c := &runningCapture{
		slot:   fmt.Sprintf("test_%d", time.Now().UnixNano()),
		out:    filepath.Join(t.TempDir(), "out.capture"),
		stderr: &syncBuffer{},
		exited: make(chan error, 1),
	}
	c.cmd = command(t, ctx, "capture", "--conn", connString, "--publication", "pub", "--slot", c.slot,
		"--status-interval", "100ms", "-o", c.out)
	c.cmd.Stderr = c.stderr
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { c.exited <- c.cmd.Wait() }()
	t.Cleanup(func() { c.cmd.Process.Kill() })
	c.waitFor(t, "the slot to be active", func() bool {
		return sql(t, ctx, srv, "SELECT count(*) FROM pg_replication_slots WHERE active AND slot_name = '"+c.slot+"'") == "1"
	})
	return c
}

// change inserts row id and waits until its transaction's Commit is in the capture file.
func (c *runningCapture) change(t *testing.T, ctx context.Context, srv *pgserver.Server, id int) {
	t.Helper()
	sql(t, ctx, srv, fmt.Sprintf("INSERT INTO t VALUES (%d, 'row %d')", id, id))
	c.waitFor(t, "the Commit of the insert in the capture file", func() bool {
		return c.read(t).Count().ByType['C'] == 1
	})
}

// interrupt sends Ctrl-C and checks the capture ends normally.
func (c *runningCapture) interrupt(t *testing.T) {
	t.Helper()
	if err := c.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if r := c.wait(t); r.code != exitOK {
		t.Errorf("capture after Ctrl-C: exit %d; stderr:\n%s", r.code, r.stderr)
	}
}

// wait waits for the capture to exit.
func (c *runningCapture) wait(t *testing.T) result {
	t.Helper()
	select {
	case err := <-c.exited:
		return result{code: exitCode(t, err), stderr: c.stderr.String()}
	case <-time.After(60 * time.Second):
		t.Fatalf("capture still runs 60s after the server ended the stream; stderr:\n%s\nfile: %s", c.stderr.String(), c.fileSummary())
	}
	return result{}
}

// check decodes the capture file: every message must decode, the insert of row id must be
// there with its Begin and Commit, and no keepalive may repeat the previous one's WAL end.
func (c *runningCapture) check(t *testing.T, id int) {
	t.Helper()
	f := c.read(t)
	counts := f.Count()
	if counts.ByType['B'] != 1 || counts.ByType['I'] != 1 || counts.ByType['C'] != 1 {
		t.Errorf("capture holds %v, want one Begin, Insert and Commit", counts.ByType)
	}
	var last []byte
	for _, p := range f.Payloads {
		if p.Kind != 'k' {
			continue
		}
		if walEnd := p.Bytes[1:9]; bytes.Equal(walEnd, last) {
			t.Errorf("keepalive at %s repeats the previous keepalive's WAL end (%d keepalives in the file)", p.LSN, counts.Keepalives)
			break
		} else {
			last = walEnd
		}
	}
	r := runCmd(t, "", nil, "decode", c.out)
	if r.code != exitOK {
		t.Errorf("decode of the capture: exit %d; stderr:\n%s", r.code, r.stderr)
	}
	if want := fmt.Sprintf(`"row %d"`, id); !strings.Contains(r.stdout, want) {
		t.Errorf("decoded capture lacks the inserted value %s:\n%s", want, r.stdout)
	}
}

// read parses the complete lines of the capture file written so far.
func (c *runningCapture) read(t *testing.T) *pgcapture.File {
	t.Helper()
	b, _ := os.ReadFile(c.out)
	b = b[:bytes.LastIndexByte(b, '\n')+1]
	f, err := pgcapture.ReadFile(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("capture file: %v", err)
	}
	return f
}

// fileSummary says how big the capture file is and what it holds, for failure messages.
func (c *runningCapture) fileSummary() string {
	fi, err := os.Stat(c.out)
	if err != nil {
		return err.Error()
	}
	b, _ := os.ReadFile(c.out)
	return fmt.Sprintf("%d bytes, %d lines, %d of them keepalives", fi.Size(), bytes.Count(b, []byte("\n")), bytes.Count(b, []byte(" 6b")))
}

// waitFor polls cond every 20 ms until it holds; it fails when the capture exits first.
func (c *runningCapture) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		select {
		case err := <-c.exited:
			c.exited <- err
			t.Fatalf("capture exited (%v) before %s; stderr:\n%s", err, what, c.stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s within 60s; stderr:\n%s", what, c.stderr.String())
		}
	}
}

// wantOneLineErrorAfter checks for exit code 1 and a last stderr line that says want.
func wantOneLineErrorAfter(t *testing.T, r result, want string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	last := lines[len(lines)-1]
	if r.code != exitError || !strings.HasPrefix(last, "pgoutput-inspect capture: ") || !strings.Contains(last, want) {
		t.Errorf("exit %d, want %d with a last line saying %q; stderr:\n%s", r.code, exitError, want, r.stderr)
	}
	if strings.Contains(r.stderr, "goroutine ") || strings.Contains(r.stderr, "panic") {
		t.Errorf("stderr holds a stack trace:\n%s", r.stderr)
	}
	t.Logf("%s", last)
}

// sql runs statements on a new connection and returns the first column of the last row.
func sql(t *testing.T, ctx context.Context, srv *pgserver.Server, stmts ...string) string {
	t.Helper()
	conn, err := pgconn.Connect(ctx, srv.ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var last string
	for _, s := range stmts {
		res, err := conn.Exec(ctx, s).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if r := res[len(res)-1]; len(r.Rows) > 0 {
			last = string(r.Rows[len(r.Rows)-1][0])
		}
	}
	return last
}

// proxy forwards TCP connections to a server until cut closes them all.
type proxy struct {
	port  int
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func startProxy(t *testing.T, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{port: ln.Addr().(*net.TCPAddr).Port, ln: ln}
	t.Cleanup(p.cut)
	go func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", target)
			if err != nil {
				client.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, client, server)
			p.mu.Unlock()
			go io.Copy(server, client)
			go io.Copy(client, server)
		}
	}()
	return p
}

// cut closes the listener and every connection, as a network failure would.
func (p *proxy) cut() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// syncBuffer is a bytes.Buffer safe for a process's writes and the test's reads at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestCaptureProgressOnTerminal runs a capture with stderr on a pseudo-terminal: it says it
// connected and names the slot, then redraws a line of counts every second, which follows the
// messages as they arrive and is erased before the summary. On a pipe (the other tests) there
// are no count lines.
func TestCaptureProgressOnTerminal(t *testing.T) {
	srv := pgserver.ForTest(t, serverVersion())
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	sql(t, ctx, srv, "CREATE TABLE t (id int PRIMARY KEY, v text)", "CREATE PUBLICATION pub FOR TABLE t")

	term, tty := openPTY(t)
	var shown syncBuffer
	copied := make(chan struct{})
	go func() {
		io.Copy(&shown, term) // until the program, the last holder of the tty, exits
		close(copied)
	}()
	c := &runningCapture{slot: "on_a_terminal", out: filepath.Join(t.TempDir(), "out.capture"), stderr: &shown, exited: make(chan error, 1)}
	c.cmd = command(t, ctx, "capture", "--conn", srv.ConnString(), "--publication", "pub", "--slot", c.slot, "-o", c.out)
	c.cmd.Stderr = tty
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close() // the program has its own copy
	go func() { c.exited <- c.cmd.Wait() }()
	t.Cleanup(func() { c.cmd.Process.Kill() })

	c.waitFor(t, "the line saying it connected", func() bool {
		return strings.Contains(shown.String(), "connected to 127.0.0.1:") && strings.Contains(shown.String(), "temporary slot on_a_terminal")
	})
	sql(t, ctx, srv, "INSERT INTO t VALUES (1, 'one')")
	// Begin, Relation, Insert, Commit.
	c.waitFor(t, "a count line with the four messages", func() bool {
		return strings.Contains(shown.String(), "\r\x1b[Kpgoutput-inspect capture: 4 XLogData messages, ")
	})
	c.interrupt(t)
	select {
	case <-copied:
	case <-time.After(time.Minute):
		t.Fatal("the terminal did not close within a minute of the program's exit")
	}
	out := shown.String()
	summary := strings.LastIndex(out, "pgoutput-inspect capture: 4 XLogData messages and ")
	if summary < 0 || !strings.HasSuffix(out[:summary], "\x1b[K") || !strings.Contains(out[summary:], "stopped: interrupted") {
		t.Errorf("the count line is not erased before the summary:\n%q", out)
	}
	t.Logf("terminal output: %q", out)
}

// openPTY opens a pseudo-terminal pair: the terminal's side to read and the program's side.
func openPTY(t *testing.T) (term, tty *os.File) {
	t.Helper()
	term, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { term.Close() })
	if err := unix.IoctlSetPointerInt(int(term.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(term.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Raw output: "\n" stays "\n" rather than becoming "\r\n".
	tios, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	tios.Oflag &^= unix.OPOST
	if err := unix.IoctlSetTermios(int(tty.Fd()), unix.TCSETS, tios); err != nil {
		t.Fatal(err)
	}
	return term, tty
}
