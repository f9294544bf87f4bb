package web_test

import (
	"bufio"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"pgoutput-inspector/input"
	"pgoutput-inspector/web"
)

// The page reads the paste forms of real tool output that came last (psql's encodings that
// span lines, pastes from the rule or indented otherwise on the first line, tshark's frames
// and tcp.payload lines) as the command line does: the messages of each .want, in order.
func TestPageReadsToolForms(t *testing.T) {
	for _, name := range []string{
		"psql/base64-At", "psql/base64-onecol-At", "psql/base64-onecol-unaligned", "psql/base64-copy",
		"psql/base64-onecol-copy", "psql/encode-escape-At", "psql/encode-escape-onecol-At",
		"psql/encode-escape-onecol-unaligned", "psql/encode-escape-aligned", "psql/encode-escape-aligned-bin",
		"psql/encode-escape-expanded", "psql/partial-from-rule", "psql/partial-from-rule-unicode-b2",
		"psql/indent-first-trimmed", "psql/indent-rest-quoted", "psql/indent-rest-quoted-x",
		"tshark/x_frame_lo", "tshark/x_frame_any", "tshark/x_frame_sll", "tshark/x_frame_ipv6", "tshark/payload_fields",
	} {
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile("../testdata/input/" + name + ".txt")
			if err != nil {
				t.Fatal(err)
			}
			want := wantHex(t, "../testdata/input/"+name+".want")
			s, _ := web.Apply(web.NewState(-1), web.SetText{Text: string(text)})
			if s.Doc == nil {
				t.Fatalf("the text does not read: %v", s.InputErr)
			}
			msgs := s.Doc.Messages
			if strings.HasPrefix(name, "tshark/") {
				// A capture's wants are the CopyData of the replication stream (tshark's
				// pgsql.copydata); the conversation has the other messages too.
				msgs = []input.Message{}
				for _, m := range s.Doc.Messages {
					if m.Bytes[0] == 'd' {
						msgs = append(msgs, m)
					}
				}
			}
			if len(msgs) != len(want) {
				t.Fatalf("%d messages, want %d", len(msgs), len(want))
			}
			for i, m := range msgs {
				if got := hex.EncodeToString(m.Bytes); got != want[i] {
					t.Errorf("message %d: %.60s…, want %.60s…", i, got, want[i])
				}
			}
		})
	}
}

// wantHex returns the messages of a .want file: its lines of hex, "#" lines left out.
func wantHex(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
