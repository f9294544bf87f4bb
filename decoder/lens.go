package decoder

// The version lens: what exists at a PostgreSQL release and a protocol version. It reads the
// field table's Since and Proto (and a code's Since), so it is small enough for the page to
// mark a decoded message at all times; the lens itself and its prose (what changed, the
// options) are internal/guide's.

// The PostgreSQL releases the version lens knows: logical replication's pgoutput arrived in 10.
const (
	FirstRelease = 10
	LastRelease  = 18
)

// Presence says whether something exists at a release and protocol version.
type Presence struct {
	// Exists reports whether it does.
	Exists bool
	// Since is the first release that sends it; Proto the lowest proto_version it needs.
	Since, Proto int
}

// protoRelease is, per proto_version, the first release whose pgoutput accepts it
// (LOGICALREP_PROTO_STREAM_VERSION_NUM 2 in 14, TWOPHASE 3 in 15, STREAM_PARALLEL 4 in 16).
// TestProtoReleases holds it to the field table.
var protoRelease = [MaxProto + 1]int{1: 10, 2: 14, 3: 15, 4: 16}

// ProtoRelease returns the first release that accepts proto_version proto, or 0 for a
// version this decoder does not know.
func ProtoRelease(proto int) int {
	if proto < MinProto || proto > MaxProto {
		return 0
	}
	return protoRelease[proto]
}

// MaxProtoAt returns the highest proto_version release accepts, or 0 before logical
// replication (release < 10). Releases after LastRelease are taken to accept MaxProto.
func MaxProtoAt(release int) int {
	p := 0
	for v := MinProto; v <= MaxProto; v++ {
		if release >= protoRelease[v] {
			p = v
		}
	}
	return p
}

// presence reports whether something sent since release since, with proto_version proto,
// exists at release and protocol version p. A release or protocol version of 0 is "any".
// Fields of the replication protocol's envelopes have Since 0: they exist in every release.
func presence(since, proto, release, p int) Presence {
	ok := (release == 0 || release >= since) && (p == 0 || p >= proto)
	return Presence{Exists: ok, Since: since, Proto: proto}
}

// FieldAt reports whether field f exists at release and protocol version proto (either 0:
// any), from the field table's Since and Proto.
func FieldAt(f FieldID, release, proto int) Presence {
	info := f.Info()
	return presence(int(info.Since), int(info.Proto), release, proto)
}

// MessageAt reports whether the pgoutput message type typ exists at release and protocol
// version proto (either 0: any). An unknown type never exists.
func MessageAt(typ byte, release, proto int) Presence {
	m := messageTypes(messageTable).lookup(typ)
	if m == nil {
		return Presence{}
	}
	return FieldAt(m.Group, release, proto)
}

// CodeAt reports whether value code of field f (a marker, like TupleData's 'b') exists at
// release and protocol version proto: the field must exist, and the code since its own release.
func CodeAt(f FieldID, code uint64, release, proto int) Presence {
	p := FieldAt(f, release, proto)
	for _, c := range f.Info().Codes {
		if c.Code == code && c.Since > p.Since {
			p.Since = c.Since
			p.Exists = p.Exists && (release == 0 || release >= c.Since)
		}
	}
	return p
}
