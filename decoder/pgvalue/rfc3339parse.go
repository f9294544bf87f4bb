package pgvalue

import (
	"math"
	"strconv"
)

// ParseRFC3339 reads a timestamp as AppendRFC3339 writes it, into microseconds since
// 2000-01-01 00:00:00 UTC: "2024-05-06T07:08:09.123456Z", with zero to six digits of
// fraction, 'Z' or a "+hh:mm"/"-hh:mm" offset, a lower-case t or z, and a year of four digits
// or, as AppendRFC3339 writes years outside 0000-9999, a sign and four or more digits.
// "infinity" and "-infinity" are PostgreSQL's infinite timestamps. Every value AppendRFC3339
// writes reads back to itself; ok is false for anything else, and for instants an int64 of
// microseconds cannot hold.
func ParseRFC3339(s string) (us int64, ok bool) {
	switch s {
	case "infinity":
		return math.MaxInt64, true
	case "-infinity":
		return math.MinInt64, true
	}
	p := timeText{s: s}
	signed, neg := p.peek() == '+' || p.peek() == '-', p.peek() == '-'
	if signed {
		p.s = p.s[1:]
	}
	year, n := p.digits(12)
	if n < 4 || n > 4 && !signed {
		return 0, false
	}
	if neg {
		year = -year
	}
	month, day := int64(0), int64(0)
	hour, minute, sec := int64(0), int64(0), int64(0)
	if !p.lit('-') || !p.two(&month) || !p.lit('-') || !p.two(&day) ||
		!(p.lit('T') || p.lit('t')) || !p.two(&hour) || !p.lit(':') || !p.two(&minute) || !p.lit(':') || !p.two(&sec) {
		return 0, false
	}
	if month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || sec > 59 {
		return 0, false
	}
	var frac int64
	if p.lit('.') {
		f, n := p.digits(6)
		if n == 0 || p.peek() >= '0' && p.peek() <= '9' {
			return 0, false
		}
		for ; n < 6; n++ {
			f *= 10
		}
		frac = f
	}
	var offset int64 // seconds east of UTC
	switch {
	case p.lit('Z') || p.lit('z'):
	case p.peek() == '+' || p.peek() == '-':
		sign := int64(1)
		if p.s[0] == '-' {
			sign = -1
		}
		p.s = p.s[1:]
		var oh, om int64
		if !p.two(&oh) || !p.lit(':') || !p.two(&om) || oh > 23 || om > 59 {
			return 0, false
		}
		offset = sign * (oh*3600 + om*60)
	default:
		return 0, false
	}
	if p.s != "" {
		return 0, false
	}
	days := daysFromCivil(year, month, day) - unixEpochDays
	// |days| within maxDays keeps days*usecsPerDay within an int64; the addition is checked.
	const maxDays = math.MaxInt64 / usecsPerDay
	inDay := (hour*3600+minute*60+sec-offset)*usecsPerSec + frac
	if days < 0 {
		// The earliest timestamps are on a day whose start an int64 cannot hold.
		days++
		inDay -= usecsPerDay
	}
	if days > maxDays || days < -maxDays {
		return 0, false
	}
	w, ok := addInt64(days*usecsPerDay, inDay)
	// The two extremes are the infinities, written as words.
	if !ok || w == math.MaxInt64 || w == math.MinInt64 {
		return 0, false
	}
	return w, true
}

// timeText is the rest of a timestamp being read.
type timeText struct{ s string }

func (p *timeText) peek() byte {
	if p.s == "" {
		return 0
	}
	return p.s[0]
}

// digits reads up to max decimal digits and says how many it read. The loop only finds where
// the digits end (a field of fixed width, or a fraction whose digit count scales it), which
// strconv cannot say; their value is strconv's.
func (p *timeText) digits(max int) (v int64, n int) {
	for n < len(p.s) && n < max && p.s[n] >= '0' && p.s[n] <= '9' {
		n++
	}
	v, _ = strconv.ParseInt(p.s[:n], 10, 64) // at most 12 digits: no error but for none
	p.s = p.s[n:]
	return v, n
}

// two reads exactly two digits.
func (p *timeText) two(v *int64) bool {
	d, n := p.digits(2)
	*v = d
	return n == 2
}

func (p *timeText) lit(c byte) bool {
	if p.peek() != c || p.s == "" {
		return false
	}
	p.s = p.s[1:]
	return true
}

// daysIn is the number of days of a month of a proleptic Gregorian year (astronomical).
func daysIn(year, month int64) int64 {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil is civil's inverse: days since 1970-01-01 of a proleptic Gregorian date with an
// astronomical year (Howard Hinnant's days_from_civil).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// addInt64 returns a+b, and false when the sum overflows an int64.
func addInt64(a, b int64) (int64, bool) {
	s := a + b
	return s, (b >= 0) == (s >= a)
}
