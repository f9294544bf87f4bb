//go:build !js

// Package wirecapture records real replication connections with dumpcap on the loopback
// interface, for the tests and testdata of the inspector's conversation decoding: a
// pg_recvlogical session, a PostgreSQL subscriber (table synchronization and apply), the
// project's own capture, and connections that fail (a missing slot, a protocol version the
// server does not have, a missing publication, a wrong password with SCRAM). Every capture
// holds the whole conversation, from the TCP handshake to the close.
//
//	err := wirecapture.Record(ctx, "out.pcapng", []int{srv.Port}, func() error {
//		return wirecapture.RecvLogical(ctx, srv, wirecapture.RecvOptions{Options: []string{"proto_version=1"}})
//	})
//
// Recording needs dumpcap (Debian's tshark package) and the right to capture: root, or the
// wireshark group's capabilities. Check says which is missing.
package wirecapture

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/pgserver"
)

// Dumpcap is where Debian's tshark package (through wireshark-common) installs dumpcap.
const Dumpcap = "/usr/bin/dumpcap"

// RecvLogicalPath is the pg_recvlogical of Debian's postgresql-15 package, the client of the
// pg_recvlogical captures (it speaks to servers of every version).
const RecvLogicalPath = "/usr/lib/postgresql/15/bin/pg_recvlogical"

// Check says why recording cannot work here, or returns nil.
func Check() error {
	if _, err := os.Stat(Dumpcap); err != nil {
		return fmt.Errorf("dumpcap is not installed (%s: %v); install it with: apt-get install -y tshark", Dumpcap, err)
	}
	if os.Geteuid() != 0 {
		return fmt.Errorf("recording on the loopback interface needs root (or dumpcap's capabilities); run as root")
	}
	return nil
}

// Record captures the loopback traffic to and from the TCP ports into path (pcapng) while fn
// runs, from before fn's first packet to after its last.
//
// dumpcap says "Capturing on" before packets reach it for a while (on a busy machine, long
// enough to miss a connection's start): fn starts only once the capture holds a probe sent
// after it said so, a connection attempt to a closed port (a SYN and its RST, frames with no
// payload, which readers of the conversation skip). dumpcap writes to a pipe, which it
// flushes as packets come (a file only when its buffer fills), so the probe is seen within a
// fraction of a second of dumpcap having it.
func Record(ctx context.Context, path string, ports []int, fn func() error) error {
	if err := Check(); err != nil {
		return err
	}
	probe, err := closedPort()
	if err != nil {
		return err
	}
	filter := []string{"tcp port " + strconv.Itoa(probe)}
	for _, p := range ports {
		filter = append(filter, "tcp port "+strconv.Itoa(p))
	}
	out, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer out.Close()
	cmd := exec.CommandContext(ctx, Dumpcap, "-i", "lo", "-f", strings.Join(filter, " or "), "-w", "-")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("wirecapture: starting dumpcap: %w", err)
	}
	live := make(chan struct{}) // closed at the first packet
	copied := make(chan error, 1)
	go func() {
		// input.Cutter reads the pcapng's blocks as they come: a part begins at the first
		// packet block.
		blocks := input.Cutter{MaxBytes: 1 << 62, MaxItems: 1 << 30}
		seen := false
		buf := make([]byte, 64<<10)
		for {
			k, rerr := stdout.Read(buf)
			if k > 0 {
				if _, werr := out.Write(buf[:k]); werr != nil {
					copied <- werr
					return
				}
				if !seen {
					blocks.Write(buf[:k])
					if len(blocks.SoFar().Parts) > 0 {
						seen = true
						close(live)
					}
				}
			}
			if rerr != nil {
				copied <- nil
				return
			}
		}
	}()
	stop := func() error {
		// The last packets (a FIN, its ACK) reach the capture a moment after the close.
		time.Sleep(300 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGINT)
		cerr := <-copied
		werr := cmd.Wait()
		if cerr != nil {
			return fmt.Errorf("wirecapture: writing %s: %w", path, cerr)
		}
		return werr
	}
	// dumpcap says "Capturing on 'Loopback: lo'" once it captures.
	lines := bufio.NewScanner(stderr)
	var said bytes.Buffer
	started := false
	for lines.Scan() {
		said.WriteString(lines.Text() + "\n")
		if strings.HasPrefix(lines.Text(), "Capturing on") {
			started = true
			break
		}
	}
	if !started {
		stop()
		return fmt.Errorf("wirecapture: dumpcap did not start capturing: %s", said.String())
	}
	go io.Copy(&said, stderr)
	if err := waitLive(ctx, probe, live); err != nil {
		stop()
		return fmt.Errorf("%w: %s", err, said.String())
	}
	fnErr := fn()
	waitErr := stop()
	if fnErr != nil {
		return fnErr
	}
	var exit *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exit) {
		return fmt.Errorf("wirecapture: dumpcap: %v: %s", waitErr, said.String())
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		return fmt.Errorf("wirecapture: dumpcap wrote nothing to %s: %s", path, said.String())
	}
	return os.Chmod(path, 0o644)
}

// closedPort returns a loopback TCP port nothing listens on.
func closedPort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// waitLive probes the closed port until dumpcap writes a packet (live is closed).
func waitLive(ctx context.Context, probe int, live <-chan struct{}) error {
	deadline := time.After(20 * time.Second)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		if c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(probe), time.Second); err == nil {
			c.Close()
		}
		select {
		case <-live:
			return nil
		case <-tick.C:
		case <-deadline:
			return errors.New("wirecapture: dumpcap captured no probe packet within 20 s")
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Exec runs SQL statements on the server, one after another, as the superuser, over the
// server's Unix-domain socket: the scenarios' own statements stay out of the captures.
func Exec(ctx context.Context, srv *pgserver.Server, sql ...string) error {
	conn, err := pgconn.Connect(ctx, srv.SocketConnString())
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	for _, q := range sql {
		if _, err := conn.Exec(ctx, q).ReadAll(); err != nil {
			return fmt.Errorf("wirecapture: %s: %w", q, err)
		}
	}
	return nil
}

// query returns the first column of the first row of a query.
func query(ctx context.Context, srv *pgserver.Server, sql string) (string, error) {
	conn, err := pgconn.Connect(ctx, srv.SocketConnString())
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	res, err := conn.Exec(ctx, sql).ReadAll()
	if err != nil {
		return "", err
	}
	if len(res) == 0 || len(res[0].Rows) == 0 {
		return "", nil
	}
	return string(res[0].Rows[0][0]), nil
}

// Table is the table the scenarios publish and change.
const Table = "acct"

// Setup creates the table and its publication.
func Setup(ctx context.Context, srv *pgserver.Server, publication string) error {
	return setup(ctx, srv, publication)
}

// WaitStreaming waits until a walsender of the given application_name has started streaming.
func WaitStreaming(ctx context.Context, srv *pgserver.Server, applicationName string) error {
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		v, err := query(ctx, srv, "SELECT count(*) > 0 FROM pg_stat_replication WHERE application_name = '"+applicationName+"' AND state IN ('catchup', 'streaming')")
		if err == nil && v == "t" {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("wirecapture: no %s streaming within 30s (%v)", applicationName, err)
		}
	}
}

// WaitConfirmed waits until every logical slot has confirmed the WAL written so far.
func WaitConfirmed(ctx context.Context, srv *pgserver.Server) error {
	lsn, err := query(ctx, srv, "SELECT pg_current_wal_insert_lsn()")
	if err != nil {
		return err
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		v, err := query(ctx, srv, "SELECT bool_and(confirmed_flush_lsn >= '"+lsn+"') FROM pg_replication_slots WHERE slot_type = 'logical'")
		if err == nil && v == "t" {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("wirecapture: the slots did not confirm %s within 30s (%v)", lsn, err)
		}
	}
}

// setup creates the table and its publication.
func setup(ctx context.Context, srv *pgserver.Server, publication string) error {
	return Exec(ctx, srv,
		"CREATE TABLE IF NOT EXISTS "+Table+" (id int PRIMARY KEY, name text, balance numeric)",
		"INSERT INTO "+Table+" SELECT g, 'name '||g, g * 1.5 FROM generate_series(1, 3) g ON CONFLICT DO NOTHING",
		"CREATE PUBLICATION "+publication+" FOR TABLE "+Table)
}

// Changes are the changes a scenario makes while a client streams: an insert, an update, a
// delete, and a transaction of 800 rows large enough to be streamed (the servers'
// logical_decoding_work_mem is 64kB) when the client asked for streaming.
var Changes = []string{
	"INSERT INTO " + Table + " VALUES (100, 'alice', 10.5)",
	"UPDATE " + Table + " SET balance = balance + 1 WHERE id = 100",
	"DELETE FROM " + Table + " WHERE id = 100",
	"INSERT INTO " + Table + " SELECT g, repeat('x', 40), g FROM generate_series(1000, 1799) g",
}

// RecvOptions are a pg_recvlogical session's settings.
type RecvOptions struct {
	// Slot names the slot ("recv" when empty); Create creates it (CREATE_REPLICATION_SLOT in
	// the capture) and Drop drops it at the end.
	Slot         string
	Create, Drop bool
	// Options are pgoutput's options, name=value (-o); publication_names=pub is added when
	// none names the publications.
	Options []string
	// Publication is the publication setup creates ("pub" when empty); NoSetup skips setup.
	Publication string
	NoSetup     bool
	// Changes are run while pg_recvlogical streams (nil: Changes).
	Changes []string
	// Env adds environment variables (PGPASSWORD) and User connects as another role.
	Env  []string
	User string
	// Args are more arguments of pg_recvlogical (nil: --status-interval 1 --fsync-interval 1).
	Args []string
	// ExpectFail: pg_recvlogical is expected to exit with an error (its output is returned
	// in the error of a success instead).
	ExpectFail bool
}

// RecvLogical runs pg_recvlogical against the server: it creates the slot when asked, starts
// streaming with the options, makes the changes, waits until they have arrived, and stops
// it with SIGINT, as a person pressing Ctrl-C.
func RecvLogical(ctx context.Context, srv *pgserver.Server, o RecvOptions) error {
	if o.Slot == "" {
		o.Slot = "recv"
	}
	if o.Publication == "" {
		o.Publication = "pub"
	}
	if o.Changes == nil {
		o.Changes = Changes
	}
	if !o.NoSetup {
		if err := setup(ctx, srv, o.Publication); err != nil {
			return err
		}
	}
	user := o.User
	if user == "" {
		user = pgserver.SuperUser
	}
	dir, err := os.MkdirTemp("", "wirecapture-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "stream.bin")
	args := []string{"-d", fmt.Sprintf("host=127.0.0.1 port=%d user=%s dbname=postgres sslmode=disable application_name=pg_recvlogical", srv.Port, user),
		"--slot", o.Slot, "-P", "pgoutput", "--start", "-f", out, "--no-loop"}
	if o.Create {
		args = append(args, "--create-slot")
	}
	hasPub := false
	for _, opt := range o.Options {
		args = append(args, "-o", opt)
		hasPub = hasPub || strings.HasPrefix(opt, "publication_names=")
	}
	if !hasPub {
		args = append(args, "-o", "publication_names="+o.Publication)
	}
	if o.Args == nil {
		// Status updates and fsyncs every second, not every 10: the changes are confirmed soon.
		o.Args = []string{"--status-interval", "1", "--fsync-interval", "1"}
	}
	args = append(args, o.Args...)
	cmd := exec.CommandContext(ctx, RecvLogicalPath, args...)
	cmd.Env = append(append(os.Environ(), "TZ=UTC", "LC_ALL=C"), o.Env...)
	var said bytes.Buffer
	cmd.Stdout, cmd.Stderr = &said, &said
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("wirecapture: starting pg_recvlogical: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// Streaming has started when the walsender has begun sending (the slot is active from
	// CREATE_REPLICATION_SLOT on: changes made then would come before its starting point).
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case err := <-exited:
			if o.ExpectFail {
				return nil
			}
			return fmt.Errorf("wirecapture: pg_recvlogical exited early (%v): %s", err, said.String())
		default:
		}
		active, err := query(ctx, srv, "SELECT count(*) > 0 FROM pg_stat_replication WHERE application_name = 'pg_recvlogical' AND state IN ('catchup', 'streaming')")
		if err == nil && active == "t" {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			return fmt.Errorf("wirecapture: pg_recvlogical did not start streaming within 30s: %s", said.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := Exec(ctx, srv, o.Changes...); err != nil {
		cmd.Process.Kill()
		return err
	}
	// The changes have arrived when the slot's confirmed position reaches the WAL written.
	lsn, err := query(ctx, srv, "SELECT pg_current_wal_insert_lsn()")
	if err != nil {
		cmd.Process.Kill()
		return err
	}
	for deadline = time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		select {
		case err := <-exited:
			if o.ExpectFail {
				return nil
			}
			return fmt.Errorf("wirecapture: pg_recvlogical exited (%v): %s", err, said.String())
		default:
		}
		done, err := query(ctx, srv, "SELECT confirmed_flush_lsn >= '"+lsn+"' FROM pg_replication_slots WHERE slot_name = '"+o.Slot+"'")
		if err == nil && done == "t" {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-exited
		return fmt.Errorf("wirecapture: pg_recvlogical did not stop on SIGINT: %s", said.String())
	}
	if o.ExpectFail {
		return fmt.Errorf("wirecapture: pg_recvlogical was expected to fail, and streamed: %s", said.String())
	}
	if o.Drop {
		for deadline = time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			err := Exec(ctx, srv, "SELECT pg_drop_replication_slot('"+o.Slot+"')")
			if err == nil || time.Now().After(deadline) {
				return err
			}
		}
	}
	return nil
}

// Subscribe makes sub a PostgreSQL subscriber of pub's table: it creates the table on both,
// the publication on pub and a subscription with the given WITH options on sub, waits until
// the table is synchronized, makes the changes on pub, waits until sub has them, and drops the
// subscription. The capture of pub's port holds the subscription's connections: the apply
// worker's replication stream and a table synchronization worker's COPY.
func Subscribe(ctx context.Context, pub, sub *pgserver.Server, with string) error {
	return subscribe(ctx, pub, sub, with, func() error { return Exec(ctx, pub, Changes...) }, false)
}

// SubscribeStopped is Subscribe with the subscriber's apply worker stopped (SIGSTOP) for the
// duration stop while the publisher commits the changes, then continued: the capture shows
// the commits sent, no status update while it is stopped, and the acknowledgements after. The
// subscriber reports every second (wal_receiver_status_interval 1s).
func SubscribeStopped(ctx context.Context, pub, sub *pgserver.Server, stop time.Duration) error {
	if err := Exec(ctx, sub, "ALTER SYSTEM SET wal_receiver_status_interval = '1s'", "SELECT pg_reload_conf()"); err != nil {
		return err
	}
	return subscribe(ctx, pub, sub, "", func() error {
		pid, err := query(ctx, sub, "SELECT pid FROM pg_stat_subscription WHERE subname = 'sub' AND relid IS NULL AND pid IS NOT NULL")
		if err != nil {
			return err
		}
		n, ok := atoi(pid)
		if !ok {
			return fmt.Errorf("wirecapture: no apply worker on the subscriber (pid %q)", pid)
		}
		if err := syscall.Kill(n, syscall.SIGSTOP); err != nil {
			return fmt.Errorf("wirecapture: stopping the apply worker: %w", err)
		}
		stopped := time.Now()
		defer syscall.Kill(n, syscall.SIGCONT)
		if err := Exec(ctx, pub, Changes...); err != nil {
			return err
		}
		time.Sleep(time.Until(stopped.Add(stop)))
		return syscall.Kill(n, syscall.SIGCONT)
	}, true)
}

// subscribe runs a subscription of pub on sub; change makes the changes once the table is
// synchronized. confirm: the subscription is dropped only once the publisher's slot has
// confirmed the changes flushed (the capture holds the acknowledgements).
func subscribe(ctx context.Context, pub, sub *pgserver.Server, with string, change func() error, confirm bool) error {
	if err := setup(ctx, pub, "pub"); err != nil {
		return err
	}
	if err := Exec(ctx, sub, "CREATE TABLE IF NOT EXISTS "+Table+" (id int PRIMARY KEY, name text, balance numeric)"); err != nil {
		return err
	}
	create := fmt.Sprintf("CREATE SUBSCRIPTION sub CONNECTION 'host=127.0.0.1 port=%d user=%s dbname=postgres sslmode=disable' PUBLICATION pub", pub.Port, pgserver.SuperUser)
	if with != "" {
		create += " WITH (" + with + ")"
	}
	if err := Exec(ctx, sub, create); err != nil {
		return err
	}
	wait := func(what, sql string) error {
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			v, err := query(ctx, sub, sql)
			if err == nil && v == "t" {
				return nil
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("wirecapture: the subscriber did not %s within 60s (%v)", what, err)
			}
		}
	}
	if err := wait("synchronize the table", "SELECT bool_and(srsubstate = 'r') FROM pg_subscription_rel"); err != nil {
		return err
	}
	if err := change(); err != nil {
		return err
	}
	if err := wait("apply the changes", "SELECT count(*) = 803 FROM "+Table); err != nil {
		return err
	}
	if confirm {
		if err := WaitConfirmed(ctx, pub); err != nil {
			return err
		}
	}
	return Exec(ctx, sub, "DROP SUBSCRIPTION sub")
}

// Password is the password of the role the SCRAM scenarios log in as.
const Password = "correct-horse-battery"

// ScramUser is that role.
const ScramUser = "alice"

// RequireScram creates ScramUser with Password (replication allowed) and makes the server ask
// it for SCRAM authentication.
func RequireScram(ctx context.Context, srv *pgserver.Server) error {
	if err := Exec(ctx, srv, "SET password_encryption = 'scram-sha-256'",
		"CREATE ROLE "+ScramUser+" LOGIN REPLICATION PASSWORD '"+Password+"'",
		"GRANT SELECT ON ALL TABLES IN SCHEMA public TO "+ScramUser); err != nil {
		return err
	}
	if err := srv.RequireAuth(ctx, "host all "+ScramUser+" 127.0.0.1/32 scram-sha-256",
		"host replication "+ScramUser+" 127.0.0.1/32 scram-sha-256"); err != nil {
		return err
	}
	time.Sleep(300 * time.Millisecond) // the postmaster rereads pg_hba.conf on its SIGHUP
	return nil
}

// Ordinary runs ordinary client connections against the server, for the messages a replication
// connection seldom shows: the extended query protocol (Parse, Bind, Describe, Execute, Close,
// Sync, Flush and their answers, PortalSuspended), LISTEN and NOTIFY, a notice, an empty
// query, COPY FROM STDIN (CopyInResponse, CopyData, CopyDone; CopyFail), a FunctionCall, MD5 and
// clear-text password authentication, the encryption requests a server without SSL or GSSAPI
// refuses, protocol 3.2's StartupMessage with an option the server does not know
// (NegotiateProtocolVersion; a BackendKeyData with a long key on PostgreSQL 18), and a
// CancelRequest. Most come from pgconn; the rest from a client written here, which sends
// them byte by byte.
func Ordinary(ctx context.Context, srv *pgserver.Server) error {
	if err := setup(ctx, srv, "pub"); err != nil {
		return err
	}
	if err := Exec(ctx, srv,
		"SET password_encryption = 'md5'", "CREATE ROLE bob LOGIN PASSWORD 'bob-"+Password+"'",
		"RESET password_encryption", "CREATE ROLE carol LOGIN PASSWORD 'carol-"+Password+"'",
		"GRANT ALL ON "+Table+" TO bob, carol"); err != nil {
		return err
	}
	if err := srv.RequireAuth(ctx, "host all bob 127.0.0.1/32 md5", "host all carol 127.0.0.1/32 password"); err != nil {
		return err
	}
	time.Sleep(300 * time.Millisecond)
	bob, err := pgconn.Connect(ctx, fmt.Sprintf("host=127.0.0.1 port=%d user=bob password=bob-%s dbname=postgres sslmode=disable", srv.Port, Password))
	if err != nil {
		return err
	}
	steps := []func() error{
		func() error {
			_, err := bob.ExecParams(ctx, "SELECT $1::int + 1", [][]byte{[]byte("41")}, nil, []int16{0}, []int16{1}).Close()
			return err
		},
		func() error {
			_, err := bob.Prepare(ctx, "by_id", "SELECT name FROM "+Table+" WHERE id = $1", []uint32{23})
			return err
		},
		func() error {
			_, err := bob.Prepare(ctx, "bump", "UPDATE "+Table+" SET balance = balance + 1 WHERE id = $1", nil)
			return err
		},
		func() error { return bob.ExecPrepared(ctx, "by_id", [][]byte{[]byte("1")}, nil, nil).Read().Err },
		func() error { return bob.Deallocate(ctx, "by_id") },
		func() error { _, err := bob.Exec(ctx, "").ReadAll(); return err },
		func() error { _, err := bob.Exec(ctx, "LISTEN ch; NOTIFY ch, 'hello'").ReadAll(); return err },
		func() error {
			_, err := bob.Exec(ctx, "DO $$BEGIN RAISE NOTICE 'a notice from a DO block'; END$$").ReadAll()
			return err
		},
		func() error {
			_, err := bob.CopyFrom(ctx, strings.NewReader("7\tseven\t7.5\n8\t\\N\t8\n"), "COPY "+Table+" FROM STDIN")
			return err
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			bob.Close(ctx)
			return err
		}
	}
	bob.Close(ctx)
	carol, err := pgconn.Connect(ctx, fmt.Sprintf("host=127.0.0.1 port=%d user=carol password=carol-%s dbname=postgres sslmode=disable", srv.Port, Password))
	if err != nil {
		return err
	}
	carol.Close(ctx)
	return rawClient(ctx, srv)
}

// rawClient sends, byte by byte, what pgconn does not: the encryption requests, protocol 3.2's
// StartupMessage with an unknown protocol option, a FunctionCall, an Execute with a row limit,
// Close, Flush, a CopyFail, and a CancelRequest on a second connection.
func rawClient(ctx context.Context, srv *pgserver.Server) error {
	d := net.Dialer{Timeout: 10 * time.Second}
	c, err := d.DialContext(ctx, "tcp", fmt.Sprintf("127.0.0.1:%d", srv.Port))
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	r := bufio.NewReader(c)
	one := func(code uint32) error {
		if _, err := c.Write(be32(be32(nil, 8), code)); err != nil {
			return err
		}
		b, err := r.ReadByte()
		if err != nil || b != 'N' {
			return fmt.Errorf("wirecapture: the server answered %q (%v) to request %d, want N", b, err, code)
		}
		return nil
	}
	if err := one(80877104); err != nil { // GSSENCRequest
		return err
	}
	if err := one(80877103); err != nil { // SSLRequest
		return err
	}
	var body []byte
	for _, kv := range []string{"user", pgserver.SuperUser, "database", "postgres", "application_name", "raw", "_pq_.inspector_test", "on"} {
		body = append(append(body, kv...), 0)
	}
	body = append(body, 0)
	start := be32(be32(nil, uint32(8+len(body))), 3<<16|2)
	if _, err := c.Write(append(start, body...)); err != nil {
		return err
	}
	msgs, err := readUntil(r, 'Z')
	if err != nil {
		return err
	}
	var pid, key []byte
	for _, m := range msgs {
		if m[0] == 'K' {
			pid, key = m[5:9], m[9:]
		}
	}
	if pid == nil {
		return fmt.Errorf("wirecapture: no BackendKeyData")
	}
	send := func(typ byte, body []byte) error {
		_, err := c.Write(append(be32([]byte{typ}, uint32(4+len(body))), body...))
		return err
	}
	// FunctionCall of abs(integer) with the argument -7 in text, its result in binary.
	oid, err := query(ctx, srv, "SELECT 'int4abs'::regproc::oid")
	if err != nil {
		return err
	}
	n, _ := strconv.Atoi(oid)
	call := be32(nil, uint32(n))
	call = append(call, 0, 1, 0, 0, 0, 1)
	call = append(be32(call, 2), "-7"...)
	call = append(call, 0, 1)
	if err := send('F', call); err != nil {
		return err
	}
	if _, err := readUntil(r, 'Z'); err != nil {
		return err
	}
	// A portal run one row at a time: Parse, Bind, Execute with a limit of 1 (PortalSuspended),
	// Flush, then Close and Sync.
	q := []byte("\x00SELECT id FROM " + Table + " ORDER BY id\x00\x00\x00")
	steps := []struct {
		typ  byte
		body []byte
	}{
		{'P', q},
		{'B', []byte("p1\x00\x00\x00\x00\x00\x00\x00\x00")},
		{'D', []byte("Pp1\x00")},
		{'E', append([]byte("p1\x00"), 0, 0, 0, 1)},
		{'H', nil},
	}
	for _, st := range steps {
		if err := send(st.typ, st.body); err != nil {
			return err
		}
	}
	if _, err := readUntil(r, 's'); err != nil {
		return err
	}
	if err := send('C', []byte("Pp1\x00")); err != nil {
		return err
	}
	if err := send('S', nil); err != nil {
		return err
	}
	if _, err := readUntil(r, 'Z'); err != nil {
		return err
	}
	// COPY FROM STDIN given up with CopyFail.
	if err := send('Q', []byte("COPY "+Table+" FROM STDIN\x00")); err != nil {
		return err
	}
	if _, err := readUntil(r, 'G'); err != nil {
		return err
	}
	if err := send('f', []byte("the client gave up\x00")); err != nil {
		return err
	}
	if _, err := readUntil(r, 'Z'); err != nil {
		return err
	}
	// A CancelRequest for this backend on a connection of its own: nothing runs, so nothing
	// is cancelled; the server closes that connection.
	cc, err := d.DialContext(ctx, "tcp", fmt.Sprintf("127.0.0.1:%d", srv.Port))
	if err != nil {
		return err
	}
	cancel := be32(be32(nil, uint32(12+len(key))), 80877102)
	cancel = append(append(cancel, pid...), key...)
	if _, err := cc.Write(cancel); err != nil {
		cc.Close()
		return err
	}
	cc.SetReadDeadline(time.Now().Add(10 * time.Second))
	io.Copy(io.Discard, cc) // until the server closes it
	cc.Close()
	return send('X', nil)
}

// readUntil reads typed messages until one of type last, and returns them.
func readUntil(r *bufio.Reader, last byte) ([][]byte, error) {
	var msgs [][]byte
	for {
		head := make([]byte, 5)
		if _, err := io.ReadFull(r, head); err != nil {
			return msgs, fmt.Errorf("wirecapture: reading a message: %w", err)
		}
		n := int(head[1])<<24 | int(head[2])<<16 | int(head[3])<<8 | int(head[4])
		m := make([]byte, 1+n)
		copy(m, head)
		if _, err := io.ReadFull(r, m[5:]); err != nil {
			return msgs, err
		}
		msgs = append(msgs, m)
		if m[0] == last {
			return msgs, nil
		}
		if m[0] == 'E' && last != 'Z' {
			return msgs, fmt.Errorf("wirecapture: the server answered with an error: %q", m)
		}
	}
}

func be32(b []byte, v uint32) []byte { return append(b, byte(v>>24), byte(v>>16), byte(v>>8), byte(v)) }

// ReceiveWAL runs pg_receivewal with a physical slot it creates: CREATE_REPLICATION_SLOT …
// PHYSICAL, READ_REPLICATION_SLOT, START_REPLICATION SLOT … PHYSICAL with a TIMELINE, and the
// WAL streamed while a change is made, until SIGINT.
func ReceiveWAL(ctx context.Context, srv *pgserver.Server) error {
	dir, err := os.MkdirTemp("", "wirecapture-wal-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	conn := fmt.Sprintf("host=127.0.0.1 port=%d user=%s sslmode=disable", srv.Port, pgserver.SuperUser)
	bin := filepath.Join(filepath.Dir(RecvLogicalPath), "pg_receivewal")
	create := exec.CommandContext(ctx, bin, "-d", conn, "--slot", "phys", "--create-slot")
	if out, err := create.CombinedOutput(); err != nil {
		return fmt.Errorf("wirecapture: pg_receivewal --create-slot: %v: %s", err, out)
	}
	// A new segment, so that streaming starts near its beginning instead of sending the
	// megabytes of WAL initdb wrote.
	if err := Exec(ctx, srv, "CREATE TABLE before_switch ()", "SELECT pg_switch_wal()"); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, bin, "-d", conn, "--slot", "phys", "-D", dir, "--no-loop")
	var said bytes.Buffer
	cmd.Stdout, cmd.Stderr = &said, &said
	if err := cmd.Start(); err != nil {
		return err
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		active, err := query(ctx, srv, "SELECT count(*) > 0 FROM pg_stat_replication WHERE application_name = 'pg_receivewal' AND state = 'streaming'")
		if err == nil && active == "t" {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			return fmt.Errorf("wirecapture: pg_receivewal did not stream within 30s: %s", said.String())
		}
	}
	if err := setup(ctx, srv, "pub"); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return err
	}
	time.Sleep(500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	return Exec(ctx, srv, "SELECT pg_drop_replication_slot('phys')")
}

// tcpState returns the kernel's state of the TCP connection from 127.0.0.1:from to
// 127.0.0.1:to as /proc/net/tcp gives it ("01" established, "08" its peer has closed it), or
// "" when there is none.
func tcpState(from, to int) (string, error) {
	table, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		return "", fmt.Errorf("wirecapture: %w", err)
	}
	key := fmt.Sprintf(" 0100007F:%04X 0100007F:%04X ", from, to)
	for _, line := range strings.Split(string(table), "\n") {
		if _, rest, ok := strings.Cut(line, ":"); ok && strings.HasPrefix(rest, key) {
			return strings.Fields(rest)[2], nil
		}
	}
	return "", nil
}

// waitPeerClosed waits until the established TCP connection from 127.0.0.1:from to
// 127.0.0.1:to is closed by its peer (FIN: CLOSE_WAIT) or reset (gone).
func waitPeerClosed(ctx context.Context, from, to int, within time.Duration) error {
	for deadline := time.Now().Add(within); ; time.Sleep(20 * time.Millisecond) {
		state, err := tcpState(from, to)
		if err != nil || state != "01" {
			return err
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("wirecapture: the connection from port %d to %d still established after %s", from, to, within)
		}
	}
}

// atoi reads a decimal number.
func atoi(s string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	return n, err == nil && n > 0
}

// RecvLogicalUnanswered runs pg_recvlogical (status updates every second) against a server
// whose wal_sender_timeout is timeout, makes a change, and once it is confirmed stops
// pg_recvlogical (SIGSTOP): the server asks for a reply with a keepalive and, getting none,
// ends the connection at the timeout. Then pg_recvlogical is killed and the slot dropped.
func RecvLogicalUnanswered(ctx context.Context, srv *pgserver.Server, timeout time.Duration) error {
	if err := setup(ctx, srv, "pub"); err != nil {
		return err
	}
	ms := strconv.FormatInt(timeout.Milliseconds(), 10)
	if err := Exec(ctx, srv, "ALTER SYSTEM SET wal_sender_timeout = "+ms, "SELECT pg_reload_conf()"); err != nil {
		return err
	}
	args := []string{"-d", fmt.Sprintf("host=127.0.0.1 port=%d user=%s dbname=postgres sslmode=disable application_name=pg_recvlogical", srv.Port, pgserver.SuperUser),
		"--slot", "recv", "-P", "pgoutput", "--create-slot", "--start", "-f", os.DevNull, "--no-loop",
		"-o", "proto_version=1", "-o", "publication_names=pub", "--status-interval", "1", "--fsync-interval", "1"}
	cmd := exec.CommandContext(ctx, RecvLogicalPath, args...)
	cmd.Env = append(os.Environ(), "TZ=UTC", "LC_ALL=C")
	var said bytes.Buffer
	cmd.Stdout, cmd.Stderr = &said, &said
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("wirecapture: starting pg_recvlogical: %w", err)
	}
	defer func() {
		// SIGKILL ends a stopped process; continuing it first would let it send a status
		// update, late, into the capture.
		cmd.Process.Kill()
		cmd.Wait()
	}()
	if err := WaitStreaming(ctx, srv, "pg_recvlogical"); err != nil {
		return fmt.Errorf("%w: %s", err, said.String())
	}
	v, err := query(ctx, srv, "SELECT client_port FROM pg_stat_replication WHERE application_name = 'pg_recvlogical'")
	clientPort, ok := atoi(v)
	if err != nil || !ok {
		return fmt.Errorf("wirecapture: pg_recvlogical's client_port: %q, %v", v, err)
	}
	if state, err := tcpState(clientPort, srv.Port); state != "01" || err != nil {
		return fmt.Errorf("wirecapture: pg_recvlogical's connection from port %d to %d: state %q in /proc/net/tcp, not established (%v)", clientPort, srv.Port, state, err)
	}
	if err := Exec(ctx, srv, Changes[0]); err != nil {
		return err
	}
	if err := WaitConfirmed(ctx, srv); err != nil {
		return err
	}
	if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		return err
	}
	for deadline := time.Now().Add(3*timeout + 10*time.Second); ; time.Sleep(50 * time.Millisecond) {
		v, err := query(ctx, srv, "SELECT count(*) FROM pg_stat_replication WHERE application_name = 'pg_recvlogical'")
		if err == nil && v == "0" {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("wirecapture: the server did not end the silent pg_recvlogical's connection (wal_sender_timeout %s)", timeout)
		}
	}
	// The walsender leaves pg_stat_replication before its process exits and its socket is
	// closed: killing pg_recvlogical now could close the connection from its side first.
	if err := waitPeerClosed(ctx, clientPort, srv.Port, 10*time.Second); err != nil {
		return err
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		err := Exec(ctx, srv, "SELECT pg_drop_replication_slot('recv')")
		if err == nil || time.Now().After(deadline) {
			return err
		}
	}
}
