// Command rsslaunch runs a command (standard input, output and error passed through) and
// writes "EXITCODE PEAKRSS" (the peak resident set size in bytes) to file descriptor 3.
//
// The tests measure memory through it rather than starting the command themselves: Linux
// counts the memory of the process that starts a command into the command's peak RSS (the
// child shares the parent's memory until it execs), and the test process is large; this one
// is small, so the figure is the command's own, give or take this program's few megabytes.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	report := os.NewFile(3, "report")
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		fmt.Fprintln(os.Stderr, "rsslaunch:", err)
		os.Exit(1)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		fmt.Fprintln(os.Stderr, "rsslaunch: no resource usage on this system")
		os.Exit(1)
	}
	fmt.Fprintf(report, "%d %d\n", cmd.ProcessState.ExitCode(), ru.Maxrss*1024) // Linux: KiB
}
