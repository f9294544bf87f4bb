package export

import (
	"bytes"
	"errors"
	"strconv"
	"strings"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
)

// pglogreplTypes are the message types github.com/jackc/pglogrepl's ParseV2 decodes, and
// pglogreplTypeNames the types it returns for them, in the same order. pglogrepl decodes
// protocol 1 and 2 messages only: not the two-phase messages.
const pglogreplTypes = "BCOMRYIUDTSEcA"

var pglogreplTypeNames = [len(pglogreplTypes)]string{"BeginMessage", "CommitMessage", "OriginMessage",
	"LogicalDecodingMessageV2", "RelationMessageV2", "TypeMessageV2", "InsertMessageV2", "UpdateMessageV2",
	"DeleteMessageV2", "TruncateMessageV2", "StreamStartMessageV2", "StreamStopMessageV2",
	"StreamCommitMessageV2", "StreamAbortMessageV2"}

// pglogreplFields names, by field, the Go field pglogrepl decodes it into (inside the message,
// a Relation message's column, a tuple's column). Fields not here pglogrepl does not keep: the
// type byte, a logical message's content length, the tuple markers other than the old one, a
// parallel Stream Abort's LSN and timestamp. (A list, not a map: a map literal is code in
// main.wasm, a list of constants is data.)
// size: docs/performance.md, "Size tricks".
var pglogreplFields = [...]struct {
	field decoder.FieldID
	name  string
}{
	{decoder.FieldStreamXid, "Xid"},
	{decoder.FieldBeginFinalLSN, "FinalLSN"}, {decoder.FieldBeginCommitTime, "CommitTime"}, {decoder.FieldBeginXid, "Xid"},
	{decoder.FieldMessageFlags, "Transactional"}, {decoder.FieldMessageLSN, "LSN"}, {decoder.FieldMessagePrefix, "Prefix"},
	{decoder.FieldMessageContent, "Content"},
	{decoder.FieldCommitFlags, "Flags"}, {decoder.FieldCommitLSN, "CommitLSN"}, {decoder.FieldCommitEndLSN, "TransactionEndLSN"},
	{decoder.FieldCommitTime, "CommitTime"},
	{decoder.FieldOriginLSN, "CommitLSN"}, {decoder.FieldOriginName, "Name"},
	{decoder.FieldRelationOID, "RelationID"}, {decoder.FieldRelationNamespace, "Namespace"},
	{decoder.FieldRelationName, "RelationName"}, {decoder.FieldRelationReplicaIdentity, "ReplicaIdentity"},
	{decoder.FieldRelationColumnCount, "ColumnNum"},
	{decoder.FieldRelationColumnFlags, "Flags"}, {decoder.FieldRelationColumnName, "Name"},
	{decoder.FieldRelationColumnTypeOID, "DataType"}, {decoder.FieldRelationColumnTypeModifier, "TypeModifier"},
	{decoder.FieldTypeOID, "DataType"}, {decoder.FieldTypeNamespace, "Namespace"}, {decoder.FieldTypeName, "Name"},
	{decoder.FieldInsertRelationOID, "RelationID"}, {decoder.FieldUpdateRelationOID, "RelationID"},
	{decoder.FieldDeleteRelationOID, "RelationID"},
	{decoder.FieldUpdateOld, "OldTupleType"}, {decoder.FieldDeleteOld, "OldTupleType"},
	{decoder.FieldTupleColumnCount, "ColumnNum"}, {decoder.FieldColumnKind, "DataType"},
	{decoder.FieldColumnLength, "Length"}, {decoder.FieldColumnValue, "Data"},
	{decoder.FieldTruncateRelationCount, "RelationNum"}, {decoder.FieldTruncateOptions, "Option"},
	{decoder.FieldTruncateRelationOID, "RelationIDs"},
	{decoder.FieldStreamStartXid, "Xid"}, {decoder.FieldStreamStartFirst, "FirstSegment"},
	{decoder.FieldStreamCommitXid, "Xid"}, {decoder.FieldStreamCommitFlags, "Flags"},
	{decoder.FieldStreamCommitLSN, "CommitLSN"}, {decoder.FieldStreamCommitEndLSN, "TransactionEndLSN"},
	{decoder.FieldStreamCommitTime, "CommitTime"},
	{decoder.FieldStreamAbortXid, "Xid"}, {decoder.FieldStreamAbortSubXid, "SubXid"},
}

// pglogreplField returns the name pglogrepl gives field f, or "".
func pglogreplField(f decoder.FieldID) string {
	for _, p := range pglogreplFields {
		if p.field == f {
			return p.name
		}
	}
	return ""
}

// Why a message has no Go test.
var (
	ErrNoMessage      = errors.New("no pgoutput message to test (an envelope alone)")
	ErrDecodeError    = errors.New("the message did not decode without error: pglogrepl would fail on it, or panic")
	ErrNotInPglogrepl = errors.New("pglogrepl does not decode this message type")
)

// pgEpochUnixMicro is the PostgreSQL epoch, 2000-01-01 00:00:00 UTC, in microseconds since the
// Unix epoch: pglogrepl's times are time.Unix(0, 1000 × (this + the wire's microseconds)).
const pgEpochUnixMicro = 946684800 * 1000000

// The test is written from these templates, in which $1 to $4 stand for fill's arguments.
// (Templates are data in main.wasm; the appends that would write them are code, 4 times larger.)
const (
	headTemplate = "package pgoutput_test\n\nimport (\n\t\"testing\"\n\n\t\"github.com/jackc/pglogrepl\"\n)\n\n" +
		"// Test$1 feeds $2 to pglogrepl\n// and checks what it decodes against what the pgoutput inspector decoded.\n" +
		"func Test$1(t *testing.T) {\n\tdata := $3\n\tmsg, err := pglogrepl.ParseV2(data, $4)\n" +
		"\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n"
	typeTemplate   = "\t$1, ok := msg.(*pglogrepl.$2)\n\tif !ok {\n\t\tt.Fatalf(\"ParseV2 returned %T, want *pglogrepl.$2\", msg)\n\t}\n"
	notNilTemplate = "\tif m.$1 == nil {\n\t\tt.Fatal(\"$1 is nil\")\n\t}\n"
	lenTemplate    = "\tif got := len(m.$1); got != $2 {\n\t\tt.Fatalf(\"len($1) = %d, want $2\", got)\n\t}\n"
	checkTemplate  = "\tif got := $1; got != $2 {\n\t\tt.Errorf(\"$3 = $4, want $4\", got, $2)\n\t}\n"
	timeTemplate   = "\t// $1\n"
	columnTemplate = "\t// column $1$2\n"
)

// fill appends template with $1 to $4 replaced by args.
func fill(dst []byte, template string, args ...string) []byte {
	for i := 0; i < len(template); i++ {
		c := template[i]
		if c == '$' && i+1 < len(template) && template[i+1] >= '1' && int(template[i+1]-'1') < len(args) {
			dst = append(dst, args[template[i+1]-'1']...)
			i++
			continue
		}
		dst = append(dst, c)
	}
	return dst
}

// AppendGoTest appends a Go test file (package pgoutput_test) whose one test, Test+name, feeds
// the pgoutput message in t (without its envelope) to pglogrepl.ParseV2, with inStream as the
// decoder read it, and asserts every value pglogrepl decodes: the message type, its fields,
// each tuple column's kind, length and bytes. about says in the test's comment where the
// message came from. It returns an error, and dst unchanged, for a message pglogrepl does not
// decode or that has a decode error.
func AppendGoTest(dst []byte, t *decoder.Tree, name, about string) ([]byte, error) {
	if t.Message < 0 || t.Message >= len(t.Nodes) || t.Type == 0 {
		return dst, ErrNoMessage
	}
	if t.Err != nil {
		return dst, ErrDecodeError
	}
	k := strings.IndexByte(pglogreplTypes, t.Type)
	if k < 0 {
		return dst, ErrNotInPglogrepl
	}
	msg := &t.Nodes[t.Message]

	// The assertions first: the message's variable is declared only when one uses it.
	var body []byte
	tuple := "" // the tuple the columns belong to: "Tuple", "NewTuple", "OldTuple"
	for i := t.Message + 1; i < int(msg.End); i++ {
		n := &t.Nodes[i]
		field := pglogreplField(n.Field)
		switch n.Field {
		case decoder.FieldTupleNew, decoder.FieldTupleKey, decoder.FieldTupleOld:
			tuple = "OldTuple"
			if n.Field == decoder.FieldTupleNew {
				tuple = "NewTuple"
				if t.Type == 'I' {
					tuple = "Tuple"
				}
			}
			body = fill(body, notNilTemplate, tuple)
			continue
		case decoder.FieldTupleColumn, decoder.FieldRelationColumn:
			var about []byte
			if name := t.Name(i); name != "" {
				about = pgvalue.AppendSafe(append(about, ": "...), name)
				if c := t.Column(i); c != nil && c.TypeName != "" {
					about = pgvalue.AppendSafe(append(about, ' '), c.TypeName)
				}
			}
			body = fill(body, columnTemplate, strconv.Itoa(int(n.Index)), string(about))
			continue
		case decoder.FieldRelationColumnFlags, decoder.FieldRelationColumnName,
			decoder.FieldRelationColumnTypeOID, decoder.FieldRelationColumnTypeModifier:
			field = "Columns[" + strconv.Itoa(int(t.Nodes[t.Parent(i)].Index)-1) + "]." + field
		case decoder.FieldColumnKind, decoder.FieldColumnLength, decoder.FieldColumnValue:
			field = tuple + ".Columns[" + strconv.Itoa(int(t.Nodes[t.Parent(i)].Index)-1) + "]." + field
		case decoder.FieldTupleColumnCount:
			field = tuple + "." + field
		case decoder.FieldTruncateRelationOID:
			field += "[" + strconv.Itoa(int(n.Index)-1) + "]"
		}
		if field == "" {
			continue
		}
		body = appendCheck(body, t, i, field)
		// Columns are indexed below: a shorter slice ends the test rather than panic in it.
		count := strconv.FormatUint(t.ValueOf(i).Num, 10)
		switch n.Field {
		case decoder.FieldRelationColumnCount, decoder.FieldTupleColumnCount:
			body = fill(body, lenTemplate, strings.TrimSuffix(field, "ColumnNum")+"Columns", count)
		case decoder.FieldTruncateRelationCount:
			body = fill(body, lenTemplate, "RelationIDs", count)
		}
	}

	var data []byte
	data = AppendBytes(data, Go, t.Bytes[msg.Offset:msg.Offset+msg.Length])
	data = bytes.ReplaceAll(data, []byte("\n"), []byte("\n\t"))
	dst = fill(dst, headTemplate, name, about, string(data), strconv.FormatBool(t.Reading.InStream))
	m := "_"
	if len(body) > 0 {
		m = "m"
	}
	dst = fill(dst, typeTemplate, m, pglogreplTypeNames[k])
	dst = append(dst, body...)
	return append(dst, "}\n"...), nil
}

// appendCheck appends the check of one field, m.field as pglogrepl decoded it, against node i's
// value.
func appendCheck(dst []byte, t *decoder.Tree, i int, field string) []byte {
	n := &t.Nodes[i]
	v := t.ValueOf(i)
	got, want, verb := "m."+field, "", "%v"
	switch {
	case n.Field == decoder.FieldMessageFlags:
		// pglogrepl keeps only whether the flags are exactly 1.
		want = strconv.FormatBool(v.Num == 1)
	case v.Kind == decoder.ValueLSN:
		got, want, verb = got+".String()", strconv.Quote(pgvalue.FormatLSN(v.Num)), "%q"
	case v.Kind == decoder.ValueTime:
		// Nanoseconds as pglogrepl computes them, wrapping as int64 arithmetic does.
		us := int64(v.Num)
		got, want = got+".UnixNano()", strconv.FormatInt((us+pgEpochUnixMicro)*1000, 10)
		dst = fill(dst, timeTemplate, string(pgvalue.AppendRFC3339(nil, us)))
	case v.Kind == decoder.ValueChar && v.Num >= ' ' && v.Num < 0x7f && v.Num != '\'' && v.Num != '\\':
		want, verb = "'"+string(rune(v.Num))+"'", "%q"
	case v.Kind == decoder.ValueInt:
		want = strconv.FormatInt(int64(v.Num), 10)
	case v.Kind == decoder.ValueString:
		want, verb = strconv.Quote(string(t.ValueBytes(i))), "%q"
	case v.Kind == decoder.ValueBytes || v.Kind == decoder.ValueColumn:
		got, want, verb = "string("+got+")", strconv.Quote(string(t.ValueBytes(i))), "%q"
	default:
		want = strconv.FormatUint(v.Num, 10)
	}
	return fill(dst, checkTemplate, got, want, field, verb)
}
