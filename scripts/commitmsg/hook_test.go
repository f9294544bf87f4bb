// Package commitmsg holds the repository's commit-msg hook (commit-msg beside this file), which
// ./build.sh test installs; the test runs it on messages it must take and refuse.
package commitmsg

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestCommitMsgHook(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	long := strings.Repeat("x", 73)
	for _, c := range []struct {
		msg string
		ok  bool
	}{
		{"input: read psql's base64 in COPY\n", true},
		{strings.Repeat("é", 72) + "\n\nA body line that is longer than the subject may be, as long as it likes.\n", true},
		{long + "\n", false},
		{"subject\nbody without a blank line\n", false},
		{"# a comment git strips\n" + long[:72] + "\n", true},
		{"Merge branch 'x' of a repository whose name makes the subject longer than 72\n", true},
	} {
		f := filepath.Join(t.TempDir(), "MSG")
		if err := os.WriteFile(f, []byte(c.msg), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("bash", "commit-msg", f).CombinedOutput()
		if (err == nil) != c.ok {
			t.Errorf("%q: accepted %v, want %v (%s)", c.msg, err == nil, c.ok, out)
		}
	}
}
