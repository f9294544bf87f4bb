package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/internal/guidedoc"
)

const explainUsage = `usage: pgoutput-inspect explain [--release N] [TYPE]

Prints the field guide's entry for a message type: what it is for, where it travels, its
fields in order with their wire formats, widths and conditions, a byte diagram, the rules
between fields, what changed in each PostgreSQL release, and the documentation's section.
TYPE is a type letter (U, c, K: letters are case-sensitive), a name (update, "Stream Abort",
stream-abort) or one of tupledata, copydata, xlogdata, primary-keepalive,
standby-status-update, hot-standby-feedback. Without TYPE it lists the entries.
The same text is in docs/messages.md; decode --explain explains each field of real bytes.
`

func runExplain(e *env, args []string) int {
	fs := flagSet(e, "explain", explainUsage, args)
	release := fs.Int("release", 0, "link the documentation of PostgreSQL `N` ("+
		strconv.Itoa(decoder.FirstRelease)+" to "+strconv.Itoa(decoder.LastRelease)+") and mark what does not exist there; default: the latest")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if *release != 0 && (*release < decoder.FirstRelease || *release > decoder.LastRelease) {
		fmt.Fprintf(e.stderr, "pgoutput-inspect explain: --release %d: the guide knows PostgreSQL %d to %d\n", *release, decoder.FirstRelease, decoder.LastRelease)
		return exitUsage
	}
	g := decoder.GuideData()
	if len(pos) == 0 {
		fmt.Fprint(e.stdout, entryList(g))
		return exitOK
	}
	name := strings.Join(pos, " ")
	found := lookupEntries(g, name)
	if len(found) == 0 {
		fmt.Fprintf(e.stderr, "pgoutput-inspect explain: no message type %q; the types are:\n\n%s", name, entryList(g))
		return exitUsage
	}
	for k, en := range found {
		if k > 0 {
			fmt.Fprintf(e.stdout, "\n%s\n\n", strings.Repeat("-", 72))
		}
		fmt.Fprint(e.stdout, guidedoc.Text(g, en, *release))
		if *release != 0 {
			fmt.Fprint(e.stdout, lensText(en, *release))
		}
	}
	if len(found) > 1 {
		fmt.Fprintf(e.stdout, "\n%q names %d entries: a pgoutput message and a replication protocol message share the letter; the message's length tells them apart.\n", name, len(found))
	}
	return exitOK
}

// lookupEntries finds the entries TYPE names: by type letter (case-sensitive; 'r' is both
// Rollback Prepared and Standby status update), by ID, or by name in any case, with blanks,
// dashes and underscores alike.
func lookupEntries(g *decoder.Guide, name string) []*decoder.GuideEntry {
	var found []*decoder.GuideEntry
	letter := strings.Trim(name, "'\"")
	if utf8.RuneCountInString(letter) == 1 && letter[0] < utf8.RuneSelf {
		for i := range g.Entries {
			if g.Entries[i].Type == letter[0] {
				found = append(found, &g.Entries[i])
			}
		}
		return found
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

// entryList lists the guide's entries: letter, ID, name.
func entryList(g *decoder.Guide) string {
	var b strings.Builder
	for _, e := range g.Entries {
		letter := " "
		if e.Type != 0 {
			letter = string(rune(e.Type))
		}
		fmt.Fprintf(&b, "  %s  %-22s %s\n", letter, e.ID, e.Name)
	}
	return b.String()
}

// lensText says what of the entry does not exist at release (with its highest protocol).
func lensText(e *decoder.GuideEntry, release int) string {
	proto := decoder.MaxProtoAt(release)
	var b strings.Builder
	fmt.Fprintf(&b, "\nAt PostgreSQL %d (protocol versions 1 to %d):\n", release, proto)
	if p := decoder.FieldAt(e.Group, release, proto); !p.Exists {
		fmt.Fprintf(&b, "  %s does not exist yet: it arrives in PostgreSQL %d, protocol version %d.\n", e.Name, p.Since, p.Proto)
		return b.String()
	}
	missing := false
	for _, f := range e.Fields {
		if f.Field == decoder.FieldUnknown {
			continue
		}
		if p := decoder.FieldAt(f.Field, release, proto); !p.Exists {
			fmt.Fprintf(&b, "  %s: not sent before PostgreSQL %d (protocol version %d).\n", f.Field.Info().Name, p.Since, p.Proto)
			missing = true
		}
		for _, c := range f.Field.Info().Codes {
			if c.Since > release {
				fmt.Fprintf(&b, "  %s %q (%s): not sent before PostgreSQL %d.\n", f.Field.Info().Name, rune(c.Code), c.Name, c.Since)
				missing = true
			}
		}
	}
	if !missing {
		b.WriteString("  every field above exists.\n")
	}
	return b.String()
}

// explainWidth is where decode --explain wraps its sentences; a deep field still gets
// explainMinText columns of text.
const (
	explainWidth   = 100
	explainMinText = 48
)

// explainLine writes node i's explain sentence (Tree.AppendExplain, the page's explain mode)
// under its line, from the name column, wrapped at explainWidth.
func (d *dumper) explainLine(t *decoder.Tree, i, indent int) {
	d.exp = t.AppendExplain(d.exp[:0], i)
	text := strings.Fields(string(d.exp))
	room := max(explainWidth-indent, explainMinText)
	for len(text) > 0 {
		d.buf = appendSpaces(d.buf, indent)
		d.sgr(sgrDim)
		n := 0
		for k, w := range text {
			wl := utf8.RuneCountInString(w)
			if k > 0 && n+1+wl > room {
				text = text[k:]
				break
			}
			if k > 0 {
				d.buf = append(d.buf, ' ')
				n++
			}
			d.buf = append(d.buf, w...)
			n += wl
			if k == len(text)-1 {
				text = nil
			}
		}
		d.reset(sgrDim)
		d.flushLine()
	}
}
