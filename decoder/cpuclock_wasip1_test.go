//go:build wasip1

package decoder

import "time"

var clockStart = time.Now()

// cpuTime is wall time under WASI, which has no CPU clock.
func cpuTime() time.Duration { return time.Since(clockStart) }

// clockName says what cpuTime measures, for the benchmark's log.
const clockName = "wall time (no CPU clock under WASI)"
