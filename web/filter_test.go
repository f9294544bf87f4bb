package web

import (
	"reflect"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
)

// exampleState opens the example called name.
func exampleState(t *testing.T, name string) State {
	t.Helper()
	i := exampleByName(name)
	if i < 0 {
		t.Fatalf("no example %q", name)
	}
	return StateOfExample(i)
}

// shownMessages lists the messages of a list's rows, and the first message of each heading
// as -(m+1).
func shownMessages(l *List) []int {
	var out []int
	for _, r := range l.Rows {
		if r.Kind == RowGroup {
			out = append(out, -(r.Msg + 1))
		} else {
			out = append(out, r.Msg)
		}
	}
	return out
}

func TestFilterTerms(t *testing.T) {
	// The Origin example: Begin 0, Relation 1 (public.rid_default, OID 16402), Inserts 2-4
	// ("one", "two", "3"), Commit 5 (xid 774); Begin 6, Origin 7 "corpus_origin", Insert 8
	// ("from corpus_origin"), Commit 9 (xid 795).
	s := exampleState(t, "Origin")
	for _, c := range []struct {
		query string
		want  []int
	}{
		{"", []int{-1, 0, 1, 2, 3, 4, 5, -7, 6, 7, 8, 9}},
		{"type:I", []int{-1, 2, 3, 4, -7, 8}},
		{"type:insert,O", []int{-1, 2, 3, 4, -7, 7, 8}},
		{"type:c", nil}, // Stream Commit; case counts for a type byte
		{"type:Com", []int{-1, 5, -7, 9}},
		{"TYPE:I", nil}, // not a key: text
		{"http://x", nil},
		{"xid:795", []int{-7, 6, 7, 8, 9}},
		{"xid:774,795 type:C", []int{-1, 5, -7, 9}},
		{"rel:rid_default", []int{-1, 1, 2, 3, 4, -7, 8}},
		{"rel:PUBLIC.rid_default type:I xid:774", []int{-1, 2, 3, 4}},
		{"rel:16402 type:R", []int{-1, 1}},
		{"rel:other", nil},
		{"lsn:0/1786238..0/17862B8", []int{-1, 3, 4}},
		{"lsn:0/1788130.. type:I", []int{-7, 8}},
		{"lsn:..0/1786150 type:I", []int{-1, 2}},
		{"lsn:0/1786368", []int{-1, 5}},
		{"two", []int{-1, 3}},
		{"corpus_origin", []int{-7, 7, 8}},
		{`"FROM corpus"`, []int{-7, 8}},
		{`"from corpus" type:O`, nil},
	} {
		s2, _ := Apply(s, SetFilter{Query: c.query})
		if s2.Filter.Err != "" {
			t.Errorf("%q: %s", c.query, s2.Filter.Err)
			continue
		}
		if got := shownMessages(s2.List); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: rows %v, want %v", c.query, got, c.want)
		}
		matches := 0
		for _, m := range c.want {
			if m >= 0 {
				matches++
			}
		}
		if s2.List.Matches != matches {
			t.Errorf("%q: %d matches, want %d", c.query, s2.List.Matches, matches)
		}
	}
}

// TestFilterRepeatedKeys: a key given twice is two terms, each required; commas give the
// alternatives, for lsn: too.
func TestFilterRepeatedKeys(t *testing.T) {
	s := exampleState(t, "Origin") // as in TestFilterTerms
	for _, c := range []struct {
		query string
		want  []int
	}{
		{"type:I type:U", nil},
		{"type:I type:insert", []int{-1, 2, 3, 4, -7, 8}},
		{"type:I,O type:O,C", []int{-7, 7}},
		{"xid:774 xid:795", nil},
		{"xid:774,795 xid:795 type:I", []int{-7, 8}},
		{"rel:rid_default rel:16402 type:I", []int{-1, 2, 3, 4, -7, 8}},
		{"rel:rid_default rel:other", nil},
		{"lsn:0/1786238..0/17862B8 lsn:..0/1786238", []int{-1, 3}},
		{"lsn:0/1786368 lsn:..0/1786150", nil},
		{"lsn:..0/1786150,0/1788130.. type:I", []int{-1, 2, -7, 8}},
		{"lsn:..0/1786150,0/1788130.. lsn:0/1788130.. type:I", []int{-7, 8}},
		{"one two", nil},
	} {
		s2, _ := Apply(s, SetFilter{Query: c.query})
		if s2.Filter.Err != "" {
			t.Errorf("%q: %s", c.query, s2.Filter.Err)
			continue
		}
		if got := shownMessages(s2.List); !reflect.DeepEqual(got, c.want) || !s2.List.Filtered() {
			t.Errorf("%q: rows %v, want %v", c.query, got, c.want)
		}
	}
}

func TestFilterTruncateAndMessage(t *testing.T) {
	// Begin, Relation public.parent, Relation public.child, Truncate of both, Commit: the
	// Truncate is a change of each relation it names.
	s := exampleState(t, "Truncate")
	for q, want := range map[string][]int{"rel:child": {-1, 2, 3}, "rel:parent": {-1, 1, 3}} {
		s2, _ := Apply(s, SetFilter{Query: q})
		if got := shownMessages(s2.List); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", q, got, want)
		}
	}
	s = exampleState(t, "Logical message") // prefix "corpus", content "non-transactional, …"
	for q, n := range map[string]int{"corpus": 1, "NON-TRANS": 1, "type:message": 1, "absent": 0} {
		s2, _ := Apply(s, SetFilter{Query: q})
		if s2.List.Matches != n {
			t.Errorf("%q: %d matches, want %d", q, s2.List.Matches, n)
		}
	}
}

func TestFilterErrors(t *testing.T) {
	s := exampleState(t, "Origin")
	for q, want := range map[string]string{
		"xid:abc":          `xid: expected a transaction id in decimal, found "abc"`,
		"lsn:12":           `lsn: expected an LSN such as 0/16B3748, found "12"`,
		"lsn:..":           "lsn: expected FROM..TO, FROM.., ..TO or one LSN",
		"lsn:0/1,,0/2":     "lsn: expected FROM..TO, FROM.., ..TO or one LSN",
		"lsn:0/1,x..":      `lsn: expected an LSN such as 0/16B3748, found "x"`,
		`type:I "unclosed`: `a quoted text has no closing "`,
		"rel:":             "rel: expected a value after the colon",
		"xid:4294967296":   `xid: expected a transaction id in decimal, found "4294967296"`,
	} {
		s2, _ := Apply(s, SetFilter{Query: q})
		if s2.Filter.Err != want {
			t.Errorf("%q: error %q, want %q", q, s2.Filter.Err, want)
		}
		// A query that does not read filters nothing.
		if s2.List.Filtered() || len(s2.List.Rows) != len(s.Doc.Rows) {
			t.Errorf("%q: the list is filtered", q)
		}
	}
}

// TestFilterFollows: the hex view and tree show a message the filter lets through; keys move
// among those messages only.
func TestFilterFollows(t *testing.T) {
	s := exampleState(t, "Origin") // shows message 7, the Origin
	s = apply(t, s, SetFilter{Query: "type:I"})
	if s.Msg != 8 || s.Tree() == nil || s.Model == nil {
		t.Fatalf("after type:I the Origin's place goes to message %d, want 8", s.Msg)
	}
	for _, c := range []struct {
		key  string
		want int
	}{{"ArrowUp", 4}, {"ArrowUp", 3}, {"Home", 2}, {"ArrowUp", 2}, {"End", 8}, {"ArrowDown", 8}, {"k", 4}, {"j", 8}} {
		s = apply(t, s, Key{Panel: PanelList, Key: c.key})
		if s.Msg != c.want {
			t.Fatalf("%s: message %d, want %d", c.key, s.Msg, c.want)
		}
	}
	// A message chosen that the filter shows stays chosen when the filter changes.
	s = apply(t, s, SelectMessage{Msg: 3}, SetFilter{Query: "xid:774"})
	if s.Msg != 3 {
		t.Errorf("message %d chosen, want 3 kept", s.Msg)
	}
	// Nothing let through: nothing shown.
	s = apply(t, s, SetFilter{Query: "absent"})
	if s.Msg != -1 || s.Tree() != nil || s.Model != nil || len(s.TreeRows) != 0 {
		t.Errorf("no match, yet message %d shown", s.Msg)
	}
	s = apply(t, s, Key{Panel: PanelList, Key: "ArrowDown"})
	if s.Msg != -1 {
		t.Errorf("ArrowDown in an empty list chose %d", s.Msg)
	}
	// Clearing the filter shows every row again.
	s = apply(t, s, SetFilter{Query: "  "})
	if s.List.Filtered() || s.Filter.Query != "" || len(s.List.Rows) != len(s.Doc.Rows) {
		t.Errorf("cleared filter: %d rows of %d", len(s.List.Rows), len(s.Doc.Rows))
	}
	if s.Msg != 0 || s.Tree() == nil {
		t.Errorf("cleared after no match: message %d shown, want the first", s.Msg)
	}
}

func TestFilterInShareLink(t *testing.T) {
	s := exampleState(t, "Origin")
	s = apply(t, s, SetFilter{Query: `type:I "from corpus"`})
	_, fx := Apply(s, Share{})
	var payload []byte
	for _, e := range fx {
		if c, ok := e.(EffectCompress); ok {
			payload = c.Payload
		}
	}
	if !strings.Contains(string(payload), "filter=type:I \"from corpus\"\n") {
		t.Fatalf("payload has no filter line:\n%.200s", payload)
	}
	o := apply(t, NewState(-1), OpenShared{Payload: payload})
	if o.Filter.Query != s.Filter.Query || o.Msg != 8 || o.List.Matches != 1 {
		t.Errorf("opened link: filter %q, message %d, %d matches", o.Filter.Query, o.Msg, o.List.Matches)
	}
	// A link made before filters (no filter line) opens unfiltered.
	old := SharePayload(Shared{Text: s.Text, Msg: 7})
	o = apply(t, s, OpenShared{Payload: old})
	if o.Filter.Query != "" || o.List.Filtered() || o.Msg != 7 {
		t.Errorf("old link: filter %q, message %d", o.Filter.Query, o.Msg)
	}
}

// TestFilterWhileDecoding: a long input decoded a chunk at a time is filtered chunk by chunk,
// to the same list as filtering it whole.
func TestFilterWhileDecoding(t *testing.T) {
	ex := AllExamples()[exampleByName("Origin")]
	head, body, _ := strings.Cut(ex.Text, "\n0/")
	body = "0/" + body
	text := head + "\n" + strings.Repeat(body, 400) // 4,000 messages
	s := apply(t, NewState(-1), SetText{Text: text}, SetFilter{Query: "type:O,I corpus"})
	if s.Doc.Complete() {
		t.Fatalf("%d messages decoded at once", len(s.Doc.Trees))
	}
	for !s.Doc.Complete() {
		s = apply(t, s, DecodeMore{})
	}
	whole := s.Filter.list(s.Doc, nil)
	if !reflect.DeepEqual(shownMessages(whole), shownMessages(s.List)) || !reflect.DeepEqual(whole.src, s.List.src) ||
		whole.Matches != 800 || s.List.Matches != 800 {
		t.Errorf("chunk by chunk: %d rows, %d matches; whole: %d rows, %d matches",
			len(s.List.Rows), s.List.Matches, len(whole.Rows), whole.Matches)
	}
	for i := range s.List.Rows {
		if s.List.Rows[i].Kind == RowGroup && s.List.GroupCount(i) != 4 {
			t.Fatalf("heading %d counts %d messages, want 4", i, s.List.GroupCount(i))
		}
	}
}

// BenchmarkFilterOneMegabyte filters a decoded 1 MB capture (the Origin example's
// transactions repeated, about 11,000 messages): a type, and a text searched in every value.
//
//	go test -short -run '^$' -bench FilterOneMegabyte ./web
func BenchmarkFilterOneMegabyte(b *testing.B) {
	ex := AllExamples()[exampleByName("Origin")]
	head, body, _ := strings.Cut(ex.Text, "\n0/")
	body = "0/" + body
	text := head + "\n" + strings.Repeat(body, (1<<20)/len(body)+1)
	s, _ := Apply(NewState(-1), SetText{Text: text})
	for !s.Doc.Complete() {
		s, _ = Apply(s, DecodeMore{})
	}
	b.Logf("%d bytes, %d messages", len(text), len(s.Doc.Messages))
	for _, q := range []string{"type:I", `"from corpus"`, "rel:public.rid_default xid:795"} {
		b.Run(q, func(b *testing.B) {
			for range b.N {
				if s2, _ := Apply(s, SetFilter{Query: q}); s2.List.Matches == 0 {
					b.Fatal("no match")
				}
			}
		})
	}
}

// TestFilterTypeNames: every message type and envelope is matched by its type byte, by the name
// the list shows (spaces written as '-'), and by each word of that name on; a keepalive pasted
// alone is found by type:keepalive.
func TestFilterTypeNames(t *testing.T) {
	types := append(decoder.Messages(), decoder.Envelopes()...)
	for _, m := range types {
		sm := &Summary{Type: m.Type, Name: m.Name()}
		words := strings.Fields(m.Name())
		queries := []string{"type:" + string(rune(m.Type)), "type:" + strings.Join(words, "-")}
		for i := range words {
			queries = append(queries, "type:"+strings.Join(words[i:], "_"), "type:"+strings.ToLower(words[i]))
		}
		for _, q := range queries {
			f := ParseFilter(q)
			if f.Err != "" {
				t.Errorf("%s: %q: %s", m.Name(), q, f.Err)
				continue
			}
			if !matchType((*f.terms)[0].alts, sm) {
				t.Errorf("%q does not match %s (%c)", q, m.Name(), m.Type)
			}
		}
	}
	s := apply(t, NewState(-1), SetText{Text: "6b00000000015175c000030469fb190b2600\n"})
	if s.Doc == nil || len(s.Doc.Trees) != 1 || s.Doc.Summaries[0].Name != decoder.FieldKeepalive.Info().Name {
		t.Fatalf("the keepalive pasted does not read as one: %+v", s.Doc)
	}
	for q, n := range map[string]int{"type:keepalive": 1, "type:Keep": 1, "type:primary-keepalive": 1, "type:k": 1, "type:alive": 0, "type:insert": 0} {
		if got := apply(t, s, SetFilter{Query: q}).List.Matches; got != n {
			t.Errorf("%s: %d matches, want %d", q, got, n)
		}
	}
}

// TestListPosition: a filtered list counts its own messages for aria-posinset and -setsize.
func TestListPosition(t *testing.T) {
	s := exampleState(t, "Origin")
	for q, want := range map[string][]int{"": {1, 10, 2, 10}, "type:I": {1, 4, 2, 4, 3, 4, 4, 4}} {
		l := apply(t, s, SetFilter{Query: q}).List
		var got []int
		for i, r := range l.Rows {
			if r.Kind == RowMessage && len(got) < len(want) {
				pos, size := l.Position(i)
				got = append(got, pos, size)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: positions %v, want %v", q, got, want)
		}
	}
}
