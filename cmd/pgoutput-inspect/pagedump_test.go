package main

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/dump"
	"pgoutput-inspector/internal/dumpjob"
	"pgoutput-inspector/web"
)

// pageSource is an input as the page has it, with the state it was read in, and the flags
// that make decode read it as the page did.
type pageSource struct {
	name  string
	state web.State
	flags []string
}

// pageSources are every example and every corpus capture as the page reads them, and a few
// with the page's settings changed: a format chosen in the menu, a protocol version, the
// in-stream choice, and a link's bytes (hex=).
func pageSources(t *testing.T) []pageSource {
	var sources []pageSource
	// The captures of the examples after the first come from the examples asset, read as the
	// page reads it when one is chosen.
	asset, err := os.ReadFile(filepath.Join("..", "..", "static", web.ExamplesAsset))
	if err != nil {
		t.Fatal(err)
	}
	menu, _ := web.Apply(web.NewState(-1), web.ExamplesLoaded{Asset: string(asset)})
	for i, ex := range web.Examples {
		s, _ := web.Apply(menu, web.LoadExample{Index: i})
		if s.Example != i || s.Doc == nil {
			t.Fatalf("example %d (%s) not shown: %s", i, ex.Name, s.Menu.Err)
		}
		sources = append(sources, pageSource{"example " + strconv.Itoa(i) + " (" + ex.Name + ")", s, nil})
	}
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.capture.gz"))
	if len(files) == 0 {
		t.Fatalf("no captures in %s", corpusDir)
	}
	for _, f := range files {
		s, _ := web.Apply(web.NewState(-1), web.SetText{Text: string(readCorpus(t, f))})
		sources = append(sources, pageSource{filepath.Base(f), s, nil})
	}
	// Hex digits read as base64 are other bytes.
	forced, _ := web.Apply(web.NewState(-1), web.SetText{Text: "4200000000000000010000000000000002000004d2aa\n"})
	forced, _ = web.Apply(forced, web.SetForce{Format: input.Base64})
	// A Stream Start said to be protocol 1 has a note saying so.
	proto, _ := web.Apply(web.NewState(-1), web.SetText{Text: "530000000101\n"})
	proto, _ = web.Apply(proto, web.SetProto{Proto: 1})
	// An Insert with an Xid said to be in a stream has no note saying it was read so.
	inStream, _ := web.Apply(web.NewState(-1), web.SetText{Text: "4900000001000000014e0001740000000131\n"})
	inStream, _ = web.Apply(inStream, web.SetInStream{Choice: decoder.Yes})
	commit := []byte("C\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x03")
	link, _ := web.Apply(web.NewState(-1), web.OpenFragment{Fragment: "#hex=" + hex.EncodeToString(commit)})
	sources = append(sources, pageSource{"format chosen", forced, []string{"--format", "base64"}},
		pageSource{"protocol 1", proto, []string{"--proto", "1"}},
		pageSource{"in a stream", inStream, []string{"--in-stream=true"}},
		pageSource{"hex= link", link, []string{"--format", "hex"}})
	return sources
}

// TestPageDumpIsCLIDump: what the page's export worker writes for the page's input (dump.RunJob
// of the job the page posts, web.State.DumpJob) is exactly what pgoutput-inspect decode
// prints for the same text given as a file, with the page's settings as flags, for each dump
// kind, and for the chosen message as a Go test (decode --go-test N: the test, or the same
// reason for none, which decode prints on stderr); and decode reads from that text exactly the messages the page read (their bytes,
// from decode --json), so the dump is the page's decode.
func TestPageDumpIsCLIDump(t *testing.T) {
	dir := t.TempDir()
	tests, noTests := 0, 0
	for i, src := range pageSources(t) {
		s := src.state
		if s.Doc == nil || len(s.Doc.Messages) == 0 {
			t.Fatalf("%s: the page reads no messages", src.name)
		}
		file := filepath.Join(dir, "input-"+strconv.Itoa(i))
		args := append(append([]string{"decode"}, src.flags...), file)
		if err := os.WriteFile(file, []byte(s.Text), 0o666); err != nil {
			t.Fatal(err)
		}
		checkSameMessages(t, src.name, s.Doc, runCmd(t, "", nil, append(args, "--json")...).stdout)
		flags := [dumpjob.NumKinds]string{dumpjob.Text: "--color=never", dumpjob.Markdown: "--markdown",
			dumpjob.JSON: "--json", dumpjob.GoTest: "--go-test=" + strconv.Itoa(s.Msg+1)}
		for k := range dumpjob.NumKinds {
			j := s.DumpJob(k)
			if j.Text != s.Text {
				t.Fatalf("%s: the job's text is not the page's", src.name)
			}
			// The CLI names the input by its file; the page by its example (TestDumpJob).
			j.Name, j.Max = file, 1<<30 // far over any of these dumps
			page, over, why := dump.RunJob(j)
			r := runCmd(t, "", nil, append(args, flags[k])...)
			if r.code == exitUsage {
				t.Fatalf("%s %s: exit %d: %s", src.name, flags[k], r.code, r.stderr)
			}
			if k == dumpjob.GoTest && why != "" {
				noTests++
				if want := "pgoutput-inspect decode: " + strings.Replace(flags[k], "=", " ", 1) + ": " + why + "\n"; r.stdout != "" || !strings.Contains(r.stderr, want) {
					t.Fatalf("%s: the worker writes no Go test: %s; decode %s printed %q, %q", src.name, why, flags[k], r.stdout, r.stderr)
				}
				continue
			}
			if over || why != "" {
				t.Fatalf("%s: the worker writes no %s: over %v, %s", src.name, flags[k], over, why)
			}
			if k == dumpjob.GoTest {
				tests++
			}
			if string(page) != r.stdout {
				t.Fatalf("%s: the worker's dump differs from decode %s:\n%s", src.name, flags[k], diff(r.stdout, string(page)))
			}
		}
	}
	// Both ways are taken: the examples' chosen messages include types pglogrepl decodes and
	// types it does not (the two-phase messages).
	if tests == 0 || noTests == 0 {
		t.Errorf("%d Go tests written, %d refused: the test wants both", tests, noTests)
	}
	t.Logf("%d Go tests written, %d refused", tests, noTests)
}

// checkSameMessages fails the test unless decode's JSON holds exactly the messages of the
// page's Doc, byte for byte.
func checkSameMessages(t *testing.T, name string, d *web.Doc, jsonOut string) {
	t.Helper()
	var doc struct {
		Messages []struct{ Hex string }
	}
	if err := json.Unmarshal([]byte(jsonOut), &doc); err != nil {
		t.Fatalf("%s: decode --json: %v", name, err)
	}
	if len(doc.Messages) != len(d.Messages) {
		t.Fatalf("%s: decode reads %d messages, the page %d", name, len(doc.Messages), len(d.Messages))
	}
	for i, m := range doc.Messages {
		if want := hex.EncodeToString(d.Messages[i].Bytes); m.Hex != want {
			t.Fatalf("%s: message %d: decode reads %s, the page %s", name, i, cut(m.Hex), cut(want))
		}
	}
}

func cut(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
