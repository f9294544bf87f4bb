package pgvalue

// Type is a built-in PostgreSQL data type, as the server's pg_type catalog lists it.
type Type struct {
	// OID is pg_type.oid. Built-in OIDs are fixed across releases (PostgreSQL 10 to 18).
	OID uint32
	// Name is pg_type.typname, except that an array type ("_int4" in the catalog) is named by
	// its element and "[]" ("int4[]"), as psql's \dT shows it. "char" (OID 18) is the one-byte
	// type, not bpchar.
	Name string
	// Elem is the element type's OID for an array type (pg_type.typelem), 0 for other types.
	Elem uint32
}

// OIDs of the types whose binary format this package decodes. The array types are in builtinTypes.
const (
	oidBool        uint32 = 16
	oidBytea       uint32 = 17
	oidChar        uint32 = 18 // "char": one byte
	oidName        uint32 = 19
	oidInt8        uint32 = 20
	oidInt2        uint32 = 21
	oidInt4        uint32 = 23
	oidText        uint32 = 25
	oidOID         uint32 = 26
	oidJSON        uint32 = 114
	oidCIDR        uint32 = 650
	oidFloat4      uint32 = 700
	oidFloat8      uint32 = 701
	oidInet        uint32 = 869
	oidBPChar      uint32 = 1042
	oidVarchar     uint32 = 1043
	oidDate        uint32 = 1082
	oidTime        uint32 = 1083
	oidTimeTZ      uint32 = 1266
	oidTimestamp   uint32 = 1114
	oidTimestampTZ uint32 = 1184
	oidInterval    uint32 = 1186
	oidNumeric     uint32 = 1700
	oidUUID        uint32 = 2950
	oidJSONB       uint32 = 3802
)

// builtinTypes is every base, pseudo, range and multirange type with an OID below 10000, and
// their array types, sorted by OID: pg_type of PostgreSQL 15.18 and 18.4 (the same list in
// both), without the catalogs' row types.
var builtinTypes = [...]Type{
	{16, "bool", 0},
	{17, "bytea", 0},
	{18, "char", 0},
	{19, "name", 0},
	{20, "int8", 0},
	{21, "int2", 0},
	{22, "int2vector", 0},
	{23, "int4", 0},
	{24, "regproc", 0},
	{25, "text", 0},
	{26, "oid", 0},
	{27, "tid", 0},
	{28, "xid", 0},
	{29, "cid", 0},
	{30, "oidvector", 0},
	{114, "json", 0},
	{142, "xml", 0},
	{143, "xml[]", 142},
	{194, "pg_node_tree", 0},
	{199, "json[]", 114},
	{269, "table_am_handler", 0},
	{271, "xid8[]", 5069},
	{325, "index_am_handler", 0},
	{600, "point", 0},
	{601, "lseg", 0},
	{602, "path", 0},
	{603, "box", 0},
	{604, "polygon", 0},
	{628, "line", 0},
	{629, "line[]", 628},
	{650, "cidr", 0},
	{651, "cidr[]", 650},
	{700, "float4", 0},
	{701, "float8", 0},
	{705, "unknown", 0},
	{718, "circle", 0},
	{719, "circle[]", 718},
	{774, "macaddr8", 0},
	{775, "macaddr8[]", 774},
	{790, "money", 0},
	{791, "money[]", 790},
	{829, "macaddr", 0},
	{869, "inet", 0},
	{1000, "bool[]", 16},
	{1001, "bytea[]", 17},
	{1002, "char[]", 18},
	{1003, "name[]", 19},
	{1005, "int2[]", 21},
	{1006, "int2vector[]", 22},
	{1007, "int4[]", 23},
	{1008, "regproc[]", 24},
	{1009, "text[]", 25},
	{1010, "tid[]", 27},
	{1011, "xid[]", 28},
	{1012, "cid[]", 29},
	{1013, "oidvector[]", 30},
	{1014, "bpchar[]", 1042},
	{1015, "varchar[]", 1043},
	{1016, "int8[]", 20},
	{1017, "point[]", 600},
	{1018, "lseg[]", 601},
	{1019, "path[]", 602},
	{1020, "box[]", 603},
	{1021, "float4[]", 700},
	{1022, "float8[]", 701},
	{1027, "polygon[]", 604},
	{1028, "oid[]", 26},
	{1033, "aclitem", 0},
	{1034, "aclitem[]", 1033},
	{1040, "macaddr[]", 829},
	{1041, "inet[]", 869},
	{1042, "bpchar", 0},
	{1043, "varchar", 0},
	{1082, "date", 0},
	{1083, "time", 0},
	{1114, "timestamp", 0},
	{1115, "timestamp[]", 1114},
	{1182, "date[]", 1082},
	{1183, "time[]", 1083},
	{1184, "timestamptz", 0},
	{1185, "timestamptz[]", 1184},
	{1186, "interval", 0},
	{1187, "interval[]", 1186},
	{1231, "numeric[]", 1700},
	{1263, "cstring[]", 2275},
	{1266, "timetz", 0},
	{1270, "timetz[]", 1266},
	{1560, "bit", 0},
	{1561, "bit[]", 1560},
	{1562, "varbit", 0},
	{1563, "varbit[]", 1562},
	{1700, "numeric", 0},
	{1790, "refcursor", 0},
	{2201, "refcursor[]", 1790},
	{2202, "regprocedure", 0},
	{2203, "regoper", 0},
	{2204, "regoperator", 0},
	{2205, "regclass", 0},
	{2206, "regtype", 0},
	{2207, "regprocedure[]", 2202},
	{2208, "regoper[]", 2203},
	{2209, "regoperator[]", 2204},
	{2210, "regclass[]", 2205},
	{2211, "regtype[]", 2206},
	{2249, "record", 0},
	{2275, "cstring", 0},
	{2276, "any", 0},
	{2277, "anyarray", 0},
	{2278, "void", 0},
	{2279, "trigger", 0},
	{2280, "language_handler", 0},
	{2281, "internal", 0},
	{2283, "anyelement", 0},
	{2287, "record[]", 0},
	{2776, "anynonarray", 0},
	{2949, "txid_snapshot[]", 2970},
	{2950, "uuid", 0},
	{2951, "uuid[]", 2950},
	{2970, "txid_snapshot", 0},
	{3115, "fdw_handler", 0},
	{3220, "pg_lsn", 0},
	{3221, "pg_lsn[]", 3220},
	{3310, "tsm_handler", 0},
	{3361, "pg_ndistinct", 0},
	{3402, "pg_dependencies", 0},
	{3500, "anyenum", 0},
	{3614, "tsvector", 0},
	{3615, "tsquery", 0},
	{3642, "gtsvector", 0},
	{3643, "tsvector[]", 3614},
	{3644, "gtsvector[]", 3642},
	{3645, "tsquery[]", 3615},
	{3734, "regconfig", 0},
	{3735, "regconfig[]", 3734},
	{3769, "regdictionary", 0},
	{3770, "regdictionary[]", 3769},
	{3802, "jsonb", 0},
	{3807, "jsonb[]", 3802},
	{3831, "anyrange", 0},
	{3838, "event_trigger", 0},
	{3904, "int4range", 0},
	{3905, "int4range[]", 3904},
	{3906, "numrange", 0},
	{3907, "numrange[]", 3906},
	{3908, "tsrange", 0},
	{3909, "tsrange[]", 3908},
	{3910, "tstzrange", 0},
	{3911, "tstzrange[]", 3910},
	{3912, "daterange", 0},
	{3913, "daterange[]", 3912},
	{3926, "int8range", 0},
	{3927, "int8range[]", 3926},
	{4072, "jsonpath", 0},
	{4073, "jsonpath[]", 4072},
	{4089, "regnamespace", 0},
	{4090, "regnamespace[]", 4089},
	{4096, "regrole", 0},
	{4097, "regrole[]", 4096},
	{4191, "regcollation", 0},
	{4192, "regcollation[]", 4191},
	{4451, "int4multirange", 0},
	{4532, "nummultirange", 0},
	{4533, "tsmultirange", 0},
	{4534, "tstzmultirange", 0},
	{4535, "datemultirange", 0},
	{4536, "int8multirange", 0},
	{4537, "anymultirange", 0},
	{4538, "anycompatiblemultirange", 0},
	{5017, "pg_mcv_list", 0},
	{5038, "pg_snapshot", 0},
	{5039, "pg_snapshot[]", 5038},
	{5069, "xid8", 0},
	{5077, "anycompatible", 0},
	{5078, "anycompatiblearray", 0},
	{5079, "anycompatiblenonarray", 0},
	{5080, "anycompatiblerange", 0},
	{6150, "int4multirange[]", 4451},
	{6151, "nummultirange[]", 4532},
	{6152, "tsmultirange[]", 4533},
	{6153, "tstzmultirange[]", 4534},
	{6155, "datemultirange[]", 4535},
	{6157, "int8multirange[]", 4536},
}

// LookupType returns the built-in type with the given OID; ok is false for any other OID
// (user-defined types, enums, domains, extensions' types).
func LookupType(oid uint32) (t Type, ok bool) {
	lo, hi := 0, len(builtinTypes)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch c := builtinTypes[mid].OID; {
		case c == oid:
			return builtinTypes[mid], true
		case c < oid:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return Type{}, false
}

// TypeName returns the name of a built-in type OID as psql shows it: "int4", "int4[]" for the
// array type "_int4", "timestamptz". It returns "" for any OID not in the built-in table.
func TypeName(oid uint32) string {
	t, _ := LookupType(oid)
	return t.Name
}

// LookupTypeName returns the built-in type with the given name as TypeName writes it ("int4",
// "varchar[]"); ok is false for any other name, namespace-qualified names included.
func LookupTypeName(name string) (t Type, ok bool) {
	if name == "" {
		return Type{}, false
	}
	for _, bt := range builtinTypes {
		if bt.Name == name {
			return bt, true
		}
	}
	return Type{}, false
}

// BuiltinTypes returns a copy of the built-in type table, sorted by OID.
func BuiltinTypes() []Type {
	out := make([]Type, len(builtinTypes))
	copy(out, builtinTypes[:])
	return out
}

// arrayElem returns the element type OID when oid is an array type, else 0.
func arrayElem(oid uint32) uint32 {
	t, _ := LookupType(oid)
	return t.Elem
}
