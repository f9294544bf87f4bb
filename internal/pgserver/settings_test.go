package pgserver

import (
	"strings"
	"testing"
)

// TestSettingsFor: a release gets no setting it does not know (it would refuse to start).
func TestSettingsFor(t *testing.T) {
	for _, c := range []struct {
		version string
		workMem bool
	}{{"10", false}, {"12", false}, {"13", true}, {"18", true}, {Debian15, true}} {
		got := strings.Join(settingsFor(c.version), "\n")
		if strings.Contains(got, "logical_decoding_work_mem") != c.workMem || !strings.Contains(got, "wal_level = logical") {
			t.Errorf("%s: settings %q", c.version, got)
		}
	}
}
