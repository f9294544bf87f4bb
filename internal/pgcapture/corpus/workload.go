// Package corpus runs the corpus workload (scripts/corpus/workload.sql) against a live server
// while captures with several pgoutput option sets record it. It produces the committed
// testdata/corpus files and backs the end-to-end capture test.
package corpus

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// EndMarkerPrefix is the prefix of the non-transactional logical decoding message emitted
// after the workload; captures stop when they receive it.
const EndMarkerPrefix = "pgoutput-inspector-corpus-end"

// Statement is one SQL statement of the workload.
type Statement struct {
	SQL string
	// Line is where the statement starts in the workload file.
	Line int
	// MinVersion is the lowest PostgreSQL major version that runs it (0: all).
	MinVersion int
	// WaitDecoded marks the "@wait_decoded" directive instead of SQL: wait until every
	// walsender has decoded all WAL written so far.
	WaitDecoded bool
	// Repeat is how many times the statement runs, each run its own transaction ("@repeat N"
	// before it); 0 means once.
	Repeat int
}

// Step is a named group of statements.
type Step struct {
	Name       string
	Statements []Statement
}

// Workload is the parsed workload file.
type Workload struct {
	// Setup runs before the captures start: schema, publications, replication origin.
	Setup []Statement
	// Steps run while the captures stream.
	Steps []Step
}

// LoadWorkload reads and parses a workload file.
func LoadWorkload(path string) (*Workload, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	w, err := ParseWorkload(string(src))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return w, nil
}

// ParseWorkload splits a workload into its setup and steps (see the comment at the top of
// scripts/corpus/workload.sql for the format).
func ParseWorkload(src string) (*Workload, error) {
	w := &Workload{}
	var (
		current    *[]Statement
		minVersion int
		repeat     int
		buf        strings.Builder
		startLine  int
	)
	sc := bufio.NewScanner(strings.NewReader(src))
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		trimmed := strings.TrimSpace(text)
		if directive, ok := strings.CutPrefix(trimmed, "-- @"); ok {
			if buf.Len() > 0 {
				return nil, fmt.Errorf("line %d: directive inside the statement that starts on line %d (missing ';'?)", line, startLine)
			}
			name, arg, _ := strings.Cut(directive, " ")
			switch name {
			case "setup":
				current, minVersion = &w.Setup, 0
			case "step":
				w.Steps = append(w.Steps, Step{Name: strings.TrimSpace(arg)})
				current, minVersion = &w.Steps[len(w.Steps)-1].Statements, 0
			case "wait_decoded":
				if current == nil {
					return nil, fmt.Errorf("line %d: @wait_decoded before the first @setup or @step", line)
				}
				*current = append(*current, Statement{Line: line, MinVersion: minVersion, WaitDecoded: true})
			case "repeat":
				n, err := strconv.Atoi(strings.TrimSpace(arg))
				if err != nil || n < 1 {
					return nil, fmt.Errorf("line %d: @repeat wants a positive count, found %q", line, arg)
				}
				repeat = n
			case "min_version":
				v, err := strconv.Atoi(strings.TrimSpace(arg))
				if err != nil {
					return nil, fmt.Errorf("line %d: @min_version wants a major version number, found %q", line, arg)
				}
				minVersion = v
			default:
				return nil, fmt.Errorf("line %d: unknown directive @%s (want @setup, @step, @min_version, @repeat or @wait_decoded)", line, name)
			}
			continue
		}
		if buf.Len() == 0 && (trimmed == "" || strings.HasPrefix(trimmed, "--")) {
			continue
		}
		if current == nil {
			return nil, fmt.Errorf("line %d: statement before the first @setup or @step", line)
		}
		if buf.Len() == 0 {
			startLine = line
		}
		buf.WriteString(text)
		buf.WriteByte('\n')
		if strings.HasSuffix(trimmed, ";") {
			*current = append(*current, Statement{SQL: strings.TrimSpace(buf.String()), Line: startLine, MinVersion: minVersion, Repeat: repeat})
			buf.Reset()
			repeat = 0
		}
	}
	if buf.Len() > 0 {
		return nil, fmt.Errorf("line %d: statement not ended with ';'", startLine)
	}
	return w, nil
}

// run executes statements one by one on conn, skipping those above major. monitor, when
// set, is a second connection used for @wait_decoded.
func run(ctx context.Context, conn, monitor *pgconn.PgConn, major int, what string, stmts []Statement) error {
	for _, s := range stmts {
		if s.MinVersion > major {
			continue
		}
		if s.WaitDecoded {
			if monitor == nil {
				continue
			}
			if err := waitDecoded(ctx, monitor); err != nil {
				return fmt.Errorf("%s, workload line %d: %w", what, s.Line, err)
			}
			continue
		}
		for range max(s.Repeat, 1) {
			if _, err := conn.Exec(ctx, s.SQL).ReadAll(); err != nil {
				return fmt.Errorf("%s, workload line %d: %w\n%s", what, s.Line, err, s.SQL)
			}
		}
	}
	return nil
}

// RunSetup runs the setup part.
func (w *Workload) RunSetup(ctx context.Context, conn *pgconn.PgConn, major int) error {
	return run(ctx, conn, nil, major, "setup", w.Setup)
}

// RunSteps runs every step, then emits the end marker. monitor is a second connection to
// the same server, for @wait_decoded.
func (w *Workload) RunSteps(ctx context.Context, conn, monitor *pgconn.PgConn, major int) error {
	for _, st := range w.Steps {
		if err := run(ctx, conn, monitor, major, "step "+strconv.Quote(st.Name), st.Statements); err != nil {
			return err
		}
	}
	end := fmt.Sprintf("SELECT pg_logical_emit_message(false, '%s', 'end of workload')", EndMarkerPrefix)
	if _, err := conn.Exec(ctx, end).ReadAll(); err != nil {
		return fmt.Errorf("emitting the end marker: %w", err)
	}
	return nil
}

// waitDecoded waits until every walsender has decoded the WAL written so far, open
// transactions included. A CHECKPOINT flushes that WAL first (a walsender reads only flushed
// WAL, and the workload's open transaction has not committed). Used before a transaction
// or subtransaction that has streamed rolls back: PostgreSQL 18 drops the changes of a
// transaction it already knows to be aborted instead of streaming them, so without the wait
// whether the stream appears depends on timing.
func waitDecoded(ctx context.Context, monitor *pgconn.PgConn) error {
	res, err := monitor.Exec(ctx, "SELECT pg_current_wal_insert_lsn(); CHECKPOINT").ReadAll()
	if err != nil {
		return fmt.Errorf("@wait_decoded: %w", err)
	}
	target := string(res[0].Rows[0][0])
	query := fmt.Sprintf("SELECT count(*) FILTER (WHERE sent_lsn IS NULL OR sent_lsn < '%s'), count(*) FROM pg_stat_replication", target)
	deadline := time.Now().Add(60 * time.Second)
	for {
		res, err := monitor.Exec(ctx, query).ReadAll()
		if err != nil {
			return fmt.Errorf("@wait_decoded: %w", err)
		}
		behind, total := string(res[0].Rows[0][0]), string(res[0].Rows[0][1])
		if behind == "0" {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("@wait_decoded: %s of %s walsenders did not decode up to %s within 60s", behind, total, target)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}
