//go:build js || wasip1

package decoder

import "time"

var clockStart = time.Now()

// cpuTime is wall time under Node: a WebAssembly program runs on one thread and has no CPU
// clock of its own. Decoders compared in one round share the machine's load alike.
func cpuTime() time.Duration { return time.Since(clockStart) }

// clockName says what cpuTime measures, for the benchmark's log.
const clockName = "wall time (no CPU clock under WebAssembly)"
