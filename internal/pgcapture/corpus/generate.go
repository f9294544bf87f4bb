package corpus

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"pgoutput-inspector/internal/pgcapture"
)

// Publications are the publications the workload's setup creates.
var Publications = []string{"pub_all", "pub_insert_only"}

// Variant is one capture of the workload: a name used in the file name and the options.
type Variant struct {
	Name   string
	Config pgcapture.Config
	// About says in a few words what the variant is for.
	About string
}

// Variants returns the captures recorded for a server of the given major version. Each uses
// the highest proto_version the server supports and messages=true (the end marker is a
// message); two_phase is on from PostgreSQL 15.
func Variants(major int) []Variant {
	base := pgcapture.Config{
		ProtoVersion: pgcapture.MaxProtoVersion(major),
		Publications: Publications,
		Messages:     true,
		Streaming:    "on",
		TwoPhase:     major >= 15,
	}
	text := base
	binary := base
	binary.Binary = true
	if major < 16 {
		return []Variant{
			{"text", text, "text values, streaming=on"},
			{"binary", binary, "binary values, streaming=on"},
		}
	}
	text.Origin = "any"
	binary.Streaming = "parallel"
	immediate := base
	immediate.Streaming = "parallel"
	immediate.RuntimeParams = map[string]string{"debug_logical_replication_streaming": "immediate"}
	return []Variant{
		{"text", text, "text values, streaming=on, origin=any"},
		{"binary-parallel", binary, "binary values, streaming=parallel (Stream Abort with abort LSN and time)"},
		{"text-immediate", immediate, "text values, streaming=parallel, walsender with debug_logical_replication_streaming=immediate: every transaction streams"},
	}
}

// OLTPPublications are the publications oltp.sql's setup creates.
var OLTPPublications = []string{"pub_oltp"}

// OLTPVariants returns the captures of scripts/corpus/oltp.sql (many short transactions of one
// small row each, as an OLTP workload makes) recorded for a server of the given major version:
// text values on PostgreSQL 14, binary values on 18, no streaming (no transaction is large
// enough), none on the other versions.
func OLTPVariants(major int) []Variant {
	cfg := pgcapture.Config{
		ProtoVersion: pgcapture.MaxProtoVersion(major),
		Publications: OLTPPublications,
		Messages:     true, // for the end marker
	}
	switch major {
	case 14:
		return []Variant{{"oltp", cfg, "many short transactions of one small row (OLTP), text values"}}
	case 18:
		cfg.Binary = true
		return []Variant{{"oltp-binary", cfg, "many short transactions of one small row (OLTP), binary values"}}
	}
	return nil
}

// Capture is one finished capture.
type Capture struct {
	Variant Variant
	Result  pgcapture.Result
	// Data is the capture file.
	Data []byte
}

// Run sets the workload's schema up on the server behind connString, starts one capture per
// variant, runs the workload steps and returns the captures once every one of them has
// received the end marker.
func Run(ctx context.Context, connString string, w *Workload, variants []Variant) ([]Capture, error) {
	conn, err := pgconn.Connect(ctx, connString)
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.Background())
	major := serverMajor(conn.ParameterStatus("server_version"))
	if err := w.RunSetup(ctx, conn, major); err != nil {
		return nil, err
	}

	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	captures := make([]Capture, len(variants))
	errs := make([]error, len(variants))
	var ready, done sync.WaitGroup
	for i, v := range variants {
		cfg := v.Config
		cfg.ConnString = connString
		// A safety net: the end marker normally arrives within seconds.
		cfg.Duration = 5 * time.Minute
		cfg.Stop = isEndMarker
		var once sync.Once
		cfg.Ready = func(pgcapture.Result) { once.Do(ready.Done) }
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			defer once.Do(ready.Done)
			var buf bytes.Buffer
			res, err := pgcapture.Capture(cctx, cfg, &buf)
			if err == nil && res.Reason != pgcapture.StoppedCondition {
				err = fmt.Errorf("capture stopped (%s) before the end marker arrived", res.Reason)
			}
			captures[i] = Capture{Variant: v, Result: res, Data: buf.Bytes()}
			if err != nil {
				errs[i] = fmt.Errorf("capture %s: %w", v.Name, err)
				cancel()
			}
		}()
	}
	ready.Wait()
	if err := errors.Join(errs...); err != nil {
		done.Wait()
		return nil, err
	}
	monitor, err := pgconn.Connect(ctx, connString)
	if err != nil {
		cancel()
		done.Wait()
		return nil, err
	}
	defer monitor.Close(context.Background())
	runErr := w.RunSteps(cctx, conn, monitor, major)
	if runErr != nil {
		cancel()
	}
	done.Wait()
	if err := errors.Join(append([]error{runErr}, errs...)...); err != nil {
		return nil, err
	}
	return captures, nil
}

// isEndMarker reports whether p carries the message emitted after the workload.
func isEndMarker(p pgcapture.Payload) bool {
	m := p.Message()
	return len(m) > 0 && m[0] == 'M' && bytes.Contains(m, []byte(EndMarkerPrefix+"\x00"))
}

func serverMajor(v string) int {
	n := 0
	for _, c := range v {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// TypeOrder lists the pgoutput message types in the order the docs present them; reports
// and tests use it.
const TypeOrder = "BMCORYIUDTSEcAbPKrp"

// Expected returns the pgoutput message types every capture of the workload must contain on
// a server of that major version with the variant's options.
func Expected(major int, v Variant) string {
	if strings.HasPrefix(v.Name, "oltp") {
		return "BCRIUD"
	}
	want := "BMCORYIUDTSEcA"
	if v.Config.TwoPhase && major >= 15 {
		want += "bPKrp"
	}
	if v.Config.RuntimeParams["debug_logical_replication_streaming"] == "immediate" {
		// Every transaction streams: no Begin, Commit, Begin Prepare or Prepare.
		want = strings.NewReplacer("B", "", "C", "", "b", "", "P", "").Replace(want)
	}
	return want
}

// Missing returns the types of want that counts lacks.
func Missing(want string, counts pgcapture.Counts) string {
	var missing strings.Builder
	for i := 0; i < len(want); i++ {
		if counts.ByType[want[i]] == 0 {
			missing.WriteByte(want[i])
		}
	}
	return missing.String()
}
