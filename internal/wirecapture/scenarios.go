//go:build !js

package wirecapture

import (
	"context"
	"path/filepath"
	"strconv"
	"time"

	"pgoutput-inspector/internal/pgserver"
)

// Scenario is one recording: its name (the capture's file name without .pcapng), what it
// shows, the servers it needs (pgserver versions; the first is the one captured) and what
// runs against them.
type Scenario struct {
	Name, Made string
	Versions   []string
	// Scram: the first server asks ScramUser for SCRAM authentication (RequireScram).
	Scram bool
	Run   func(ctx context.Context, srv []*pgserver.Server) error
}

func recv(o RecvOptions) func(context.Context, []*pgserver.Server) error {
	return func(ctx context.Context, srv []*pgserver.Server) error { return RecvLogical(ctx, srv[0], o) }
}

// Scenarios are the recordings of testdata/conversation (scripts/wirecaptures) and of the
// tests that compare the inspector with Wireshark's dissector.
var Scenarios = []Scenario{
	{"recvlogical-pg14", "pg_recvlogical 15 --create-slot --start -o proto_version=1 against PostgreSQL 14; Ctrl-C after the changes",
		[]string{"14"}, false, recv(RecvOptions{Create: true, Drop: true, Options: []string{"proto_version=1"}})},
	{"recvlogical-pg15-streaming", "pg_recvlogical 15 --create-slot --start -o proto_version=2 -o streaming=on -o binary=true -o messages=true against PostgreSQL 15",
		[]string{"15"}, false, recv(RecvOptions{Create: true, Drop: true, Options: []string{"proto_version=2", "streaming=on", "binary=true", "messages=true"}})},
	{"recvlogical-pg16-two-phase", "pg_recvlogical 15 --create-slot --start -o proto_version=3 -o two_phase=on against PostgreSQL 16",
		[]string{"16"}, false, recv(RecvOptions{Create: true, Drop: true, Options: []string{"proto_version=3", "two_phase=on"}})},
	{"recvlogical-pg17-parallel", "pg_recvlogical 15 --create-slot --start -o proto_version=4 -o streaming=parallel against PostgreSQL 17",
		[]string{"17"}, false, recv(RecvOptions{Create: true, Drop: true, Options: []string{"proto_version=4", "streaming=parallel"}})},
	{"recvlogical-pg18-binary", "pg_recvlogical 15 --create-slot --start -o proto_version=4 -o streaming=on -o binary=true -o origin=any against PostgreSQL 18",
		[]string{"18"}, false, recv(RecvOptions{Create: true, Drop: true, Options: []string{"proto_version=4", "streaming=on", "binary=true", "origin=any"}})},
	{"subscriber-pg17-pg18", "a PostgreSQL 18 subscriber of a PostgreSQL 17 publisher, CREATE SUBSCRIPTION … WITH (streaming = on, binary = true): table synchronization (COPY, binary) and apply; the publisher's port",
		[]string{"17", "18"}, false, func(ctx context.Context, srv []*pgserver.Server) error {
			return Subscribe(ctx, srv[0], srv[1], "streaming = on, binary = true")
		}},
	{"subscriber-pg14-pg16", "a PostgreSQL 16 subscriber of a PostgreSQL 14 publisher, CREATE SUBSCRIPTION with its defaults: table synchronization (COPY, text) and apply; the publisher's port",
		[]string{"14", "16"}, false, func(ctx context.Context, srv []*pgserver.Server) error {
			return Subscribe(ctx, srv[0], srv[1], "")
		}},
	{"fail-missing-slot-pg16", "pg_recvlogical 15 --start --slot nosuch against PostgreSQL 16: the slot does not exist",
		[]string{"16"}, false, recv(RecvOptions{Slot: "nosuch", Options: []string{"proto_version=1"}, ExpectFail: true})},
	{"fail-proto-pg17", "pg_recvlogical 15 --create-slot --start -o proto_version=9 against PostgreSQL 17: a protocol version the server does not have",
		[]string{"17"}, false, recv(RecvOptions{Create: true, Options: []string{"proto_version=9"}, ExpectFail: true})},
	{"fail-missing-publication-pg15", "pg_recvlogical 15 --create-slot --start -o publication_names=nosuch against PostgreSQL 15, then a change: the publication does not exist",
		[]string{"15"}, false, recv(RecvOptions{Create: true, Options: []string{"proto_version=1", "publication_names=nosuch"}, ExpectFail: true})},
	{"fail-scram-password-pg18", "pg_recvlogical 15 as a role that authenticates with SCRAM-SHA-256, with a wrong password, against PostgreSQL 18",
		[]string{"18"}, true, recv(RecvOptions{User: ScramUser, Env: []string{"PGPASSWORD=" + WrongPassword},
			Create: true, Options: []string{"proto_version=1"}, ExpectFail: true})},
	{"ordinary-pg18", "ordinary connections to PostgreSQL 18: pgconn with MD5 and clear-text passwords (the extended query protocol, LISTEN/NOTIFY, a notice, an empty query, COPY FROM STDIN), then a client sending GSSENCRequest, SSLRequest, protocol 3.2's StartupMessage with an unknown _pq_ option, a FunctionCall, an Execute with a row limit, Close, Flush, a CopyFail and a CancelRequest",
		[]string{"18"}, false, func(ctx context.Context, srv []*pgserver.Server) error { return Ordinary(ctx, srv[0]) }},
	{"physical-pg15", "pg_receivewal 15 against PostgreSQL 15: --create-slot (a physical slot), then streaming WAL (READ_REPLICATION_SLOT, START_REPLICATION … TIMELINE) while a table is made, until Ctrl-C",
		[]string{"15"}, false, func(ctx context.Context, srv []*pgserver.Server) error { return ReceiveWAL(ctx, srv[0]) }},
	{"scram-pg18", "pg_recvlogical 15 as a role that authenticates with SCRAM-SHA-256, with its password, against PostgreSQL 18",
		[]string{"18"}, true, recv(RecvOptions{User: ScramUser, Env: []string{"PGPASSWORD=" + Password},
			Create: true, Drop: true, Options: []string{"proto_version=4"}})},
}

// ConsumerScenarios are the recordings of testdata/consumer (scripts/wirecaptures) and of the
// tests of the consumer check: consumers that fall behind or stop answering.
var ConsumerScenarios = []Scenario{
	{"subscriber-stopped-pg15", "a PostgreSQL 15 subscriber of a PostgreSQL 15 publisher (wal_receiver_status_interval 1s) whose apply worker is stopped with SIGSTOP for 5 s while the publisher commits 4 transactions, then continued; the publisher's port",
		[]string{"15", "15"}, false, func(ctx context.Context, srv []*pgserver.Server) error {
			return SubscribeStopped(ctx, srv[0], srv[1], StoppedFor)
		}},
	{"recvlogical-unanswered-pg16", "pg_recvlogical 15 --status-interval 1 against PostgreSQL 16 with wal_sender_timeout 2s, stopped with SIGSTOP after its first change: the server asks for a reply and ends the connection",
		[]string{"16"}, false, func(ctx context.Context, srv []*pgserver.Server) error {
			return RecvLogicalUnanswered(ctx, srv[0], 2*time.Second)
		}},
	{"recvlogical-fsync-pg16", "pg_recvlogical 15 --status-interval 1 --fsync-interval 4 against PostgreSQL 16, six one-row transactions a second apart: its flush reports follow its fsyncs",
		[]string{"16"}, false, recv(RecvOptions{Create: true, Drop: true, Options: []string{"proto_version=1"},
			Args: []string{"--status-interval", "1", "--fsync-interval", "4"}, Changes: SpacedInserts(6, time.Second)})},
	{"misreport-pg17", "a consumer written with pglogrepl against PostgreSQL 17 that acknowledges a transaction, then reports its flush LSN lower and past its write, leaves, starts again past a transaction committed while it was away, and reports a flush 1 MB past the WAL sent",
		[]string{"17"}, false, func(ctx context.Context, srv []*pgserver.Server) error { return Misreport(ctx, srv[0]) }},
	{"recvlogical-redelivered-pg16", "pg_recvlogical 15 --no-loop --status-interval 1 --fsync-interval 1 against PostgreSQL 16: three transactions acknowledged flushed, then pg_ctl stop -m immediate (no checkpoint saves the slot's confirmed_flush) and a restart; pg_recvlogical started again (from 0/0, as without -I) receives the three again, then a fourth",
		[]string{"16"}, false, func(ctx context.Context, srv []*pgserver.Server) error { return RecvLogicalRedelivered(ctx, srv[0]) }},
}

// SpacedInserts are n one-row transactions, the given time apart (pg_sleep runs over the
// scenarios' own Unix-domain connection, which the capture does not see).
func SpacedInserts(n int, apart time.Duration) []string {
	var sql []string
	for i := range n {
		if i > 0 {
			sql = append(sql, "SELECT pg_sleep("+strconv.FormatFloat(apart.Seconds(), 'f', 3, 64)+")")
		}
		sql = append(sql, "INSERT INTO "+Table+" VALUES ("+strconv.Itoa(200+i)+", 'spaced', "+strconv.Itoa(i)+")")
	}
	return sql
}

// StoppedFor is how long SubscribeStopped's scenario stops the apply worker.
const StoppedFor = 5 * time.Second

// WrongPassword is the password the failing SCRAM scenario gives.
const WrongPassword = "wrong-" + Password

// Passwords are every password the scenarios use: none may appear in the inspector's output.
var Passwords = []string{Password, WrongPassword, "bob-" + Password, "carol-" + Password}

// RecordScenario starts the scenario's servers, records it into dir/NAME.pcapng and stops
// them; it returns the capture's path.
func RecordScenario(ctx context.Context, sc Scenario, dir string) (string, error) {
	var servers []*pgserver.Server
	defer func() {
		for _, s := range servers {
			s.Stop()
		}
	}()
	for _, v := range sc.Versions {
		s, err := pgserver.Start(ctx, v)
		if err != nil {
			return "", err
		}
		servers = append(servers, s)
	}
	if sc.Scram {
		if err := RequireScram(ctx, servers[0]); err != nil {
			return "", err
		}
	}
	path := filepath.Join(dir, sc.Name+".pcapng")
	return path, Record(ctx, path, []int{servers[0].Port}, func() error { return sc.Run(ctx, servers) })
}
