package guide

import (
	"strings"

	"pgoutput-inspector/decoder"
)

// VersionsPage is the guide's page of releases, options and the same change captured from
// servers of several releases (#guide=versions).
const VersionsPage = "versions"

// EntryID returns the ID of the guide entry of t's message ("update", "stream-abort"), or of
// its envelope when it carries none ("primary-keepalive"), or "".
func EntryID(t *decoder.Tree) string {
	switch {
	case t.Message >= 0:
		return EntryOf(t.Nodes[t.Message].Field)
	case len(t.Nodes) > 0:
		return EntryOf(t.Nodes[0].Field)
	}
	return ""
}

// EntryOf returns the ID of the guide entry that describes field f: its message's or layer's
// name in lower case, words joined by '-' ("Stream Abort" is "stream-abort"; a TupleData
// column's fields are TupleData's).
func EntryOf(f decoder.FieldID) string {
	id := []byte(strings.TrimSuffix(f.Info().Of, " column"))
	for i, c := range id {
		switch {
		case c == ' ':
			id[i] = '-'
		case 'A' <= c && c <= 'Z':
			id[i] = c + 'a' - 'A'
		}
	}
	return string(id)
}
