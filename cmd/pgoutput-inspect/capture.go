package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pglogrepl"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/internal/pgcapture"
)

const captureUsage = `usage: pgoutput-inspect capture --publication NAME [options] [-o FILE]

Connects to a PostgreSQL server with a replication=database connection, creates a temporary
pgoutput replication slot, starts replication with the given pgoutput options and writes
every CopyData payload the server sends (XLogData with its 25-byte header, and keepalives)
to a capture file, one line each: "LSN HEX". decode reads capture files, and so does the page.

The connection string comes from --conn, or else from the PG* environment variables (PGHOST,
PGPORT, PGUSER, PGDATABASE, PGPASSWORD…). The capture stops after --max-messages XLogData
messages, after --duration, or at Ctrl-C; in each case everything received is written and
the temporary slot is dropped.

Once the stream has started, a line on stderr names the server and the temporary slot; on a
terminal, a line of counts follows, redrawn every second. A summary line ends the capture.

Exit status: 0 when the capture ended normally, 1 when it failed (the reason is printed in
one line), 2 for a usage error.
`

func runCapture(e *env, args []string) int {
	var cfg pgcapture.Config
	var output, startLSN string
	var extra, set []string
	fs := flagSet(e, "capture", captureUsage, args)
	fs.StringVar(&cfg.ConnString, "conn", "", "libpq connection string or URL (default: the PG* environment variables); replication=database is added")
	fs.StringVar(&cfg.ConnString, "d", "", "shorthand for --conn")
	fs.Var(listFlag{&cfg.Publications, true}, "publication", "publication `name`s for publication_names (repeatable, or comma separated); required")
	fs.IntVar(&cfg.ProtoVersion, "proto-version", 0, "pgoutput proto_version `"+protoVersions+"` (default: the highest the server supports)")
	fs.BoolVar(&cfg.Binary, "binary", false, "binary 'true': column values in binary (send function) format (PostgreSQL 14+)")
	fs.BoolVar(&cfg.Messages, "messages", false, "messages 'true': send pg_logical_emit_message() messages (PostgreSQL 14+)")
	fs.Var(oneOfFlag{&cfg.Streaming, []string{"off", "on", "parallel"}}, "streaming",
		"streaming `mode`: off, on (PostgreSQL 14+) or parallel (16+); default: not sent")
	fs.BoolVar(&cfg.TwoPhase, "two-phase", false, "two_phase 'true': decode prepared transactions at PREPARE (PostgreSQL 15+)")
	fs.Var(oneOfFlag{&cfg.Origin, []string{"none", "any"}}, "origin", "origin `filter`: none or any (PostgreSQL 16+); default: not sent")
	fs.Var(listFlag{&extra, false}, "option", "extra pgoutput option as `name=value` (repeatable), sent as given")
	fs.Var(listFlag{&set, false}, "set", "walsender connection setting as `name=value` (repeatable), e.g. logical_decoding_work_mem=64kB")
	fs.StringVar(&cfg.Slot, "slot", "", "temporary slot `name` (default: pgoutput_inspect_<random>)")
	fs.StringVar(&startLSN, "start-lsn", "", "start replication at this `LSN` (X/X; default: the slot's consistent point)")
	fs.IntVar(&cfg.MaxMessages, "max-messages", 0, "stop after `N` XLogData messages (keepalives do not count); 0: no limit")
	fs.DurationVar(&cfg.Duration, "duration", 0, "stop after this long (e.g. 30s, 5m); 0: no limit")
	fs.DurationVar(&cfg.StatusInterval, "status-interval", 0, "how often to send a standby status update (default 10s)")
	fs.StringVar(&output, "o", "-", "write the capture to this `file` (\"-\": standard output)")
	fs.StringVar(&output, "output", "-", "same as -o `file`")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return usageExit(err)
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(e.stderr, "pgoutput-inspect capture: "+format+"\n", a...)
		return exitUsage
	}
	if len(pos) > 0 {
		return usage("unexpected argument %q (the output file goes with -o)", pos[0])
	}
	if len(cfg.Publications) == 0 {
		return usage("--publication is required: pgoutput sends the changes of the publications named (create one with CREATE PUBLICATION name FOR ALL TABLES)")
	}
	if cfg.ProtoVersion < 0 || cfg.ProtoVersion > decoder.MaxProto {
		return usage("--proto-version %d: pgoutput protocol versions are %d to %d", cfg.ProtoVersion, decoder.MinProto, decoder.MaxProto)
	}
	if cfg.MaxMessages < 0 || cfg.Duration < 0 {
		return usage("--max-messages and --duration must not be negative")
	}
	if startLSN != "" {
		if cfg.StartLSN, err = pglogrepl.ParseLSN(startLSN); err != nil {
			return usage("--start-lsn %q: want an LSN such as 0/1773FE8", startLSN)
		}
	}
	for _, kv := range extra {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			return usage("--option %q: want name=value", kv)
		}
		cfg.Extra = append(cfg.Extra, pgcapture.Option{Name: name, Value: value})
	}
	for _, kv := range set {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			return usage("--set %q: want name=value", kv)
		}
		if cfg.RuntimeParams == nil {
			cfg.RuntimeParams = map[string]string{}
		}
		cfg.RuntimeParams[name] = value
	}

	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	out := &lazyFile{name: output, stdout: e}
	stderr := &statusLine{w: e.stderr}
	if f, ok := e.stderr.(*os.File); ok && isTerminal(f) {
		stderr.terminal = true
	}
	into := output
	if output == "-" {
		into = "standard output"
	}
	cfg.Ready = func(r pgcapture.Result) {
		stderr.println(fmt.Sprintf("pgoutput-inspect capture: connected to %s (PostgreSQL %s); streaming from the temporary slot %s (created at %s) into %s",
			r.Server, r.ServerVersion, r.Slot, r.ConsistentPoint, into))
		if stderr.terminal {
			go stderr.tick(ctx, time.Second)
		}
	}
	cfg.Progress = stderr.update
	var failure error
	watch := &noticeWatcher{w: out, notice: func(text string) {
		// PostgreSQL 18 only warns about a publication that does not exist (earlier releases
		// fail the stream), and then sends nothing for it: almost always a misspelt name.
		if name, ok := missingPublication(text); ok {
			if failure == nil {
				failure = fmt.Errorf("replication stream: publication %q does not exist (the server warned: %s): create it (CREATE PUBLICATION name FOR ALL TABLES) or name an existing one", name, text)
				cancel()
			}
			return
		}
		stderr.println("pgoutput-inspect capture: server notice: " + text)
	}}
	res, err := pgcapture.Capture(ctx, cfg, watch)
	stderr.stop()
	if cerr := out.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err == nil {
		err = failure
	}
	if err != nil {
		stderr.println("pgoutput-inspect capture: " + oneLine(err))
		return exitError
	}
	repeated := ""
	if res.RepeatedKeepalives > 0 {
		repeated = fmt.Sprintf(" (and %d not written that repeated the previous one's WAL end)", res.RepeatedKeepalives)
	}
	stderr.println(fmt.Sprintf("pgoutput-inspect capture: %d XLogData %s and %d %s%s from PostgreSQL %s (slot %s, up to LSN %s), stopped: %s",
		res.XLogData, pgvalue.Plural(res.XLogData, "message", "messages"), res.Keepalives, pgvalue.Plural(res.Keepalives, "keepalive", "keepalives"),
		repeated, res.ServerVersion, res.Slot, res.LastLSN, stopReason(res.Reason, cfg)))
	return exitOK
}

// statusLine writes the capture's lines to stderr and, on a terminal, a line of counts that
// it rewrites in place every second ("\r", erase line) until the capture ends. Lines printed
// meanwhile (notices) erase it first; the next tick draws it again.
type statusLine struct {
	w        io.Writer
	terminal bool

	mu      sync.Mutex
	counts  pgcapture.Result
	shown   bool // the count line is on the screen
	stopped bool
}

// eraseLine returns the cursor to the line's start and erases the line (ECMA-48 EL).
const eraseLine = "\r\x1b[K"

func (s *statusLine) println(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.eraseLocked()
	fmt.Fprintln(s.w, line)
}

// update keeps the latest counts (pgcapture.Config.Progress; called for every payload).
func (s *statusLine) update(r pgcapture.Result) {
	s.mu.Lock()
	s.counts = r
	s.mu.Unlock()
}

// tick draws the counts every interval until ctx ends or stop is called.
func (s *statusLine) tick(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.mu.Lock()
		if s.stopped {
			s.mu.Unlock()
			return
		}
		r := s.counts
		fmt.Fprintf(s.w, "%spgoutput-inspect capture: %d XLogData %s, %d %s so far (up to LSN %s)", eraseLine,
			r.XLogData, pgvalue.Plural(r.XLogData, "message", "messages"), r.Keepalives+r.RepeatedKeepalives,
			pgvalue.Plural(r.Keepalives+r.RepeatedKeepalives, "keepalive", "keepalives"), r.LastLSN)
		s.shown = true
		s.mu.Unlock()
	}
}

// stop ends the ticking and erases the count line.
func (s *statusLine) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	s.eraseLocked()
}

func (s *statusLine) eraseLocked() {
	if s.shown {
		fmt.Fprint(s.w, eraseLine)
		s.shown = false
	}
}

// stopReason says why a capture ended, in words.
func stopReason(r pgcapture.StopReason, cfg pgcapture.Config) string {
	switch r {
	case pgcapture.StoppedMaxMessages:
		return fmt.Sprintf("%d messages received", cfg.MaxMessages)
	case pgcapture.StoppedDuration:
		return cfg.Duration.String() + " elapsed"
	case pgcapture.StoppedCancelled:
		return "interrupted"
	case pgcapture.StoppedByServer:
		return "the server ended the stream"
	case pgcapture.StoppedServerShutdown:
		return "the server shut down (it ended the stream after sending all its WAL)"
	}
	return string(r)
}

// oneLine makes an error one line: messages from the server may hold newlines.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// noticeWatcher passes a capture file through and calls notice with the text of every
// "# notice: " line pgcapture writes for a server notice.
type noticeWatcher struct {
	w      io.Writer
	notice func(text string)
	line   []byte // the current line, while it may still be a notice line
	skip   bool   // the current line is not a notice line
}

const noticePrefix = "# notice: "

func (n *noticeWatcher) Write(p []byte) (int, error) {
	for _, c := range p {
		if c == '\n' {
			if !n.skip && bytes.HasPrefix(n.line, []byte(noticePrefix)) {
				n.notice(string(n.line[len(noticePrefix):]))
			}
			n.line, n.skip = n.line[:0], false
			continue
		}
		if n.skip {
			continue
		}
		n.line = append(n.line, c)
		if len(n.line) <= len(noticePrefix) && !bytes.HasPrefix([]byte(noticePrefix), n.line) || len(n.line) > 64<<10 {
			n.line, n.skip = n.line[:0], true
		}
	}
	return n.w.Write(p)
}

// missingPublication recognises PostgreSQL 18's warning about a publication that does not
// exist: `WARNING: skipped loading publication "name"`.
func missingPublication(notice string) (string, bool) {
	_, rest, ok := strings.Cut(notice, `skipped loading publication "`)
	if !ok {
		return "", false
	}
	name, _, ok := strings.Cut(rest, `"`)
	return name, ok
}

// lazyFile creates the output file on the first write, so that a capture that fails before
// receiving anything (refused connection, missing publication) leaves no empty file behind.
type lazyFile struct {
	name   string
	stdout *env
	f      *os.File
	err    error
}

func (l *lazyFile) Write(p []byte) (int, error) {
	if l.name == "-" {
		return l.stdout.stdout.Write(p)
	}
	if l.f == nil && l.err == nil {
		l.f, l.err = os.Create(l.name)
	}
	if l.err != nil {
		return 0, l.err
	}
	return l.f.Write(p)
}

// Close closes the file, if one was created.
func (l *lazyFile) Close() error {
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	if err != nil {
		return fmt.Errorf("writing %s: %w", l.name, err)
	}
	return nil
}
