package decoder

import (
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/jackc/pglogrepl"
)

// benchCorpus is the pgoutput messages of every capture of one set that pglogrepl also parses,
// in file and stream order, with the in-stream flag pglogrepl's caller must track, so every
// decoder sees the same bytes. Each message also names its capture: the annotated decode uses
// one session per capture, because relation OIDs of different servers collide.
type benchCorpus struct {
	msgs     [][]byte
	inStream []bool
	capture  []int // index into files
	files    []string
	bytes    int
}

// benchSets are the corpora the benchmarks run on: the captures of the main workload
// (scripts/corpus/workload.sql: every message type, 267 bytes a message on average) and the
// small-message captures (scripts/corpus/oltp.sql: one-row transactions, about 40 bytes).
var benchSets = []string{"workload", "oltp"}

func loadBenchCorpus(b testing.TB, set string) *benchCorpus {
	bc := &benchCorpus{}
	corpus := corpusPayloads(b)
	for file := range corpus {
		if strings.Contains(file, "-oltp") == (set == "oltp") {
			bc.files = append(bc.files, file)
		}
	}
	sort.Strings(bc.files)
	for f, file := range bc.files {
		in := false
		for _, raw := range corpus[file] {
			p := xlogPayload(raw)
			if p == nil {
				continue
			}
			if _, err := pglogrepl.ParseV2(p, in); err == nil {
				bc.msgs = append(bc.msgs, p)
				bc.inStream = append(bc.inStream, in)
				bc.capture = append(bc.capture, f)
				bc.bytes += len(p)
			}
			switch p[0] {
			case 'S':
				in = true
			case 'E':
				in = false
			}
		}
	}
	if len(bc.msgs) == 0 {
		b.Fatalf("no %s capture under testdata/corpus", set)
	}
	b.Logf("%s: %d captures, %d messages, %d bytes (%d a message)",
		set, len(bc.files), len(bc.msgs), bc.bytes, bc.bytes/len(bc.msgs))
	return bc
}

// sessions returns a fresh session per capture.
func (bc *benchCorpus) sessions() []*Session {
	ss := make([]*Session, len(bc.files))
	for i := range ss {
		ss[i] = NewSession(Options{Envelope: EnvelopeNone, InStream: No})
	}
	return ss
}

// decoders are the three decoders the benchmarks compare, each reading one message.
var decoders = []struct {
	name string
	// new prepares a decoder for a corpus (sessions warmed up, like a page that decoded the
	// stream once); decode reads message i and reports whether it read it whole.
	new func(bc *benchCorpus) func(i int) bool
}{
	{"pglogrepl", func(bc *benchCorpus) func(int) bool {
		return func(i int) bool {
			_, err := pglogrepl.ParseV2(bc.msgs[i], bc.inStream[i])
			return err == nil
		}
	}},
	{"annotated", func(bc *benchCorpus) func(int) bool {
		ss := bc.sessions()
		var t Tree
		for i, m := range bc.msgs {
			ss[bc.capture[i]].DecodeInto(&t, m)
		}
		return func(i int) bool {
			ss[bc.capture[i]].DecodeInto(&t, bc.msgs[i])
			return t.Err == nil
		}
	}},
	{"floor", func(bc *benchCorpus) func(int) bool {
		var f floorReader
		return func(i int) bool { return floorDecode(&f, bc.msgs[i], bc.inStream[i]) }
	}},
}

// BenchmarkDecode runs each decoder over each corpus. One op is one message; MB/s counts
// message bytes.
func BenchmarkDecode(b *testing.B) {
	for _, set := range benchSets {
		bc := loadBenchCorpus(b, set)
		avg := int64(bc.bytes / len(bc.msgs))
		for _, d := range decoders {
			b.Run("corpus="+set+"/"+d.name, func(b *testing.B) {
				decode := d.new(bc)
				b.SetBytes(avg)
				b.ReportAllocs()
				n := len(bc.msgs)
				for i := 0; b.Loop(); i++ {
					if !decode(i % n) {
						b.Fatalf("message %d not decoded", i%n)
					}
				}
			})
		}
	}
}

// BenchmarkDecodeRatio compares the decoders in CPU time (the Node process's under WebAssembly),
// in one process, interleaved: one op is a round in which each decoder in turn, in a rotating
// order, reads the whole corpus a few times. The garbage is collected between the decoders'
// shares, outside the time taken, so no decoder pays for another's; pglogrepl's own collections
// are mostly not counted either (with the corpus in memory they are rare), which flatters it. It
// reports each decoder's median time a message over the rounds and the medians of the rounds'
// ratios, in which the targets are stated: x-pglogrepl (pglogrepl's time over the annotated
// decode's) and x-floor (the annotated decode's over the floor's). A median over rounds holds on a
// machine whose load comes and goes. Run it with -benchtime 30x or so; ns/op is a round.
func BenchmarkDecodeRatio(b *testing.B) {
	for _, set := range benchSets {
		bc := loadBenchCorpus(b, set)
		b.Run("corpus="+set, func(b *testing.B) {
			b.Logf("clock: %s", clockName)
			fns := make([]func(int) bool, len(decoders))
			for k, d := range decoders {
				fns[k] = d.new(bc)
			}
			// Each decoder's share of a round is a few milliseconds or more.
			passes := max(1, 40_000_000/(bc.bytes+400*len(bc.msgs)))
			rounds := make([][]float64, len(decoders)) // ns a message, per round
			round := 0
			for b.Loop() {
				for j := range decoders {
					k := (j + round) % len(decoders)
					decode := fns[k]
					runtime.GC()
					start := cpuTime()
					for range passes {
						for i := range bc.msgs {
							if !decode(i) {
								b.Fatalf("%s: message %d not decoded", decoders[k].name, i)
							}
						}
					}
					ns := float64((cpuTime() - start).Nanoseconds())
					rounds[k] = append(rounds[k], ns/float64(passes*len(bc.msgs)))
				}
				round++
			}
			ratio := func(num, den int) float64 {
				r := make([]float64, round)
				for i := range r {
					r[i] = rounds[num][i] / rounds[den][i]
				}
				return median(r)
			}
			for k, d := range decoders {
				b.ReportMetric(median(rounds[k]), d.name+"-ns/msg")
			}
			b.ReportMetric(ratio(0, 1), "x-pglogrepl")
			b.ReportMetric(ratio(1, 2), "x-floor")
		})
	}
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// BenchmarkDisplay measures turning a decoded tree into display text: every node's label and
// value, as the page and the command line print them. One op is one message.
func BenchmarkDisplay(b *testing.B) {
	bc := loadBenchCorpus(b, "workload")
	ss := bc.sessions()
	trees := make([]*Tree, len(bc.msgs))
	for i, m := range bc.msgs {
		trees[i] = ss[bc.capture[i]].Decode(m)
	}
	b.ReportAllocs()
	buf := make([]byte, 0, 4096)
	n := len(trees)
	for i := 0; b.Loop(); i++ {
		t := trees[i%n]
		for j := range t.Nodes {
			buf = t.appendNodeLabel(buf[:0], j)
			buf = t.AppendValue(buf, j)
		}
	}
}

// TestDecodeAllocs holds the allocation budget: once a session has seen a corpus, decoding it
// again allocates nothing.
func TestDecodeAllocs(t *testing.T) {
	for _, set := range benchSets {
		bc := loadBenchCorpus(t, set)
		ss := bc.sessions()
		var tr Tree
		for i, m := range bc.msgs {
			ss[bc.capture[i]].DecodeInto(&tr, m)
		}
		allocs := testing.AllocsPerRun(3, func() {
			for i, m := range bc.msgs {
				ss[bc.capture[i]].DecodeInto(&tr, m)
			}
		})
		if allocs != 0 {
			t.Fatalf("%s: %v allocations decoding %d messages once warm, want 0", set, allocs, len(bc.msgs))
		}
	}
}
