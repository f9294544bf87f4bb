// Package guide is the inspector's teaching: the field guide, explain mode and the version
// lens, built on the decoder's facts. The decoder keeps the facts (the field table with each
// field's meaning and explain template, the message tables, what exists at each release and
// protocol version); this package says them to a reader, for the page, the command line and
// the build alike:
//
//   - guide.go, table.go, wire.go: the field guide (Guide, Data): per message its purpose,
//     where it travels, its fields in documented order with their conditions, rules, related
//     entries, documentation links and what changed in each release; the releases and
//     pgoutput's options. Native programs only call Data, so main.wasm holds none of it;
//   - asset.go: the guide as the page's asset, static/guide.txt (Append, Read);
//   - lens.go: the version lens (Lens), what it marks and since when (SinceText);
//   - entry.go: which guide entry describes a message or a field (EntryID, EntryOf);
//   - change.go: the one change the guide's comparison captures record;
//   - prose/: the guide as Markdown (docs/messages.md) and as text (`pgoutput-inspect
//     explain`), apart because it is written with fmt, which main.wasm does not link.
//
// Around it, each where its kind of code lives: the guide's pages as HTML, rendered at build
// time with the page's own decoding (web/guideview); the store's actions and state for the
// guide, explain mode and the lens (web/guide.go, web/explain.go, web/lens.go) and their
// components (web/ui/guide.go, explain.go, lens.go); the scripts that write the guide's
// assets (scripts/guide, guideview, guideexamples, guidelens, guideoptions). The package
// imports the decoder only, so that every one of them can import it.
package guide
