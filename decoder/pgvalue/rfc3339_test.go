package pgvalue

import (
	"strings"
	"testing"
	"time"
)

// AppendRFC3339 agrees with the time package wherever RFC 3339 can write the year.
func TestAppendRFC3339(t *testing.T) {
	epoch := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, us := range []int64{0, 1, -1, 999999, -1000000, 86400e6 - 1, 768_000_001, 1e15, -1e15,
		-63082281600e6 + 1, 252455615999999999, -946684800e6, 5e17, 1 << 62 / 100} {
		want := epoch.Add(time.Duration(us) * time.Microsecond)
		if us >= 1<<62/1000 || us <= -(1<<62/1000) {
			want = time.Unix(946684800+us/1e6, us%1e6*1e3).UTC()
		}
		got := string(AppendRFC3339(nil, us))
		if want.Year() >= 0 && want.Year() <= 9999 {
			if w := want.Format("2006-01-02T15:04:05.000000Z07:00"); got != w {
				t.Errorf("%d: %s, want %s", us, got, w)
			}
		}
	}
	for us, want := range map[int64]string{
		1<<63 - 1:           "infinity",
		-1 << 63:            "-infinity",
		1<<63 - 2:           "+294277-01-09T04:00:54.775806Z",
		-211813488000000000: "-4713-11-24T00:00:00.000000Z",
		-1<<63 + 1:          "-290278-12-22T19:59:05.224193Z",
	} {
		if got := string(AppendRFC3339(nil, us)); got != want {
			t.Errorf("%d: %s, want %s", us, got, want)
		}
	}
}

// ParseRFC3339 reads back every timestamp AppendRFC3339 writes, agrees with the time package on
// what RFC 3339 can write, and refuses what is not a timestamp.
func TestParseRFC3339(t *testing.T) {
	vals := []int64{0, 1, -1, 999999, -1000000, 86400e6 - 1, 768_000_001, 1e15, -1e15, 1<<63 - 1, -1 << 63,
		1<<63 - 2, -1<<63 + 1, -211813488000000000, 252455615999999999, -63082281600e6, -63082281600e6 - 1}
	for v := int64(1); v < 1<<62; v = v*3 + 7 {
		vals = append(vals, v, -v)
	}
	for _, us := range vals {
		text := string(AppendRFC3339(nil, us))
		got, ok := ParseRFC3339(text)
		if !ok || got != us {
			t.Errorf("%s: read %d %v, want %d", text, got, ok, us)
		}
	}
	for _, s := range []string{"2024-05-06T07:08:09.123456Z", "2024-05-06T07:08:09Z",
		"2024-05-06t07:08:09.1z", "2000-01-01T00:00:01.5+01:00", "1999-12-31T23:59:59.999999-09:30", "0000-01-01T00:00:00Z", "2024-02-29T12:00:00+14:00"} {
		want, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := ParseRFC3339(s)
		if w := (want.Unix()-946684800)*1e6 + int64(want.Nanosecond()/1e3); !ok || got != w {
			t.Errorf("%s: %d %v, want %d", s, got, ok, w)
		}
	}
	for _, s := range []string{"", "2024-05-06", "2024-05-06T07:08:09", "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z",
		"2024-13-01T00:00:00Z", "2024-05-06T24:00:00Z", "2024-05-06T07:60:00Z", "2024-05-06T07:08:60Z",
		"2024-05-06T07:08:09.Z", "2024-05-06T07:08:09.1234567Z", "2024-05-06T07:08:09Z ", " 2024-05-06T07:08:09Z",
		"12024-05-06T07:08:09Z", "+294277-01-10T04:00:54.775807Z", "-290308-12-21T19:59:05.224192Z",
		"2024-05-06T07:08:09+24:00", "2024-05-06T07:08:09+0100", "Infinity", "+infinity"} {
		if got, ok := ParseRFC3339(s); ok {
			t.Errorf("%q read as %d", s, got)
		}
	}
}

// ParseLSN reads back what AppendLSN writes, in either case, and nothing but two groups of one
// to eight hex digits around a slash.
func TestParseLSN(t *testing.T) {
	for _, v := range []uint64{0, 1, 0x1773FE8, 0x16B374D848, 1<<32 - 1, 1 << 32, 1<<64 - 1} {
		text := FormatLSN(v)
		for _, s := range []string{text, strings.ToLower(text)} {
			if got, ok := ParseLSN(s); !ok || got != v {
				t.Errorf("%s: %x %v, want %x", s, got, ok, v)
			}
		}
	}
	if got, ok := ParseLSN("00000016/0B374D848"); ok {
		t.Errorf("nine digits read as %x", got)
	}
	for _, s := range []string{"", "/", "1/", "/1", "1773FE8", "0x1/2", "+1/2", "1/-2", "1_0/2", "1/2/3", "G/0", " 1/2", "1/2 ", "100000000/0"} {
		if got, ok := ParseLSN(s); ok {
			t.Errorf("%q read as %x", s, got)
		}
	}
}
