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
	// WaitStreamed marks the "@wait_streamed" directive instead of SQL: wait until every
	// replication slot has streamed a transaction since the step began.
	WaitStreamed bool
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
			case "wait_streamed":
				if current == nil {
					return nil, fmt.Errorf("line %d: @wait_streamed before the first @setup or @step", line)
				}
				*current = append(*current, Statement{Line: line, MinVersion: minVersion, WaitStreamed: true})
			case "min_version":
				v, err := strconv.Atoi(strings.TrimSpace(arg))
				if err != nil {
					return nil, fmt.Errorf("line %d: @min_version wants a major version number, found %q", line, arg)
				}
				minVersion = v
			default:
				return nil, fmt.Errorf("line %d: unknown directive @%s (want @setup, @step, @min_version or @wait_streamed)", line, name)
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
			*current = append(*current, Statement{SQL: strings.TrimSpace(buf.String()), Line: startLine, MinVersion: minVersion})
			buf.Reset()
		}
	}
	if buf.Len() > 0 {
		return nil, fmt.Errorf("line %d: statement not ended with ';'", startLine)
	}
	return w, nil
}

// run executes statements one by one on conn, skipping those above major. monitor, when
// set, is a second connection used to watch pg_stat_replication_slots for @wait_streamed.
func run(ctx context.Context, conn, monitor *pgconn.PgConn, major int, what string, stmts []Statement) error {
	var before map[string]int64
	for _, s := range stmts {
		if s.WaitStreamed && monitor != nil && before == nil {
			var err error
			if before, err = streamCounts(ctx, monitor); err != nil {
				return fmt.Errorf("%s: %w", what, err)
			}
		}
	}
	for _, s := range stmts {
		if s.MinVersion > major {
			continue
		}
		if s.WaitStreamed {
			if monitor == nil {
				continue
			}
			if err := waitStreamed(ctx, monitor, before); err != nil {
				return fmt.Errorf("%s, workload line %d: %w", what, s.Line, err)
			}
			continue
		}
		if _, err := conn.Exec(ctx, s.SQL).ReadAll(); err != nil {
			return fmt.Errorf("%s, workload line %d: %w\n%s", what, s.Line, err, s.SQL)
		}
	}
	return nil
}

// RunSetup runs the setup part.
func (w *Workload) RunSetup(ctx context.Context, conn *pgconn.PgConn, major int) error {
	return run(ctx, conn, nil, major, "setup", w.Setup)
}

// RunSteps runs every step, then emits the end marker. monitor is a second connection to
// the same server, for @wait_streamed.
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

// streamCounts reads stream_count per replication slot (PostgreSQL 14+).
func streamCounts(ctx context.Context, monitor *pgconn.PgConn) (map[string]int64, error) {
	res, err := monitor.Exec(ctx, "SELECT slot_name, stream_count FROM pg_stat_replication_slots").ReadAll()
	if err != nil {
		return nil, fmt.Errorf("reading pg_stat_replication_slots: %w", err)
	}
	counts := map[string]int64{}
	for _, row := range res[0].Rows {
		n, _ := strconv.ParseInt(string(row[1]), 10, 64)
		counts[string(row[0])] = n
	}
	return counts, nil
}

// waitStreamed waits until every slot in before has streamed again. The decoder streams a
// transaction only once it has read the transaction's WAL; PostgreSQL 18 skips the changes
// of a transaction it already knows to be aborted, so the workload waits for the stream
// before it rolls back.
func waitStreamed(ctx context.Context, monitor *pgconn.PgConn, before map[string]int64) error {
	deadline := time.Now().Add(60 * time.Second)
	for {
		now, err := streamCounts(ctx, monitor)
		if err != nil {
			return err
		}
		behind := 0
		for slot, n := range before {
			if now[slot] <= n {
				behind++
			}
		}
		if behind == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("@wait_streamed: %d of %d replication slots did not stream within 60s", behind, len(before))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
