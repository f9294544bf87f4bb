package ui

import (
	"strconv"
	"strings"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/event"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/web"
)

// editHints say what text a value is entered as (decoder.EditHow), under its box.
var editHints = [...]string{
	decoder.EditNumber: "A whole number.",
	decoder.EditLSN:    "An LSN, such as 16/B374D848.",
	decoder.EditTime:   "A time such as 2024-05-06T07:08:09.123456Z, infinity, -infinity, or microseconds since 2000-01-01.",
	decoder.EditMarker: "One character, or 0x and two hex digits.",
	decoder.EditText:   `The text; bytes that are not UTF-8 as \x and hex digits.`,
	decoder.EditHex:    `Bytes in hex, such as \x0a1b.`,
}

// editor is the edit controls of the selected node, at the top of the description panel: adding
// and removing the column or relation OID it is in (editItems), its value (a box; a marker's
// codes are in the description under it), why the last edit was refused, and undoing edits.
func editor(v *web.EditView, dispatch Dispatch) vecty.ComponentOrHTML {
	if v == nil || v.Node < 0 && v.Edits == 0 {
		return nil
	}
	var items []vecty.MarkupOrChild
	if t := v.Tree; t != nil && v.Node >= 0 {
		items = append(items, tag("h3", nil, text("Edit "+web.LabelText(t, int(v.Node), web.MaxDescriptionText))), editItems(v, dispatch))
		if v.How != decoder.EditNone {
			items = append(items, tag("label", []string{"for", "edit-value"}, text("Value")),
				tag("input", []string{"id", "edit-value", "name", "edit-value", "type", "text", "autocomplete", "off",
					"spellcheck", "false", "aria-describedby", "edit-hint"}, markup(prop("value", v.Text))),
				tag("button", []string{"type", "submit", "class", "edit-set"}, text("Set")),
				tag("p", []string{"class", "muted edit-hint", "id", "edit-hint"}, text(editHints[v.How])))
		}
	}
	if v.Err != "" {
		items = append(items, tag("p", []string{"class", "error-box edit-error", "role", "alert"},
			text(web.Cut("Not edited: "+v.Err, web.MaxDescriptionText))))
	}
	if v.Edits > 0 {
		n := " edits made. "
		if v.Edits == 1 {
			n = " edit made. "
		}
		items = append(items, tag("p", []string{"class", "edit-undo"}, text(strconv.Itoa(v.Edits)+n),
			editButton("edit-undo-last", "Undo", "Go back to the input before the last edit", dispatch, web.Edit{Op: web.EditUndo}),
			editButton("edit-original", "Original", "Go back to the input before the first edit", dispatch, web.Edit{Op: web.EditOriginal})))
	}
	return tag("form", []string{"class", "editor", "aria-label", "edit the selected field"}, append(items,
		markup(event.Submit(func(e *vecty.Event) {
			e.Value.Call("preventDefault")
			dispatch(web.Edit{Node: v.Node, Text: e.Target.Get("elements").Get("edit-value").Get("value").String()})
		})))...)
}

// editItems is the buttons that add and remove the item of a counted list (decoder.Draft.AddItem,
// RemoveItem) the node is or lies in (a column, a relation OID), or, for the list's group or
// count, that add one at the end; and what they do.
func editItems(v *web.EditView, dispatch Dispatch) vecty.MarkupOrChild {
	if !v.CanAdd {
		return nil
	}
	add, remove := "Add at the end", vecty.MarkupOrChild(nil)
	hint := " Add: a copy of the last one; in an empty list, an empty one (a null column, relation OID 0). The count and lengths follow."
	if v.Item >= 0 {
		add, remove = "Add after", editButton("edit-remove", "Remove", "", dispatch, web.Edit{Op: web.EditRemove, Node: v.Node})
		hint = " Add: a copy of " + web.LabelText(v.Tree, int(v.Item), web.MaxDescriptionText) + ", after it. Remove takes it out. The count and lengths follow."
	}
	return tag("p", []string{"class", "edit-items"}, button("edit-add", add, "", dispatch, web.Edit{Op: web.EditAdd, Node: v.Node}),
		remove, text(hint))
}

// editButton is button for an edit. A button can go with what it acted on (Remove with its
// column, Undo and Original with the last edit undone), and the focus with it: then the tree
// takes the focus, its active row the node the edit selected (docs/page.md, Editing).
//
//go:noinline
func editButton(cls, label, title string, d Dispatch, act web.Action) *vecty.HTML {
	return button(cls, label, title, func(a web.Action) { d(a); keepFocus() }, act)
}

// tag is element name with attributes attrs (name, value, name, value…; "class" takes classes
// separated by spaces) and kids: one call instead of one per attribute, which keeps the page's
// WASM smaller.
// size: docs/performance.md, "Size tricks".
//
//go:noinline
func tag(name string, attrs []string, kids ...vecty.MarkupOrChild) *vecty.HTML {
	m := make([]vecty.Applyer, 0, len(attrs)/2)
	for i := 0; i+1 < len(attrs); i += 2 {
		if attrs[i] == "class" {
			m = append(m, vecty.Class(strings.Fields(attrs[i+1])...))
		} else {
			m = append(m, vecty.Attribute(attrs[i], attrs[i+1]))
		}
	}
	return vecty.Tag(name, append([]vecty.MarkupOrChild{vecty.Markup(m...)}, kids...)...)
}
