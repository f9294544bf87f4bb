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
	slot := " "
	if rc.Command == "START_REPLICATION" {
		slot = " SLOT "
	}
	s := rc.Command + word(slot, rc.Slot)
	if rc.Temporary {
		s += " TEMPORARY"
	}
	s += word(" ", rc.Kind) + word(" ", rc.Plugin) + word(" ", rc.LSN) + word(" TIMELINE ", rc.Timeline) + word(" ", rc.Name)
	sep := " ("
	for _, o := range rc.Options {
		s += sep + pgvalue.SafeText(o.Name) + word(" ", o.Value)
		sep = ", "
	}
	if sep == ", " {
		s += ")"
	}
	return s
}

// word returns before and v, made safe to show, or "" when v is.
func word(before, v string) string {
	if v == "" {
		return ""
	}
	return before + pgvalue.SafeText(v)
}

// Option returns the value of the option named name (case-insensitively), and whether it is
// there.
func (rc *ReplCommand) Option(name string) (string, bool) {
	for _, o := range rc.Options {
		if foldEqual([]byte(o.Name), name) {
			return o.Value, true
		}
	}
	return "", false
}

// DecoderOptions returns base with what a START_REPLICATION's pgoutput options fix: the
// protocol version, and whether a Stream Abort carries the parallel fields (streaming =
// parallel). The stream starts outside any streamed block. A physical START_REPLICATION's
// XLogData carry WAL.
func (rc *ReplCommand) DecoderOptions(base Options) Options {
	opts := base
	opts.InStream = No
	if rc.Kind != "LOGICAL" {
		opts.Physical = true
		return opts
	}
	if v, ok := rc.Option("proto_version"); ok {
		if n, err := strconv.Atoi(v); err == nil && n >= MinProto && n <= MaxProto {
			opts.Proto = n
		}
	}
	if v, ok := rc.Option("streaming"); ok && foldEqual([]byte(v), "PARALLEL") {
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

// The replication grammar's commands and its other keywords, each followed by a space.
const (
	replCommands = "IDENTIFY_SYSTEM SHOW TIMELINE_HISTORY CREATE_REPLICATION_SLOT DROP_REPLICATION_SLOT " +
		"ALTER_REPLICATION_SLOT READ_REPLICATION_SLOT START_REPLICATION BASE_BACKUP UPLOAD_MANIFEST "
	replKeywords = "SLOT LOGICAL PHYSICAL TEMPORARY TIMELINE WAIT EXPORT_SNAPSHOT NOEXPORT_SNAPSHOT USE_SNAPSHOT " +
		"RESERVE_WAL TWO_PHASE LABEL PROGRESS FAST WAL NOWAIT MAX_RATE TABLESPACE_MAP MANIFEST MANIFEST_CHECKSUMS "
)

// replParser reads a command's lexemes into a ReplCommand.
type replParser struct {
	q   []byte
	lex []lexeme
	rc  ReplCommand
}

// keyword returns lexeme k in upper case when it is a word of list, or "".
func (p *replParser) keyword(k int, list string) string {
	l := p.lex[k]
	if l.kind != 'w' {
		return ""
	}
	for rest := list; rest != ""; {
		i := indexByte(rest, ' ')
		if foldEqual(p.q[l.start:l.end], rest[:i]) {
			return rest[:i]
		}
		rest = rest[i+1:]
	}
	return ""
}

// text returns lexeme k's text, unquoted.
func (p *replParser) text(k int) string {
	l := p.lex[k]
	return unquote(p.q[l.start:l.end], l.kind)
}

// leaf records lexeme k as a leaf of field f, running to the next lexeme.
//
//go:noinline
func (p *replParser) leaf(f FieldID, k int) {
	end := len(p.q)
	if k+1 < len(p.lex) {
		end = p.lex[k+1].start
	}
	p.rc.tokens = append(p.rc.tokens, replToken{f, end})
}

// group opens a group of field f, or closes the open one (FieldUnknown).
//
//go:noinline
func (p *replParser) group(f FieldID) { p.rc.tokens = append(p.rc.tokens, replToken{field: f}) }

// ParseReplCommand reads q, a query string without its terminator, as a replication command.
// ok is false when q is not one (SQL, or words the grammar does not have).
func ParseReplCommand(q []byte) (rc *ReplCommand, ok bool) {
	p := &replParser{q: q}
	if p.lex, ok = lexRepl(q); !ok || len(p.lex) == 0 {
		return nil, false
	}
	if p.rc.Command = p.keyword(0, replCommands); p.rc.Command == "" {
		return nil, false
	}
	cmd := p.rc.Command
	p.leaf(FieldReplKeyword, 0)
	slotCommand := cmd != "START_REPLICATION" && len(cmd) > 16 && cmd[len(cmd)-16:] == "REPLICATION_SLOT"
	prev := ""
	for k := 1; k < len(p.lex); k++ {
		kind, text := p.lex[k].kind, p.text(k)
		name := kind == 'w' || kind == 'i'
		kw := p.keyword(k, replKeywords)
		switch {
		case kind == '(':
			if k, ok = p.options(k); !ok {
				return nil, false
			}
			kw = ""
		case kw != "":
			p.leaf(FieldReplWord, k)
			switch kw {
			case "LOGICAL", "PHYSICAL":
				p.rc.Kind = kw
			case "TEMPORARY":
				p.rc.Temporary = true
			case "SLOT", "TIMELINE", "LABEL", "MAX_RATE":
			default:
				if cmd == "CREATE_REPLICATION_SLOT" || cmd == "BASE_BACKUP" {
					p.rc.Options = append(p.rc.Options, Parameter{Name: kw})
				}
			}
		case kind == 'l':
			p.leaf(FieldReplLSN, k)
			p.rc.LSN = text
		case kind == 'n' && (prev == "TIMELINE" || cmd == "TIMELINE_HISTORY"):
			p.leaf(FieldReplTimeline, k)
			p.rc.Timeline = text
		case name && (prev == "SLOT" || slotCommand && p.rc.Slot == ""):
			p.leaf(FieldReplSlot, k)
			p.rc.Slot = text
		case name && prev == "LOGICAL" && cmd == "CREATE_REPLICATION_SLOT":
			p.leaf(FieldReplPlugin, k)
			p.rc.Plugin = text
		case (name || kind == '.') && cmd == "SHOW":
			p.leaf(FieldReplName, k)
			p.rc.Name += text
		case kind == 's' || kind == 'n':
			// A value of the older syntax: LABEL 'x', MAX_RATE 1024.
			p.leaf(FieldReplOptionValue, k)
			if prev != "" {
				p.rc.Options = append(p.rc.Options, Parameter{Name: prev, Value: text})
			}
		case name:
			p.leaf(FieldReplWord, k)
		default:
			return nil, false
		}
		prev = kw
	}
	return &p.rc, true
}

// options reads a parenthesized option list that starts at lexeme k, and returns the index of
// its closing parenthesis; ok is false when it has none or holds what no option list holds.
func (p *replParser) options(k int) (int, bool) {
	p.group(FieldReplOptions)
	p.leaf(FieldReplSyntax, k)
	for k++; k < len(p.lex); k++ {
		switch p.lex[k].kind {
		case ')':
			p.leaf(FieldReplSyntax, k)
			p.group(FieldUnknown)
			return k, true
		case ',':
			p.leaf(FieldReplSyntax, k)
		case 'w', 'i':
			o := Parameter{Name: p.text(k)}
			p.group(FieldReplOption)
			p.leaf(FieldReplOptionName, k)
			if k+1 < len(p.lex) && p.lex[k+1].kind != ',' && p.lex[k+1].kind != ')' {
				k++
				if v := p.lex[k].kind; v != 's' && v != 'n' && v != 'w' && v != 'i' {
					return k, false
				}
				o.Value = p.text(k)
				p.leaf(FieldReplOptionValue, k)
			}
			p.group(FieldUnknown)
			p.rc.Options = append(p.rc.Options, o)
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
		kind := c
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
			continue
		case c == '\'' || c == '"':
			for i++; i < len(q) && (q[i] != c || i+1 < len(q) && q[i+1] == c); i++ {
				if q[i] == c {
					i++ // a doubled quote
				}
			}
			if i >= len(q) {
				return nil, false
			}
			i++
			kind = 's'
			if c == '"' {
				kind = 'i'
			}
		case c == '(' || c == ')' || c == ',' || c == '.' || c == ';':
			i++
		case isWordByte(c):
			hex, digits := true, true
			for ; i < len(q) && (isWordByte(q[i]) || q[i] == '$'); i++ {
				hex = hex && isHexDigit(q[i])
				digits = digits && q[i] >= '0' && q[i] <= '9'
			}
			kind = 'w'
			if digits {
				kind = 'n'
			}
			if hex && i+1 < len(q) && q[i] == '/' && isHexDigit(q[i+1]) {
				for i++; i < len(q) && isHexDigit(q[i]); i++ {
				}
				kind = 'l' // an LSN, X/X
			}
		default:
			return nil, false
		}
		lex = append(lex, lexeme{start, i, kind})
	}
	if len(lex) > 0 {
		lex[0].start = 0 // blanks before the command belong to it
	}
	return lex, true
}

// parseCopyCommand reads a COPY command's table and column list ("COPY public.acct (id,
// name) TO STDOUT"), for the names of the rows its CopyData carry, its direction and format.
// Anything else gives nil.
func parseCopyCommand(q []byte) *ReplCommand {
	p := &replParser{q: q}
	var ok bool
	if p.lex, ok = lexRepl(q); !ok || len(p.lex) < 2 || p.keyword(0, "COPY ") == "" {
		return nil
	}
	p.rc.Command = "COPY"
	// The table's name, then its column list; a query in parentheses has neither.
	k := 1
	for ; k < len(p.lex) && (p.lex[k].kind == 'w' || p.lex[k].kind == 'i' || p.lex[k].kind == '.') && p.keyword(k, "FROM TO ") == ""; k++ {
	}
	if k > 1 && k < len(p.lex) && p.lex[k].kind == '(' {
		for k++; k < len(p.lex) && p.lex[k].kind != ')'; k++ {
			if l := p.lex[k]; l.kind == 'w' || l.kind == 'i' {
				p.rc.Columns = append(p.rc.Columns, p.text(k))
			}
		}
	}
	for ; k < len(p.lex); k++ {
		if w := p.keyword(k, "FROM TO BINARY "); w == "BINARY" {
			p.rc.Options = append(p.rc.Options, Parameter{Name: "format", Value: "binary"})
		} else if w != "" {
			p.rc.Kind = w
		}
	}
	return &p.rc
}

// unquote returns a lexeme's text: a quoted identifier or string without its quotes and with
// doubled quotes undone.
func unquote(b []byte, kind byte) string {
	if kind != 's' && kind != 'i' || len(b) < 2 {
		return string(b)
	}
	out := make([]byte, 0, len(b)-2)
	for i := 1; i < len(b)-1; i++ {
		out = append(out, b[i])
		if b[i] == b[0] {
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

// foldEqual reports whether b and s are the same, ASCII letters in either case.
func foldEqual(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i, c := range b {
		if d := s[i]; c != d && c|0x20 != d|0x20 || c|0x20 < 'a' || c|0x20 > 'z' {
			if c != d {
				return false
			}
		}
	}
	return true
}
