package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgoutput-inspector/internal/debpkg"
	"pgoutput-inspector/internal/wirecapture"
)

// consumerReport is what consumer --json says (docs/cli.md).
type consumerReport struct {
	Timed       bool
	Connections []struct {
		Connection            int
		Slot                  string
		Commits               int
		StatusUpdates         int      `json:"status_updates"`
		MaxWriteLag           *float64 `json:"max_write_lag_seconds"`
		MaxFlushLag           *float64 `json:"max_flush_lag_seconds"`
		MaxApplyLag           *float64 `json:"max_apply_lag_seconds"`
		UnacknowledgedCommits int      `json:"unacknowledged_commits"`
		LostBytes             int      `json:"lost_bytes"`
		Anomalies             []struct {
			Kind     string
			Messages []int
			Text     string
		}
		Close *struct {
			By                 string
			Frame              int
			Time               string
			Reset              bool
			AfterClientSeconds *float64 `json:"after_client_seconds"`
		}
	}
}

func consumerJSONOf(t *testing.T, path string, flags ...string) (consumerReport, int) {
	t.Helper()
	r := runCmd(t, "", nil, append(append([]string{"consumer", "--json"}, flags...), path)...)
	var rep consumerReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("consumer --json %s: %v (exit %d: %s)", path, err, r.code, r.stderr)
	}
	return rep, r.code
}

// wireLags is what a second reader finds in a capture, from tshark's fields alone (frame
// times, ports and each CopyData's bytes, which it reads itself): for each replication
// connection (by the client's port), the longest time from a frame carrying a Commit, Stream
// Commit or Commit Prepared (XLogData 'w' whose message is 'C', 'c' or 'K') to the client's first later status update ('r') whose
// write, flush or apply LSN reaches the Commit's end LSN; the commits; and whether a keepalive
// ('k') asked for a reply that did not come within half of wal_sender_timeout.
type wireLags struct {
	commits    int
	maxLag     [3]float64 // write, flush, apply; -1: a commit never acknowledged there
	unanswered bool
}

func wiresharkLags(t *testing.T, ctx context.Context, path, serverPort string) map[string]*wireLags {
	t.Helper()
	out, err := exec.CommandContext(ctx, tsharkPath, "-r", path, "-d", "tcp.port=="+serverPort+",pgsql", "-T", "fields",
		"-E", "aggregator=;", "-e", "frame.time_epoch", "-e", "tcp.srcport", "-e", "tcp.dstport", "-e", "pgsql.copydata").Output()
	if err != nil {
		t.Fatalf("tshark: %v", err)
	}
	type commit struct {
		at  float64
		end uint64
	}
	type update struct {
		at  float64
		pos [3]uint64
	}
	commits, updates := map[string][]commit{}, map[string][]update{}
	asks := map[string][]float64{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 4 || f[3] == "" {
			continue
		}
		at, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			t.Fatalf("tshark's frame.time_epoch %q: %v", f[0], err)
		}
		fromServer, client := f[1] == serverPort, f[1]
		if fromServer {
			client = f[2]
		}
		for _, h := range strings.Split(f[3], ";") {
			b, err := hex.DecodeString(strings.ReplaceAll(h, ":", ""))
			if err != nil || len(b) == 0 {
				continue
			}
			switch {
			// Commit and Commit Prepared: type, flags, commit LSN, end LSN; Stream Commit has the
			// xid (4 bytes) before the flags.
			case fromServer && b[0] == 'w' && len(b) >= 43 && (b[25] == 'C' || b[25] == 'K'):
				commits[client] = append(commits[client], commit{at, be64(b[35:])})
			case fromServer && b[0] == 'w' && len(b) >= 47 && b[25] == 'c':
				commits[client] = append(commits[client], commit{at, be64(b[39:])})
			case fromServer && b[0] == 'k' && len(b) >= 18 && b[17] == 1:
				asks[client] = append(asks[client], at)
			case !fromServer && b[0] == 'r' && len(b) >= 34:
				updates[client] = append(updates[client], update{at, [3]uint64{be64(b[1:]), be64(b[9:]), be64(b[17:])}})
			}
		}
	}
	lags := map[string]*wireLags{}
	for client, cs := range commits {
		l := &wireLags{commits: len(cs)}
		for p := range l.maxLag {
			for _, c := range cs {
				lag := -1.0
				for _, u := range updates[client] {
					if u.at > c.at && u.pos[p] != 0 && u.pos[p] >= c.end {
						lag = u.at - c.at
						break
					}
				}
				if lag < 0 || l.maxLag[p] < 0 {
					l.maxLag[p] = -1
				} else {
					l.maxLag[p] = max(l.maxLag[p], lag)
				}
			}
		}
		lags[client] = l
	}
	// A keepalive asking for a reply is unanswered when no status update follows it within
	// half of wal_sender_timeout (replyWithin).
	for client, ats := range asks {
		if lags[client] == nil {
			lags[client] = &wireLags{}
		}
		for _, at := range ats {
			answered := false
			for _, u := range updates[client] {
				if u.at > at {
					answered = u.at-at <= replyWithin
					break
				}
			}
			lags[client].unanswered = lags[client].unanswered || !answered
		}
	}
	return lags
}

// replyWithin is half of the unanswered scenario's wal_sender_timeout (2 s), in seconds.
const replyWithin = 1.0

func be64(b []byte) uint64 {
	var v uint64
	for _, c := range b[:8] {
		v = v<<8 | uint64(c)
	}
	return v
}

// checkLags compares consumer --json's lags on each connection with the second reader's.
func checkLags(t *testing.T, ctx context.Context, path string, rep consumerReport) {
	t.Helper()
	serverPort := compareWithWireshark(t, ctx, path)
	d := decodedConnections(t, path)
	wire := wiresharkLags(t, ctx, path, serverPort)
	checked := 0
	for _, c := range rep.Connections {
		_, port, _ := strings.Cut(d[c.Connection-1], ":")
		w := wire[port]
		if w == nil || w.commits == 0 {
			if c.Commits != 0 {
				t.Errorf("connection %d: %d commits, Wireshark's fields none", c.Connection, c.Commits)
			}
			continue
		}
		if c.Commits != w.commits {
			t.Errorf("connection %d: %d commits, Wireshark's fields %d", c.Connection, c.Commits, w.commits)
		}
		for p, got := range [...]*float64{c.MaxWriteLag, c.MaxFlushLag, c.MaxApplyLag} {
			want := w.maxLag[p]
			switch {
			case want < 0 && p == 1:
				if c.UnacknowledgedCommits == 0 {
					t.Errorf("connection %d: every commit acknowledged flushed; by Wireshark's fields one never is", c.Connection)
				}
			case want < 0 || want == 0 && got == nil:
			case got == nil:
				t.Errorf("connection %d: no %s lag; by Wireshark's fields %.6f s", c.Connection, [...]string{"write", "flush", "apply"}[p], want)
			case math.Abs(*got-want) > 0.05:
				t.Errorf("connection %d: max %s lag %.6f s; by Wireshark's fields %.6f s", c.Connection, [...]string{"write", "flush", "apply"}[p], *got, want)
			}
		}
		checked++
	}
	if checked == 0 {
		t.Errorf("%s: no connection with commits to check", path)
	}
}

// decodedConnections returns the client address of each connection decode --json lists.
func decodedConnections(t *testing.T, path string) []string {
	t.Helper()
	var d struct{ Connections []struct{ Client string } }
	if err := json.Unmarshal([]byte(runCmd(t, "", nil, "decode", "--json", path).stdout), &d); err != nil {
		t.Fatal(err)
	}
	var clients []string
	for _, c := range d.Connections {
		clients = append(clients, c.Client)
	}
	return clients
}

func anomalyKinds(rep consumerReport) []string {
	var kinds []string
	for _, c := range rep.Connections {
		for _, a := range c.Anomalies {
			kinds = append(kinds, a.Kind)
		}
	}
	return kinds
}

// TestConsumerHealthy: on the captures of healthy consumers (pg_recvlogical with its options,
// PostgreSQL subscribers), consumer finds no anomaly and exits 0, and its write, flush and
// apply lags are those a second reader computes from Wireshark's fields.
func TestConsumerHealthy(t *testing.T) {
	if _, err := os.Stat(tsharkPath); err != nil {
		t.Skipf("tshark is not installed (%v)", err)
	}
	debpkg.NoteOnFailure(t, "tshark")
	paths, _ := filepath.Glob("../../testdata/conversation/*.pcapng")
	n := 0
	for _, path := range paths {
		name := filepath.Base(path)
		if !strings.HasPrefix(name, "recvlogical-") && !strings.HasPrefix(name, "subscriber-") && name != "scram-pg18.pcapng" {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			rep, code := consumerJSONOf(t, path)
			if code != exitOK || len(anomalyKinds(rep)) > 0 {
				t.Errorf("exit %d, anomalies %+v", code, rep.Connections)
			}
			if !rep.Timed {
				t.Error("not timed")
			}
			checkLags(t, context.Background(), path, rep)
		})
	}
	if n < 8 {
		t.Errorf("%d healthy captures", n)
	}
}

// TestConsumerStoppedSubscriber: a PostgreSQL 15 subscriber whose apply worker was stopped
// for 5 s (testdata/consumer, and recorded again here when the machine can): the longest
// flush lag is that long, within the status interval, as Wireshark's fields give it; the
// silence is the one anomaly.
func TestConsumerStoppedSubscriber(t *testing.T) {
	for _, path := range consumerCaptures(t, "subscriber-stopped-pg15") {
		rep, code := consumerJSONOf(t, path, "--status-interval", "1s")
		if code != exitError {
			t.Errorf("%s: exit %d, want %d (an anomaly)", path, code, exitError)
		}
		if k := anomalyKinds(rep); strings.Join(k, " ") != "silent" {
			t.Errorf("%s: anomalies %q, want the silence alone", path, k)
		}
		var flush float64
		for _, c := range rep.Connections {
			if c.Slot == "sub" && c.MaxFlushLag != nil {
				flush = *c.MaxFlushLag
			}
		}
		if stop := wirecapture.StoppedFor.Seconds(); math.Abs(flush-stop) > 1 {
			t.Errorf("%s: max flush lag %.3f s, the apply worker stopped for %.0f s (status interval 1 s)", path, flush, stop)
		}
		checkLags(t, context.Background(), path, rep)
		checkSVG(t, path)
	}
}

// checkSVG writes consumer --svg's chart of the capture and reads it back: well-formed, one
// panel for the apply connection, a point for each of its status updates (the message index
// in data-msg) and the slowest flush marked.
func checkSVG(t *testing.T, path string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "chart.svg")
	runCmd(t, "", nil, "consumer", "--svg", out, path)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	points, spikes, panels := 0, 0, 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the chart is not well-formed XML: %v", err)
		}
		if e, ok := tok.(xml.StartElement); ok {
			for _, a := range e.Attr {
				switch {
				case a.Name.Local == "class" && a.Value == "point":
					points++
				case a.Name.Local == "class" && a.Value == "spike":
					spikes++
				case a.Name.Local == "class" && a.Value == "series s0":
					panels++
				}
			}
		}
	}
	rep, _ := consumerJSONOf(t, path)
	updates := 0
	for _, c := range rep.Connections {
		if c.Commits > 0 {
			updates += c.StatusUpdates
		}
	}
	if panels != 1 || points != updates || spikes != 1 {
		t.Errorf("the chart has %d panels, %d points, %d spikes; want 1, %d, 1", panels, points, spikes, updates)
	}
}

// TestConsumerUnanswered: pg_recvlogical stopped while the server (wal_sender_timeout 2 s)
// asks for a reply: the keepalive unanswered is the anomaly, and the timeout the server's
// close (it sends no error), as Wireshark's fields show them: the first FIN or RST is the
// server's, in the frame and at the time the report gives, wal_sender_timeout after the
// client's last CopyData.
func TestConsumerUnanswered(t *testing.T) {
	for _, path := range consumerCaptures(t, "recvlogical-unanswered-pg16") {
		rep, code := consumerJSONOf(t, path, "--status-interval", "1s", "--wal-sender-timeout", "2s")
		if code != exitError {
			t.Errorf("%s: exit %d, want %d", path, code, exitError)
		}
		if k := anomalyKinds(rep); strings.Join(k, " ") != "late-reply timeout" {
			t.Errorf("%s: anomalies %q, want the unanswered keepalive and the timeout", path, k)
		}
		checkTimeoutClose(t, path, rep)
		ctx := context.Background()
		port := compareWithWireshark(t, ctx, path)
		unanswered := false
		for _, l := range wiresharkLags(t, ctx, path, port) {
			unanswered = unanswered || l.unanswered
		}
		if !unanswered {
			t.Errorf("%s: by Wireshark's fields every keepalive asking was answered", path)
		}
		checkLags(t, ctx, path, rep)
	}
}

// consumerCaptures returns the committed capture of the consumer scenario and, unless -short
// or the machine cannot record, one recorded now.
func consumerCaptures(t *testing.T, name string) []string {
	t.Helper()
	if _, err := os.Stat(tsharkPath); err != nil {
		t.Skipf("tshark is not installed (%v)", err)
	}
	debpkg.NoteOnFailure(t, "tshark")
	paths := []string{"../../testdata/consumer/" + name + ".pcapng"}
	if testing.Short() || wirecapture.Check() != nil {
		return paths
	}
	for _, sc := range wirecapture.ConsumerScenarios {
		if sc.Name != name {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		path, err := wirecapture.RecordScenario(ctx, sc, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths
}

// TestConsumerMisreport: a pglogrepl consumer that misreports (internal/wirecapture's
// Misreport): each anomaly is named with its messages, and a second reader of Wireshark's
// fields sees the same: a flush lower than one before, a flush past the write beside it, a
// flush past every WAL end the server sent, and a second START_REPLICATION past the first
// connection's last flush.
func TestConsumerMisreport(t *testing.T) {
	for _, path := range consumerCaptures(t, "misreport-pg17") {
		rep, code := consumerJSONOf(t, path)
		if code != exitError {
			t.Errorf("%s: exit %d, want %d", path, code, exitError)
		}
		if k := strings.Join(anomalyKinds(rep), " "); k != "backwards backwards order beyond-sent gap" {
			t.Errorf("%s: anomalies %q", path, k)
		}
		ctx := context.Background()
		port := compareWithWireshark(t, ctx, path)
		out, err := exec.CommandContext(ctx, tsharkPath, "-r", path, "-d", "tcp.port=="+port+",pgsql", "-T", "fields",
			"-E", "aggregator=;", "-e", "tcp.srcport", "-e", "pgsql.copydata", "-e", "pgsql.query").Output()
		if err != nil {
			t.Fatal(err)
		}
		var sent, lastFlush, ackedBefore uint64
		var back, order, beyond, gap bool
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Split(line+"\t\t", "\t")
			if q := f[2]; strings.HasPrefix(q, "START_REPLICATION") {
				ackedBefore = lastFlush // what the connections before acknowledged
				var hi, lo uint64
				if _, err := fmt.Sscanf(strings.Fields(q)[4], "%X/%X", &hi, &lo); err == nil && hi<<32|lo > 0 {
					gap = gap || hi<<32|lo > ackedBefore && ackedBefore > 0
				}
			}
			for _, h := range strings.Split(f[1], ";") {
				b, _ := hex.DecodeString(strings.ReplaceAll(h, ":", ""))
				switch {
				case len(b) >= 17 && f[0] == port && (b[0] == 'w' || b[0] == 'k'):
					sent = max(sent, be64(b[1:]))
					if b[0] == 'w' {
						sent = max(sent, be64(b[9:]))
					}
				case len(b) >= 34 && f[0] != port && b[0] == 'r':
					w, fl := be64(b[1:]), be64(b[9:])
					back = back || fl < lastFlush
					order = order || fl > w
					beyond = beyond || fl > sent
					lastFlush = max(lastFlush, fl)
				}
			}
		}
		if !back || !order || !beyond || !gap {
			t.Errorf("%s: by Wireshark's fields: flush went back %v, flush past write %v, past the WAL sent %v, a start past the last flush %v", path, back, order, beyond, gap)
		}
	}
}

// TestConsumerFsync: pg_recvlogical reporting every second and fsyncing every 4 s, six
// transactions a second apart: its writes are reported within two status intervals, its
// flushes only after an fsync (the longest near the fsync interval and the status interval
// together), as Wireshark's fields give them; no anomaly.
func TestConsumerFsync(t *testing.T) {
	for _, path := range consumerCaptures(t, "recvlogical-fsync-pg16") {
		rep, code := consumerJSONOf(t, path)
		if code != exitOK || len(anomalyKinds(rep)) > 0 {
			t.Errorf("%s: exit %d, anomalies %q", path, code, anomalyKinds(rep))
		}
		if len(rep.Connections) != 1 || rep.Connections[0].MaxWriteLag == nil || rep.Connections[0].MaxFlushLag == nil {
			t.Fatalf("%s: %+v", path, rep.Connections)
		}
		w, f := *rep.Connections[0].MaxWriteLag, *rep.Connections[0].MaxFlushLag
		if w > 2.5 || f < 2.5 || f > 6 {
			t.Errorf("%s: max write lag %.3f s (status interval 1 s), max flush lag %.3f s (fsync interval 4 s)", path, w, f)
		}
		checkLags(t, context.Background(), path, rep)
	}
}

// checkTimeoutClose compares the report's close of the stream with tshark's fields: on the
// replication connection's client port, the first frame with tcp.flags.fin or
// tcp.flags.reset set comes from the server's port, in the
// frame and at the time (frame.time_epoch) the report gives, 2 s (wal_sender_timeout) to
// 2.3 s after the client's last CopyData, and the timeout anomaly says the timeout passed.
func checkTimeoutClose(t *testing.T, path string, rep consumerReport) {
	t.Helper()
	ctx := context.Background()
	port := compareWithWireshark(t, ctx, path)
	var client string
	for _, c := range rep.Connections {
		if c.Slot != "" {
			_, client, _ = strings.Cut(decodedConnections(t, path)[c.Connection-1], ":")
		}
	}
	out, err := exec.CommandContext(ctx, tsharkPath, "-r", path, "-d", "tcp.port=="+port+",pgsql", "-Y", "tcp.port=="+client, "-T", "fields",
		"-e", "frame.number", "-e", "frame.time_epoch", "-e", "tcp.srcport", "-e", "tcp.flags.fin", "-e", "tcp.flags.reset", "-e", "pgsql.copydata").Output()
	if err != nil {
		t.Fatal(err)
	}
	var lastClient, closed float64
	closeFrame, closeBy := 0, ""
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line+"\t\t\t\t\t", "\t")
		at, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			t.Fatalf("tshark's frame.time_epoch %q: %v", f[1], err)
		}
		if closeFrame == 0 && f[2] != port && f[5] != "" {
			lastClient = at
		}
		if closeFrame == 0 && (f[3] == "1" || f[3] == "True" || f[4] == "1" || f[4] == "True") {
			closeFrame, _ = strconv.Atoi(f[0])
			closed, closeBy = at, "client"
			if f[2] == port {
				closeBy = "server"
			}
		}
	}
	if closeFrame == 0 {
		t.Fatalf("%s: by Wireshark's fields no FIN or RST: the capture ends before the close", path)
	}
	if closeBy != "server" || closed-lastClient < 2 || closed-lastClient > 2.3 {
		t.Errorf("%s: by Wireshark's fields the %s closed first (frame %d), %.6f s after the client's last CopyData; want the server, wal_sender_timeout (2 s) after", path, closeBy, closeFrame, closed-lastClient)
	}
	found := false
	for _, c := range rep.Connections {
		if c.Close == nil || c.Close.By != "server" {
			continue
		}
		found = true
		at, err := time.Parse(time.RFC3339Nano, c.Close.Time)
		if c.Close.Frame != closeFrame || err != nil || math.Abs(float64(at.UnixNano())/1e9-closed) > 1e-6 || c.Close.Reset ||
			c.Close.AfterClientSeconds == nil || math.Abs(*c.Close.AfterClientSeconds-(closed-lastClient)) > 1e-5 {
			t.Errorf("%s: close %+v; by Wireshark's fields a FIN in frame %d at %.6f, %.6f s after the client's last CopyData", path, *c.Close, closeFrame, closed, closed-lastClient)
		}
		for _, a := range c.Anomalies {
			if a.Kind == "timeout" && (!strings.Contains(a.Text, "frame "+strconv.Itoa(closeFrame)) || !strings.Contains(a.Text, "wal_sender_timeout (2.000 s) passed")) {
				t.Errorf("%s: %s", path, a.Text)
			}
		}
	}
	if !found {
		t.Errorf("%s: no connection closed by the server in %+v", path, rep.Connections)
	}
}

// TestConsumerRedelivered: pg_recvlogical acknowledges three transactions flushed, the server
// stops without a checkpoint (pg_ctl stop -m immediate) and the slot comes back before them;
// a new pg_recvlogical receives them again. The report names the redelivery with the
// acknowledgement and each end sent again; a second reader of Wireshark's fields (each
// connection's CopyData) finds the same: the Commits whose end LSNs the first connection
// acknowledged flushed are sent again on the second.
func TestConsumerRedelivered(t *testing.T) {
	for _, path := range consumerCaptures(t, "recvlogical-redelivered-pg16") {
		rep, code := consumerJSONOf(t, path)
		if code != exitError {
			t.Errorf("%s: exit %d, want %d", path, code, exitError)
		}
		if k := strings.Join(anomalyKinds(rep), " "); k != "redelivery" {
			t.Fatalf("%s: anomalies %q, want the redelivery alone", path, k)
		}
		var text string
		var msgs []int
		for _, c := range rep.Connections {
			for _, a := range c.Anomalies {
				text, msgs = a.Text, a.Messages
			}
		}
		ctx := context.Background()
		port := compareWithWireshark(t, ctx, path)
		out, err := exec.CommandContext(ctx, tsharkPath, "-r", path, "-d", "tcp.port=="+port+",pgsql", "-T", "fields",
			"-E", "aggregator=;", "-e", "tcp.srcport", "-e", "tcp.dstport", "-e", "pgsql.copydata").Output()
		if err != nil {
			t.Fatal(err)
		}
		// Per client port, in the order the connections streamed: the Commits' end LSNs the
		// server sent and the highest flush the client reported.
		var order []string
		commits, flushed := map[string][]uint64{}, map[string]uint64{}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Split(line+"\t\t", "\t")
			client := f[0]
			if client == port {
				client = f[1]
			}
			for _, h := range strings.Split(f[2], ";") {
				b, _ := hex.DecodeString(strings.ReplaceAll(h, ":", ""))
				if len(b) == 0 {
					continue
				}
				if _, seen := commits[client]; !seen {
					commits[client] = nil
					order = append(order, client)
				}
				switch {
				case f[0] == port && b[0] == 'w' && len(b) >= 43 && b[25] == 'C':
					commits[client] = append(commits[client], be64(b[35:]))
				case f[0] != port && b[0] == 'r' && len(b) >= 34:
					flushed[client] = max(flushed[client], be64(b[9:]))
				}
			}
		}
		if len(order) != 2 {
			t.Fatalf("%s: by Wireshark's fields %d streaming connections, want 2", path, len(order))
		}
		acked := flushed[order[0]]
		var again []string
		for _, end := range commits[order[1]] {
			if end <= acked {
				again = append(again, fmt.Sprintf("Commit %X/%X", end>>32, uint32(end)))
				if !slices.Contains(commits[order[0]], end) {
					t.Errorf("%s: by Wireshark's fields the second connection's Commit %X/%X was not sent on the first", path, end>>32, uint32(end))
				}
			}
		}
		if len(again) != 3 || len(msgs) != 1+len(again) {
			t.Errorf("%s: by Wireshark's fields %d Commits sent again (%q), the report's messages %v", path, len(again), again, msgs)
		}
		for _, c := range again {
			if !strings.Contains(text, c+" (message ") {
				t.Errorf("%s: by Wireshark's fields %s was acknowledged flushed (up to %X/%X) and sent again; the report says: %s", path, c, acked>>32, uint32(acked), text)
			}
		}
		checkLags(t, ctx, path, rep)
	}
}
