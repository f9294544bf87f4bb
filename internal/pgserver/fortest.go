package pgserver

import (
	"context"
	"testing"
	"time"
)

// ForTest starts a server for the test and stops it when the test ends. A server that cannot
// be installed or started fails the test (it does not skip it), with the message that names
// the command to fix it.
func ForTest(t testing.TB, version string) *Server {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	s, err := Start(ctx, version)
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
