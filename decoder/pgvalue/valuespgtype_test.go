package pgvalue_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"pgoutput-inspector/decoder/pgvalue"
)

// pgtypeCase is one type in the differential test against pgtype: values are encoded with
// pgtype's binary encoder, and AppendBinary's text is compared with pgtype's text encoding of
// the same value.
type pgtypeCase struct {
	name   string
	oid    uint32
	values []any
	// normalize turns pgtype's text into PostgreSQL's where the two legitimately differ; nil
	// when they agree.
	normalize func(string) string
	// same, when set, decides equality instead of comparing text: for formats where pgtype
	// writes a different but equivalent notation. It gets AppendBinary's text (not escaped:
	// these types write ASCII only) and pgtype's.
	same func(got, pgtypeText string) bool
}

// pgtypeCases builds the values, seeded so every run tests the same ones.
func pgtypeCases() []pgtypeCase {
	r := rand.New(rand.NewPCG(1, 2))
	var cases []pgtypeCase
	add := func(c pgtypeCase) { cases = append(cases, c) }

	add(pgtypeCase{name: "bool", oid: 16, values: []any{true, false}})

	var byteas []any
	byteas = append(byteas, []byte{}, []byte{0}, []byte(`\"`))
	for i := 0; i < 50; i++ {
		byteas = append(byteas, randomBytes(r, r.IntN(40)))
	}
	add(pgtypeCase{name: "bytea", oid: 17, values: byteas})

	var chars []any
	for c := 0; c < 256; c++ {
		chars = append(chars, byte(c))
	}
	// pgtype writes the byte itself in text; charout writes a byte with the high bit set as
	// \ooo (octal) and the zero byte as the empty string.
	add(pgtypeCase{name: "char", oid: 18, values: chars, normalize: func(s string) string {
		switch {
		case s == "\x00":
			return ""
		case len(s) == 1 && s[0] >= 0x80:
			return fmt.Sprintf(`\%03o`, s[0])
		}
		return s
	}})

	var strs []any
	strs = append(strs, "", "plain", "NULL", "tab\there", "new\nline", `quote" back\slash`, "ümlaut ✓ 𝄞", "\u202eRTL", "\x7f\x01")
	for i := 0; i < 100; i++ {
		strs = append(strs, randomString(r))
	}
	for _, c := range []struct {
		name string
		oid  uint32
	}{{"text", 25}, {"varchar", 1043}, {"bpchar", 1042}, {"name", 19}} {
		add(pgtypeCase{name: c.name, oid: c.oid, values: strs})
	}
	jsons := []any{`{"a": 1}`, `[]`, `"x\ny"`, `{"k": "é", "n": [1, 2.5, null]}`, `null`}
	add(pgtypeCase{name: "json", oid: 114, values: jsons})
	add(pgtypeCase{name: "jsonb", oid: 3802, values: jsons})

	var int2s, int4s, int8s, oids []any
	int2s = append(int2s, int16(0), int16(-1), int16(math.MaxInt16), int16(math.MinInt16))
	int4s = append(int4s, int32(0), int32(-1), int32(math.MaxInt32), int32(math.MinInt32))
	int8s = append(int8s, int64(0), int64(-1), int64(math.MaxInt64), int64(math.MinInt64))
	oids = append(oids, uint32(0), uint32(math.MaxUint32))
	for i := 0; i < 200; i++ {
		int2s = append(int2s, int16(r.Uint32()))
		int4s = append(int4s, int32(r.Uint32()))
		int8s = append(int8s, int64(r.Uint64()))
		oids = append(oids, r.Uint32())
	}
	add(pgtypeCase{name: "int2", oid: 21, values: int2s})
	add(pgtypeCase{name: "int4", oid: 23, values: int4s})
	add(pgtypeCase{name: "int8", oid: 20, values: int8s})
	add(pgtypeCase{name: "oid", oid: 26, values: oids})

	// pgtype writes floats in plain notation ('f' format: "1000000000000000000000000000000"),
	// PostgreSQL switches to an exponent above 1e15 (float8) or 1e6 (float4) and below 1e-4,
	// and spells infinity "Infinity": both must denote the same float.
	var f4s, f8s []any
	for _, s := range []string{"0", "-0", "1", "0.1", "1e5", "1e6", "123456", "1e-4", "1e-5", "3.4028235e38", "1e-45", "16777216", "NaN", "Inf", "-Inf"} {
		f, _ := strconv.ParseFloat(s, 32)
		f4s = append(f4s, float32(f))
	}
	for _, s := range []string{"0", "-0", "1", "0.1", "1e14", "1e15", "1e22", "1e23", "1e-4", "1e-5", "5e-324", "1.7976931348623157e308", "9007199254740993", "NaN", "Inf", "-Inf"} {
		f, _ := strconv.ParseFloat(s, 64)
		f8s = append(f8s, f)
	}
	for i := 0; i < 3000; i++ {
		f4s = append(f4s, math.Float32frombits(r.Uint32()))
		f8s = append(f8s, math.Float64frombits(r.Uint64()))
		// Short decimals hit the half-way cases (like 1e23) far more often than random bits.
		dec := strconv.Itoa(1+r.IntN(999)) + "e" + strconv.Itoa(r.IntN(80)-40)
		f, _ := strconv.ParseFloat(dec, 64)
		f8s = append(f8s, f)
		f, _ = strconv.ParseFloat(dec, 32)
		f4s = append(f4s, float32(f))
	}
	sameFloat := func(bitSize int) func(got, want string) bool {
		return func(got, want string) bool {
			switch want {
			case "+Inf":
				want = "Infinity"
			case "-Inf":
				want = "-Infinity"
			}
			g, err1 := strconv.ParseFloat(strings.Replace(got, "Infinity", "Inf", 1), bitSize)
			w, err2 := strconv.ParseFloat(strings.Replace(want, "Infinity", "Inf", 1), bitSize)
			return err1 == nil && err2 == nil && (g == w && math.Signbit(g) == math.Signbit(w) || math.IsNaN(g) && math.IsNaN(w))
		}
	}
	add(pgtypeCase{name: "float4", oid: 700, values: f4s, same: sameFloat(32)})
	add(pgtypeCase{name: "float8", oid: 701, values: f8s, same: sameFloat(64)})

	var uuids []any
	uuids = append(uuids, [16]byte{}, [16]byte{0: 0xff, 15: 0x01})
	for i := 0; i < 50; i++ {
		var u [16]byte
		copy(u[:], randomBytes(r, 16))
		uuids = append(uuids, u)
	}
	add(pgtypeCase{name: "uuid", oid: 2950, values: uuids})

	// Dates and timestamps from 4713 BC to 294276 AD, the range both sides accept.
	// (In seconds: the end is past what int64 microseconds since 1970 can hold.)
	minTime := time.Date(-4712, 11, 24, 0, 0, 0, 0, time.UTC)
	maxTime := time.Date(294276, 12, 31, 23, 59, 59, 999999000, time.UTC)
	var dates, tss, tstzs []any
	dates = append(dates, pgtype.Date{InfinityModifier: pgtype.Infinity, Valid: true}, pgtype.Date{InfinityModifier: pgtype.NegativeInfinity, Valid: true})
	tss = append(tss, pgtype.Timestamp{InfinityModifier: pgtype.Infinity, Valid: true}, pgtype.Timestamp{InfinityModifier: pgtype.NegativeInfinity, Valid: true})
	tstzs = append(tstzs, pgtype.Timestamptz{InfinityModifier: pgtype.Infinity, Valid: true}, pgtype.Timestamptz{InfinityModifier: pgtype.NegativeInfinity, Valid: true})
	for _, t := range []time.Time{minTime, maxTime, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(0, 12, 31, 23, 59, 59, 500000000, time.UTC), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)} {
		dates = append(dates, pgtype.Date{Time: t.Truncate(24 * time.Hour), Valid: true})
		tss = append(tss, pgtype.Timestamp{Time: t, Valid: true})
		tstzs = append(tstzs, pgtype.Timestamptz{Time: t, Valid: true})
	}
	for i := 0; i < 1000; i++ {
		t := time.Unix(minTime.Unix()+r.Int64N(maxTime.Unix()-minTime.Unix()), r.Int64N(1000000)*1000).UTC()
		near := time.UnixMicro(r.Int64N(4e15) - 2e15).UTC() // within about 63 years of 1970
		y, m, d := t.Date()
		dates = append(dates, pgtype.Date{Time: time.Date(y, m, d, 0, 0, 0, 0, time.UTC), Valid: true})
		tss = append(tss, pgtype.Timestamp{Time: t, Valid: true}, pgtype.Timestamp{Time: near, Valid: true})
		tstzs = append(tstzs, pgtype.Timestamptz{Time: t, Valid: true}, pgtype.Timestamptz{Time: near, Valid: true})
	}
	add(pgtypeCase{name: "date", oid: 1082, values: dates})
	add(pgtypeCase{name: "timestamp", oid: 1114, values: tss})
	// pgtype writes the UTC offset as Go's "Z"; PostgreSQL as "+00".
	add(pgtypeCase{name: "timestamptz", oid: 1184, values: tstzs, normalize: func(s string) string {
		return strings.Replace(s, "Z", "+00", 1)
	}})

	var times []any
	times = append(times, pgtype.Time{Microseconds: 0, Valid: true}, pgtype.Time{Microseconds: 86400000000, Valid: true}, pgtype.Time{Microseconds: 1, Valid: true})
	for i := 0; i < 300; i++ {
		us := r.Int64N(86400000001)
		if i%3 == 0 {
			us -= us % 1000000 // whole seconds
		}
		times = append(times, pgtype.Time{Microseconds: us, Valid: true})
	}
	// pgtype always writes six fraction digits; PostgreSQL drops trailing zeros, and the
	// point when nothing is left.
	add(pgtypeCase{name: "time", oid: 1083, values: times, normalize: func(s string) string {
		s = strings.TrimRight(s, "0")
		return strings.TrimSuffix(s, ".")
	}})

	var intervals []any
	for _, iv := range [][3]int64{{0, 0, 0}, {1, 1, 1}, {-1, -1, -1}, {14, 3, 14706789000}, {-14, 0, 0}, {0, -1, 7200000000}, {1, -1, 0}, {0, 0, -1}, {12, 0, 0}, {-12, 0, 0}} {
		intervals = append(intervals, pgtype.Interval{Months: int32(iv[0]), Days: int32(iv[1]), Microseconds: iv[2], Valid: true})
	}
	for i := 0; i < 500; i++ {
		iv := pgtype.Interval{Months: int32(r.IntN(2000) - 1000), Days: int32(r.IntN(200) - 100), Microseconds: r.Int64N(2e12) - 1e12, Valid: true}
		switch i % 4 {
		case 1:
			iv.Months = 0
		case 2:
			iv.Days, iv.Microseconds = 0, 0
		case 3:
			iv.Microseconds -= iv.Microseconds % 1000000
		}
		intervals = append(intervals, iv)
	}
	// pgtype's text is "14 mon 3 day 04:05:06.789000", PostgreSQL's (IntervalStyle postgres)
	// "1 year 2 mons 3 days 04:05:06.789": both must read back, with pgtype's own text
	// parser, as the same months, days and microseconds.
	add(pgtypeCase{name: "interval", oid: 1186, values: intervals, same: func(got, want string) bool {
		m := pgtype.NewMap()
		var g, w pgtype.Interval
		if m.Scan(1186, pgtype.TextFormatCode, []byte(got), &g) != nil || m.Scan(1186, pgtype.TextFormatCode, []byte(want), &w) != nil {
			return false
		}
		return g == w
	}})

	var numerics []any
	numerics = append(numerics, pgtype.Numeric{NaN: true, Valid: true}, pgtype.Numeric{InfinityModifier: pgtype.Infinity, Valid: true}, pgtype.Numeric{InfinityModifier: pgtype.NegativeInfinity, Valid: true})
	for _, n := range []struct {
		i string
		e int32
	}{{"0", 0}, {"0", -3}, {"1", 0}, {"-1", 0}, {"123456", -3}, {"-1234560", -4}, {"1", 100}, {"-1", -100}, {"10000", 0}, {"99999999", -4}, {"1", -4}, {"1", -5}, {"5", 3}} {
		i, _ := new(big.Int).SetString(n.i, 10)
		numerics = append(numerics, pgtype.Numeric{Int: i, Exp: n.e, Valid: true})
	}
	for i := 0; i < 1000; i++ {
		digits := randomDigits(r, 1+r.IntN(40))
		v, _ := new(big.Int).SetString(digits, 10)
		if r.IntN(2) == 0 {
			v.Neg(v)
		}
		numerics = append(numerics, pgtype.Numeric{Int: v, Exp: int32(r.IntN(60) - 40), Valid: true})
	}
	// pgtype writes zero with a positive exponent as "0" and that many zeros ("0000"); its
	// binary form is plain zero, which PostgreSQL shows as "0".
	add(pgtypeCase{name: "numeric", oid: 1700, values: numerics, normalize: func(s string) string {
		if strings.Trim(s, "0") == "" && s != "" {
			return "0"
		}
		return s
	}})

	// pgtype writes inet through netip.Prefix.String: always "/bits", and IPv4 addresses
	// embedded in IPv6 ones as hex words ("::102:304"), where PostgreSQL omits /32 and /128 for
	// inet and writes ::1.2.3.4 and ::ffff:1.2.3.4 in dotted decimal: both must parse as the
	// same prefix.
	samePrefix := func(got, want string) bool {
		g, err1 := parsePrefix(got)
		w, err2 := parsePrefix(want)
		return err1 == nil && err2 == nil && g == w
	}
	var inets, cidrs []any
	for _, s := range []string{"192.168.1.1/32", "192.168.1.0/24", "0.0.0.0/0", "::1/128", "::/0", "::ffff:1.2.3.4/128", "::1.2.3.4/128", "1::/128", "1:0:0:1:0:0:0:1/128", "2001:db8::1/64", "fe80::1:0:0:1/128"} {
		p := netip.MustParsePrefix(s)
		inets = append(inets, p)
		cidrs = append(cidrs, p.Masked())
	}
	for i := 0; i < 500; i++ {
		var p netip.Prefix
		if i%3 == 0 {
			var a [4]byte
			copy(a[:], randomBytes(r, 4))
			p = netip.PrefixFrom(netip.AddrFrom4(a), r.IntN(33))
		} else {
			var a [16]byte
			for w := 0; w < 8; w++ {
				if r.IntN(2) == 0 {
					a[2*w], a[2*w+1] = byte(r.UintN(256)), byte(r.UintN(256))
				}
			}
			p = netip.PrefixFrom(netip.AddrFrom16(a), r.IntN(129))
		}
		inets = append(inets, p)
		cidrs = append(cidrs, p.Masked())
	}
	add(pgtypeCase{name: "inet", oid: 869, values: inets, same: samePrefix})
	add(pgtypeCase{name: "cidr", oid: 650, values: cidrs, same: samePrefix})
	return cases
}

// parsePrefix parses an inet or cidr text as a prefix, /32 or /128 when it has none.
func parsePrefix(s string) (netip.Prefix, error) {
	if !strings.Contains(s, "/") {
		a, err := netip.ParseAddr(s)
		if err != nil {
			return netip.Prefix{}, err
		}
		return netip.PrefixFrom(a, a.BitLen()), nil
	}
	return netip.ParsePrefix(s)
}

func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	return b
}

func randomDigits(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + r.IntN(10))
	}
	return string(b)
}

// randomString mixes ASCII, array-literal syntax, white space, controls, non-ASCII letters and
// now and then a byte that is not UTF-8.
func randomString(r *rand.Rand) string {
	pieces := []string{"a", "Z", "0", " ", ",", "{", "}", `"`, `\`, "\t", "\n", "\r", "\v", "\f", "\x01", "\x7f", "é", "✓", "𝄞", "\u0085", "\u2028", "NULL", "null", "\xff"}
	var sb strings.Builder
	for n := r.IntN(12); n > 0; n-- {
		sb.WriteString(pieces[r.IntN(len(pieces))])
	}
	return sb.String()
}

func TestAppendBinaryAgainstPgtype(t *testing.T) {
	m := pgtype.NewMap()
	for _, c := range pgtypeCases() {
		t.Run(c.name, func(t *testing.T) {
			arrayOID := arrayOf(t, c.oid)
			for i, v := range c.values {
				bin, err := m.Encode(c.oid, pgtype.BinaryFormatCode, v, nil)
				if err != nil {
					t.Fatalf("value %d (%v): pgtype binary: %v", i, v, err)
				}
				text, err := m.Encode(c.oid, pgtype.TextFormatCode, v, nil)
				if err != nil {
					t.Fatalf("value %d (%v): pgtype text: %v", i, v, err)
				}
				got, ok, err := pgvalue.AppendBinary(nil, c.oid, bin)
				if !ok {
					t.Errorf("value %d (%v): AppendBinary(%x): not ok: %v", i, v, bin, err)
					continue
				}
				if !c.matches(string(got), string(text)) {
					t.Errorf("value %d (%v): AppendBinary(%x) = %q, pgtype text %q", i, v, bin, got, text)
				}
				checkForms(t, c.oid, bin)
			}
			// The same values as one array, with a NULL element.
			arr := append(append([]any{}, c.values...), nil)
			bin, err := m.Encode(arrayOID, pgtype.BinaryFormatCode, arr, nil)
			if err != nil {
				t.Fatalf("array: pgtype binary: %v", err)
			}
			text, err := m.Encode(arrayOID, pgtype.TextFormatCode, arr, nil)
			if err != nil {
				t.Fatalf("array: pgtype text: %v", err)
			}
			got, ok, err := pgvalue.AppendBinary(nil, arrayOID, bin)
			if !ok {
				t.Fatalf("array: AppendBinary: not ok: %v", err)
			}
			if msg := c.matchesArray(string(got), string(text)); msg != "" {
				t.Errorf("array: %s", msg)
			}
			checkForms(t, arrayOID, bin)
		})
	}
}

// matches compares AppendBinary's text with pgtype's text of the same value.
func (c pgtypeCase) matches(got, pgtypeText string) bool {
	if c.same != nil {
		return c.same(got, pgtypeText)
	}
	if c.normalize != nil {
		pgtypeText = c.normalize(pgtypeText)
	}
	return got == string(pgvalue.AppendText(nil, []byte(pgtypeText)))
}

// matchesArray compares array texts element by element. Besides each element's own
// normalisation, pgtype quotes an element only for leading or trailing white space, where
// array_out quotes it for white space anywhere ("a b"): so both texts are split into elements
// first, and pgtype's elements are re-quoted as array_out would.
func (c pgtypeCase) matchesArray(got, pgtypeText string) string {
	want, err := splitArray(pgtypeText)
	if err != nil {
		return fmt.Sprintf("pgtype text %q: %v", pgtypeText, err)
	}
	// AppendBinary's text is escaped for display; so is the expected text below.
	var sb strings.Builder
	sb.WriteByte('{')
	for i, e := range want {
		if i > 0 {
			sb.WriteByte(',')
		}
		if e == nil {
			sb.WriteString("NULL")
			continue
		}
		s := *e
		if c.normalize != nil {
			s = c.normalize(s)
		}
		sb.WriteString(quoteLikeArrayOut(s))
	}
	sb.WriteByte('}')
	if c.same == nil {
		w := string(pgvalue.AppendText(nil, []byte(sb.String())))
		if got == w {
			return ""
		}
		// Name the first difference rather than print two long arrays.
		i := 0
		for i < len(got) && i < len(w) && got[i] == w[i] {
			i++
		}
		from := max(0, i-40)
		return fmt.Sprintf("AppendBinary and pgtype's re-quoted text differ at byte %d: %q vs %q", i, got[from:min(len(got), i+40)], w[from:min(len(w), i+40)])
	}
	gotElems, err := splitArray(got)
	if err != nil {
		return fmt.Sprintf("AppendBinary text %q: %v", got, err)
	}
	if len(gotElems) != len(want) {
		return fmt.Sprintf("AppendBinary has %d elements, pgtype %d", len(gotElems), len(want))
	}
	for i := range want {
		switch {
		case (want[i] == nil) != (gotElems[i] == nil):
			return fmt.Sprintf("element %d: NULL on one side only", i+1)
		case want[i] != nil && !c.same(*gotElems[i], *want[i]):
			return fmt.Sprintf("element %d: AppendBinary %q, pgtype %q", i+1, *gotElems[i], *want[i])
		}
	}
	return ""
}

// quoteLikeArrayOut quotes an element as array_out does (a test-side restatement of its rule).
func quoteLikeArrayOut(s string) string {
	quote := s == "" || strings.EqualFold(s, "NULL") || strings.ContainsAny(s, "{},\"\\ \t\n\r\v\f")
	if !quote {
		return s
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// splitArray splits a one-dimensional array literal ("{a,\"b c\",NULL}") into its elements, nil
// for NULL.
func splitArray(s string) ([]*string, error) {
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return nil, fmt.Errorf("not a one-dimensional array literal")
	}
	s = s[1 : len(s)-1]
	var out []*string
	if s == "" {
		return out, nil
	}
	for i := 0; ; {
		var el strings.Builder
		quoted := false
		if i < len(s) && s[i] == '"' {
			quoted = true
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
				if i < len(s) {
					el.WriteByte(s[i])
				}
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated quote")
			}
			i++
		} else {
			for ; i < len(s) && s[i] != ','; i++ {
				el.WriteByte(s[i])
			}
		}
		e := el.String()
		if !quoted && e == "NULL" {
			out = append(out, nil)
		} else {
			out = append(out, &e)
		}
		if i >= len(s) {
			return out, nil
		}
		if s[i] != ',' {
			return nil, fmt.Errorf("expected a comma at %d", i)
		}
		i++
	}
}

// arrayOf finds the array type of elem in the type table.
func arrayOf(t *testing.T, elem uint32) uint32 {
	t.Helper()
	for _, ty := range pgvalue.BuiltinTypes() {
		if ty.Elem == elem {
			return ty.OID
		}
	}
	t.Fatalf("no array type of %d", elem)
	return 0
}
