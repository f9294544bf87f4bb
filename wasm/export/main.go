//go:build js && wasm

// Command export is the program of the page's export worker (export.wasm; static/
// export-worker.js loads it on the first dump the page exports): it holds the command line
// tool's writers (package dump), which main.wasm does not link. It sets one function,
// pgoutputInspectorExport, which writes a job (package dumpjob, as static/boot.js posts it)
// with dump.RunJob and returns {bytes: Uint8Array} or {over: true} or {why: "…"}; then it
// waits for calls.
package main

import (
	"runtime/debug"
	"syscall/js"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/consumer"
	"pgoutput-inspector/internal/dump"
	"pgoutput-inspector/internal/dumpjob"
	"pgoutput-inspector/web"
)

func main() {
	js.Global().Set("pgoutputInspectorExport", js.FuncOf(func(_ js.Value, args []js.Value) any {
		v := args[0]
		text := v.Get("text")
		var s string
		if text.Type() == js.TypeString {
			s = text.String()
		} else {
			// A binary file's bytes, sent as a Uint8Array (wasm/main.go's dump).
			b := make([]byte, text.Length())
			js.CopyBytesToGo(b, text)
			s = string(b)
		}
		if k := dumpjob.Kind(v.Get("kind").Int()); k == dumpjob.SharePart {
			out, why := web.SharePartAnswer([]byte(s), v.Get("message").Int())
			return answer(out, false, why)
		}
		j := dumpjob.Job{Kind: dumpjob.Kind(v.Get("kind").Int()), Text: s,
			Format: input.Format(v.Get("format").String()), Proto: v.Get("proto").Int(),
			InStream: decoder.Choice(v.Get("inStream").Int()), Name: v.Get("name").String(),
			Message: v.Get("message").Int(), Max: v.Get("max").Int()}
		if j.Kind == dumpjob.Consumer {
			j.SenderTimeout, j.StatusInterval = v.Get("senderTimeout").Int(), v.Get("statusInterval").Int()
		}
		out, over, why := dump.RunJob(j)
		return answer(out, over, why)
	}))
	// A file too big for the page is cut into parts as the worker reads it from disk
	// (static/export-worker.js): pgoutputInspectorCut(maxBytes, maxItems) starts, then
	// pgoutputInspectorCut(chunk) reads each chunk in order and gives {parts, done}: how many
	// parts so far, and those completed since the last call, with the file's format and head
	// ({why} when it cannot be cut); and pgoutputInspectorCut() ends with {format, head,
	// parts} or {why}. A part is [start, end, items, mid] (mid: it ends inside a message).
	var cutter *input.Cutter
	var chunk []byte
	sent := 0 // parts given so far
	list := func(ps []input.Part) js.Value {
		l := js.Global().Get("Array").New(len(ps))
		for i, p := range ps {
			l.SetIndex(i, []any{float64(p.Start), float64(p.End), p.Items, p.Mid})
		}
		return l
	}
	js.Global().Set("pgoutputInspectorCut", js.FuncOf(func(_ js.Value, args []js.Value) any {
		r := js.Global().Get("Object").New()
		switch {
		case len(args) == 2:
			cutter, sent = &input.Cutter{MaxBytes: int64(args[0].Int()), MaxItems: args[1].Int()}, 0
		case len(args) == 1 && cutter != nil:
			n := args[0].Length()
			if cap(chunk) < n {
				chunk = make([]byte, n)
			}
			js.CopyBytesToGo(chunk[:n], args[0])
			_, err := cutter.Write(chunk[:n])
			so := cutter.SoFar()
			r.Set("parts", len(so.Parts))
			r.Set("format", string(so.Format))
			r.Set("head", float64(so.Head))
			// The last parts may still change (Final), unless the cutting stopped.
			done := max(cutter.Final(), sent)
			if err != nil {
				r.Set("why", err.Error())
				done = len(so.Parts)
			}
			r.Set("done", list(so.Parts[sent:done]))
			sent = done
		case cutter != nil:
			ps, err := cutter.Close()
			cutter, chunk = nil, nil
			if err != nil {
				r.Set("why", err.Error())
				break
			}
			r.Set("format", string(ps.Format))
			r.Set("head", float64(ps.Head))
			r.Set("parts", list(ps.Parts))
		}
		return r
	}))
	// pgoutputInspectorFind(bytes, query, format, first) decodes a part of a big file (a file
	// of its own, the parts given in order from the first: first says it is the first) as one
	// decode of the whole file would (web.Carry), and searches it with the message list's
	// filter (none for ""): {count, first, before, relations, types, tally} (first: the first
	// message found, or -1; before: what the page's decode of the next part goes on from, for
	// pgoutputInspectorOpenPart, and how many relations and types it knows; tally: the part's
	// web.TallyPart), or {why} when the query does not read.
	var carry web.Carry
	js.Global().Set("pgoutputInspectorFind", js.FuncOf(func(_ js.Value, args []js.Value) any {
		r := js.Global().Get("Object").New()
		query := args[1].String()
		f := web.ParseFilter(query)
		if f.Err != "" {
			r.Set("why", f.Err)
			return r
		}
		if args[3].Bool() {
			carry = web.Carry{}
		}
		// A part's decode is dropped as soon as it is counted: collecting sooner keeps the
		// heap (which a WebAssembly memory never gives back) near one part's.
		defer debug.SetGCPercent(debug.SetGCPercent(25))
		b := make([]byte, args[0].Length())
		js.CopyBytesToGo(b, args[0])
		n, first := 0, -1
		d := web.NewPartDoc(string(b), input.Format(args[2].String()), &carry)
		if d != nil && query != "" {
			n, first = f.Count(d)
		}
		if d != nil {
			r.Set("tally", tally(web.TallyPart(d)))
		}
		r.Set("count", n)
		r.Set("first", first)
		// What the page's decode of the next part goes on from.
		u, relations, types := carry.AppendBefore(nil)
		r.Set("before", js.Global().Get("Uint8Array").New(len(u)))
		js.CopyBytesToJS(r.Get("before"), u)
		r.Set("relations", relations)
		r.Set("types", types)
		return r
	}))
	// pgoutputInspectorConsumerPart(bytes, format, frames, first, senderTimeout,
	// statusInterval) adds a part of a big file (given in order from the first: first says it
	// is; frames: how many the cutting counted in it) to the whole file's consumer check
	// (web.PartsConsumer, measured against the settings, in milliseconds, when first);
	// pgoutputInspectorConsumerPart() ends it: {bytes, counts} (bytes: the report as HTML;
	// counts: each part's messages) or {why}.
	var pc *web.PartsConsumer
	js.Global().Set("pgoutputInspectorConsumerPart", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 0 {
			if pc == nil {
				return answer(nil, false, "no part was read")
			}
			r := answer(consumer.HTML(pc.Report()), false, "")
			counts := js.Global().Get("Array").New(len(pc.Counts))
			for i, n := range pc.Counts {
				counts.SetIndex(i, n)
			}
			r.Set("counts", counts)
			pc = nil
			return r
		}
		if args[3].Bool() {
			pc = web.NewPartsConsumer(consumer.Settings{SenderTimeout: int64(args[4].Int()) * 1e6, StatusInterval: int64(args[5].Int()) * 1e6})
		}
		// As a search does: a part's decode is dropped as soon as it is read.
		defer debug.SetGCPercent(debug.SetGCPercent(25))
		b := make([]byte, args[0].Length())
		js.CopyBytesToGo(b, args[0])
		pc.Add(string(b), input.Format(args[1].String()), args[2].Int())
		return nil
	}))
	select {} // the worker calls pgoutputInspectorExport for each job
}

// tally is t as static/boot.js reads it: names and changes as [name, count] pairs, LSNs as
// numbers and as text, times in milliseconds.
func tally(t web.PartTally) js.Value {
	r := js.Global().Get("Object").New()
	pairs := func(m map[string]int) js.Value {
		l := js.Global().Get("Array").New()
		for k, n := range m {
			l.Call("push", []any{k, n})
		}
		return l
	}
	r.Set("messages", t.Messages)
	r.Set("names", pairs(t.Names))
	r.Set("changes", pairs(t.Changes))
	r.Set("unnamed", t.Unnamed)
	if t.HasLSN {
		r.Set("lsn", []any{float64(t.MinLSN), float64(t.MaxLSN), pgvalue.FormatLSN(t.MinLSN), pgvalue.FormatLSN(t.MaxLSN)})
	}
	if t.HasTime {
		r.Set("time", []any{float64(t.MinTime) / 1e6, float64(t.MaxTime) / 1e6})
	}
	return r
}

// answer is a job's answer as static/boot.js reads it.
func answer(out []byte, over bool, why string) js.Value {
	r := js.Global().Get("Object").New()
	switch {
	case over:
		r.Set("over", true)
	case why != "":
		r.Set("why", why)
	default:
		b := js.Global().Get("Uint8Array").New(len(out))
		js.CopyBytesToJS(b, out)
		r.Set("bytes", b)
	}
	return r
}
