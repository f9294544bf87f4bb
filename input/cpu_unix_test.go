//go:build unix

package input

import "syscall"

// processCPU is the user and system CPU time the process has used, in nanoseconds.
func processCPU() int64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return u.Utime.Nano() + u.Stime.Nano()
}
