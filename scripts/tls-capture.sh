#!/bin/sh
# Records a logical replication connection that uses TLS, with dumpcap on the loopback
# interface: a PostgreSQL 15 server (Debian's postgresql-15) with ssl=on and a self-signed
# certificate, pg_recvlogical -P pgoutput connecting with sslmode=require while a change is
# made. Writes testdata/input/tshark/tls.pcapng, which the input package must read as a
# capture whose connection is encrypted (nothing to decode, and a note that says so).
# Run as root from the repository root.
set -eu
out=$(pwd)/testdata/input/tshark/tls.pcapng
bin=/usr/lib/postgresql/15/bin
dir=$(mktemp -d /tmp/tls-capture-XXXXXX)
chown postgres "$dir"
port=$(shuf -i 30000-39999 -n 1)
as() { su postgres -s /bin/sh -c "$*"; }
cap=
trap 'kill $rl 2>/dev/null || true; as "$bin/pg_ctl -D $dir/data -m immediate stop" >/dev/null 2>&1 || true; [ -n "$cap" ] && kill $cap 2>/dev/null || true; rm -rf "$dir"' EXIT
rl=
as "$bin/initdb -D $dir/data -U postgres --auth=trust --no-sync" >/dev/null
openssl req -new -x509 -days 2 -nodes -subj /CN=127.0.0.1 -newkey rsa:2048 \
	-keyout "$dir/data/server.key" -out "$dir/data/server.crt" 2>/dev/null
chown postgres "$dir/data/server.key" "$dir/data/server.crt"; chmod 600 "$dir/data/server.key"
cat >> "$dir/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
wal_level = logical
ssl = on
fsync = off
CONF
echo "hostssl all all 127.0.0.1/32 trust" >> "$dir/data/pg_hba.conf"
echo "hostssl replication all 127.0.0.1/32 trust" >> "$dir/data/pg_hba.conf"
as "$bin/pg_ctl -D $dir/data -l $dir/server.log -w start" >/dev/null
psql() { as "$bin/psql -X -q -h 127.0.0.1 -p $port -U postgres -d 'postgres' -c \"$1\"" >/dev/null; }
psql "CREATE TABLE t (id int PRIMARY KEY, note text); CREATE PUBLICATION pub FOR ALL TABLES"
psql "SELECT pg_create_logical_replication_slot('s', 'pgoutput')"
capdir=$(mktemp -d /tmp/tls-capture-cap-XXXXXX); chmod 1777 "$capdir"
dumpcap -q -i lo -f "tcp port $port" -w "$capdir/tls.pcapng" & cap=$!
sleep 2
as "exec timeout -s INT 6 $bin/pg_recvlogical -d 'host=127.0.0.1 port=$port user=postgres dbname=postgres sslmode=require' -S s --start -P pgoutput -o proto_version=1 -o publication_names=pub -s 1 -f /dev/null" & rl=$!
sleep 2
psql "INSERT INTO t VALUES (1, 'over TLS'); UPDATE t SET note = 'still TLS' WHERE id = 1"
wait $rl || true # timeout stops pg_recvlogical after 6 s (a background job ignores SIGINT)
sleep 1
kill -INT $cap; wait $cap || true; cap=
cp "$capdir/tls.pcapng" "$out"; rm -rf "$capdir"
ls -l "$out"
