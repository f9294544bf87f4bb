package decoder

import (
	"maps"
	"slices"
)

// Learnt returns what s knows from the Relation and Type messages it decoded, as messages that
// teach it to another session (Session.Learn): a Type message for each type, and a Relation
// message for each relation's latest definition, by OID, each outside a streamed transaction
// (no xid). Types are taught first: they name relations' columns. A function, not a method:
// main.wasm, which keeps every exported method of a type it uses, does not call it (size:
// docs/performance.md, "Size tricks").
func Learnt(s *Session) (types, relations [][]byte) {
	message := func(group FieldID, raw []byte) []byte {
		for i := range messageTable {
			if messageTable[i].Group == group {
				return append([]byte{messageTable[i].Type}, raw...)
			}
		}
		return nil
	}
	for _, oid := range slices.Sorted(maps.Keys(s.types)) {
		types = append(types, message(FieldType, s.types[oid].raw))
	}
	for _, oid := range slices.Sorted(maps.Keys(s.relations)) {
		relations = append(relations, message(FieldRelation, s.relations[oid].raw))
	}
	return types, relations
}

// Learn has the session know the types and relations msgs define (Type and Relation messages
// outside a streamed transaction, as Learnt gives them) as though they came before its input:
// a change to one of those relations names its columns, with no Relation message of the input
// to point to (its Tree's RelationIndex is -1). Other messages, and any that does not decode,
// teach nothing. It returns msgs decoded, as s (Session.Relation, Session.DataType) now knows
// what they define.
func (s *Session) Learn(msgs [][]byte) []*Tree {
	from := NewSession(Options{InStream: No})
	from.types = s.types // its Type messages teach s, and name its relations' columns
	trees := make([]*Tree, len(msgs))
	for i, b := range msgs {
		trees[i] = from.Decode(b)
	}
	for oid, rel := range from.relations {
		s.setRelation(oid, rel, -1)
	}
	return trees
}
