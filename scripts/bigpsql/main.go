// Command bigpsql makes large psql outputs of real pgoutput messages, for measuring how
// pgoutput-inspect decode reads them (docs/performance.md): it starts a throwaway PostgreSQL
// server (internal/pgserver, Debian's postgresql-15), inserts rows in transactions of 1000,
// keeps pg_logical_slot_peek_binary_changes's rows in a table, and runs the real psql on them
// in each form, writing OUT/FORM.txt. The files are not kept in the repository.
//
//	go run ./scripts/bigpsql -rows 2400000 -out /tmp/big   # about 1 GB a form (expanded 2 GB)
//	go run ./scripts/bigpsql -pglogrepl /tmp/big/unaligned.txt
//
// -pglogrepl reads a file as decode does (input.Stream) and parses each message with
// github.com/jackc/pglogrepl's ParseV2 instead of our decoder, writing nothing: the same
// messages for the comparison in docs/performance.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pglogrepl"

	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/pgserver"
)

// forms are psql's output forms: the file name and psql's options (the query is added).
var forms = []struct {
	name string
	args []string
	copy bool
}{
	{"aligned", nil, false},
	{"unaligned", []string{"-A"}, false},
	{"unaligned-t", []string{"-At"}, false},
	{"expanded", []string{"-x"}, false},
	{"csv", []string{"--csv"}, false},
	{"copy", nil, true},
}

func main() {
	rows := flag.Int("rows", 1600000, "rows to insert: one Insert message each (about 670 bytes a row in psql -A)")
	out := flag.String("out", "/tmp/bigpsql", "directory for the outputs")
	psql := flag.String("psql", "/usr/bin/psql", "the psql to run")
	only := flag.String("only", "", "comma-separated forms to make (default all)")
	parse := flag.String("pglogrepl", "", "parse this `file`'s messages with pglogrepl instead")
	flag.Parse()
	if *parse != "" {
		if err := parseWithPglogrepl(*parse); err != nil {
			fmt.Fprintln(os.Stderr, "bigpsql:", err)
			os.Exit(1)
		}
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *psql, *out, *rows, *only); err != nil {
		fmt.Fprintln(os.Stderr, "bigpsql:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, psql, out string, rows int, only string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	srv, err := pgserver.Start(ctx, "debian-15")
	if err != nil {
		return err
	}
	defer srv.Shutdown(pgserver.Fast, 30*time.Second)
	base := []string{"-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", strconv.Itoa(srv.Port), "-U", pgserver.SuperUser, "-d", "postgres"}
	run := func(file string, args ...string) error {
		cmd := exec.CommandContext(ctx, psql, append(append([]string(nil), base...), args...)...)
		cmd.Env = append(os.Environ(), "PGTZ=UTC", "COLUMNS=", "PAGER=", "PSQL_PAGER=", "LC_ALL=C.UTF-8")
		cmd.Stderr = os.Stderr
		if file != "" {
			f, err := os.Create(file)
			if err != nil {
				return err
			}
			defer f.Close()
			cmd.Stdout = f
		}
		return cmd.Run()
	}
	setup := fmt.Sprintf(`
CREATE TABLE t (id int PRIMARY KEY, v text);
CREATE PUBLICATION p FOR TABLE t;

DO $$ BEGIN
  FOR b IN 0..%d LOOP
    INSERT INTO t SELECT i, repeat(md5(i::text), 9) FROM generate_series(b*1000+1, least(b*1000+1000, %d)) i;
    COMMIT;
  END LOOP;
END $$;
CREATE TABLE ch AS SELECT n, lsn, xid, data FROM pg_logical_slot_peek_binary_changes('s', NULL, NULL,
  'proto_version', '1', 'publication_names', 'p') WITH ORDINALITY AS c(lsn, xid, data, n);
`, (rows-1)/1000, rows)
	start := time.Now()
	if err := run("", "-c", "SELECT 'init' FROM pg_create_logical_replication_slot('s', 'pgoutput')"); err != nil {
		return err
	}
	if err := run("", "-f", setupFile(setup)); err != nil {
		return err
	}
	fmt.Printf("bigpsql: %d rows and their changes in %v\n", rows, time.Since(start).Round(time.Second))
	query := "SELECT lsn, xid, data FROM ch ORDER BY n"
	for _, f := range forms {
		if only != "" && !strings.Contains(","+only+",", ","+f.name+",") {
			continue
		}
		file := filepath.Join(out, f.name+".txt")
		args := append(append([]string(nil), f.args...), "-c", query)
		if f.copy {
			args = []string{"-c", "COPY (" + query + ") TO STDOUT"}
		}
		start := time.Now()
		if err := run(file, args...); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
		fi, _ := os.Stat(file)
		fmt.Printf("bigpsql: %s: %d bytes in %v\n", file, fi.Size(), time.Since(start).Round(time.Second))
	}
	return nil
}

// setupFile writes the setup script to a temporary file for psql -f, which runs each statement
// in a transaction of its own (-c runs them all in one).
func setupFile(script string) string {
	f, err := os.CreateTemp("", "bigpsql-*.sql")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	f.WriteString(script)
	return f.Name()
}

// parseWithPglogrepl reads file with input.Stream and parses every message with pglogrepl,
// counting the messages and those pglogrepl fails on.
func parseWithPglogrepl(file string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	st := input.NewStream(f, input.Auto)
	if _, err := st.Start(); err != nil {
		return err
	}
	n, failed := 0, 0
	for m := st.Next(); m != nil; m = st.Next() {
		if _, err := pglogrepl.ParseV2(m.Bytes, false); err != nil {
			failed++
		}
		n++
	}
	fmt.Printf("bigpsql: %s: %d messages, pglogrepl failed on %d\n", file, n, failed)
	return st.Err()
}
