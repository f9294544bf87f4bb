package pgcapture_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"pgoutput-inspector/internal/pgcapture"
	"pgoutput-inspector/internal/pgserver"
)

// TestDuring records one change with text and with binary values side by side: each file has
// the whole transaction, Begin to Commit, and its own options; a capture that never meets its
// stop condition is an error naming it.
func TestDuring(t *testing.T) {
	srv := pgserver.ForTest(t, pgserver.Debian15)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	conn, err := pgconn.Connect(ctx, srv.ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, `CREATE TABLE during (n integer); CREATE PUBLICATION pub_during FOR TABLE during;`).ReadAll(); err != nil {
		t.Fatal(err)
	}
	endsAtCommit := func(p pgcapture.Payload) bool { m := p.Message(); return len(m) > 0 && m[0] == 'C' }
	cfgs := []pgcapture.Config{
		{ConnString: srv.ConnString(), ProtoVersion: 3, Publications: []string{"pub_during"}, Duration: time.Minute, Stop: endsAtCommit},
		{ConnString: srv.ConnString(), ProtoVersion: 3, Publications: []string{"pub_during"}, Binary: true, Duration: time.Minute, Stop: endsAtCommit},
	}
	files, err := pgcapture.During(ctx, cfgs, []string{"text", "binary"}, func() error {
		_, err := conn.Exec(ctx, `INSERT INTO during VALUES (1)`).ReadAll()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"proto_version=3 publication_names=\"pub_during\"", "proto_version=3 publication_names=\"pub_during\" binary=true"} {
		f, err := pgcapture.ReadFile(bytes.NewReader(files[i]))
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Headers["options"]; got != want {
			t.Errorf("capture %d: options %q, want %q", i, got, want)
		}
		var types []byte
		for _, p := range f.Payloads {
			if m := p.Message(); len(m) > 0 {
				types = append(types, m[0])
			}
		}
		if got := string(types); got != "BRIC" {
			t.Errorf("capture %d: messages %q, want BRIC", i, got)
		}
	}

	// A stop condition the change never meets: the capture ends at its Duration, an error.
	cfgs = cfgs[:1]
	cfgs[0].Duration, cfgs[0].Stop = 3*time.Second, func(pgcapture.Payload) bool { return false }
	_, err = pgcapture.During(ctx, cfgs, []string{"never"}, func() error { return nil })
	if err == nil || !strings.HasPrefix(err.Error(), "never: capture stopped (duration)") {
		t.Errorf("a capture that never met its stop condition: error %v", err)
	}
}
