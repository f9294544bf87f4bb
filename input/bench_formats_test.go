package input

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// benchStream is about n bytes of a real pg_recvlogical -f file: the corpus stream repeated.
func benchStream(b testing.TB, n int) []byte {
	one, err := os.ReadFile("../testdata/input/recvlogical/stream.bin")
	if err != nil {
		b.Fatal(err)
	}
	var out []byte
	for len(out) < n {
		out = append(out, one...)
	}
	return out
}

// benchMessages splits a stream into its messages (each followed by a newline).
func benchMessages(b *testing.B, stream []byte) [][]byte {
	cuts, bad := splitRecvLogical(stream)
	if bad >= 0 {
		b.Fatalf("stream does not split at %d", bad)
	}
	msgs := make([][]byte, len(cuts))
	for i, c := range cuts {
		msgs[i] = stream[c.start:c.end]
	}
	return msgs
}

// benchPcap writes messages as CopyData in one TCP stream of Ethernet frames, one a frame,
// behind a startup message, as a pcap file.
func benchPcap(msgs [][]byte) []byte {
	var out []byte
	out = binary.LittleEndian.AppendUint32(out, 0xa1b2c3d4)
	out = binary.LittleEndian.AppendUint16(out, 2)
	out = binary.LittleEndian.AppendUint16(out, 4)
	out = append(out, make([]byte, 8)...)
	out = binary.LittleEndian.AppendUint32(out, 262144)
	out = binary.LittleEndian.AppendUint32(out, linkEthernet)
	seq := [2]uint32{1000, 5000}
	frame := func(dir int, payload []byte) {
		f := make([]byte, 14+20+20, 54+len(payload))
		f[12], f[13] = 0x08, 0x00
		ip := f[14:]
		ip[0] = 0x45
		binary.BigEndian.PutUint16(ip[2:], uint16(40+len(payload)))
		ip[9] = 6
		ip[12], ip[15], ip[16], ip[19] = 127, 1, 127, 1
		tcp := f[34:]
		ports := [2]uint16{40000, 5432}
		binary.BigEndian.PutUint16(tcp, ports[dir])
		binary.BigEndian.PutUint16(tcp[2:], ports[1-dir])
		binary.BigEndian.PutUint32(tcp[4:], seq[dir])
		tcp[12] = 5 << 4
		tcp[13] = 0x18
		f = append(f, payload...)
		seq[dir] += uint32(len(payload))
		out = append(out, make([]byte, 8)...)
		out = binary.LittleEndian.AppendUint32(out, uint32(len(f)))
		out = binary.LittleEndian.AppendUint32(out, uint32(len(f)))
		out = append(out, f...)
	}
	frame(0, []byte{0, 0, 0, 8, 0, 3, 0, 0})
	for _, m := range msgs {
		cd := append([]byte{'d', 0, 0, 0, 0}, 'w')
		cd = append(cd, make([]byte, 24)...)
		cd = append(cd, m...)
		binary.BigEndian.PutUint32(cd[1:], uint32(len(cd)-1))
		frame(1, cd)
	}
	return out
}

// BenchmarkFormats1MB reads about 1 MB of text (or bytes) in each format, detected, made from
// a real replication stream; tools that are not installed are skipped. MB/s is of the input:
// 50 MB/s or more reads 1 MB in under 20 ms.
func BenchmarkFormats1MB(b *testing.B) {
	const size = 1 << 20
	type mk struct {
		name  string
		make  func(stream []byte, msgs [][]byte) []byte // of a stream scaled to give ~1 MB
		ratio float64                                   // text bytes per stream byte, roughly
	}
	tool := func(name string, args ...string) func([]byte, [][]byte) []byte {
		return func(stream []byte, _ [][]byte) []byte {
			cmd := exec.Command(name, args...)
			cmd.Stdin = bytes.NewReader(stream)
			out, err := cmd.Output()
			if err != nil {
				return nil
			}
			return out
		}
	}
	perLine := func(f func([]byte) string) func([]byte, [][]byte) []byte {
		return func(_ []byte, msgs [][]byte) []byte {
			var sb strings.Builder
			for _, m := range msgs {
				sb.WriteString(f(m))
				sb.WriteByte('\n')
			}
			return []byte(sb.String())
		}
	}
	dec := func(sep string, signed bool) func([]byte) string {
		return func(m []byte) string {
			var sb strings.Builder
			sb.WriteByte('[')
			for i, c := range m {
				if i > 0 {
					sb.WriteString(sep)
				}
				if signed {
					fmt.Fprint(&sb, int8(c))
				} else {
					fmt.Fprint(&sb, c)
				}
			}
			sb.WriteByte(']')
			return sb.String()
		}
	}
	cases := []mk{
		{"pg_recvlogical", func(s []byte, _ [][]byte) []byte { return s }, 1},
		{"pcap", func(_ []byte, m [][]byte) []byte { return benchPcap(m) }, 1.1},
		{"xxd", tool("xxd"), 4.25},
		{"xxd -p", tool("xxd", "-p"), 2.05},
		{"hexdump -C", tool("hexdump", "-C"), 4.9},
		{"hexdump", tool("hexdump"), 2.5},
		{"od", tool("od"), 3.5},
		{"od -c", tool("od", "-c"), 4.5},
		{"od -A x -t x1z", tool("od", "-A", "x", "-t", "x1z"), 4.6},
		{"base64 wrapped", tool("base64"), 1.36},
		{"hex lines", perLine(hex.EncodeToString), 2},
		{"base64 lines", perLine(base64.StdEncoding.EncodeToString), 1.36},
		{"go-print", perLine(dec(" ", false)), 2.7},
		{"json", perLine(dec(",", false)), 2.7},
		{"java", perLine(dec(", ", true)), 3.6},
		{"node-buffer", perLine(func(m []byte) string { return "<Buffer " + fmt.Sprintf("% x", m) + ">" }), 3},
		{"node-uint8array", perLine(func(m []byte) string { return fmt.Sprintf("Uint8Array(%d) %s", len(m), dec(", ", false)(m)) }), 3.6},
		{"kotlin-join", perLine(func(m []byte) string { s := dec(", ", true)(m); return s[1 : len(s)-1] }), 3.6},
		{"rust-hex", perLine(func(m []byte) string { return "[" + strings.ReplaceAll(fmt.Sprintf("% x", m), " ", ", ") + "]" }), 4},
		{"csharp", perLine(func(m []byte) string { return strings.ReplaceAll(fmt.Sprintf("% X", m), " ", "-") }), 3},
		{"go", perLine(func(m []byte) string { return fmt.Sprintf("%#v", m) }), 5},
		{"go-string", perLine(func(m []byte) string { return fmt.Sprintf("%q", m) }), 2.5},
		{"python", perLine(pythonRepr), 2.5},
		{"elixir", perLine(func(m []byte) string { s := dec(", ", false)(m); return "<<" + s[1:len(s)-1] + ">>" }), 3.6},
		{"c", perLine(func(m []byte) string {
			return strings.NewReplacer("[]byte{", "{", "}", "};").Replace(fmt.Sprintf("%#v", m))
		}), 5},
		{"base64url", perLine(base64.URLEncoding.EncodeToString), 1.36},
		{"tshark-fields", func(_ []byte, msgs [][]byte) []byte {
			var sb strings.Builder
			for i := 0; i+1 < len(msgs); i += 2 {
				sb.WriteString(hex.EncodeToString(msgs[i]) + "," + hex.EncodeToString(msgs[i+1]) + "\n")
			}
			return []byte(sb.String())
		}, 2},
		{"capture", func(_ []byte, msgs [][]byte) []byte {
			var sb strings.Builder
			sb.WriteString("# pgoutput-inspect capture v1\n")
			for i, m := range msgs {
				fmt.Fprintf(&sb, "0/%X %x\n", 0x1528468+i, m)
			}
			return []byte(sb.String())
		}, 2.1},
		{"pcapng", func(_ []byte, m [][]byte) []byte { return throughFile(benchPcap(m), "editcap", "-F", "pcapng") }, 1.1},
		{"wireshark-dump", func(_ []byte, m [][]byte) []byte { return throughFile(benchPcap(m), "tshark", "-x", "-r") }, 6},
		{"tshark-follow", func(_ []byte, m [][]byte) []byte {
			return throughFile(benchPcap(m), "tshark", "-q", "-z", "follow,tcp,hex,0", "-r")
		}, 4.5},
	}
	// The floor: encoding/hex decoding 1 MB of hex, the least any reader of hex text must do.
	b.Run("floor_hex.Decode", func(b *testing.B) {
		text := []byte(hex.EncodeToString(benchStream(b, size/2)))
		dst := make([]byte, len(text)/2)
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if _, err := hex.Decode(dst, text); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, c := range cases {
		b.Run(strings.ReplaceAll(c.name, " ", "_"), func(b *testing.B) {
			stream := benchStream(b, int(size/c.ratio))
			text := c.make(stream, benchMessages(b, stream))
			if text == nil {
				b.Skip("tool not installed")
			}
			r, err := Parse(text, Auto)
			if err != nil {
				b.Fatal(err)
			}
			if len(r.Messages) < 100 {
				b.Fatalf("read as %s: %d messages", r.Format, len(r.Messages))
			}
			for _, f := range Formats() {
				if string(f) == c.name && r.Format != f {
					b.Fatalf("read as %s", r.Format)
				}
			}
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			b.ResetTimer()
			cpu := processCPU()
			for b.Loop() {
				if _, err := Parse(text, Auto); err != nil {
					b.Fatal(err)
				}
			}
			// On a shared machine the time a run waits for a core inflates ns/op; the CPU
			// time the process spent (the reader and its garbage collection) does not.
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// pythonRepr writes m as Python prints bytes: b'…' with \xHH escapes.
func pythonRepr(m []byte) string {
	var sb strings.Builder
	sb.WriteString("b'")
	for _, c := range m {
		switch {
		case c == '\\' || c == '\'':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		case c >= 0x20 && c < 0x7f:
			sb.WriteByte(c)
		default:
			fmt.Fprintf(&sb, "\\x%02x", c)
		}
	}
	sb.WriteByte('\'')
	return sb.String()
}

// throughFile writes in to a temporary file and returns what the tool prints for it: the
// file's name follows args (nil when the tool is not installed). editcap's output goes to a
// second file.
func throughFile(in []byte, tool string, args ...string) []byte {
	dir, err := os.MkdirTemp("", "bench")
	if err != nil {
		return nil
	}
	defer os.RemoveAll(dir)
	f := dir + "/in.pcap"
	if os.WriteFile(f, in, 0o644) != nil {
		return nil
	}
	if tool == "editcap" {
		if exec.Command(tool, append(args, f, dir+"/out")...).Run() != nil {
			return nil
		}
		out, _ := os.ReadFile(dir + "/out")
		return out
	}
	out, err := exec.Command(tool, append(args, f)...).Output()
	if err != nil {
		return nil
	}
	return out
}
