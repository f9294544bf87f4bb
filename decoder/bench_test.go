package decoder

import (
	"sort"
	"testing"

	"github.com/jackc/pglogrepl"
)

// benchCorpus is the pgoutput messages of every capture that pglogrepl also parses, in file
// and stream order, with the in-stream flag pglogrepl's caller must track, so both decoders see
// the same bytes. Each message also names its capture: the annotated decode uses one session per
// capture, because relation OIDs of different servers collide.
type benchCorpus struct {
	msgs     [][]byte
	inStream []bool
	capture  []int // index into files
	files    []string
	bytes    int
}

func loadBenchCorpus(b testing.TB) *benchCorpus {
	bc := &benchCorpus{}
	corpus := corpusPayloads(b)
	for file := range corpus {
		bc.files = append(bc.files, file)
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
		b.Fatal("no capture under testdata/corpus")
	}
	b.Logf("%d captures: %d messages, %d bytes", len(bc.files), len(bc.msgs), bc.bytes)
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

// BenchmarkDecode compares, per message of the real corpus, pglogrepl's ParseV2 with the
// annotated decode. One op is one message; MB/s counts message bytes.
func BenchmarkDecode(b *testing.B) {
	bc := loadBenchCorpus(b)
	avg := int64(bc.bytes / len(bc.msgs))
	b.Run("pglogrepl", func(b *testing.B) {
		b.SetBytes(avg)
		b.ReportAllocs()
		n := len(bc.msgs)
		for i := 0; b.Loop(); i++ {
			if _, err := pglogrepl.ParseV2(bc.msgs[i%n], bc.inStream[i%n]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("annotated", func(b *testing.B) {
		b.SetBytes(avg)
		b.ReportAllocs()
		ss := bc.sessions()
		var t Tree
		n := len(bc.msgs)
		for i := 0; b.Loop(); i++ {
			ss[bc.capture[i%n]].DecodeInto(&t, bc.msgs[i%n])
			if t.Err != nil {
				b.Fatal(t.Err)
			}
		}
	})
}

// BenchmarkDisplay measures turning a decoded tree into display text: every node's label and
// value, as the page and the command line print them. One op is one message.
func BenchmarkDisplay(b *testing.B) {
	bc := loadBenchCorpus(b)
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

// TestDecodeAllocs holds the allocation budget: once a session has seen the corpus, decoding it
// again allocates nothing.
func TestDecodeAllocs(t *testing.T) {
	bc := loadBenchCorpus(t)
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
		t.Fatalf("%v allocations decoding %d messages once warm, want 0", allocs, len(bc.msgs))
	}
}
