package decoder

import (
	"strconv"

	"pgoutput-inspector/decoder/pgvalue"
)

// Replication commands: the query strings a walsender connection accepts (IDENTIFY_SYSTEM,
// CREATE_REPLICATION_SLOT, START_REPLICATION …), read word by word as the server's replication
// grammar reads them, so that each word of a Query is annotated (the slot, the start LSN, each
// of pgoutput's options) and the conversation knows the options its stream was started with.

// ReplCommand is a replication command, or a COPY command, as a Query carried it.
type ReplCommand struct {
	// Command is the command's keyword in upper case ("START_REPLICATION"), or "COPY".
	Command string
	// Slot, Plugin, LSN and Timeline are the slot name, output plugin, start LSN (X/X) and
	// timeline the command names, or ""; Name is the parameter SHOW reports.
	Slot, Plugin, LSN, Timeline, Name string
	// Kind is "LOGICAL" or "PHYSICAL" when the command says so (a COPY's "FROM" or "TO");
	// Temporary says TEMPORARY.
	Kind      string
	Temporary bool
	// Options are the options in parentheses (or of the older syntax), values unquoted.
	Options []Parameter
	// Columns are a COPY command's column list.
	Columns []string
	// tokens lay out the words for the Query's nodes.
	tokens []replToken
}

// String writes the command with its options as a person reads it: "START_REPLICATION SLOT
// sub LOGICAL 0/0 (proto_version 4, publication_names "pub")", names and values as sent.
func (rc *ReplCommand) String() string {
	b := []byte(rc.Command)
	add := func(word, v string) {
		if v != "" {
			b = append(b, word...)
			b = pgvalue.AppendSafe(b, v)
		}
	}
	if rc.Command == "START_REPLICATION" {
		add(" SLOT ", rc.Slot)
	} else {
		add(" ", rc.Slot)
	}
	if rc.Temporary {
		b = append(b, " TEMPORARY"...)
	}
	add(" ", rc.Kind)
	add(" ", rc.Plugin)
	add(" ", rc.LSN)
	add(" TIMELINE ", rc.Timeline)
	add(" ", rc.Name)
	for k, o := range rc.Options {
		if k == 0 {
			b = append(b, " ("...)
		} else {
			b = append(b, ", "...)
		}
		b = pgvalue.AppendSafe(b, o.Name)
		add(" ", o.Value)
	}
	if len(rc.Options) > 0 {
		b = append(b, ')')
	}
	return string(b)
}

// Option returns the value of the option named name (case-insensitively), and whether it is
// there.
func (rc *ReplCommand) Option(name string) (string, bool) {
	for _, o := range rc.Options {
		if equalFold(o.Name, name) {
			return o.Value, true
		}
	}
	return "", false
}

// DecoderOptions returns base with what a START_REPLICATION's pgoutput options fix: the
// protocol version, and whether a Stream Abort carries the parallel fields (streaming =
// parallel). The stream starts outside any streamed block.
func (rc *ReplCommand) DecoderOptions(base Options) Options {
	opts := base
	opts.InStream = No
	if rc.Kind != "LOGICAL" {
		// START_REPLICATION [SLOT s] [PHYSICAL] X/X: the XLogData carry WAL.
		opts.Physical = true
		return opts
	}
	if v, ok := rc.Option("proto_version"); ok {
		if n, err := strconv.Atoi(v); err == nil && n >= MinProto && n <= MaxProto {
			opts.Proto = n
		}
	}
	if v, ok := rc.Option("streaming"); ok && equalFold(v, "parallel") {
		opts.ParallelAbort = Yes
	} else if opts.Proto != 0 {
		opts.ParallelAbort = No
	}
	return opts
}

// replToken is a word of a command and the field it is: a leaf ending at end, or a group
// opened (FieldReplOptions, FieldReplOption) or closed (FieldUnknown).
type replToken struct {
	field FieldID
	end   int
}

// lexeme is a token of the replication grammar: kind 'w' a word, 'i' a quoted identifier,
// 's' a string constant, 'n' a number, 'l' an LSN, or the punctuation character itself.
type lexeme struct {
	start, end int
	kind       byte
}

// replCommands are the replication grammar's commands.
var replCommands = []string{"IDENTIFY_SYSTEM", "SHOW", "TIMELINE_HISTORY", "CREATE_REPLICATION_SLOT",
	"DROP_REPLICATION_SLOT", "ALTER_REPLICATION_SLOT", "READ_REPLICATION_SLOT", "START_REPLICATION",
	"BASE_BACKUP", "UPLOAD_MANIFEST"}

// replKeywords are the grammar's other keywords.
var replKeywords = []string{"SLOT", "LOGICAL", "PHYSICAL", "TEMPORARY", "TIMELINE", "WAIT", "EXPORT_SNAPSHOT",
	"NOEXPORT_SNAPSHOT", "USE_SNAPSHOT", "RESERVE_WAL", "TWO_PHASE", "LABEL", "PROGRESS", "FAST", "WAL", "NOWAIT",
	"MAX_RATE", "TABLESPACE_MAP", "MANIFEST", "MANIFEST_CHECKSUMS"}

// ParseReplCommand reads q, a query string without its terminator, as a replication command.
// ok is false when q is not one (SQL, or words the grammar does not have).
func ParseReplCommand(q []byte) (rc ReplCommand, ok bool) {
	lex, ok := lexRepl(q)
	if !ok || len(lex) == 0 || lex[0].kind != 'w' {
		return rc, false
	}
	word := func(l lexeme) string { return upper(q[l.start:l.end]) }
	rc.Command = word(lex[0])
	if !contains(replCommands, rc.Command) {
		return ReplCommand{}, false
	}
	// Each leaf runs to the start of the next lexeme, so the leaves cover every byte.
	endOf := func(k int) int {
		if k+1 < len(lex) {
			return lex[k+1].start
		}
		return len(q)
	}
	add := func(f FieldID, k int) { rc.tokens = append(rc.tokens, replToken{f, endOf(k)}) }
	add(FieldReplKeyword, 0)
	prev := ""
	slotCommand := rc.Command == "CREATE_REPLICATION_SLOT" || rc.Command == "DROP_REPLICATION_SLOT" ||
		rc.Command == "ALTER_REPLICATION_SLOT" || rc.Command == "READ_REPLICATION_SLOT"
	for k := 1; k < len(lex); k++ {
		l := lex[k]
		text := unquote(q[l.start:l.end], l.kind)
		switch {
		case l.kind == '(':
			var closed bool
			if k, closed = rc.options(q, lex, k, endOf); !closed {
				return ReplCommand{}, false
			}
			prev = ""
			continue
		case l.kind == 'w' && contains(replKeywords, word(l)):
			add(FieldReplWord, k)
			prev = word(l)
			switch prev {
			case "LOGICAL", "PHYSICAL":
				rc.Kind = prev
			case "TEMPORARY":
				rc.Temporary = true
			case "SLOT", "TIMELINE", "LABEL", "MAX_RATE":
				continue
			default:
				if rc.Command == "CREATE_REPLICATION_SLOT" || rc.Command == "BASE_BACKUP" {
					rc.Options = append(rc.Options, Parameter{Name: prev})
				}
			}
			if prev != "LOGICAL" {
				prev = ""
			}
			continue
		case l.kind == 'l':
			add(FieldReplLSN, k)
			rc.LSN = text
		case l.kind == 'n' && (prev == "TIMELINE" || rc.Command == "TIMELINE_HISTORY"):
			add(FieldReplTimeline, k)
			rc.Timeline = text
		case (l.kind == 'w' || l.kind == 'i') && (prev == "SLOT" || slotCommand && rc.Slot == ""):
			add(FieldReplSlot, k)
			rc.Slot = text
		case (l.kind == 'w' || l.kind == 'i') && prev == "LOGICAL" && rc.Command == "CREATE_REPLICATION_SLOT":
			add(FieldReplPlugin, k)
			rc.Plugin = text
		case (l.kind == 'w' || l.kind == 'i' || l.kind == '.') && rc.Command == "SHOW":
			add(FieldReplName, k)
			rc.Name += text
		case l.kind == 's' || l.kind == 'n':
			// A value of the older syntax: LABEL 'x', MAX_RATE 1024.
			add(FieldReplOptionValue, k)
			if prev != "" {
				rc.Options = append(rc.Options, Parameter{Name: prev, Value: text})
			}
		case l.kind == 'w' || l.kind == 'i':
			add(FieldReplWord, k)
		default:
			return ReplCommand{}, false
		}
		prev = ""
	}
	return rc, true
}

// options reads a parenthesized option list that starts at lexeme k, and returns the index of
// its closing parenthesis, or closed false when it has none or holds what no option list
// holds.
func (rc *ReplCommand) options(q []byte, lex []lexeme, k int, endOf func(int) int) (int, bool) {
	rc.tokens = append(rc.tokens, replToken{field: FieldReplOptions}, replToken{FieldReplSyntax, endOf(k)})
	for k++; k < len(lex); k++ {
		l := lex[k]
		switch l.kind {
		case ')':
			rc.tokens = append(rc.tokens, replToken{FieldReplSyntax, endOf(k)}, replToken{field: FieldUnknown})
			return k, true
		case ',':
			rc.tokens = append(rc.tokens, replToken{FieldReplSyntax, endOf(k)})
		case 'w', 'i':
			o := Parameter{Name: unquote(q[l.start:l.end], l.kind)}
			rc.tokens = append(rc.tokens, replToken{field: FieldReplOption}, replToken{FieldReplOptionName, endOf(k)})
			if k+1 < len(lex) && lex[k+1].kind != ',' && lex[k+1].kind != ')' {
				k++
				v := lex[k]
				if v.kind != 's' && v.kind != 'n' && v.kind != 'w' && v.kind != 'i' {
					return k, false
				}
				o.Value = unquote(q[v.start:v.end], v.kind)
				rc.tokens = append(rc.tokens, replToken{FieldReplOptionValue, endOf(k)})
			}
			rc.tokens = append(rc.tokens, replToken{field: FieldUnknown})
			rc.Options = append(rc.Options, o)
		default:
			return k, false
		}
	}
	return k, false
}

// lexRepl splits q into the replication grammar's tokens; ok is false at a character the
// grammar has no token for, or a quote left open.
func lexRepl(q []byte) (lex []lexeme, ok bool) {
	for i := 0; i < len(q); {
		c := q[i]
		start := i
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
			continue
		case c == '\'' || c == '"':
			i++
			for {
				if i >= len(q) {
					return nil, false
				}
				if q[i] == c {
					if i+1 < len(q) && q[i+1] == c {
						i += 2
						continue
					}
					i++
					break
				}
				i++
			}
			kind := byte('s')
			if c == '"' {
				kind = 'i'
			}
			lex = append(lex, lexeme{start, i, kind})
		case c == '(' || c == ')' || c == ',' || c == '.' || c == ';':
			lex = append(lex, lexeme{start, i + 1, c})
			i++
		case isWordByte(c):
			for i < len(q) && (isWordByte(q[i]) || q[i] == '$') {
				i++
			}
			kind := byte('w')
			if allHex(q[start:i]) && i < len(q) && q[i] == '/' {
				j := i + 1
				for j < len(q) && isHexDigit(q[j]) {
					j++
				}
				if j > i+1 {
					lex = append(lex, lexeme{start, j, 'l'})
					i = j
					continue
				}
			}
			if allDigits(q[start:i]) {
				kind = 'n'
			}
			lex = append(lex, lexeme{start, i, kind})
		default:
			return nil, false
		}
	}
	if len(lex) > 0 {
		lex[0].start = 0 // blanks before the command belong to it
	}
	return lex, true
}

// parseCopyCommand reads a COPY command's table and column list ("COPY public.acct (id,
// name) TO STDOUT"), for the names of the rows its CopyData carry. Anything else gives a
// ReplCommand with no Command.
func parseCopyCommand(q []byte) ReplCommand {
	lex, ok := lexRepl(q)
	if !ok || len(lex) < 2 || lex[0].kind != 'w' || upper(q[lex[0].start:lex[0].end]) != "COPY" {
		return ReplCommand{}
	}
	rc := ReplCommand{Command: "COPY"}
	// The table's name, then its column list; a query in parentheses has neither.
	k := 1
	for k < len(lex) && (lex[k].kind == 'w' || lex[k].kind == 'i' || lex[k].kind == '.') {
		if w := upper(q[lex[k].start:lex[k].end]); lex[k].kind == 'w' && (w == "FROM" || w == "TO") {
			break
		}
		k++
	}
	if k > 1 && k < len(lex) && lex[k].kind == '(' {
		for k++; k < len(lex) && lex[k].kind != ')'; k++ {
			if l := lex[k]; l.kind == 'w' || l.kind == 'i' {
				rc.Columns = append(rc.Columns, unquote(q[l.start:l.end], l.kind))
			}
		}
	}
	// FROM STDIN or TO STDOUT, and the format when the options name it.
	for ; k < len(lex); k++ {
		if w := upper(q[lex[k].start:lex[k].end]); w == "FROM" || w == "TO" {
			rc.Kind = w
		} else if w == "BINARY" {
			rc.Options = append(rc.Options, Parameter{Name: "format", Value: "binary"})
		}
	}
	return rc
}

// unquote returns a lexeme's text: a quoted identifier or string without its quotes and with
// doubled quotes undone.
func unquote(b []byte, kind byte) string {
	if kind != 's' && kind != 'i' || len(b) < 2 {
		return string(b)
	}
	quote := b[0]
	out := make([]byte, 0, len(b)-2)
	for i := 1; i < len(b)-1; i++ {
		out = append(out, b[i])
		if b[i] == quote {
			i++
		}
	}
	return string(out)
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func allHex(b []byte) bool {
	for _, c := range b {
		if !isHexDigit(c) {
			return false
		}
	}
	return len(b) > 0
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

func upper(b []byte) string {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		out[i] = c
	}
	return string(out)
}

func equalFold(a, b string) bool { return len(a) == len(b) && upper([]byte(a)) == upper([]byte(b)) }

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
