//go:build !js

package ui

// sizeWatch does nothing outside the browser, where the components are only compiled.
type sizeWatch struct{}

func (*sizeWatch) start(any, any, func(int) bool) {}

func (*sizeWatch) rows(n int) int { return n }

func (*sizeWatch) bare() bool { return false }

func (*sizeWatch) stop() {}
