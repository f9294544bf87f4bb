package web

// PartTally is what the big file's panel sums over the parts as the export worker decodes
// them (wasm/export): the messages by type, the changes by relation, and the span of their
// LSNs and capture times.
type PartTally struct {
	Messages int
	// Names counts the messages by the name the message list gives their type.
	Names map[string]int
	// Changes counts the changes (Insert, Update, Delete) by their relation's qualified name;
	// Unnamed those to a relation no Relation message had named.
	Changes map[string]int
	Unnamed int
	// The lowest and highest LSN of a message, when HasLSN; of a capture time (Unix
	// nanoseconds), when HasTime.
	MinLSN, MaxLSN   uint64
	HasLSN           bool
	MinTime, MaxTime int64
	HasTime          bool
}

// TallyPart tallies the messages of d, decoded whole.
func TallyPart(d *Doc) PartTally {
	t := PartTally{Messages: len(d.Trees), Names: map[string]int{}, Changes: map[string]int{}}
	for i, tr := range d.Trees {
		sm, m := &d.Summaries[i], &d.Messages[i]
		t.Names[sm.Name]++
		if tr.Relation != nil {
			t.Changes[tr.Relation.QualifiedName()]++
		} else if tr.MissingRelation != 0 {
			t.Unnamed++
		}
		if sm.HasLSN {
			if !t.HasLSN || sm.LSN < t.MinLSN {
				t.MinLSN = sm.LSN
			}
			t.MaxLSN, t.HasLSN = max(t.MaxLSN, sm.LSN), true
		}
		if m.Time != 0 {
			if !t.HasTime || m.Time < t.MinTime {
				t.MinTime = m.Time
			}
			t.MaxTime, t.HasTime = max(t.MaxTime, m.Time), true
		}
	}
	return t
}

// Add adds o, the tally of the next part, to t.
func (t *PartTally) Add(o PartTally) {
	if t.Names == nil {
		t.Names, t.Changes = map[string]int{}, map[string]int{}
	}
	t.Messages += o.Messages
	t.Unnamed += o.Unnamed
	for k, n := range o.Names {
		t.Names[k] += n
	}
	for k, n := range o.Changes {
		t.Changes[k] += n
	}
	if o.HasLSN {
		if !t.HasLSN || o.MinLSN < t.MinLSN {
			t.MinLSN = o.MinLSN
		}
		t.MaxLSN, t.HasLSN = max(t.MaxLSN, o.MaxLSN), true
	}
	if o.HasTime {
		if !t.HasTime || o.MinTime < t.MinTime {
			t.MinTime = o.MinTime
		}
		t.MaxTime, t.HasTime = max(t.MaxTime, o.MaxTime), true
	}
}
