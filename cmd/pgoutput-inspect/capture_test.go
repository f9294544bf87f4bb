package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/internal/pgcapture"
	"pgoutput-inspector/internal/pgcapture/corpus"
	"pgoutput-inspector/internal/pgserver"
)

// serverVersion is the PostgreSQL the capture tests run against: Debian's postgresql-15 by
// default (installed when missing), or the version in PGOUTPUT_INSPECT_PG ("14".."18").
func serverVersion() string {
	if v := os.Getenv("PGOUTPUT_INSPECT_PG"); v != "" {
		return v
	}
	return pgserver.Debian15
}

// workloadFile is the workload shared with the capture corpus: every message type.
const workloadFile = "../../scripts/corpus/workload.sql"

// TestCaptureEndToEnd captures the corpus workload with the real program, twice at once
// (text and binary column values), stops both with Ctrl-C (SIGINT), checks the temporary
// slots are gone, and decodes the captures: no message may fail, and every message type the
// server sends must be there.
func TestCaptureEndToEnd(t *testing.T) {
	srv := pgserver.ForTest(t, serverVersion())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	w, err := corpus.LoadWorkload(workloadFile)
	if err != nil {
		t.Fatal(err)
	}
	conn := connect(t, ctx, srv.ConnString())
	major := serverMajor(conn.ParameterStatus("server_version"))
	if err := w.RunSetup(ctx, conn, major); err != nil {
		t.Fatal(err)
	}

	type capture struct {
		name    string
		out     string
		variant corpus.Variant
		cmd     *exec.Cmd
		stderr  bytes.Buffer
		exited  chan error
	}
	var captures []*capture
	for _, name := range []string{"text", "binary"} {
		if name == "binary" && major < 14 {
			continue
		}
		c := &capture{name: name, out: filepath.Join(t.TempDir(), name+".capture"), exited: make(chan error, 1)}
		args := []string{"capture", "--conn", srv.ConnString(), "--publication", strings.Join(corpus.Publications, ","),
			"--messages", "--status-interval", "200ms", "--duration", "4m", "-o", c.out}
		c.variant.Config = pgcapture.Config{Messages: true, Streaming: "on"}
		if major >= 15 {
			args = append(args, "--two-phase")
			c.variant.Config.TwoPhase = true
		}
		switch {
		case name == "binary" && major >= 16:
			// Stream Abort then carries the abort LSN and time (protocol 4).
			args = append(args, "--binary", "--streaming", "parallel")
		case name == "binary":
			args = append(args, "--binary", "--streaming", "on")
		case major >= 16:
			args = append(args, "--streaming", "on", "--origin", "any")
		default:
			args = append(args, "--streaming", "on")
		}
		c.cmd = command(t, ctx, args...)
		c.cmd.Stderr = &c.stderr
		if err := c.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { c.exited <- c.cmd.Wait() }()
		defer c.cmd.Process.Kill()
		captures = append(captures, c)
	}

	// The header is written once START_REPLICATION is accepted, and flushed within a status
	// interval: from then on, every change committed is captured.
	for _, c := range captures {
		waitFor(t, c.exited, &c.stderr, 60*time.Second, c.name+" capture file header", func() bool {
			b, _ := os.ReadFile(c.out)
			return bytes.Contains(b, []byte("# options: "))
		})
	}
	monitor := connect(t, ctx, srv.ConnString())
	if err := w.RunSteps(ctx, conn, monitor, major); err != nil {
		t.Fatal(err)
	}
	marker := []byte(hex.EncodeToString([]byte(corpus.EndMarkerPrefix + "\x00")))
	for _, c := range captures {
		waitFor(t, c.exited, &c.stderr, 120*time.Second, "end-of-workload message in the "+c.name+" capture", func() bool {
			b, _ := os.ReadFile(c.out)
			return bytes.Contains(b, marker)
		})
	}

	// Ctrl-C: a clean stop, everything flushed, exit 0.
	for _, c := range captures {
		if err := c.cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-c.exited:
			if err != nil {
				t.Fatalf("%s capture after Ctrl-C: %v; stderr:\n%s", c.name, err, c.stderr.String())
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s capture did not stop within 30s of Ctrl-C; stderr:\n%s", c.name, c.stderr.String())
		}
		if lines := strings.Split(strings.TrimSuffix(c.stderr.String(), "\n"), "\n"); len(lines) != 2 ||
			!strings.Contains(lines[0], ": connected to 127.0.0.1:") || !strings.Contains(lines[0], "temporary slot pgoutput_inspect_") ||
			!strings.HasSuffix(lines[1], "stopped: interrupted") {
			t.Errorf("stderr after Ctrl-C, want the connection line and a summary line ending in \"stopped: interrupted\":\n%s", c.stderr.String())
		}
		t.Logf("%s: %s", c.name, strings.TrimSpace(c.stderr.String()))
	}

	// The temporary slots go away with the walsender connections.
	deadline := time.Now().Add(15 * time.Second)
	for {
		res, err := monitor.Exec(ctx, "SELECT slot_name FROM pg_replication_slots WHERE slot_name LIKE 'pgoutput_inspect_%'").ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(res[0].Rows) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("temporary slot %s still exists 15s after the capture ended", res[0].Rows[0][0])
		}
		time.Sleep(100 * time.Millisecond)
	}

	for _, c := range captures {
		t.Run(c.name, func(t *testing.T) { checkCapture(t, c.out, major, c.variant) })
	}
}

// checkCapture decodes a capture file: no message may fail, every expected message type must
// be there, and the text dump must decode it the same way.
func checkCapture(t *testing.T, file string, major int, variant corpus.Variant) {
	r := runCmd(t, "", nil, "decode", "--json", file)
	if r.code != exitOK {
		t.Errorf("decode of the capture: exit %d; stderr:\n%s\nerrors:\n%s", r.code, r.stderr, jsonErrors(r.stdout))
	}
	checkJSONDocument(t, []byte(r.stdout))
	var doc struct {
		Format   string
		Messages []struct{ Type string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Format != "capture" {
		t.Errorf("format %q, want capture", doc.Format)
	}
	seen := map[string]int{}
	for _, m := range doc.Messages {
		seen[m.Type]++
	}
	want := corpus.Expected(major, variant)
	var missing []string
	for i := 0; i < len(want); i++ {
		if name := decoder.MessageName(want[i]); seen[name] == 0 {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		t.Errorf("capture from PostgreSQL %d lacks %s; it has %v", major, strings.Join(missing, ", "), seen)
	}
	t.Logf("PostgreSQL %d: %d payloads, by type %v", major, len(doc.Messages), seen)

	if r := runCmd(t, "", nil, "decode", file); r.code != exitOK || !strings.Contains(r.stdout, "format capture") {
		t.Errorf("text decode of the capture: exit %d; stderr:\n%s", r.code, r.stderr)
	}
}

// TestCaptureCommand checks the stop conditions and the one-line errors of failed captures
// against real servers.
func TestCaptureCommand(t *testing.T) {
	srv := pgserver.ForTest(t, serverVersion())
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	conn := connect(t, ctx, srv.ConnString())
	major := serverMajor(conn.ParameterStatus("server_version"))
	if _, err := conn.Exec(ctx, "CREATE TABLE t (id int PRIMARY KEY, v text); CREATE PUBLICATION pub FOR TABLE t").ReadAll(); err != nil {
		t.Fatal(err)
	}

	t.Run("--max-messages", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "three.capture")
		// Begin, Relation, Insert, Insert, Commit: the capture stops after the first three.
		r := captureAround(t, ctx, conn, out, "INSERT INTO t VALUES (10, 'ten'), (11, 'eleven')",
			"capture", "--conn", srv.ConnString(), "--publication", "pub",
			"--max-messages", "3", "--status-interval", "100ms", "--duration", "60s", "-o", out)
		if r.code != exitOK || !strings.Contains(r.stderr, "stopped: 3 messages received") {
			t.Errorf("exit %d; stderr:\n%s", r.code, r.stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(b, []byte(" 77")); n != 3 {
			t.Errorf("capture holds %d XLogData lines, want 3:\n%s", n, b)
		}
		if r := runCmd(t, string(b), nil, "decode"); r.code != exitOK {
			t.Errorf("decode of the capture: exit %d\n%s", r.code, r.stderr)
		}
	})
	t.Run("--duration, to stdout", func(t *testing.T) {
		start := time.Now()
		r := captureProcess(t, ctx, nil, "--conn", srv.ConnString(), "--publication", "pub", "--duration", "1s")
		if r.code != exitOK || !strings.Contains(r.stderr, "stopped: 1s elapsed") {
			t.Errorf("exit %d; stderr:\n%s", r.code, r.stderr)
		}
		if !strings.HasPrefix(r.stdout, "# pgoutput-inspect capture v1\n") {
			t.Errorf("stdout does not start with the capture header:\n%s", r.stdout)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("a 1s capture took %v", d)
		}
	})
	t.Run("connection refused", func(t *testing.T) {
		port := closedPort(t)
		r := captureProcess(t, ctx, nil, "--conn", fmt.Sprintf("host=127.0.0.1 port=%d user=postgres sslmode=disable", port), "--publication", "pub")
		wantOneLineError(t, r, "connection refused")
	})
	t.Run("connection refused, PG* variables", func(t *testing.T) {
		port := closedPort(t)
		r := captureProcess(t, ctx, []string{"PGHOST=127.0.0.1", "PGPORT=" + strconv.Itoa(port), "PGSSLMODE=disable"}, "--publication", "pub")
		wantOneLineError(t, r, "connection refused")
		if !strings.Contains(r.stderr, fmt.Sprintf("127.0.0.1:%d", port)) {
			t.Errorf("error does not name the address from PGHOST/PGPORT:\n%s", r.stderr)
		}
	})
	t.Run("unknown option", func(t *testing.T) {
		r := captureProcess(t, ctx, nil, "--conn", srv.ConnString(), "--publication", "pub", "--option", "no_such_option=1")
		wantOneLineError(t, r, "no_such_option")
	})
	t.Run("proto_version too high", func(t *testing.T) {
		if major >= 16 {
			t.Skip("every proto_version up to 4 is known from PostgreSQL 16")
		}
		r := captureProcess(t, ctx, nil, "--conn", srv.ConnString(), "--publication", "pub", "--proto-version", "4")
		wantOneLineError(t, r, "proto_version")
	})
	t.Run("missing publication", func(t *testing.T) {
		// The walsender loads the publications when it decodes the first change, so the
		// capture runs until a change is committed.
		out := filepath.Join(t.TempDir(), "missing.capture")
		r := captureAround(t, ctx, conn, out, "INSERT INTO t VALUES (1, 'one')",
			"capture", "--conn", srv.ConnString(), "--publication", "no_such_pub",
			"--status-interval", "100ms", "--duration", "60s", "-o", out)
		wantOneLineError(t, r, `publication "no_such_pub" does not exist`)
	})
	t.Run("wal_level not logical", func(t *testing.T) {
		replica := startServer(t, serverVersion(), "wal_level = replica")
		r := captureProcess(t, ctx, nil, "--conn", replica.ConnString(), "--publication", "pub")
		wantOneLineError(t, r, "wal_level")
	})
}

// captureProcess runs the real program's capture command with extra environment variables.
func captureProcess(t *testing.T, ctx context.Context, environ []string, args ...string) result {
	t.Helper()
	cmd := command(t, ctx, append([]string{"capture", "--duration", "30s"}, args...)...)
	// A later --duration overrides the default above.
	cmd.Env = append(cmd.Env, environ...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	return result{code: exitCode(t, err), stdout: out.String(), stderr: errOut.String()}
}

// captureAround starts the command with args, waits until it has created out, runs sql on the
// server through conn and waits up to 30 s for the command to exit.
func captureAround(t *testing.T, ctx context.Context, conn *pgconn.PgConn, out, sql string, args ...string) result {
	t.Helper()
	cmd := command(t, ctx, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer cmd.Process.Kill()
	waitFor(t, exited, &stderr, 30*time.Second, "the capture to start", func() bool {
		_, err := os.Stat(out)
		return err == nil
	})
	if _, err := conn.Exec(ctx, sql).ReadAll(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		return result{code: exitCode(t, err), stderr: stderr.String()}
	case <-time.After(30 * time.Second):
		t.Fatalf("capture %v still runs 30s after %q; stderr:\n%s", args, sql, stderr.String())
	}
	return result{}
}

func exitCode(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	t.Fatal(err)
	return -1
}

// wantOneLineError checks for exit code 1 and one line on stderr that says want.
func wantOneLineError(t *testing.T, r result, want string) {
	t.Helper()
	if r.code != exitError {
		t.Errorf("exit code %d, want %d", r.code, exitError)
	}
	// Failures after the stream started follow the line that says it connected.
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	if len(lines) == 2 && strings.Contains(lines[0], ": connected to ") {
		lines = lines[1:]
	}
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "pgoutput-inspect capture: ") {
		t.Errorf("stderr is not one \"pgoutput-inspect capture: …\" line (after the connection line):\n%s", r.stderr)
	}
	if !strings.Contains(r.stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
	}
	if strings.Contains(r.stderr, "goroutine ") || strings.Contains(r.stderr, "panic") {
		t.Errorf("stderr holds a stack trace:\n%s", r.stderr)
	}
	t.Logf("%s", strings.TrimSpace(r.stderr))
}

// waitFor polls cond until it holds, failing when the program exits first or time runs out.
func waitFor(t *testing.T, exited <-chan error, stderr *bytes.Buffer, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		select {
		case err := <-exited:
			t.Fatalf("capture exited (%v) before %s; stderr:\n%s", err, what, stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s within %v; stderr:\n%s", what, limit, stderr.String())
		}
	}
}

func connect(t *testing.T, ctx context.Context, connString string) *pgconn.PgConn {
	t.Helper()
	conn, err := pgconn.Connect(ctx, connString)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// startServer is pgserver.ForTest with extra postgresql.conf lines.
func startServer(t *testing.T, version string, settings ...string) *pgserver.Server {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	s, err := pgserver.StartWithSettings(ctx, version, settings...)
	if err != nil {
		t.Fatalf("PostgreSQL %s for this test: %v", version, err)
	}
	t.Cleanup(func() {
		if err := s.Stop(); err != nil {
			t.Errorf("stopping PostgreSQL %s: %v", version, err)
		}
	})
	return s
}

// closedPort returns a local TCP port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

func serverMajor(v string) int {
	end := 0
	for end < len(v) && v[end] >= '0' && v[end] <= '9' {
		end++
	}
	n, _ := strconv.Atoi(v[:end])
	return n
}

// jsonErrors lists the messages of a decode --json document that have an error.
func jsonErrors(doc string) string {
	var d struct {
		Messages []struct {
			Index int
			Type  string
			Hex   string
			Error *struct{ Message string }
		}
	}
	if json.Unmarshal([]byte(doc), &d) != nil {
		return "(not JSON)"
	}
	var b strings.Builder
	for _, m := range d.Messages {
		if m.Error != nil && b.Len() < 4000 {
			fmt.Fprintf(&b, "message %d (%s): %s\n  %s\n", m.Index, m.Type, m.Error.Message, m.Hex)
		}
	}
	return b.String()
}
