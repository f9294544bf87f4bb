// Package offline writes the page's service worker, sw.js, into a built page directory: a
// script that keeps the page's files in a cache named after the build's identity (a hash of
// those files) and serves them on later visits, so the page starts without waiting for the
// network and works with none (docs/page.md, "Loading"). The worker's code is sw.js in this
// package; Write fills in the identity and the list of files.
//
// It is native only: scripts/site runs it as the build's last step before compressing.
package offline

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// WorkerName is the service worker's file name; static/boot.js registers it.
const WorkerName = "sw.js"

// Files lists what the page fetches, relative to index.html: what the worker keeps. A file
// the page comes to fetch must be added here, or the page lacks it offline
// (TestBrowsersOffline opens the page, the guide and a dump with no network).
var Files = []string{
	"index.html", "boot.js", "wasm_exec.js", "main.wasm",
	"style.css", "hexview.css", "page.css", "guide.css",
	"examples.txt", "guide.txt", "guideview.txt",
	"export-worker.js", "export.wasm",
}

//go:embed sw.js
var template []byte

// Identity returns the build identity of the page in dir: the first 16 hex digits of a
// SHA-256 over every file of Files, name and content.
func Identity(dir string) (string, error) {
	h := sha256.New()
	for _, name := range Files {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// Worker returns the worker script for a build of this identity.
func Worker(identity string) []byte {
	list, _ := json.Marshal(Files) // a []string always marshals
	out := bytes.Replace(template, []byte("{{BUILD}}"), []byte(identity), 1)
	return bytes.Replace(out, []byte("{{FILES}}"), list, 1)
}

// Write writes sw.js into dir for the files there, and returns the build identity. It is the
// build's last change to the files of Files (index.html's <meta> elements come before it).
func Write(dir string) (string, error) {
	id, err := Identity(dir)
	if err != nil {
		return "", fmt.Errorf("the service worker's files: %w", err)
	}
	return id, os.WriteFile(filepath.Join(dir, WorkerName), Worker(id), 0o644)
}
