package input

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// vectors returns the peer test vectors (testdata/vectors.hex, one message per line).
func vectors(t testing.TB) [][]byte {
	text, err := os.ReadFile("testdata/vectors.hex")
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, l := range strings.Fields(string(text)) {
		b, err := hex.DecodeString(l)
		if err != nil {
			t.Fatalf("vectors.hex: %v", err)
		}
		out = append(out, b)
	}
	return out
}

// render functions write one message in a format, as its usual tool would.
var renderers = map[Format]func([]byte) string{
	Hex:          hex.EncodeToString,
	Base64:       base64.StdEncoding.EncodeToString,
	Base64URL:    base64.RawURLEncoding.EncodeToString,
	GoBytes:      func(b []byte) string { return "[]byte{" + join(b, "0x%02x", ", ") + "}" },
	CBytes:       func(b []byte) string { return "unsigned char m[] = {" + join(b, "0x%02X", ",") + "};" },
	ElixirBinary: func(b []byte) string { return "<<" + join(b, "%d", ", ") + ">>" },
	JSONArray: func(b []byte) string {
		j, _ := json.Marshal(toInts(b))
		return string(j)
	},
	PythonBytes: func(b []byte) string {
		var s strings.Builder
		s.WriteString("b'")
		for _, c := range b {
			switch {
			case c == '\\' || c == '\'':
				s.WriteString("\\" + string(rune(c)))
			case c >= 0x20 && c < 0x7f:
				s.WriteByte(c)
			default:
				fmt.Fprintf(&s, "\\x%02x", c)
			}
		}
		s.WriteString("'")
		return s.String()
	},
}

func join(b []byte, f, sep string) string {
	parts := make([]string, len(b))
	for i, c := range b {
		parts[i] = fmt.Sprintf(f, c)
	}
	return strings.Join(parts, sep)
}

func toInts(b []byte) []int {
	n := make([]int, len(b))
	for i, c := range b {
		n[i] = int(c)
	}
	return n
}

// TestVectorsEveryFormat renders all peer vectors in each line format, one message per line,
// and checks detection names the format and reads back the same bytes.
func TestVectorsEveryFormat(t *testing.T) {
	vs := vectors(t)
	for f, r := range renderers {
		t.Run(string(f), func(t *testing.T) {
			var text strings.Builder
			var want [][]byte
			for _, v := range vs {
				if len(v) == 0 {
					continue
				}
				text.WriteString(r(v) + "\n")
				want = append(want, v)
			}
			got, err := Parse([]byte(text.String()), Auto)
			if err != nil {
				t.Fatal(err)
			}
			wantFormat := f
			if f == Base64URL && !strings.ContainsAny(text.String(), "-_") {
				wantFormat = Base64
			}
			if got.Format != wantFormat {
				t.Errorf("detected %s, want %s", got.Format, wantFormat)
			}
			if len(got.Messages) != len(want) {
				t.Fatalf("%d messages, want %d", len(got.Messages), len(want))
			}
			for i, m := range got.Messages {
				if !bytes.Equal(m.Bytes, want[i]) {
					t.Errorf("message %d: %x, want %x", i, m.Bytes, want[i])
				}
				if m.Line != i+1 {
					t.Errorf("message %d: line %d, want %d", i, m.Line, i+1)
				}
			}
		})
	}
}

// TestVectorsBase64NotMostlyHex checks the rule that keeps hex typos from being read as base64
// never refuses the base64 of a real message.
func TestVectorsBase64NotMostlyHex(t *testing.T) {
	for _, v := range vectors(t) {
		if len(v) < 3 {
			continue // one or two bytes: too short to tell; such text is read as hex first anyway
		}
		enc := base64.StdEncoding.EncodeToString(v)
		if mostlyHex([]byte(enc)) {
			t.Errorf("base64 %s of %x counts as mostly hex", enc, v)
		}
	}
}

func TestDetection(t *testing.T) {
	tests := []struct {
		name, text string
		want       Format
		hex        []string
	}{
		{"hex digits only are hex, not base64", "42000000\n", Hex, []string{"42000000"}},
		{"base64 with letters beyond f", "QgAAAA==\n", Base64, []string{"42000000"}},
		{"base64url", "_-8\n", Base64URL, []string{"ffef"}},
		{"bytea prefix", "\\x4200\n", Hex, []string{"4200"}},
		{"escaped groups", "\\x42\\x00\n", Hex, []string{"4200"}},
		{"one message per line", "42\n\n  43 44  \n", Hex, []string{"42", "4344"}},
		{"wireshark dump beats a hex line of the same shape", "0000  42 00 00\n", WiresharkDump, []string{"420000"}},
		{"xxd -p needs a full first line", strings.Repeat("ab", 30) + "\ncd\n", XxdPlain, []string{strings.Repeat("ab", 30) + "cd"}},
		{"hex lines of other widths stay messages", strings.Repeat("ab", 29) + "\ncd\n", Hex, []string{strings.Repeat("ab", 29), "cd"}},
		{"C char literals", "{'B', '\\x00', '\\0', 0102, 66u}", CBytes, []string{"4200004242"}},
		{"Go nested", "[][]byte{{0x42}, []byte{0x43, 0o104}}", GoBytes, []string{"42", "4344"}},
		{"Python implicit join", "x = (b'B'\n     b'\\x00')\ny = b\"C\"", PythonBytes, []string{"4200", "43"}},
		{"Python raw", "rb'\\x'", PythonBytes, []string{"5c78"}},
		{"Elixir string and sizes", `<<"hi", 1::16, -1::8, 2::size(16)-little, ?A>>`, ElixirBinary, []string{"686900 01ff020041"}},
		{"JSON lines", "[1,2]\n[3]", JSONArray, []string{"0102", "03"}},
		{"capture", "# pgoutput-inspect capture v1\n0/16B3748 6b00\n", Capture, []string{"6b00"}},
		{"psql value ending in its own '+'", " lsn | xid | data \n-----+-----+------\n 0/1 | 5   | AAA+\n 0/2 | 6   | AAAA+\n     |     | AAA+\n(2 rows)\n",
			PsqlAligned, []string{"00003e", "00000000003e"}},
		{"aligned rows without their header", " 0/1528468 | 726 | \\x4200\n 0/1528468 | 726 | \\x4300\n", PsqlAligned, []string{"4200", "4300"}},
		{"two dumps", "00000000: 4200 0000  B...\n00000000: 4300  C.\n", Xxd, []string{"42000000", "4300"}},
		{"xxd -s starts anywhere", "00000005: 4200  B.\n00000007: 43    C\n", Xxd, []string{"420043"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse([]byte(tt.text), Auto)
			if err != nil {
				t.Fatal(err)
			}
			if r.Format != tt.want {
				t.Errorf("format %s, want %s", r.Format, tt.want)
			}
			var got []string
			for _, m := range r.Messages {
				got = append(got, hex.EncodeToString(m.Bytes))
			}
			want := strings.Split(strings.ReplaceAll(strings.Join(tt.hex, "|"), " ", ""), "|")
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("messages %v, want %v", got, want)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, text   string
		force        Format
		line, column int
		format       Format
		msg          string
	}{
		{"hex typo is not base64", "420000000003g1e1\n", Auto, 1, 13, Hex, "expected a hex digit, found 'g'"},
		{"odd digits", "4200\n420\n", Auto, 2, 4, Hex, "odd number of hex digits"},
		{"forced hex on a dump", "00000000: 4200  B.\n", Hex, 1, 18, Hex, "expected a hex digit, found '.'"},
		{"forced xxd on hex", "4200\n", Xxd, 1, 5, Xxd, "expected ':' after the offset"},
		{"column counts characters", "# é\n", Auto, 1, 1, Hex, "expected a hex digit"},
		{"column after a multibyte character", "[]byte{'é', 'Ā'}", Auto, 1, 13, GoBytes, "does not fit in a byte"},
		{"unknown format", "42", "nope", 1, 1, "nope", "unknown format"},
		{"empty", "", Auto, 1, 1, Auto, "no input"},
		{"dump gap", "00000000: 4200  B.\n00000004: 4200  B.\n", Auto, 2, 1, Xxd, "offset 4 does not follow the previous row, which ends at 2"},
		{"psql unaligned bad lsn", "lsn|xid|data\n0/1x|1|\\x42\n", Auto, 2, 4, PsqlUnaligned, "expected the end of the lsn"},
		{"psql xid too big", "0/1|4294967296|\\x42\n", Auto, 1, 5, PsqlUnaligned, "does not fit in 32 bits"},
		{"psql xid of leading zeros", "0/1|00000000000004294967296|\\x42\n", Auto, 1, 5, PsqlUnaligned, "does not fit in 32 bits"},
		{"psql xid too big before a bad character", "0/1|99999999999x|\\x42\n", Auto, 1, 5, PsqlUnaligned, "does not fit in 32 bits"},
		{"psql xid with a bad character", "0/1|12x4|\\x42\n", Auto, 1, 7, PsqlUnaligned, "expected a decimal digit in the xid"},
		{"repeat without end", "00000000  41 41  |AA|\n*\n", Auto, 2, 1, HexdumpC, "'*' line must be followed"},
		{"huge repeat", "00000000  41 41  |AA|\n*\n7ffffffe\n", Auto, 2, 1, HexdumpC, "more than this reader expands"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse([]byte(tt.text), tt.force)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, %v; want an *Error", r, err)
			}
			if e.Line != tt.line || e.Column != tt.column || e.Format != tt.format || !strings.Contains(e.Msg, tt.msg) {
				t.Errorf("got line %d column %d format %q msg %q; want %d, %d, %q, %q",
					e.Line, e.Column, e.Format, e.Msg, tt.line, tt.column, tt.format, tt.msg)
			}
			if tt.force != Auto && (len(e.Tried) != 1 || e.Tried[0] != tt.force) {
				t.Errorf("tried %v, want only the forced format", e.Tried)
			}
		})
	}
}

func TestErrorString(t *testing.T) {
	_, err := Parse([]byte("42\nzz\n"), Auto)
	want := "line 2, column 1: hex: expected a hex digit, found 'z' (tried: hex, base64, base64url)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestEveryFormatForcible parses each golden input forced to the format it is detected as.
func TestEveryFormatForcible(t *testing.T) {
	seen := map[Format]bool{}
	for name, f := range goldenFormat {
		text, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(text, f); err != nil {
			t.Errorf("%s forced to %s: %v", name, f, err)
		}
		seen[f] = true
	}
	for _, c := range loadCorpus(t, "../testdata/input", "holdout") {
		if r, err := Parse(c.input, Auto); err == nil {
			if _, err := Parse(c.input, r.Format); err != nil {
				t.Errorf("%s forced to %s: %v", c.name, r.Format, err)
			}
			seen[r.Format] = true
		}
	}
	for _, f := range Formats() {
		if !seen[f] {
			t.Errorf("no golden input or corpus case for %s", f)
		}
	}
}

// TestMessagesDoNotAlias checks that appending to one message's bytes leaves the next alone.
func TestMessagesDoNotAlias(t *testing.T) {
	r, err := Parse([]byte("4200\n4300\n"), Auto)
	if err != nil {
		t.Fatal(err)
	}
	_ = append(r.Messages[0].Bytes, 0xff)
	if r.Messages[1].Bytes[0] != 0x43 {
		t.Errorf("message 2 changed to %x", r.Messages[1].Bytes)
	}
}

// TestAllocations holds the allocation budget: a few allocations whatever the size, and
// bytes in proportion to the output.
func TestAllocations(t *testing.T) {
	text := benchText(100)
	allocs := testing.AllocsPerRun(5, func() {
		// Forced: detection also decodes a few messages of a reading that does not decode
		// (random bytes here), to compare it with other readings.
		if _, err := Parse(text, Hex); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 8 {
		t.Errorf("%v allocations for 1 MB of hex lines, want at most 8", allocs)
	}
}

func TestFormats(t *testing.T) {
	f := Formats()
	if len(f) != len(parsers) || f[0] != Pcap || f[len(f)-1] != Base64URL {
		t.Errorf("Formats() = %v", f)
	}
}

func ExampleParse() {
	r, err := Parse([]byte("0/1528468|726|\\x42000000000152855000030469e351dd08000002d6\n"), PsqlAligned)
	fmt.Println(err)
	r, err = Parse([]byte("lsn|xid|data\n0/1528468|726|\\x42000000000152855000030469e351dd08000002d6\n(1 row)\n"), Auto)
	if err != nil {
		fmt.Println(err)
		return
	}
	m := r.Messages[0]
	fmt.Printf("%s: %d bytes, lsn %X/%X, xid %d\n", r.Format, len(m.Bytes), m.LSN>>32, uint32(m.LSN), m.Xid)
	// Output:
	// line 1, column 1: psql-aligned: expected a psql table: a header line and a rule of '-' and '+', found '0'
	// psql-unaligned: 21 bytes, lsn 0/1528468, xid 726
}

// TestDocsListEveryFormat checks that docs/cli.md's table of input formats has a row for every
// format, each with an example of the command that makes it in its last cell.
func TestDocsListEveryFormat(t *testing.T) {
	doc, err := os.ReadFile("../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(string(doc), "### Input formats")
	table, _, _ = strings.Cut(table, "#### psql forms")
	for _, f := range Formats() {
		row := ""
		for _, l := range strings.Split(table, "\n") {
			first, _, _ := strings.Cut(strings.TrimPrefix(l, "| "), " | ")
			if strings.Contains(", "+first+",", " `"+string(f)+"`,") {
				row = l
			}
		}
		if row == "" {
			t.Errorf("docs/cli.md's input formats table has no row for %s", f)
			continue
		}
		cells := strings.Split(strings.TrimSuffix(row, " |"), " | ")
		if last := strings.TrimSpace(cells[len(cells)-1]); len(cells) < 3 || last == "" || last == "—" {
			t.Errorf("docs/cli.md: %s has no example command: %s", f, row)
		}
	}
}

// TestOCRHint: a letter where a dump has a hex digit, as text recognition of a screenshot
// makes it ('O' for 0), is an error that says what it likely is.
func TestOCRHint(t *testing.T) {
	_, err := Parse([]byte("0000   42 00 0O 00\n"), Auto)
	if err == nil || !strings.Contains(err.Error(), "(OCR), this 'O' is likely a 0") {
		t.Errorf("error %v, want one that names OCR and the digit", err)
	}
}
