#!/bin/sh
# Writes the package-lock.json of each npm pin (internal/npmcache/pins/*) again from its
# package.json: run it after changing a version there, then commit both files. Every package
# the pin brings, transitive ones included, is fixed to the newest version its ranges allow
# today, with its integrity hash; the tests install exactly that with npm ci.
#
#   scripts/npm-pins.sh                  # every pin
#   scripts/npm-pins.sh puppeteer-core   # some of them
set -eu
cd "$(dirname "$0")/../internal/npmcache/pins"
[ $# -gt 0 ] || set -- *
for pin in "$@"; do
	echo "==> $pin"
	(cd "$pin" && rm -f package-lock.json &&
		npm install --package-lock-only --ignore-scripts --no-audit --no-fund --lockfile-version 3)
done
