package pgcapture_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5/pgconn"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/internal/pgcapture"
	"pgoutput-inspector/internal/pgcapture/corpus"
	"pgoutput-inspector/internal/pgserver"
)

const workloadPath = "../../scripts/corpus/workload.sql"

// TestCaptureEndToEnd runs the corpus workload on Debian's PostgreSQL 15 while a capture
// with proto_version 3, streaming and two_phase records it; every pgoutput message type of
// PostgreSQL 15 must appear, every payload must decode without error, and the temporary
// slot must be gone afterwards.
func TestCaptureEndToEnd(t *testing.T) {
	srv := pgserver.ForTest(t, pgserver.Debian15)
	w, err := corpus.LoadWorkload(workloadPath)
	if err != nil {
		t.Fatal(err)
	}
	v := corpus.Variant{Name: "e2e", Config: pgcapture.Config{
		ProtoVersion: 3, Publications: corpus.Publications, Messages: true, Streaming: "on", TwoPhase: true,
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	captures, err := corpus.Run(ctx, srv.ConnString(), w, []corpus.Variant{v})
	if err != nil {
		t.Fatal(err)
	}
	c := captures[0]
	if !bytes.HasPrefix(c.Data, []byte(pgcapture.FileHeader+"\n")) {
		t.Errorf("capture does not start with %q", pgcapture.FileHeader)
	}
	f, err := pgcapture.ReadFile(bytes.NewReader(c.Data))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Headers["options"]; got != `proto_version=3 publication_names="pub_all","pub_insert_only" messages=true streaming=on two_phase=true` {
		t.Errorf("options header = %q", got)
	}
	if got := f.Headers["server"]; !strings.HasPrefix(got, "PostgreSQL 15.") {
		t.Errorf("server header = %q", got)
	}
	counts := f.Count()
	if missing := corpus.Missing("BMCORYIUDTSEcAbPKrp", counts); missing != "" {
		t.Errorf("message types missing from the capture: %q; counts: %v", missing, counts.ByType)
	}
	if counts.XLogData != c.Result.XLogData || counts.Keepalives != c.Result.Keepalives {
		t.Errorf("file has %d XLogData and %d keepalives, Result says %d and %d",
			counts.XLogData, counts.Keepalives, c.Result.XLogData, c.Result.Keepalives)
	}
	// Each line's LSN is the XLogData start LSN or the keepalive's WAL end.
	for i, p := range f.Payloads {
		if got := pglogrepl.LSN(be64(p.Bytes[1:9])); got != p.LSN {
			t.Fatalf("payload %d: line LSN %s, payload says %s", i, p.LSN, got)
		}
	}
	s := decoder.NewSession(decoder.Options{Proto: 3})
	failed := 0
	for i, p := range f.Payloads {
		if tree := s.Decode(p.Bytes); tree.Err != nil {
			if failed++; failed <= 5 {
				t.Errorf("payload %d (%s %x...): %v", i, p.LSN, p.Bytes[:min(len(p.Bytes), 40)], tree.Err)
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d payloads did not decode", failed, len(f.Payloads))
	}
	assertNoSlots(t, srv)
}

// TestCaptureStops checks the stop conditions: a message count, a duration and a cancelled
// context each end the capture without error, with everything flushed and the slot dropped.
func TestCaptureStops(t *testing.T) {
	srv := pgserver.ForTest(t, "16")
	exec(t, srv, "CREATE TABLE t (id int PRIMARY KEY, v text)", "CREATE PUBLICATION pub FOR TABLE t")
	base := pgcapture.Config{ConnString: srv.ConnString(), Publications: []string{"pub"}, StatusInterval: 100 * time.Millisecond}

	t.Run("max messages", func(t *testing.T) {
		cfg := base
		cfg.MaxMessages = 4 // B, R, I, C of the first transaction
		cfg.Ready = func(pgcapture.Result) {
			go exec(t, srv, "INSERT INTO t VALUES (1, 'a')", "INSERT INTO t VALUES (2, 'b')")
		}
		var out bytes.Buffer
		res := capture(t, cfg, &out)
		if res.Reason != pgcapture.StoppedMaxMessages || res.XLogData != 4 {
			t.Errorf("reason %s after %d XLogData, want %s after 4", res.Reason, res.XLogData, pgcapture.StoppedMaxMessages)
		}
		f, err := pgcapture.ReadFile(&out)
		if err != nil {
			t.Fatal(err)
		}
		var types []byte
		for _, p := range f.Payloads {
			if m := p.Message(); m != nil {
				types = append(types, m[0])
			}
		}
		if string(types) != "BRIC" {
			t.Errorf("message types %q, want BRIC", types)
		}
		if f.Headers["options"] != `proto_version=4 publication_names="pub"` {
			t.Errorf("options header %q", f.Headers["options"])
		}
	})
	t.Run("duration", func(t *testing.T) {
		cfg := base
		cfg.Duration = 500 * time.Millisecond
		res := capture(t, cfg, &bytes.Buffer{})
		if res.Reason != pgcapture.StoppedDuration {
			t.Errorf("reason %s, want %s", res.Reason, pgcapture.StoppedDuration)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cfg := base
		cfg.Ready = func(pgcapture.Result) { time.AfterFunc(300*time.Millisecond, cancel) }
		res, err := pgcapture.Capture(ctx, cfg, &bytes.Buffer{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Reason != pgcapture.StoppedCancelled {
			t.Errorf("reason %s, want %s", res.Reason, pgcapture.StoppedCancelled)
		}
	})
	t.Run("keepalives answered", func(t *testing.T) {
		// With a 1s wal_sender_timeout the server asks for a reply every half second and
		// disconnects a client that does not answer: a 3s capture must survive.
		cfg := base
		cfg.StatusInterval = time.Hour // only replies to the server's requests keep it alive
		cfg.RuntimeParams = map[string]string{"wal_sender_timeout": "1s"}
		cfg.Duration = 3 * time.Second
		res := capture(t, cfg, &bytes.Buffer{})
		if res.Reason != pgcapture.StoppedDuration || res.Keepalives == 0 {
			t.Errorf("reason %s with %d keepalives, want %s with some", res.Reason, res.Keepalives, pgcapture.StoppedDuration)
		}
	})
	t.Run("stop condition and start LSN", func(t *testing.T) {
		cfg := base
		cfg.Messages = true
		cfg.Stop = func(p pgcapture.Payload) bool {
			m := p.Message()
			return len(m) > 0 && m[0] == 'M'
		}
		cfg.Ready = func(pgcapture.Result) {
			go exec(t, srv, "INSERT INTO t VALUES (3, 'c')", "SELECT pg_logical_emit_message(false, 'x', 'stop here')")
		}
		var out bytes.Buffer
		res := capture(t, cfg, &out)
		if res.Reason != pgcapture.StoppedCondition {
			t.Errorf("reason %s, want %s", res.Reason, pgcapture.StoppedCondition)
		}
		f, err := pgcapture.ReadFile(&out)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := f.Headers["start_lsn"], res.ConsistentPoint.String(); got != want {
			t.Errorf("start_lsn header %q, want the consistent point %s", got, want)
		}
		last := f.Payloads[len(f.Payloads)-1].Message()
		if len(last) == 0 || last[0] != 'M' {
			t.Errorf("last payload is not the Message that stopped the capture")
		}
	})
	assertNoSlots(t, srv)
}

// TestCaptureErrors checks that the failures people meet are explained in words.
func TestCaptureErrors(t *testing.T) {
	srv := pgserver.ForTest(t, "15")
	exec(t, srv, "CREATE TABLE t (id int PRIMARY KEY)", "CREATE PUBLICATION pub FOR TABLE t")
	base := pgcapture.Config{ConnString: srv.ConnString(), Publications: []string{"pub"}, Duration: 10 * time.Second}

	t.Run("connection refused", func(t *testing.T) {
		cfg := base
		cfg.ConnString = fmt.Sprintf("host=127.0.0.1 port=%d user=postgres sslmode=disable connect_timeout=5", closedPort(t))
		wantError(t, cfg, "connection refused: no PostgreSQL server is listening there")
	})
	t.Run("missing publication", func(t *testing.T) {
		cfg := base
		cfg.Publications = []string{"nope"}
		cfg.Ready = func(pgcapture.Result) { go exec(t, srv, "INSERT INTO t VALUES (1)") }
		wantError(t, cfg, `publication "nope" does not exist on PostgreSQL 15.`)
	})
	t.Run("unknown option", func(t *testing.T) {
		cfg := base
		cfg.Extra = []pgcapture.Option{{Name: "frobnicate", Value: "on"}}
		wantError(t, cfg, "does not know this pgoutput option")
	})
	t.Run("proto version too high", func(t *testing.T) {
		cfg := base
		cfg.ProtoVersion = 4
		wantError(t, cfg, "refused the protocol version")
	})
	t.Run("streaming parallel on 15", func(t *testing.T) {
		cfg := base
		cfg.Streaming = "parallel"
		wantError(t, cfg, "refused an option value")
	})
	t.Run("no publication", func(t *testing.T) {
		cfg := base
		cfg.Publications = nil
		wantError(t, cfg, "no publication given")
	})
	t.Run("wal_level replica", func(t *testing.T) {
		ctx := context.Background()
		replica, err := pgserver.StartWithSettings(ctx, "15", "wal_level = replica")
		if err != nil {
			t.Fatal(err)
		}
		defer replica.Stop()
		cfg := base
		cfg.ConnString = replica.ConnString()
		wantError(t, cfg, "logical decoding is not enabled on PostgreSQL 15.")
	})
}

// TestCaptureMissingPublicationPG18 pins PostgreSQL 18's behaviour: a publication that does
// not exist is a WARNING, kept in the capture as a notice line, not an error.
func TestCaptureMissingPublicationPG18(t *testing.T) {
	srv := pgserver.ForTest(t, "18")
	exec(t, srv, "CREATE TABLE t (id int PRIMARY KEY)")
	cfg := pgcapture.Config{ConnString: srv.ConnString(), Publications: []string{"nope"}, Duration: 2 * time.Second}
	cfg.Ready = func(pgcapture.Result) { go exec(t, srv, "INSERT INTO t VALUES (1)") }
	var out bytes.Buffer
	capture(t, cfg, &out)
	if !strings.Contains(out.String(), `# notice: WARNING: skipped loading publication "nope"`) &&
		!strings.Contains(out.String(), `# notice: WARNING: publication "nope" does not exist`) {
		t.Errorf("no notice about the missing publication in:\n%s", out.String())
	}
	t.Logf("capture:\n%s", out.String())
}

func capture(t *testing.T, cfg pgcapture.Config, w *bytes.Buffer) pgcapture.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := pgcapture.Capture(ctx, cfg, w)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func wantError(t *testing.T, cfg pgcapture.Config, want string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := pgcapture.Capture(ctx, cfg, &bytes.Buffer{})
	if err == nil {
		t.Fatalf("capture succeeded, want an error containing %q", want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not contain %q", err, want)
	}
	var ce *pgcapture.Error
	if !errors.As(err, &ce) && !strings.Contains(want, "no publication") {
		t.Errorf("error %T is not a *pgcapture.Error", err)
	}
	t.Logf("error: %v", err)
}

func exec(t *testing.T, srv *pgserver.Server, stmts ...string) {
	ctx := context.Background()
	conn, err := pgconn.Connect(ctx, srv.ConnString())
	if err != nil {
		t.Error(err)
		return
	}
	defer conn.Close(ctx)
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s).ReadAll(); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
}

// assertNoSlots checks that no replication slot is left (temporary slots go with their
// connection; the walsender may need a moment to exit).
func assertNoSlots(t *testing.T, srv *pgserver.Server) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgconn.Connect(ctx, srv.ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var left string
	for range 50 {
		res, err := conn.Exec(ctx, "SELECT string_agg(slot_name, ', ') FROM pg_replication_slots").ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if left = string(res[0].Rows[0][0]); left == "" {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("replication slots left behind: %s", left)
}

func closedPort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

func be64(b []byte) uint64 {
	var v uint64
	for _, c := range b[:8] {
		v = v<<8 | uint64(c)
	}
	return v
}
