package pgcapture_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5/pgproto3"

	"pgoutput-inspector/internal/pgcapture"
)

// TestRepeatedKeepalives plays a walsender that asks for a reply a thousand times with the
// same WAL end, as PostgreSQL's did while it waited at shutdown for a flush position the
// capture never reported. The capture must write one keepalive and count the rest, answer
// each request with exactly the WAL end received (never more), and stop when the server
// ends the stream with CommandComplete.
func TestRepeatedKeepalives(t *testing.T) {
	const requests = 1000
	const walEnd = pglogrepl.LSN(0x1000200)
	begin := xlogData(0x1000100, []byte("B\x00\x00\x00\x00\x01\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\xf2"))
	var reported []pglogrepl.LSN
	connString := fakeWalsender(t, func(be *pgproto3.Backend) error {
		be.Send(&pgproto3.CopyData{Data: begin})
		for range requests {
			be.Send(&pgproto3.CopyData{Data: keepalive(walEnd, true)})
			if err := be.Flush(); err != nil {
				return err
			}
			for {
				msg, err := be.Receive()
				if err != nil {
					return err
				}
				if cd, ok := msg.(*pgproto3.CopyData); ok && len(cd.Data) == 34 && cd.Data[0] == 'r' {
					// Standby status update: write, flush, apply, time, reply requested.
					reported = append(reported, pglogrepl.LSN(binary.BigEndian.Uint64(cd.Data[9:17])))
					break
				}
			}
		}
		be.Send(&pgproto3.CommandComplete{CommandTag: []byte("COPY 0")})
		return be.Flush()
	})
	cfg := pgcapture.Config{ConnString: connString, Publications: []string{"pub"}, StatusInterval: time.Hour}
	var out bytes.Buffer
	res := capture(t, cfg, &out)
	if res.Reason != pgcapture.StoppedServerShutdown {
		t.Errorf("reason %s, want %s", res.Reason, pgcapture.StoppedServerShutdown)
	}
	if res.XLogData != 1 || res.Keepalives != 1 || res.RepeatedKeepalives != requests-1 {
		t.Errorf("Result: %d XLogData, %d keepalives written, %d repeated; want 1, 1, %d", res.XLogData, res.Keepalives, res.RepeatedKeepalives, requests-1)
	}
	if len(reported) != requests {
		t.Fatalf("%d status updates for %d requests", len(reported), requests)
	}
	for i, lsn := range reported {
		if lsn != walEnd {
			t.Fatalf("status update %d reports flush %s, want the WAL end received, %s", i, lsn, walEnd)
		}
	}
	f, err := pgcapture.ReadFile(&out)
	if err != nil {
		t.Fatal(err)
	}
	if c := f.Count(); c.XLogData != 1 || c.Keepalives != 1 {
		t.Errorf("capture file: %d XLogData and %d keepalives, want 1 and 1:\n%s", c.XLogData, c.Keepalives, out.String())
	}
}

// fakeWalsender listens on 127.0.0.1 for one connection, answers the start-up,
// CREATE_REPLICATION_SLOT and START_REPLICATION as a PostgreSQL 16 walsender would, then runs
// stream. It returns the connection string.
func fakeWalsender(t *testing.T, stream func(*pgproto3.Backend) error) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	t.Cleanup(func() {
		ln.Close()
		if err := <-errc; err != nil {
			t.Errorf("fake walsender: %v", err)
		}
	})
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			errc <- err
			return
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(time.Minute))
		errc <- serveWalsender(pgproto3.NewBackend(conn, conn), stream)
	}()
	return fmt.Sprintf("host=127.0.0.1 port=%d user=postgres sslmode=disable", ln.Addr().(*net.TCPAddr).Port)
}

func serveWalsender(be *pgproto3.Backend, stream func(*pgproto3.Backend) error) error {
	if _, err := be.ReceiveStartupMessage(); err != nil {
		return err
	}
	be.Send(&pgproto3.AuthenticationOk{})
	be.Send(&pgproto3.ParameterStatus{Name: "server_version", Value: "16.0"})
	be.Send(&pgproto3.BackendKeyData{ProcessID: 1, SecretKey: 2})
	be.Send(&pgproto3.ReadyForQuery{TxStatus: 'I'})
	if err := be.Flush(); err != nil {
		return err
	}
	for {
		msg, err := be.Receive()
		if err != nil {
			return err
		}
		q, ok := msg.(*pgproto3.Query)
		if !ok {
			return fmt.Errorf("got %T, want a Query", msg)
		}
		switch {
		case strings.HasPrefix(q.String, "CREATE_REPLICATION_SLOT"):
			var fields []pgproto3.FieldDescription
			for _, name := range []string{"slot_name", "consistent_point", "snapshot_name", "output_plugin"} {
				fields = append(fields, pgproto3.FieldDescription{Name: []byte(name), DataTypeOID: 25, DataTypeSize: -1, TypeModifier: -1})
			}
			be.Send(&pgproto3.RowDescription{Fields: fields})
			be.Send(&pgproto3.DataRow{Values: [][]byte{[]byte("slot"), []byte("0/1000000"), nil, []byte("pgoutput")}})
			be.Send(&pgproto3.CommandComplete{CommandTag: []byte("CREATE_REPLICATION_SLOT")})
			be.Send(&pgproto3.ReadyForQuery{TxStatus: 'I'})
		case strings.HasPrefix(q.String, "START_REPLICATION"):
			be.Send(&pgproto3.CopyBothResponse{})
			return stream(be)
		default:
			return fmt.Errorf("unexpected query %q", q.String)
		}
		if err := be.Flush(); err != nil {
			return err
		}
	}
}

// xlogData wraps a pgoutput message in XLogData as a logical walsender does: start and WAL
// end are both the LSN of the change.
func xlogData(lsn pglogrepl.LSN, msg []byte) []byte {
	b := []byte{'w'}
	b = binary.BigEndian.AppendUint64(b, uint64(lsn))
	b = binary.BigEndian.AppendUint64(b, uint64(lsn))
	b = binary.BigEndian.AppendUint64(b, 0)
	return append(b, msg...)
}

// keepalive is a primary keepalive message.
func keepalive(walEnd pglogrepl.LSN, replyRequested bool) []byte {
	b := []byte{'k'}
	b = binary.BigEndian.AppendUint64(b, uint64(walEnd))
	b = binary.BigEndian.AppendUint64(b, 0)
	if replyRequested {
		return append(b, 1)
	}
	return append(b, 0)
}
