package inspectorserver

import (
	"net"
	"net/http"
	"time"

	"golang.org/x/net/netutil"
)

// Limits bound what one client can hold of the server: how long a connection may take to send
// its request, to receive a response, or sit idle between requests, and how many connections
// are open at once. Without them, idle keep-alive connections and clients that read a few
// bytes a second pile up until the process runs out of file descriptors.
type Limits struct {
	// ReadHeaderTimeout and ReadTimeout bound reading a request (the page only GETs).
	ReadHeaderTimeout, ReadTimeout time.Duration
	// WriteTimeout bounds one response, from the end of the request's headers to the last
	// byte: it must let the largest file through on a slow link.
	WriteTimeout time.Duration
	// IdleTimeout closes a keep-alive connection that sends no new request.
	IdleTimeout time.Duration
	// MaxConnections is how many connections are served at once; more wait (in the kernel's
	// listen queue) until one closes.
	MaxConnections int
}

// DefaultLimits are cmd/inspector-server's. The write timeout lets main.wasm through whole at
// its 4.5 MB budget, uncompressed (a client that accepts neither brotli nor gzip), on a
// 128 kbit/s link: 4.5 MB × 8 / 128 kbit/s = 281 s, under 5 minutes. With brotli it is 0.9 MB
// at most, 56 s on that link. A page load opens a handful of connections; 256 leaves room for
// many people at once and stays far below the usual limit of 1,024 open files.
var DefaultLimits = Limits{
	ReadHeaderTimeout: 10 * time.Second,
	ReadTimeout:       30 * time.Second,
	WriteTimeout:      5 * time.Minute,
	IdleTimeout:       60 * time.Second,
	MaxConnections:    256,
}

// Server returns an http.Server for h with the limits' timeouts.
func (l Limits) Server(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.ReadHeaderTimeout,
		ReadTimeout:       l.ReadTimeout,
		WriteTimeout:      l.WriteTimeout,
		IdleTimeout:       l.IdleTimeout,
	}
}

// Listen listens on the TCP address and accepts at most MaxConnections connections at once
// (golang.org/x/net/netutil.LimitListener).
func (l Limits) Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return l.Limit(ln), nil
}

// Limit wraps a listener so that at most MaxConnections of its connections are open at once.
func (l Limits) Limit(ln net.Listener) net.Listener {
	if l.MaxConnections <= 0 {
		return ln
	}
	return netutil.LimitListener(ln, l.MaxConnections)
}
