//go:build js

package decoder

import (
	"syscall/js"
	"time"
)

// cpuTime is the CPU time the Node process has used (process.cpuUsage: user and system, every
// thread, as getrusage natively), so time the machine gave to other processes is not counted.
// The tests run under Node only.
func cpuTime() time.Duration {
	u := js.Global().Get("process").Call("cpuUsage")
	return time.Duration(u.Get("user").Int()+u.Get("system").Int()) * time.Microsecond
}

// clockName says what cpuTime measures, for the benchmark's log.
const clockName = "Node's process CPU time (process.cpuUsage)"
