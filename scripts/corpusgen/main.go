// Command corpusgen re-creates the capture corpus in testdata/corpus: for each PostgreSQL
// version it starts a throwaway server, runs scripts/corpus/workload.sql while captures with
// several pgoutput option sets record it, writes testdata/corpus/pg<N>-<variant>.capture.gz
// and regenerates docs/corpus.md. Run it from the repository root (scripts/capture-corpus.sh
// does).
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"pgoutput-inspector/internal/pgcapture"
	"pgoutput-inspector/internal/pgcapture/corpus"
	"pgoutput-inspector/internal/pgserver"
)

func main() {
	versions := flag.String("versions", "14,15,16,17,18", "comma-separated PostgreSQL versions (14..18, debian-15)")
	workload := flag.String("workload", "scripts/corpus/workload.sql", "workload file")
	out := flag.String("out", "testdata/corpus", "output directory")
	docs := flag.String("docs", "docs/corpus.md", "documentation file to regenerate (empty: none)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := generate(ctx, strings.Split(*versions, ","), *workload, *out, *docs); err != nil {
		fmt.Fprintln(os.Stderr, "corpusgen:", err)
		os.Exit(1)
	}
}

// entry is one written file, for the documentation.
type entry struct {
	file    string
	server  string
	capture corpus.Capture
	counts  pgcapture.Counts
	size    int
}

func generate(ctx context.Context, versions []string, workloadPath, out, docs string) error {
	w, err := corpus.LoadWorkload(workloadPath)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	var entries []entry
	for _, version := range versions {
		es, err := generateVersion(ctx, version, w, out)
		if err != nil {
			return fmt.Errorf("PostgreSQL %s: %w", version, err)
		}
		entries = append(entries, es...)
	}
	if docs == "" {
		return nil
	}
	return os.WriteFile(docs, []byte(document(entries)), 0o644)
}

func generateVersion(ctx context.Context, version string, w *corpus.Workload, out string) ([]entry, error) {
	srv, err := pgserver.Start(ctx, version)
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	major := majorOf(version)
	variants := corpus.Variants(major)
	rctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	captures, err := corpus.Run(rctx, srv.ConnString(), w, variants)
	if err != nil {
		return nil, fmt.Errorf("%w\nserver log:\n%s", err, srv.Log())
	}
	var entries []entry
	for _, c := range captures {
		f, err := pgcapture.ReadFile(bytes.NewReader(c.Data))
		if err != nil {
			return nil, fmt.Errorf("capture %s does not read back: %w", c.Variant.Name, err)
		}
		counts := f.Count()
		if missing := corpus.Missing(corpus.Expected(major, c.Variant), counts); missing != "" {
			fmt.Fprintf(os.Stderr, "corpusgen: warning: pg%d-%s lacks message types %q\n", major, c.Variant.Name, missing)
		}
		name := fmt.Sprintf("pg%d-%s.capture.gz", major, c.Variant.Name)
		gz, err := gzipBytes(c.Data)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(out, name), gz, 0o644); err != nil {
			return nil, err
		}
		fmt.Fprintf(os.Stderr, "corpusgen: %s: %d XLogData, %d keepalives, %d bytes gzipped\n", name, counts.XLogData, counts.Keepalives, len(gz))
		entries = append(entries, entry{file: name, server: c.Result.ServerVersion, capture: c, counts: counts, size: len(gz)})
	}
	return entries, nil
}

func majorOf(version string) int {
	n := 0
	for _, c := range strings.TrimPrefix(version, "debian-") {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// gzipBytes compresses without a file name or time stamp, so the same capture gives the
// same bytes.
func gzipBytes(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
