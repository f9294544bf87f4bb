package web

import (
	"sort"
	"strconv"
	"strings"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/input"
)

// Filter is the message list's filter, read from a query of terms separated by spaces, every
// term required:
//
//	type:U,D             a type byte (case counts: b is Begin Prepare) or the start of a name or
//	                     of a word of it on (update, stream, keepalive, "stream-commit"; case,
//	                     spaces and '-' do not count)
//	xid:750,751          the message's transaction
//	rel:public.orders    a relation by name (orders, public.orders) or OID (rel:16384): changes
//	                     of it, its Relation message, Truncates that name it
//	lsn:0/16B3748..0/16B3800   an LSN range, either end optional (lsn:0/16B3748.. ), or one LSN
//	conn:2,3             a packet capture's connection, by its number
//	from:client          who sent the message: client or server (a capture's)
//	word or "some words" text within a value: a column value, a logical message's prefix or
//	                     content, a name in a Relation or Type message (ASCII case does not count)
//
// A comma in a term's value lists alternatives (lsn:..0/16B3748,0/16B3800..); a key given
// twice is two terms, both required (type:I type:U lets nothing through; two lsn: ranges keep
// what lies in both). A message's LSN is the one its capture or envelope gives it, else any
// LSN field it holds (a Begin's final LSN, a Commit's).
type Filter struct {
	// Query is the query as given, without its outer spaces; "" shows every message.
	Query string
	// Err says why the query does not read; the list is then not filtered.
	Err string

	terms *[]filterTerm // nil when the query is empty or does not read (a pointer: Filter stays comparable)
}

// filterTerm is one term of a query: a message passes a term when it matches one of the
// term's alternatives, and the filter when it passes every term.
type filterTerm struct {
	key  byte // 't' (type:), 'x' (xid:), 'r' (rel:), 'l' (lsn:), 'c' (conn:), 'f' (from:), or 0: a text
	alts []filterAlt
}

// filterAlt is one alternative of a term.
type filterAlt struct {
	s        string // a type byte (one character) or a normalName prefix; a relation name (lower case) or OID in decimal; a text (lower case)
	from, to uint64 // an xid (from = to) or an LSN range, both ends included
}

// ParseFilter reads a filter query. A query that does not read gives a Filter with Err set
// and no terms.
func ParseFilter(q string) Filter {
	// One line of terms separated by single spaces: a link's payload keeps the query on a line.
	q = strings.Join(strings.Fields(q), " ")
	f := Filter{Query: q}
	if q == "" {
		return f
	}
	var terms []filterTerm
	for rest := q; rest != ""; {
		var term string
		if rest[0] == '"' {
			var ok bool
			term, rest, ok = strings.Cut(rest[1:], "\"")
			if !ok {
				f.Err = "a quoted text has no closing \""
				return f
			}
			if term != "" {
				terms = append(terms, filterTerm{alts: []filterAlt{{s: lowerASCII(term)}}})
			}
		} else if term, rest, _ = strings.Cut(rest, " "); term != "" {
			t, msg := readTerm(term)
			if msg != "" {
				f.Err = msg
				return f
			}
			terms = append(terms, t)
		}
	}
	f.terms = &terms
	return f
}

// readTerm reads one term, or says what is wrong with it.
func readTerm(term string) (filterTerm, string) {
	key, v, _ := strings.Cut(term, ":")
	switch key {
	case "type", "xid", "rel", "lsn", "conn", "from":
	default:
		return filterTerm{alts: []filterAlt{{s: lowerASCII(term)}}}, ""
	}
	t := filterTerm{key: key[0]}
	if v == "" {
		return t, key + ": expected a value after the colon"
	}
	// Alternatives: each of a comma-separated list.
	for rest := v; rest != ""; {
		var s string
		s, rest, _ = strings.Cut(rest, ",")
		a := filterAlt{s: lowerASCII(s)}
		switch t.key {
		case 't':
			if len(s) != 1 {
				a.s = normalName(s)
			} else {
				a.s = s
			}
			if a.s == "" {
				return t, "type: expected a type byte such as U or a message name such as update"
			}
		case 'x', 'c':
			n, ok := input.Atoi(s)
			if !ok || n < 0 || n > 1<<32-1 {
				if t.key == 'c' {
					return t, "conn: expected a connection's number, found \"" + s + "\""
				}
				return t, "xid: expected a transaction id in decimal, found \"" + s + "\""
			}
			a.from, a.to = uint64(n), uint64(n)
		case 'f':
			switch a.s {
			case "client", "c":
				a.from = uint64(decoder.Frontend)
			case "server", "s":
				a.from = uint64(decoder.Backend)
			default:
				return t, "from: expected client or server, found \"" + s + "\""
			}
		case 'r':
			if s == "" {
				return t, "rel: expected a relation name or OID"
			}
		case 'l':
			var msg string
			if a.from, a.to, msg = parseLSNRange(s); msg != "" {
				return t, msg
			}
		}
		t.alts = append(t.alts, a)
	}
	return t, ""
}

// parseLSNRange reads one LSN range: FROM..TO, FROM.., ..TO or one LSN.
func parseLSNRange(v string) (from, to uint64, msg string) {
	a, b, isRange := strings.Cut(v, "..")
	from, to = 0, ^uint64(0)
	var ok bool
	if a != "" {
		if from, ok = pgvalue.ParseLSN(a); !ok {
			return 0, 0, "lsn: expected an LSN such as 0/16B3748, found \"" + a + "\""
		}
		if !isRange {
			to = from
		}
	}
	if b != "" {
		if to, ok = pgvalue.ParseLSN(b); !ok {
			return 0, 0, "lsn: expected an LSN such as 0/16B3800, found \"" + b + "\""
		}
	}
	if a == "" && b == "" {
		return 0, 0, "lsn: expected FROM..TO, FROM.., ..TO or one LSN"
	}
	return from, to, ""
}

// lowerASCII returns s with ASCII letters in lower case.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// normalName writes a message name for comparison: lower case, without spaces, '-' or '_'.
func normalName(s string) string {
	return lowerASCII(strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '_' {
			return -1
		}
		return r
	}, s))
}

// On reports whether the filter lets only some messages through.
func (f Filter) On() bool { return f.terms != nil }

// Match reports whether message m of d passes the filter.
func (f Filter) Match(d *Doc, m int) bool {
	t := f.terms
	if t == nil {
		return true
	}
	tr, sm := d.Trees[m], &d.Summaries[m]
	for _, term := range *t {
		var ok bool
		switch term.key {
		case 't':
			ok = matchType(term.alts, sm)
		case 'x':
			ok = sm.HasXid && inRanges(term.alts, uint64(sm.Xid))
		case 'r':
			ok = matchRelation(term.alts, tr)
		case 'l':
			ok = matchLSN(term.alts, tr, sm)
		case 'c':
			ok = sm.Conn != 0 && inRanges(term.alts, uint64(sm.Conn))
		case 'f':
			for _, a := range term.alts {
				ok = ok || sm.Side != decoder.SideUnknown && uint64(sm.Side) == a.from
			}
		default:
			ok = matchText(term.alts[0].s, tr)
		}
		if !ok {
			return false
		}
	}
	return true
}

// Count says how many messages of d (decoded whole) pass the filter, and the first (-1:
// none): the page's search of a big file's parts (wasm/export).
func (f Filter) Count(d *Doc) (n, first int) {
	first = -1
	for m := range d.Trees {
		if f.Match(d, m) {
			if n++; first < 0 {
				first = m
			}
		}
	}
	return n, first
}

// inRanges reports whether v is in one of the alternatives' ranges.
func inRanges(alts []filterAlt, v uint64) bool {
	for _, a := range alts {
		if a.from <= v && v <= a.to {
			return true
		}
	}
	return false
}

func matchType(types []filterAlt, sm *Summary) bool {
	for _, a := range types {
		if s := a.s; len(s) == 1 {
			if sm.Type == s[0] {
				return true
			}
		} else if nameMatches(sm.Name, s) {
			return true
		}
	}
	return false
}

// nameMatches reports whether s (a normalName) starts the message name or one of its words
// from there on: "keepalive" and "primarykeepalive" both match "Primary keepalive", "commit"
// matches "Commit", "Commit Prepared" and "Stream Commit".
func nameMatches(name, s string) bool {
	for {
		if strings.HasPrefix(normalName(name), s) {
			return true
		}
		_, rest, ok := strings.Cut(name, " ")
		if !ok {
			return false
		}
		name = rest
	}
}

// matchRelation reports whether the message is a change of, a Relation message for, or a
// Truncate of one of rels.
func matchRelation(rels []filterAlt, t *decoder.Tree) bool {
	is := func(oid uint32, name, qualified string) bool {
		for _, a := range rels {
			r := a.s
			if r == strconv.FormatUint(uint64(oid), 10) && oid != 0 ||
				name != "" && (r == lowerASCII(name) || r == lowerASCII(qualified)) {
				return true
			}
		}
		return false
	}
	if r := t.Relation; r != nil {
		return is(r.OID, r.Name, r.QualifiedName())
	}
	if t.MissingRelation != 0 {
		return is(t.MissingRelation, "", "")
	}
	if t.Message < 0 {
		return false
	}
	switch t.Type {
	case 'R':
		oid, name, ns := uint32(0), "", ""
		for i := t.Message; i < int(t.Nodes[t.Message].End); i++ {
			switch t.Nodes[i].Field {
			case decoder.FieldRelationOID:
				oid = uint32(t.ValueOf(i).Num)
			case decoder.FieldRelationName:
				name = string(t.ValueBytes(i))
			case decoder.FieldRelationNamespace:
				ns = string(t.ValueBytes(i))
			}
		}
		rel := decoder.Relation{Namespace: ns, Name: name}
		return is(oid, name, rel.QualifiedName())
	case 'T':
		for i := t.Message; i < int(t.Nodes[t.Message].End); i++ {
			if t.Nodes[i].Field != decoder.FieldTruncateRelationOID {
				continue
			}
			if r := t.RelationOf(i); r != nil {
				if is(r.OID, r.Name, r.QualifiedName()) {
					return true
				}
			} else if is(uint32(t.ValueOf(i).Num), "", "") {
				return true
			}
		}
	}
	return false
}

// matchLSN reports whether the message's LSN is in one of ranges: the LSN the capture or the
// envelope gives, else any LSN field of the message.
func matchLSN(ranges []filterAlt, t *decoder.Tree, sm *Summary) bool {
	if sm.HasLSN {
		return inRanges(ranges, sm.LSN)
	}
	for i := range t.Nodes {
		if t.Nodes[i].Field.Info().Kind == decoder.KindLSN && t.IsLeaf(i) && inRanges(ranges, t.ValueOf(i).Num) {
			return true
		}
	}
	return false
}

// filterValueLimit is how much of a binary column value's text the filter looks at.
const filterValueLimit = 4096

// matchText reports whether a value of the message holds s (lower case), ignoring ASCII case:
// a string, raw bytes as they are, a text column value as sent, a binary one as the page
// shows it.
func matchText(s string, t *decoder.Tree) bool {
	var buf []byte
	for i := range t.Nodes {
		// Most nodes are numbers: ValueBytes tells them apart for less than ValueOf, which
		// reads their number. (A byte string is nil only when the tree has no bytes at all,
		// hence no column.)
		b := t.ValueBytes(i)
		if b == nil {
			continue
		}
		if t.ValueOf(i).Binary() {
			buf, _, _ = t.AppendValueLimit(buf[:0], i, filterValueLimit)
			b = buf
		}
		if containsFold(b, s) {
			return true
		}
	}
	return false
}

// containsFold reports whether b holds s (lower case), ignoring ASCII case in b.
func containsFold(b []byte, s string) bool {
	if len(s) == 0 {
		return true
	}
	for i := 0; i+len(s) <= len(b); i++ {
		j := 0
		for ; j < len(s); j++ {
			c := b[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != s[j] {
				break
			}
		}
		if j == len(s) {
			return true
		}
	}
	return false
}

// List is the message list as shown: every row of a Doc, or the messages a filter lets
// through, each under its transaction's heading. A List never changes once built.
type List struct {
	Doc   *Doc
	Query string
	// Rows are the rows shown; a heading's count is GroupCount's, not its Count.
	Rows []ListRow
	// Matches counts the messages in Rows.
	Matches int

	src       []int // src[i] is the index in Doc.Rows of Rows[i]; nil when Rows is Doc.Rows
	msgs      []int // the messages in Rows, in order
	n         int   // messages of Doc looked at
	lastGroup int   // the heading last added (an index in Doc.Rows), or -1
}

// list returns the list of d's messages that f lets through. When prev is the same filter's
// list of a shorter prefix of the same decode (the page decodes long inputs a chunk at a
// time), only the new messages are looked at.
func (f Filter) list(d *Doc, prev *List) *List {
	if d == nil {
		return &List{Query: f.Query}
	}
	if !f.On() {
		return &List{Doc: d, Query: f.Query, Rows: d.Rows, Matches: len(d.Trees), n: len(d.Trees)}
	}
	l := &List{Doc: d, Query: f.Query, lastGroup: -1}
	if prev != nil && prev.Query == f.Query && prev.Doc != nil && prev.Doc.dec == d.dec && prev.n <= len(d.Trees) && prev.src != nil {
		*l = *prev
		l.Doc = d
		// Capped: appending copies, so prev keeps its rows.
		l.Rows, l.src, l.msgs = l.Rows[:len(l.Rows):len(l.Rows)], l.src[:len(l.src):len(l.src)], l.msgs[:len(l.msgs):len(l.msgs)]
	} else {
		l.src = []int{}
	}
	for m := l.n; m < len(d.Trees); m++ {
		if !f.Match(d, m) {
			continue
		}
		if g := d.Summaries[m].Group; g >= 0 && g != l.lastGroup {
			l.Rows = append(l.Rows, d.Rows[g])
			l.src = append(l.src, g)
			l.lastGroup = g
		}
		r := d.RowOf[m]
		l.Rows = append(l.Rows, d.Rows[r])
		l.src = append(l.src, r)
		l.msgs = append(l.msgs, m)
		l.Matches++
	}
	l.n = len(d.Trees)
	return l
}

// Filtered reports whether the list leaves messages out.
func (l *List) Filtered() bool { return l != nil && l.src != nil }

// RowOf returns the index in Rows of message m's row, or -1 when the list leaves it out.
func (l *List) RowOf(m int) int {
	if l == nil || l.Doc == nil || m < 0 {
		return -1
	}
	if l.src == nil {
		if m < len(l.Doc.RowOf) {
			return l.Doc.RowOf[m]
		}
		return -1
	}
	i := l.after(m)
	if i < len(l.Rows) && l.Rows[i].Msg == m {
		return i
	}
	return -1
}

// after returns the index of the first message row of m or a later message.
func (l *List) after(m int) int {
	i := sort.Search(len(l.Rows), func(i int) bool { return l.Rows[i].Msg >= m })
	for i < len(l.Rows) && l.Rows[i].Kind != RowMessage {
		i++
	}
	return i
}

// Position returns message row Rows[row]'s place among the messages the list shows (1 for the
// first) and how many the list shows, for aria-posinset and aria-setsize. Unfiltered, every
// message of the input counts, decoded yet or not.
func (l *List) Position(row int) (pos, size int) {
	m := l.Rows[row].Msg
	if l.src == nil {
		return m + 1, len(l.Doc.Messages)
	}
	return sort.SearchInts(l.msgs, m) + 1, l.Matches
}

// GroupCount returns how many messages the transaction heading at Rows[row] holds so far (all
// of them, not only those the filter lets through).
func (l *List) GroupCount(row int) int {
	if l.src != nil {
		row = l.src[row]
	}
	return l.Doc.GroupCount(row)
}

// firstIn returns the first message from a to b-1 the list holds, or -1.
func (l *List) firstIn(a, b int) int {
	m := a
	if l.Filtered() {
		m = l.step(a, 0) // a, or the list's first message after it
	}
	if m >= a && m < b && l.RowOf(m) >= 0 {
		return m
	}
	return -1
}

// step returns the message n messages after (n < 0: before) message m's place in the list,
// stopping at either end, or -1 when the list has no messages. m need not be in the list.
func (l *List) step(m, n int) int {
	if l == nil || len(l.msgs) == 0 {
		return -1
	}
	k := sort.SearchInts(l.msgs, m)
	if (k == len(l.msgs) || l.msgs[k] != m) && n > 0 {
		n-- // the next message is one step from the place between
	}
	return l.msgs[min(max(k+n, 0), len(l.msgs)-1)]
}
