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

// TestCaptureEndToEnd captures the corpus workload with the real program, stops it with
// Ctrl-C (SIGINT), checks the temporary slot is gone, and decodes the capture: no message
// may fail, and every message type the server sends must be there.
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

	out := filepath.Join(t.TempDir(), "workload.capture")
	args := []string{"capture", "--conn", srv.ConnString(), "--publication", strings.Join(corpus.Publications, ","),
		"--messages", "--streaming", "on", "--status-interval", "200ms", "--duration", "4m", "-o", out}
	variant := corpus.Variant{Config: pgcapture.Config{Messages: true, Streaming: "on"}}
	if major >= 15 {
		args = append(args, "--two-phase")
		variant.Config.TwoPhase = true
	}
	if major >= 16 {
		// Stream Abort then carries the abort LSN and time (protocol 4).
		args = append(args, "--streaming", "parallel", "--origin", "any", "--binary")
	}
	cmd := command(t, ctx, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer cmd.Process.Kill()

	// The header is written once START_REPLICATION is accepted, and flushed within a status
	// interval: from then on, every change committed is captured.
	waitFor(t, exited, &stderr, 60*time.Second, "the capture file header", func() bool {
		b, _ := os.ReadFile(out)
		return bytes.Contains(b, []byte("# options: "))
	})
	monitor := connect(t, ctx, srv.ConnString())
	if err := w.RunSteps(ctx, conn, monitor, major); err != nil {
		t.Fatal(err)
	}
	marker := []byte(hex.EncodeToString([]byte(corpus.EndMarkerPrefix + "\x00")))
	waitFor(t, exited, &stderr, 120*time.Second, "the end-of-workload message", func() bool {
		b, _ := os.ReadFile(out)
		return bytes.Contains(b, marker)
	})

	// Ctrl-C: a clean stop, everything flushed, exit 0.
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("capture after Ctrl-C: %v; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("capture did not stop within 30s of Ctrl-C; stderr:\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "stopped: interrupted") || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("stderr after Ctrl-C, want one summary line ending in \"stopped: interrupted\":\n%s", stderr.String())
	}
	t.Logf("%s", strings.TrimSpace(stderr.String()))

	// The temporary slot goes away with the walsender connection.
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

	// The capture decodes without an error, and every expected message type is present.
	r := runCmd(t, "", nil, "decode", "--json", out)
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

	// The text dump of the same capture decodes the same way.
	if r := runCmd(t, "", nil, "decode", out); r.code != exitOK || !strings.Contains(r.stdout, "format capture") {
		t.Errorf("text decode of the capture: exit %d; stderr:\n%s", r.code, r.stderr)
	}
}

// TestCaptureErrors checks the one-line errors of failed captures against real servers.
func TestCaptureErrors(t *testing.T) {
	srv := pgserver.ForTest(t, serverVersion())
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	conn := connect(t, ctx, srv.ConnString())
	major := serverMajor(conn.ParameterStatus("server_version"))
	if _, err := conn.Exec(ctx, "CREATE TABLE t (id int PRIMARY KEY, v text); CREATE PUBLICATION pub FOR TABLE t").ReadAll(); err != nil {
		t.Fatal(err)
	}

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
		cmd := command(t, ctx, "capture", "--conn", srv.ConnString(), "--publication", "no_such_pub",
			"--status-interval", "100ms", "--duration", "60s", "-o", out)
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
		if _, err := conn.Exec(ctx, "INSERT INTO t VALUES (1, 'one')").ReadAll(); err != nil {
			t.Fatal(err)
		}
		var err error
		select {
		case err = <-exited:
		case <-time.After(30 * time.Second):
			t.Fatalf("capture with a missing publication still runs 30s after a change; stderr:\n%s", stderr.String())
		}
		wantOneLineError(t, result{code: exitCode(t, err), stderr: stderr.String()}, `publication "no_such_pub" does not exist`)
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
	cmd.Env = append(cmd.Env, environ...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	return result{code: exitCode(t, err), stdout: out.String(), stderr: errOut.String()}
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
	if strings.Count(r.stderr, "\n") != 1 || !strings.HasPrefix(r.stderr, "pgoutput-inspect capture: ") {
		t.Errorf("stderr is not one \"pgoutput-inspect capture: …\" line:\n%s", r.stderr)
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
