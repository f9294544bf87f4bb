//go:build !js

package render

// sizeWatch does nothing outside the browser, where the View is only compiled.
type sizeWatch struct{}

func (*sizeWatch) start(*View) {}

func (*sizeWatch) stop() {}
