package pgcapture

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/jackc/pglogrepl"
)

// File is a capture file read back: its "# key: value" header lines and its payloads.
type File struct {
	// Headers maps the keys of "# key: value" lines to their values (the last one wins).
	Headers map[string]string
	// Payloads are the data lines in file order.
	Payloads []Payload
}

// ReadFile parses a capture file. It is strict: a data line must be an X/X LSN, one space
// and an even number of lower- or upper-case hex digits; errors name the line.
func ReadFile(r io.Reader) (*File, error) {
	f := &File{Headers: map[string]string{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(text, "#"); ok {
			if key, value, ok := strings.Cut(rest, ":"); ok && !strings.Contains(strings.TrimSpace(key), " ") {
				f.Headers[strings.TrimSpace(key)] = strings.TrimSpace(value)
			}
			continue
		}
		lsnText, hexText, ok := strings.Cut(text, " ")
		if !ok {
			return nil, fmt.Errorf("capture line %d: want \"X/X hex\", found no space", line)
		}
		lsn, err := pglogrepl.ParseLSN(lsnText)
		if err != nil {
			return nil, fmt.Errorf("capture line %d: LSN %q: %v", line, lsnText, err)
		}
		b, err := hex.DecodeString(hexText)
		if err != nil {
			return nil, fmt.Errorf("capture line %d: payload: %v", line, err)
		}
		if len(b) == 0 {
			return nil, fmt.Errorf("capture line %d: empty payload", line)
		}
		f.Payloads = append(f.Payloads, Payload{Kind: b[0], LSN: lsn, Bytes: b})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("capture line %d: %w", line+1, err)
	}
	return f, nil
}

// Counts tallies a capture's payloads: keepalives, XLogData, and the XLogData by the
// pgoutput message type byte that follows the 25-byte header.
type Counts struct {
	Keepalives int
	XLogData   int
	Other      int
	// ByType counts pgoutput messages by their type byte ('B', 'I', 'c', ...).
	ByType map[byte]int
}

// Count tallies the payloads of f.
func (f *File) Count() Counts {
	c := Counts{ByType: map[byte]int{}}
	for _, p := range f.Payloads {
		switch p.Kind {
		case pglogrepl.PrimaryKeepaliveMessageByteID:
			c.Keepalives++
		case pglogrepl.XLogDataByteID:
			c.XLogData++
			if m := p.Message(); len(m) > 0 {
				c.ByType[m[0]]++
			}
		default:
			c.Other++
		}
	}
	return c
}
