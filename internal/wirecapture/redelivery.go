//go:build !js

package wirecapture

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"pgoutput-inspector/internal/pgserver"
)

// RecvLogicalRedelivered makes a real consumer receive again transactions it had acknowledged
// flushed. pg_recvlogical --no-loop receives three transactions and reports them flushed; the
// server is stopped with an immediate shutdown (pg_ctl stop -m immediate), which ends
// pg_recvlogical, and started again. A logical slot's confirmed_flush reaches disk only at a
// checkpoint or when the slot's restart_lsn or catalog_xmin moves (LogicalConfirmReceivedLocation
// saves it then): an immediate shutdown writes no checkpoint, so the slot comes back at the
// position it had before the three. pg_recvlogical is started again, as a service manager
// would, without -I: it asks for 0/0, the server sends from the slot's position, and the three
// come again. A fourth transaction follows, then Ctrl-C and the slot is dropped.
//
// (pg_recvlogical left to reconnect by itself does not show it: it starts again from the last
// position it wrote, past the three.)
//
// It returns an error when the slot came back at or past what was acknowledged (a checkpoint
// or a decoded running_xacts saved it in between): nothing would be delivered again.
func RecvLogicalRedelivered(ctx context.Context, srv *pgserver.Server) error {
	if err := setup(ctx, srv, "pub"); err != nil {
		return err
	}
	first, err := startRecvLogical(ctx, srv, "--create-slot")
	if err != nil {
		return err
	}
	defer first.stop()
	if err := WaitStreaming(ctx, srv, "pg_recvlogical"); err != nil {
		return fmt.Errorf("%w: %s", err, first.said.String())
	}
	if err := Exec(ctx, srv, Changes[:3]...); err != nil {
		return err
	}
	if err := WaitConfirmed(ctx, srv); err != nil {
		return err
	}
	acked, err := query(ctx, srv, "SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'recv'")
	if err != nil {
		return err
	}
	if err := srv.Shutdown(pgserver.Immediate, 30*time.Second); err != nil {
		return err
	}
	select {
	case <-first.done:
	case <-time.After(20 * time.Second):
		return fmt.Errorf("wirecapture: pg_recvlogical --no-loop went on after the server stopped: %s", first.said.String())
	}
	if err := srv.Restart(ctx); err != nil {
		return err
	}
	back, err := query(ctx, srv, "SELECT confirmed_flush_lsn < '"+acked+"' FROM pg_replication_slots WHERE slot_name = 'recv'")
	if err != nil {
		return err
	}
	if back != "t" {
		return fmt.Errorf("wirecapture: the slot came back at or past %s, what pg_recvlogical had acknowledged (saved before the immediate shutdown): nothing to deliver again; record again", acked)
	}
	second, err := startRecvLogical(ctx, srv)
	if err != nil {
		return err
	}
	defer second.stop()
	if err := WaitStreaming(ctx, srv, "pg_recvlogical"); err != nil {
		return fmt.Errorf("%w: %s", err, second.said.String())
	}
	if err := Exec(ctx, srv, "INSERT INTO "+Table+" VALUES (101, 'after the restart', 1)"); err != nil {
		return err
	}
	if err := WaitConfirmed(ctx, srv); err != nil {
		return err
	}
	second.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-second.done:
	case <-time.After(20 * time.Second):
		return fmt.Errorf("wirecapture: pg_recvlogical did not stop on SIGINT: %s", second.said.String())
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		err := Exec(ctx, srv, "SELECT pg_drop_replication_slot('recv')")
		if err == nil || time.Now().After(deadline) {
			return err
		}
	}
}

// recvProcess is a running pg_recvlogical; done is closed when it has exited.
type recvProcess struct {
	cmd  *exec.Cmd
	said *bytes.Buffer
	done chan struct{}
}

// startRecvLogical starts pg_recvlogical --no-loop on slot recv (status updates and fsyncs
// every second) with more arguments.
func startRecvLogical(ctx context.Context, srv *pgserver.Server, more ...string) (*recvProcess, error) {
	args := append([]string{"-d", fmt.Sprintf("host=127.0.0.1 port=%d user=%s dbname=postgres sslmode=disable application_name=pg_recvlogical", srv.Port, pgserver.SuperUser),
		"--slot", "recv", "-P", "pgoutput", "--start", "-f", os.DevNull, "--no-loop",
		"-o", "proto_version=1", "-o", "publication_names=pub", "--status-interval", "1", "--fsync-interval", "1"}, more...)
	p := &recvProcess{cmd: exec.CommandContext(ctx, RecvLogicalPath, args...), said: &bytes.Buffer{}, done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), "TZ=UTC", "LC_ALL=C")
	p.cmd.Stdout, p.cmd.Stderr = p.said, p.said
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("wirecapture: starting pg_recvlogical: %w", err)
	}
	go func() {
		p.cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// stop kills the process unless it has exited, and waits for it.
func (p *recvProcess) stop() {
	select {
	case <-p.done:
	default:
		p.cmd.Process.Kill()
		<-p.done
	}
}
