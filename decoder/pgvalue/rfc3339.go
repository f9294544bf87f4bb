package pgvalue

// AppendRFC3339 appends a timestamp (microseconds since 2000-01-01 00:00:00 UTC, the form of
// the replication protocol's timestamps and of timestamptz) as RFC 3339 in UTC with microseconds,
// "2024-05-06T07:08:09.123456Z". PostgreSQL's infinity values print as "infinity"/"-infinity";
// years outside 0000-9999, which RFC 3339 cannot write, print with their sign and all digits.
func AppendRFC3339(dst []byte, us int64) []byte {
	switch us {
	case 1<<63 - 1:
		return append(dst, "infinity"...)
	case -1 << 63:
		return append(dst, "-infinity"...)
	}
	// Split into days since 2000-01-01 and microseconds of the day, flooring for times before.
	const usPerDay = 86400 * 1e6
	days, rem := us/usPerDay, us%usPerDay
	if rem < 0 {
		days--
		rem += usPerDay
	}
	y, m, d := civil(days + 10957) // days from 1970-01-01
	switch {
	case y < 0:
		dst = append(dst, '-')
		dst = appendPad(dst, -y, 4)
	case y > 9999:
		dst = append(dst, '+')
		dst = appendPad(dst, y, 4)
	default:
		dst = appendPad(dst, y, 4)
	}
	dst = append(dst, '-')
	dst = appendPad(dst, m, 2)
	dst = append(dst, '-')
	dst = appendPad(dst, d, 2)
	dst = append(dst, 'T')
	secs := rem / 1e6
	dst = appendPad(dst, secs/3600, 2)
	dst = append(dst, ':')
	dst = appendPad(dst, secs/60%60, 2)
	dst = append(dst, ':')
	dst = appendPad(dst, secs%60, 2)
	dst = append(dst, '.')
	dst = appendPad(dst, rem%1e6, 6)
	return append(dst, 'Z')
}

// civil converts days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
// days_from_civil inverse), exact for every int64 timestamp.
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
