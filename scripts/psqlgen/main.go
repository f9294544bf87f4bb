// Command psqlgen makes the psql test data of the input package: it starts throwaway
// PostgreSQL servers (internal/pgserver), makes logical replication changes on them, and runs
// the real psql (Debian's, /usr/bin/psql) in every output mode on
// pg_logical_slot_peek_binary_changes, writing each output as CASE.txt and the messages the
// server itself gives for the same call (encode(data, 'hex'), lsn and xid) as CASE.want.
// Partial pastes are cut from real outputs the way a person selects text.
//
// CASE.want holds "#" lines (format, how it was made, which of lsn and xid the form carries,
// a word a note must hold) and, for each message, "# row LSN XID" and its hex on a line of its
// own, so that the corpus test of the input package, which reads hex lines, reads it too.
//
//	go run ./scripts/psqlgen                       # testdata/input/psql
//	go run ./scripts/psqlgen -holdout              # testdata/input/holdout/psql (other data and options)
//	go run ./scripts/psqlgen -only '^base64-t$'    # remake the cases whose names match, keep the rest
//
// Run it from the repository root (scripts/psql-outputs.sh does).
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"pgoutput-inspector/internal/pgserver"
)

func main() {
	holdout := flag.Bool("holdout", false, "make the held-out set: other data, seeds, servers and options")
	out := flag.String("out", "", "output directory (default testdata/input/psql, or testdata/input/holdout/psql with -holdout)")
	psql := flag.String("psql", "/usr/bin/psql", "the psql to run")
	only := flag.String("only", "", "a regular expression: make only the cases whose names match, and keep the other files")
	flag.Parse()
	if *only != "" {
		re, err := regexp.Compile(*only)
		if err != nil {
			fmt.Fprintln(os.Stderr, "psqlgen: -only:", err)
			os.Exit(2)
		}
		onlyCases = re
	}
	if *out == "" {
		*out = "testdata/input/psql"
		if *holdout {
			*out = "testdata/input/holdout/psql"
		}
	}
	heldOut = *holdout
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *psql, *out, *holdout); err != nil {
		fmt.Fprintln(os.Stderr, "psqlgen:", err)
		os.Exit(1)
	}
}

// onlyCases, when set, picks the cases to make; the files of the others are kept.
var onlyCases *regexp.Regexp

// heldOut says the held-out set is being made: its .want files have the evaluation
// harness's layout (an optional "# format:" line, then the hex of one message per line).
var heldOut bool

// server is one running server with its datasets made.
type server struct {
	srv     *pgserver.Server
	psql    string
	version string // server_version as it reports it
	client  string // psql --version
	major   int
}

// dataset is a slot and the pgoutput options to peek at it with.
type dataset struct {
	name    string
	srv     *server
	slot    string
	options string // the option arguments of pg_logical_slot_peek_binary_changes
	pre     string // SQL run before the call in the same session
}

func (d *dataset) call() string {
	return "pg_logical_slot_peek_binary_changes('" + d.slot + "', NULL, NULL, " + d.options + ")"
}

// row is one message as the server gives it.
type row struct{ lsn, xid, hex string }

func run(ctx context.Context, psql, out string, holdout bool) error {
	seed := int64(1)
	versions := []string{pgserver.Debian15, "17"}
	if holdout {
		seed = 20261202 // the third held-out set: the first two (seeds 20261130, 20261201) were read once each, at 98.2 %
		versions = []string{"16", "18"}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if onlyCases == nil {
		old, _ := filepath.Glob(filepath.Join(out, "*.txt"))
		oldWant, _ := filepath.Glob(filepath.Join(out, "*.want"))
		for _, f := range append(old, oldWant...) {
			os.Remove(f)
		}
	}
	rng := rand.New(rand.NewSource(seed))
	var sets []*dataset
	for i, v := range versions {
		srv, err := pgserver.Start(ctx, v)
		if err != nil {
			return err
		}
		defer srv.Stop()
		s := &server{srv: srv, psql: psql}
		if err := s.setup(ctx, rng, i, holdout); err != nil {
			return fmt.Errorf("PostgreSQL %s: %w", v, err)
		}
		sets = append(sets, s.datasets(i, holdout)...)
	}
	cases := allCases(holdout, rng)
	n := 0
	for _, c := range cases {
		if onlyCases != nil && !onlyCases.MatchString(c.name) {
			continue
		}
		d := sets[0]
		for _, s := range sets {
			if s.name == c.dataset {
				d = s
			}
		}
		if err := c.make(ctx, d, out); err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		n++
	}
	fmt.Printf("psqlgen: %d cases in %s\n", n, out)
	return nil
}

// psqlCmd runs psql on the server with args, the script on standard input.
func (s *server) psqlCmd(ctx context.Context, script string, args ...string) ([]byte, error) {
	base := []string{"-X", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", strconv.Itoa(s.srv.Port), "-U", pgserver.SuperUser, "-d", "postgres"}
	cmd := exec.CommandContext(ctx, s.psql, append(base, args...)...)
	cmd.Stdin = strings.NewReader(script)
	cmd.Env = append(os.Environ(), "PGTZ=UTC", "COLUMNS=", "PAGER=", "PSQL_PAGER=", "LC_ALL=C.UTF-8")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("psql %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return outb, nil
}

// setup makes the tables, the publication, the slots and the changes.
func (s *server) setup(ctx context.Context, rng *rand.Rand, idx int, holdout bool) error {
	v, err := s.psqlCmd(ctx, "SHOW server_version;", "-qAt")
	if err != nil {
		return err
	}
	s.version = strings.TrimSpace(string(v))
	s.major, _ = strconv.Atoi(strings.SplitN(s.version, ".", 2)[0])
	cv, err := exec.CommandContext(ctx, s.psql, "--version").Output()
	if err != nil {
		return err
	}
	s.client = strings.TrimSpace(string(cv))
	names := []string{"ann", "bob", "cy", "dora", "ed", "fay", "gus", "hal", "iva", "jo"}
	pick := func() string { return names[rng.Intn(len(names))] }
	var b strings.Builder
	b.WriteString(`CREATE TABLE accounts (id int PRIMARY KEY, owner text, balance numeric(12,2), opened date, avatar bytea, tags text[]);
ALTER TABLE accounts REPLICA IDENTITY FULL;
CREATE TABLE docs (id int PRIMARY KEY, title text, body text);
ALTER TABLE docs ALTER COLUMN body SET STORAGE EXTERNAL;
CREATE TABLE events (id bigserial PRIMARY KEY, kind text, at timestamptz);
CREATE PUBLICATION pub FOR TABLE accounts, events;
CREATE PUBLICATION pub_all FOR ALL TABLES;
SELECT 'init' FROM pg_create_logical_replication_slot('s_text', 'pgoutput');
SELECT 'init' FROM pg_create_logical_replication_slot('s_bin', 'pgoutput');
SELECT 'init' FROM pg_create_logical_replication_slot('s_toast', 'pgoutput');
`)
	rows := 2 + rng.Intn(3)
	b.WriteString("BEGIN;\n")
	for i := 1; i <= rows; i++ {
		fmt.Fprintf(&b, "INSERT INTO accounts VALUES (%d, '%s', %d.%02d, '2024-%02d-%02d', '\\x%02x%02x0a7c2c22', '{%s,\"a b\"}');\n",
			i, pick(), rng.Intn(10000), rng.Intn(100), 1+rng.Intn(12), 1+rng.Intn(28), rng.Intn(256), rng.Intn(256), pick())
	}
	b.WriteString("COMMIT;\n")
	fmt.Fprintf(&b, "UPDATE accounts SET balance = balance + %d, owner = 'it''s %s' WHERE id = 1;\n", 1+rng.Intn(50), pick())
	// A toasted body, then a key change that leaves it unchanged ('u') and sends the old key.
	fmt.Fprintf(&b, "INSERT INTO docs SELECT 1, 'notes|%s', string_agg(md5(i::text || '%d'), '') FROM generate_series(1, %d) i;\n",
		pick(), rng.Int63(), 70+rng.Intn(20))
	b.WriteString("UPDATE docs SET id = 2, title = E'tab\\there' WHERE id = 1;\n")
	fmt.Fprintf(&b, "INSERT INTO events (kind, at) VALUES ('login', '2025-0%d-0%d 10:11:12.%06d+00');\n", 1+rng.Intn(9), 1+rng.Intn(9), rng.Intn(1000000))
	b.WriteString("DELETE FROM accounts WHERE id = 2;\n")
	if s.major >= 14 {
		fmt.Fprintf(&b, "SELECT 'msg' FROM pg_logical_emit_message(true, 'app', 'hello %s');\n", pick())
		b.WriteString("SELECT 'msg' FROM pg_logical_emit_message(false, 'app', E'\\\\x00ff');\n")
		// Content ending in a newline and a blank: in encode(…, 'escape') under -A, the row
		// ends in a line break and a blank of its own.
		b.WriteString("SELECT 'msg' FROM pg_logical_emit_message(false, 'app', E'two lines \\n ');\n")
		b.WriteString("SELECT 'msg' FROM pg_logical_emit_message(false, 'app', E'ends in a newline\\n');\n")
		b.WriteString("SELECT 'msg' FROM pg_logical_emit_message(false, 'app', 'ends with a dot.');\n")
	}
	b.WriteString("TRUNCATE events;\n")
	// A transaction big enough to be streamed when the slot is read with streaming on
	// (logical_decoding_work_mem is 64kB), or streamed by the debug setting on 16+.
	if holdout {
		fmt.Fprintf(&b, "BEGIN; INSERT INTO events (kind, at) SELECT 'bulk' || i, '2025-01-01'::timestamptz + i * interval '1 s' FROM generate_series(1, %d) i; COMMIT;\n", 3+rng.Intn(3))
	} else {
		b.WriteString("BEGIN; INSERT INTO events (kind, at) VALUES ('bulk', '2025-02-03 04:05:06+00'), ('bulk2', NULL); COMMIT;\n")
	}
	if _, err := s.psqlCmd(ctx, b.String(), "-q"); err != nil {
		return err
	}
	return nil
}

// datasets names the slots of server idx with the options they are read with.
func (s *server) datasets(idx int, holdout bool) []*dataset {
	name := "pg" + strconv.Itoa(s.major)
	text := &dataset{name: "text" + strconv.Itoa(idx), srv: s, slot: "s_text",
		options: "'proto_version', '1', 'publication_names', 'pub'"}
	proto := 4
	if s.major < 16 {
		proto = 3
	}
	if holdout && s.major >= 16 {
		proto = 2
	}
	bin := &dataset{name: "bin" + strconv.Itoa(idx), srv: s, slot: "s_bin",
		options: "'proto_version', '" + strconv.Itoa(proto) + "', 'publication_names', 'pub', 'binary', 'true', 'messages', 'true', 'streaming', 'on'"}
	if s.major >= 16 {
		bin.pre = "SET debug_logical_replication_streaming = immediate;\n"
	}
	// A toasted value is thousands of bytes: psql pads every line of a bordered table to it,
	// so it goes only into a few outputs.
	toast := &dataset{name: "toast" + strconv.Itoa(idx), srv: s, slot: "s_toast",
		options: "'proto_version', '1', 'publication_names', 'pub_all'"}
	if holdout {
		text.options = "'proto_version', '1', 'publication_names', 'pub', 'messages', 'true'"
	}
	_ = name
	return []*dataset{text, bin, toast}
}

// rows returns the messages the server gives for d, with their lsn and xid.
func (d *dataset) rows(ctx context.Context, pre string) ([]row, error) {
	// pre's settings apply: bytea_output changes how the server writes bytea column values
	// inside the messages themselves.
	out, err := d.srv.psqlCmd(ctx, d.pre+pre+"SELECT lsn, xid, encode(data, 'hex') FROM "+d.call()+";", "-qAt", "-F", " ")
	if err != nil {
		return nil, err
	}
	var rows []row
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(l)
		if len(f) != 3 {
			return nil, fmt.Errorf("unexpected row %q", l)
		}
		rows = append(rows, row{f[0], f[1], f[2]})
	}
	return rows, nil
}

// psqlCase is one output of psql.
type psqlCase struct {
	name    string
	dataset string
	// cols is the select list; copy, when set, runs COPY (SELECT cols …) TO STDOUT copy.
	cols string
	copy string
	// args are psql's options; pre are psql commands and SQL before the query.
	args []string
	pre  string
	// fields says which of lsn, xid the output carries.
	lsn, xid bool
	// session runs psql interactively (prompts, echo, banner) with these input lines, %Q
	// standing for the query; crlf keeps the terminal's CRLF line ends.
	session []string
	crlf    bool
	// cut makes a partial paste of the output: the text, the indexes of the rows it holds,
	// how many hex digits of the last one are there (-1: all) and a word the note must hold.
	cut func(text string, rows []row) (string, []int, int, string)
	// limit keeps the first rows only (LIMIT n) when > 0; repeat says how many times a
	// session runs the query.
	limit, repeat int
	// format is the format the text must be read as (checked by the golden test).
	format string
	// fails says the output cannot be read back exactly: a piece of the error that says why
	// ("# error:" in CASE.want).
	fails string
}

func (c *psqlCase) query(d *dataset) string {
	q := "SELECT " + c.cols + " FROM " + d.call()
	if c.limit > 0 {
		q += " LIMIT " + strconv.Itoa(c.limit)
	}
	if c.copy != "" {
		return "COPY (" + q + ") TO STDOUT" + strings.TrimPrefix(c.copy, "plain")
	}
	return q
}

func (c *psqlCase) make(ctx context.Context, d *dataset, out string) error {
	rows, err := d.rows(ctx, c.pre)
	if err != nil {
		return err
	}
	if c.limit > 0 && len(rows) > c.limit {
		rows = rows[:c.limit]
	}
	if c.repeat > 1 {
		one := rows
		for k := 1; k < c.repeat; k++ {
			rows = append(rows, one...)
		}
	}
	var text []byte
	if c.session != nil {
		text, err = c.runSession(ctx, d)
	} else {
		text, err = d.srv.psqlCmd(ctx, d.pre+c.pre+c.query(d)+";\n", append([]string{"-q"}, c.args...)...)
	}
	if err != nil {
		return err
	}
	keep := make([]int, len(rows))
	for i := range keep {
		keep[i] = i
	}
	cutDigits := -1
	note := ""
	if c.cut != nil {
		var s string
		s, keep, cutDigits, note = c.cut(string(text), rows)
		text = []byte(s)
		if keep == nil {
			return fmt.Errorf("the cut found nothing to cut")
		}
	}
	var w strings.Builder
	if heldOut {
		// The evaluation harness's layout: an optional format line, then one message per line.
		if c.format != "" {
			fmt.Fprintf(&w, "# format: %s\n", c.format)
		}
		for k, i := range keep {
			h := rows[i].hex
			if k == len(keep)-1 && cutDigits >= 0 {
				h = h[:cutDigits&^1]
			}
			fmt.Fprintf(&w, "%s\n", h)
		}
	} else if c.format != "" {
		fmt.Fprintf(&w, "# format: %s\n", c.format)
	}
	how := "psql " + strings.Join(c.args, " ")
	if c.session != nil {
		how = "psql, interactive session"
	}
	if !heldOut {
		fmt.Fprintf(&w, "# made by: %s (%s) against PostgreSQL %s: %s\n", how, d.srv.client, d.srv.version,
			strings.Join(strings.Fields(strings.ReplaceAll(c.pre+c.query(d), "\n", " ")), " "))
	}
	var fields []string
	if c.lsn {
		fields = append(fields, "lsn")
	}
	if c.xid {
		fields = append(fields, "xid")
	}
	if !heldOut {
		fmt.Fprintf(&w, "# fields: %s\n", strings.Join(fields, " "))
	}
	if heldOut {
	} else if note != "" {
		fmt.Fprintf(&w, "# note: %s\n", note)
	}
	if c.fails != "" && !heldOut {
		fmt.Fprintf(&w, "# error: %s\n", c.fails)
	}
	for k, i := range keep {
		if heldOut {
			break
		}
		h := rows[i].hex
		if k == len(keep)-1 && cutDigits >= 0 {
			h = h[:cutDigits&^1]
		}
		fmt.Fprintf(&w, "# row %s %s\n%s\n", rows[i].lsn, rows[i].xid, h)
	}
	if err := os.WriteFile(filepath.Join(out, c.name+".txt"), text, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, c.name+".want"), []byte(w.String()), 0o644)
}

// prompt matches the end of psql's prompts: postgres=#, postgres-#, postgres(#.
var prompt = regexp.MustCompile(`postgres[=\-('"*]# $`)

// ansi matches terminal control sequences, which a terminal shows as nothing.
var ansi = regexp.MustCompile(`\x1b(\[[0-9;?]*[A-Za-z]|\][^\x07]*\x07|[=>])`)

// runSession runs psql interactively under script(1), so that it prints its banner, prompts
// and the typed lines as a terminal shows them; each line is typed after the prompt appears.
func (c *psqlCase) runSession(ctx context.Context, d *dataset) ([]byte, error) {
	s := d.srv
	psqlLine := fmt.Sprintf("%s -n -h 127.0.0.1 -p %d -U %s postgres", s.psql, s.srv.Port, pgserver.SuperUser)
	cmd := exec.CommandContext(ctx, "script", "-q", "-f", "-e", "-c", psqlLine, "/dev/null")
	cmd.Env = append(os.Environ(), "PAGER=", "PSQL_PAGER=", "COLUMNS=120", "LINES=5000", "TERM=dumb", "PGTZ=UTC", "LC_ALL=C.UTF-8")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	outc := make(chan []byte, 64)
	go func() {
		r := bufio.NewReader(stdout)
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				outc <- append([]byte(nil), buf[:n]...)
			}
			if err != nil {
				close(outc)
				return
			}
		}
	}()
	var all bytes.Buffer
	seen := 0 // output up to here was there when the last line was typed
	waitPrompt := func() error {
		deadline := time.After(20 * time.Second)
		for {
			t := all.Bytes()
			if len(t) > seen && prompt.Match(t[max(0, len(t)-12):]) {
				seen = len(t)
				return nil
			}
			select {
			case b, ok := <-outc:
				if !ok {
					return io.EOF
				}
				all.Write(b)
			case <-deadline:
				return fmt.Errorf("no prompt after %q", all.String())
			}
		}
	}
	lines := append([]string{}, c.session...)
	lines = append(lines, `\q`)
	for _, l := range lines {
		// %QLINES is the query typed over three lines.
		l = strings.ReplaceAll(l, "%QLINES", strings.Replace(strings.Replace(c.query(d), " FROM ", "\n  FROM ", 1), ", NULL, NULL, ", ", NULL, NULL,\n       ", 1))
		l = strings.ReplaceAll(l, "%Q", c.query(d))
		l = strings.ReplaceAll(l, "%PRE", strings.TrimSpace(d.pre))
		for _, part := range strings.Split(l, "\n") {
			if err := waitPrompt(); err != nil {
				return nil, err
			}
			if _, err := io.WriteString(stdin, part+"\n"); err != nil {
				return nil, err
			}
		}
	}
	stdin.Close()
	for b := range outc {
		all.Write(b)
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("script: %v: %s", err, all.String())
	}
	text := ansi.ReplaceAll(all.Bytes(), nil)
	if !c.crlf {
		text = bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n"))
	}
	// Timing lines vary from run to run; they stay in, as a paste has them.
	return text, nil
}

// lines splits text into lines without their "\n".
func lines(text string) []string { return strings.Split(strings.TrimSuffix(text, "\n"), "\n") }

func join(ls []string) string { return strings.Join(ls, "\n") + "\n" }

// allIdx returns 0..n-1.
func allIdx(n int) []int {
	k := make([]int, n)
	for i := range k {
		k[i] = i
	}
	return k
}

// afterRule drops the header and rule of an aligned table (and anything before them).
func afterRule(text string, rows []row) (string, []int, int, string) {
	ls := lines(text)
	for i, l := range ls {
		if strings.HasPrefix(l, "---") || strings.HasPrefix(l, "───") || strings.Contains(l, "-+-") || strings.Contains(l, "─┼─") {
			return join(ls[i+1:]), allIdx(len(rows)), -1, ""
		}
	}
	return "", nil, 0, ""
}

// fromRule drops the header line: the paste starts at the rule under it.
func fromRule(text string, rows []row) (string, []int, int, string) {
	ls := lines(text)
	for i, l := range ls {
		if i > 0 && (strings.HasPrefix(l, "---") || strings.HasPrefix(l, "───") || strings.Contains(l, "-+-") || strings.Contains(l, "─┼─")) {
			return join(ls[i:]), allIdx(len(rows)), -1, ""
		}
	}
	return "", nil, 0, ""
}

// firstTrimmed drops the blanks at the start of the first line, as a selection that starts
// at its first visible character does.
func firstTrimmed(text string, rows []row) (string, []int, int, string) {
	ls := lines(text)
	if strings.TrimLeft(ls[0], " ") == ls[0] {
		return "", nil, 0, ""
	}
	ls[0] = strings.TrimLeft(ls[0], " ")
	return join(ls), allIdx(len(rows)), -1, ""
}

// restIndented indents every line but the first by four blanks: a table pasted into a chat
// or a mail as a code block, the first line selected from its first character.
func restIndented(text string, rows []row) (string, []int, int, string) {
	ls := lines(text)
	ls[0] = strings.TrimLeft(ls[0], " ")
	for i := 1; i < len(ls); i++ {
		ls[i] = "    " + ls[i]
	}
	return join(ls), allIdx(len(rows)), -1, ""
}

// rowLines finds the line of each row of an aligned table: the line holding its lsn.
func rowLines(ls []string, rows []row) []int {
	var at []int
	next := 0
	for i, l := range ls {
		if next < len(rows) && strings.Contains(l, rows[next].lsn+" ") && strings.Contains(l, " "+rows[next].xid+" ") {
			at = append(at, i)
			next++
		}
	}
	return at
}

// dropRow removes the third row (all its lines) and keeps the footer, whose count is then wrong.
func dropRow(text string, rows []row) (string, []int, int, string) {
	ls := lines(text)
	at := rowLines(ls, rows)
	if len(at) < 4 {
		return "", nil, 0, ""
	}
	out := append(append([]string{}, ls[:at[2]]...), ls[at[3]:]...)
	keep := append(allIdx(2), allIdx(len(rows))[3:]...)
	return join(out), keep, -1, "footer"
}

// oneRecord keeps expanded record 3 only, with its "-[ RECORD 3 ]" line or without it.
func oneRecord(withHeader bool) func(string, []row) (string, []int, int, string) {
	return func(text string, rows []row) (string, []int, int, string) {
		ls := lines(text)
		start, end := -1, len(ls)
		for i, l := range ls {
			if strings.Contains(l, "RECORD 3 ") {
				start = i
			} else if start >= 0 && strings.Contains(l, "RECORD 4 ") {
				end = i
				break
			}
		}
		if start < 0 {
			return "", nil, 0, ""
		}
		if !withHeader {
			start++
		}
		return join(ls[start:end]), []int{2}, -1, ""
	}
}

// firstCellCut starts the paste in the middle of the first row's first cell.
func firstCellCut(text string, rows []row) (string, []int, int, string) {
	t, keep, _, _ := afterRule(text, rows)
	if keep == nil {
		return "", nil, 0, ""
	}
	i := strings.Index(t, "/")
	return t[i+3:], keep, -1, "first"
}

// dataCell is the data value of the second row alone.
func dataCell(text string, rows []row) (string, []int, int, string) {
	ls := lines(text)
	at := rowLines(ls, rows)
	if len(at) < 2 {
		return "", nil, 0, ""
	}
	f := strings.Fields(ls[at[1]])
	return f[len(f)-1] + "\n", []int{1}, -1, ""
}

// cutValue ends the paste in the middle of the fourth row's value (no footer).
func cutValue(text string, rows []row) (string, []int, int, string) {
	ls := lines(text)
	at := rowLines(ls, rows)
	if len(at) < 4 {
		return "", nil, 0, ""
	}
	l := ls[at[3]]
	v := strings.Index(l, `\x`)
	if v < 0 {
		return "", nil, 0, ""
	}
	n := (len(l) - v - 2) / 2
	if n > 40 {
		n = 40
	}
	if n%2 == 1 {
		n++ // an even number of digits, so that the bytes there are whole
	}
	// A selection that ends in the middle of a line has no line end.
	return strings.TrimSuffix(join(append(append([]string{}, ls[:at[3]]...), l[:v+2+n])), "\n"), allIdx(4), n, "cut"
}

// allCases lists the outputs to make. The held-out set varies the widths, the order and the
// data; rng picks among equivalent choices there.
func allCases(holdout bool, rng *rand.Rand) []*psqlCase {
	var cs []*psqlCase
	full := "lsn, xid, data"
	width := "100"
	if holdout {
		width = strconv.Itoa(60 + rng.Intn(100))
	}
	for _, mode := range []string{"aligned", "wrapped", "expanded"} {
		for _, ls := range []string{"ascii", "old-ascii", "unicode"} {
			for _, border := range []string{"0", "1", "2"} {
				args := []string{"-P", "linestyle=" + ls, "-P", "border=" + border}
				format := "psql-aligned"
				switch mode {
				case "wrapped":
					args = append(args, "-P", "format=wrapped", "-P", "columns="+width)
				case "expanded":
					args = append(args, "-x")
					format = "psql-expanded"
				}
				ds := "text0"
				if holdout && rng.Intn(2) == 0 {
					ds = "bin1"
				}
				cs = append(cs, &psqlCase{name: mode + "-" + ls + "-b" + border, dataset: ds, cols: full, args: args, lsn: true, xid: true, format: format})
			}
		}
	}
	// expanded and wrapped at once
	cs = append(cs,
		&psqlCase{name: "expanded-wrapped-unicode-b2", dataset: "text0", cols: full, args: []string{"-x", "-P", "format=wrapped", "-P", "columns=" + width, "-P", "linestyle=unicode", "-P", "border=2"}, lsn: true, xid: true, format: "psql-expanded"},
		&psqlCase{name: "expanded-wrapped-ascii-b1", dataset: "bin1", cols: full, args: []string{"-x", "-P", "format=wrapped", "-P", "columns=" + width}, lsn: true, xid: true, format: "psql-expanded"},
	)
	// CSV, HTML, asciidoc, unaligned with any separator
	cs = append(cs,
		&psqlCase{name: "csv", dataset: "text0", cols: full, args: []string{"--csv"}, lsn: true, xid: true, format: "psql-csv"},
		&psqlCase{name: "csv-t", dataset: "bin1", cols: full, args: []string{"--csv", "-t"}, lsn: true, xid: true, format: "psql-csv"},
		&psqlCase{name: "csv-x", dataset: "text0", cols: full, args: []string{"--csv", "-x"}, lsn: true, xid: true},
		&psqlCase{name: "html", dataset: "text0", cols: full, args: []string{"-H"}, lsn: true, xid: true, format: "psql-html"},
		&psqlCase{name: "html-x", dataset: "bin1", cols: full, args: []string{"-H", "-x"}, lsn: true, xid: true, format: "psql-html"},
		&psqlCase{name: "asciidoc", dataset: "text0", cols: full, args: []string{"-P", "format=asciidoc"}, lsn: true, xid: true, format: "psql-asciidoc"},
		&psqlCase{name: "asciidoc-x", dataset: "bin1", cols: full, args: []string{"-P", "format=asciidoc", "-x"}, lsn: true, xid: true, format: "psql-asciidoc"},
		&psqlCase{name: "unaligned", dataset: "text0", cols: full, args: []string{"-A"}, lsn: true, xid: true, format: "psql-unaligned"},
		&psqlCase{name: "unaligned-t", dataset: "bin1", cols: full, args: []string{"-A", "-t"}, lsn: true, xid: true, format: "psql-unaligned"},
		&psqlCase{name: "unaligned-tab", dataset: "text0", cols: full, args: []string{"-A", "-F", "\t"}, lsn: true, xid: true, format: "psql-unaligned"},
		&psqlCase{name: "unaligned-comma", dataset: "text0", cols: full, args: []string{"-A", "-F", ","}, lsn: true, xid: true, format: "psql-csv"},
		&psqlCase{name: "unaligned-semicolon-t", dataset: "bin1", cols: full, args: []string{"-At", "-F", ";"}, lsn: true, xid: true, format: "psql-unaligned"},
		&psqlCase{name: "unaligned-zero", dataset: "text0", cols: full, args: []string{"-A", "-z"}, lsn: true, xid: true, format: "psql-unaligned"},
		&psqlCase{name: "unaligned-zero-t", dataset: "bin1", cols: full, args: []string{"-At", "-z"}, lsn: true, xid: true, format: "psql-unaligned"},
		&psqlCase{name: "unaligned-x", dataset: "text0", cols: full, args: []string{"-A", "-x"}, lsn: true, xid: true, format: "psql-unaligned"},
		&psqlCase{name: "unaligned-tx", dataset: "bin1", cols: full, args: []string{"-A", "-t", "-x"}, lsn: true, xid: true, format: "psql-unaligned"},
	)
	// One column of any name; columns in any order; extra columns.
	for _, col := range []struct{ name, expr string }{{"data", "data"}, {"encode", "encode(data, 'hex')"}, {"alias", "data AS payload"}} {
		ds := "text0"
		if col.name == "alias" {
			ds = "bin1"
		}
		for _, m := range []struct {
			name   string
			args   []string
			format string
		}{{"aligned", nil, "psql-aligned"}, {"unaligned", []string{"-A"}, "psql-unaligned"}, {"t", []string{"-t"}, "psql-aligned"},
			{"At", []string{"-At"}, ""}, {"x", []string{"-x"}, "psql-expanded"}, {"csv", []string{"--csv"}, "psql-csv"}} {
			format := m.format
			if m.name == "csv" || m.name == "t" {
				format = "" // the same text as -A (-t: as lines of hex); either reading is right
			}
			cs = append(cs, &psqlCase{name: "onecol-" + col.name + "-" + m.name, dataset: ds, cols: col.expr, args: m.args, format: format})
		}
	}
	cs = append(cs,
		&psqlCase{name: "order-xid-lsn-data", dataset: "text0", cols: "xid, lsn, data", lsn: true, xid: true, format: "psql-aligned"},
		&psqlCase{name: "order-data-lsn-unaligned", dataset: "bin1", cols: "data, lsn", args: []string{"-A"}, lsn: true, format: "psql-unaligned"},
		&psqlCase{name: "extra-columns", dataset: "text0", cols: "lsn, xid, length(data) AS len, data, get_byte(data, 0) AS type", lsn: true, xid: true, format: "psql-aligned"},
		&psqlCase{name: "extra-columns-x", dataset: "bin1", cols: "lsn, xid, length(data) AS len, data", args: []string{"-x"}, lsn: true, xid: true, format: "psql-expanded"},
		&psqlCase{name: "extra-columns-csv", dataset: "text0", cols: "lsn, xid, data, length(data) AS len", args: []string{"--csv"}, lsn: true, xid: true, format: "psql-csv"},
	)
	// COPY … TO STDOUT
	cs = append(cs,
		&psqlCase{name: "copy-text", dataset: "text0", cols: full, copy: "plain", lsn: true, xid: true, format: "copy"},
		&psqlCase{name: "copy-text-header", dataset: "bin1", cols: full, copy: " WITH (FORMAT text, HEADER)", lsn: true, xid: true, format: "copy"},
		&psqlCase{name: "copy-csv", dataset: "text0", cols: full, copy: " WITH (FORMAT csv)", lsn: true, xid: true, format: "psql-csv"},
		&psqlCase{name: "copy-csv-header", dataset: "bin1", cols: full, copy: " WITH (FORMAT csv, HEADER)", lsn: true, xid: true, format: "psql-csv"},
		&psqlCase{name: "copy-data-only", dataset: "text0", cols: "data", copy: "plain", format: "copy"},
	)
	// bytea_output = 'escape', encode(data, 'escape'), encode(data, 'base64')
	esc := "SET bytea_output = 'escape';\n"
	cs = append(cs,
		&psqlCase{name: "escape-aligned", dataset: "text0", cols: full, pre: esc, lsn: true, xid: true, format: "psql-aligned"},
		&psqlCase{name: "escape-unaligned", dataset: "bin1", cols: full, pre: esc, args: []string{"-A"}, lsn: true, xid: true, format: "psql-unaligned"},
		&psqlCase{name: "escape-csv", dataset: "text0", cols: full, pre: esc, args: []string{"--csv"}, lsn: true, xid: true, format: "psql-csv"},
		&psqlCase{name: "escape-expanded", dataset: "bin1", cols: full, pre: esc, args: []string{"-x"}, lsn: true, xid: true, format: "psql-expanded"},
		&psqlCase{name: "escape-copy", dataset: "text0", cols: full, pre: esc, copy: "plain", lsn: true, xid: true, format: "copy"},
		&psqlCase{name: "encode-escape-unaligned", dataset: "bin1", cols: "lsn, xid, encode(data, 'escape') AS data", args: []string{"-A"}, lsn: true, xid: true, format: "psql-unaligned"},
		&psqlCase{name: "encode-escape-csv", dataset: "bin1", cols: "lsn, xid, encode(data, 'escape') AS data", args: []string{"--csv"}, lsn: true, xid: true, format: "psql-csv"},
		// psql's aligned display shows a tab byte as blanks, and hides blanks next to a line
		// break: read where the message decodes.
		&psqlCase{name: "encode-escape-aligned", dataset: "text0", cols: "lsn, xid, encode(data, 'escape') AS data", lsn: true, xid: true, format: "psql-aligned"},
	)
	b64 := "lsn, xid, encode(data, 'base64') AS data"
	for _, m := range []struct {
		name   string
		args   []string
		format string
	}{{"aligned", nil, "psql-aligned"}, {"aligned-unicode", []string{"-P", "linestyle=unicode"}, "psql-aligned"},
		{"aligned-b2", []string{"-P", "border=2"}, "psql-aligned"}, {"old-ascii", []string{"-P", "linestyle=old-ascii"}, "psql-aligned"},
		{"t", []string{"-t"}, "psql-aligned"},
		{"wrapped", []string{"-P", "format=wrapped", "-P", "columns=" + width}, "psql-aligned"},
		{"expanded", []string{"-x"}, "psql-expanded"}, {"expanded-unicode-b2", []string{"-x", "-P", "linestyle=unicode", "-P", "border=2"}, "psql-expanded"},
		{"unaligned", []string{"-A"}, "psql-unaligned"}, {"csv", []string{"--csv"}, "psql-csv"}, {"html", []string{"-H"}, "psql-html"},
		{"asciidoc", []string{"-P", "format=asciidoc"}, "psql-asciidoc"}} {
		ds := "text0"
		if strings.Contains(m.name, "unicode") || m.name == "csv" {
			ds = "bin1"
		}
		format := m.format
		if m.name == "t" {
			format = "psql-aligned" // psql's aligned table without its header and rule
		}
		cs = append(cs, &psqlCase{name: "base64-" + m.name, dataset: ds, cols: b64, args: m.args, lsn: true, xid: true, format: format})
	}
	cs = append(cs, &psqlCase{name: "base64-onecol", dataset: "bin1", cols: "encode(data, 'base64')", format: "psql-aligned"},
		// Lines of base64, a '+' after those that continue: psql's aligned column without header.
		&psqlCase{name: "base64-onecol-t", dataset: "bin1", cols: "encode(data, 'base64')", args: []string{"-t"}, format: "psql-aligned"})
	// Forms whose values span lines with nothing to mark it: base64's line every 76
	// characters and encode(data, 'escape')'s raw newlines in -A and -At output, and COPY's
	// "\n" escapes of the same line breaks.
	b64one := "encode(data, 'base64')"
	escFull := "lsn, xid, encode(data, 'escape') AS data"
	escOne := "encode(data, 'escape')"
	cs = append(cs,
		&psqlCase{name: "base64-At", dataset: "bin1", cols: b64, args: []string{"-At"}, lsn: true, xid: true, format: "psql-unaligned"},
		&psqlCase{name: "base64-onecol-At", dataset: "text0", cols: b64one, args: []string{"-At"}},
		&psqlCase{name: "base64-onecol-At-bin", dataset: "bin1", cols: b64one, args: []string{"-At"}},
		&psqlCase{name: "base64-onecol-unaligned", dataset: "bin1", cols: b64one, args: []string{"-A"}, format: "psql-unaligned"},
		&psqlCase{name: "base64-copy", dataset: "bin1", cols: b64, copy: "plain", lsn: true, xid: true, format: "copy"},
		&psqlCase{name: "base64-onecol-copy", dataset: "text0", cols: b64one, copy: "plain", format: "copy"},
		&psqlCase{name: "base64-copy-csv", dataset: "bin1", cols: b64, copy: " WITH (FORMAT csv)", lsn: true, xid: true, format: "psql-csv"},
		&psqlCase{name: "encode-escape-At", dataset: "bin1", cols: escFull, args: []string{"-At"}, lsn: true, xid: true, format: "psql-unaligned"},
		&psqlCase{name: "encode-escape-onecol-At", dataset: "bin1", cols: escOne, args: []string{"-At"}},
		&psqlCase{name: "encode-escape-onecol-unaligned", dataset: "text0", cols: escOne, args: []string{"-A"}, format: "psql-unaligned"},
		&psqlCase{name: "encode-escape-copy", dataset: "bin1", cols: escFull, copy: "plain", lsn: true, xid: true, format: "copy"},
		&psqlCase{name: "encode-escape-aligned-bin", dataset: "bin1", cols: escFull, lsn: true, xid: true, format: "psql-aligned"},
		&psqlCase{name: "encode-escape-expanded", dataset: "bin1", cols: escFull, args: []string{"-x"}, lsn: true, xid: true, format: "psql-expanded"},
		&psqlCase{name: "encode-escape-wrapped", dataset: "bin1", cols: escFull, args: []string{"-P", "format=wrapped", "-P", "columns=" + width}, lsn: true, xid: true, format: "psql-aligned"},
		&psqlCase{name: "encode-escape-unaligned-x", dataset: "bin1", cols: escFull, args: []string{"-A", "-x"}, lsn: true, xid: true, format: "psql-unaligned"},
		&psqlCase{name: "encode-escape-html", dataset: "bin1", cols: escFull, args: []string{"-H"}, lsn: true, xid: true, format: "psql-html"},
		&psqlCase{name: "base64-unaligned-x", dataset: "bin1", cols: b64, args: []string{"-A", "-x"}, lsn: true, xid: true, format: "psql-unaligned"},
		&psqlCase{name: "base64-onecol-csv", dataset: "bin1", cols: b64one, args: []string{"--csv"}},
	)
	// Pastes that start elsewhere than psql's first line, or whose first line lost or gained
	// the indentation of the rest (a selection started at the first visible character, a
	// table quoted in a chat or a mail).
	cs = append(cs,
		&psqlCase{name: "partial-from-rule", dataset: "text0", cols: full, lsn: true, xid: true, format: "psql-aligned", cut: fromRule},
		&psqlCase{name: "partial-from-rule-unicode-b2", dataset: "bin1", cols: full, args: []string{"-P", "linestyle=unicode", "-P", "border=2"}, lsn: true, xid: true, format: "psql-aligned", cut: fromRule},
		&psqlCase{name: "partial-from-row-b2", dataset: "text0", cols: full, args: []string{"-P", "border=2"}, lsn: true, xid: true, format: "psql-aligned", cut: afterRule},
		&psqlCase{name: "indent-first-trimmed", dataset: "text0", cols: full, lsn: true, xid: true, format: "psql-aligned", cut: firstTrimmed},
		&psqlCase{name: "indent-rest-quoted", dataset: "bin1", cols: full, lsn: true, xid: true, format: "psql-aligned", cut: restIndented},
		&psqlCase{name: "indent-rest-quoted-x", dataset: "bin1", cols: full, args: []string{"-x"}, lsn: true, xid: true, format: "psql-expanded", cut: restIndented},
		&psqlCase{name: "indent-rest-quoted-b2", dataset: "text0", cols: full, args: []string{"-P", "border=2", "-P", "linestyle=unicode"}, lsn: true, xid: true, format: "psql-aligned", cut: restIndented},
	)
	// A toasted value (and its unchanged 'u' in the update that follows).
	cs = append(cs,
		&psqlCase{name: "toast-unaligned", dataset: "toast0", cols: full, args: []string{"-A"}, lsn: true, xid: true, format: "psql-unaligned"},
		&psqlCase{name: "toast-aligned", dataset: "toast0", cols: full, lsn: true, xid: true, format: "psql-aligned"},
		&psqlCase{name: "toast-expanded", dataset: "toast0", cols: full, args: []string{"-x"}, lsn: true, xid: true, format: "psql-expanded"},
		&psqlCase{name: "toast-wrapped-unicode", dataset: "toast0", cols: full, args: []string{"-P", "format=wrapped", "-P", "columns=" + width, "-P", "linestyle=unicode"}, lsn: true, xid: true, format: "psql-aligned"},
		&psqlCase{name: "toast-csv", dataset: "toast0", cols: full, args: []string{"--csv"}, lsn: true, xid: true, format: "psql-csv"},
	)
	// Interactive sessions.
	cs = append(cs,
		&psqlCase{name: "session", dataset: "text0", cols: full, lsn: true, xid: true, format: "psql-aligned",
			session: []string{`\pset pager off`, "%Q;"}},
		&psqlCase{name: "session-expanded-timing", dataset: "bin1", cols: full, lsn: true, xid: true, format: "psql-expanded",
			repeat: 2, session: []string{`\pset pager off`, "%PRE", `\x`, `\timing on`, "%Q;", "%Q;"}},
		&psqlCase{name: "session-multiline-crlf", dataset: "text0", cols: full, lsn: true, xid: true, format: "psql-aligned", crlf: true, repeat: 2,
			session: []string{`\pset pager off`, "%QLINES;", `\timing on`, "%Q;"}},
		&psqlCase{name: "session-two-tables", dataset: "text0", cols: full, lsn: true, xid: true, format: "psql-aligned", limit: 4, repeat: 2,
			session: []string{`\pset pager off`, "%Q;", "%Q;"}},
	)
	// Partial pastes, cut from real outputs.
	cs = append(cs,
		&psqlCase{name: "partial-rows-only", dataset: "text0", cols: full, lsn: true, xid: true, format: "psql-aligned", cut: afterRule},
		&psqlCase{name: "partial-rows-only-unicode", dataset: "bin1", cols: full, args: []string{"-P", "linestyle=unicode"}, lsn: true, xid: true, format: "psql-aligned", cut: afterRule},
		&psqlCase{name: "partial-footer-mismatch", dataset: "text0", cols: full, lsn: true, xid: true, format: "psql-aligned", cut: dropRow},
		&psqlCase{name: "partial-record-3", dataset: "text0", cols: full, args: []string{"-x"}, lsn: true, xid: true, format: "psql-expanded", cut: oneRecord(true)},
		&psqlCase{name: "partial-record-3-unicode-b2", dataset: "bin1", cols: full, args: []string{"-x", "-P", "linestyle=unicode", "-P", "border=2"}, lsn: true, xid: true, format: "psql-expanded", cut: oneRecord(true)},
		&psqlCase{name: "partial-record-lines", dataset: "text0", cols: full, args: []string{"-x"}, lsn: true, xid: true, format: "psql-expanded", cut: oneRecord(false)},
		&psqlCase{name: "partial-first-cell-cut", dataset: "text0", cols: full, xid: true, format: "psql-aligned", cut: firstCellCut},
		&psqlCase{name: "partial-data-cell", dataset: "text0", cols: full, cut: dataCell},
		&psqlCase{name: "partial-cut-value", dataset: "text0", cols: full, lsn: true, xid: true, format: "psql-aligned", cut: cutValue},
	)
	sort.SliceStable(cs, func(i, j int) bool { return false })
	return cs
}
