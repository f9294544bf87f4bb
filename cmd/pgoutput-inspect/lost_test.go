package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/internal/debpkg"
)

// editcapPath is Debian's editcap (the tshark package), which deletes frames from a capture.
const editcapPath = "/usr/bin/editcap"

// TestLostPackets: packets a capture dropped (frames deleted from a real capture with
// editcap, as dumpcap drops them when its buffer fills) are named, not skipped in silence:
// decode says how many bytes were lost and before which frame, as many as the deleted frames'
// TCP payloads held; and the consumer check does not blame the client for reporting a flush
// the capture never saw the server send (the deleted frames held WAL ends past everything
// sent before them, so an update after them reports a flush past what the capture shows).
func TestLostPackets(t *testing.T) {
	debpkg.NoteOnFailure(t, "tshark")
	for _, name := range []string{"conversation/subscriber-pg14-pg16", "conversation/subscriber-pg17-pg18"} {
		t.Run(filepath.Base(name), func(t *testing.T) {
			path := "../../testdata/" + name + ".pcapng"
			ctx := context.Background()
			port := compareWithWireshark(t, ctx, path)
			run, lost, after := framesToDrop(t, ctx, path, port)
			if len(run) == 0 {
				t.Fatalf("%s: no status update reports a flush only frames since the client's last message carried", path)
			}
			cut := filepath.Join(t.TempDir(), "dropped.pcapng")
			args := append([]string{path, cut}, run...)
			if out, err := exec.CommandContext(ctx, editcapPath, args...).CombinedOutput(); err != nil {
				t.Fatalf("editcap: %v: %s", err, out)
			}
			// editcap numbers the frames left from 1: the frame after the run moves up.
			after -= len(run)
			out := runCmd(t, "", nil, "decode", cut).stdout
			want := ": " + strconv.Itoa(lost) + " bytes lost (before the messages of frames [" + strconv.Itoa(after) + "] or after its last message)"
			if !strings.Contains(out, want) {
				t.Errorf("%s without frames %v: decode does not say %q:\n%s", path, run, want, head(out, 3))
			}
			var doc struct {
				Messages []struct {
					Frame      int
					LostBefore int `json:"lost_before"`
				}
			}
			if err := json.Unmarshal([]byte(runCmd(t, "", nil, "decode", "--json", cut).stdout), &doc); err != nil {
				t.Fatal(err)
			}
			marked := 0
			for _, m := range doc.Messages {
				if m.LostBefore != 0 {
					marked++
					if m.Frame != after || m.LostBefore != lost {
						t.Errorf("%s without frames %v: decode --json: %d bytes lost before the message of frame %d, want %d before frame %d", path, run, m.LostBefore, m.Frame, lost, after)
					}
				}
			}
			if marked != 1 {
				t.Errorf("%s without frames %v: decode --json marks %d messages with lost_before, want 1", path, run, marked)
			}
			rep, code := consumerJSONOf(t, cut)
			if code != exitOK || len(anomalyKinds(rep)) > 0 {
				t.Errorf("%s without frames %v: consumer exit %d, anomalies %q", path, run, code, anomalyKinds(rep))
			}
			total := 0
			for _, c := range rep.Connections {
				total += c.LostBytes
			}
			if total != lost {
				t.Errorf("%s without frames %v: consumer says %d bytes lost, want %d", path, run, total, lost)
			}
		})
	}
}

// TestCaptureBegunLate: a capture that began after the replication stream had started (its
// frames before a status update reporting a flush deleted with editcap, as when dumpcap starts
// late) does not make the consumer check blame the client for a flush past the WAL sent: what
// the server sent before is not in the capture. The report says the start is missing.
func TestCaptureBegunLate(t *testing.T) {
	debpkg.NoteOnFailure(t, "tshark")
	for _, name := range []string{"conversation/subscriber-pg14-pg16", "conversation/subscriber-pg17-pg18", "consumer/recvlogical-fsync-pg16"} {
		t.Run(filepath.Base(name), func(t *testing.T) {
			path := "../../testdata/" + name + ".pcapng"
			ctx := context.Background()
			port := compareWithWireshark(t, ctx, path)
			out, err := exec.CommandContext(ctx, tsharkPath, "-r", path, "-d", "tcp.port=="+port+",pgsql", "-T", "fields",
				"-E", "aggregator=;", "-e", "frame.number", "-e", "tcp.srcport", "-e", "pgsql.copydata").Output()
			if err != nil {
				t.Fatal(err)
			}
			update := 0
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				f := strings.Split(line+"\t\t", "\t")
				for _, h := range strings.Split(f[2], ";") {
					b, _ := hex.DecodeString(strings.ReplaceAll(h, ":", ""))
					if f[1] != port && len(b) >= 34 && b[0] == 'r' && be64(b[9:]) > 0 && update == 0 {
						update, _ = strconv.Atoi(f[0])
					}
				}
			}
			if update < 2 {
				t.Fatalf("%s: no status update reports a flush", path)
			}
			cut := filepath.Join(t.TempDir(), "late.pcapng")
			if out, err := exec.CommandContext(ctx, editcapPath, path, cut, "1-"+strconv.Itoa(update-1)).CombinedOutput(); err != nil {
				t.Fatalf("editcap: %v: %s", err, out)
			}
			rep, code := consumerJSONOf(t, cut)
			if code != exitOK || len(anomalyKinds(rep)) > 0 {
				t.Errorf("%s from frame %d on: consumer exit %d, anomalies %q", path, update, code, anomalyKinds(rep))
			}
			if text := runCmd(t, "", nil, "consumer", cut).stdout; !strings.Contains(text, "the input does not hold the stream's start (START_REPLICATION)") {
				t.Errorf("%s from frame %d on: consumer does not say the start is missing:\n%s", path, update, text)
			}
		})
	}
}

// framesToDrop finds, by Wireshark's fields, the first status update whose flush is past
// every WAL end the server sent on its connection before the frames it sent since the client's
// message before the update, all of them CopyData: those frames (their numbers, as editcap
// takes them), the TCP payload bytes they hold, and the server's next frame after the update
// on the connection (where the lost bytes show: the TCP sequence skips them there).
func framesToDrop(t *testing.T, ctx context.Context, path, port string) (run []string, lost, next int) {
	t.Helper()
	out, err := exec.CommandContext(ctx, tsharkPath, "-r", path, "-d", "tcp.port=="+port+",pgsql", "-Y", "tcp.len>0", "-T", "fields",
		"-E", "aggregator=;", "-e", "frame.number", "-e", "tcp.srcport", "-e", "tcp.dstport", "-e", "tcp.len", "-e", "pgsql.copydata").Output()
	if err != nil {
		t.Fatal(err)
	}
	// Each connection by its client's port: the frames since the client's last message, the
	// bytes they hold, the WAL sent before them and in them.
	type conn struct {
		run          []string
		lost         int
		before, sent uint64
	}
	conns := map[string]*conn{}
	chosen, update := "", 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line+"\t\t\t\t", "\t")
		client := f[1]
		if f[1] == port {
			client = f[2]
		}
		c := conns[client]
		if c == nil {
			c = &conn{}
			conns[client] = c
		}
		n, _ := strconv.Atoi(f[3])
		if update > 0 {
			if f[1] == port && client == chosen {
				next, _ = strconv.Atoi(f[0])
				return run, lost, next
			}
			continue
		}
		if f[1] == port {
			if f[4] == "" { // not CopyData: the run starts again after it
				c.before, c.sent, c.run, c.lost = max(c.before, c.sent), 0, nil, 0
				continue
			}
			c.run = append(c.run, f[0])
			c.lost += n
			for _, h := range strings.Split(f[4], ";") {
				b, _ := hex.DecodeString(strings.ReplaceAll(h, ":", ""))
				if len(b) >= 17 && (b[0] == 'w' || b[0] == 'k') {
					c.sent = max(c.sent, be64(b[1:]))
					if b[0] == 'w' {
						c.sent = max(c.sent, be64(b[9:]))
					}
				}
			}
			continue
		}
		for _, h := range strings.Split(f[4], ";") {
			b, _ := hex.DecodeString(strings.ReplaceAll(h, ":", ""))
			if len(b) >= 34 && b[0] == 'r' && len(c.run) > 0 && be64(b[9:]) > c.before && c.sent > c.before && update == 0 {
				chosen, run, lost = client, c.run, c.lost
				update, _ = strconv.Atoi(f[0])
			}
		}
		c.before, c.sent, c.run, c.lost = max(c.before, c.sent), 0, nil, 0
	}
	return nil, 0, 0
}

func head(s string, lines int) string {
	l := strings.SplitN(s, "\n", lines+1)
	return strings.Join(l[:min(len(l), lines)], "\n")
}
