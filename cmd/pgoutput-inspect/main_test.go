package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.golden from the current output")

// mainEnv makes the test binary run the command's main instead of the tests, so tests can
// start the real program as a child process (pipes, signals, exit codes).
const mainEnv = "PGOUTPUT_INSPECT_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(mainEnv) == "1" {
		main()
		return
	}
	code := m.Run()
	removeBuilt()
	os.Exit(code)
}

// command returns an exec.Cmd running the real program with args.
func command(t testing.TB, ctx context.Context, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	return cmd
}

// result is what one in-process run printed and returned.
type result struct {
	code           int
	stdout, stderr string
}

// runCmd runs the command in-process with stdout not a terminal and the given environment.
func runCmd(t testing.TB, stdin string, environ map[string]string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{
		ctx:    context.Background(),
		stdin:  strings.NewReader(stdin),
		stdout: &out,
		stderr: &errOut,
		getenv: func(k string) string { return environ[k] },
	}
	code := run(e, args)
	return result{code, out.String(), errOut.String()}
}

// goldenCase is one decode run compared with testdata/golden/NAME.golden (text) and
// NAME.json.golden (--json).
type goldenCase struct {
	name  string
	args  []string
	stdin string // used when args name "-" or no file
	code  int    // expected exit code
}

var goldenCases = []goldenCase{
	// Peer vectors (/work/shared/vectors), one message per hex line.
	{name: "txn-update", args: []string{"testdata/postgrex_wal_txn_update.hex"}},
	{name: "stream-v2-v4", args: []string{"testdata/pg_walstream_stream_v2_v4.hex"}},
	{name: "stream-v2-v4-proto4-parallel", args: []string{"--proto", "4", "--parallel-abort", "testdata/pg_walstream_stream_v2_v4.hex"}, code: 1},
	{name: "two-phase", args: []string{"testdata/pg_walstream_v3_two_phase.hex"}},
	{name: "envelopes", args: []string{"testdata/postgrex_pgoutput_messages.hex"}, code: 1},
	{name: "envelopes-no-envelope", args: []string{"--no-envelope", "testdata/postgrex_pgoutput_messages.hex"}, code: 1},
	{name: "binary-column", args: []string{"testdata/pg_walstream_v1_misc.hex"}},
	{name: "logical-message", args: []string{"testdata/replicant_pg16_logical_message.hex"}},
	// Streamed changes without their Stream Start: the command line says they are in a stream.
	{name: "in-stream-stdin", args: []string{"--in-stream", "-"}, stdin: streamedLines()},
	// Malformed messages: everything decodable is printed, and the exit code is 1.
	{name: "truncated", args: []string{"testdata/go_pq_cdc_truncated.hex"}, code: 1},
	{name: "wrong-type-byte", args: []string{"testdata/pypgoutput_wrong_type_byte.hex"}, code: 1},
	// Other input formats, from a live PostgreSQL 15 where the format comes from a server.
	{name: "psql-aligned", args: []string{"testdata/psql-aligned.txt"}},
	{name: "psql-unaligned", args: []string{"testdata/psql-unaligned.txt"}},
	{name: "capture-text", args: []string{"testdata/pg15-text.capture"}},
	{name: "capture-binary", args: []string{"testdata/pg15-binary.capture"}},
	{name: "base64", args: []string{"testdata/txn_delete.base64"}},
	{name: "go-literal", args: []string{"testdata/begin.go.txt"}},
	{name: "hexdump-c", args: []string{"testdata/update.hexdump.txt"}},
	{name: "forced-format", args: []string{"--format", "base64", "testdata/postgrex_wal_txn_update.hex"}, code: 1},
	// Text that fits no format: the error names line, column and the formats tried.
	{name: "not-bytes", args: []string{"testdata/not-bytes.txt"}, code: 1},
}

// streamedLines returns lines 2 to 8 of the streaming vector: changes carrying an Xid.
func streamedLines() string {
	b, err := os.ReadFile("testdata/pg_walstream_stream_v2_v4.hex")
	if err != nil {
		return ""
	}
	lines := strings.Split(string(b), "\n")
	return strings.Join(lines[1:8], "\n") + "\n"
}

func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		for _, mode := range []string{"text", "json"} {
			t.Run(c.name+"/"+mode, func(t *testing.T) {
				args := append([]string{"decode"}, c.args...)
				file := filepath.Join("testdata", "golden", c.name+".golden")
				if mode == "json" {
					args = append([]string{"decode", "--json"}, c.args...)
					file = filepath.Join("testdata", "golden", c.name+".json.golden")
				}
				r := runCmd(t, c.stdin, nil, args...)
				if r.code != c.code {
					t.Errorf("exit code %d, want %d; stderr:\n%s", r.code, c.code, r.stderr)
				}
				if strings.Contains(r.stdout, "\x1b[") {
					t.Errorf("output to a non-terminal holds colour escapes")
				}
				if mode == "json" && r.stdout != "" {
					checkJSONDocument(t, []byte(r.stdout))
				}
				got := fmt.Sprintf("$ pgoutput-inspect %s\nexit %d\n-- stdout --\n%s-- stderr --\n%s",
					strings.Join(args, " "), r.code, r.stdout, r.stderr)
				compareGolden(t, file, got)
			})
		}
	}
}

func compareGolden(t *testing.T, file, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n%s", file, diff(string(want), got))
	}
}

// diff shows the first lines where want and got differ.
func diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\nwant %q\ngot  %q", i+1, wl, gl)
		}
	}
	return "(no line differs)"
}

// checkJSONDocument checks the public JSON interface: the required keys of every object,
// offsets relative to the message, children inside their parent and leaves tiling the
// message bytes.
func checkJSONDocument(t *testing.T, doc []byte) {
	t.Helper()
	var d map[string]any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	requireKeys(t, "document", d, []string{"format", "messages"}, []string{"header", "input_notes", "also_possible", "input_errors", "comments", "connections"})
	msgs, ok := d["messages"].([]any)
	if !ok {
		t.Fatalf("messages is %T, want an array", d["messages"])
	}
	for i, mv := range msgs {
		m := mv.(map[string]any)
		where := fmt.Sprintf("messages[%d]", i)
		requireKeys(t, where, m, []string{"index", "hex", "tree", "error"},
			[]string{"lsn", "xid", "line", "frame", "time", "connection", "direction", "type", "relation", "notes", "missing_relation"})
		if idx, _ := m["index"].(json.Number).Int64(); int(idx) != i {
			t.Errorf("%s: index %d", where, idx)
		}
		if lsn, ok := m["lsn"]; ok {
			if s, _ := lsn.(string); !isLSN(s) {
				t.Errorf("%s: lsn %v is not X/X", where, lsn)
			}
		}
		raw, err := hex.DecodeString(m["hex"].(string))
		if err != nil {
			t.Errorf("%s: hex: %v", where, err)
		}
		if e := m["error"]; e != nil {
			em := e.(map[string]any)
			requireKeys(t, where+".error", em, []string{"offset", "message"}, []string{"kind"})
		}
		if m["tree"] == nil {
			if len(raw) != 0 {
				t.Errorf("%s: null tree for %d bytes", where, len(raw))
			}
			continue
		}
		root := m["tree"].(map[string]any)
		if off := num(root["offset"]); off != 0 {
			t.Errorf("%s: root offset %d", where, off)
		}
		if l := num(root["length"]); l != len(raw) {
			t.Errorf("%s: root length %d, message %d bytes", where, l, len(raw))
		}
		pos := 0
		checkJSONNode(t, where+".tree", root, &pos)
		if pos != len(raw) {
			t.Errorf("%s: leaves cover %d of %d bytes", where, pos, len(raw))
		}
	}
}

func checkJSONNode(t *testing.T, where string, n map[string]any, pos *int) {
	t.Helper()
	requireKeys(t, where, n, []string{"name", "offset", "length", "format", "value", "children"},
		[]string{"field", "index", "meaning", "type", "text", "invalid_utf8", "value_error"})
	off, length := num(n["offset"]), num(n["length"])
	children, ok := n["children"].([]any)
	if !ok {
		t.Fatalf("%s: children is %T, want an array", where, n["children"])
	}
	if len(children) == 0 {
		if off != *pos {
			t.Errorf("%s (%v): leaf at offset %d, want %d", where, n["name"], off, *pos)
		}
		*pos = off + length
		return
	}
	if n["format"] != "" || n["value"] != nil {
		t.Errorf("%s: group with format %v and value %v", where, n["format"], n["value"])
	}
	for i, c := range children {
		cm := c.(map[string]any)
		checkJSONNode(t, fmt.Sprintf("%s.children[%d]", where, i), cm, pos)
		if co, cl := num(cm["offset"]), num(cm["length"]); co < off || co+cl > off+length {
			t.Errorf("%s: child %d [%d,+%d) outside its parent [%d,+%d)", where, i, co, cl, off, length)
		}
	}
}

// requireKeys checks that obj has every required key and no key outside required and extra.
func requireKeys(t *testing.T, where string, obj map[string]any, required, extra []string) {
	t.Helper()
	for _, k := range required {
		if _, ok := obj[k]; !ok {
			t.Errorf("%s: key %q missing", where, k)
		}
	}
	for k := range obj {
		known := false
		for _, r := range append(required[:len(required):len(required)], extra...) {
			known = known || k == r
		}
		if !known {
			t.Errorf("%s: undocumented key %q", where, k)
		}
	}
}

func num(v any) int {
	n, ok := v.(json.Number)
	if !ok {
		return -1
	}
	i, err := n.Int64()
	if err != nil {
		return -1
	}
	return int(i)
}

func isLSN(s string) bool {
	hi, lo, ok := strings.Cut(s, "/")
	if !ok || hi == "" || lo == "" || len(hi) > 8 || len(lo) > 8 {
		return false
	}
	for _, c := range hi + lo {
		if !strings.ContainsRune("0123456789ABCDEF", c) {
			return false
		}
	}
	return true
}

func TestUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string // in stderr
	}{
		{[]string{}, "usage: pgoutput-inspect <command>"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"decode", "--frob"}, "flag provided but not defined: -frob"},
		{[]string{"decode", "--proto", "7", "testdata/postgrex_wal_txn_update.hex"}, "--proto 7: pgoutput protocol versions are 1 to 4"},
		{[]string{"decode", "--proto", "x"}, `invalid value "x" for flag -proto`},
		{[]string{"decode", "--in-stream=maybe"}, "want true, false or auto"},
		{[]string{"decode", "--format", "nope", "-"}, `--format "nope": unknown format; the formats are`},
		{[]string{"decode", "--color", "sometimes"}, "want one of auto, always, never"},
		{[]string{"decode", "a.hex", "b.hex"}, "one input file at most, got 2"},
		{[]string{"decode", "testdata/no-such-file.hex"}, "testdata/no-such-file.hex: no such file"},
		{[]string{"capture"}, "--publication is required"},
		{[]string{"capture", "--publication", "p", "--streaming", "sometimes"}, "want one of off, on, parallel"},
		{[]string{"capture", "--publication", "p", "--proto-version", "5"}, "--proto-version 5"},
		{[]string{"capture", "--publication", "p", "--start-lsn", "12"}, `--start-lsn "12": want an LSN`},
		{[]string{"capture", "--publication", "p", "--option", "novalue"}, `--option "novalue": want name=value`},
		{[]string{"capture", "--publication", "p", "out.capture"}, "the output file goes with -o"},
	}
	for _, c := range cases {
		r := runCmd(t, "", nil, c.args...)
		if r.code != exitUsage {
			t.Errorf("%v: exit code %d, want %d; stderr:\n%s", c.args, r.code, exitUsage, r.stderr)
		}
		if !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: stderr does not say %q:\n%s", c.args, c.want, r.stderr)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"decode", "-h"}, {"capture", "--help"}} {
		r := runCmd(t, "", nil, args...)
		if r.code != exitOK || !strings.Contains(r.stdout, "usage: pgoutput-inspect") || r.stderr != "" {
			t.Errorf("%v: exit %d, stdout:\n%s\nstderr:\n%s", args, r.code, r.stdout, r.stderr)
		}
	}
}

func TestFlagsAfterFile(t *testing.T) {
	a := runCmd(t, "", nil, "decode", "--json", "--proto", "1", "testdata/postgrex_wal_txn_update.hex")
	b := runCmd(t, "", nil, "decode", "testdata/postgrex_wal_txn_update.hex", "--json", "--proto=1")
	if a.code != 0 || a != b {
		t.Errorf("flags after the file change the result: exit %d vs %d", a.code, b.code)
	}
	c := runCmd(t, "", nil, "decode", "--", "testdata/postgrex_wal_txn_update.hex")
	if c.code != 0 {
		t.Errorf("decode -- FILE: exit %d: %s", c.code, c.stderr)
	}
}

func TestColor(t *testing.T) {
	file := "testdata/postgrex_wal_txn_update.hex"
	run := func(terminal bool, environ map[string]string, args ...string) string {
		var out bytes.Buffer
		e := &env{ctx: context.Background(), stdin: strings.NewReader(""), stdout: &out, stderr: &out,
			getenv: func(k string) string { return environ[k] }, terminal: terminal}
		if code := run(e, append([]string{"decode"}, append(args, file)...)); code != 0 {
			t.Fatalf("exit %d: %s", code, out.String())
		}
		return out.String()
	}
	colored := func(s string) bool { return strings.Contains(s, "\x1b[") }
	if !colored(run(true, nil)) {
		t.Error("no colours on a terminal")
	}
	if colored(run(true, map[string]string{"NO_COLOR": "1"})) {
		t.Error("colours on a terminal with NO_COLOR=1")
	}
	if !colored(run(true, map[string]string{"NO_COLOR": ""})) {
		t.Error("an empty NO_COLOR turned colours off (no-color.org: only a non-empty value does)")
	}
	if colored(run(false, nil)) {
		t.Error("colours when stdout is not a terminal")
	}
	if !colored(run(false, nil, "--color=always")) {
		t.Error("--color=always gave no colours")
	}
	if colored(run(true, nil, "--color=never")) {
		t.Error("--color=never gave colours")
	}
	if colored(run(true, nil, "--json")) {
		t.Error("JSON output has colours")
	}
	// Without the escapes, the coloured dump is the plain one.
	plain, col := run(false, nil), run(true, nil)
	if uncolored := string(stripSGR([]byte(col))); uncolored != plain {
		t.Errorf("coloured dump differs from the plain one beyond colours:\n%s", diff(plain, uncolored))
	}
}

// TestPipe runs the real program with stdout a pipe: no colours, and the exit codes.
func TestPipe(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"decode", "testdata/postgrex_wal_txn_update.hex"}, 0},
		{[]string{"decode", "testdata/go_pq_cdc_truncated.hex"}, 1},
		{[]string{"decode", "--proto", "9"}, 2},
	} {
		cmd := command(t, context.Background(), c.args...)
		cmd.Env = append(cmd.Env, "NO_COLOR=")
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code {
			t.Errorf("%v: exit %d, want %d; stderr:\n%s", c.args, code, c.code, errOut.String())
		}
		if strings.Contains(out.String(), "\x1b[") {
			t.Errorf("%v: colour escapes in piped output", c.args)
		}
		if c.code != 2 && !strings.Contains(out.String(), "message 0") {
			t.Errorf("%v: no dump on stdout:\n%s", c.args, out.String())
		}
	}
}

// TestStdin reads standard input when no file or "-" is given.
func TestStdin(t *testing.T) {
	in, err := os.ReadFile("testdata/postgrex_wal_txn_update.hex")
	if err != nil {
		t.Fatal(err)
	}
	want := runCmd(t, "", nil, "decode", "testdata/postgrex_wal_txn_update.hex")
	for _, args := range [][]string{{"decode"}, {"decode", "-"}} {
		got := runCmd(t, string(in), nil, args...)
		if got != want {
			t.Errorf("%v: output differs from reading the file:\n%s", args, diff(want.stdout, got.stdout))
		}
	}
}

// TestIsTerminal: pipes and regular files are not terminals, so they get no colours.
func TestIsTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if isTerminal(w) {
		t.Error("a pipe is taken for a terminal")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("a regular file is taken for a terminal")
	}
}
