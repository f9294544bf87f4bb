package main

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/internal/guide"
	"pgoutput-inspector/internal/guide/prose"
)

const explainUsage = `usage: pgoutput-inspect explain [--release N] [--protocol N] [TYPE]

Prints the field guide's entry for a message type: what it is for, where it travels, its
fields in order with their wire formats, widths and conditions, a byte diagram, the rules
between fields, what changed in each PostgreSQL release, and the documentation's section.
TYPE is a type letter (U, c, K: letters are case-sensitive), a name (update, "Stream Abort",
stream-abort) or one of tupledata, copydata, xlogdata, primary-keepalive,
standby-status-update, hot-standby-feedback. Without TYPE it lists the entries.
--release and --protocol show the entry as that release or protocol version has it: what it
lacks is marked "not yet", with since when it exists.
The same text is in docs/messages.md; decode --explain explains each field of real bytes.
`

func runExplain(e *env, args []string) int {
	fs := flagSet(e, "explain", explainUsage, args)
	release, proto := lensFlags(fs,
		"show the entry as %s has it, with its documentation's link; default: the latest, nothing marked",
		"show the entry as %s has it; default: any")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if !checkLens(e, "explain", *release, *proto) {
		return exitUsage
	}
	lens := guide.Lens{Release: *release, Proto: *proto}
	g := guide.Data()
	if len(pos) == 0 {
		fmt.Fprint(e.stdout, entryList(g, lens))
		return exitOK
	}
	name := strings.Join(pos, " ")
	found := lookupEntries(g, name)
	if len(found) == 0 {
		fmt.Fprintf(e.stderr, "pgoutput-inspect explain: no message type %q; the types are:\n\n%s", name, entryList(g, guide.Lens{}))
		return exitUsage
	}
	for k, en := range found {
		if k > 0 {
			fmt.Fprintf(e.stdout, "\n%s\n\n", strings.Repeat("-", 72))
		}
		fmt.Fprint(e.stdout, prose.Text(g, en, lens))
	}
	if len(found) > 1 {
		fmt.Fprintf(e.stdout, "\n%q names %d entries, which share the letter: who sent a message, or its layer and length, tells them apart.\n", name, len(found))
	}
	return exitOK
}

// lookupEntries finds the entries TYPE names: by type letter (case-sensitive; 'r' is both
// Rollback Prepared and Standby status update, 'D' Delete, DataRow and Describe), by ID, or by
// name in any case, with blanks, dashes and underscores alike.
func lookupEntries(g *guide.Guide, name string) []*guide.Entry {
	var found []*guide.Entry
	letter := strings.Trim(name, "'\"")
	if utf8.RuneCountInString(letter) == 1 && letter[0] < utf8.RuneSelf {
		for i := range g.Entries {
			if g.Entries[i].Type == letter[0] {
				found = append(found, &g.Entries[i])
			}
		}
		return found
	}
	if e := g.Entry(name); e != nil {
		return []*guide.Entry{e} // an exact ID: copy-data is COPY data, copydata CopyData
	}
	key := normalizeName(name)
	for i := range g.Entries {
		e := &g.Entries[i]
		if normalizeName(e.ID) == key || normalizeName(e.Name) == key {
			found = append(found, e)
		}
	}
	if len(found) == 0 {
		// Short names people use: keepalive, status update, feedback.
		for i := range g.Entries {
			if strings.Contains(normalizeName(g.Entries[i].ID), key) && len(key) >= 5 {
				found = append(found, &g.Entries[i])
			}
		}
	}
	return found
}

func normalizeName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r != ' ' && r != '-' && r != '_' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// entryList lists the guide's entries: letter, ID, name, and under a lens, for an entry it
// lacks, since when it exists.
func entryList(g *guide.Guide, l guide.Lens) string {
	var b strings.Builder
	for _, e := range g.Entries {
		letter := " "
		if e.Type != 0 {
			letter = string(rune(e.Type))
		}
		fmt.Fprintf(&b, "  %s  %-22s %s", letter, e.ID, e.Name)
		if p := decoder.FieldAt(e.Group, l.Release, l.Proto); (l.Release > 0 || l.Proto > 0) && !p.Exists {
			fmt.Fprintf(&b, "%*s(not yet: %s)", max(1, 24-len(e.Name)), "", guide.SinceText(p))
		}
		b.WriteString("\n")
	}
	return b.String()
}
