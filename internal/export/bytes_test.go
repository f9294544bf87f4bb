package export_test

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"go/ast"
	"go/parser"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/internal/debpkg"
	"pgoutput-inspector/internal/export"
)

// byteInputs are the byte strings every format is checked with: empty, one byte, every byte
// value, a line exactly full and one byte past it.
func byteInputs() [][]byte {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	return [][]byte{{}, {0}, {0xff, 0xfe}, {0x49, 0x00, '\'', '\\', '"', '\n'}, all[:16], all[:17], all, append(all[1:], all...)}
}

func TestBytesExact(t *testing.T) {
	b := []byte{0x49, 0x00, 0xff}
	want := map[export.BytesFormat]string{
		export.Hex:        "4900ff",
		export.Base64:     "SQD/",
		export.Go:         "[]byte{0x49, 0x00, 0xff}",
		export.Python:     `b'\x49\x00\xff'`,
		export.JavaScript: "new Uint8Array([0x49, 0x00, 0xff])",
	}
	for _, f := range export.BytesFormats {
		if got := string(export.AppendBytes(nil, f, b)); got != want[f] {
			t.Errorf("%s: %q, want %q", export.FormatNames[f], got, want[f])
		}
	}
	long := make([]byte, 17)
	long[16] = 0xab
	wantLong := map[export.BytesFormat]string{
		export.Go:         "[]byte{\n\t" + strings.Repeat("0x00, ", 15) + "0x00,\n\t0xab,\n}",
		export.Python:     "(\n    b'" + strings.Repeat(`\x00`, 16) + "'\n    b'\\xab'\n)",
		export.JavaScript: "new Uint8Array([\n  " + strings.Repeat("0x00, ", 15) + "0x00,\n  0xab,\n])",
	}
	for f, w := range wantLong {
		if got := string(export.AppendBytes(nil, f, long)); got != w {
			t.Errorf("%s of 17 bytes:\n%s\nwant\n%s", export.FormatNames[f], got, w)
		}
	}
}

func TestBytesHexAndBase64RoundTrip(t *testing.T) {
	for _, b := range byteInputs() {
		h, err := hex.DecodeString(string(export.AppendBytes(nil, export.Hex, b)))
		if err != nil || !bytes.Equal(h, b) {
			t.Errorf("hex of % x reads back as % x (%v)", b, h, err)
		}
		d, err := base64.StdEncoding.DecodeString(string(export.AppendBytes(nil, export.Base64, b)))
		if err != nil || !bytes.Equal(d, b) {
			t.Errorf("base64 of % x reads back as % x (%v)", b, d, err)
		}
	}
}

// TestBytesGoLiteral parses each Go literal with go/parser and reads its elements back.
func TestBytesGoLiteral(t *testing.T) {
	for _, b := range byteInputs() {
		src := string(export.AppendBytes(nil, export.Go, b))
		e, err := parser.ParseExpr(src)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		lit, ok := e.(*ast.CompositeLit)
		if !ok {
			t.Fatalf("%q is a %T", src, e)
		}
		if at, ok := lit.Type.(*ast.ArrayType); !ok || at.Len != nil || at.Elt.(*ast.Ident).Name != "byte" {
			t.Fatalf("%q is not a []byte literal", src)
		}
		var got []byte
		for _, el := range lit.Elts {
			v, err := strconv.ParseUint(el.(*ast.BasicLit).Value, 0, 8)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, byte(v))
		}
		if !bytes.Equal(got, b) {
			t.Errorf("%q reads as % x, want % x", src, got, b)
		}
	}
}

// TestBytesPythonAndJavaScriptLiterals evaluates the literals with python3 and node and
// compares the bytes they make.
func TestBytesPythonAndJavaScriptLiterals(t *testing.T) {
	for _, lang := range []struct {
		f          export.BytesFormat
		cmd        string
		args       []string
		expression func(lits []string) string
	}{
		{export.Python, "python3", []string{"-c"}, func(lits []string) string {
			return "import json\nprint(json.dumps([list(x) for x in [" + strings.Join(lits, ",\n") + "]]))"
		}},
		{export.JavaScript, "node", []string{"-e"}, func(lits []string) string {
			return "console.log(JSON.stringify([" + strings.Join(lits, ",\n") + "].map((a) => (a instanceof Uint8Array) ? Array.from(a) : null)))"
		}},
	} {
		t.Run(lang.cmd, func(t *testing.T) {
			path, err := exec.LookPath(lang.cmd)
			if err != nil {
				t.Skipf("no %s", lang.cmd)
			}
			debpkg.NoteOnFailure(t, lang.cmd)
			inputs := byteInputs()
			var lits []string
			for _, b := range inputs {
				lits = append(lits, string(export.AppendBytes(nil, lang.f, b)))
			}
			out, err := exec.Command(path, append(lang.args, lang.expression(lits))...).CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", lang.cmd, err, out)
			}
			var got [][]int
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("%s printed %q: %v", lang.cmd, out, err)
			}
			if len(got) != len(inputs) {
				t.Fatalf("%s read %d literals, want %d", lang.cmd, len(got), len(inputs))
			}
			for i, b := range inputs {
				g := make([]byte, len(got[i]))
				for j, v := range got[i] {
					g[j] = byte(v)
				}
				if len(got[i]) != len(b) || !bytes.Equal(g, b) {
					t.Errorf("%s reads %q as %v, want % x", lang.cmd, lits[i], got[i], b)
				}
			}
		})
	}
}
