// Command corpusgen re-creates the capture corpus in testdata/corpus: for each PostgreSQL
// version it starts a throwaway server, runs scripts/corpus/workload.sql while captures with
// several pgoutput option sets record it, then scripts/corpus/oltp.sql (many small
// transactions) for the versions that have OLTP captures, writes
// testdata/corpus/pg<N>-<variant>.capture.gz and regenerates docs/corpus.md from every file
// in the corpus. Run it from the repository root (scripts/capture-corpus.sh does).
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
	oltp := flag.String("oltp-workload", "scripts/corpus/oltp.sql", "small-message workload file")
	sets := flag.String("sets", "main,oltp", "which captures to make: main (the workload's variants), oltp (the small-message captures)")
	out := flag.String("out", "testdata/corpus", "output directory")
	docs := flag.String("docs", "docs/corpus.md", "documentation file to regenerate (empty: none)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := generate(ctx, strings.Split(*versions, ","), *workload, *oltp, *sets, *out, *docs); err != nil {
		fmt.Fprintln(os.Stderr, "corpusgen:", err)
		os.Exit(1)
	}
}

// entry is one file of the corpus, for the documentation.
type entry struct {
	file    string
	server  string // "18.4"
	options string // the options header, and walsender settings
	about   string
	counts  pgcapture.Counts
	size    int
}

func generate(ctx context.Context, versions []string, workloadPath, oltpPath, sets, out, docs string) error {
	w, err := corpus.LoadWorkload(workloadPath)
	if err != nil {
		return err
	}
	ow, err := corpus.LoadWorkload(oltpPath)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, version := range versions {
		major := majorOf(version)
		var runs []run
		if strings.Contains(sets, "main") {
			runs = append(runs, run{w, corpus.Variants(major)})
		}
		if v := corpus.OLTPVariants(major); strings.Contains(sets, "oltp") && len(v) > 0 {
			runs = append(runs, run{ow, v})
		}
		if len(runs) == 0 {
			continue
		}
		if err := generateVersion(ctx, version, runs, out); err != nil {
			return fmt.Errorf("PostgreSQL %s: %w", version, err)
		}
	}
	if docs == "" {
		return nil
	}
	entries, err := corpusEntries(out)
	if err != nil {
		return err
	}
	return os.WriteFile(docs, []byte(document(entries)), 0o644)
}

// run is a workload and the captures that record it.
type run struct {
	workload *corpus.Workload
	variants []corpus.Variant
}

func generateVersion(ctx context.Context, version string, runs []run, out string) error {
	srv, err := pgserver.Start(ctx, version)
	if err != nil {
		return err
	}
	defer srv.Stop()
	major := majorOf(version)
	for _, r := range runs {
		rctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
		captures, err := corpus.Run(rctx, srv.ConnString(), r.workload, r.variants)
		cancel()
		if err != nil {
			return fmt.Errorf("%w\nserver log:\n%s", err, srv.Log())
		}
		for _, c := range captures {
			f, err := pgcapture.ReadFile(bytes.NewReader(c.Data))
			if err != nil {
				return fmt.Errorf("capture %s does not read back: %w", c.Variant.Name, err)
			}
			counts := f.Count()
			if missing := corpus.Missing(corpus.Expected(major, c.Variant), counts); missing != "" {
				fmt.Fprintf(os.Stderr, "corpusgen: warning: pg%d-%s lacks message types %q\n", major, c.Variant.Name, missing)
			}
			name := fmt.Sprintf("pg%d-%s.capture.gz", major, c.Variant.Name)
			gz, err := gzipBytes(c.Data)
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(out, name), gz, 0o644); err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "corpusgen: %s: %d XLogData, %d keepalives, %d bytes gzipped\n", name, counts.XLogData, counts.Keepalives, len(gz))
		}
	}
	return nil
}

// corpusEntries describes every capture of the corpus directory, in the order of the versions
// and of their variants, so that the documentation lists the whole corpus however much of it
// one run made.
func corpusEntries(dir string) ([]entry, error) {
	var entries []entry
	for major := 14; major <= 18; major++ {
		for _, v := range append(corpus.Variants(major), corpus.OLTPVariants(major)...) {
			name := fmt.Sprintf("pg%d-%s.capture.gz", major, v.Name)
			raw, err := os.ReadFile(filepath.Join(dir, name))
			if os.IsNotExist(err) {
				continue
			} else if err != nil {
				return nil, err
			}
			zr, err := gzip.NewReader(bytes.NewReader(raw))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			f, err := pgcapture.ReadFile(zr)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			opts := f.Headers["options"]
			for k, val := range v.Config.RuntimeParams {
				opts += "; walsender " + k + "=" + val
			}
			entries = append(entries, entry{file: name, server: strings.TrimPrefix(f.Headers["server"], "PostgreSQL "),
				options: opts, about: v.About, counts: f.Count(), size: len(raw)})
		}
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
