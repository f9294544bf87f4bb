package decoder

import (
	"encoding/binary"
	"pgoutput-inspector/decoder/pgvalue"
	"strconv"
	"strings"
	"testing"
)

// TestCorpus decodes every capture as a stream, envelopes included, with no option but the
// protocol version the capture asked for: every message decodes, every byte is annotated
// exactly once, every message type appears, and the fields pglogrepl cannot check (two-phase
// messages, the parallel Stream Abort) agree with the envelope and with each other.
func TestCorpus(t *testing.T) {
	caps := corpusCaptures(t)
	if len(caps) == 0 {
		t.Fatal("no capture under testdata/corpus")
	}
	seen := map[byte]int{}
	for file, c := range caps {
		opts := c.header["options"]
		proto := 0
		for _, kv := range strings.Fields(opts) {
			if v, ok := strings.CutPrefix(kv, "proto_version="); ok {
				proto, _ = strconv.Atoi(v)
			}
		}
		parallel := strings.Contains(opts, "streaming=parallel")
		if proto == 0 {
			t.Fatalf("%s: no proto_version in the header %q", file, opts)
		}
		s := NewSession(Options{Proto: proto})
		prepared := map[uint32]string{} // xid -> GID of Begin Prepare
		streams := map[uint32]bool{}    // xids seen in Stream Start
		for i, b := range c.msgs {
			tr := s.Decode(b)
			if tr.Err != nil {
				t.Fatalf("%s message %d: %v\n%s", file, i, tr.Err, dump(tr))
			}
			checkTiling(t, tr)
			if b[0] == 'k' {
				continue
			}
			if tr.Reading.Envelope != 'w' || tr.Message < 0 {
				t.Fatalf("%s message %d: not read as XLogData: %+v", file, i, tr.Reading)
			}
			seen[tr.Type]++
			if tr.Reading.Guessed && tr.Type != 'A' {
				t.Errorf("%s message %d (%c): guessed although the stream gives the context: %s", file, i, tr.Type, tr.Reading.Note)
			}
			xlogStart := binary.BigEndian.Uint64(b[1:9])
			get := func(f FieldID) uint64 {
				for j := tr.Message; j < int(tr.Nodes[tr.Message].End); j++ {
					if tr.Nodes[j].Field == f {
						return tr.ValueOf(j).Num
					}
				}
				t.Fatalf("%s message %d: no %s", file, i, f)
				return 0
			}
			gidOf := func(f FieldID) string {
				for j := tr.Message; j < int(tr.Nodes[tr.Message].End); j++ {
					if tr.Nodes[j].Field == f {
						return string(tr.ValueBytes(j))
					}
				}
				return ""
			}
			switch tr.Type {
			case 'S':
				streams[uint32(get(FieldStreamStartXid))] = true
			case 'A':
				if tr.Reading.ParallelAbort != parallel {
					t.Errorf("%s message %d: Stream Abort read parallel=%v, capture has streaming=parallel %v", file, i, tr.Reading.ParallelAbort, parallel)
				}
				if !streams[uint32(get(FieldStreamAbortXid))] {
					t.Errorf("%s message %d: Stream Abort of an xid never streamed", file, i)
				}
				if parallel && get(FieldStreamAbortLSN) == 0 {
					t.Errorf("%s message %d: parallel Stream Abort with abort LSN 0", file, i)
				}
			case 'b':
				prepared[uint32(get(FieldBeginPrepareXid))] = gidOf(FieldBeginPrepareGID)
			case 'P':
				// The walsender sends P at the prepared transaction's end LSN.
				if get(FieldPrepareEndLSN) != xlogStart {
					t.Errorf("%s message %d: Prepare end LSN %s, XLogData at %s", file, i, pgvalue.FormatLSN(get(FieldPrepareEndLSN)), pgvalue.FormatLSN(xlogStart))
				}
				if g, ok := prepared[uint32(get(FieldPrepareXid))]; !ok || g != gidOf(FieldPrepareGID) {
					t.Errorf("%s message %d: Prepare of xid %d, GID %q, without its Begin Prepare", file, i, get(FieldPrepareXid), gidOf(FieldPrepareGID))
				}
			case 'p':
				if !streams[uint32(get(FieldStreamPrepareXid))] {
					t.Errorf("%s message %d: Stream Prepare of an xid never streamed", file, i)
				}
				prepared[uint32(get(FieldStreamPrepareXid))] = gidOf(FieldStreamPrepareGID)
			case 'K':
				if get(FieldCommitPreparedEndLSN) != xlogStart {
					t.Errorf("%s message %d: Commit Prepared end LSN %s, XLogData at %s", file, i, pgvalue.FormatLSN(get(FieldCommitPreparedEndLSN)), pgvalue.FormatLSN(xlogStart))
				}
				if g, ok := prepared[uint32(get(FieldCommitPreparedXid))]; !ok || g != gidOf(FieldCommitPreparedGID) {
					t.Errorf("%s message %d: Commit Prepared of a transaction not prepared in this capture", file, i)
				}
			case 'r':
				if get(FieldRollbackPreparedEndLSN) != xlogStart {
					t.Errorf("%s message %d: Rollback Prepared end LSN %s, XLogData at %s", file, i, pgvalue.FormatLSN(get(FieldRollbackPreparedEndLSN)), pgvalue.FormatLSN(xlogStart))
				}
				if get(FieldRollbackPreparedPrepareEndLSN) >= get(FieldRollbackPreparedEndLSN) {
					t.Errorf("%s message %d: prepare end LSN not before rollback end LSN", file, i)
				}
				if _, ok := prepared[uint32(get(FieldRollbackPreparedXid))]; !ok {
					t.Errorf("%s message %d: Rollback Prepared of a transaction not prepared in this capture", file, i)
				}
			case 'I', 'U', 'D':
				if tr.Relation == nil {
					t.Errorf("%s message %d (%c): relation %d not known", file, i, tr.Type, tr.MissingRelation)
				}
			}
		}
	}
	for _, typ := range []byte("BMCORYIUDTSEcAbPKrp") {
		if seen[typ] == 0 {
			t.Errorf("no %q (%s) message in the corpus", typ, MessageName(typ))
		}
	}
}
