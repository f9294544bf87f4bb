#!/bin/sh
# Re-creates the psql test data of the input package: real psql output of
# pg_logical_slot_peek_binary_changes in every psql form, from throwaway PostgreSQL servers
# (Debian's postgresql-15 and the npm build of 17), in testdata/input/psql with the messages
# each must give; with -holdout, the held-out set (PostgreSQL 16 and 18, other data, options
# and widths) in testdata/input/holdout/psql. Needs psql (Debian's postgresql-client-15),
# script(1) from util-linux for the interactive sessions, and what internal/pgserver needs.
#
#   scripts/psql-outputs.sh            # testdata/input/psql
#   scripts/psql-outputs.sh -holdout   # testdata/input/holdout/psql
set -eu
cd "$(dirname "$0")/.."
go run ./scripts/psqlgen "$@"
