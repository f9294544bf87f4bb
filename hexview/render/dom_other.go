//go:build !js

package render

// domWatch does nothing outside the browser, where the View is only compiled.
type domWatch struct{}

func (*domWatch) start(*View) {}

func (*domWatch) stop() {}
