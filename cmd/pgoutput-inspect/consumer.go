package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/consumer"
	"pgoutput-inspector/internal/dump"
)

const consumerUsage = `usage: pgoutput-inspect consumer [options] [FILE|-]

Checks the replication consumers of a packet capture (pcap, pcapng) of their connections:
for each replication connection, every transaction end the server sent (Commit, Stream
Commit, Commit Prepared, and a whole transaction's Stream Abort or Rollback Prepared) and
how long the client took to report it written, flushed and applied in its standby status
updates (the time from the frame that carried the end to the first later status update at
or past its end LSN); the keepalives that asked for a reply and how long the reply took; the
ends never acknowledged; and the anomalies, each with the messages that show it (indexes as
decode numbers them, from 0).

Exit status: 0 when no anomaly was found, 1 when one was (or the input had no replication
stream), 2 for a usage error or a file that cannot be read.
`

// consumerOptions are the consumer command's flags.
type consumerOptions struct {
	json           bool
	svg            string
	senderTimeout  time.Duration
	statusInterval time.Duration
	slowest        int
}

func runConsumer(e *env, args []string) int {
	var o consumerOptions
	fs := flagSet(e, "consumer", consumerUsage, args)
	fs.BoolVar(&o.json, "json", false, "print one JSON document (documented in docs/cli.md) instead of the summary")
	fs.StringVar(&o.svg, "svg", "", "also write the chart of LSN over capture time (WAL sent, written, flushed, applied) of each replication connection to `FILE` (SVG)")
	fs.DurationVar(&o.senderTimeout, "wal-sender-timeout", consumer.DefaultSenderTimeout, "the publisher's wal_sender_timeout the keepalive replies are measured against")
	fs.DurationVar(&o.statusInterval, "status-interval", consumer.DefaultStatusInterval, "the consumer's wal_receiver_status_interval: a longer silence while data flows is an anomaly")
	fs.IntVar(&o.slowest, "slowest", 5, "list the `N` transactions of each connection with the longest flush lag")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if o.senderTimeout <= 0 || o.statusInterval <= 0 || o.slowest < 0 {
		fmt.Fprintln(e.stderr, "pgoutput-inspect consumer: --wal-sender-timeout and --status-interval must be more than 0, --slowest at least 0")
		return exitUsage
	}
	name, in, _, closeInput, ok := openArg(e, "consumer", pos)
	if !ok {
		return exitUsage
	}
	defer closeInput()
	rep, err := dump.Consumers(in, input.Auto, decoder.Options{}, consumer.Settings{SenderTimeout: int64(o.senderTimeout), StatusInterval: int64(o.statusInterval)},
		func(errs []*input.Error) {
			for _, ie := range errs {
				fmt.Fprintf(e.stderr, "pgoutput-inspect consumer: %s: %v\n", displayName(name), ie)
			}
		})
	if err != nil {
		fmt.Fprintf(e.stderr, "pgoutput-inspect consumer: %s: %v\n", displayName(name), err)
		var ie *input.Error
		if errors.As(err, &ie) {
			return exitError
		}
		return exitUsage
	}
	if o.svg != "" {
		if err := os.WriteFile(o.svg, consumer.SVG(rep), 0o644); err != nil {
			fmt.Fprintf(e.stderr, "pgoutput-inspect consumer: --svg: %v\n", err)
			return exitUsage
		}
	}
	w := bufio.NewWriter(e.stdout)
	if o.json {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		err = enc.Encode(consumerJSON(rep, o.slowest))
	} else {
		writeConsumers(w, rep, o.slowest)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(e.stderr, "pgoutput-inspect consumer: writing the output: %v\n", err)
		return exitUsage
	}
	if len(rep.Conns) == 0 {
		if !o.json {
			fmt.Fprintf(e.stderr, "pgoutput-inspect consumer: %s holds no replication stream (XLogData, keepalives or status updates)\n", displayName(name))
		}
		return exitError
	}
	for _, c := range rep.Conns {
		if len(c.Anomalies) > 0 {
			return exitError
		}
	}
	return exitOK
}

// writeConsumers writes the report as text.
func writeConsumers(w io.Writer, r *consumer.Report, slowest int) {
	if !r.Timed && len(r.Conns) > 0 {
		fmt.Fprintln(w, "The input carries no capture times (it is not a packet capture): no lag can be measured.")
	}
	for i, c := range r.Conns {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, connTitle(c))
		commits, aborts := c.Counts()
		fmt.Fprintf(w, "  %s and %s, %s, %s (%d asking for a reply), %s sent up to %s\n",
			pgvalue.Plural(commits, "1 commit", strconv.Itoa(commits)+" commits"), pgvalue.Plural(aborts, "1 abort", strconv.Itoa(aborts)+" aborts"),
			pgvalue.Plural(len(c.Updates), "1 status update", strconv.Itoa(len(c.Updates))+" status updates"),
			pgvalue.Plural(len(c.Keepalives), "1 keepalive", strconv.Itoa(len(c.Keepalives))+" keepalives"), c.AskedReply(),
			pgvalue.Plural(len(c.Data), "1 XLogData", strconv.Itoa(len(c.Data))+" XLogData"), pgvalue.FormatLSN(c.Sent))
		if t := c.CloseText(); t != "" {
			fmt.Fprintf(w, "  %s\n", t)
		}
		if t := c.LostText(); t != "" {
			fmt.Fprintf(w, "  %s\n", t)
		}
		if r.Timed {
			fmt.Fprintf(w, "  %-6s %12s %12s %12s  %s\n", "lag", "acknowledged", "max", "median", "not acknowledged")
			for p := consumer.Write; p <= consumer.Apply; p++ {
				if !c.Reported[p] {
					fmt.Fprintf(w, "  %-6s never reported by this client (always 0)\n", p)
					continue
				}
				s := c.Lags(p)
				fmt.Fprintf(w, "  %-6s %12d %12s %12s  %d\n", p, s.Acked, secs(s.Max, s.Acked), secs(s.Median, s.Acked), s.Unacked)
			}
			if n := c.MaxReply(); n >= 0 {
				fmt.Fprintf(w, "  longest reply to a keepalive that asked: %s (wal_sender_timeout %s)\n", secs(n, 1), secs(r.Settings.SenderTimeout, 1))
			}
		}
		if un := c.Unacknowledged(); len(un) > 0 {
			s := make([]string, len(un))
			for k, i := range un {
				e := c.Ends[i]
				s[k] = e.Kind + " " + pgvalue.FormatLSN(e.LSN) + " (message " + strconv.Itoa(e.Msg) + ")"
			}
			fmt.Fprintf(w, "  never acknowledged flushed: %s\n", strings.Join(s, ", "))
		}
		if len(c.Anomalies) == 0 {
			fmt.Fprintln(w, "  anomalies: none")
		} else {
			fmt.Fprintln(w, "  anomalies:")
			for _, a := range c.Anomalies {
				fmt.Fprintf(w, "    %s (%s): %s\n", a.Kind, messageList(a.Msgs), a.Text)
			}
		}
		if r.Timed && slowest > 0 && len(c.Ends) > 0 {
			fmt.Fprintln(w, "  slowest to flush:")
			for _, i := range c.Slowest(slowest) {
				e := c.Ends[i]
				fmt.Fprintf(w, "    message %d, %s %s: write %s, flush %s, apply %s\n", e.Msg, e.Kind, pgvalue.FormatLSN(e.LSN),
					ackText(c, e, consumer.Write), ackText(c, e, consumer.Flush), ackText(c, e, consumer.Apply))
			}
		}
	}
	if len(r.Conns) == 0 {
		fmt.Fprintln(w, "No replication stream: no XLogData, keepalive or status update.")
	}
}

// connTitle names a connection: its number, slot, client and start.
func connTitle(c *consumer.Conn) string {
	s := "connection " + strconv.Itoa(c.Number)
	if c.Number == 0 {
		s = "the messages of no connection"
	}
	if c.Slot != "" {
		s += ", slot " + pgvalue.SafeText(c.Slot)
	}
	if c.Application != "" {
		s += ", application_name " + pgvalue.SafeText(c.Application)
	}
	if c.Start != 0 {
		s += ", started at " + pgvalue.FormatLSN(c.Start)
	}
	if c.First != 0 {
		s += ", " + secs(c.Last-c.First, 1) + " of stream"
	}
	return s
}

func ackText(c *consumer.Conn, e consumer.End, p consumer.Position) string {
	switch {
	case !c.Reported[p]:
		return "not reported"
	case p == consumer.Apply && !e.NeedsApply:
		return "none needed"
	case e.Acks[p].Update < 0:
		return "never"
	}
	return secs(e.Acks[p].Lag, 1) + " (message " + strconv.Itoa(c.Updates[e.Acks[p].Update].Msg) + ")"
}

func messageList(msgs []int) string {
	s := make([]string, len(msgs))
	for i, m := range msgs {
		s[i] = strconv.Itoa(m)
	}
	return pgvalue.Plural(len(msgs), "message ", "messages ") + strings.Join(s, ", ")
}

// secs writes ns as seconds with three decimals, or "-" when there were no figures (n is 0).
func secs(ns int64, n int) string {
	if n == 0 {
		return "-"
	}
	return consumer.Seconds(ns)
}

// The JSON document of consumer --json (docs/cli.md).
type consumerDoc struct {
	Timed            bool           `json:"timed"`
	WalSenderTimeout float64        `json:"wal_sender_timeout_seconds"`
	StatusInterval   float64        `json:"status_interval_seconds"`
	Connections      []consumerConn `json:"connections"`
}

type consumerConn struct {
	Connection         int               `json:"connection"`
	Slot               string            `json:"slot,omitempty"`
	ApplicationName    string            `json:"application_name,omitempty"`
	StartLSN           string            `json:"start_lsn,omitempty"`
	DurationSeconds    float64           `json:"duration_seconds"`
	SentLSN            string            `json:"sent_lsn"`
	XLogData           int               `json:"xlogdata"`
	Commits            int               `json:"commits"`
	Aborts             int               `json:"aborts"`
	StatusUpdates      int               `json:"status_updates"`
	Keepalives         int               `json:"keepalives"`
	KeepalivesAsking   int               `json:"keepalives_reply_requested"`
	MaxReplySeconds    *float64          `json:"max_reply_seconds"`
	MaxWriteLag        *float64          `json:"max_write_lag_seconds"`
	MaxFlushLag        *float64          `json:"max_flush_lag_seconds"`
	MaxApplyLag        *float64          `json:"max_apply_lag_seconds"`
	MedianWriteLag     *float64          `json:"median_write_lag_seconds"`
	MedianFlushLag     *float64          `json:"median_flush_lag_seconds"`
	MedianApplyLag     *float64          `json:"median_apply_lag_seconds"`
	Unacknowledged     int               `json:"unacknowledged_commits"`
	UnacknowledgedEnds []consumerEnd     `json:"unacknowledged"`
	Anomalies          []consumerAnomaly `json:"anomalies"`
	Slowest            []consumerEnd     `json:"slowest"`
	Close              *consumerClose    `json:"close,omitempty"`
	LostBytes          int               `json:"lost_bytes"`
}

// consumerClose is how the TCP connection ended: the first FIN or RST.
type consumerClose struct {
	By                 string   `json:"by"`
	Frame              int      `json:"frame"`
	Time               string   `json:"time,omitempty"`
	Reset              bool     `json:"reset"`
	AfterClientSeconds *float64 `json:"after_client_seconds,omitempty"`
}

type consumerEnd struct {
	Message  int      `json:"message"`
	Kind     string   `json:"kind"`
	LSN      string   `json:"lsn"`
	WriteLag *float64 `json:"write_lag_seconds"`
	FlushLag *float64 `json:"flush_lag_seconds"`
	ApplyLag *float64 `json:"apply_lag_seconds"`
}

type consumerAnomaly struct {
	Kind     string `json:"kind"`
	Messages []int  `json:"messages"`
	Text     string `json:"text"`
}

func consumerJSON(r *consumer.Report, slowest int) consumerDoc {
	d := consumerDoc{Timed: r.Timed, WalSenderTimeout: float64(r.Settings.SenderTimeout) / 1e9,
		StatusInterval: float64(r.Settings.StatusInterval) / 1e9, Connections: []consumerConn{}}
	for _, c := range r.Conns {
		commits, aborts := c.Counts()
		j := consumerConn{Connection: c.Number, Slot: c.Slot, ApplicationName: c.Application,
			DurationSeconds: float64(c.Last-c.First) / 1e9, SentLSN: pgvalue.FormatLSN(c.Sent), XLogData: len(c.Data),
			Commits: commits, Aborts: aborts, StatusUpdates: len(c.Updates), Keepalives: len(c.Keepalives),
			KeepalivesAsking: c.AskedReply(), LostBytes: c.Lost, UnacknowledgedEnds: []consumerEnd{}, Anomalies: []consumerAnomaly{}, Slowest: []consumerEnd{}}
		if c.Start != 0 {
			j.StartLSN = pgvalue.FormatLSN(c.Start)
		}
		if c.Close.Frame > 0 {
			j.Close = &consumerClose{By: "client", Frame: c.Close.Frame, Reset: c.Close.Reset}
			if c.Close.By == decoder.Backend {
				j.Close.By = "server"
			}
			if c.Close.Time != 0 {
				j.Close.Time = string(pgvalue.AppendUnixNano(nil, c.Close.Time))
				if c.LastClient >= 0 && c.LastClientTime != 0 {
					j.Close.AfterClientSeconds = seconds(c.Close.Time - c.LastClientTime)
				}
			}
		}
		if n := c.MaxReply(); n >= 0 && r.Timed {
			j.MaxReplySeconds = seconds(n)
		}
		if r.Timed {
			figures := [...][2]**float64{{&j.MaxWriteLag, &j.MedianWriteLag}, {&j.MaxFlushLag, &j.MedianFlushLag}, {&j.MaxApplyLag, &j.MedianApplyLag}}
			for p := consumer.Write; p <= consumer.Apply; p++ {
				if s := c.Lags(p); c.Reported[p] && s.Acked > 0 {
					*figures[p][0], *figures[p][1] = seconds(s.Max), seconds(s.Median)
				}
			}
		}
		for _, e := range c.Ends {
			if e.Acks[consumer.Flush].Update < 0 {
				j.Unacknowledged++
				j.UnacknowledgedEnds = append(j.UnacknowledgedEnds, endJSON(c, e, r.Timed))
			}
		}
		for _, a := range c.Anomalies {
			j.Anomalies = append(j.Anomalies, consumerAnomaly{Kind: string(a.Kind), Messages: a.Msgs, Text: a.Text})
		}
		if r.Timed {
			for _, i := range c.Slowest(slowest) {
				j.Slowest = append(j.Slowest, endJSON(c, c.Ends[i], true))
			}
		}
		d.Connections = append(d.Connections, j)
	}
	return d
}

func endJSON(c *consumer.Conn, e consumer.End, timed bool) consumerEnd {
	j := consumerEnd{Message: e.Msg, Kind: e.Kind, LSN: pgvalue.FormatLSN(e.LSN)}
	if timed {
		for p, to := range [...]**float64{&j.WriteLag, &j.FlushLag, &j.ApplyLag} {
			if a := e.Acks[p]; a.Update >= 0 {
				*to = seconds(a.Lag)
			}
		}
	}
	return j
}

// seconds returns ns in seconds, to the microsecond, for JSON.
func seconds(ns int64) *float64 {
	v := float64(ns/1e3) / 1e6
	return &v
}
