//go:build !js && !wasip1

package decoder

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used (user and system, every thread: the garbage
// collector's work counts against the decoder that made the garbage). Benchmarks that compare
// decoders take it around each decoder's share of a round, so time the machine gave to other
// processes is not counted.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// clockName says what cpuTime measures, for the benchmark's log.
const clockName = "process CPU time (getrusage)"
