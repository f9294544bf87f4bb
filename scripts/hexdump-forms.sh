#!/bin/sh
# Makes hexdump's -b, -c and -o outputs in testdata/input/hexdump from the corpus's own bytes
# (the pg_recvlogical -f file testdata/input/recvlogical/stream.bin, and the message of
# hexdump/x_odd, 187 bytes) with the real hexdump (util-linux), without starting a server.
# scripts/inputcorpus makes the same cases when it makes the whole corpus again.
set -eu
cd "$(dirname "$0")/../testdata/input"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' hexdump/x_odd.want | xxd -r -p > "$tmp/m08.bin"
for o in b c o; do
	hexdump -$o recvlogical/stream.bin > hexdump/${o}_many.txt
	cp recvlogical/stream.want hexdump/${o}_many.want
	hexdump -$o "$tmp/m08.bin" > hexdump/${o}_odd.txt
	cp hexdump/x_odd.want hexdump/${o}_odd.want
	grep -q "^${o}_many.txt:" hexdump/MADE_BY || printf '%s_many.txt: hexdump -%s stream.recv\n%s_odd.txt: hexdump -%s m08.bin\n' $o $o $o $o >> hexdump/MADE_BY
done
