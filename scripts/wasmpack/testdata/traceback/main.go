// Command traceback exercises what reads the runtime's tables in a GOOS=js module that
// scripts/wasmpack has packed (TestTraceback): it panics inside nested functions and recovers,
// printing runtime.CallersFrames' frames ("frame FUNCTION FILE LINE"), runtime.Caller and
// runtime.FuncForPC's file and line; it grows the stack by deep recursion and makes the garbage
// collector scan it and a large heap; then a goroutine panics unrecovered, and the runtime
// prints its trace and stops the program.
package main

import (
	"fmt"
	"os"
	"runtime"
	"strings"
)

func main() {
	frames := outer()
	for _, f := range frames {
		fmt.Printf("frame %s %s %d\n", f.Function, f.File, f.Line)
	}
	pc, file, line, ok := runtime.Caller(0)
	fmt.Printf("caller %s %s %d %v\n", runtime.FuncForPC(pc).Name(), file, line, ok)
	file, line = runtime.FuncForPC(pc).FileLine(pc)
	fmt.Printf("fileline %s %d\n", file, line)

	fmt.Printf("recursion %d\n", recurse(5000))
	fmt.Printf("heap %d\n", churn())

	done := make(chan struct{})
	go func() {
		unrecovered(3)
		close(done)
	}()
	<-done
	fmt.Println("not reached: the goroutine's panic stops the program")
	os.Exit(0)
}

// outer calls middle, which calls inner, which calls explode (inlined: its frame comes from
// inner's inlining tree), which panics; outer's deferred function recovers and
// returns the frames of the stack it found.
func outer() (frames []runtime.Frame) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Printf("recovered %v\n", r)
			pcs := make([]uintptr, 64)
			n := runtime.Callers(1, pcs)
			fs := runtime.CallersFrames(pcs[:n])
			for {
				f, more := fs.Next()
				if strings.HasPrefix(f.Function, "main.") {
					frames = append(frames, f)
				}
				if !more {
					break
				}
			}
		}
	}()
	middle(1)
	return nil
}

//go:noinline
func middle(n int) int { return inner(n) + 1 }

//go:noinline
func inner(n int) int { return explode(n) * 2 }

func explode(n int) int {
	if n > 0 {
		panic("explode panics")
	}
	return n
}

// recurse goes depth calls deep, with a frame big enough that the goroutine's stack grows many
// times, and runs the garbage collector at the bottom, which scans every frame.
//
//go:noinline
func recurse(depth int) int {
	var pad [128]int
	pad[depth%128] = depth
	if depth == 0 {
		runtime.GC()
		return 0
	}
	return recurse(depth-1) + pad[depth%128] - depth + 1
}

// churn allocates lists of pointers while the garbage collector runs and checks that what is
// still reachable is intact.
func churn() int {
	type node struct {
		next *node
		val  int
		buf  []byte
	}
	var keep []*node
	sum := 0
	for round := range 200 {
		var head *node
		for i := range 1000 {
			head = &node{next: head, val: i, buf: make([]byte, 64)}
		}
		if round%10 == 0 {
			keep = append(keep, head)
			runtime.GC()
		}
	}
	for _, h := range keep {
		for n := h; n != nil; n = n.next {
			sum += n.val
		}
	}
	return sum
}

//go:noinline
func unrecovered(n int) {
	if n == 0 {
		panic("unrecovered panic")
	}
	unrecovered(n - 1)
}
