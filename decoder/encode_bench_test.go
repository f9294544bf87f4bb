package decoder

import (
	"bytes"
	"runtime"
	"testing"
)

// encodeTrees decodes a benchmark corpus into one tree a message, with the sessions the
// decoders use, for the encoder to write back.
func encodeTrees(b testing.TB, bc *benchCorpus) []*Tree {
	ss := bc.sessions()
	trees := make([]*Tree, len(bc.msgs))
	for i, m := range bc.msgs {
		trees[i] = ss[bc.capture[i]].Decode(m)
		if trees[i].Err != nil {
			b.Fatalf("message %d: %v", i, trees[i].Err)
		}
	}
	return trees
}

// BenchmarkEncode writes every decoded message of each corpus back to bytes. One op is one
// message; MB/s counts message bytes.
func BenchmarkEncode(b *testing.B) {
	for _, set := range benchSets {
		bc := loadBenchCorpus(b, set)
		trees := encodeTrees(b, bc)
		b.Run("corpus="+set, func(b *testing.B) {
			var e Encoder
			var out []byte
			b.SetBytes(int64(bc.bytes / len(bc.msgs)))
			b.ReportAllocs()
			n := len(trees)
			for i := 0; b.Loop(); i++ {
				var err error
				if out, err = e.Append(out[:0], trees[i%n]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEncodeRatio compares writing a message back with reading it, as BenchmarkDecodeRatio
// compares the decoders: in CPU time, in one process, interleaved in rounds (the garbage
// collected between the shares, outside the time taken). One share decodes each message, the
// other decodes it and writes it back from the tree just decoded, as an edit does. It reports
// each share's median time a message, the encoder's alone (the difference of the medians), and
// the median of the rounds' ratios x-decode: the encoder's time over the decoder's. Run it with
// -benchtime 30x or so; ns/op is a round.
func BenchmarkEncodeRatio(b *testing.B) {
	for _, set := range benchSets {
		bc := loadBenchCorpus(b, set)
		b.Run("corpus="+set, func(b *testing.B) {
			b.Logf("clock: %s", clockName)
			ss := bc.sessions()
			var t Tree
			for i, m := range bc.msgs {
				ss[bc.capture[i]].DecodeInto(&t, m)
			}
			var e Encoder
			var out []byte
			work := []struct {
				name string
				do   func(i int) bool
			}{
				{"decode", func(i int) bool {
					ss[bc.capture[i]].DecodeInto(&t, bc.msgs[i])
					return t.Err == nil
				}},
				{"decode+encode", func(i int) bool {
					ss[bc.capture[i]].DecodeInto(&t, bc.msgs[i])
					var err error
					out, err = e.Append(out[:0], &t)
					return err == nil && len(out) == len(bc.msgs[i])
				}},
			}
			passes := max(1, 40_000_000/(bc.bytes+400*len(bc.msgs)))
			rounds := make([][]float64, len(work))
			round := 0
			for b.Loop() {
				for j := range work {
					k := (j + round) % len(work)
					runtime.GC()
					start := cpuTime()
					for range passes {
						for i := range bc.msgs {
							if !work[k].do(i) {
								b.Fatalf("%s: message %d failed", work[k].name, i)
							}
						}
					}
					rounds[k] = append(rounds[k], float64((cpuTime()-start).Nanoseconds())/float64(passes*len(bc.msgs)))
				}
				round++
			}
			r := make([]float64, round)
			for i := range r {
				r[i] = (rounds[1][i] - rounds[0][i]) / rounds[0][i]
			}
			for k := range work {
				b.ReportMetric(median(rounds[k]), work[k].name+"-ns/msg")
			}
			b.ReportMetric(median(rounds[1])-median(rounds[0]), "encode-ns/msg")
			b.ReportMetric(median(r), "x-decode")
		})
	}
}

// TestEncodeAllocs holds the encoder's allocation budget: once its buffers have grown, writing
// a corpus back allocates nothing.
func TestEncodeAllocs(t *testing.T) {
	for _, set := range benchSets {
		bc := loadBenchCorpus(t, set)
		trees := encodeTrees(t, bc)
		var e Encoder
		var out []byte
		write := func() {
			for i, tr := range trees {
				var err error
				if out, err = e.Append(out[:0], tr); err != nil || !bytes.Equal(out, bc.msgs[i]) {
					t.Fatalf("%s message %d: %v\n%x\nwant\n%x", set, i, err, out, bc.msgs[i])
				}
			}
		}
		write()
		if allocs := testing.AllocsPerRun(3, write); allocs != 0 {
			t.Fatalf("%s: %v allocations writing %d messages once warm, want 0", set, allocs, len(trees))
		}
	}
}
