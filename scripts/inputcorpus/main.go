// Command inputcorpus makes the input package's corpus of real tool output
// (testdata/input/<tool>/<case>.{txt,bin,pcap,pcapng} with <case>.want beside each): it starts
// a throwaway PostgreSQL server (internal/pgserver), records a real replication stream with
// pg_recvlogical -f while dumpcap captures the walsender's traffic on the loopback interface,
// takes the stream's messages from the capture as Wireshark's PostgreSQL dissector reads them,
// and runs the real tools (xxd, hexdump, od, base64, openssl, python3, node, go, java, kotlinc, rustc,
// mono's C#, tshark) over the messages and files. A second short session goes over IPv6 and
// is captured on the "any" interface (Linux cooked frames).
//
// A .want file holds the messages the input must give, one lower-case hex line each, or
// "# error: TEXT" when reading must fail with an error that contains TEXT (then "# with the
// messages below" when it gives the messages listed all the same).
//
//	go run ./scripts/inputcorpus -set corpus  -server debian-15 -seed 1   # testdata/input
//	go run ./scripts/inputcorpus -set holdout -server 17 -seed 2          # testdata/input/holdout
//	go run ./scripts/inputcorpus -set corpus -seed 1 -only kotlin         # only the Kotlin cases, no server
//	go run ./scripts/inputcorpus -set corpus -only frames                 # single frames, tcp.payload, CopyBoth
//
// With -only kotlin, the messages are the set's committed recvlogical/stream.want and only the
// kotlin directory is made again (Kotlin's compiler came to the machine after the rest). With
// -only frames, a session of its own gives tshark's single frames, tcp.payload fields and a
// CopyBoth stream's bytes (frames.go); only those files are made again.
//
// The two sets use different servers, workloads, seeds and tool options, so the held-out set
// tests the readers on outputs they were not written from. Run as root (dumpcap).
package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"pgoutput-inspector/internal/pgserver"
)

var (
	set    = flag.String("set", "corpus", "corpus or holdout")
	server = flag.String("server", pgserver.Debian15, "PostgreSQL server (14..18, debian-15)")
	seed   = flag.Int64("seed", 1, "random seed that picks messages and tool options")
	out    = flag.String("out", "", "output directory (default testdata/input, or testdata/input/holdout)")
	keep   = flag.Bool("keep", false, "keep the temporary directory")
	only   = flag.String("only", "", "kotlin: make only the Kotlin cases, from the set's committed messages; frames: only frames.go's cases")
)

func main() {
	flag.Parse()
	if *out == "" {
		*out = "testdata/input"
		if *set == "holdout" {
			*out = "testdata/input/holdout"
		}
	}
	if *only == "frames" {
		if err := onlyFrames(context.Background()); err != nil {
			fmt.Fprintln(os.Stderr, "inputcorpus:", err)
			os.Exit(1)
		}
		return
	}
	if *only != "" {
		if err := onlyKotlin(); err != nil {
			fmt.Fprintln(os.Stderr, "inputcorpus:", err)
			os.Exit(1)
		}
		return
	}
	// Each tool's directory is made anew (MADE_BY lists how each file was made); other
	// directories (testdata/input/psql has its own maker) are left alone.
	for _, d := range []string{"base64", "csharp", "go", "hexdump", "java", "kotlin", "node", "od", "python", "recvlogical", "rust", "tshark", "xxd"} {
		os.RemoveAll(filepath.Join(*out, d))
	}
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "inputcorpus:", err)
		os.Exit(1)
	}
}

// onlyKotlin makes the kotlin directory of the set again from its committed messages.
func onlyKotlin() error {
	if *only != "kotlin" {
		return fmt.Errorf("-only %q: only kotlin can be made alone", *only)
	}
	msgs, err := committedMessages(filepath.Join(*out, "recvlogical", "stream.want"))
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "inputcorpus")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	os.RemoveAll(filepath.Join(*out, "kotlin"))
	g := &gen{tmp: tmp, rng: rand.New(rand.NewSource(*seed)), holdout: *set == "holdout"}
	return g.kotlin(msgs)
}

// stream is what the live part recorded.
type stream struct {
	msgs      [][]byte // pgoutput messages, from the peek slot
	recv      []byte   // pg_recvlogical -f file
	pcapng    []byte
	pcap      []byte
	copyData  [][]byte // CopyData messages ('d', length, payload) in frame order, as tshark reads them
	pcap6     []byte   // a second session, over IPv6, captured on the "any" interface
	copyData6 [][]byte
}

func run(ctx context.Context) error {
	tmp, err := os.MkdirTemp("", "inputcorpus")
	if err != nil {
		return err
	}
	if !*keep {
		defer os.RemoveAll(tmp)
	} else {
		fmt.Println("temporary directory", tmp)
	}
	os.Chmod(tmp, 0o777)
	st, err := live(ctx, tmp)
	if err != nil {
		return err
	}
	fmt.Printf("%d messages, pg_recvlogical file %d bytes, %d CopyData in the capture\n", len(st.msgs), len(st.recv), len(st.copyData))
	g := &gen{tmp: tmp, st: st, rng: rand.New(rand.NewSource(*seed)), holdout: *set == "holdout"}
	return g.all()
}

// workloads are the statements each set runs while pg_recvlogical streams. Text values hold
// newlines (so 0x0a occurs inside messages) and bytea runs of zeros (so dumps repeat rows).
var workloads = map[string]string{
	"corpus": `
CREATE TABLE notes (id int PRIMARY KEY, title text, body text, blob bytea, n numeric, at timestamptz);
ALTER TABLE notes REPLICA IDENTITY FULL;
CREATE PUBLICATION pub FOR ALL TABLES;
SELECT 1 FROM pg_create_logical_replication_slot('recv', 'pgoutput');
---
INSERT INTO notes VALUES (1, 'first', E'line one\nline two\n', '\x00010203', 1.5, '2024-01-02 03:04:05+00');
INSERT INTO notes VALUES (2, 'zeros', 'short', decode(repeat('00', 80), 'hex'), 42, now());
BEGIN; UPDATE notes SET body = E'changed\n\n\ttabbed' WHERE id = 1; DELETE FROM notes WHERE id = 2; COMMIT;
SELECT 1 FROM pg_logical_emit_message(true, 'prefix', E'hello\nworld');
INSERT INTO notes SELECT g, 'row ' || g, repeat(E'x\n', g), NULL, g * 1.25, NULL FROM generate_series(3, 6) g;
INSERT INTO notes VALUES (7, 'big', (SELECT string_agg(md5(g::text), E'\n') FROM generate_series(1, 100) g), NULL, 0, NULL);
TRUNCATE notes;
`,
	"holdout": `
CREATE TABLE items (sku text PRIMARY KEY, qty int8, price float8, tags text[], data bytea, ok bool);
CREATE TABLE log (id bigserial PRIMARY KEY, line text);
CREATE PUBLICATION pub FOR ALL TABLES;
SELECT 1 FROM pg_create_logical_replication_slot('recv', 'pgoutput');
---
INSERT INTO items VALUES ('a-1', 7, 2.5, '{red,blue}', '\x0a0a0a', true), ('b-2', -3, 0.1, NULL, decode(repeat('ff', 64), 'hex'), false);
INSERT INTO log (line) SELECT 'entry ' || g || E'\n' FROM generate_series(1, 5) g;
UPDATE items SET qty = qty + 1, tags = '{green}' WHERE sku = 'a-1';
SELECT 1 FROM pg_logical_emit_message(false, 'nontx', 'plain');
BEGIN; DELETE FROM items WHERE sku = 'b-2'; INSERT INTO log (line) VALUES (repeat('long ', 40)); COMMIT;
INSERT INTO log (line) SELECT string_agg(md5(g::text) || ' ', '') FROM generate_series(1, 130) g;
`,
}

// pluginOptions are the pgoutput options of each set.
var pluginOptions = map[string][]string{
	"corpus":  {"proto_version=1", "publication_names=pub", "messages=true"},
	"holdout": {"proto_version=2", "publication_names=pub", "messages=true", "binary=true"},
}

func live(ctx context.Context, tmp string) (*stream, error) {
	// The walsender's connection goes to 127.0.0.2, routed with an MTU of 1500, so that
	// messages longer than a segment are split and Wireshark reassembles them ("Reassembled
	// TCP"); loopback's own MTU of 64 KiB would keep every message in one segment.
	if b, err := exec.Command("ip", "route", "add", "local", "127.0.0.2/32", "dev", "lo", "mtu", "1500", "table", "local").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("ip route add: %v: %s", err, b)
	}
	defer exec.Command("ip", "route", "del", "local", "127.0.0.2/32", "dev", "lo", "table", "local").Run()
	srv, err := pgserver.Start(ctx, *server)
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	port := strconv.Itoa(srv.Port)
	// The server listens on 127.0.0.1 only: a relay on 127.0.0.2 passes the walsender's
	// connection on, byte for byte, and only its 127.0.0.2 side is captured.
	l, err := net.Listen("tcp", "127.0.0.2:"+port)
	if err != nil {
		return nil, err
	}
	defer l.Close()
	go relay(l, "127.0.0.1:"+port)
	conn := "host=127.0.0.1 port=" + port + " user=postgres dbname=postgres sslmode=disable"
	walConn := "host=127.0.0.2 port=" + port + " user=postgres dbname=postgres sslmode=disable"
	psql := func(sql string) (string, error) {
		cmd := exec.CommandContext(ctx, "psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", conn, "-f", "-")
		cmd.Stdin = strings.NewReader(sql)
		b, err := cmd.CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("psql %q: %v: %s", sql, err, b)
		}
		return string(b), nil
	}
	setup, work, _ := strings.Cut(workloads[*set], "---")
	if _, err := psql(setup); err != nil {
		return nil, err
	}
	pcapng := filepath.Join(tmp, "stream.pcapng")
	dump := exec.Command("dumpcap", "-q", "-i", "lo", "-f", "host 127.0.0.2 and tcp port "+port, "-w", pcapng)
	dump.Stderr = os.Stderr
	if err := dump.Start(); err != nil {
		return nil, err
	}
	defer dump.Process.Kill()
	time.Sleep(2 * time.Second) // dumpcap is capturing once it has opened the interface
	recvFile := filepath.Join(tmp, "stream.recv")
	args := []string{"-d", walConn, "-S", "recv", "--start", "-f", recvFile, "-F", "1", "-s", "1", "-P", "pgoutput", "--no-loop"}
	for _, o := range pluginOptions[*set] {
		args = append(args, "-o", o)
	}
	recv := exec.Command("pg_recvlogical", args...)
	recv.Stderr = os.Stderr
	if err := recv.Start(); err != nil {
		return nil, err
	}
	defer recv.Process.Kill()
	time.Sleep(1500 * time.Millisecond)
	if _, err := psql(work); err != nil {
		return nil, err
	}
	end, err := psql("SELECT pg_current_wal_lsn()")
	if err != nil {
		return nil, err
	}
	end = strings.TrimSpace(end)
	// Wait until pg_recvlogical has confirmed everything, and a few status updates more.
	for i := 0; ; i++ {
		v, err := psql("SELECT confirmed_flush_lsn >= '" + end + "' FROM pg_replication_slots WHERE slot_name = 'recv'")
		if err != nil {
			return nil, err
		}
		if strings.TrimSpace(v) == "t" {
			break
		}
		if i > 100 || recv.ProcessState != nil {
			return nil, fmt.Errorf("pg_recvlogical did not confirm %s", end)
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(2500 * time.Millisecond)
	recv.Process.Signal(syscall.SIGINT)
	recv.Wait()
	time.Sleep(time.Second)
	dump.Process.Signal(syscall.SIGINT)
	dump.Wait()

	st := &stream{}
	var err2 error
	if st.recv, err2 = os.ReadFile(recvFile); err2 != nil {
		return nil, err2
	}
	if st.pcapng, err = os.ReadFile(pcapng); err != nil {
		return nil, err
	}
	pcap := filepath.Join(tmp, "stream.pcap")
	if b, err := exec.Command("editcap", "-F", "pcap", pcapng, pcap).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("editcap: %v: %s", err, b)
	}
	if st.pcap, err = os.ReadFile(pcap); err != nil {
		return nil, err
	}
	if st.copyData, err = tsharkCopyData(pcapng, port); err != nil {
		return nil, err
	}
	// The messages are the XLogData payloads Wireshark found, which pg_recvlogical must have
	// written each followed by a newline.
	var want []byte
	for _, m := range st.copyData {
		if m[5] == 'w' && len(m) > 5+25 {
			st.msgs = append(st.msgs, m[5+25:])
			want = append(append(want, m[5+25:]...), '\n')
		}
	}
	if !bytes.Equal(st.recv, want) {
		os.WriteFile(filepath.Join(tmp, "want.recv"), want, 0o644)
		return nil, fmt.Errorf("the pg_recvlogical file (%d bytes) is not the XLogData payloads in the capture each followed by a newline (%d bytes)", len(st.recv), len(want))
	}
	// A second, short session over IPv6, captured on the "any" interface (Linux cooked
	// capture v2 frames), with one logical message sent while it streams.
	l6, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		return nil, err
	}
	defer l6.Close()
	go relay(l6, "127.0.0.1:"+port)
	port6 := strconv.Itoa(l6.Addr().(*net.TCPAddr).Port)
	pcap6 := filepath.Join(tmp, "any6.pcapng")
	dump6 := exec.Command("dumpcap", "-q", "-i", "any", "-f", "ip6 and tcp port "+port6, "-w", pcap6)
	if err := dump6.Start(); err != nil {
		return nil, err
	}
	defer dump6.Process.Kill()
	time.Sleep(2 * time.Second)
	args6 := []string{"-d", "host=::1 port=" + port6 + " user=postgres dbname=postgres sslmode=disable", "-S", "recv", "--start",
		"-f", filepath.Join(tmp, "any6.recv"), "-F", "1", "-s", "1", "-P", "pgoutput", "--no-loop"}
	for _, o := range pluginOptions[*set] {
		args6 = append(args6, "-o", o)
	}
	recv6 := exec.Command("pg_recvlogical", args6...)
	if err := recv6.Start(); err != nil {
		return nil, err
	}
	defer recv6.Process.Kill()
	time.Sleep(1500 * time.Millisecond)
	if _, err := psql("SELECT 1 FROM pg_logical_emit_message(true, 'ipv6', 'sent while streaming over IPv6');"); err != nil {
		return nil, err
	}
	time.Sleep(3 * time.Second)
	recv6.Process.Signal(syscall.SIGINT)
	recv6.Wait()
	time.Sleep(time.Second)
	dump6.Process.Signal(syscall.SIGINT)
	dump6.Wait()
	if st.pcap6, err = os.ReadFile(pcap6); err != nil {
		return nil, err
	}
	if st.copyData6, err = tsharkCopyData(pcap6, port6); err != nil {
		return nil, err
	}
	return st, nil
}

// tsharkCopyData returns the CopyData messages ('d', length, payload) of a capture as
// Wireshark's PostgreSQL dissector finds them, in frame order.
func tsharkCopyData(file, port string) ([][]byte, error) {
	var out [][]byte
	// The CopyData messages as Wireshark's PostgreSQL dissector finds them, one frame a line.
	fields, err := exec.Command("tshark", "-r", file, "-d", "tcp.port=="+port+",pgsql", "-T", "fields", "-e", "pgsql.type", "-e", "pgsql.copydata").Output()
	if err != nil {
		return nil, fmt.Errorf("tshark fields: %v", err)
	}
	for _, l := range strings.Split(string(fields), "\n") {
		types, data, _ := strings.Cut(l, "\t")
		if data == "" {
			continue
		}
		_ = types
		for _, h := range strings.Split(data, ",") {
			b, err := hex.DecodeString(h)
			if err != nil {
				return nil, fmt.Errorf("tshark copydata %q: %v", h, err)
			}
			n := len(b) + 4
			out = append(out, append([]byte{'d', byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}, b...))
		}
	}
	return out, nil
}

// relay accepts connections on l and passes each on to addr, both ways.
func relay(l net.Listener, addr string) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", addr)
		if err != nil {
			c.Close()
			continue
		}
		go func() { io.Copy(s, c); s.(*net.TCPConn).CloseWrite() }()
		go func() { io.Copy(c, s); c.(*net.TCPConn).CloseWrite() }()
	}
}
