package input

import (
	"strings"
	"testing"
)

// TestHoldout is the evaluation on outputs the readers were not written from: the same tools
// as testdata/input, over another server's stream, other data, options and seeds
// (testdata/input/holdout, made by scripts/inputcorpus -set holdout). At least 95 % must
// decode to exactly the real messages with no error; every other one must fail with an error
// that names its cause (a format, a line and column, what was expected and found).
func TestHoldout(t *testing.T) {
	cases := loadCorpus(t, "../testdata/input/holdout")
	if len(cases) == 0 {
		t.Fatal("no held-out cases in ../testdata/input/holdout")
	}
	exact := 0
	for _, c := range cases {
		problem, r, err := checkCase(c)
		if problem == "" {
			exact++
			continue
		}
		t.Logf("%s: %s", c.name, problem)
		// A failure must name its cause: a wrong reading that reports no error does not.
		e, ok := err.(*Error)
		if !ok || e.Line < 1 || e.Column < 1 || e.Format == Auto || !strings.Contains(e.Error(), "line ") {
			format := Format("")
			if r != nil {
				format = r.Format
			}
			t.Errorf("%s: read as %q without an error that names the cause (%v)", c.name, format, err)
		}
	}
	rate := float64(exact) / float64(len(cases))
	t.Logf("held-out: %d of %d exact (%.1f %%)", exact, len(cases), 100*rate)
	if rate < 0.95 {
		t.Errorf("held-out: %d of %d exact (%.1f %%), want at least 95 %%", exact, len(cases), 100*rate)
	}
}
