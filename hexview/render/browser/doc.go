// Package browser tests the hex view in headless Chromium: a page built from testdata/page
// (the View over 1 MB of pgoutput-shaped bytes) is served locally and driven through
// chromedp. It measures what the DOM holds after the first render and how long a scroll takes
// to redraw, and checks hover, click, keyboard and scrolling a selection into view.
//
// The tests live apart from package render because vecty stops any native program that links
// it; this package only builds the page (GOOS=js) and talks to the browser.
package browser
