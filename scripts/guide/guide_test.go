package main

import (
	"bytes"
	"os"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/internal/guidedoc"
)

// TestMessagesDoc fails when docs/messages.md is not what the field table makes: run
// `go run ./scripts/guide -docs docs/messages.md` after changing decoder/fieldtable.go or
// decoder/guidetable.go.
func TestMessagesDoc(t *testing.T) {
	have, err := os.ReadFile("../../docs/messages.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := guidedoc.Markdown(decoder.GuideData()); !bytes.Equal(have, want) {
		t.Fatal("docs/messages.md is out of date: run go run ./scripts/guide -docs docs/messages.md")
	}
}

// TestAsset: the asset made from the repository reads back whole, with an example for every
// entry and the captures of one transaction across releases.
func TestAsset(t *testing.T) {
	g, err := Full("../..")
	if err != nil {
		t.Fatal(err)
	}
	back, err := decoder.ReadGuide(decoder.AppendGuide(nil, g))
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Entries) != len(g.Entries) || len(back.Comparisons) != len(g.Comparisons) {
		t.Fatalf("read back %d entries and %d comparisons, want %d and %d", len(back.Entries), len(back.Comparisons), len(g.Entries), len(g.Comparisons))
	}
}
