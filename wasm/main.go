// Command wasm is the inspector page's program for the browser (GOOS=js GOARCH=wasm). This
// first version only renders the page frame; static/boot.js starts it.
package main

import (
	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
)

// page is the whole page.
type page struct {
	vecty.Core
}

// Render draws the page frame.
func (p *page) Render() vecty.ComponentOrHTML {
	return elem.Body(
		elem.Div(vecty.Markup(vecty.Class("app")),
			elem.Header(vecty.Markup(vecty.Class("app-header")),
				elem.Heading1(vecty.Text("pgoutput inspector")),
			),
			elem.Main(vecty.Markup(vecty.Class("app-main")),
				elem.Section(vecty.Markup(vecty.Class("panel", "wide")),
					elem.Paragraph(vecty.Text("Decodes PostgreSQL logical replication (pgoutput) messages byte by byte.")),
				),
			),
		),
	)
}

func main() {
	vecty.SetTitle("pgoutput inspector")
	vecty.RenderBody(&page{}) // never returns
}
