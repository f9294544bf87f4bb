package pgvalue_test

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"pgoutput-inspector/decoder/pgvalue"
)

// Type OIDs used by the tests.
const (
	oidBool, oidBytea, oidChar, oidName, oidInt8, oidInt2, oidInt4, oidText, oidOID = 16, 17, 18, 19, 20, 21, 23, 25, 26
	oidJSON, oidCIDR, oidFloat4, oidFloat8, oidInet, oidBPChar, oidVarchar          = 114, 650, 700, 701, 869, 1042, 1043
	oidDate, oidTime, oidTimestamp, oidTimestampTZ, oidInterval, oidNumeric         = 1082, 1083, 1114, 1184, 1186, 1700
	oidUUID, oidJSONB, oidPoint                                                     = 2950, 3802, 600
	oidInt4Array, oidTextArray, oidByteaArray, oidPointArray, oidJSONBArray         = 1007, 1009, 1001, 1017, 3807
)

// h decodes hex written with spaces between fields, for readable wire bytes.
func h(s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		panic(err)
	}
	return b
}

// arrayBytes builds array_send's format: ndim 1, the has-null flag, the element type, one
// dimension of len(elems) with lower bound lb, then each element (nil for NULL).
func arrayBytes(elem uint32, lb int32, elems ...[]byte) []byte {
	var b []byte
	be32 := func(v uint32) { b = append(b, byte(v>>24), byte(v>>16), byte(v>>8), byte(v)) }
	be32(1)
	var hasNull uint32
	for _, e := range elems {
		if e == nil {
			hasNull = 1
		}
	}
	be32(hasNull)
	be32(elem)
	be32(uint32(len(elems)))
	be32(uint32(lb))
	for _, e := range elems {
		if e == nil {
			be32(math.MaxUint32)
			continue
		}
		be32(uint32(len(e)))
		b = append(b, e...)
	}
	return b
}

// appendBinaryCases are wire bytes and the text AppendBinary must write for them. Text the
// server produces was checked against PostgreSQL (valuespg_test.go checks many more values).
var appendBinaryCases = []struct {
	name string
	oid  uint32
	b    []byte
	want string
}{
	{"bool true", oidBool, h("01"), "t"},
	{"bool false", oidBool, h("00"), "f"},
	{"bool any non-zero byte is true, as boolrecv", oidBool, h("02"), "t"},
	{"bytea empty", oidBytea, nil, `\x`},
	{"bytea", oidBytea, h("00 ff 5c 22"), `\x00ff5c22`},
	{"char", oidChar, h("41"), "A"},
	{"char zero byte is empty", oidChar, h("00"), ""},
	{"char high bit as octal", oidChar, h("80"), `\200`},
	{"char 0xff", oidChar, h("ff"), `\377`},
	{"char newline escaped for display", oidChar, h("0a"), `\n`},
	{"name", oidName, []byte("pg_class"), "pg_class"},
	{"int2 min", oidInt2, h("8000"), "-32768"},
	{"int2 max", oidInt2, h("7fff"), "32767"},
	{"int4 -1", oidInt4, h("ffffffff"), "-1"},
	{"int4 max", oidInt4, h("7fffffff"), "2147483647"},
	{"int8 min", oidInt8, h("8000000000000000"), "-9223372036854775808"},
	{"oid max is unsigned", oidOID, h("ffffffff"), "4294967295"},
	{"float4 0.1", oidFloat4, h("3dcccccd"), "0.1"},
	{"float4 100000 fixed", oidFloat4, h("47c35000"), "100000"},
	{"float4 1e6 exponent", oidFloat4, h("49742400"), "1e+06"},
	{"float4 smallest subnormal", oidFloat4, h("00000001"), "1e-45"},
	{"float4 NaN", oidFloat4, h("7fc00000"), "NaN"},
	{"float4 Infinity", oidFloat4, h("7f800000"), "Infinity"},
	{"float4 -Infinity", oidFloat4, h("ff800000"), "-Infinity"},
	{"float4 -0", oidFloat4, h("80000000"), "-0"},
	{"float8 0", oidFloat8, h("0000000000000000"), "0"},
	{"float8 0.1", oidFloat8, h("3fb999999999999a"), "0.1"},
	{"float8 1e14 fixed", oidFloat8, h("42d6bcc41e900000"), "100000000000000"},
	{"float8 1e15 exponent", oidFloat8, h("430c6bf526340000"), "1e+15"},
	{"float8 1e30", oidFloat8, h("46293e5939a08cea"), "1e+30"},
	{"float8 0.0001 fixed", oidFloat8, h("3f1a36e2eb1c432d"), "0.0001"},
	{"float8 1e-05 exponent", oidFloat8, h("3ee4f8b588e368f1"), "1e-05"},
	{"float8 half-way 1e23 is not chosen", oidFloat8, h("44b52d02c7e14af6"), "9.999999999999999e+22"},
	{"float8 max", oidFloat8, h("7fefffffffffffff"), "1.7976931348623157e+308"},
	{"float8 smallest subnormal", oidFloat8, h("0000000000000001"), "5e-324"},
	{"float8 -1.5", oidFloat8, h("bff8000000000000"), "-1.5"},
	{"text", oidText, []byte("hello, world"), "hello, world"},
	{"text invalid UTF-8 escaped", oidText, h("61 ff 62 c3"), `a\xffb\xc3`},
	{"text controls escaped", oidText, []byte("a\tb\nc\rd\x00e\x7f"), `a\tb\nc\rd\x00e\x7f`},
	{"text backslash kept", oidText, []byte(`C:\dir`), `C:\dir`},
	{"text bidi override escaped", oidText, []byte("\u202egnp.exe"), `\u202egnp.exe`},
	{"varchar", oidVarchar, []byte("ü"), "ü"},
	{"bpchar keeps padding", oidBPChar, []byte("ab   "), "ab   "},
	{"json as sent", oidJSON, []byte(`{"a":  1}`), `{"a":  1}`},
	{"jsonb after its version byte", oidJSONB, append([]byte{1}, `{"a": 1}`...), `{"a": 1}`},
	{"uuid", oidUUID, h("a0eebc99 9c0b 4ef8 bb6d 6bb9bd380a11"), "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
	{"date epoch", oidDate, h("00000000"), "2000-01-01"},
	{"date day before", oidDate, h("ffffffff"), "1999-12-31"},
	{"date 1 BC", oidDate, h("fff4dbf8"), "0001-12-31 BC"},  // -730120 days
	{"date first", oidDate, h("ffda97a7"), "4714-11-24 BC"}, // -2451545 days: Julian day 0
	{"date last", oidDate, h("7fda970c"), "5874897-12-31"},  // 2145031948 days
	{"date infinity", oidDate, h("7fffffff"), "infinity"},
	{"date -infinity", oidDate, h("80000000"), "-infinity"},
	{"time midnight", oidTime, h("0000000000000000"), "00:00:00"},
	{"time 24:00", oidTime, h("000000141dd76000"), "24:00:00"},
	{"time fraction", oidTime, h("0000000bfba2f100"), "14:17:46.4"},
	{"timestamp epoch", oidTimestamp, h("0000000000000000"), "2000-01-01 00:00:00"},
	{"timestamp before epoch", oidTimestamp, h("ffffffffffffffff"), "1999-12-31 23:59:59.999999"},
	{"timestamp BC", oidTimestamp, h("ff1af9e8fb46d000"), "0044-03-15 12:00:00 BC"}, // -64464465600000000
	{"timestamp infinity", oidTimestamp, h("7fffffffffffffff"), "infinity"},
	{"timestamp -infinity", oidTimestamp, h("8000000000000000"), "-infinity"},
	{"timestamptz", oidTimestampTZ, h("0002b0ec8517d580"), "2024-01-02 03:04:05.123456+00"},
	{"timestamptz BC after the zone", oidTimestampTZ, h("ff1af9e8fb46d000"), "0044-03-15 12:00:00+00 BC"},
	{"interval", oidInterval, h("00000003 6c97ca88 00000003 0000000e"), "1 year 2 mons 3 days 04:05:06.789"},
	{"interval negative day, positive time", oidInterval, h("00000001 ad274800 ffffffff 00000000"), "-1 days +02:00:00"},
	{"interval zero", oidInterval, h("0000000000000000 00000000 00000000"), "00:00:00"},
	{"interval negative time", oidInterval, h("ffffffffffffffff 00000000 00000000"), "-00:00:00.000001"},
	{"interval -1 year", oidInterval, h("0000000000000000 00000000 fffffff4"), "-1 years"},
	{"interval 1 mon -1 days", oidInterval, h("0000000000000000 ffffffff 00000001"), "1 mon -1 days"},
	{"interval -1 year +1 mon", oidInterval, h("0000000000000000 00000000 fffffff5"), "-11 mons"},
	{"interval infinity (PostgreSQL 17)", oidInterval, h("7fffffffffffffff 7fffffff 7fffffff"), "infinity"},
	{"interval -infinity (PostgreSQL 17)", oidInterval, h("8000000000000000 80000000 80000000"), "-infinity"},
	{"numeric NaN", oidNumeric, h("0000 0000 c000 0000"), "NaN"},
	{"numeric Infinity", oidNumeric, h("0000 0000 d000 0000"), "Infinity"},
	{"numeric -Infinity", oidNumeric, h("0000 0000 f000 0000"), "-Infinity"},
	{"numeric 0", oidNumeric, h("0000 0000 0000 0000"), "0"},
	{"numeric 0.00", oidNumeric, h("0000 0000 0000 0002"), "0.00"},
	{"numeric -12.345", oidNumeric, h("0002 0000 4000 0003 000c 0d7a"), "-12.345"},
	{"numeric 0.0001", oidNumeric, h("0001 ffff 0000 0004 0001"), "0.0001"},
	{"numeric -0.00000001", oidNumeric, h("0001 fffe 4000 0008 0001"), "-0.00000001"},
	{"numeric 1e12", oidNumeric, h("0001 0003 0000 0000 0001"), "1000000000000"},
	{"numeric dscale beyond the digits", oidNumeric, h("0001 0000 0000 0005 0001"), "1.00000"},
	{"numeric digits beyond dscale dropped", oidNumeric, h("0002 0000 0000 0002 0001 0929"), "1.23"},        // 1.2345
	{"numeric negative rounding to zero loses its sign", oidNumeric, h("0001 ffff 4000 0002 000a"), "0.00"}, // -0.0010
	{"numeric leading zero digit", oidNumeric, h("0002 0001 0000 0000 0000 000c"), "12"},
	{"numeric big weight", oidNumeric, h("0001 0007 0000 0000 0009"), "9" + strings.Repeat("0000", 7)},
	{"inet IPv4 host", oidInet, h("02 20 00 04 c0a80101"), "192.168.1.1"},
	{"inet IPv4 network", oidInet, h("02 18 00 04 c0a80100"), "192.168.1.0/24"},
	{"inet is_cidr byte ignored", oidInet, h("02 20 01 04 c0a80101"), "192.168.1.1"},
	{"cidr always has bits", oidCIDR, h("02 20 01 04 01020304"), "1.2.3.4/32"},
	{"cidr", oidCIDR, h("02 18 01 04 c0a80100"), "192.168.1.0/24"},
	{"inet ::1", oidInet, h("03 80 00 10 00000000000000000000000000000001"), "::1"},
	{"inet ::", oidInet, h("03 00 00 10 00000000000000000000000000000000"), "::/0"},
	{"cidr ::/128", oidCIDR, h("03 80 01 10 00000000000000000000000000000000"), "::/128"},
	{"inet longest zero run", oidInet, h("03 80 00 10 0001 0000 0000 0001 0000 0000 0000 0001"), "1:0:0:1::1"},
	{"inet first of two equal runs", oidInet, h("03 80 00 10 0001 0000 0000 0001 0000 0000 0001 0001"), "1::1:0:0:1:1"},
	{"inet single zero not compressed", oidInet, h("03 80 00 10 0001 0000 0002 0003 0004 0005 0006 0007"), "1:0:2:3:4:5:6:7"},
	{"inet trailing run", oidInet, h("03 80 00 10 0001 0000 0000 0000 0000 0000 0000 0000"), "1::"},
	{"inet IPv4-mapped", oidInet, h("03 80 00 10 00000000000000000000ffff01020304"), "::ffff:1.2.3.4"},
	{"inet IPv4-compatible", oidInet, h("03 80 00 10 00000000000000000000000001020304"), "::1.2.3.4"},
	{"inet prefix", oidInet, h("03 40 00 10 20010db8000000000000000000000001"), "2001:db8::1/64"},
	{"int4[]", oidInt4Array, arrayBytes(oidInt4, 1, h("00000001"), nil, h("00000003")), "{1,NULL,3}"},
	{"int4[] lower bound 0", oidInt4Array, arrayBytes(oidInt4, 0, h("00000001"), h("00000002")), "[0:1]={1,2}"},
	{"int4[] empty", oidInt4Array, h("00000000 00000000 00000017"), "{}"},
	{"int4[] one dimension of size 0", oidInt4Array, h("00000001 00000000 00000017 00000000 00000001"), "{}"},
	{"int4[] two dimensions", oidInt4Array, h("00000002 00000000 00000017 00000002 00000001 00000002 00000001" +
		"00000004 00000001 00000004 00000002 00000004 00000003 00000004 00000004"), "{{1,2},{3,4}}"},
	{"int4[] two dimensions with lower bounds", oidInt4Array, h("00000002 00000000 00000017 00000001 00000002 00000002 ffffffff" +
		"00000004 00000001 ffffffff"), "[2:2][-1:0]={{1,NULL}}"},
	{"text[] quoting", oidTextArray, arrayBytes(oidText, 1, []byte("a b"), []byte(""), nil, []byte(`x"y`), []byte(`b\s`), []byte("NULL"), []byte("null"), []byte("{}"), []byte("a,b"), []byte("plain")),
		`{"a b","",NULL,"x\"y","b\\s","NULL","null","{}","a,b",plain}`},
	{"text[] white space", oidTextArray, arrayBytes(oidText, 1, []byte("\t"), []byte("\v"), []byte("é")), `{"\t","\x0b",é}`},
	{"text[] invalid UTF-8 escaped after quoting", oidTextArray, arrayBytes(oidText, 1, h("ff 20")), `{"\xff "}`},
	{"bytea[] elements quoted for their backslash", oidByteaArray, arrayBytes(oidBytea, 1, h("01"), nil), `{"\\x01",NULL}`},
	{"jsonb[]", oidJSONBArray, arrayBytes(oidJSONB, 1, append([]byte{1}, `{"a": [1, 2]}`...), append([]byte{1}, `"x"`...)), `{"{\"a\": [1, 2]}","\"x\""}`},
}

func TestAppendBinary(t *testing.T) {
	for _, c := range appendBinaryCases {
		t.Run(c.name, func(t *testing.T) {
			got, ok, err := pgvalue.AppendBinary([]byte("pre:"), c.oid, c.b)
			if !ok || err != nil {
				t.Fatalf("AppendBinary(%d, %x) = %q, %v, %v", c.oid, c.b, got, ok, err)
			}
			if string(got) != "pre:"+c.want {
				t.Errorf("AppendBinary(%d, %x) = %q, want %q", c.oid, c.b, got, "pre:"+c.want)
			}
		})
	}
}

// badValueCases are bytes that do not fit their type: AppendBinary and BinaryValue fail with
// a *ValueError at the given offset whose message holds want.
var badValueCases = []struct {
	name   string
	oid    uint32
	b      []byte
	offset int
	want   string
}{
	{"bool empty", oidBool, nil, 0, "need 1 bytes, have 0"},
	{"bool two bytes", oidBool, h("0101"), 0, "need 1 bytes, have 2"},
	{"char two bytes", oidChar, h("4142"), 0, "need 1 bytes, have 2"},
	{"int2 short", oidInt2, h("01"), 0, "need 2 bytes, have 1"},
	{"int4 short", oidInt4, h("000001"), 0, "need 4 bytes, have 3"},
	{"int4 trailing byte", oidInt4, h("0000000100"), 0, "need 4 bytes, have 5"},
	{"int8 short", oidInt8, h("00"), 0, "need 8 bytes, have 1"},
	{"oid short", oidOID, nil, 0, "need 4 bytes, have 0"},
	{"float4 short", oidFloat4, h("3dcccc"), 0, "need 4 bytes, have 3"},
	{"float8 short", oidFloat8, h("3dcccc"), 0, "need 8 bytes, have 3"},
	{"uuid short", oidUUID, h("a0eebc99"), 0, "need 16 bytes, have 4"},
	{"jsonb empty", oidJSONB, nil, 0, "need 1 byte (version), have 0"},
	{"jsonb version 2", oidJSONB, append([]byte{2}, "{}"...), 0, "unsupported jsonb version 2, want 1"},
	{"date short", oidDate, h("0000"), 0, "need 4 bytes, have 2"},
	{"date before Julian day 0", oidDate, h("ffda97a6"), 0, "date out of range"},
	{"date after the last", oidDate, h("7fda970d"), 0, "date out of range"},
	{"time negative", oidTime, h("ffffffffffffffff"), 0, "time out of range"},
	{"time past 24:00", oidTime, h("000000141dd76001"), 0, "time out of range"},
	{"timestamp short", oidTimestamp, h("00"), 0, "need 8 bytes, have 1"},
	{"timestamp out of range", oidTimestamp, h("7ffffffffffffffe"), 0, "timestamp out of range"},
	{"timestamptz out of range", oidTimestampTZ, h("8000000000000001"), 0, "timestamp out of range"},
	{"interval short", oidInterval, h("0000000000000000 00000000"), 0, "need 16 bytes, have 12"},
	{"numeric header short", oidNumeric, h("0001 0000"), 0, "need 8 bytes (ndigits, weight, sign, dscale), have 4"},
	{"numeric digits short", oidNumeric, h("0002 0000 0000 0000 0001"), 0, "ndigits 2 needs 12 bytes, have 10"},
	{"numeric trailing byte", oidNumeric, h("0000 0000 0000 0000 00"), 0, "ndigits 0 needs 8 bytes, have 9"},
	{"numeric bad sign", oidNumeric, h("0000 0000 1234 0000"), 4, "invalid sign 0x1234"},
	{"numeric bad digit", oidNumeric, h("0002 0000 0000 0000 0001 2710"), 10, "invalid digit 10000"},
	{"numeric bad dscale", oidNumeric, h("0000 0000 0000 4000"), 6, "invalid dscale 0x4000"},
	{"inet short", oidInet, h("02 20"), 0, "need 4 bytes (family, bits, is_cidr, length), have 2"},
	{"inet family", oidInet, h("04 20 00 04 01020304"), 0, "invalid address family 4"},
	{"inet bits", oidInet, h("02 21 00 04 01020304"), 1, "invalid bits 33 (at most 32)"},
	{"inet length", oidInet, h("02 20 00 10 01020304"), 3, "invalid address length 16 (want 4)"},
	{"inet address short", oidInet, h("03 80 00 10 0000"), 4, "need 16 address bytes, have 2"},
	{"cidr host bits", oidCIDR, h("02 18 01 04 c0a80101"), 7, "invalid cidr value: bits set to the right of the mask length 24"},
	{"array header short", oidInt4Array, h("00000001 00000000"), 0, "need 12 bytes (ndim, flags, element type), have 8"},
	{"array ndim 7", oidInt4Array, h("00000007 00000000 00000017"), 0, "invalid number of dimensions 7"},
	{"array ndim negative", oidInt4Array, h("ffffffff 00000000 00000017"), 0, "invalid number of dimensions -1"},
	{"array flags", oidInt4Array, h("00000001 00000002 00000017"), 4, "invalid array flags 2"},
	{"array element type", oidInt4Array, h("00000001 00000000 00000014"), 8, "element type 20, want 23 (int4)"},
	{"array dimensions short", oidInt4Array, h("00000001 00000000 00000017 00000001"), 12, "need 8 bytes for 1 dimensions, have 4"},
	{"array negative size", oidInt4Array, h("00000001 00000000 00000017 ffffffff 00000001"), 12, "negative dimension size -1"},
	{"array upper bound overflows", oidInt4Array, h("00000001 00000000 00000017 00000002 7fffffff"), 16, "upper bound of dimension 1 out of range"},
	{"array more elements than bytes", oidInt4Array, h("00000001 00000000 00000017 00000003 00000001 ffffffff"), 20, "3 elements need at least 12 bytes, have 4"},
	{"array too many elements", oidInt4Array, h("00000002 00000000 00000017 00010000 00000001 00010000 00000001"), 20, "array size exceeds the maximum allowed"},
	{"array element truncated", oidInt4Array, h("00000001 00000000 00000017 00000001 00000001 00000004 0000"), 20, "element 1 length 4, have 2 bytes"},
	{"array element length below -1", oidInt4Array, h("00000001 00000000 00000017 00000001 00000001 fffffffe"), 20, "element 1 length -2"},
	{"array element wrong length", oidInt4Array, arrayBytes(oidInt4, 1, h("00000001"), h("000002")), 32, "element 2: int4: need 4 bytes, have 3"},
	{"array element bad value", 1231, arrayBytes(oidNumeric, 1, h("0000 0000 1234 0000")), 28, "element 1: numeric: invalid sign 0x1234"},
	{"array trailing bytes", oidInt4Array, append(arrayBytes(oidInt4, 1, h("00000001")), 0), 28, "1 trailing bytes after the last element"},
	{"empty array trailing bytes", oidInt4Array, h("00000000 00000000 00000017 00"), 12, "1 trailing bytes after an empty array"},
}

func TestAppendBinaryBadInput(t *testing.T) {
	for _, c := range badValueCases {
		t.Run(c.name, func(t *testing.T) {
			got, ok, err := pgvalue.AppendBinary([]byte("pre:"), c.oid, c.b)
			if ok || string(got) != "pre:" {
				t.Fatalf("AppendBinary(%d, %x) = %q, %v, want dst unchanged and not ok", c.oid, c.b, got, ok)
			}
			checkValueError(t, err, c.oid, c.offset, c.want)
			v, ok, err := pgvalue.BinaryValue(c.oid, c.b)
			if ok || v != nil {
				t.Fatalf("BinaryValue(%d, %x) = %#v, %v, want not ok", c.oid, c.b, v, ok)
			}
			checkValueError(t, err, c.oid, c.offset, c.want)
		})
	}
}

func checkValueError(t *testing.T, err error, oid uint32, offset int, want string) {
	t.Helper()
	var ve *pgvalue.ValueError
	if !errors.As(err, &ve) {
		t.Fatalf("error %v (%T), want a *pgvalue.ValueError", err, err)
	}
	if ve.Type != oid || ve.Offset != offset || !strings.Contains(ve.Reason, want) {
		t.Errorf("error %+v, want type %d, offset %d, reason containing %q", ve, oid, offset, want)
	}
	if !strings.Contains(err.Error(), "offset") {
		t.Errorf("error %q does not name the offset", err)
	}
}

func TestValueErrorMessage(t *testing.T) {
	_, _, err := pgvalue.AppendBinary(nil, oidInt4, h("0001"))
	if got, want := err.Error(), "int4 value at offset 0: need 4 bytes, have 2"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	_, _, err = pgvalue.AppendBinary(nil, oidInt4Array, arrayBytes(oidInt4, 1, h("00000001"), h("000002")))
	if got, want := err.Error(), "int4[] value at offset 32: element 2: int4: need 4 bytes, have 3"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// Every prefix of every good value either decodes or fails with an error; none panics, and
// none that fails changes dst.
func TestAppendBinaryTruncated(t *testing.T) {
	for _, c := range appendBinaryCases {
		for n := 0; n < len(c.b); n++ {
			got, ok, err := pgvalue.AppendBinary([]byte("pre:"), c.oid, c.b[:n])
			if !ok && (err == nil || string(got) != "pre:") {
				t.Errorf("%s: prefix of %d bytes: %q, %v, %v", c.name, n, got, ok, err)
			}
		}
	}
}

func TestAppendBinaryUnsupported(t *testing.T) {
	for _, oid := range []uint32{0, oidPoint, oidPointArray, 99999, 2249 /* record */, 2287 /* record[] */} {
		got, ok, err := pgvalue.AppendBinary([]byte("pre:"), oid, h("00000001"))
		if ok || err != nil || string(got) != "pre:" {
			t.Errorf("AppendBinary(%d) = %q, %v, %v, want dst unchanged, not ok, no error", oid, got, ok, err)
		}
		v, ok, err := pgvalue.BinaryValue(oid, h("00000001"))
		if ok || err != nil || v != nil {
			t.Errorf("BinaryValue(%d) = %#v, %v, %v, want nil, not ok, no error", oid, v, ok, err)
		}
	}
}

func TestAppendText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"plain ascii ~", "plain ascii ~"},
		{"tab\tnl\ncr\r", `tab\tnl\ncr\r`},
		{"\x00\x01\x1f\x7f", `\x00\x01\x1f\x7f`},
		{`back\slash "quote"`, `back\slash "quote"`},
		{"ümlaut ✓ 𝄞", "ümlaut ✓ 𝄞"},
		{"\xff\xfe", `\xff\xfe`},
		{"a\xc3", `a\xc3`},               // truncated sequence
		{"\xe2\x82", `\xe2\x82`},         // truncated three-byte sequence
		{"\xed\xa0\x80", `\xed\xa0\x80`}, // surrogate: not UTF-8
		{"\xc0\xaf", `\xc0\xaf`},         // overlong
		{"\u0085", `\u0085`},             // C1 control
		{"\u200e\u202e\u2066\u2028\ufeff", `\u200e\u202e\u2066\u2028\ufeff`},
		{"\ufffd", "\ufffd"},     // the replacement character itself is valid
		{"\u009b2J", `\u009b2J`}, // CSI as a C1 control: would clear a terminal
		{"zero\u200bwidth\u200c\u200d\u2060\u00ad", `zero\u200bwidth\u200c\u200d\u2060\u00ad`},
		{"a\u034fb", `a\u034fb`},                                 // combining grapheme joiner
		{"flag\U000e0067\U000e007f", `flag\U000e0067\U000e007f`}, // tags, above U+FFFF
		{"\u2029", `\u2029`},
		{"é€😀", "é€😀"}, // printable runes of every length pass
	} {
		got := pgvalue.AppendText([]byte("pre:"), []byte(c.in))
		if string(got) != "pre:"+c.want {
			t.Errorf("AppendText(%q) = %q, want %q", c.in, got, "pre:"+c.want)
		}
		if !utf8.Valid(got) {
			t.Errorf("AppendText(%q) = %q is not UTF-8", c.in, got)
		}
	}
}

func TestAppendQuoted(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", `""`},
		{`say "hi"`, `"say \"hi\""`},
		{`C:\dir\`, `"C:\\dir\\"`},
		{`\x1b`, `"\\x1b"`}, // a backslash in the data is not an escape
		{"\x1b[2J\u202e", `"\x1b[2J\u202e"`},
	} {
		if got := string(pgvalue.AppendQuoted(nil, []byte(c.in))); got != c.want {
			t.Errorf("AppendQuoted(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	// Names and sentences escape as values do; a string needing nothing is returned as is.
	if got := pgvalue.SafeText("public.\u202etxt.exe\x1b]0;x\x07"); got != `public.\u202etxt.exe\x1b]0;x\x07` {
		t.Errorf("SafeText = %q", got)
	}
	if got := string(pgvalue.AppendSafe([]byte("pre:"), "ok \xff")); got != `pre:ok \xff` {
		t.Errorf("AppendSafe = %q", got)
	}
	if n := testing.AllocsPerRun(20, func() { _ = pgvalue.SafeText("plain name") }); n != 0 {
		t.Errorf("SafeText of a plain name: %v allocations", n)
	}
}

func TestBinaryValue(t *testing.T) {
	for _, c := range []struct {
		name string
		oid  uint32
		b    []byte
		want any
	}{
		{"bool", oidBool, h("01"), true},
		{"int2", oidInt2, h("ffff"), int64(-1)},
		{"int4", oidInt4, h("7fffffff"), int64(math.MaxInt32)},
		{"int8", oidInt8, h("8000000000000000"), int64(math.MinInt64)},
		{"oid", oidOID, h("ffffffff"), uint32(math.MaxUint32)},
		{"float4", oidFloat4, h("3fc00000"), 1.5},
		{"float8", oidFloat8, h("bff8000000000000"), -1.5},
		{"float8 NaN", oidFloat8, h("7ff8000000000001"), "NaN"},
		{"float4 Infinity", oidFloat4, h("7f800000"), "Infinity"},
		{"float8 -Infinity", oidFloat8, h("fff0000000000000"), "-Infinity"},
		{"bytea", oidBytea, h("00ff"), h("00ff")},
		{"char", oidChar, h("ff"), `\377`},
		{"text raw, not escaped", oidText, []byte("a\nb\xff"), "a\nb\xff"},
		{"jsonb", oidJSONB, append([]byte{1}, `{"a": 1}`...), `{"a": 1}`},
		{"numeric", oidNumeric, h("0002 0000 4000 0003 000c 0d7a"), "-12.345"},
		{"numeric NaN", oidNumeric, h("0000 0000 c000 0000"), "NaN"},
		{"uuid", oidUUID, h("a0eebc999c0b4ef8bb6d6bb9bd380a11"), "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
		{"date", oidDate, h("00000000"), "2000-01-01"},
		{"date 1 BC is year 0", oidDate, h("fff4dbf8"), "0000-12-31"},
		{"date 44 BC", oidDate, h("fff49d7b"), "-0043-03-15"},
		{"date after 9999", oidDate, h("7fda970c"), "+5874897-12-31"},
		{"date infinity", oidDate, h("7fffffff"), "infinity"},
		{"time", oidTime, h("0000000bfba2f100"), "14:17:46.4"},
		{"timestamp", oidTimestamp, h("0002b0ec8517d580"), "2024-01-02T03:04:05.123456"},
		{"timestamptz", oidTimestampTZ, h("0002b0ec8517d580"), "2024-01-02T03:04:05.123456Z"},
		{"timestamptz BC", oidTimestampTZ, h("ff1af9e8fb46d000"), "-0043-03-15T12:00:00Z"},
		{"timestamptz -infinity", oidTimestampTZ, h("8000000000000000"), "-infinity"},
		{"interval", oidInterval, h("00000001 ad274800 ffffffff 00000000"), "-1 days +02:00:00"},
		{"inet", oidInet, h("03 80 00 10 00000000000000000000ffff01020304"), "::ffff:1.2.3.4"},
		{"int4[]", oidInt4Array, arrayBytes(oidInt4, 1, h("00000001"), nil), []any{int64(1), nil}},
		{"int4[] empty", oidInt4Array, h("00000000 00000000 00000017"), []any{}},
		{"int4[] two dimensions", oidInt4Array, h("00000002 00000000 00000017 00000002 00000001 00000001 00000001" +
			"00000004 00000001 ffffffff"), []any{[]any{int64(1)}, []any{nil}}},
		{"text[]", oidTextArray, arrayBytes(oidText, 0, []byte("a b"), nil), []any{"a b", nil}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok, err := pgvalue.BinaryValue(c.oid, c.b)
			if !ok || err != nil {
				t.Fatalf("BinaryValue(%d, %x) = %#v, %v, %v", c.oid, c.b, got, ok, err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("BinaryValue(%d, %x) = %#v, want %#v", c.oid, c.b, got, c.want)
			}
		})
	}
}

// BinaryValue decodes exactly what AppendBinary decodes.
func TestBinaryValueAgreesWithAppendBinary(t *testing.T) {
	for _, c := range appendBinaryCases {
		_, ok, err := pgvalue.BinaryValue(c.oid, c.b)
		if !ok || err != nil {
			t.Errorf("%s: BinaryValue(%d, %x): %v, %v", c.name, c.oid, c.b, ok, err)
		}
	}
}

func TestAppendBinaryAllocs(t *testing.T) {
	dst := make([]byte, 0, 4096)
	for _, c := range appendBinaryCases {
		n := testing.AllocsPerRun(20, func() {
			dst, _, _ = pgvalue.AppendBinary(dst[:0], c.oid, c.b)
		})
		if n != 0 {
			t.Errorf("%s: %v allocations per AppendBinary, want 0", c.name, n)
		}
	}
	n := testing.AllocsPerRun(20, func() {
		dst = pgvalue.AppendText(dst[:0], []byte("a\tb\xff\u202e"))
	})
	if n != 0 {
		t.Errorf("%v allocations per AppendText, want 0", n)
	}
}

func BenchmarkAppendBinary(b *testing.B) {
	for _, c := range []struct {
		name string
		oid  uint32
		v    []byte
	}{
		{"int4", oidInt4, h("0001e240")},
		{"int8", oidInt8, h("000000e8d4a51000")},
		{"float8", oidFloat8, h("400921fb54442d18")},
		{"float8-halfway", oidFloat8, h("44b52d02c7e14af6")},
		{"numeric", oidNumeric, h("0003 0001 0000 0004 0001 1a85 0d7a")},
		{"text", oidText, []byte("the quick brown fox jumps over the lazy dog")},
		{"uuid", oidUUID, h("a0eebc999c0b4ef8bb6d6bb9bd380a11")},
		{"timestamptz", oidTimestampTZ, h("0002b0ec8517d580")},
		{"interval", oidInterval, h("00000003 6c97ca88 00000003 0000000e")},
		{"inet6", oidInet, h("03 40 00 10 20010db8000000000000000000000001")},
		{"int4[]", oidInt4Array, arrayBytes(oidInt4, 1, h("00000001"), nil, h("00000003"), h("7fffffff"))},
		{"text[]", oidTextArray, arrayBytes(oidText, 1, []byte("a b"), []byte("plain"), nil, []byte(`q"uote`))},
	} {
		b.Run(c.name, func(b *testing.B) {
			dst := make([]byte, 0, 256)
			b.SetBytes(int64(len(c.v)))
			b.ReportAllocs()
			for b.Loop() {
				var ok bool
				dst, ok, _ = pgvalue.AppendBinary(dst[:0], c.oid, c.v)
				if !ok {
					b.Fatal("not ok")
				}
			}
		})
	}
}

func ExampleAppendBinary() {
	// A numeric -12.345 as numeric_send writes it: ndigits 2, weight 0, sign negative,
	// dscale 3, base-10000 digits 12 and 3450.
	numeric := []byte{0, 2, 0, 0, 0x40, 0, 0, 3, 0, 12, 0x0d, 0x7a}
	out, ok, err := pgvalue.AppendBinary(nil, 1700, numeric)
	fmt.Println(string(out), ok, err)

	// Microseconds since 2000-01-01 UTC.
	out, _, _ = pgvalue.AppendBinary(nil, 1184, []byte{0, 2, 0xb0, 0xec, 0x85, 0x17, 0xd5, 0x80})
	fmt.Println(string(out))

	// An int4 value one byte short.
	_, ok, err = pgvalue.AppendBinary(nil, 23, []byte{0, 0, 1})
	fmt.Println(ok, err)

	// A type without a codec here: not ok, and no error.
	_, ok, err = pgvalue.AppendBinary(nil, 600, make([]byte, 16))
	fmt.Println(ok, err)
	// Output:
	// -12.345 true <nil>
	// 2024-01-02 03:04:05.123456+00
	// false int4 value at offset 0: need 4 bytes, have 3
	// false <nil>
}

func ExampleAppendText() {
	fmt.Println(string(pgvalue.AppendText(nil, []byte("line 1\nline 2 \xff"))))
	// Output: line 1\nline 2 \xff
}

func ExampleBinaryValue() {
	v, _, _ := pgvalue.BinaryValue(1007, arrayBytes(23, 1, []byte{0, 0, 0, 7}, nil))
	fmt.Printf("%#v\n", v)
	// Output: []interface {}{7, interface {}(nil)}
}

func ExampleTypeName() {
	fmt.Println(pgvalue.TypeName(23), pgvalue.TypeName(1007), pgvalue.TypeName(1184), pgvalue.TypeName(16385) == "")
	// Output: int4 int4[] timestamptz true
}
