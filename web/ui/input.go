package ui

import (
	"strconv"
	"strings"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
	"pgoutput-inspector/web"
)

// InputPanel is the text box, the file button and the decoding options.
type InputPanel struct {
	vecty.Core
	Text     string         `vecty:"prop"`
	Force    input.Format   `vecty:"prop"`
	Proto    int            `vecty:"prop"`
	InStream decoder.Choice `vecty:"prop"`
	Doc      *web.Doc       `vecty:"prop"`
	Msg      int            `vecty:"prop"`
	InputErr *input.Error   `vecty:"prop"`
	LinkErr  string         `vecty:"prop"`
	Dispatch Dispatch       `vecty:"prop"`
}

// SkipRender implements vecty.RenderSkipper.
func (p *InputPanel) SkipRender(prev vecty.Component) bool {
	o, ok := prev.(*InputPanel)
	return ok && o.Text == p.Text && o.Force == p.Force && o.Proto == p.Proto && o.InStream == p.InStream &&
		o.Doc == p.Doc && o.Msg == p.Msg && o.InputErr == p.InputErr && o.LinkErr == p.LinkErr
}

// Render implements vecty.Component.
func (p *InputPanel) Render() vecty.ComponentOrHTML {
	var tree *decoder.Tree
	if p.Doc != nil && p.Msg >= 0 && p.Msg < len(p.Doc.Trees) {
		tree = p.Doc.Trees[p.Msg]
	}
	return elem.Section(vecty.Markup(vecty.Class("panel", "input-panel"), vecty.Attribute("aria-label", "input")),
		elem.TextArea(vecty.Markup(
			vecty.Class("input-text"),
			vecty.Attribute("id", "input-text"),
			vecty.Attribute("rows", "4"),
			vecty.Attribute("spellcheck", "false"),
			vecty.Attribute("autocomplete", "off"),
			vecty.Attribute("aria-label", "bytes to decode"),
			vecty.Attribute("placeholder", "Paste pgoutput bytes: hex, base64, a capture file, psql output, xxd / hexdump / od dumps, Go, Python, Elixir, C or JSON byte literals… or drop a file here."),
			vecty.Property("value", p.Text),
			event.Input(func(e *vecty.Event) {
				kind := e.Value.Get("inputType").String()
				typing := kind == "insertText" || kind == "insertLineBreak" || strings.HasPrefix(kind, "delete")
				p.Dispatch(web.SetText{Text: e.Target.Get("value").String(), Typing: typing})
			}),
		)),
		elem.Div(vecty.Markup(vecty.Class("controls")),
			p.formatControl(),
			p.protoControl(),
			p.streamControl(tree),
			elem.Label(vecty.Markup(vecty.Class("file-open"), vecty.Attribute("title", "Open a file (or drop one on the page)")),
				vecty.Text("Open file…"),
				elem.Input(vecty.Markup(vecty.Attribute("type", "file"), vecty.Attribute("id", "file-open"),
					vecty.Class("visually-hidden"))),
			),
			elem.Span(vecty.Markup(vecty.Class("input-status", "muted"), vecty.Attribute("role", "status")),
				vecty.Text(p.status())),
		),
		notes(tree),
		vecty.If(p.InputErr != nil, elem.Paragraph(vecty.Markup(vecty.Class("error-box", "input-error"), vecty.Attribute("role", "alert")),
			vecty.Text(inputErrorText(p.InputErr)))),
		vecty.If(p.LinkErr != "", elem.Paragraph(vecty.Markup(vecty.Class("error-box", "link-error"), vecty.Attribute("role", "alert")),
			vecty.Text(p.LinkErr))),
	)
}

// notes are the sentences to read with the chosen message: how an ambiguous message was read,
// a Relation message missing from the input.
func notes(t *decoder.Tree) vecty.MarkupOrChild {
	if t == nil {
		return nil
	}
	ns := t.Notes()
	if len(ns) == 0 {
		return nil
	}
	items := make([]vecty.MarkupOrChild, 0, len(ns)+1)
	items = append(items, vecty.Markup(vecty.Class("reading-note")))
	for _, n := range ns {
		items = append(items, elem.Paragraph(vecty.Text(n)))
	}
	return elem.Div(items...)
}

func inputErrorText(e *input.Error) string {
	if e == nil {
		return ""
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
	s := plural(len(p.Doc.Messages), "message", "messages")
	if p.Doc.Errors > 0 {
		s += ", " + plural(p.Doc.Errors, "with an error", "with errors")
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
		vecty.Markup(vecty.Class("format"), vecty.Attribute("id", "format"),
			event.Change(func(e *vecty.Event) {
				p.Dispatch(web.SetForce{Format: input.Format(e.Target.Get("value").String())})
			})),
		elem.Option(vecty.Markup(vecty.Property("value", ""), vecty.Property("selected", p.Force == input.Auto)), vecty.Text(auto)),
	}
	for _, f := range input.Formats() {
		opts = append(opts, elem.Option(vecty.Markup(vecty.Property("value", string(f)),
			vecty.Property("selected", p.Force == f)), vecty.Text(string(f))))
	}
	return elem.Label(vecty.Text("Format "), elem.Select(opts...))
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
		vecty.Markup(vecty.Class("proto"), vecty.Attribute("id", "proto"),
			event.Change(func(e *vecty.Event) {
				n, _ := strconv.Atoi(e.Target.Get("value").String())
				p.Dispatch(web.SetProto{Proto: n})
			})),
		elem.Option(vecty.Markup(vecty.Property("value", "0"), vecty.Property("selected", p.Proto == 0)), vecty.Text(auto)),
	}
	for v := 1; v <= 4; v++ {
		opts = append(opts, elem.Option(vecty.Markup(vecty.Property("value", strconv.Itoa(v)),
			vecty.Property("selected", p.Proto == v)), vecty.Text(strconv.Itoa(v))))
	}
	return elem.Label(vecty.Markup(vecty.Attribute("title", "pgoutput proto_version")), vecty.Text("Protocol "), elem.Select(opts...))
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
	choice := func(c decoder.Choice, text string) *vecty.HTML {
		return elem.Option(vecty.Markup(vecty.Property("value", strconv.Itoa(int(c))),
			vecty.Property("selected", p.InStream == c)), vecty.Text(text))
	}
	return elem.Label(vecty.Markup(vecty.Attribute("title", "Whether the first message is inside Stream Start … Stream Stop (its changes then carry an Xid)")),
		vecty.Text("In streamed transaction "),
		elem.Select(vecty.Markup(vecty.Class("instream"), vecty.Attribute("id", "instream"),
			event.Change(func(e *vecty.Event) {
				n, _ := strconv.Atoi(e.Target.Get("value").String())
				p.Dispatch(web.SetInStream{Choice: decoder.Choice(n)})
			})),
			choice(decoder.Auto, auto), choice(decoder.Yes, "yes"), choice(decoder.No, "no")))
}
