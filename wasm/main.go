//go:build js && wasm

// Command wasm is the inspector page's program for the browser (GOOS=js GOARCH=wasm); static/
// boot.js starts it. It holds the page's one store (package web) and does for it what only a
// browser can: the URL fragment and history, the clipboard, files, compression
// (CompressionStream "deflate-raw", so that no compressor is compiled into main.wasm) and the
// theme attribute. Everything worth testing lives in package web.
package main

import (
	"strconv"
	"syscall/js"
	"unsafe"

	"github.com/hexops/vecty"

	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/dumpjob"
	"pgoutput-inspector/web"
	"pgoutput-inspector/web/ui"
)

// app is the store and the page drawing it.
type app struct {
	state web.State
	page  *ui.Page
	// pending is the action waiting for timer to call flush, which applies it: text typed into
	// a long input (applied once typing pauses), or the next chunk of a long input to decode
	// (web.DecodeMore, applied as soon as the browser has drawn and handled events).
	pending web.Action
	flush   js.Func
	timer   js.Value
}

func main() {
	// For the page's benchmarks (web/perf_test.go): the runtime and every package's
	// initialisation are done.
	js.Global().Get("performance").Call("mark", "go main")
	vecty.SetTitle("pgoutput inspector")
	a := &app{state: web.NewState(0)}
	a.flush = js.FuncOf(func(js.Value, []js.Value) any {
		if act := a.pending; act != nil {
			a.pending = nil
			a.apply(act)
		}
		return nil
	})
	doc := js.Global().Get("document")
	if t := storedTheme(); t != web.ThemeSystem {
		a.state, _ = web.Apply(a.state, web.SetTheme{Theme: t})
		setTheme(t)
	}
	var fx []web.Effect
	if act := fragmentAction(); act != nil {
		a.state, fx = web.Apply(a.state, act)
	}
	a.page = &ui.Page{State: a.state, Dispatch: a.dispatch}

	js.Global().Call("addEventListener", "hashchange", js.FuncOf(func(js.Value, []js.Value) any {
		if act := fragmentAction(); act != nil {
			a.dispatch(act)
		} else {
			a.dispatch(web.OpenFragment{})
		}
		return nil
	}))
	// A file chosen with "Open file…", or dropped anywhere on the page, replaces the input.
	doc.Call("addEventListener", "change", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if t := args[0].Get("target"); t.Get("id").String() == "file-open" && t.Get("files").Length() > 0 {
			a.readFile(t.Get("files").Index(0), nil)
			t.Set("value", "")
		}
		return nil
	}))
	// static/boot.js opens a part of a big file with pgoutputInspectorOpenPart(file, before):
	// before is what the parts before it said (the export worker's decode of them: a
	// Uint8Array, web.Carry.AppendBefore), or null.
	js.Global().Set("pgoutputInspectorOpenPart", js.FuncOf(func(_ js.Value, args []js.Value) any {
		var before []byte
		if args[1].Truthy() {
			before = make([]byte, args[1].Length())
			js.CopyBytesToGo(before, args[1])
		}
		a.readFile(args[0], before)
		return nil
	}))
	// A paste into the text box longer than web.MaxEditText, or any paste into the box while it
	// shows a long input in part (read-only), replaces the input without the browser laying
	// the text out in the box first; one over web.MaxInput is refused without being copied.
	doc.Call("addEventListener", "paste", js.FuncOf(func(_ js.Value, args []js.Value) any {
		e := args[0]
		box, cd := e.Get("target"), e.Get("clipboardData")
		if box.Get("id").String() != "input-text" || !cd.Truthy() {
			return nil
		}
		text := cd.Call("getData", "text/plain")
		switch n := stringLength(text); {
		case n > web.MaxInput:
			e.Call("preventDefault")
			a.dispatch(web.TooLarge{Size: n, AtLeast: true, What: "the pasted text"})
		case n > web.MaxEditText || n > 0 && box.Get("readOnly").Bool():
			e.Call("preventDefault")
			a.dispatch(web.SetText{Text: text.String()})
		}
		return nil
	}), true)
	doc.Call("addEventListener", "dragover", js.FuncOf(func(_ js.Value, args []js.Value) any {
		args[0].Call("preventDefault")
		return nil
	}))
	doc.Call("addEventListener", "drop", js.FuncOf(func(_ js.Value, args []js.Value) any {
		e := args[0]
		e.Call("preventDefault")
		dt := e.Get("dataTransfer")
		if dt.IsNull() || dt.IsUndefined() {
			return nil
		}
		if files := dt.Get("files"); files.Length() > 0 {
			a.readFile(files.Index(0), nil)
		} else if text := dt.Call("getData", "text/plain"); stringLength(text) > web.MaxInput {
			a.dispatch(web.TooLarge{Size: stringLength(text), AtLeast: true, What: "the dropped text"})
		} else if stringLength(text) > 0 {
			a.dispatch(web.SetText{Text: text.String()})
		}
		return nil
	}))
	// Effects of the first state (scrolling) wait until the page exists.
	js.Global().Call("requestAnimationFrame", js.FuncOf(func(js.Value, []js.Value) any {
		a.run(fx)
		// The first decoded example is on screen: mark it, with the time since navigation.
		ds := doc.Get("documentElement").Get("dataset")
		ds.Set("readyMs", js.Global().Get("performance").Call("now"))
		ds.Set("ready", "1")
		return nil
	}))
	vecty.RenderBody(a.page) // never returns
}

// typingPause is how long typing in a long text must pause before the text is read again;
// longText is what counts as long (reading 1 MB takes about half a second).
const (
	typingPause = 250 // milliseconds
	longText    = 64 << 10
)

// dispatch applies an action, draws the new state and does what it asks of the browser. Key
// presses in a long text (the input's, or the comparison's second input) are applied once
// typing pauses.
func (a *app) dispatch(act web.Action) {
	switch t := act.(type) {
	case web.SetText:
		if t.Typing && len(t.Text) > longText {
			a.later(t, typingPause)
			return
		}
	case web.CompareInput:
		if t.Typing && len(t.Text) > longText {
			a.later(t, typingPause)
			return
		}
	}
	if p := a.pending; p != nil {
		// Something else happens first: the text typed so far (or the next chunk) goes in before it.
		a.pending = nil
		js.Global().Call("clearTimeout", a.timer)
		a.apply(p)
	}
	a.apply(act)
}

// later makes act the pending action, applied in ms milliseconds unless another action comes
// first; it replaces the one pending. (clearTimeout ignores a timer that has fired, or none.)
func (a *app) later(act web.Action, ms int) {
	js.Global().Call("clearTimeout", a.timer)
	a.pending = act
	a.timer = js.Global().Call("setTimeout", a.flush, ms)
}

func (a *app) apply(act web.Action) {
	var fx []web.Effect
	a.state, fx = web.Apply(a.state, act)
	a.page.State = a.state
	vecty.Rerender(a.page)
	a.run(fx)
	// A long input is decoded a chunk at a time, one chunk per task, so the page draws and
	// answers between chunks; a new input replaces the Doc, which ends the old one's decoding.
	if d := a.state.Doc; d != nil && !d.Complete() && a.pending == nil {
		a.later(web.DecodeMore{}, 0)
	}
}

func (a *app) run(fx []web.Effect) {
	for _, f := range fx {
		switch f := f.(type) {
		case web.EffectCompress:
			a.transform("CompressionStream", f.Payload, func(b []byte, err string) {
				a.dispatch(web.ShareMade{Compressed: b, Err: err})
			})
		case web.EffectDecompress:
			a.inflate(f.Data, f.Limit)
		case web.EffectSetHash:
			setHash(f.Hash, f.Push)
		case web.EffectCopy:
			a.copy(f)
		case web.EffectDump:
			a.dump(f)
		case web.EffectScroll:
			scroll(f.Panel, f.Top)
		case web.EffectTheme:
			setTheme(f.Theme)
		case web.EffectSelectText:
			selectText(f)
		case web.EffectShowPick:
			// static/boot.js's pgoutputInspectorShowPick: in JavaScript, it costs main.wasm
			// nothing. After the frame drawn above, which may have just made the box.
			js.Global().Call("pgoutputInspectorShowPick", f.Msg, f.Max)
		case web.EffectFetchGuide:
			a.fetchText(web.GuideViewAsset, func(text, err string) { a.dispatch(web.GuideLoaded{View: text, Err: err}) })
		case web.EffectFetchExamples:
			a.fetchText(web.ExamplesAsset, func(text, err string) { a.dispatch(web.ExamplesLoaded{Asset: text, Err: err}) })
		}
	}
}

// transform runs b through a CompressionStream ("deflate-raw") and calls done with the result,
// or with the browser's error.
func (a *app) transform(kind string, b []byte, done func([]byte, string)) {
	ctor := js.Global().Get(kind)
	if ctor.IsUndefined() {
		done(nil, "this browser has no "+kind)
		return
	}
	u8 := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u8, b)
	blob := js.Global().Get("Blob").New(js.Global().Get("Array").Call("of", u8))
	stream := blob.Call("stream").Call("pipeThrough", ctor.New("deflate-raw"))
	then(js.Global().Get("Response").New(stream).Call("arrayBuffer"), func(v js.Value) {
		out := js.Global().Get("Uint8Array").New(v)
		buf := make([]byte, out.Length())
		js.CopyBytesToGo(buf, out)
		done(buf, "")
	}, func(err js.Value) {
		done(nil, err.Call("toString").String())
	})
}

// inflate runs b through a DecompressionStream ("deflate-raw") a chunk at a time, and
// dispatches the result: the payload, the browser's error (damaged data), or TooLarge once
// more than limit bytes came out, when it stops reading and cancels the stream. A link of a
// few hundred kilobytes can inflate to gigabytes.
func (a *app) inflate(b []byte, limit int) {
	ctor := js.Global().Get("DecompressionStream")
	if ctor.IsUndefined() {
		a.dispatch(web.OpenShared{Err: "this browser has no DecompressionStream"})
		return
	}
	u8 := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u8, b)
	blob := js.Global().Get("Blob").New(js.Global().Get("Array").Call("of", u8))
	reader := blob.Call("stream").Call("pipeThrough", ctor.New("deflate-raw")).Call("getReader")
	var out []byte
	var next func()
	next = func() {
		then(reader.Call("read"), func(r js.Value) {
			if r.Get("done").Bool() {
				a.dispatch(web.OpenShared{Payload: out})
				return
			}
			chunk := r.Get("value")
			n := chunk.Length()
			if len(out)+n > limit {
				reader.Call("cancel")
				a.dispatch(web.OpenShared{TooLarge: true})
				return
			}
			out = append(out, make([]byte, n)...)
			js.CopyBytesToGo(out[len(out)-n:], chunk)
			next()
		}, func(err js.Value) {
			a.dispatch(web.OpenShared{Err: err.Call("toString").String()})
		})
	}
	next()
}

// fetchText fetches an asset beside main.wasm (the field guide's view, the examples), which
// the page loads only when first needed, and calls done with its text, or with why it could
// not be had, naming the file.
func (a *app) fetchText(name string, done func(text, err string)) {
	fail := func(err js.Value) { done("", name+": "+err.Call("toString").String()) }
	then(js.Global().Call("fetch", name), func(resp js.Value) {
		if !resp.Get("ok").Bool() {
			// status is a number: Value.Call of its toString would panic (syscall/js calls
			// methods of objects only).
			done("", name+": HTTP "+strconv.Itoa(resp.Get("status").Int()))
			return
		}
		then(resp.Call("text"), func(v js.Value) { done(v.String(), "") }, fail)
	}, fail)
}

// fragmentAction returns the action for the URL fragment: open it, or refuse it unread when it
// is longer than any input the page reads (a hex= link's text is as long as the fragment, a
// z1= link's far shorter). It returns nil for an empty fragment.
func fragmentAction() web.Action {
	h := js.Global().Get("location").Get("hash")
	switch n := stringLength(h); {
	case n == 0:
		return nil
	case n > web.MaxInput:
		return web.TooLarge{Size: n, AtLeast: true, What: "the link"}
	}
	return web.OpenFragment{Fragment: h.String()}
}

// stringLength returns the length of the JavaScript string s in UTF-16 code units, without
// copying it into Go (syscall/js reads properties of objects only: the String wrapper has it).
func stringLength(s js.Value) int {
	return js.Global().Get("Object").New(s).Get("length").Int()
}

// then calls ok with the value of promise p once it is fulfilled, or fail with its reason if
// it is rejected. Not inlined: one copy of the callbacks' wrapping serves every caller.
// size: docs/performance.md, "Size tricks".
//
//go:noinline
func then(p js.Value, ok, fail func(js.Value)) {
	var fs [2]js.Func
	for i, f := range [2]func(js.Value){ok, fail} {
		fs[i] = js.FuncOf(func(_ js.Value, args []js.Value) any {
			fs[0].Release()
			fs[1].Release()
			f(args[0])
			return nil
		})
	}
	p.Call("then", fs[0], fs[1])
}

// readFile reads a file: text as it is (at most web.MaxInput bytes), and a binary file (one
// message, a pg_recvlogical file, a pcap or pcapng capture; at most web.MaxFile bytes) as its
// bytes, with what a client sent as a password or SASL data overwritten (input.RedactCapture),
// so that neither the page nor its links hold them.
func (a *app) readFile(file js.Value, before []byte) {
	name := file.Get("name").String()
	what := "the file " + web.Cut(name, web.MaxRowText)
	if size := file.Get("size").Int(); size > web.MaxFile {
		a.dispatch(web.TooLarge{Size: size, What: what, File: true})
		return
	}
	then(file.Call("arrayBuffer"), func(v js.Value) {
		u8 := js.Global().Get("Uint8Array").New(v)
		b := make([]byte, u8.Length())
		js.CopyBytesToGo(b, u8)
		if !input.IsBinary(b) && len(b) > web.MaxInput {
			a.dispatch(web.TooLarge{Size: len(b), What: what})
			return
		}
		b = input.RedactCapture(b)
		// The bytes are not changed after this: the text is them, not a copy.
		text := unsafe.String(unsafe.SliceData(b), len(b))
		var bf *web.Before
		if before != nil {
			bf = web.ReadBefore(before, text)
		}
		a.dispatch(web.SetText{Text: text, File: true, Name: name, Before: bf})
	}, func(js.Value) {})
}

// copy puts the text on the clipboard (static/boot.js's pgoutputInspectorCopy, in JavaScript,
// which costs main.wasm nothing), and says so.
func (a *app) copy(f web.EffectCopy) {
	then(js.Global().Call("pgoutputInspectorCopy", f.Text), func(js.Value) {
		a.dispatch(web.Copied{What: f.What})
	}, func(err js.Value) {
		// Without a clipboard the Share button's link stays in the address bar.
		a.dispatch(web.Copied{What: f.What, Err: err.Call("toString").String()})
	})
}

// dump has the export worker write a dump, and copies or downloads it (static/boot.js's
// pgoutputInspectorDump: the worker and export.wasm are loaded on the first dump, and the dump
// goes from the worker to the clipboard or a download without passing through main.wasm). The
// promise gives the status, or is rejected with the status of a failure.
func (a *app) dump(f web.EffectDump) {
	j := f.Job
	var text any = j.Text
	if j.Kind == dumpjob.SharePart || input.IsBinaryText(j.Text) {
		// A binary file's bytes go as bytes: a JavaScript string would hold them as UTF-8.
		b := js.Global().Get("Uint8Array").New(len(j.Text))
		js.CopyBytesToJS(b, unsafe.Slice(unsafe.StringData(j.Text), len(j.Text)))
		text = b
	}
	then(js.Global().Call("pgoutputInspectorDump", int(j.Kind), f.Download, text, string(j.Format), j.Proto, int(j.InStream), j.Name, j.Message, j.SenderTimeout, j.StatusInterval), func(v js.Value) {
		a.dispatch(web.Dumped{Status: v.String(), Kind: j.Kind})
	}, func(err js.Value) {
		a.dispatch(web.Dumped{Status: err.String(), Err: true, Kind: j.Kind})
	})
}

// setHash changes the fragment without a hashchange event (the state already shows it).
func setHash(hash string, push bool) {
	loc := js.Global().Get("location")
	if hash == "" && loc.Get("hash").String() == "" {
		return
	}
	url := loc.Get("pathname").String() + loc.Get("search").String() + hash
	h := js.Global().Get("history")
	if push {
		h.Call("pushState", nil, "", url)
	} else {
		h.Call("replaceState", nil, "", url)
	}
}

// selectText selects a character in the text box and scrolls the box to it, after the next
// render (which puts a file's text in the box): browsers do not scroll a text box to a
// selection set by a script. The box does not wrap lines, so Line and Column say where it is.
func selectText(f web.EffectSelectText) {
	var done js.Func
	done = js.FuncOf(func(js.Value, []js.Value) any {
		done.Release()
		el := js.Global().Get("document").Call("getElementById", "input-text")
		if el.IsNull() {
			return nil
		}
		el.Call("focus", map[string]any{"preventScroll": true})
		el.Call("setSelectionRange", f.Start, f.End)
		style := js.Global().Call("getComputedStyle", el)
		lh := js.Global().Call("parseFloat", style.Get("lineHeight")).Float()
		ch := 0.6 * js.Global().Call("parseFloat", style.Get("fontSize")).Float() // a monospace font's advance
		if lh > 0 {
			el.Set("scrollTop", max(0, float64(f.Line-1)*lh-(el.Get("clientHeight").Float()-lh)/2))
		}
		el.Set("scrollLeft", max(0, float64(f.Column-1)*ch-el.Get("clientWidth").Float()/2))
		return nil
	})
	js.Global().Call("requestAnimationFrame", done)
}

func scroll(p web.Panel, top int) {
	var sel string
	switch p {
	case web.PanelList:
		sel = ".msg-list"
	case web.PanelTree:
		sel = ".tree"
	case web.PanelChange:
		sel = ".change-list"
	default:
		return
	}
	if el := js.Global().Get("document").Call("querySelector", sel); !el.IsNull() {
		el.Set("scrollTop", top)
	}
}

const themeKey = "pgoutput-inspector-theme"

func storedTheme() web.Theme {
	ls := js.Global().Get("localStorage")
	if ls.IsUndefined() || ls.IsNull() {
		return web.ThemeSystem
	}
	v := ls.Call("getItem", themeKey)
	if v.IsNull() {
		return web.ThemeSystem
	}
	switch t := web.Theme(v.String()); t {
	case web.ThemeLight, web.ThemeDark:
		return t
	}
	return web.ThemeSystem
}

func setTheme(t web.Theme) {
	root := js.Global().Get("document").Get("documentElement")
	ls := js.Global().Get("localStorage")
	if t == web.ThemeSystem {
		root.Call("removeAttribute", "data-theme")
		if !ls.IsUndefined() && !ls.IsNull() {
			ls.Call("removeItem", themeKey)
		}
		return
	}
	root.Call("setAttribute", "data-theme", string(t))
	if !ls.IsUndefined() && !ls.IsNull() {
		ls.Call("setItem", themeKey, string(t))
	}
}
