package web_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/consumer"
	"pgoutput-inspector/internal/dump"
	"pgoutput-inspector/web"
)

// TestConsumerInParts: the consumer check of a big file read part by part (PartsConsumer, as
// the export worker reads it for the Consumer panel) gives the report the check of the whole
// file gives (pgoutput-inspect consumer's), byte for byte as the panel shows it, on the real
// captures of consumers falling behind, stopping and misreporting, and of replication
// conversations, cut into parts of at most 64 KiB or 100 frames, and 16 KiB or 25.
func TestConsumerInParts(t *testing.T) {
	files, _ := filepath.Glob("../testdata/consumer/*.pcapng")
	more, _ := filepath.Glob("../testdata/conversation/*.pcapng")
	cut := 0
	for _, path := range append(files, more...) {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		set := consumer.Settings{SenderTimeout: 2e9, StatusInterval: 1e9}
		whole, err := dump.Consumers(bytes.NewReader(raw), input.Auto, decoder.Options{}, set, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []*input.Cutter{{MaxBytes: 64 << 10, MaxItems: 100}, {MaxBytes: 16 << 10, MaxItems: 25}} {
			c.Write(raw)
			ps, err := c.Close()
			if err != nil {
				t.Fatal(err)
			}
			pc := web.NewPartsConsumer(set)
			total, mid := 0, false
			for k, p := range ps.Parts {
				pc.Add(string(raw[:ps.Head])+string(raw[p.Start:p.End]), ps.Format, p.Items)
				total += pc.Counts[k]
				mid = mid || p.Mid
			}
			if mid {
				// A part that ends inside a message loses it (the page says so): not the
				// whole file's report.
				t.Logf("%s, %d KiB parts: a part ends inside a message", path, c.MaxBytes>>10)
				continue
			}
			if len(ps.Parts) > 1 {
				cut++
			}
			if got, want := consumer.HTML(pc.Report()), consumer.HTML(whole); !bytes.Equal(got, want) {
				t.Errorf("%s in %d parts (%d messages): the report differs from the whole file's:\n%s\nwant\n%s", path, len(ps.Parts), total, got, want)
			}
		}
	}
	if cut < 20 {
		t.Errorf("%d files cut in more than one part, none inside a message", cut)
	}
}
