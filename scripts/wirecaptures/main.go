// Command wirecaptures records the conversation captures in testdata/conversation: real
// replication connections to real servers, recorded with dumpcap on the loopback interface
// (internal/wirecapture), each from its TCP handshake to its close. Run as root:
//
//	go run ./scripts/wirecaptures            # every capture
//	go run ./scripts/wirecaptures -only subscriber
//
// It writes NAME.pcapng and a line per capture in MADE_BY saying how it was made.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"pgoutput-inspector/internal/pgserver"
	"pgoutput-inspector/internal/wirecapture"
)

// capture is one recording: its name, what it shows, the servers it needs and what runs.
type capture struct {
	name, made string
	versions   []string
	run        func(ctx context.Context, srv []*pgserver.Server) error
}

func recv(o wirecapture.RecvOptions) func(context.Context, []*pgserver.Server) error {
	return func(ctx context.Context, srv []*pgserver.Server) error {
		return wirecapture.RecvLogical(ctx, srv[0], o)
	}
}

var captures = []capture{
	{"recvlogical-pg14", "pg_recvlogical 15 --create-slot --start -o proto_version=1 against PostgreSQL 14; Ctrl-C after the changes",
		[]string{"14"}, recv(wirecapture.RecvOptions{Create: true, Drop: true, Options: []string{"proto_version=1"}})},
	{"recvlogical-pg15-streaming", "pg_recvlogical 15 --create-slot --start -o proto_version=2 -o streaming=on -o binary=true -o messages=true against PostgreSQL 15",
		[]string{"15"}, recv(wirecapture.RecvOptions{Create: true, Drop: true, Options: []string{"proto_version=2", "streaming=on", "binary=true", "messages=true"}})},
	{"recvlogical-pg16-two-phase", "pg_recvlogical 15 --create-slot --start -o proto_version=3 -o two_phase=on against PostgreSQL 16",
		[]string{"16"}, recv(wirecapture.RecvOptions{Create: true, Drop: true, Options: []string{"proto_version=3", "two_phase=on"}})},
	{"recvlogical-pg17-parallel", "pg_recvlogical 15 --create-slot --start -o proto_version=4 -o streaming=parallel against PostgreSQL 17",
		[]string{"17"}, recv(wirecapture.RecvOptions{Create: true, Drop: true, Options: []string{"proto_version=4", "streaming=parallel"}})},
	{"recvlogical-pg18-binary", "pg_recvlogical 15 --create-slot --start -o proto_version=4 -o streaming=on -o binary=true -o origin=any against PostgreSQL 18",
		[]string{"18"}, recv(wirecapture.RecvOptions{Create: true, Drop: true, Options: []string{"proto_version=4", "streaming=on", "binary=true", "origin=any"}})},
	{"subscriber-pg17-pg18", "a PostgreSQL 18 subscriber of a PostgreSQL 17 publisher, CREATE SUBSCRIPTION … WITH (streaming = on, binary = true): table synchronization (COPY, binary) and apply; the publisher's port",
		[]string{"17", "18"}, func(ctx context.Context, srv []*pgserver.Server) error {
			return wirecapture.Subscribe(ctx, srv[0], srv[1], "streaming = on, binary = true")
		}},
	{"subscriber-pg14-pg16", "a PostgreSQL 16 subscriber of a PostgreSQL 14 publisher, CREATE SUBSCRIPTION with its defaults: table synchronization (COPY, text) and apply; the publisher's port",
		[]string{"14", "16"}, func(ctx context.Context, srv []*pgserver.Server) error {
			return wirecapture.Subscribe(ctx, srv[0], srv[1], "")
		}},
	{"fail-missing-slot-pg16", "pg_recvlogical 15 --start --slot nosuch against PostgreSQL 16: the slot does not exist",
		[]string{"16"}, recv(wirecapture.RecvOptions{Slot: "nosuch", Options: []string{"proto_version=1"}, ExpectFail: true})},
	{"fail-proto-pg17", "pg_recvlogical 15 --create-slot --start -o proto_version=9 against PostgreSQL 17: a protocol version the server does not have",
		[]string{"17"}, recv(wirecapture.RecvOptions{Create: true, Options: []string{"proto_version=9"}, ExpectFail: true})},
	{"fail-missing-publication-pg15", "pg_recvlogical 15 --create-slot --start -o publication_names=nosuch against PostgreSQL 15, then a change: the publication does not exist",
		[]string{"15"}, recv(wirecapture.RecvOptions{Create: true, Options: []string{"proto_version=1", "publication_names=nosuch"}, ExpectFail: true})},
	{"fail-scram-password-pg18", "pg_recvlogical 15 as a role that authenticates with SCRAM-SHA-256, with a wrong password, against PostgreSQL 18",
		[]string{"18"}, func(ctx context.Context, srv []*pgserver.Server) error {
			return wirecapture.RecvLogical(ctx, srv[0], wirecapture.RecvOptions{User: wirecapture.ScramUser, Env: []string{"PGPASSWORD=wrong-" + wirecapture.Password},
				Create: true, Options: []string{"proto_version=1"}, ExpectFail: true})
		}},
	{"ordinary-pg18", "ordinary connections to PostgreSQL 18: pgconn with MD5 and clear-text passwords (the extended query protocol, LISTEN/NOTIFY, a notice, an empty query, COPY FROM STDIN), then a client sending GSSENCRequest, SSLRequest, protocol 3.2's StartupMessage with an unknown _pq_ option, a FunctionCall, an Execute with a row limit, Close, Flush, a CopyFail and a CancelRequest",
		[]string{"18"}, func(ctx context.Context, srv []*pgserver.Server) error { return wirecapture.Ordinary(ctx, srv[0]) }},
	{"physical-pg15", "pg_receivewal 15 against PostgreSQL 15: --create-slot (a physical slot), then streaming WAL (READ_REPLICATION_SLOT, START_REPLICATION … TIMELINE) while a table is made, until Ctrl-C",
		[]string{"15"}, func(ctx context.Context, srv []*pgserver.Server) error { return wirecapture.ReceiveWAL(ctx, srv[0]) }},
	{"scram-pg18", "pg_recvlogical 15 as a role that authenticates with SCRAM-SHA-256, with its password, against PostgreSQL 18",
		[]string{"18"}, func(ctx context.Context, srv []*pgserver.Server) error {
			return wirecapture.RecvLogical(ctx, srv[0], wirecapture.RecvOptions{User: wirecapture.ScramUser, Env: []string{"PGPASSWORD=" + wirecapture.Password},
				Create: true, Drop: true, Options: []string{"proto_version=4"}})
		}},
}

func main() {
	out := flag.String("out", "testdata/conversation", "directory to write the captures into")
	only := flag.String("only", "", "record only the captures whose name contains this")
	flag.Parse()
	if err := wirecapture.Check(); err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	made := readMadeBy(filepath.Join(*out, "MADE_BY"))
	for _, c := range captures {
		if !strings.Contains(c.name, *only) {
			continue
		}
		if err := record(c, *out); err != nil {
			log.Fatalf("%s: %v", c.name, err)
		}
		made[c.name+".pcapng"] = c.made
		log.Printf("%s.pcapng", c.name)
	}
	writeMadeBy(filepath.Join(*out, "MADE_BY"), made)
}

func record(c capture, dir string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var servers []*pgserver.Server
	defer func() {
		for _, s := range servers {
			s.Stop()
		}
	}()
	for _, v := range c.versions {
		s, err := pgserver.Start(ctx, v)
		if err != nil {
			return err
		}
		servers = append(servers, s)
	}
	if strings.Contains(c.name, "scram") {
		if err := wirecapture.RequireScram(ctx, servers[0]); err != nil {
			return err
		}
	}
	path := filepath.Join(dir, c.name+".pcapng")
	return wirecapture.Record(ctx, path, []int{servers[0].Port}, func() error { return c.run(ctx, servers) })
}

// madeBySuffix ends each line of MADE_BY.
const madeBySuffix = " (go run ./scripts/wirecaptures: dumpcap -i lo -f 'tcp port PORT')"

func readMadeBy(path string) map[string]string {
	made := map[string]string{}
	b, _ := os.ReadFile(path)
	for _, line := range strings.Split(string(b), "\n") {
		if name, what, ok := strings.Cut(line, ": "); ok {
			made[name] = strings.TrimSuffix(what, madeBySuffix)
		}
	}
	return made
}

func writeMadeBy(path string, made map[string]string) {
	var names []string
	for n := range made {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%s: %s%s\n", n, made[n], madeBySuffix)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		log.Fatal(err)
	}
}
