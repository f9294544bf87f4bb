//go:build !js

package wirecapture

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"pgoutput-inspector/internal/pgserver"
)

// Misreport is a consumer that reports what it should not, written with pglogrepl as
// consumers of it are, against a real server. On its first connection it receives a
// transaction, acknowledges it, then reports its flush LSN lower than before and its flush
// past its write; while it is away two transactions are committed; its second connection
// starts past the first of them (which the server then skips), receives the other, and
// reports a flush 1 MB past all the WAL the server sent.
func Misreport(ctx context.Context, srv *pgserver.Server) error {
	if err := setup(ctx, srv, "pub"); err != nil {
		return err
	}
	connect := func() (*pgconn.PgConn, error) {
		return pgconn.Connect(ctx, srv.ReplicationConnString()+" application_name=misreport")
	}
	conn, err := connect()
	if err != nil {
		return err
	}
	if _, err := pglogrepl.CreateReplicationSlot(ctx, conn, "misreport", "pgoutput", pglogrepl.CreateReplicationSlotOptions{}); err != nil {
		conn.Close(ctx)
		return err
	}
	opts := pglogrepl.StartReplicationOptions{PluginArgs: []string{"proto_version '1'", "publication_names 'pub'"}}
	if err := pglogrepl.StartReplication(ctx, conn, "misreport", 0, opts); err != nil {
		conn.Close(ctx)
		return err
	}
	if err := Exec(ctx, srv, Changes[0]); err != nil {
		conn.Close(ctx)
		return err
	}
	end, err := nextCommit(ctx, conn)
	if err != nil {
		conn.Close(ctx)
		return err
	}
	for _, s := range []pglogrepl.StandbyStatusUpdate{
		{WALWritePosition: end, WALFlushPosition: end, WALApplyPosition: end},     // the right acknowledgement
		{WALWritePosition: end, WALFlushPosition: end - 8, WALApplyPosition: end}, // flush goes back
		{WALWritePosition: end - 16, WALFlushPosition: end, WALApplyPosition: 0},  // flush past write
	} {
		if err := status(ctx, conn, s); err != nil {
			conn.Close(ctx)
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
	conn.Close(ctx)
	// While it is away: one transaction, and the LSN after it, then another.
	if err := Exec(ctx, srv, Changes[1]); err != nil {
		return err
	}
	after, err := query(ctx, srv, "SELECT pg_current_wal_insert_lsn()")
	if err != nil {
		return err
	}
	start, err := pglogrepl.ParseLSN(after)
	if err != nil {
		return err
	}
	if err := Exec(ctx, srv, Changes[2]); err != nil {
		return err
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if v, err := query(ctx, srv, "SELECT active FROM pg_replication_slots WHERE slot_name = 'misreport'"); err == nil && v == "f" {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("wirecapture: the slot stayed active after its consumer left")
		}
	}
	conn, err = connect()
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if err := pglogrepl.StartReplication(ctx, conn, "misreport", start, opts); err != nil {
		return err
	}
	end, err = nextCommit(ctx, conn)
	if err != nil {
		return err
	}
	if err := status(ctx, conn, pglogrepl.StandbyStatusUpdate{WALWritePosition: end + 1<<20, WALFlushPosition: end + 1<<20}); err != nil {
		return err
	}
	time.Sleep(20 * time.Millisecond)
	conn.Close(ctx)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		err := Exec(ctx, srv, "SELECT pg_drop_replication_slot('misreport')")
		if err == nil || time.Now().After(deadline) {
			return err
		}
	}
}

// nextCommit reads the stream until a Commit and returns its transaction's end LSN.
func nextCommit(ctx context.Context, conn *pgconn.PgConn) (pglogrepl.LSN, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		msg, err := conn.ReceiveMessage(ctx)
		if err != nil {
			return 0, fmt.Errorf("wirecapture: waiting for a Commit: %w", err)
		}
		cd, ok := msg.(*pgproto3.CopyData)
		if !ok || len(cd.Data) == 0 || cd.Data[0] != pglogrepl.XLogDataByteID {
			continue
		}
		xld, err := pglogrepl.ParseXLogData(cd.Data[1:])
		if err != nil {
			return 0, err
		}
		m, err := pglogrepl.Parse(xld.WALData)
		if err != nil {
			return 0, err
		}
		if c, ok := m.(*pglogrepl.CommitMessage); ok {
			return c.TransactionEndLSN, nil
		}
	}
}

func status(ctx context.Context, conn *pgconn.PgConn, s pglogrepl.StandbyStatusUpdate) error {
	s.ClientTime = time.Now()
	return pglogrepl.SendStandbyStatusUpdate(ctx, conn, s)
}
