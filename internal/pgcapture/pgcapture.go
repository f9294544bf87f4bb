// Package pgcapture records the logical replication stream of a live PostgreSQL server into a
// capture file: it opens a walsender connection (replication=database), creates a temporary
// pgoutput slot, runs START_REPLICATION with the requested pgoutput options and writes every
// CopyData payload the server sends (XLogData with its 25-byte header, and primary keepalives)
// as one line each. A keepalive that only repeats the previous keepalive's WAL end is counted,
// not written, so a peer that sends them in a loop cannot fill the disk.
//
// Capture file format, v1:
//
//	# pgoutput-inspect capture v1
//	# server: PostgreSQL 18.4
//	# options: proto_version=4 publication_names=pub binary=true
//	0/1773FE8 77000000000173fe80000000000173fe8...
//
// Header and comment lines start with "#". Every other non-blank line is the LSN in X/X form
// (upper-case hex; the XLogData start LSN, or the keepalive's WAL end), one space, and the
// whole CopyData payload in lower-case hex. Server notices received during the capture (for
// example PostgreSQL 18's warning about a publication that does not exist) are kept as
// "# notice: ..." comment lines where they arrived.
package pgcapture

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// FileHeader is the first line of every capture file.
const FileHeader = "# pgoutput-inspect capture v1"

// Option is one pgoutput option passed to START_REPLICATION as name 'value'.
type Option struct {
	Name  string
	Value string
}

// Config says where to capture from, with which pgoutput options, and when to stop. Every
// field maps to one command line flag of `pgoutput-inspect capture` (suggested flag names in
// brackets). Options left at their zero value are not sent, so the server's default applies
// and servers that do not know an option are not bothered with it.
type Config struct {
	// ConnString is a libpq connection string or URL [--conn / -d]. Empty means the usual
	// PG* environment variables. replication=database is added when missing.
	ConnString string
	// Slot names the temporary replication slot [--slot]. Empty means a generated name
	// "pgoutput_inspect_<random>".
	Slot string
	// StartLSN is where START_REPLICATION begins [--start-lsn X/X]. Zero means the slot's
	// consistent point, the LSN at which the slot was created.
	StartLSN pglogrepl.LSN

	// ProtoVersion is the pgoutput proto_version [--proto-version]. Zero means the highest
	// the server supports: 1 below PostgreSQL 14, 2 on 14, 3 on 15, 4 on 16 and later.
	ProtoVersion int
	// Publications is publication_names [--publication, repeatable or comma separated].
	// Names are sent quoted, so their case is kept. Required.
	Publications []string
	// Binary sends binary 'true' [--binary]: column values in their send-function format.
	Binary bool
	// Messages sends messages 'true' [--messages]: pg_logical_emit_message output (M).
	Messages bool
	// Streaming is the streaming option [--streaming off|on|parallel]; empty means not sent.
	Streaming string
	// TwoPhase sends two_phase 'true' [--two-phase]: prepared transactions are decoded at
	// PREPARE TRANSACTION (PostgreSQL 15+, proto_version 3+).
	TwoPhase bool
	// Origin is the origin option [--origin none|any] (PostgreSQL 16+); empty means not sent.
	Origin string
	// Extra options are appended as given [--option name=value, repeatable]. They may
	// repeat a named option; the server then reports the conflict.
	Extra []Option
	// RuntimeParams are extra startup parameters of the walsender connection
	// [--set name=value], e.g. debug_logical_replication_streaming=immediate on PostgreSQL
	// 16+ (the setting acts in the walsender, where decoding happens).
	RuntimeParams map[string]string

	// MaxMessages stops the capture after this many XLogData messages [--max-messages];
	// keepalives do not count. Zero means no limit.
	MaxMessages int
	// Duration stops the capture after this long [--duration]. Zero means no limit.
	Duration time.Duration
	// Stop, when set, is called for every payload received, after it was written (a
	// keepalive that repeats the previous one's WAL end is not written, but seen here too);
	// returning true ends the capture. No flag: for programs that know what they wait for.
	Stop func(Payload) bool
	// Ready, when set, is called once START_REPLICATION was accepted, with what is known then
	// (server, version, slot, consistent point, options). Changes committed after this call
	// are captured.
	Ready func(Result)
	// Progress, when set, is called after each payload received, with the counts so far.
	Progress func(Result)
	// StatusInterval is how often a standby status update is sent [--status-interval].
	// Zero means 10 seconds. Updates are also sent whenever the server asks for one.
	StatusInterval time.Duration
}

// Payload is one CopyData payload received from the walsender.
type Payload struct {
	// Kind is the payload's first byte: 'w' XLogData or 'k' primary keepalive (or any other
	// byte a future server might send; such payloads are written too).
	Kind byte
	// LSN is the XLogData start LSN or the keepalive's WAL end: the LSN written on the line.
	LSN pglogrepl.LSN
	// Bytes is the whole payload, envelope header included.
	Bytes []byte
}

// Message returns the pgoutput message inside an XLogData payload (the bytes after the
// 25-byte header), or nil for other payloads.
func (p Payload) Message() []byte {
	if p.Kind != pglogrepl.XLogDataByteID || len(p.Bytes) < xlogDataHeaderLen {
		return nil
	}
	return p.Bytes[xlogDataHeaderLen:]
}

// xlogDataHeaderLen is Byte1('w') + Int64 start LSN + Int64 WAL end + Int64 send time.
const xlogDataHeaderLen = 1 + 8 + 8 + 8

// StopReason says why a capture ended.
type StopReason string

// Why a capture ends without an error.
const (
	StoppedMaxMessages StopReason = "max-messages"
	StoppedDuration    StopReason = "duration"
	StoppedCancelled   StopReason = "cancelled"
	StoppedCondition   StopReason = "stop-condition"
	StoppedByServer    StopReason = "server-ended-stream"
	// StoppedServerShutdown: the server is shutting down; its walsender sent all WAL up to
	// the shutdown checkpoint, saw it confirmed and ended the stream with CommandComplete.
	StoppedServerShutdown StopReason = "server-shutdown"
)

// Result describes a finished capture.
type Result struct {
	// Server is the address connected to, host:port.
	Server string
	// ServerVersion is the server_version the server reported, e.g. "18.4".
	ServerVersion string
	// Slot is the temporary slot's name and ConsistentPoint the LSN it was created at.
	Slot            string
	ConsistentPoint pglogrepl.LSN
	// Options are the pgoutput options sent, in order.
	Options []Option
	// XLogData and Keepalives count the payloads written.
	XLogData   int
	Keepalives int
	// RepeatedKeepalives counts the keepalives not written because their WAL end was the
	// previous keepalive's.
	RepeatedKeepalives int
	// LastLSN is the highest LSN received.
	LastLSN pglogrepl.LSN
	// Received is the WAL position reported to the server as written and flushed: the
	// highest WAL end of any XLogData or keepalive received.
	Received pglogrepl.LSN
	// Reason says why the capture stopped.
	Reason StopReason
}

// Capture runs one capture and writes the capture file to w. It returns when a stop
// condition from cfg is met or ctx is cancelled (both are a normal end: everything received
// is written and flushed, the temporary slot is dropped, the error is nil) or when something
// fails. Errors are sentences meant for people.
func Capture(ctx context.Context, cfg Config, w io.Writer) (Result, error) {
	var res Result
	if len(cfg.Publications) == 0 {
		return res, errors.New("no publication given: pgoutput needs publication_names (create one with CREATE PUBLICATION name FOR ALL TABLES)")
	}
	pgcfg, err := pgconn.ParseConfig(cfg.ConnString)
	if err != nil {
		return res, fmt.Errorf("connection string: %w", err)
	}
	pgcfg.RuntimeParams["replication"] = "database"
	for k, v := range cfg.RuntimeParams {
		pgcfg.RuntimeParams[k] = v
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var pendingNotices []string
	pgcfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		pendingNotices = append(pendingNotices, n.Severity+": "+n.Message)
	}
	target := fmt.Sprintf("%s:%d", pgcfg.Host, pgcfg.Port)
	res.Server = target
	conn, err := pgconn.ConnectConfig(ctx, pgcfg)
	if err != nil {
		return res, connectError(target, err)
	}
	// Closing the walsender connection drops the temporary slot.
	defer conn.Close(context.Background())

	res.ServerVersion = conn.ParameterStatus("server_version")
	major := serverMajor(res.ServerVersion)
	proto := cfg.ProtoVersion
	if proto == 0 {
		proto = MaxProtoVersion(major)
	}
	res.Options = pluginOptions(cfg, proto)

	slot := cfg.Slot
	if slot == "" {
		slot = "pgoutput_inspect_" + randomSuffix()
	}
	created, err := pglogrepl.CreateReplicationSlot(ctx, conn, slot, "pgoutput",
		pglogrepl.CreateReplicationSlotOptions{Temporary: true, Mode: pglogrepl.LogicalReplication})
	if err != nil {
		return res, serverError("creating the temporary replication slot "+strconv.Quote(slot), err, res.ServerVersion)
	}
	res.Slot = slot
	res.ConsistentPoint, err = pglogrepl.ParseLSN(created.ConsistentPoint)
	if err != nil {
		return res, fmt.Errorf("server returned consistent point %q: %w", created.ConsistentPoint, err)
	}
	start := cfg.StartLSN
	if start == 0 {
		start = res.ConsistentPoint
	}

	args := make([]string, len(res.Options))
	for i, o := range res.Options {
		args[i] = quoteIdent(o.Name) + " " + quoteLiteral(o.Value)
	}
	if err := pglogrepl.StartReplication(ctx, conn, quoteIdent(slot), start,
		pglogrepl.StartReplicationOptions{Mode: pglogrepl.LogicalReplication, PluginArgs: args}); err != nil {
		return res, serverError("START_REPLICATION", err, res.ServerVersion)
	}

	fmt.Fprintln(bw, FileHeader)
	fmt.Fprintf(bw, "# server: PostgreSQL %s\n", res.ServerVersion)
	fmt.Fprintf(bw, "# slot: %s (temporary, created at %s)\n", slot, res.ConsistentPoint)
	fmt.Fprintf(bw, "# start_lsn: %s\n", start)
	fmt.Fprintf(bw, "# options: %s\n", FormatOptions(res.Options))
	if len(cfg.RuntimeParams) > 0 {
		fmt.Fprintf(bw, "# walsender settings: %s\n", formatParams(cfg.RuntimeParams))
	}
	fmt.Fprintf(bw, "# started: %s\n", time.Now().UTC().Format(time.RFC3339))
	if cfg.Ready != nil {
		cfg.Ready(res)
	}

	err = stream(ctx, conn, cfg, bw, &res, &pendingNotices)
	if ferr := bw.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("writing the capture: %w", ferr)
	}
	if err != nil {
		return res, err
	}
	// End the stream politely so the walsender exits at once; the temporary slot is released
	// when the connection closes.
	endCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if res.Reason != StoppedByServer && res.Reason != StoppedServerShutdown {
		pglogrepl.SendStandbyCopyDone(endCtx, conn)
	}
	return res, nil
}

// stream receives CopyData until a stop condition; it writes each payload as a line.
//
// The standby status updates report as written and flushed exactly the WAL end the server
// sent last (in XLogData and keepalives), as pg_recvlogical does, and never more: at
// shutdown the walsender sends everything up to the shutdown checkpoint and then, in
// WalSndDone (src/backend/replication/walsender.c), exits only once the client's reported
// flush position (write, when flush is 0) equals its sentPtr, asking for a reply with every
// keepalive until then. A position past sentPtr (such as an XLogData's start plus the
// message's length) is never equal to it: the server would not stop, and would request
// replies in a loop.
func stream(ctx context.Context, conn *pgconn.PgConn, cfg Config, bw *bufio.Writer, res *Result, notices *[]string) error {
	interval := cfg.StatusInterval
	if interval <= 0 {
		interval = 10 * time.Second
	}
	var deadline time.Time
	if cfg.Duration > 0 {
		deadline = time.Now().Add(cfg.Duration)
	}
	lastNotice := "" // what the server said last, for lostError
	sendStatus := func() error {
		// What is reported is in the file (or at least handed to the system) first.
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("writing the capture: %w", err)
		}
		err := pglogrepl.SendStandbyStatusUpdate(ctx, conn, pglogrepl.StandbyStatusUpdate{
			WALWritePosition: res.Received, WALFlushPosition: res.Received, WALApplyPosition: res.Received,
		})
		if err != nil && ctx.Err() == nil {
			return lostError(err, res, lastNotice)
		}
		return nil
	}
	nextStatus := time.Now().Add(interval)
	flushNotices := func() {
		for _, n := range *notices {
			fmt.Fprintf(bw, "# notice: %s\n", strings.ReplaceAll(n, "\n", " "))
			lastNotice = n
		}
		*notices = (*notices)[:0]
	}
	var lastKeepalive []byte // the WAL end of the last keepalive received
	for {
		flushNotices()
		now := time.Now()
		if !deadline.IsZero() && !now.Before(deadline) {
			res.Reason = StoppedDuration
			return nil
		}
		if !now.Before(nextStatus) {
			if err := sendStatus(); err != nil {
				return err
			}
			nextStatus = now.Add(interval)
		}
		wake := nextStatus
		if !deadline.IsZero() && deadline.Before(wake) {
			wake = deadline
		}
		rctx, cancel := context.WithDeadline(ctx, wake)
		msg, err := conn.ReceiveMessage(rctx)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				res.Reason = StoppedCancelled
				return nil
			}
			if pgconn.Timeout(err) {
				continue
			}
			return lostError(err, res, lastNotice)
		}
		switch msg := msg.(type) {
		case *pgproto3.CopyData:
			p, err := payload(msg.Data)
			if err != nil {
				return err
			}
			if p.Kind == pglogrepl.PrimaryKeepaliveMessageByteID {
				walEnd := p.Bytes[1:9]
				if bytes.Equal(walEnd, lastKeepalive) {
					res.RepeatedKeepalives++
				} else {
					lastKeepalive = append(lastKeepalive[:0], walEnd...)
					writeLine(bw, p)
					res.Keepalives++
				}
				if p.LSN > res.Received {
					res.Received = p.LSN
				}
				if p.Bytes[17] != 0 { // reply requested
					if err := sendStatus(); err != nil {
						return err
					}
					nextStatus = time.Now().Add(interval)
				}
			} else {
				writeLine(bw, p)
				if p.Kind == pglogrepl.XLogDataByteID {
					res.XLogData++
					if walEnd := pglogrepl.LSN(be64(p.Bytes[9:17])); walEnd > res.Received {
						res.Received = walEnd
					}
				}
			}
			if p.LSN > res.LastLSN {
				res.LastLSN = p.LSN
			}
			if cfg.Progress != nil {
				cfg.Progress(*res)
			}
			if cfg.Stop != nil {
				// CopyData.Data is only valid until the next receive.
				p.Bytes = append([]byte(nil), p.Bytes...)
				if cfg.Stop(p) {
					res.Reason = StoppedCondition
					return nil
				}
			}
			if cfg.MaxMessages > 0 && res.XLogData >= cfg.MaxMessages {
				res.Reason = StoppedMaxMessages
				return nil
			}
		case *pgproto3.CopyDone:
			res.Reason = StoppedByServer
			return nil
		case *pgproto3.CommandComplete:
			// WalSndDone ends the stream this way, without CopyDone, once the client has
			// confirmed everything up to the shutdown checkpoint; then the walsender exits.
			res.Reason = StoppedServerShutdown
			return nil
		case *pgproto3.NoticeResponse:
			// ReceiveMessage hands notices over instead of calling OnNotice.
			n := pgconn.ErrorResponseToPgError((*pgproto3.ErrorResponse)(msg))
			*notices = append(*notices, n.Severity+": "+n.Message)
		case *pgproto3.ErrorResponse:
			return serverError("replication stream", pgconn.ErrorResponseToPgError(msg), res.ServerVersion)
		default:
			return fmt.Errorf("unexpected %T from the server during the replication stream", msg)
		}
	}
}

// payload reads the envelope of one CopyData payload far enough to know its LSN.
func payload(b []byte) (Payload, error) {
	if len(b) == 0 {
		return Payload{}, errors.New("server sent an empty CopyData message")
	}
	p := Payload{Kind: b[0], Bytes: b}
	switch p.Kind {
	case pglogrepl.XLogDataByteID:
		if len(b) < xlogDataHeaderLen {
			return p, fmt.Errorf("server sent an XLogData of %d bytes, shorter than its %d-byte header", len(b), xlogDataHeaderLen)
		}
		p.LSN = pglogrepl.LSN(be64(b[1:]))
	case pglogrepl.PrimaryKeepaliveMessageByteID:
		if len(b) < 18 {
			return p, fmt.Errorf("server sent a keepalive of %d bytes, want 18", len(b))
		}
		p.LSN = pglogrepl.LSN(be64(b[1:]))
	}
	return p, nil
}

func be64(b []byte) uint64 {
	var v uint64
	for _, c := range b[:8] {
		v = v<<8 | uint64(c)
	}
	return v
}

// writeLine writes "X/X hex\n"; LSN upper-case, payload lower-case, as the format says.
func writeLine(bw *bufio.Writer, p Payload) {
	bw.WriteString(p.LSN.String())
	bw.WriteByte(' ')
	var buf [512]byte
	for rest := p.Bytes; len(rest) > 0; {
		n := min(len(rest), len(buf)/2)
		hex.Encode(buf[:], rest[:n])
		bw.Write(buf[:2*n])
		rest = rest[n:]
	}
	bw.WriteByte('\n')
}

// MaxProtoVersion is the highest pgoutput proto_version a server of that major version
// accepts.
func MaxProtoVersion(major int) int {
	switch {
	case major >= 16:
		return 4
	case major == 15:
		return 3
	case major == 14:
		return 2
	default:
		return 1
	}
}

// pluginOptions lists the START_REPLICATION options for cfg in a fixed order.
func pluginOptions(cfg Config, proto int) []Option {
	quoted := make([]string, len(cfg.Publications))
	for i, p := range cfg.Publications {
		quoted[i] = quoteIdent(p)
	}
	opts := []Option{
		{"proto_version", strconv.Itoa(proto)},
		{"publication_names", strings.Join(quoted, ",")},
	}
	if cfg.Binary {
		opts = append(opts, Option{"binary", "true"})
	}
	if cfg.Messages {
		opts = append(opts, Option{"messages", "true"})
	}
	if cfg.Streaming != "" {
		opts = append(opts, Option{"streaming", cfg.Streaming})
	}
	if cfg.TwoPhase {
		opts = append(opts, Option{"two_phase", "true"})
	}
	if cfg.Origin != "" {
		opts = append(opts, Option{"origin", cfg.Origin})
	}
	return append(opts, cfg.Extra...)
}

// FormatOptions renders options as the capture header writes them: name=value separated by
// spaces, values as sent to the server.
func FormatOptions(opts []Option) string {
	parts := make([]string, len(opts))
	for i, o := range opts {
		parts[i] = o.Name + "=" + o.Value
	}
	return strings.Join(parts, " ")
}

func formatParams(params map[string]string) string {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	// Sorted, so a header is the same for the same settings.
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + params[k]
	}
	return strings.Join(parts, " ")
}

// serverMajor reads the major version from server_version ("18.4", "15.10 (Debian ...)",
// "19devel").
func serverMajor(v string) int {
	end := 0
	for end < len(v) && v[end] >= '0' && v[end] <= '9' {
		end++
	}
	n, _ := strconv.Atoi(v[:end])
	return n
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func quoteLiteral(s string) string { return `'` + strings.ReplaceAll(s, `'`, `''`) + `'` }

func randomSuffix() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
