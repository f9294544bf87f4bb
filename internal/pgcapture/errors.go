package pgcapture

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"

	"pgoutput-inspector/decoder/pgvalue"
)

// Error is a capture failure explained in one sentence, with the server's own error kept
// for errors.As (a *pgconn.PgError when the server refused something).
type Error struct {
	// Step is what was being done: "connecting to 127.0.0.1:5432", "START_REPLICATION", ...
	Step string
	// Explanation says what went wrong and, where known, how to fix it.
	Explanation string
	// Err is the underlying error.
	Err error
}

func (e *Error) Error() string {
	return e.Step + ": " + e.Explanation
}

func (e *Error) Unwrap() error { return e.Err }

// connectError explains a failed connection.
func connectError(target string, err error) error {
	step := "connecting to " + target
	var pgErr *pgconn.PgError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return &Error{step, "connection refused: no PostgreSQL server is listening there (is it running, and does listen_addresses include this address?)", err}
	case errors.As(err, &pgErr):
		return explainPgError(step, pgErr, "")
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return &Error{step, fmt.Sprintf("host name %q could not be resolved", dnsErr.Name), err}
	}
	return &Error{step, innermost(err), err}
}

// serverError explains an error that happened after connecting.
func serverError(step string, err error, serverVersion string) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return explainPgError(step, pgErr, serverVersion)
	}
	return &Error{step, innermost(err), err}
}

// explainPgError maps the server's messages to sentences that say what to do.
func explainPgError(step string, e *pgconn.PgError, serverVersion string) error {
	msg := e.Message
	server := "the server"
	if serverVersion != "" {
		server = "PostgreSQL " + serverVersion
	}
	var text string
	switch {
	case strings.Contains(msg, "wal_level"):
		text = "logical decoding is not enabled on " + server + " (" + msg + "): set wal_level = logical in postgresql.conf and restart the server"
	case e.Code == "42704" && strings.Contains(msg, "publication"):
		// undefined_object, e.g. `publication "pub" does not exist`
		text = msg + " on " + server + ": create it (CREATE PUBLICATION name FOR ALL TABLES) or name an existing one"
	case strings.Contains(msg, "unrecognized pgoutput option"):
		text = server + " does not know this pgoutput option (" + msg + "); options by release: binary, messages, streaming 14+; two_phase 15+; origin and streaming=parallel 16+"
	case strings.Contains(msg, "proto_version") || strings.Contains(msg, "protocol version"):
		text = server + " refused the protocol version (" + msg + "); the highest proto_version is 1 before PostgreSQL 14, 2 on 14, 3 on 15, 4 on 16 and later"
	case strings.Contains(msg, "streaming") || strings.Contains(msg, "two_phase") || strings.Contains(msg, "origin"):
		text = server + " refused an option value (" + msg + ")"
	case strings.Contains(msg, "conflicting or redundant options"):
		text = "an option was given twice (" + msg + ")"
	case e.Code == "28000" && strings.Contains(msg, "replication"):
		text = "the server does not allow replication connections from here (" + msg + "): add a pg_hba.conf line such as `host replication <user> <address> <method>`"
	case e.Code == "42501" || strings.Contains(msg, "must be superuser or replication role") || strings.Contains(msg, "permission denied"):
		text = "the user may not start logical replication (" + msg + "): it needs the REPLICATION attribute (ALTER ROLE name REPLICATION)"
	case e.Code == "53400" || strings.Contains(msg, "replication slots are in use") || strings.Contains(msg, "max_replication_slots"):
		text = "no free replication slot or walsender (" + msg + "): raise max_replication_slots / max_wal_senders or drop unused slots"
	case e.Code == "28P01" || e.Code == "28000":
		text = "authentication failed (" + msg + ")"
	case e.Code == "3D000":
		text = msg + ": name an existing database with dbname="
	default:
		text = msg
	}
	if e.Detail != "" {
		text += " (detail: " + e.Detail + ")"
	}
	if e.Hint != "" {
		text += " (hint: " + e.Hint + ")"
	}
	return &Error{step, text + " [SQLSTATE " + e.Code + "]", e}
}

// innermost drops pgx's wrapping ("failed to connect to ...: dial error: ...") down to the
// message of the error at the bottom of the chain.
func innermost(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}

// lostError explains a connection that broke during the stream: what was received is in the
// capture, and what the server said last (if anything) says why.
func lostError(err error, res *Result, lastNotice string) error {
	why := innermost(err)
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr):
		// A FATAL error ends the connection: pg_terminate_backend, a smart or fast shutdown
		// of a walsender that was not streaming, wal_sender_timeout...
		why = "the server ended it: " + pgErr.Severity + ": " + pgErr.Message + " [SQLSTATE " + pgErr.Code + "]"
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET):
		why = "closed without a word from the server: an immediate shutdown, a crash or a network failure; " + why
	}
	text := fmt.Sprintf("connection to the server lost after %d XLogData %s (%s)", res.XLogData, pgvalue.Plural(res.XLogData, "message", "messages"), why)
	if lastNotice != "" {
		text += "; the server said last: " + lastNotice
	}
	return &Error{"replication stream", text + "; everything received is in the capture", err}
}
