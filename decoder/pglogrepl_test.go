package decoder

import (
	"fmt"
	"pgoutput-inspector/decoder/pgvalue"
	"strconv"
	"testing"

	"github.com/jackc/pglogrepl"
)

// xlogPayload returns the pgoutput message inside an XLogData capture line, or nil for a keepalive.
func xlogPayload(b []byte) []byte {
	if len(b) > 25 && b[0] == 'w' {
		return b[25:]
	}
	return nil
}

// diffKeys names, in wire order, the fields that pglogrepl also decodes; the differential test
// compares both decoders' values of these fields, one line per field.
var diffKeys = map[FieldID]string{
	FieldStreamXid:     "Xid",
	FieldBeginFinalLSN: "FinalLSN", FieldBeginCommitTime: "CommitTime", FieldBeginXid: "Xid",
	FieldMessageFlags: "Transactional", FieldMessageLSN: "LSN", FieldMessagePrefix: "Prefix", FieldMessageContent: "Content",
	FieldCommitFlags: "Flags", FieldCommitLSN: "CommitLSN", FieldCommitEndLSN: "EndLSN", FieldCommitTime: "CommitTime",
	FieldOriginLSN: "CommitLSN", FieldOriginName: "Name",
	FieldRelationOID: "RelationID", FieldRelationNamespace: "Namespace", FieldRelationName: "RelationName",
	FieldRelationReplicaIdentity: "ReplicaIdentity", FieldRelationColumnCount: "ColumnNum",
	FieldRelationColumnFlags: "Flags", FieldRelationColumnName: "Name", FieldRelationColumnTypeOID: "DataType",
	FieldRelationColumnTypeModifier: "TypeModifier",
	FieldTypeOID:                    "DataType", FieldTypeNamespace: "Namespace", FieldTypeName: "Name",
	FieldInsertRelationOID: "RelationID", FieldUpdateRelationOID: "RelationID", FieldDeleteRelationOID: "RelationID",
	FieldUpdateOld: "OldTupleType", FieldDeleteOld: "OldTupleType",
	FieldTupleColumnCount: "ColumnNum", FieldColumnKind: "DataType", FieldColumnLength: "Length", FieldColumnValue: "Data",
	FieldTruncateRelationCount: "RelationNum", FieldTruncateOptions: "Option", FieldTruncateRelationOID: "RelationID",
	FieldStreamStartXid: "Xid", FieldStreamStartFirst: "FirstSegment",
	FieldStreamCommitXid: "Xid", FieldStreamCommitFlags: "Flags", FieldStreamCommitLSN: "CommitLSN",
	FieldStreamCommitEndLSN: "EndLSN", FieldStreamCommitTime: "CommitTime",
	FieldStreamAbortXid: "Xid", FieldStreamAbortSubXid: "SubXid",
}

// ours lists the message's fields that pglogrepl also decodes, as "Key=value" lines.
func ours(tr *Tree) []string {
	var out []string
	m := &tr.Nodes[tr.Message]
	for i := tr.Message; i < int(m.End); i++ {
		n := &tr.Nodes[i]
		key, ok := diffKeys[n.Field]
		if !ok {
			continue
		}
		var v string
		val := tr.ValueOf(i)
		switch val.Kind {
		case ValueTime:
			v = strconv.FormatInt(int64(val.Num)+pgEpochUnix*1e6, 10)
		case ValueLSN:
			v = pgvalue.FormatLSN(val.Num)
		case ValueInt:
			v = strconv.FormatInt(int64(val.Num), 10)
		case ValueString, ValueBytes, ValueColumn:
			v = strconv.Quote(string(tr.ValueBytes(i)))
		default:
			v = strconv.FormatUint(val.Num, 10)
		}
		if n.Field == FieldMessageFlags {
			v = strconv.FormatBool(val.Num == 1)
		}
		out = append(out, key+"="+v)
	}
	return out
}

// theirs lists the same fields as pglogrepl decoded them.
func theirs(msg pglogrepl.Message, inStream bool) []string {
	var out []string
	add := func(k string, v any) {
		switch v := v.(type) {
		case pglogrepl.LSN:
			out = append(out, k+"="+v.String())
		case string:
			out = append(out, k+"="+strconv.Quote(v))
		case []byte:
			out = append(out, k+"="+strconv.Quote(string(v)))
		default:
			out = append(out, fmt.Sprintf("%s=%v", k, v))
		}
	}
	tuple := func(td *pglogrepl.TupleData) {
		add("ColumnNum", td.ColumnNum)
		for _, c := range td.Columns {
			add("DataType", c.DataType)
			if c.DataType == 't' || c.DataType == 'b' {
				add("Length", c.Length)
				add("Data", c.Data)
			}
		}
	}
	xid := func(x pglogrepl.InStreamMessageV2WithXid) {
		if inStream {
			add("Xid", x.Xid)
		}
	}
	switch m := msg.(type) {
	case *pglogrepl.BeginMessage:
		add("FinalLSN", m.FinalLSN)
		add("CommitTime", m.CommitTime.UnixMicro())
		add("Xid", m.Xid)
	case *pglogrepl.CommitMessage:
		add("Flags", m.Flags)
		add("CommitLSN", m.CommitLSN)
		add("EndLSN", m.TransactionEndLSN)
		add("CommitTime", m.CommitTime.UnixMicro())
	case *pglogrepl.OriginMessage:
		add("CommitLSN", m.CommitLSN)
		add("Name", m.Name)
	case *pglogrepl.LogicalDecodingMessageV2:
		xid(m.InStreamMessageV2WithXid)
		add("Transactional", m.Transactional)
		add("LSN", m.LSN)
		add("Prefix", m.Prefix)
		add("Content", m.Content)
	case *pglogrepl.RelationMessageV2:
		xid(m.InStreamMessageV2WithXid)
		add("RelationID", m.RelationID)
		add("Namespace", m.Namespace)
		add("RelationName", m.RelationName)
		add("ReplicaIdentity", m.ReplicaIdentity)
		add("ColumnNum", m.ColumnNum)
		for _, c := range m.Columns {
			add("Flags", c.Flags)
			add("Name", c.Name)
			add("DataType", c.DataType)
			add("TypeModifier", c.TypeModifier)
		}
	case *pglogrepl.TypeMessageV2:
		xid(m.InStreamMessageV2WithXid)
		add("DataType", m.DataType)
		add("Namespace", m.Namespace)
		add("Name", m.Name)
	case *pglogrepl.InsertMessageV2:
		xid(m.InStreamMessageV2WithXid)
		add("RelationID", m.RelationID)
		tuple(m.Tuple)
	case *pglogrepl.UpdateMessageV2:
		xid(m.InStreamMessageV2WithXid)
		add("RelationID", m.RelationID)
		if m.OldTupleType != 0 {
			add("OldTupleType", m.OldTupleType)
			tuple(m.OldTuple)
		}
		tuple(m.NewTuple)
	case *pglogrepl.DeleteMessageV2:
		xid(m.InStreamMessageV2WithXid)
		add("RelationID", m.RelationID)
		add("OldTupleType", m.OldTupleType)
		tuple(m.OldTuple)
	case *pglogrepl.TruncateMessageV2:
		xid(m.InStreamMessageV2WithXid)
		add("RelationNum", m.RelationNum)
		add("Option", m.Option)
		for _, id := range m.RelationIDs {
			add("RelationID", id)
		}
	case *pglogrepl.StreamStartMessageV2:
		add("Xid", m.Xid)
		add("FirstSegment", m.FirstSegment)
	case *pglogrepl.StreamStopMessageV2:
	case *pglogrepl.StreamCommitMessageV2:
		add("Xid", m.Xid)
		add("Flags", m.Flags)
		add("CommitLSN", m.CommitLSN)
		add("EndLSN", m.TransactionEndLSN)
		add("CommitTime", m.CommitTime.UnixMicro())
	case *pglogrepl.StreamAbortMessageV2:
		add("Xid", m.Xid)
		add("SubXid", m.SubXid)
	default:
		out = append(out, fmt.Sprintf("unexpected %T", msg))
	}
	return out
}

// TestCorpusAgainstPglogrepl decodes every message of the real captures with both decoders and
// requires every field both decode to agree. pglogrepl lacks the two-phase messages and the
// parallel Stream Abort fields: those are checked by TestCorpus.
func TestCorpusAgainstPglogrepl(t *testing.T) {
	corpus := corpusPayloads(t)
	if len(corpus) == 0 {
		t.Fatal("no capture under testdata/corpus")
	}
	for file, msgs := range corpus {
		s := NewSession(Options{Envelope: EnvelopeNone})
		inStream := false
		compared := 0
		for i, b := range msgs {
			p := xlogPayload(b)
			if p == nil {
				continue
			}
			tr := s.Decode(p)
			if tr.Err != nil {
				t.Fatalf("%s message %d: %v", file, i, tr.Err)
			}
			if mt, _ := LookupMessage(p[0]); tr.Reading.InStream != (inStream && mt.StreamXid) {
				t.Errorf("%s message %d (%c): read in-stream=%v, stream says %v", file, i, p[0], tr.Reading.InStream, inStream)
			}
			msg, err := pglogrepl.ParseV2(p, inStream)
			switch p[0] {
			case 'S':
				inStream = true
			case 'E':
				inStream = false
			}
			if err != nil {
				if mt, ok := LookupMessage(p[0]); ok && mt.Proto < 3 {
					t.Errorf("%s message %d (%c): pglogrepl: %v", file, i, p[0], err)
				}
				continue
			}
			got, want := ours(tr), theirs(msg, tr.Reading.InStream)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s message %d (%c):\n ours %v\ntheirs %v", file, i, p[0], got, want)
			}
			compared++
		}
		t.Logf("%s: %d messages compared with pglogrepl", file, compared)
	}
}
