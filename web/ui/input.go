package ui

import (
	"strconv"
	"strings"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/guide"
	"pgoutput-inspector/web"
)

// InputPanel is the text box, the file button and the decoding options.
type InputPanel struct {
	vecty.Core
	Text     string         `vecty:"prop"`
	File     string         `vecty:"prop"` // the name of the file Text was opened from
	Force    input.Format   `vecty:"prop"`
	Proto    int            `vecty:"prop"`
	InStream decoder.Choice `vecty:"prop"`
	Doc      *web.Doc       `vecty:"prop"`
	Msg      int            `vecty:"prop"`
	InputErr *input.Error   `vecty:"prop"`
	Stale    bool           `vecty:"prop"`
	LinkErr  string         `vecty:"prop"`
	Refused  web.Refusal    `vecty:"prop"`
	Lens     guide.Lens     `vecty:"prop"`
	// Consumer says the Consumer panel is shown: a capture of replication connections has
	// its toggle among the connections' notes.
	Consumer bool     `vecty:"prop"`
	Dispatch Dispatch `vecty:"prop"`
}

// SkipRender implements vecty.RenderSkipper.
func (p *InputPanel) SkipRender(prev vecty.Component) bool {
	o, ok := prev.(*InputPanel)
	return ok && o.Text == p.Text && o.File == p.File && o.Force == p.Force && o.Proto == p.Proto && o.InStream == p.InStream &&
		o.Doc == p.Doc && o.Msg == p.Msg && o.InputErr == p.InputErr && o.Stale == p.Stale && o.LinkErr == p.LinkErr &&
		o.Refused == p.Refused && o.Lens == p.Lens && o.Consumer == p.Consumer
}

// Render implements vecty.Component.
func (p *InputPanel) Render() vecty.ComponentOrHTML {
	var tree *decoder.Tree
	if p.Doc != nil && p.Msg >= 0 && p.Msg < len(p.Doc.Trees) {
		tree = p.Doc.Trees[p.Msg]
	}
	return section(markup(class("panel", "input-panel"), attr("aria-label", "input")),
		&TextBox{Text: p.Text, Name: p.File, Refusals: p.Refused.N, Dispatch: p.Dispatch},
		div(markup(class("controls")),
			p.formatControl(),
			p.protoControl(),
			p.streamControl(tree),
			&LensControl{Lens: p.Lens, Dispatch: p.Dispatch},
			label(markup(class("file-open"), attr("title", "Open a file (or drop one on the page)")),
				text("Open file…"),
				elem.Input(markup(attr("type", "file"), attr("id", "file-open"),
					class("visually-hidden"))),
			),
			span(markup(class("input-status", "muted"), attr("role", "status")),
				text(p.status())),
		),
		// Errors and notes about the input, in a region of fixed height that scrolls.
		div(markup(class("input-msgs")),
			vecty.If(p.InputErr != nil, paragraph(markup(class("error-box", "input-error"), attr("role", "alert"),
				attr("title", "Select the character in the text box"),
				actionable(func() { p.Dispatch(web.SelectBadText{}) })),
				text(inputErrorText(p.InputErr, p.Stale)))),
			vecty.If(p.LinkErr != "", alertBox("link-error", p.LinkErr)),
			vecty.If(p.Refused.Msg != "", alertBox("input-refused", p.Refused.Msg)),
			inputNotes(p.Doc, p.Dispatch),
			connectionNotes(p.Doc, p.Consumer, p.Dispatch),
		),
	)
}

// connectionNotes says what each connection of a packet capture was, how it was captured,
// the replication commands it sent and how it went, each with a button that filters the
// message list to its messages; when one replicated (or may have: a big file's part going on
// from the parts before), the Consumer panel's toggle comes first.
func connectionNotes(d *web.Doc, consumer bool, dispatch Dispatch) vecty.MarkupOrChild {
	if d == nil || len(d.Connections) == 0 {
		return nil
	}
	items := []vecty.MarkupOrChild{markup(class("conn-notes"))}
	// A big file's part going on from the parts before may not hold the replication's start:
	// its Consumer panel checks the whole file (static/boot.js).
	replicated := d.GoesOn()
	for k := range d.Conversations {
		replicated = replicated || d.Conversations[k].Replication != nil
	}
	if replicated {
		items = append(items, div(markup(class("conn-consumer")), text("Replication: "),
			panelToggle("consumer-toggle", "Consumer", "Each consumer's lags, keepalive replies and anomalies",
				consumer, true, web.ShowConsumer{On: !consumer}, dispatch)))
	}
	for k := range d.Connections {
		n := strconv.Itoa(k + 1)
		s := "Connection " + n + ": " + d.Connections[k].Describe()
		if k < len(d.Conversations) {
			ci := &d.Conversations[k]
			s += ". " + ci.Summary()
			for _, rc := range ci.Commands {
				s += "; " + rc.String()
			}
			if o := ci.Outcome(); o != "" {
				s += ". " + o
			}
		}
		items = append(items, paragraph(text(pgvalue.SafeText(s)+" "),
			button("conn-filter", "conn:"+n, "Show only the messages of connection "+n, dispatch, web.SetFilter{Query: "conn:" + n})))
	}
	return div(items...)
}

// TextBox is the input text area. It is a component of its own so that it draws only when the
// text changes: vecty reads a textarea's value back from the DOM on every render to compare
// it, which for 1 MB of text took longer than decoding a chunk of it (web.DecodeMore). A text
// longer than web.MaxEditText is shown in part (web.TextPreview), read-only: the browser lays
// a textarea out at about half a second per megabyte. (The page's glue takes a paste of more
// than that as the new input without going through the box.)
//
// Text the box sent up itself is not drawn back into it: while a long text is being typed the
// store reads it after a pause, and drawing the text of the last pause would erase the keys
// typed since.
type TextBox struct {
	vecty.Core
	Text string `vecty:"prop"`
	// Name is the name of the file Text was opened from: a binary file's shows (FileView).
	Name string `vecty:"prop"`
	// Refusals counts the inputs refused as too large: each draws the box again, which puts
	// back the text kept in place of the one refused.
	Refusals int      `vecty:"prop"`
	Dispatch Dispatch `vecty:"prop"`

	// sent are the texts this box sent up since it last drew, oldest first: the store may
	// show any of them while the box holds the last (the store reads a long text after a
	// pause in typing, and a key may come between the store's change and the next frame).
	sent []string
}

// SkipRender implements vecty.RenderSkipper.
func (p *TextBox) SkipRender(prev vecty.Component) bool {
	o, ok := prev.(*TextBox)
	if !ok || o.Refusals != p.Refusals || o.Name != p.Name {
		return false
	}
	if o.Text == p.Text {
		return true
	}
	for i, t := range p.sent {
		if t == p.Text {
			p.sent = p.sent[i:] // older texts will not come back
			return true
		}
	}
	return false
}

// Render implements vecty.Component.
func (p *TextBox) Render() vecty.ComponentOrHTML {
	p.sent = nil // the box now holds Text
	long := len(p.Text) > web.MaxEditText
	value := p.Text
	if input.IsBinaryText(p.Text) {
		long, value = true, web.FileView(p.Text, p.Name)
	} else if long {
		value = web.TextPreview(p.Text)
	}
	return elem.TextArea(markup(
		class("input-text"),
		attr("id", "input-text"),
		attr("rows", "4"),
		// One line of text is one line on screen, so that an error's line and column are
		// where they look (and the box can scroll to them).
		attr("wrap", "off"),
		attr("spellcheck", "false"),
		attr("autocomplete", "off"),
		attr("aria-label", "bytes to decode"),
		attr("placeholder", "Paste pgoutput bytes: hex, base64, a capture file, psql output, xxd / hexdump / od dumps, Go, Python, Elixir, C or JSON byte literals… or drop a file here."),
		prop("readOnly", long),
		prop("value", value),
		event.Input(func(e *vecty.Event) {
			if n := e.Target.Get("textLength").Int(); n > web.MaxInput {
				// Too large even in UTF-16 code units, each at least a byte of UTF-8: not copied.
				p.Dispatch(web.TooLarge{Size: n, AtLeast: true, What: "the text in the box"})
				return
			}
			text := e.Target.Get("value").String()
			p.sent = append(p.sent, text)
			p.Dispatch(web.SetText{Text: text, Typing: typing(e)})
		}),
	))
}

// typing reports whether a key typed the text of input event e (not a paste, a drop or an
// undo): the page's glue reads a long text once typing pauses.
func typing(e *vecty.Event) bool {
	kind := e.Value.Get("inputType").String()
	return kind == "insertText" || kind == "insertLineBreak" || strings.HasPrefix(kind, "delete")
}

// inputNotes are the input reader's sentences about the whole text and its other readings:
// a footer that does not match, a value cut short, indentation taken off.
func inputNotes(d *web.Doc, dispatch Dispatch) vecty.MarkupOrChild {
	if d == nil || len(d.InputNotes)+len(d.Also) == 0 {
		return nil
	}
	items := make([]vecty.MarkupOrChild, 0, len(d.InputNotes)+len(d.Also)+1)
	items = append(items, markup(class("reading-note", "input-note")))
	for _, n := range d.InputNotes {
		s := n.Text
		if n.Message >= 0 {
			s = "Message " + strconv.Itoa(n.Message+1) + ": " + s
		}
		items = append(items, paragraph(text(s)))
	}
	for _, a := range d.Also {
		items = append(items, paragraph(text("Also possible: "+string(a.Format)+", "+
			countOf(a.Messages, "message", "messages")+": "+a.Note+" "),
			button("also-switch", "Read as "+string(a.Format), "Read the text as "+string(a.Format)+" instead (the format menu goes back to detecting)",
				dispatch, web.SetForce{Format: a.Format})))
	}
	return div(items...)
}

// alertBox is an error's paragraph (an alert), of class cls.
//
//go:noinline
func alertBox(cls, msg string) *vecty.HTML {
	return paragraph(markup(class("error-box", cls), attr("role", "alert")), text(msg))
}

func inputErrorText(e *input.Error, stale bool) string {
	if e == nil {
		return ""
	}
	if stale {
		return "The text cannot be read as it is now; the page shows the last decode that could be read. " + e.Error()
	}
	return "The text could not be read: " + e.Error()
}

func (p *InputPanel) status() string {
	if p.Doc == nil {
		if p.Text == "" {
			return "No input"
		}
		return ""
	}
	if !p.Doc.Complete() {
		// A long input is decoded in the background (web.DecodeMore).
		return "decoding… " + strconv.Itoa(len(p.Doc.Trees)) + " of " + countOf(len(p.Doc.Messages), "message", "messages")
	}
	s := countOf(len(p.Doc.Messages), "message", "messages")
	if p.Doc.Errors > 0 {
		s += ", " + countOf(p.Doc.Errors, "with an error", "with errors")
	}
	return s
}

// formatControl is the format menu; "detect" shows the format found.
func (p *InputPanel) formatControl() vecty.ComponentOrHTML {
	auto := "detect"
	if p.Force == input.Auto && p.Doc != nil {
		auto = "detect (found: " + string(p.Doc.Format) + ")"
	}
	opts := []vecty.MarkupOrChild{
		markup(class("format"), attr("id", "format"),
			onChange(func(e *vecty.Event) {
				p.Dispatch(web.SetForce{Format: input.Format(e.Target.Get("value").String())})
			})),
		option(markup(prop("value", ""), prop("selected", p.Force == input.Auto)), text(auto)),
	}
	for _, f := range input.Formats() {
		opts = append(opts, option(markup(prop("value", string(f)),
			prop("selected", p.Force == f)), text(string(f))))
	}
	return label(text("Format "), selectBox(opts...))
}

// protoControl is the protocol version menu; "infer" shows the version inferred.
func (p *InputPanel) protoControl() vecty.ComponentOrHTML {
	auto := "infer"
	if p.Proto == 0 && p.Doc != nil {
		if p.Doc.HeaderProto > 0 {
			auto = "from capture (" + strconv.Itoa(p.Doc.HeaderProto) + ")"
		} else if p.Doc.Proto > 0 {
			auto = "infer (at least " + strconv.Itoa(p.Doc.Proto) + ")"
		} else {
			auto = "infer (not known)"
		}
	}
	opts := []vecty.MarkupOrChild{
		markup(class("proto"), attr("id", "proto"),
			onChange(func(e *vecty.Event) {
				n, _ := input.Atoi(e.Target.Get("value").String())
				p.Dispatch(web.SetProto{Proto: n})
			})),
		option(markup(prop("value", "0"), prop("selected", p.Proto == 0)), text(auto)),
	}
	for v := decoder.MinProto; v <= decoder.MaxProto; v++ {
		opts = append(opts, option(markup(prop("value", strconv.Itoa(v)),
			prop("selected", p.Proto == v)), text(strconv.Itoa(v))))
	}
	return label(markup(attr("title", "pgoutput proto_version")), text("Protocol "), selectBox(opts...))
}

// streamControl is the "inside a streamed transaction" menu; "decide" shows how the chosen
// message was read.
func (p *InputPanel) streamControl(t *decoder.Tree) vecty.ComponentOrHTML {
	auto := "decide"
	if p.InStream == decoder.Auto && t != nil {
		if t.Reading.InStream {
			auto = "decide (read: inside)"
		} else {
			auto = "decide (read: outside)"
		}
	}
	choice := func(c decoder.Choice, name string) *vecty.HTML {
		return option(markup(prop("value", strconv.Itoa(int(c))),
			prop("selected", p.InStream == c)), text(name))
	}
	return label(markup(attr("title", "Whether the first message is inside Stream Start … Stream Stop (its changes then carry an Xid)")),
		text("In streamed transaction "),
		selectBox(markup(class("instream"), attr("id", "instream"),
			onChange(func(e *vecty.Event) {
				n, _ := input.Atoi(e.Target.Get("value").String())
				p.Dispatch(web.SetInStream{Choice: decoder.Choice(n)})
			})),
			choice(decoder.Auto, auto), choice(decoder.Yes, "yes"), choice(decoder.No, "no")))
}
