//go:build !js

package ui

// sizeWatch does nothing outside the browser, where the components are only compiled.
type sizeWatch struct{}

func (*sizeWatch) start(any, func(int)) {}

func (*sizeWatch) stop() {}
