// The comparison with real servers starts PostgreSQL processes: native only.

//go:build !js && !wasip1

package pgvalue_test

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/internal/pgserver"
)

// serverValueCases are queries whose one column is read from a real server twice, in binary
// and in text format: AppendBinary of the binary value must be AppendText of the text value.
// The seeded random() makes the random rows the same in every run.
var serverValueCases = []struct {
	name string
	sql  string
	// since is the first major version that accepts the query (0: all).
	since int
}{
	{"bool", `SELECT v FROM (VALUES (true), (false)) t(v)`, 0},
	{"bytea", `SELECT v FROM (VALUES (''::bytea), ('\x00ff10'::bytea), ('\x5c22'::bytea), (decode(repeat('ab01', 300), 'hex'))) t(v)`, 0},
	{"char", `SELECT chr(i)::"char" FROM generate_series(1, 127) i UNION ALL SELECT v::"char" FROM (VALUES (''), ('\200'), ('\303'), ('\377'), ('\\')) t(v)`, 0},
	{"name", `SELECT v::name FROM (VALUES ('abc'), (''), ('with space'), ('NULL'), (repeat('x', 63))) t(v)`, 0},
	{"int2", `SELECT v::int2 FROM (VALUES (0), (1), (-1), (32767), (-32768)) t(v)`, 0},
	{"int4", `SELECT v::int4 FROM (VALUES (0), (1), (-1), (2147483647), (-2147483648)) t(v) UNION ALL SELECT ((random() - 0.5) * 4e9)::int4 FROM generate_series(1, 200)`, 0},
	{"int8", `SELECT v::int8 FROM (VALUES (0), (1), (-1), (9223372036854775807), (-9223372036854775808)) t(v)`, 0},
	{"oid", `SELECT v::oid FROM (VALUES (0), (1), (2147483648), (4294967295)) t(v)`, 0},
	{"float8 specials", `SELECT v::float8 FROM (VALUES ('NaN'), ('Infinity'), ('-Infinity'), ('0'), ('-0'), ('1'), ('-1'), ('0.1'), ('1e14'), ('1e15'), ('123456789012345'),
		('1234567890123456'), ('1e-4'), ('1e-5'), ('0.00012345'), ('1.5e-5'), ('5e-324'), ('2.2250738585072014e-308'), ('1.7976931348623157e308'), ('1e22'), ('1e23'), ('1e100'), ('-1.25e-300'), ('100'), ('999999999999999'), ('9999999999999998')) t(v)`, 0},
	{"float8 random", `SELECT ((random() - 0.5) * 10 ^ (random() * 600 - 300))::float8 FROM generate_series(1, 3000)
		UNION ALL SELECT (random() * 10 ^ (random() * 18))::int8::float8 FROM generate_series(1, 500)
		UNION ALL SELECT round((random() * 10 ^ (random() * 20))::numeric, (random() * 6)::int)::float8 FROM generate_series(1, 500)`, 0},
	// Short decimals include the points exactly half-way between two doubles (1e23), which
	// PostgreSQL's Ryu never prints; m × 2^e are the few doubles and floats where Ryu does
	// not notice that the upper half-way point is a short decimal.
	{"float8 short decimals", `SELECT (d || 'e' || k)::float8 FROM generate_series(1, 120) d, generate_series(-40, 60) k
		UNION ALL SELECT (d || 'e' || k)::float8 FROM generate_series(1, 9) d, generate_series(-323, 307) k`, 0},
	{"float8 Ryu bounds", `SELECT (m::numeric * 2::numeric ^ e)::float8 FROM unnest(ARRAY[5960464477539062, 8344650268554687]) m, generate_series(75, 90) e`, 0},
	{"float4 short decimals", `SELECT (d || 'e' || k)::float4 FROM generate_series(1, 120) d, generate_series(-40, 35) k
		UNION ALL SELECT (d || 'e' || k)::float4 FROM generate_series(1, 9) d, generate_series(-45, 37) k`, 0},
	{"float4 Ryu bounds", `SELECT (m::numeric * 2::numeric ^ e)::float4 FROM unnest(ARRAY[14648437, 14648436, 14648438]) m, generate_series(30, 40) e`, 0},
	{"float4 specials", `SELECT v::float4 FROM (VALUES ('NaN'), ('Infinity'), ('-Infinity'), ('0'), ('-0'), ('1'), ('0.1'), ('1e5'), ('1e6'), ('100000'), ('123456'), ('1234567'),
		('999999'), ('1e-4'), ('1e-5'), ('3.4028235e38'), ('1e-45'), ('1.17549435e-38'), ('16777216'), ('16777217'), ('-0.333333')) t(v)`, 0},
	{"float4 random", `SELECT ((random() - 0.5) * 10 ^ (random() * 76 - 38))::float4 FROM generate_series(1, 3000)
		UNION ALL SELECT (random() * 10 ^ (random() * 9))::int4::float4 FROM generate_series(1, 500)`, 0},
	{"text", `SELECT v FROM (VALUES (''), ('plain'), (E'line\nbreak\ttab\rcr'), ('quote" back\slash'), ('ümlaut ✓ 𝄞'), (E'\u202Eright-to-left'), (E'\u0085next line'), ('NULL'), (repeat('long ', 200))) t(v)`, 0},
	{"varchar", `SELECT v::varchar(20) FROM (VALUES (''), ('abc'), ('a b')) t(v)`, 0},
	{"bpchar", `SELECT v::char(5) FROM (VALUES (''), ('ab'), ('abcde'), ('ü')) t(v)`, 0},
	{"json", `SELECT v::json FROM (VALUES ('{"b": 1,  "a": [1, 2.50, null, "x\ny"]}'), ('[]'), ('"str"'), (E'{\n "k" : "\\u00e9"}')) t(v)`, 0},
	{"jsonb", `SELECT v::jsonb FROM (VALUES ('{"b": 1,  "a": [1, 2.50, null, "x\ny"], "a": 2}'), ('[]'), ('"str"'), ('{"k": "\u00e9"}'), ('1e3'), ('null')) t(v)`, 0},
	{"uuid", `SELECT v::uuid FROM (VALUES ('00000000-0000-0000-0000-000000000000'), ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'), ('ffffffff-ffff-ffff-ffff-ffffffffffff')) t(v)
		UNION ALL SELECT md5(i::text)::uuid FROM generate_series(1, 50) i`, 0},
	{"date", `SELECT v::date FROM (VALUES ('2024-01-02'), ('2000-01-01'), ('1999-12-31'), ('0001-01-01'), ('0001-12-31 BC'), ('0002-01-01 BC'), ('4714-11-24 BC'),
		('5874897-12-31'), ('infinity'), ('-infinity'), ('2000-02-29'), ('1900-02-28'), ('1582-10-10'), ('10000-01-01')) t(v)
		UNION ALL SELECT date '2000-01-01' + ((random() - 0.5) * 4000000)::int FROM generate_series(1, 1000)
		UNION ALL SELECT date '4714-11-24 BC' + (random() * 2147483493)::int FROM generate_series(1, 300)`, 0},
	{"time", `SELECT v::time FROM (VALUES ('00:00:00'), ('23:59:59.999999'), ('24:00:00'), ('12:34:56.5'), ('01:02:03.000001'), ('10:00:00.12')) t(v)
		UNION ALL SELECT time '00:00' + random() * interval '24 hours' FROM generate_series(1, 300)`, 0},
	{"timestamp", `SELECT v::timestamp FROM (VALUES ('4714-11-24 00:00:00 BC'), ('294276-12-31 23:59:59.999999'), ('infinity'), ('-infinity'), ('2024-01-02 03:04:05.123456'),
		('2000-01-01 00:00:00'), ('1999-12-31 23:59:59.5'), ('0001-01-01 00:00:00'), ('0001-12-31 23:59:59.999999 BC'), ('1970-01-01 00:00:00.01')) t(v)
		UNION ALL SELECT timestamp 'epoch' + (random() - 0.5) * 2e11 * interval '1 second' FROM generate_series(1, 1000)
		UNION ALL SELECT timestamp '4714-11-24 00:00:00 BC' + random() * 9.2e12 * interval '1 second' FROM generate_series(1, 300)`, 0},
	{"timestamptz", `SELECT v::timestamptz FROM (VALUES ('4714-11-24 00:00:00+00 BC'), ('294276-12-31 23:59:59.999999+00'), ('infinity'), ('-infinity'), ('2024-01-02 03:04:05.123456+00'),
		('2024-07-01 12:00:00+05:30'), ('0001-12-31 23:59:59.999999+00 BC')) t(v)
		UNION ALL SELECT timestamptz 'epoch' + (random() - 0.5) * 2e11 * interval '1 second' FROM generate_series(1, 1000)`, 0},
	{"interval", `SELECT v::interval FROM (VALUES ('1 year 2 mons 3 days 04:05:06.789'), ('-1 days +02:00:00'), ('-1 year -2 mons'), ('1 mon -1 days'), ('0'), ('-00:00:00.000001'),
		('1 year'), ('-1 year'), ('1 day'), ('1 mon'), ('13 mons'), ('-13 mons'), ('178000000 years'), ('-178000000 years'), ('2147483647 days'), ('-2147483648 days'),
		('1 day -00:00:01'), ('-1 day 1 second'), ('1 year -1 mon'), ('-1 year 1 mon 1 day'), ('00:00:00.5'), ('100:00:00')) t(v)
		UNION ALL SELECT make_interval(0, ((random() - 0.5) * 200)::int, 0, ((random() - 0.5) * 100)::int, 0, 0, (random() - 0.5) * 1e6) FROM generate_series(1, 500)
		UNION ALL SELECT make_interval(0, 0, 0, 0, 0, 0, (random() - 0.5) * 1e4) FROM generate_series(1, 200)`, 0},
	{"interval extremes", `SELECT interval '2562047788 hours' + interval '54.775807 seconds' UNION ALL SELECT interval '-2562047788 hours' - interval '54.775807 seconds'
		UNION ALL SELECT interval '-2147483648 mons -2147483648 days' - interval '2562047788 hours'`, 15},
	{"interval infinity", `SELECT v::interval FROM (VALUES ('infinity'), ('-infinity')) t(v)`, 17},
	{"numeric", `SELECT v::numeric FROM (VALUES ('NaN'), ('0'), ('0.000'), ('-0.000'), ('1'), ('-1'), ('123.456'), ('-123.4560'), ('10000'), ('9999.9999'), ('0.0001'), ('0.00001'),
		('1e100'), ('-1e-100'), ('12345678901234567890.12345678901234567890'), ('100000000'), ('0.1'), ('1000.0001')) t(v)
		UNION ALL SELECT 2::numeric ^ 1000 UNION ALL SELECT 1::numeric / 3 UNION ALL SELECT 0.1::numeric ^ 300
		UNION ALL SELECT round(((random() - 0.5) * 10 ^ (random() * 40 - 20))::numeric, (random() * 30)::int) FROM generate_series(1, 1000)`, 0},
	{"numeric infinity", `SELECT v::numeric FROM (VALUES ('Infinity'), ('-Infinity')) t(v)`, 14},
	{"inet", `SELECT v::inet FROM (VALUES ('192.168.1.1'), ('192.168.1.0/24'), ('0.0.0.0/0'), ('255.255.255.255/32'), ('10.1.2.3/8'), ('::1'), ('::'), ('::/0'), ('::ffff:1.2.3.4'),
		('::1.2.3.4'), ('::0.0.1.2'), ('1::'), ('1:0:0:1:0:0:0:1'), ('1:0:0:1:0:0:1:1'), ('2001:db8::1/64'), ('fe80::1:0:0:1'), ('0:0:0:0:0:0:0:2'), ('::ffff:0:1.2.3.4'),
		('1:2:3:4:5:6:7:8'), ('1:0:2:0:3:0:4:0'), ('0:1::'), ('::ffff:1.2.3.4/120'), ('::2:3:4'), ('::ffff'), ('::1:ffff:1.2.3.4')) t(v)
		UNION ALL SELECT (SELECT string_agg(CASE WHEN random() < 0.6 THEN '0' ELSE to_hex((random() * 65535)::int) END, ':') FROM generate_series(1, 8 + 0 * s.i))::inet FROM generate_series(1, 500) s(i)
		UNION ALL SELECT ((random() * 255)::int || '.' || (random() * 255)::int || '.0.' || (random() * 255)::int || '/' || (random() * 32)::int)::inet FROM generate_series(1, 100)`, 0},
	{"cidr", `SELECT v::cidr FROM (VALUES ('192.168.1.0/24'), ('10.0.0.0/8'), ('0.0.0.0/0'), ('1.2.3.4/32'), ('::/0'), ('2001:db8::/32'), ('::1/128'), ('::ffff:1.2.3.0/120'), ('1.2.3.4')) t(v)`, 0},
	{"arrays", `SELECT v FROM (VALUES ('[0:2]={1,2,3}'::int4[]), ('{{1,2},{3,4}}'::int4[]), ('[2:3][-1:0]={{1,NULL},{3,4}}'::int4[]), ('{}'::int4[]), ('{{NULL}}'::int4[]),
		('{{{1},{2}},{{3},{4}}}'::int4[]), ('[-2147483648:-2147483647]={5,6}'::int4[])) t(v)`, 0},
	{"text arrays", `SELECT v FROM (VALUES (ARRAY['', 'NULL', 'null', 'Null', 'a b', 'a,b', 'a"b', 'a\b', '{x}', NULL, 'plain', E'tab\there', E'v\vt', E'nl\n', 'ü', 'NULLS'])) t(v)`, 0},
	{"bytea arrays", `SELECT ARRAY['\x01'::bytea, '\x'::bytea, NULL]`, 0},
	{"char arrays", `SELECT ARRAY[''::"char", 'a'::"char", ','::"char", '\377'::"char", ' '::"char", '"'::"char"]`, 0},
	{"numeric arrays", `SELECT ARRAY['1.5'::numeric, 'NaN', NULL, '-0.00'] UNION ALL SELECT ARRAY[]::numeric[]`, 0},
	{"timestamp arrays", `SELECT ARRAY['infinity'::timestamptz, '2024-01-02 03:04:05+00', '0044-03-15 12:00:00+00 BC']`, 0},
	{"interval arrays", `SELECT ARRAY['1 day'::interval, '-1 year 2 mons', '00:00:00']`, 0},
	{"jsonb arrays", `SELECT ARRAY['{"a": [1, 2]}'::jsonb, '"x"', 'null', NULL]`, 0},
	{"json arrays", `SELECT ARRAY['{"a":  1}'::json, '[]']`, 0},
	{"float arrays", `SELECT ARRAY['NaN'::float8, '-Infinity', '1e300', '-0', '0.5']`, 0},
	{"inet arrays", `SELECT ARRAY['::1'::inet, '10.0.0.0/8', '1.2.3.4']`, 0},
}

// serverVersions are the servers TestAppendBinaryAgainstServer reads from: the oldest and the
// newest supported release.
var serverVersions = []string{"14", "18"}

func TestAppendBinaryAgainstServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL servers; run without -short")
	}
	for _, version := range serverVersions {
		t.Run("pg"+version, func(t *testing.T) {
			t.Parallel()
			s := pgserver.ForTest(t, version)
			ctx := context.Background()
			conn, err := pgconn.Connect(ctx, s.ConnString())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			// The settings under which AppendBinary's text is the server's text.
			if _, err := conn.Exec(ctx, "SET DateStyle = ISO; SET IntervalStyle = postgres; SET TimeZone = UTC; SET extra_float_digits = 1; SET bytea_output = hex").ReadAll(); err != nil {
				t.Fatal(err)
			}
			major, _ := strconv.Atoi(strings.SplitN(conn.ParameterStatus("server_version"), ".", 2)[0])
			var checked int
			for _, c := range serverValueCases {
				if major < c.since {
					continue
				}
				queries := []string{c.sql}
				if !strings.Contains(c.name, "arrays") {
					// The same values as one array, with a NULL at the end.
					queries = append(queries, "SELECT array_agg(v) FROM ("+c.sql+" UNION ALL SELECT NULL) s(v)")
				}
				for _, q := range queries {
					checked += compareWithServer(t, conn, c.name, q)
				}
			}
			t.Logf("PostgreSQL %s: %d values compared", conn.ParameterStatus("server_version"), checked)
		})
	}
}

// compareWithServer runs q in text and binary format and compares each row.
func compareWithServer(t *testing.T, conn *pgconn.PgConn, name, q string) int {
	t.Helper()
	ctx := context.Background()
	read := func(format int16) ([][]byte, uint32) {
		// The same seed before each run gives the same random rows.
		if _, err := conn.Exec(ctx, "SELECT setseed(0.42)").ReadAll(); err != nil {
			t.Fatal(err)
		}
		res := conn.ExecParams(ctx, q, nil, nil, nil, []int16{format}).Read()
		if res.Err != nil {
			t.Fatalf("%s: %s: %v", name, q, res.Err)
		}
		var col [][]byte
		for _, row := range res.Rows {
			col = append(col, row[0])
		}
		return col, res.FieldDescriptions[0].DataTypeOID
	}
	text, oid := read(0)
	bin, _ := read(1)
	if len(text) != len(bin) {
		t.Fatalf("%s: %d text rows, %d binary rows", name, len(text), len(bin))
	}
	n := 0
	for i := range text {
		if text[i] == nil {
			continue
		}
		n++
		want := string(pgvalue.AppendText(nil, text[i]))
		got, ok, err := pgvalue.AppendBinary(nil, oid, bin[i])
		if !ok || string(got) != want {
			t.Errorf("%s (type %d %s) row %d: AppendBinary(%x) = %q, %v, %v; server text %q", name, oid, pgvalue.TypeName(oid), i, bin[i], got, ok, err, want)
			continue
		}
		v, ok, err := pgvalue.BinaryValue(oid, bin[i])
		if !ok {
			t.Errorf("%s row %d: BinaryValue(%x): %v", name, i, bin[i], err)
			continue
		}
		if msg := checkBinaryValue(oid, v, string(text[i])); msg != "" {
			t.Errorf("%s (type %d %s) row %d: BinaryValue(%x) = %#v: %s", name, oid, pgvalue.TypeName(oid), i, bin[i], v, msg)
		}
		if i%7 == 0 {
			checkForms(t, oid, bin[i])
		}
	}
	return n
}

// checkBinaryValue checks a BinaryValue result against the server's text for the same value,
// returning what is wrong or "".
func checkBinaryValue(oid uint32, v any, text string) string {
	switch x := v.(type) {
	case bool:
		if fmt.Sprint(x)[:1] != text {
			return "server says " + text
		}
	case int64:
		if strconv.FormatInt(x, 10) != text {
			return "server says " + text
		}
	case uint32:
		if strconv.FormatUint(uint64(x), 10) != text {
			return "server says " + text
		}
	case float64:
		bitSize := 64
		if pgvalue.TypeName(oid) == "float4" || pgvalue.TypeName(oid) == "float4[]" {
			bitSize = 32
		}
		f, err := strconv.ParseFloat(text, bitSize)
		if err != nil || f != x && !(math.IsNaN(f) && math.IsNaN(x)) {
			return "server says " + text
		}
	case []byte:
		if fmt.Sprintf(`\x%x`, x) != text {
			return "server says " + text
		}
	case string:
		switch pgvalue.TypeName(oid) {
		case "date", "timestamp", "timestamptz":
			// ISO 8601, not the server's form: checked by the table tests.
		default:
			if x != text {
				return "server says " + text
			}
		}
	case []any:
		if !strings.HasSuffix(pgvalue.TypeName(oid), "[]") {
			return "an array for a scalar type"
		}
	default:
		return fmt.Sprintf("unexpected Go type %T", v)
	}
	return ""
}
