package guide

import (
	"strconv"

	"pgoutput-inspector/decoder"
)

// Lens is the version lens: the format as a PostgreSQL release and a protocol version had it.
// 0 for either means any; both 0 is no lens. Messages and fields that did not exist there are
// marked in the guide (by classes, static/guide.css), in the decoded message (message list,
// tree, hex view, description and explain mode), in `pgoutput-inspect explain` and in the
// annotated dump, each with since when it exists. What exists where is the decoder's
// (decoder.FieldAt, CodeAt, MessageAt); the lens says it.
type Lens struct {
	Release int // decoder.FirstRelease to decoder.LastRelease, or 0
	Proto   int // decoder.MinProto to decoder.MaxProto, or 0
}

// On reports whether a release or a protocol version is chosen.
func (l Lens) On() bool { return l.Release > 0 || l.Proto > 0 }

// Valid returns the lens with a release it does not know, or a protocol version it does not
// know or that the release does not accept, taken as any.
func (l Lens) Valid() Lens {
	if l.Release < decoder.FirstRelease || l.Release > decoder.LastRelease {
		l.Release = 0
	}
	if l.Proto < decoder.MinProto || l.Proto > decoder.MaxProto ||
		l.Release > 0 && l.Proto > decoder.MaxProtoAt(l.Release) {
		l.Proto = 0
	}
	return l
}

// Node reports whether node i of t exists under the lens: its field, and for a marker or a
// type byte the value it holds (TupleData's 'b' came after the kind byte itself).
func (l Lens) Node(t *decoder.Tree, i int) decoder.Presence {
	n := &t.Nodes[i]
	info := n.Field.Info()
	if t.IsLeaf(i) && len(info.Codes) > 0 && (info.Kind == decoder.KindMarker || info.Kind == decoder.KindType) {
		if v := t.ValueOf(i); v.Kind != decoder.ValueNone {
			return decoder.CodeAt(n.Field, v.Num, l.Release, l.Proto)
		}
	}
	return decoder.FieldAt(n.Field, l.Release, l.Proto)
}

// Absent returns, when node i of t does not exist under the lens, since when it does ("since
// PostgreSQL 14, protocol 2"); "" when it exists or no lens is chosen.
func (l Lens) Absent(t *decoder.Tree, i int) string {
	if !l.On() || i < 0 || i >= len(t.Nodes) {
		return ""
	}
	return l.absent(l.Node(t, i))
}

// AbsentMessage is Absent for a message of type typ (a message list row): "" for a type the
// lens has no release for (an envelope, an unknown byte).
func (l Lens) AbsentMessage(typ byte) string {
	if !l.On() {
		return ""
	}
	return l.absent(decoder.MessageAt(typ, l.Release, l.Proto))
}

func (l Lens) absent(p decoder.Presence) string {
	if p.Exists || p.Since == 0 && p.Proto <= 1 {
		return ""
	}
	return SinceText(p)
}

// SinceText says from when something exists: "since PostgreSQL 14, protocol 2",
// "since PostgreSQL 15", "with protocol 2", or "" when it always did.
func SinceText(p decoder.Presence) string {
	var s string
	if p.Since > 0 {
		s = "since PostgreSQL " + strconv.Itoa(p.Since)
	}
	if p.Proto > 1 {
		if s == "" {
			return "with protocol " + strconv.Itoa(p.Proto)
		}
		s += ", protocol " + strconv.Itoa(p.Proto)
	}
	return s
}

// Name names the lens: "PostgreSQL 13", "protocol 2", "PostgreSQL 16, protocol 1", or "".
func (l Lens) Name() string {
	var s string
	if l.Release > 0 {
		s = "PostgreSQL " + strconv.Itoa(l.Release)
	}
	if l.Proto > 0 {
		if s != "" {
			s += ", "
		}
		s += "protocol " + strconv.Itoa(l.Proto)
	}
	return s
}

// Query is the lens as link parameters: "&release=13&protocol=1", or "".
func (l Lens) Query() string {
	var s string
	if l.Release > 0 {
		s = "&release=" + strconv.Itoa(l.Release)
	}
	if l.Proto > 0 {
		s += "&protocol=" + strconv.Itoa(l.Proto)
	}
	return s
}
