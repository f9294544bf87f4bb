#!/bin/sh
# Records a physical standby's replication connection with dumpcap: a PostgreSQL 15 primary
# (Debian's postgresql-15) and a standby made by pg_basebackup -R with hot_standby_feedback=on,
# so the walreceiver sends Hot standby feedback ('h') and Standby status updates ('r') inside
# CopyData. Writes testdata/guide/standby/physical.pcapng (then run go run ./scripts/guideexamples).
# Run as root from the repository root.
set -eu
out=$(pwd)/testdata/guide/standby/physical.pcapng
bin=/usr/lib/postgresql/15/bin
dir=$(mktemp -d /tmp/guide-standby-XXXXXX)
chown postgres "$dir"
p1=$(shuf -i 20000-29999 -n 1); p2=$((p1 + 1))
as() { su postgres -s /bin/sh -c "$*"; }
trap 'as "$bin/pg_ctl -D $dir/standby -m immediate stop" >/dev/null 2>&1 || true; as "$bin/pg_ctl -D $dir/primary -m immediate stop" >/dev/null 2>&1 || true; kill $cap 2>/dev/null || true; rm -rf "$dir"' EXIT
as "$bin/initdb -D $dir/primary -U postgres --auth=trust --no-sync" >/dev/null
cat >> "$dir/primary/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $p1
unix_socket_directories = '$dir'
wal_level = replica
max_wal_senders = 5
fsync = off
CONF
echo "host replication all 127.0.0.1/32 trust" >> "$dir/primary/pg_hba.conf"
as "$bin/pg_ctl -D $dir/primary -l $dir/primary.log -w start" >/dev/null
as "$bin/pg_basebackup -h 127.0.0.1 -p $p1 -U postgres -D $dir/standby -R" >/dev/null
cat >> "$dir/standby/postgresql.conf" <<CONF
port = $p2
hot_standby = on
hot_standby_feedback = on
wal_receiver_status_interval = 1
CONF
capdir=$(mktemp -d /tmp/guide-standby-cap-XXXXXX); chmod 1777 "$capdir"
dumpcap -q -i lo -f "tcp port $p1" -w "$capdir/physical.pcapng" & cap=$!
sleep 2
as "$bin/pg_ctl -D $dir/standby -l $dir/standby.log -w start" >/dev/null
sleep 1
as "$bin/psql -h 127.0.0.1 -p $p1 -U postgres -c 'CREATE TABLE t (x int); INSERT INTO t VALUES (1)'" >/dev/null
sleep 4
kill -INT $cap; wait $cap || true
cp "$capdir/physical.pcapng" "$out"; rm -rf "$capdir"
ls -l "$out"
