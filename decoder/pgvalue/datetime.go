package pgvalue

import (
	"math"
	"strconv"
)

// Calendar constants shared by the date and time types (PostgreSQL's datatype/timestamp.h).
const (
	// unixEpochDays is 2000-01-01, the zero of date and timestamp, in days since 1970-01-01.
	unixEpochDays = 10957
	// minDate and endDate bound date's days since 2000-01-01: 4714-11-24 BC (Julian day 0)
	// and one past 5874897-12-31.
	minDate = -2451545
	endDate = 2147483494 - 2451545
	// minTimestamp is 4714-11-24 00:00:00 BC (Julian day 0) in microseconds since 2000-01-01.
	minTimestamp = -211813488000000000
	// endTimestamp is 294277-01-01 00:00:00, one past the largest timestamp.
	endTimestamp = 9223371331200000000

	usecsPerSec    = 1000000
	usecsPerMinute = 60 * usecsPerSec
	usecsPerHour   = 60 * usecsPerMinute
	usecsPerDay    = 24 * usecsPerHour
)

// civil converts days since 1970-01-01 to a proleptic Gregorian date with an astronomical year
// (0 is 1 BC, -1 is 2 BC), exact for every int64 (Howard Hinnant's civil_from_days). It is the
// one calendar routine: dates, timestamps and the protocol's timestamps all go through it.
// size: docs/performance.md, "Size tricks".
func civil(z int64) (y, m, d int64) {
	z += 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	if mp < 10 {
		m = mp + 3
	} else {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

// splitDay splits microseconds since 2000-01-01 into days since 1970-01-01 and microseconds into
// the day, flooring for times before.
func splitDay(us int64) (days, inDay int64) {
	days, inDay = us/usecsPerDay, us%usecsPerDay
	if inDay < 0 {
		days--
		inDay += usecsPerDay
	}
	return days + unixEpochDays, inDay
}

// AppendRFC3339 appends a timestamp (microseconds since 2000-01-01 00:00:00 UTC, the form of
// the replication protocol's timestamps and of timestamptz) as RFC 3339 in UTC with microseconds,
// "2024-05-06T07:08:09.123456Z". PostgreSQL's infinity values print as "infinity"/"-infinity";
// years outside 0000-9999, which RFC 3339 cannot write, print with their sign and all digits.
func AppendRFC3339(dst []byte, us int64) []byte {
	switch us {
	case math.MaxInt64:
		return append(dst, "infinity"...)
	case math.MinInt64:
		return append(dst, "-infinity"...)
	}
	days, inDay := splitDay(us)
	y, m, d := civil(days)
	dst = appendISOYMD(dst, y, m, d)
	dst = append(dst, 'T')
	dst = appendPad(dst, inDay/usecsPerHour, 2)
	dst = append(dst, ':')
	dst = appendPad(dst, inDay/usecsPerMinute%60, 2)
	dst = append(dst, ':')
	dst = appendPad(dst, inDay/usecsPerSec%60, 2)
	dst = append(dst, '.')
	dst = appendPad(dst, inDay%usecsPerSec, 6)
	return append(dst, 'Z')
}

// AppendUnixNano appends a time in nanoseconds since 1970-01-01 00:00:00 UTC (a packet
// capture's) as AppendRFC3339 does, with microseconds.
func AppendUnixNano(dst []byte, ns int64) []byte {
	return AppendRFC3339(dst, ns/1000-unixEpochDays*usecsPerDay)
}

// appendPad appends v (>= 0) in decimal with at least width digits.
func appendPad(dst []byte, v int64, width int) []byte {
	var buf [20]byte
	s := strconv.AppendInt(buf[:0], v, 10)
	for k := len(s); k < width; k++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}

// appendYMD appends YYYY-MM-DD with PostgreSQL's year: the BC year counted from 1 for year <= 0
// (the caller adds " BC").
func appendYMD(dst []byte, year, month, day int64) []byte {
	if year <= 0 {
		year = -(year - 1)
	}
	dst = appendPad(dst, year, 4)
	dst = append(dst, '-')
	dst = appendPad(dst, month, 2)
	dst = append(dst, '-')
	return appendPad(dst, day, 2)
}

// appendISOYMD appends an ISO 8601 date with an astronomical year: four digits for years 0 to
// 9999, a sign and at least four digits otherwise.
func appendISOYMD(dst []byte, year, month, day int64) []byte {
	switch {
	case year < 0:
		dst = append(dst, '-')
		year = -year
	case year > 9999:
		dst = append(dst, '+')
	}
	dst = appendPad(dst, year, 4)
	dst = append(dst, '-')
	dst = appendPad(dst, month, 2)
	dst = append(dst, '-')
	return appendPad(dst, day, 2)
}

// checkDate: date_recv accepts 4714-11-24 BC to 5874897-12-31, and ±infinity.
func checkDate(days int32) *ValueError {
	if days == math.MinInt32 || days == math.MaxInt32 || days >= minDate && days < endDate {
		return nil
	}
	return valueError(oidDate, 0, "date out of range: "+strconv.FormatInt(int64(days), 10)+" days from 2000-01-01")
}

// appendDate formats a checked date_send's days since 2000-01-01; INT32_MIN and INT32_MAX are
// -infinity and infinity.
func appendDate(dst []byte, days int32) []byte {
	switch days {
	case math.MinInt32:
		return append(dst, "-infinity"...)
	case math.MaxInt32:
		return append(dst, "infinity"...)
	}
	y, m, d := civil(int64(days) + unixEpochDays)
	dst = appendYMD(dst, y, m, d)
	if y <= 0 {
		dst = append(dst, " BC"...)
	}
	return dst
}

// appendISODate formats a checked date as ISO 8601 with an astronomical year ("2024-01-02",
// "-4713-11-24"), or infinity and -infinity.
func appendISODate(dst []byte, days int32) []byte {
	switch days {
	case math.MinInt32:
		return append(dst, "-infinity"...)
	case math.MaxInt32:
		return append(dst, "infinity"...)
	}
	y, m, d := civil(int64(days) + unixEpochDays)
	return appendISOYMD(dst, y, m, d)
}

// appendSeconds appends sec as two digits and, when fsec (microseconds, >= 0) is not zero, a
// point and its digits without trailing zeros (AppendSeconds in datetime.c).
func appendSeconds(dst []byte, sec, fsec int64) []byte {
	dst = appendPad(dst, sec, 2)
	if fsec == 0 {
		return dst
	}
	dst = append(dst, '.')
	var frac [6]byte
	n := 0
	for k := 5; k >= 0; k-- {
		frac[k] = byte('0' + fsec%10)
		fsec /= 10
		if n == 0 && frac[k] != '0' {
			n = k + 1
		}
	}
	return append(dst, frac[:n]...)
}

// appendClock appends HH:MM:SS[.ffffff] for us microseconds since midnight (0 .. 24:00:00).
func appendClock(dst []byte, us int64) []byte {
	dst = appendPad(dst, us/usecsPerHour, 2)
	dst = append(dst, ':')
	dst = appendPad(dst, us/usecsPerMinute%60, 2)
	dst = append(dst, ':')
	return appendSeconds(dst, us/usecsPerSec%60, us%usecsPerSec)
}

// checkTimestamp: timestamp_recv accepts 4714-11-24 BC to 294276-12-31, and ±infinity.
func checkTimestamp(oid uint32, us int64) *ValueError {
	if us == math.MinInt64 || us == math.MaxInt64 || us >= minTimestamp && us < endTimestamp {
		return nil
	}
	return valueError(oid, 0, "timestamp out of range: "+strconv.FormatInt(us, 10)+" microseconds from 2000-01-01")
}

// appendTimestamp formats a checked timestamp_send's microseconds since 2000-01-01 (UTC for
// timestamptz): "2024-01-02 03:04:05.123456", "+00" after it for timestamptz, " BC" last. With
// iso it writes the JSON form instead: "2024-01-02T03:04:05.123456" and "Z" for timestamptz, the
// year astronomical (0 is 1 BC, -1 is 2 BC) with a sign outside 0..9999, as ISO 8601 extends it.
func appendTimestamp(dst []byte, oid uint32, us int64, iso bool) []byte {
	switch us {
	case math.MinInt64:
		return append(dst, "-infinity"...)
	case math.MaxInt64:
		return append(dst, "infinity"...)
	}
	days, inDay := splitDay(us)
	y, m, d := civil(days)
	if iso {
		dst = appendISOYMD(dst, y, m, d)
		dst = append(dst, 'T')
		dst = appendClock(dst, inDay)
		if oid == oidTimestampTZ {
			dst = append(dst, 'Z')
		}
		return dst
	}
	dst = appendYMD(dst, y, m, d)
	dst = append(dst, ' ')
	dst = appendClock(dst, inDay)
	if oid == oidTimestampTZ {
		dst = append(dst, '+', '0', '0')
	}
	if y <= 0 {
		dst = append(dst, " BC"...)
	}
	return dst
}

// appendInterval formats interval_send's fields as interval_out does with IntervalStyle postgres:
// "1 year 2 mons 3 days 04:05:06.789", "-1 days +02:00:00", "00:00:00". All three fields at
// their minimum or maximum are -infinity and infinity (PostgreSQL 17 and later).
func appendInterval(dst []byte, us int64, days, months int32) []byte {
	if us == math.MinInt64 && days == math.MinInt32 && months == math.MinInt32 {
		return append(dst, "-infinity"...)
	}
	if us == math.MaxInt64 && days == math.MaxInt32 && months == math.MaxInt32 {
		return append(dst, "infinity"...)
	}
	isZero, isBefore := true, false
	dst = appendIntervalPart(dst, int64(months/12), "year", &isZero, &isBefore)
	dst = appendIntervalPart(dst, int64(months%12), "mon", &isZero, &isBefore)
	dst = appendIntervalPart(dst, int64(days), "day", &isZero, &isBefore)
	hour := us / usecsPerHour
	us -= hour * usecsPerHour
	mins := us / usecsPerMinute
	us -= mins * usecsPerMinute
	sec := us / usecsPerSec
	fsec := us - sec*usecsPerSec
	if isZero || hour != 0 || mins != 0 || sec != 0 || fsec != 0 {
		if !isZero {
			dst = append(dst, ' ')
		}
		if hour < 0 || mins < 0 || sec < 0 || fsec < 0 {
			dst = append(dst, '-')
			// Negating cannot overflow: |INT64_MIN / usecsPerHour| is far below INT64_MAX.
			hour, mins, sec, fsec = -hour, -mins, -sec, -fsec
		} else if isBefore {
			dst = append(dst, '+')
		}
		dst = appendPad(dst, hour, 2)
		dst = append(dst, ':')
		dst = appendPad(dst, mins, 2)
		dst = append(dst, ':')
		dst = appendSeconds(dst, sec, fsec)
	}
	return dst
}

// appendIntervalPart is AddPostgresIntPart: a non-zero field as "3 days" ("1 day" for one), with
// an explicit "+" when the field before it was negative.
func appendIntervalPart(dst []byte, v int64, unit string, isZero, isBefore *bool) []byte {
	if v == 0 {
		return dst
	}
	if !*isZero {
		dst = append(dst, ' ')
	}
	if *isBefore && v > 0 {
		dst = append(dst, '+')
	}
	dst = strconv.AppendInt(dst, v, 10)
	dst = append(dst, ' ')
	dst = append(dst, unit...)
	if v != 1 {
		dst = append(dst, 's')
	}
	*isBefore = v < 0
	*isZero = false
	return dst
}
