// Command inspector-server serves the pgoutput inspector page from a directory (static/ by
// default) on localhost, with application/wasm, brotli or gzip and a strict Content-Security-Policy; see
// package inspectorserver. ./build.sh serve builds main.wasm and runs it.
//
// Usage:
//
//	inspector-server [-addr localhost:8080] [-dir static]
//
// The PORT environment variable, when set, changes the default port.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"pgoutput-inspector/internal/inspectorserver"
	"pgoutput-inspector/internal/precompress"
)

func main() {
	port := os.Getenv("PORT")
	if port == "" {
		port = "8080"
	}
	addr := flag.String("addr", net.JoinHostPort("localhost", port), "address to listen on (host:port)")
	dir := flag.String("dir", "static", "directory holding index.html, main.wasm and the other files of the page")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: inspector-server [-addr host:port] [-dir static]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*addr, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "inspector-server:", err)
		os.Exit(1)
	}
}

func run(addr, dir string) error {
	h, err := inspectorserver.New(dir)
	if err != nil {
		return err
	}
	defer h.Close()
	raw, gz, err := h.Precompress("main.wasm")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fmt.Fprintf(os.Stderr, "inspector-server: warning: %s/main.wasm is missing: run ./build.sh wasm\n", dir)
	case err != nil:
		return err
	default:
		br := "no main.wasm.br for this main.wasm (run ./build.sh wasm)"
		wasm, err1 := os.Stat(filepath.Join(dir, "main.wasm"))
		c, err2 := os.Stat(filepath.Join(dir, "main.wasm"+precompress.BrotliSuffix))
		if err1 == nil && err2 == nil && precompress.Fresh(wasm, c) {
			br = fmt.Sprintf("%d with brotli", c.Size())
		}
		fmt.Fprintf(os.Stderr, "inspector-server: main.wasm %d bytes, %s, %d gzipped\n", raw, br, gz)
	}

	limits := inspectorserver.DefaultLimits
	ln, err := limits.Listen(addr)
	if err != nil {
		return err
	}
	srv := limits.Server(h)
	fmt.Fprintf(os.Stderr, "inspector-server: serving %s at %s\n", dir, pageURL(addr, ln.Addr()))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shutdown)
}

// pageURL is the address to open in a browser: the host as given on the command line
// ("localhost" reads better than 127.0.0.1), with the port actually bound.
func pageURL(addr string, bound net.Addr) string {
	host, _, err := net.SplitHostPort(addr)
	_, port, err2 := net.SplitHostPort(bound.String())
	if err != nil || err2 != nil {
		return "http://" + bound.String() + "/"
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}
