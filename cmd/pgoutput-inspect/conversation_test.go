package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"pgoutput-inspector/internal/debpkg"
	"pgoutput-inspector/internal/pgserver"
	"pgoutput-inspector/internal/wirecapture"
)

// tsharkPath is Debian's tshark, whose pgsql dissector the conversation is compared with.
const tsharkPath = "/usr/bin/tshark"

// wiresharkName maps the inspector's message names to the pgsql dissector's (tshark 4.0's
// pgsql.type). The dissector calls messages it does not know "Unknown": CopyBothResponse,
// CancelRequest and protocol 3.2's StartupMessage among them (unknownToWireshark). It shows
// nothing for the server's one-byte answers to the encryption requests.
var wiresharkName = map[string]string{
	"StartupMessage": "Startup message", "SSLRequest": "SSL request", "GSSENCRequest": "GSS encrypt request",
	"PasswordMessage": "Password message", "SASLInitialResponse": "SASLInitialResponse message",
	"SASLResponse": "SASLResponse message", "GSSResponse": "GSSResponse message",
	"ParameterStatus": "Parameter status", "BackendKeyData": "Backend key data", "ReadyForQuery": "Ready for query",
	"Query": "Simple query", "RowDescription": "Row description", "DataRow": "Data row",
	"CommandComplete": "Command completion", "EmptyQueryResponse": "Empty query", "ErrorResponse": "Error",
	"NoticeResponse": "Notice", "NotificationResponse": "Notification", "CopyInResponse": "CopyIn response",
	"CopyOutResponse": "CopyOut response", "CopyData": "Copy data", "CopyDone": "Copy completion",
	"CopyFail": "Copy failure", "Terminate": "Termination", "Parse": "Parse", "Bind": "Bind", "Describe": "Describe",
	"Execute": "Execute", "Sync": "Sync", "Flush": "Flush", "Close": "Close", "ParseComplete": "Parse completion",
	"BindComplete": "Bind completion", "CloseComplete": "Close completion", "NoData": "No data",
	"PortalSuspended": "Portal suspended", "ParameterDescription": "Parameter description",
	"FunctionCall": "Function call", "FunctionCallResponse": "Function call response",
	"NegotiateProtocolVersion": "Negotiate protocol version",
	// Every authentication request is one to the dissector.
	"Authentication request": "Authentication request", "AuthenticationOk": "Authentication request",
	"AuthenticationCleartextPassword": "Authentication request", "AuthenticationMD5Password": "Authentication request",
	"AuthenticationSASL": "Authentication request", "AuthenticationSASLContinue": "Authentication request",
	"AuthenticationSASLFinal": "Authentication request", "AuthenticationGSS": "Authentication request",
	"AuthenticationGSSContinue": "Authentication request", "AuthenticationSSPI": "Authentication request",
	"AuthenticationKerberosV5": "Authentication request",
}

// unknownToWireshark are the messages tshark 4.0's dissector calls "Unknown".
var unknownToWireshark = map[string]bool{"CopyBothResponse": true, "CancelRequest": true, "StartupMessage": true}

// TestConversationAgainstWireshark records real connections to real servers, PostgreSQL 14 to
// 18 (internal/wirecapture: pg_recvlogical with options, PostgreSQL subscribers, pg_receivewal,
// ordinary clients, failed starts, SCRAM), decodes each capture with decode --json, and checks
// that every message Wireshark's pgsql dissector finds the inspector finds too, on the same
// connection, in the same order, named as the dissector names it, starting in the frame where
// the dissector shows it or before (the dissector shows a message that spans segments in the
// frame of its last byte); that no message fails to decode; and that no output format shows a
// password or a SCRAM proof.
func TestConversationAgainstWireshark(t *testing.T) {
	if testing.Short() {
		t.Skip("records captures of real servers")
	}
	if err := wirecapture.Check(); err != nil {
		t.Skip(err)
	}
	if _, err := os.Stat(tsharkPath); err != nil {
		t.Fatalf("tshark is not installed (%v): apt-get install -y tshark", err)
	}
	debpkg.NoteOnFailure(t, "tshark")
	scenarios := append([]wirecapture.Scenario{{Name: "own-capture", Versions: []string{"16"}, Run: func(ctx context.Context, srv []*pgserver.Server) error {
		return ownCapture(t, ctx, srv[0])
	}}}, wirecapture.Scenarios...)
	for _, sc := range scenarios {
		t.Run(sc.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			path, err := wirecapture.RecordScenario(ctx, sc, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			serverPort := compareWithWireshark(t, ctx, path)
			if sc.Name == "own-capture" {
				// The capture command as a consumer: no anomaly, its lags as Wireshark's fields give them.
				rep, code := consumerJSONOf(t, path)
				if code != exitOK {
					t.Errorf("consumer: exit %d, anomalies %q", code, anomalyKinds(rep))
					for _, c := range rep.Connections {
						for _, a := range c.Anomalies {
							t.Logf("connection %d: %s at messages %v: %s", c.Connection, a.Kind, a.Messages, a.Text)
						}
					}
					keepCapture(t, path)
				}
				checkLags(t, ctx, path, rep)
			}
			if strings.Contains(sc.Name, "scram") || strings.Contains(sc.Name, "ordinary") {
				checkNoSecrets(t, ctx, path, serverPort)
			}
		})
	}
}

// ownCapture runs pgoutput-inspect capture against the server while the scenarios' changes
// are made, and stops it with SIGINT.
func ownCapture(t *testing.T, ctx context.Context, srv *pgserver.Server) error {
	if err := wirecapture.Setup(ctx, srv, "pub"); err != nil {
		return err
	}
	cmd := command(t, ctx, "capture", "--conn", srv.ConnString()+" application_name=inspect", "--publication", "pub",
		"--messages", "--status-interval", "200ms", "--duration", "1m", "-o", filepath.Join(t.TempDir(), "own.capture"))
	if err := cmd.Start(); err != nil {
		return err
	}
	defer cmd.Wait()
	defer cmd.Process.Signal(syscall.SIGINT)
	if err := wirecapture.WaitStreaming(ctx, srv, "inspect"); err != nil {
		return err
	}
	if err := wirecapture.Exec(ctx, srv, wirecapture.Changes...); err != nil {
		return err
	}
	return wirecapture.WaitConfirmed(ctx, srv)
}

// decodedConversation is what decode --json says of a capture's messages and connections.
type decodedConversation struct {
	Messages []struct {
		Frame      int
		Connection int
		Direction  string
		Tree       struct{ Name string }
		Error      *struct{ Message string }
	}
	Connections []struct {
		Client, Server string
		Kind           string
		Outcome        string
	}
}

// compareWithWireshark checks the capture's conversation against tshark's and returns the
// server's port.
func compareWithWireshark(t *testing.T, ctx context.Context, path string) string {
	t.Helper()
	r := runCmd(t, "", nil, "decode", "--json", path)
	if r.code != 0 {
		t.Errorf("decode --json exited %d: %s", r.code, r.stderr)
	}
	var d decodedConversation
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
		t.Fatalf("decode --json: %v", err)
	}
	for i, m := range d.Messages {
		if m.Error != nil {
			t.Errorf("message %d (frame %d, %s): %s", i, m.Frame, m.Tree.Name, m.Error.Message)
		}
	}
	if len(d.Connections) == 0 {
		t.Fatal("no connections")
	}
	_, serverPort, _ := strings.Cut(d.Connections[0].Server, ":")
	out, err := exec.CommandContext(ctx, tsharkPath, "-r", path, "-d", "tcp.port=="+serverPort+",pgsql",
		"-T", "fields", "-e", "frame.number", "-e", "tcp.srcport", "-e", "tcp.dstport", "-e", "pgsql.type").Output()
	if err != nil {
		t.Fatalf("tshark: %v", err)
	}
	type seen struct {
		frame int
		name  string
	}
	// Wireshark's messages by the client's port, in order.
	wire := map[string][]seen{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 4 || f[3] == "" {
			continue
		}
		frame, _ := strconv.Atoi(f[0])
		client := f[1]
		if client == serverPort {
			client = f[2]
		}
		for _, name := range strings.Split(f[3], ",") {
			wire[client] = append(wire[client], seen{frame, name})
		}
	}
	total, exact := 0, 0
	for c, conn := range d.Connections {
		_, port, _ := strings.Cut(conn.Client, ":")
		var ours []seen
		for _, m := range d.Messages {
			if m.Connection == c+1 && m.Tree.Name != "SSLResponse" && m.Tree.Name != "GSSENCResponse" {
				ours = append(ours, seen{m.Frame, m.Tree.Name})
			}
		}
		theirs := wire[port]
		if len(ours) != len(theirs) {
			t.Errorf("connection %d (%s): the inspector finds %d messages, Wireshark %d", c+1, conn.Client, len(ours), len(theirs))
		}
		for k := 0; k < min(len(ours), len(theirs)); k++ {
			o, w := ours[k], theirs[k]
			want := wiresharkName[o.name]
			if w.name != want && !(w.name == "Unknown" && unknownToWireshark[o.name]) {
				t.Errorf("connection %d, message %d: the inspector's %s (frame %d) is Wireshark's %s (frame %d)", c+1, k, o.name, o.frame, w.name, w.frame)
				break
			}
			if o.frame > w.frame {
				t.Errorf("connection %d, message %d (%s): starts in frame %d, Wireshark shows it in frame %d", c+1, k, o.name, o.frame, w.frame)
				break
			}
			total++
			if o.frame == w.frame {
				exact++
			}
		}
	}
	t.Logf("%d messages as Wireshark finds them, %d of them in the same frame (the others span TCP segments); %d connections", total, exact, len(d.Connections))
	return serverPort
}

// checkNoSecrets decodes the capture in every output format and looks in each for the
// scenarios' passwords and for the SCRAM proofs and MD5 hashes the client sent, taken from the
// capture with tshark.
func checkNoSecrets(t *testing.T, ctx context.Context, path, serverPort string) {
	t.Helper()
	secrets := append([]string(nil), wirecapture.Passwords...)
	out, err := exec.CommandContext(ctx, tsharkPath, "-r", path, "-d", "tcp.port=="+serverPort+",pgsql", "-Y", "pgsql.frontend == 1", "-T", "fields",
		"-e", "pgsql.auth.sasl.data", "-e", "pgsql.password").Output()
	if err != nil {
		t.Fatalf("tshark: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		for _, f := range strings.Split(line, "\t") {
			f = strings.TrimSpace(f)
			if f == "" {
				continue
			}
			if b, err := hex.DecodeString(strings.ReplaceAll(f, ":", "")); err == nil {
				f = string(b)
			}
			// SCRAM's client-final-message: c=biws,r=NONCE,p=PROOF. The nonce is no secret
			// (the server's challenge repeats it); the proof is.
			for _, part := range strings.Split(f, ",") {
				if k, v, ok := strings.Cut(part, "="); ok && k == "p" && len(v) >= 16 {
					secrets = append(secrets, v)
				}
			}
			if strings.HasPrefix(f, "md5") || strings.Contains(f, "-"+wirecapture.Password) {
				secrets = append(secrets, f)
			}
		}
	}
	if len(secrets) == len(wirecapture.Passwords) {
		t.Fatalf("no client secret found in %s with tshark: %q", path, out)
	}
	for _, args := range [][]string{{}, {"--full"}, {"--json"}, {"--json-lines"}, {"--markdown"}, {"--explain", "--full"}} {
		r := runCmd(t, "", nil, append(append([]string{"decode"}, args...), path)...)
		for _, s := range secrets {
			if strings.Contains(r.stdout, s) || strings.Contains(r.stdout, hex.EncodeToString([]byte(s))) {
				t.Errorf("decode %v shows the secret %q", args, s)
			}
		}
	}
}

// keepCapture copies a capture a test failed on out of the test's temporary directory, and
// says where.
func keepCapture(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Logf("could not keep the capture: %v", err)
		return
	}
	dst := filepath.Join(os.TempDir(), "pgoutput-inspector-failed-"+strings.ReplaceAll(t.Name(), "/", "-")+filepath.Ext(path))
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Logf("could not keep the capture: %v", err)
		return
	}
	t.Logf("the capture is kept at %s", dst)
}
