package web

import (
	"os"
	"sync"
)

// allExamples is the examples menu with every capture, read once from the examples asset.
var allExamples = sync.OnceValues(func() ([]Example, error) {
	asset, err := os.ReadFile("../static/" + ExamplesAsset)
	if err != nil {
		return nil, err
	}
	return ReadExamples(string(asset))
})

// AllExamples returns the examples menu with every example's capture, read from the examples
// asset (static/examples.txt) as the page reads what it fetches. For tests (package web_test
// too); it panics when the asset does not read.
func AllExamples() []Example {
	exs, err := allExamples()
	if err != nil {
		panic(err)
	}
	return exs
}

// StateOfExample returns the state of a page showing example ex, the examples asset read as
// if fetched (ExamplesLoaded).
func StateOfExample(ex int) State {
	asset, err := os.ReadFile("../static/" + ExamplesAsset)
	if err != nil {
		panic(err)
	}
	s, _ := Apply(NewState(-1), ExamplesLoaded{Asset: string(asset)})
	s, _ = Apply(s, LoadExample{Index: ex})
	return s
}
