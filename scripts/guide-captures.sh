#!/bin/sh
# Re-creates the field guide's real captures in testdata/guide (read by scripts/guide into the
# guide asset):
# - the same one-transaction change from real PostgreSQL 10 to 18 servers, text values and,
#   from 14, binary values (testdata/guide/lens/, index lens.txt); needs npm, as
#   scripts/capture-corpus.sh does;
# - an example per guide entry, cut from testdata/corpus, testdata/input/tshark,
#   testdata/guide/standby and, for the frontend/backend protocol's messages, the recorded
#   connections of testdata/conversation (testdata/guide/<entry>.txt, index examples.txt). The
#   physical standby's capture there is remade by scripts/guide-standby.sh (root, dumpcap), and
#   the recorded connections by scripts/wirecaptures, not here.
#
#   scripts/guide-captures.sh                      # both
#   scripts/guide-captures.sh -versions 16,17,18   # the comparison captures of some releases only
set -eu
cd "$(dirname "$0")/.."
go run ./scripts/guidelens "$@"
go run ./scripts/guideoptions
go run ./scripts/guideexamples
go test ./scripts/guide -count=1
