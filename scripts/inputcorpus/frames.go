package main

// -only frames: single frames as tshark -x prints them (Ethernet on lo, Linux cooked v1 and
// v2 on any, IPv4 and IPv6), tshark -T fields -e tcp.payload, and the raw bytes of a CopyBoth
// stream (the server's direction from CopyBothResponse on) with xxd of them. Every .want comes
// from tshark's PostgreSQL dissector (its messages' lengths, its pgsql.copydata), never from
// the input package.

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"pgoutput-inspector/internal/pgserver"
)

// framesCases are the files -only frames makes; their lines in MADE_BY are made anew.
var framesCases = []string{"x_frame_lo.txt", "x_frame_any.txt", "x_frame_sll.txt", "x_frame_ipv6.txt", "x_frame_cut.txt",
	"payload_fields.txt", "payload_fields_streams.txt", "copyboth.bin", "copyboth_xxd.txt"}

// onlyFrames records two replication connections (IPv4 through a relay on 127.0.0.2, IPv6
// on ::1) on three interfaces at once and writes the frame, payload and CopyBoth cases. The
// loopback interface hands dumpcap segments of up to 64 KiB whatever the route's MTU (it
// segments nothing), so one row of about 72 KB makes a CopyData that spans frames.
func onlyFrames(ctx context.Context) error {
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
	for _, d := range []string{"tshark", "copyboth"} {
		if err := dropMadeBy(filepath.Join(*out, d, "MADE_BY")); err != nil {
			return err
		}
	}
	if b, err := exec.Command("ip", "route", "add", "local", "127.0.0.2/32", "dev", "lo", "mtu", "1500", "table", "local").CombinedOutput(); err != nil {
		return fmt.Errorf("ip route add: %v: %s", err, b)
	}
	defer exec.Command("ip", "route", "del", "local", "127.0.0.2/32", "dev", "lo", "table", "local").Run()
	srv, err := pgserver.Start(ctx, *server)
	if err != nil {
		return err
	}
	defer srv.Stop()
	port := strconv.Itoa(srv.Port)
	conn := "host=127.0.0.1 port=" + port + " user=postgres dbname=postgres sslmode=disable"
	psql := func(sql string) (string, error) {
		cmd := exec.CommandContext(ctx, "psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", conn, "-f", "-")
		cmd.Stdin = strings.NewReader(sql)
		b, err := cmd.CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("psql %q: %v: %s", sql, err, b)
		}
		return string(b), nil
	}
	if _, err := psql(`CREATE TABLE docs (id int PRIMARY KEY, title text, body text);
CREATE PUBLICATION pub FOR ALL TABLES;
SELECT 1 FROM pg_create_logical_replication_slot('recv4', 'pgoutput');
SELECT 1 FROM pg_create_logical_replication_slot('recv6', 'pgoutput');`); err != nil {
		return err
	}
	l4, err := net.Listen("tcp", "127.0.0.2:"+port)
	if err != nil {
		return err
	}
	defer l4.Close()
	go relay(l4, "127.0.0.1:"+port)
	l6, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		return err
	}
	defer l6.Close()
	go relay(l6, "127.0.0.1:"+port)
	port6 := strconv.Itoa(l6.Addr().(*net.TCPAddr).Port)
	filter := "(host 127.0.0.2 and tcp port " + port + ") or (ip6 and tcp port " + port6 + ")"
	caps := map[string][]string{
		"lo":  {"-i", "lo"},
		"any": {"-i", "any", "-y", "LINUX_SLL2"},
		"sll": {"-i", "any", "-y", "LINUX_SLL"},
	}
	var dumps []*exec.Cmd
	for name, args := range caps {
		d := exec.Command("dumpcap", append(append([]string{"-q"}, args...), "-f", filter, "-w", filepath.Join(tmp, name+".pcapng"))...)
		d.Stderr = os.Stderr
		if err := d.Start(); err != nil {
			return err
		}
		defer d.Process.Kill()
		dumps = append(dumps, d)
	}
	time.Sleep(2 * time.Second)
	var recvs []*exec.Cmd
	for _, c := range [][2]string{{"recv4", "host=127.0.0.2 port=" + port}, {"recv6", "host=::1 port=" + port6}} {
		r := exec.Command("pg_recvlogical", "-d", c[1]+" user=postgres dbname=postgres sslmode=disable", "-S", c[0], "--start",
			"-f", filepath.Join(tmp, c[0]+".recv"), "-F", "1", "-s", "1", "-P", "pgoutput", "--no-loop",
			"-o", "proto_version=1", "-o", "publication_names=pub", "-o", "messages=true")
		r.Stderr = os.Stderr
		if err := r.Start(); err != nil {
			return err
		}
		defer r.Process.Kill()
		recvs = append(recvs, r)
	}
	time.Sleep(1500 * time.Millisecond)
	if _, err := psql(`INSERT INTO docs VALUES (1, 'short', 'a line');
INSERT INTO docs VALUES (2, 'long', (SELECT string_agg(md5(g::text), ' ') FROM generate_series(1, 2200) g));
UPDATE docs SET body = 'changed' WHERE id = 1;
SELECT 1 FROM pg_logical_emit_message(true, 'frames', 'a logical message');
INSERT INTO docs SELECT g, 'row ' || g, repeat('y', g * 10) FROM generate_series(3, 8) g;
DELETE FROM docs WHERE id = 2;`); err != nil {
		return err
	}
	end, err := psql("SELECT pg_current_wal_lsn()")
	if err != nil {
		return err
	}
	for i := 0; ; i++ {
		v, err := psql("SELECT bool_and(confirmed_flush_lsn >= '" + strings.TrimSpace(end) + "') FROM pg_replication_slots")
		if err != nil {
			return err
		}
		if strings.TrimSpace(v) == "t" {
			break
		}
		if i > 100 {
			return fmt.Errorf("pg_recvlogical did not confirm %s", end)
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(2500 * time.Millisecond)
	for _, r := range recvs {
		r.Process.Signal(syscall.SIGINT)
		r.Wait()
	}
	time.Sleep(time.Second)
	for _, d := range dumps {
		d.Process.Signal(syscall.SIGINT)
		d.Wait()
	}
	g := &gen{tmp: tmp, rng: rand.New(rand.NewSource(*seed))}
	return g.frames(port, port6)
}

// dropMadeBy removes the lines of framesCases from a MADE_BY file, so that making them again
// leaves the other lines as they are.
func dropMadeBy(path string) error {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	var keepLines []string
	for _, l := range strings.SplitAfter(string(b), "\n") {
		name, _, _ := strings.Cut(l, ":")
		if l != "" && !contains(framesCases, strings.TrimSuffix(name, ".gz")) {
			keepLines = append(keepLines, l)
		}
	}
	return os.WriteFile(path, []byte(strings.Join(keepLines, "")), 0o644)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// connStream is the tcp.stream of the connection whose server port is port.
func connStream(fs []frameInfo, port string) int {
	for _, f := range fs {
		if strconv.Itoa(f.srcPort) == port {
			return f.stream
		}
	}
	return -1
}

// frameInfo is what tshark's dissectors say of one frame.
type frameInfo struct {
	num, srcPort, stream int
	payload              []byte
	lengths              []int    // pgsql.length of the messages that end in this frame
	copyData             [][]byte // their CopyData payloads
	reassembledIn        string   // the frame that holds the message this one's bytes start (tshark -2 only)
	segments             []string // the frames a message ending here was put together from
}

// tsharkFrames asks tshark, with its PostgreSQL dissector on both ports, about every frame.
func tsharkFrames(file string, ports ...string) ([]frameInfo, error) {
	args := []string{"-r", file}
	for _, p := range ports {
		args = append(args, "-d", "tcp.port=="+p+",pgsql")
	}
	args = append(args, "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=,", "-e", "frame.number", "-e", "tcp.srcport", "-e", "tcp.stream",
		"-e", "tcp.payload", "-e", "pgsql.length", "-e", "pgsql.copydata", "-e", "tcp.reassembled_in", "-e", "tcp.segment")
	b, err := exec.Command("tshark", args...).Output()
	if err != nil {
		return nil, fmt.Errorf("tshark %v: %v", args, err)
	}
	var fs []frameInfo
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		c := strings.Split(l, "\t")
		if len(c) != 8 {
			return nil, fmt.Errorf("tshark fields line %q", l)
		}
		var f frameInfo
		f.num, _ = strconv.Atoi(c[0])
		f.srcPort, _ = strconv.Atoi(c[1])
		f.stream, _ = strconv.Atoi(c[2])
		f.payload, _ = hex.DecodeString(c[3])
		for _, v := range splitList(c[4]) {
			n, _ := strconv.Atoi(v)
			f.lengths = append(f.lengths, n)
		}
		for _, v := range splitList(c[5]) {
			p, err := hex.DecodeString(v)
			if err != nil {
				return nil, err
			}
			f.copyData = append(f.copyData, copyDataMsg(p))
		}
		f.reassembledIn = c[6]
		f.segments = splitList(c[7])
		fs = append(fs, f)
	}
	return fs, nil
}

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// copyDataMsg wraps a CopyData payload in its envelope: 'd', its length, the payload.
func copyDataMsg(p []byte) []byte {
	m := []byte{'d', 0, 0, 0, 0}
	binary.BigEndian.PutUint32(m[1:], uint32(len(p)+4))
	return append(m, p...)
}

// wholeFrame returns the first frame sent from port whose payload is whole PostgreSQL
// messages, CopyData with XLogData first.
func wholeFrame(fs []frameInfo, port string) (frameInfo, error) {
	for _, f := range fs {
		if strconv.Itoa(f.srcPort) != port || len(f.copyData) == 0 || f.reassembledIn != "" || len(f.segments) > 0 || f.copyData[0][5] != 'w' {
			continue
		}
		n := 0
		for _, l := range f.lengths {
			n += 1 + l
		}
		if n == len(f.payload) {
			return f, nil
		}
	}
	return frameInfo{}, fmt.Errorf("no frame from port %s holds whole CopyData messages", port)
}

func (g *gen) frames(port, port6 string) error {
	lo, anyf, sll := filepath.Join(g.tmp, "lo.pcapng"), filepath.Join(g.tmp, "any.pcapng"), filepath.Join(g.tmp, "sll.pcapng")
	infos := map[string][]frameInfo{}
	for _, f := range []string{lo, anyf, sll} {
		fs, err := tsharkFrames(f, port, port6)
		if err != nil {
			return err
		}
		infos[f] = fs
	}
	tshark := func(args ...string) ([]byte, error) {
		b, err := exec.Command("tshark", args...).Output()
		if err != nil {
			return nil, fmt.Errorf("tshark %v: %v", args, err)
		}
		return b, nil
	}
	// Single frames, tshark -x, each with the CopyData messages tshark found in it.
	for _, c := range []struct{ name, file, port, how string }{
		{"x_frame_lo.txt", lo, port, "Ethernet, IPv4; dumpcap -i lo"},
		{"x_frame_any.txt", anyf, port, "Linux cooked capture v2, IPv4; dumpcap -i any -y LINUX_SLL2"},
		{"x_frame_sll.txt", sll, port, "Linux cooked capture v1, IPv4; dumpcap -i any -y LINUX_SLL"},
		{"x_frame_ipv6.txt", lo, port6, "Ethernet, IPv6; dumpcap -i lo"},
	} {
		f, err := wholeFrame(infos[c.file], c.port)
		if err != nil {
			return fmt.Errorf("%s: %v", c.name, err)
		}
		args := []string{"-r", c.file, "-x", "-Y", "frame.number==" + strconv.Itoa(f.num)}
		b, err := tshark(args...)
		if err != nil {
			return err
		}
		if err := g.write("tshark", c.name, b, f.copyData, "", "tshark "+strings.Join(shortCmd(args, g.tmp), " ")+" ("+c.how+"; the frame's CopyData as tshark -T fields -e pgsql.copydata gives them)"); err != nil {
			return err
		}
	}
	// A frame holding the start of a CopyData message that goes on in later frames: all of its
	// payload is the message's start (tshark puts the message together in a later frame).
	cut := false
	byNum := map[string]frameInfo{}
	for _, f := range infos[lo] {
		byNum[strconv.Itoa(f.num)] = f
	}
	for _, r := range infos[lo] {
		if len(r.segments) == 0 {
			continue
		}
		f := byNum[r.segments[0]]
		if len(f.lengths) > 0 || len(f.payload) < 6 || f.payload[0] != 'd' || f.payload[5] != 'w' {
			continue
		}
		args := []string{"-r", lo, "-x", "-Y", "frame.number==" + strconv.Itoa(f.num)}
		b, err := tshark(args...)
		if err != nil {
			return err
		}
		n := binary.BigEndian.Uint32(f.payload[1:])
		if err := g.write("tshark", "x_frame_cut.txt", b, [][]byte{f.payload}, "bytes into a message of "+strconv.Itoa(int(n)+1),
			"tshark "+strings.Join(shortCmd(args, g.tmp), " ")+" (the first of the frames tshark puts a CopyData together from in frame "+strconv.Itoa(r.num)+"; the want: the frame's tcp.payload)"); err != nil {
			return err
		}
		cut = true
		break
	}
	if !cut {
		return fmt.Errorf("no frame holds only the start of a CopyData message")
	}
	// tcp.payload lines: the IPv4 connection alone, then both connections with their stream
	// and source port.
	for _, c := range []struct {
		name   string
		file   string
		filter string
		fields []string
	}{
		{"payload_fields.txt", lo, "tcp.port==" + port, []string{"tcp.payload"}},
		{"payload_fields_streams.txt", anyf, "", []string{"tcp.stream", "tcp.srcport", "tcp.payload"}},
	} {
		args := []string{"-r", c.file}
		if c.filter != "" {
			args = append(args, "-Y", c.filter)
		}
		args = append(args, "-T", "fields")
		for _, f := range c.fields {
			args = append(args, "-e", f)
		}
		b, err := tshark(args...)
		if err != nil {
			return err
		}
		// In the order of the frames that hold their first bytes: the first message of a
		// frame tshark put together from segments starts in the first of them.
		type at struct {
			frame int
			msg   []byte
		}
		var ms []at
		for _, f := range infos[c.file] {
			if c.filter == "" || f.stream == connStream(infos[c.file], port) {
				for i, m := range f.copyData {
					n := f.num
					if i == 0 && len(f.segments) > 0 {
						n, _ = strconv.Atoi(f.segments[0])
					}
					ms = append(ms, at{n, m})
				}
			}
		}
		sort.SliceStable(ms, func(i, j int) bool { return ms[i].frame < ms[j].frame })
		var want [][]byte
		for _, m := range ms {
			want = append(want, m.msg)
		}
		if err := g.write("tshark", c.name, b, want, "", "tshark "+strings.Join(shortCmd(args, g.tmp), " ")+" (the want: tshark -d tcp.port==PORT,pgsql -T fields -e pgsql.copydata)"); err != nil {
			return err
		}
	}
	return g.copyBoth(lo, port, infos[lo])
}

// copyBoth writes the server's bytes of the IPv4 connection from its CopyBothResponse on, as
// tshark -z follow,tcp,raw shows them (turned into bytes by xxd -r -p), and xxd of that file.
// The want cuts the bytes where tshark's dissector says each message ends.
func (g *gen) copyBoth(file, port string, fs []frameInfo) error {
	stream := connStream(fs, port)
	raw, err := exec.Command("tshark", "-r", file, "-q", "-z", "follow,tcp,raw,"+strconv.Itoa(stream)).Output()
	if err != nil {
		return fmt.Errorf("tshark follow: %v", err)
	}
	// The follow output's chunks: the server's are indented by a tab (it speaks second).
	type chunk struct {
		server bool
		hex    string
	}
	var chunks []chunk
	for _, l := range strings.Split(string(raw), "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(l, "=") || strings.Contains(l, ":") {
			continue
		}
		chunks = append(chunks, chunk{strings.HasPrefix(l, "\t"), t})
	}
	xxdR := func(hexText string) ([]byte, error) {
		cmd := exec.Command("xxd", "-r", "-p")
		cmd.Stdin = strings.NewReader(hexText)
		return cmd.Output()
	}
	var serverHex strings.Builder
	for _, c := range chunks {
		if c.server {
			serverHex.WriteString(c.hex + "\n")
		}
	}
	server, err := xxdR(serverHex.String())
	if err != nil {
		return err
	}
	// tshark's messages of the server's side, in order, and the bytes they cut.
	var lengths []int
	var copyData [][]byte
	var payload []byte
	for _, f := range fs {
		if strconv.Itoa(f.srcPort) == port {
			lengths = append(lengths, f.lengths...)
			copyData = append(copyData, f.copyData...)
			payload = append(payload, f.payload...)
		}
	}
	if !bytes.Equal(payload, server) {
		return fmt.Errorf("follow,tcp,raw's server bytes (%d) are not the frames' tcp.payload (%d)", len(server), len(payload))
	}
	var msgs [][]byte
	pos := 0
	for _, n := range lengths {
		if pos+1+n > len(server) {
			return fmt.Errorf("tshark's message lengths run past the server's bytes")
		}
		msgs = append(msgs, server[pos:pos+1+n])
		pos += 1 + n
	}
	first := -1
	for i, m := range msgs {
		if m[0] == 'W' {
			first = i
			break
		}
	}
	if first < 0 || pos != len(server) {
		return fmt.Errorf("no CopyBothResponse, or tshark's messages (%d bytes) are not the server's bytes (%d)", pos, len(server))
	}
	k := 0
	for _, m := range msgs {
		if m[0] == 'd' {
			if k >= len(copyData) || !bytes.Equal(m, copyData[k]) {
				return fmt.Errorf("CopyData %d is not tshark's pgsql.copydata", k)
			}
			k++
		}
	}
	if k != len(copyData) {
		return fmt.Errorf("%d CopyData cut from the bytes, tshark found %d", k, len(copyData))
	}
	from := 0
	for _, m := range msgs[:first] {
		from += len(m)
	}
	bin := server[from:]
	how := "tshark -r capture.pcapng -q -z follow,tcp,raw,N, the server's (indented) lines through xxd -r -p, from the CopyBothResponse on (its offset: the lengths of tshark's pgsql messages before it); the want: the bytes cut at tshark's pgsql.length of each message"
	if err := g.write("copyboth", "copyboth.bin", bin, msgs[first:], "", how); err != nil {
		return err
	}
	cmd := exec.Command("xxd", "copyboth.bin")
	cmd.Dir = filepath.Join(*out, "copyboth")
	dump, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("xxd: %v", err)
	}
	if err := g.write("copyboth", "copyboth_xxd.txt", dump, msgs[first:], "", "xxd copyboth.bin"); err != nil {
		return err
	}
	return nil
}
