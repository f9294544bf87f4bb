package input

import (
	"bytes"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// goldenForced lists the inputs read with a forced format; every other input is detected.
var goldenForced = map[string]Format{
	"wireshark_stream.txt":     WiresharkStream,
	"forced_hex_as_base64.txt": Base64,
}

// goldenFormat is the format each well-formed input must be read as; bad_*.txt must fail.
var goldenFormat = map[string]Format{
	"base64.txt":                       Base64,
	"base64_unpadded.txt":              Base64,
	"base64url.txt":                    Base64URL,
	"c_xxd_i.txt":                      CBytes,
	"csharp.txt":                       CSharp,
	"tshark_fields.txt":                HexItems,
	"capture.txt":                      Capture,
	"elixir.txt":                       ElixirBinary,
	"elixir_segments.txt":              ElixirBinary,
	"forced_hex_as_base64.txt":         Base64,
	"go.txt":                           GoBytes,
	"go_mixed.txt":                     GoBytes,
	"hex_0x.txt":                       Hex,
	"hex_0x_each.txt":                  Hex,
	"hex_bytea.txt":                    Hex,
	"hex_colons.txt":                   Hex,
	"hex_groups.txt":                   Hex,
	"hex_lines.txt":                    Hex,
	"hex_spaced_upper.txt":             Hex,
	"hexdump_c.txt":                    HexdumpC,
	"hexdump_c_repeat.txt":             HexdumpC,
	"json.txt":                         JSONArray,
	"json_nested.txt":                  JSONArray,
	"od.txt":                           Od,
	"od_no_ascii.txt":                  Od,
	"od_repeat.txt":                    Od,
	"psql_aligned.txt":                 PsqlAligned,
	"psql_aligned_footer_mismatch.txt": PsqlAligned,
	"psql_html.txt":                    PsqlHTML,
	"psql_asciidoc.txt":                PsqlAsciidoc,
	"copy.txt":                         Copy,
	"psql_csv.txt":                     PsqlCSV,
	"psql_aligned_base64.txt":          PsqlAligned,
	"psql_aligned_border2.txt":         PsqlAligned,
	"psql_aligned_data_only.txt":       PsqlAligned,
	"psql_aligned_empty.txt":           PsqlAligned,
	"psql_aligned_with_prompt.txt":     PsqlAligned,
	"psql_aligned_wrapped.txt":         PsqlAligned,
	"psql_expanded.txt":                PsqlExpanded,
	"psql_expanded_base64.txt":         PsqlExpanded,
	"psql_expanded_wrapped.txt":        PsqlExpanded,
	"psql_unaligned.txt":               PsqlUnaligned,
	"psql_unaligned_expanded.txt":      PsqlUnaligned,
	"psql_unaligned_tuples_only.txt":   PsqlUnaligned,
	"python_assign.txt":                PythonBytes,
	"python_repr.txt":                  PythonBytes,
	"wireshark_hex_ascii.txt":          WiresharkDump,
	"wireshark_hex_only.txt":           WiresharkDump,
	"wireshark_stream.txt":             WiresharkStream,
	"xxd.txt":                          Xxd,
	"xxd_plain.txt":                    XxdPlain,
	"xxd_upper_g1.txt":                 Xxd,
}

// render writes a result or an error the way the golden files hold them.
func render(r *Result, err error) []byte {
	var b bytes.Buffer
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
		if r == nil {
			return b.Bytes()
		}
		for _, e := range r.Errors[1:] {
			fmt.Fprintf(&b, "error: %v\n", e)
		}
	}
	fmt.Fprintf(&b, "format: %s\n", r.Format)
	for _, n := range r.Notes {
		if n.Message < 0 {
			fmt.Fprintf(&b, "note: %s\n", n.Text)
		} else {
			fmt.Fprintf(&b, "note (message %d): %s\n", n.Message+1, n.Text)
		}
	}
	for _, a := range r.Also {
		fmt.Fprintf(&b, "also possible: %s, %d messages: %s\n", a.Format, a.Messages, a.Note)
	}
	for _, h := range r.Header {
		fmt.Fprintf(&b, "header: %s\n", h)
	}
	for i, m := range r.Messages {
		fmt.Fprintf(&b, "message %d: line %d, %d bytes", i+1, m.Line, len(m.Bytes))
		if m.HasLSN {
			fmt.Fprintf(&b, ", lsn %X/%X", m.LSN>>32, uint32(m.LSN))
		}
		if m.HasXid {
			fmt.Fprintf(&b, ", xid %d", m.Xid)
		}
		b.WriteString("\n")
		h := hex.EncodeToString(m.Bytes)
		for len(h) > 64 {
			fmt.Fprintf(&b, "  %s\n", h[:64])
			h = h[64:]
		}
		fmt.Fprintf(&b, "  %s\n", h)
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(strings.TrimSuffix(name, ".txt"), func(t *testing.T) {
			text, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Parse(text, goldenForced[name])
			if strings.HasPrefix(name, "bad_") {
				if err == nil {
					t.Errorf("read as %s, want an error", r.Format)
				} else if _, ok := err.(*Error); !ok {
					t.Errorf("error %T, want *Error", err)
				}
			} else if want, ok := goldenFormat[name]; !ok {
				t.Errorf("no expected format listed for %s", name)
			} else if err != nil {
				t.Errorf("error: %v, want %s", err, want)
			} else if r.Format != want {
				t.Errorf("read as %s, want %s", r.Format, want)
			}
			got := render(r, err)
			golden := strings.TrimSuffix(file, ".txt") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s:\n--- got\n%s--- want\n%s", golden, got, want)
			}
		})
	}
}
