// Command bigrecv makes a large pg_recvlogical -f file (-P pgoutput) of real traffic, for
// measuring how pgoutput-inspect decode reads a hex dump of one (docs/performance.md): it
// starts a throwaway PostgreSQL server (internal/pgserver, Debian's postgresql-15), runs the
// real pg_recvlogical into OUT, and pgbench's clients insert, update and delete rows (text
// values with newline bytes among them) until the file holds -mb megabytes. The file is not
// kept in the repository. With -pcap, dumpcap records pg_recvlogical's connection (the only
// TCP one: pgbench and psql use the server's socket) into a pcapng as well
// (internal/wirecapture; root).
//
//	go run ./scripts/bigrecv -mb 250 -out /tmp/big.recv && xxd /tmp/big.recv >/tmp/big.xxd
//	go run ./scripts/bigrecv -mb 100 -out /tmp/big.recv -pcap /tmp/big.pcapng
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"pgoutput-inspector/internal/pgserver"
	"pgoutput-inspector/internal/wirecapture"
)

// workload is pgbench's script: each transaction inserts a row, updates another and deletes a
// third; values hold newlines, so newline bytes occur inside messages as well as after them.
const workload = `\set id random(1, 100000000)
\set n random(1, 12)
BEGIN;
INSERT INTO t (id, v, n) VALUES (:id, repeat(md5(:id::text) || E'\n', :n), :id / 7.0) ON CONFLICT (id) DO NOTHING;
UPDATE t SET v = v || E'\nupdated', n = n + 1 WHERE id = :id - 1;
DELETE FROM t WHERE id = :id - 2;
END;
`

func main() {
	mb := flag.Int("mb", 250, "stop once the file holds this many megabytes")
	out := flag.String("out", "/tmp/big.recv", "the pg_recvlogical -f file to write")
	clients := flag.Int("clients", 4, "pgbench clients")
	pcap := flag.String("pcap", "", "also record pg_recvlogical's connection into this pcapng")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *out, *pcap, int64(*mb)<<20, *clients); err != nil {
		fmt.Fprintln(os.Stderr, "bigrecv:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out, pcap string, size int64, clients int) error {
	srv, err := pgserver.Start(ctx, pgserver.Debian15)
	if err != nil {
		return err
	}
	defer srv.Shutdown(pgserver.Fast, 30*time.Second)
	conn := srv.SocketConnString()
	psql := func(sql string) error {
		cmd := exec.CommandContext(ctx, filepath.Join(srv.BinDir, "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", conn, "-c", sql)
		cmd.Stderr = os.Stderr
		return cmd.Run()
	}
	for _, sql := range []string{
		`CREATE TABLE t (id bigint PRIMARY KEY, v text, n numeric)`,
		`CREATE PUBLICATION p FOR TABLE t`,
		`SELECT 'init' FROM pg_create_logical_replication_slot('s', 'pgoutput')`,
	} {
		if err := psql(sql); err != nil {
			return err
		}
	}
	stream := func() error { return receive(ctx, srv, out, size, clients) }
	if pcap != "" {
		return wirecapture.Record(ctx, pcap, []int{srv.Port}, stream)
	}
	return stream()
}

// receive runs pg_recvlogical over TCP into out while pgbench's clients change rows, until
// out holds size bytes.
func receive(ctx context.Context, srv *pgserver.Server, out string, size int64, clients int) error {
	conn := srv.SocketConnString()
	recv := exec.CommandContext(ctx, filepath.Join(srv.BinDir, "pg_recvlogical"), "-d", srv.ConnString(), "-S", "s", "--start",
		"-o", "proto_version=1", "-o", "publication_names=p", "-s", "1", "-f", out)
	recv.Stderr = os.Stderr
	if err := recv.Start(); err != nil {
		return err
	}
	script := filepath.Join(os.TempDir(), "bigrecv.sql")
	if err := os.WriteFile(script, []byte(workload), 0o644); err != nil {
		return err
	}
	start := time.Now()
	for {
		fi, err := os.Stat(out)
		if err == nil && fi.Size() >= size {
			break
		}
		bench := exec.CommandContext(ctx, filepath.Join(srv.BinDir, "pgbench"), "-n", "-c", strconv.Itoa(clients), "-T", "10", "-f", script, conn)
		bench.Stderr = os.Stderr
		if err := bench.Run(); err != nil {
			return fmt.Errorf("pgbench: %w", err)
		}
		if err == nil {
			fmt.Printf("bigrecv: %d bytes after %v\n", fi.Size(), time.Since(start).Round(time.Second))
		}
	}
	// Let pg_recvlogical catch up, then stop it as a person would (SIGINT: it flushes the file).
	time.Sleep(3 * time.Second)
	recv.Process.Signal(syscall.SIGINT)
	recv.Wait()
	fi, err := os.Stat(out)
	if err != nil {
		return err
	}
	fmt.Printf("bigrecv: %s: %d bytes in %v\n", out, fi.Size(), time.Since(start).Round(time.Second))
	return nil
}
