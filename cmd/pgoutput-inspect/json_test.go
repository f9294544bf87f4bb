package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/dump"
)

// render decodes text (the format detected) and writes it with the dump.Writer newOut makes; nil
// when no format reads the text.
func render(t testing.TB, text []byte, newOut func(w io.Writer) dump.Writer) []byte {
	t.Helper()
	st := input.NewStream(bytes.NewReader(text), input.Auto)
	res, _ := st.Start()
	if res == nil {
		return nil // no format reads it: no document
	}
	opts := input.ReadCaptureOptions(res.Header)
	s := decoder.NewConnections(opts.DecoderOptions(decoder.Options{}))
	var buf bytes.Buffer
	if _, err := dump.DecodeAll(st, res, s, newOut(&buf), func([]*input.Error) {}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func newJSON(w io.Writer) dump.Writer      { return dump.NewJSON(w, false) }
func newJSONLines(w io.Writer) dump.Writer { return dump.NewJSON(w, true) }
func newRefJSON(w io.Writer) dump.Writer   { return &refWriter{w: w} }
func newText(w io.Writer) dump.Writer      { return &dump.Text{W: w} }

// jsonInputs are the inputs the JSON writer is compared on: every golden test input, the
// corpus, hostile names and values, and binary values of every type with a codec.
func jsonInputs(t testing.TB) map[string][]byte {
	t.Helper()
	inputs := map[string][]byte{}
	files, _ := filepath.Glob("testdata/*.*")
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil && !strings.HasSuffix(f, ".golden") {
			inputs[f] = b
		}
	}
	captures, _ := filepath.Glob("../../testdata/input/*/*.pcap*") // frames
	for _, f := range captures {
		if b, err := os.ReadFile(f); err == nil {
			inputs[f] = b
		}
	}
	corpus, _ := filepath.Glob(filepath.Join(corpusDir, "*.capture.gz"))
	for _, f := range corpus {
		inputs[f] = readCorpus(t, f)
	}
	inputs["hostile"] = []byte(hostileInput())
	inputs["binary values"] = []byte(binaryValuesInput())
	return inputs
}

// binaryValuesInput is a Relation with one column of each given type and Inserts of binary
// values of them: ordinary, extreme (a numeric of weight 32767, floats at the edges of
// encoding/json's exponent form, NaN and infinities), arrays nested and with NULLs, and bytes
// that do not fit the type.
func binaryValuesInput() string {
	be32 := func(v uint32) string { return string(binary.BigEndian.AppendUint32(nil, v)) }
	be64 := func(v uint64) string { return string(binary.BigEndian.AppendUint64(nil, v)) }
	f4 := func(f float32) string { return be32(math.Float32bits(f)) }
	f8 := func(f float64) string { return be64(math.Float64bits(f)) }
	numeric := func(ndigits, weight, sign, dscale uint16, digits ...uint16) string {
		w := wire{}.i16(ndigits).i16(weight).i16(sign).i16(dscale)
		for _, d := range digits {
			w = w.i16(d)
		}
		return string(w)
	}
	array := func(elem uint32, dims []uint32, items ...string) string {
		w := wire{}.i32(uint32(len(dims))).i32(0).i32(elem)
		for _, d := range dims {
			w = w.i32(d).i32(1)
		}
		for _, it := range items {
			if it == "NULL" {
				w = w.i32(0xffffffff)
				continue
			}
			w = w.i32(uint32(len(it))).raw(it)
		}
		return string(w)
	}
	type col struct {
		oid    uint32
		values []string
	}
	cols := []col{
		{16, []string{"\x01", "\x00", "\x02\x03"}},                              // bool
		{17, []string{"\x00\xff\"\\", ""}},                                      // bytea
		{20, []string{be64(1 << 63), be64(42)}},                                 // int8
		{21, []string{"\xff\xfe"}},                                              // int2
		{23, []string{be32(7), "\x00"}},                                         // int4
		{26, []string{be32(0xffffffff)}},                                        // oid
		{700, []string{f4(1.1), f4(1e-7), f4(float32(math.Inf(-1))), f4(3e38)}}, // float4
		{701, []string{f8(0.1), f8(1e21), f8(1e-7), f8(math.NaN()), f8(-0.0)}},  // float8
		{1700, []string{numeric(1, 32767, 0, 0, 9999), numeric(2, 0, 0x4000, 2, 12, 3400), numeric(0, 0, 0xC000, 0)}},
		{25, []string{"tab\there \"q\" \u2028 \xff <&>"}}, // text
		{1082, []string{be32(0), be32(0x7fffffff)}},       // date
		{1114, []string{be64(1), be64(math.MaxInt64)}},    // timestamp
		{1007, []string{array(23, []uint32{2, 2}, be32(1), "NULL", be32(3), be32(4)), array(23, nil), array(23, []uint32{7}, be32(1))}},
		{1009, []string{array(25, []uint32{3}, "a\"b", "", "NULL")}}, // text[]
		{1021, []string{array(700, []uint32{2}, f4(1.1), f4(2.5))}},  // float4[]
		{2950, []string{"0123456789abcdef"}},                         // uuid
		{99999, []string{"\x01\x02"}},                                // not built in
	}
	rel := wire{}.b1('R').i32(16384).str("public").str("all_types").b1('d').i16(uint16(len(cols)))
	for i, c := range cols {
		rel = rel.b1(0).str(fmt.Sprintf("c%d", i)).i32(c.oid).i32(0xffffffff)
	}
	lines := []string{hex.EncodeToString(rel)}
	for row := 0; ; row++ {
		more := false
		ins := wire{}.b1('I').i32(16384).b1('N').i16(uint16(len(cols)))
		for _, c := range cols {
			if row < len(c.values) {
				more = true
				ins = ins.col('b', c.values[row])
			} else {
				ins = ins.b1('n')
			}
		}
		if !more {
			break
		}
		lines = append(lines, hex.EncodeToString(ins))
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestJSONSameAsEncodingJSON: the append-based writer writes, byte for byte, the document that
// encoding/json wrote (refWriter, the writer it replaced).
func TestJSONSameAsEncodingJSON(t *testing.T) {
	for name, in := range jsonInputs(t) {
		got := render(t, in, newJSON)
		want := render(t, in, newRefJSON)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the JSON differs from encoding/json's:\n%s", name, diff(string(want), string(got)))
		}
	}
}

// TestJSONLines: each line of --json-lines is the object --json has in "messages", compact.
func TestJSONLines(t *testing.T) {
	for name, in := range jsonInputs(t) {
		doc := render(t, in, newJSON)
		if doc == nil {
			continue
		}
		var d struct{ Messages []json.RawMessage }
		if err := json.Unmarshal(doc, &d); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lines := bytes.Split(render(t, in, newJSONLines), []byte("\n"))
		if len(lines) != len(d.Messages)+1 || len(lines[len(lines)-1]) != 0 {
			t.Fatalf("%s: %d lines for %d messages", name, len(lines)-1, len(d.Messages))
		}
		for i, m := range d.Messages {
			var compact bytes.Buffer
			if err := json.Compact(&compact, m); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(lines[i], compact.Bytes()) {
				t.Errorf("%s: line %d:\n%s\nwant\n%s", name, i+1, lines[i], compact.Bytes())
				break
			}
		}
	}
}

// TestJSONLinesCommand: the flag, and that it cannot go with --json.
func TestJSONLinesCommand(t *testing.T) {
	r := runCmd(t, "", nil, "decode", "--json-lines", "testdata/postgrex_wal_txn_update.hex")
	if r.code != exitOK || strings.Count(r.stdout, "\n") != 4 {
		t.Errorf("exit %d, output:\n%s", r.code, r.stdout)
	}
	for _, line := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil || m["tree"] == nil {
			t.Errorf("line %q: %v", line, err)
		}
	}
	if r := runCmd(t, "", nil, "decode", "--json", "--json-lines", "testdata/postgrex_wal_txn_update.hex"); r.code != exitUsage {
		t.Errorf("--json --json-lines: exit %d", r.code)
	}
}

// smallMessages returns a capture of n short transactions of one small row each (Begin, Insert,
// Commit in XLogData envelopes, a Relation first), as an OLTP workload makes them.
func smallMessages(n int) []byte {
	var b bytes.Buffer
	b.WriteString("# pgoutput-inspect capture v1\n# options: proto_version=1 publication_names=\"pub\"\n")
	lsn := uint64(0x1000000)
	line := func(msg wire) {
		env := wire{}.b1('w')
		env = binary.BigEndian.AppendUint64(env, lsn)
		env = binary.BigEndian.AppendUint64(env, lsn)
		env = binary.BigEndian.AppendUint64(env, 0x2a2b1c3d4e5f6)
		fmt.Fprintf(&b, "%s %x\n", pgvalue.FormatLSN(lsn), append(env, msg...))
		lsn += 0x40
	}
	line(wire{}.b1('R').i32(16384).str("public").str("orders").b1('d').i16(3).
		b1(1).str("id").i32(23).i32(0xffffffff).
		b1(0).str("customer").i32(25).i32(0xffffffff).
		b1(0).str("amount").i32(1700).i32(0xffffffff))
	for i := range n {
		xid := uint32(1000 + i)
		line(wire{}.b1('B').raw(string(binary.BigEndian.AppendUint64(nil, lsn+0x80))).
			raw(string(binary.BigEndian.AppendUint64(nil, 0x2a2b1c3d4e5f6))).i32(xid))
		line(wire{}.b1('I').i32(16384).b1('N').i16(3).
			col('t', fmt.Sprint(i)).col('t', "alice").col('t', "10.00"))
		line(wire{}.b1('C').b1(0).raw(string(binary.BigEndian.AppendUint64(nil, lsn))).
			raw(string(binary.BigEndian.AppendUint64(nil, lsn+0x40))).
			raw(string(binary.BigEndian.AppendUint64(nil, 0x2a2b1c3d4e5f6))))
	}
	return b.Bytes()
}

// cpuTime returns the CPU time this process has used (user and system, every thread).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkWriters measures decode from text to output with each writer, in one run: the text
// dump, --json, --json-lines and the encoding/json writer --json had before (refWriter), on
// short messages (30,001 of them, as an OLTP workload sends them) and on a corpus
// capture (wide rows, binary values). msgs/s counts messages decoded and written a second,
// msgs/cpu-s a second of the process's CPU time (which a busy machine does not stretch).
func BenchmarkWriters(b *testing.B) {
	inputs := []struct {
		name string
		text []byte
	}{
		{"small", smallMessages(10000)},
		{"corpus", readCorpus(b, filepath.Join(corpusDir, "pg18-binary-parallel.capture.gz"))},
	}
	writers := []struct {
		name string
		new  func(w io.Writer) dump.Writer
	}{
		{"text", newText}, {"json", newJSON}, {"json-lines", newJSONLines}, {"json-encoding", newRefJSON},
	}
	for _, in := range inputs {
		msgs := 0
		for _, l := range bytes.Split(in.text, []byte("\n")) {
			if len(l) > 0 && l[0] != '#' {
				msgs++
			}
		}
		for _, w := range writers {
			b.Run(in.name+"/"+w.name, func(b *testing.B) {
				b.SetBytes(int64(len(in.text)))
				cpu0 := cpuTime()
				for b.Loop() {
					st := input.NewStream(bytes.NewReader(in.text), input.Auto)
					res, _ := st.Start()
					capture := input.ReadCaptureOptions(res.Header)
					opts := capture.DecoderOptions(decoder.Options{})
					bw := bufio.NewWriterSize(io.Discard, 64<<10)
					if _, err := dump.DecodeAll(st, res, decoder.NewConnections(opts), w.new(bw), func([]*input.Error) {}); err != nil {
						b.Fatal(err)
					}
				}
				// The machine is shared: CPU time counts what this process did, whatever else runs.
				b.ReportMetric(float64(msgs)*float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
				b.ReportMetric(float64(msgs)*float64(b.N)/(cpuTime()-cpu0).Seconds(), "msgs/cpu-s")
			})
		}
	}
}
