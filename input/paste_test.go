package input

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

// TestPasteCleaning reads the same table pasted through Markdown, e-mail, chat and Windows.
func TestPasteCleaning(t *testing.T) {
	table := " lsn | xid | data\n" +
		"-----+-----+----------\n" +
		" 0/1 | 5   | \\x420000\n" +
		" 0/2 | 6   | \\x4300\n" +
		"(2 rows)\n"
	lines := strings.Split(strings.TrimSuffix(table, "\n"), "\n")
	each := func(f func(string) string) string {
		var b strings.Builder
		for _, l := range lines {
			b.WriteString(f(l) + "\n")
		}
		return b.String()
	}
	tests := []struct {
		name, text, note string
	}{
		{"as is", table, ""},
		{"markdown indent", each(func(l string) string { return "    " + l }), "indented by 4 blanks"},
		{"tab indent", each(func(l string) string { return "\t" + l }), ""},
		{"fenced", "```\n" + table + "```\n", "code fences"},
		{"fenced sql and indented", "  ```sql\n" + each(func(l string) string { return "  " + l }) + "  ```\n", "code fences and the indentation"},
		{"e-mail", each(func(l string) string { return "> " + l }), "quoted"},
		{"e-mail twice", each(func(l string) string { return "> > " + l }), "2 levels"},
		{"e-mail bare >", ">\n> " + strings.Join(lines, "\n> ") + "\n>\n", "quoted"},
		{"chat", each(func(l string) string { return "   " + l }), "indented"},
		{"trailing blanks", each(func(l string) string { return l + "   \t" }), ""},
		{"crlf", strings.ReplaceAll(table, "\n", "\r\n"), ""},
		{"crlf and indent", strings.ReplaceAll(each(func(l string) string { return "  " + l + " " }), "\n", "\r\n"), "indented by 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse([]byte(tt.text), Auto)
			if err != nil {
				t.Fatal(err)
			}
			if r.Format != PsqlAligned {
				t.Errorf("format %s", r.Format)
			}
			var got []string
			for _, m := range r.Messages {
				got = append(got, hex.EncodeToString(m.Bytes))
			}
			if strings.Join(got, " ") != "420000 4300" {
				t.Errorf("messages %v", got)
			}
			if r.Messages[0].Line != strings.Count(tt.text[:strings.Index(tt.text, "0/1")], "\n")+1 {
				t.Errorf("message 1 on line %d", r.Messages[0].Line)
			}
			var notes []string
			for _, n := range r.Notes {
				notes = append(notes, n.Text)
			}
			if tt.note == "" && len(notes) > 0 || !strings.Contains(strings.Join(notes, "|"), tt.note) {
				t.Errorf("notes %q, want one containing %q", notes, tt.note)
			}
		})
	}
}

// TestPasteErrorPosition checks that an error in an indented or quoted paste points at the
// character as pasted.
func TestPasteErrorPosition(t *testing.T) {
	for _, tt := range []struct {
		text         string
		line, column int
	}{
		{"    4200\n    42zz\n", 2, 7},
		{"> > 4200\r\n> > 42zz  \r\n", 2, 7},
		{"```\n\t4200\n\t42zz\n```\n", 3, 4},
	} {
		_, err := Parse([]byte(tt.text), Hex)
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%q: %v", tt.text, err)
		}
		if e.Line != tt.line || e.Column != tt.column || tt.text[e.Offset] != 'z' {
			t.Errorf("%q: line %d column %d offset %d, want %d, %d at the 'z'", tt.text, e.Line, e.Column, e.Offset, tt.line, tt.column)
		}
	}
}

// TestPasteUnchanged checks that a clean text is not copied.
func TestPasteUnchanged(t *testing.T) {
	text := []byte("4200\n4300\n")
	if p := cleanPaste(text); p.changed || &p.text[0] != &text[0] {
		t.Error("a clean text was copied")
	}
}
