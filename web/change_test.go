package web

import (
	"strings"
	"testing"
)

// changeRow is a column of a Change as the panel shows it.
type changeRow struct {
	name          string
	key           bool
	old, new      string
	oldKind, kind byte
	changed       bool
}

func TestChangeOf(t *testing.T) {
	for _, c := range []struct {
		example string
		old     byte
		new     bool
		why     string
		rows    []changeRow
	}{
		// public.rid_index: identity USING INDEX on (id, code); code changed from b to c.
		{"Update, key changed", 'K', true, "The old part is the old key ('K'), sent because a key column changed (code). The table's replica identity is USING INDEX.",
			[]changeRow{{"id", true, "2", "2", 't', 't', false}, {"code", true, "b", "c", 't', 't', true},
				{"v", false, textNotInKey, textNull, 'n', 'n', false}}},
		// public.rid_full: identity FULL (every column flagged as key), v changed from "one" to "one, updated".
		{"Update, replica identity full", 'O', true, "The old part is the whole old row ('O'). The table's replica identity is FULL: every column's old value is sent.",
			[]changeRow{{"id", true, "1", "1", 't', 't', false}, {"v", true, "one", "one, updated", 't', 't', true},
				{"n", true, "1", "1", 't', 't', false}}},
		// public.toasty: identity DEFAULT, only the new row; big is an unchanged TOAST value.
		{"Update, unchanged TOAST", 0, true, "No old part ('N' only): no key column changed, so PostgreSQL sends only the new row. The table's replica identity is DEFAULT (the primary key).",
			[]changeRow{{"id", true, textNoOldPart, "1", 0, 't', false}, {"big", false, textNoOldPart, textNotSent, 0, 'u', false},
				{"small", false, textNoOldPart, "1", 0, 't', false}}},
		{"Delete", 'O', false, "The old part is the whole old row ('O'). The table's replica identity is FULL: every column's old value is sent.",
			[]changeRow{{"id", true, "1", "", 't', 0, false}, {"v", true, "one, updated", "", 't', 0, false}, {"n", true, "1", "", 't', 0, false}}},
	} {
		s := exampleState(t, c.example)
		ch := ChangeOf(s.Tree())
		if ch == nil {
			t.Fatalf("%s: no change", c.example)
		}
		if ch.Old != c.old || ch.New != c.new || ch.Why != c.why {
			t.Errorf("%s: old %q new %v why %q", c.example, ch.Old, ch.New, ch.Why)
		}
		if len(ch.Columns) != len(c.rows) {
			t.Fatalf("%s: %d columns", c.example, len(ch.Columns))
		}
		for k, w := range c.rows {
			col := ch.Columns[k]
			// Text values are quoted as the tree shows them.
			unquote := func(s string) string { return strings.Trim(s, "\"") }
			got := changeRow{col.Name, col.Key, unquote(col.Old.Text), unquote(col.New.Text), col.Old.Kind, col.New.Kind, col.Changed}
			if got != w {
				t.Errorf("%s: column %d %+v, want %+v", c.example, k+1, got, w)
			}
		}
		// Each value names its node: choosing it in the panel selects its bytes.
		for _, col := range ch.Columns {
			if col.New.Kind == 't' && s.Tree().Nodes[col.New.Node].Length == 0 {
				t.Errorf("%s: %s's new value has no bytes", c.example, col.Name)
			}
		}
	}
	if s := NewState(0); ChangeOf(s.Tree()) != nil {
		t.Error("an Insert has a before and after")
	}
}

// TestShowChange: the before and after follows the chosen message, and stays chosen while
// messages without one are shown (the tree shows then).
func TestShowChange(t *testing.T) {
	s := exampleState(t, "Update, key changed") // message 6, the Update
	if s.Change == nil || s.ShowChange {
		t.Fatalf("the Update's change %v, shown %v", s.Change != nil, s.ShowChange)
	}
	s = apply(t, s, ShowChange{On: true})
	if !s.ShowChange || s.Change.Old != 'K' {
		t.Fatalf("shown %v, old %q", s.ShowChange, s.Change.Old)
	}
	s = apply(t, s, SelectMessage{Msg: 7}) // the Commit
	if s.Change != nil || !s.ShowChange {
		t.Errorf("the Commit has a change (%v), or the choice was lost (%v)", s.Change != nil, s.ShowChange)
	}
	s = apply(t, s, Key{Panel: PanelList, Key: "ArrowUp"})
	if s.Change == nil || s.Msg != 6 {
		t.Errorf("back on the Update: message %d, change %v", s.Msg, s.Change != nil)
	}
	// A value's node selects its bytes.
	col := s.Change.Columns[1]
	s = apply(t, s, SelectNode{Node: col.New.Node})
	if n := s.Tree().Nodes[col.New.Node]; s.Sel.Offset != n.Offset || s.Sel.Length != n.Length {
		t.Errorf("selected %+v, want the new code's bytes", s.Sel)
	}
	s = apply(t, s, ShowChange{On: false})
	if s.ShowChange {
		t.Error("still shown")
	}
}
