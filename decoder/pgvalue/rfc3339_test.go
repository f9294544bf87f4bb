package pgvalue

import (
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
