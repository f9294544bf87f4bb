package main

import (
	"net"
	"testing"
)

func TestPageURL(t *testing.T) {
	bound := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	for addr, want := range map[string]string{
		"localhost:8080": "http://localhost:8080/",
		"localhost:0":    "http://localhost:8080/", // the port actually bound
		":8080":          "http://localhost:8080/",
		"0.0.0.0:8080":   "http://localhost:8080/",
		"127.0.0.1:8080": "http://127.0.0.1:8080/",
		"[::1]:8080":     "http://[::1]:8080/",
	} {
		if got := pageURL(addr, bound); got != want {
			t.Errorf("pageURL(%q) = %q, want %q", addr, got, want)
		}
	}
}
