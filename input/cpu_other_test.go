//go:build !unix

package input

// processCPU is 0 where the process's CPU time cannot be read (GOOS=js).
func processCPU() int64 { return 0 }
