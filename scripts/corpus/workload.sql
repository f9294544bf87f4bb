-- Workload for the capture corpus (testdata/corpus) and the end-to-end capture test.
--
-- Read by internal/pgcapture/corpus. Format:
--   "-- @setup" starts the part run before any capture starts (schema, publications, origin);
--   "-- @step NAME" starts a workload step, run while the captures are streaming;
--   "-- @min_version N" makes the rest of the current step run only on PostgreSQL N or later;
--   "-- @wait_decoded" waits until every walsender has decoded all WAL written so far
--   (PostgreSQL 18 drops the changes of a transaction it already knows to be aborted instead
--   of streaming them, so a transaction meant to stream must stream before it rolls back).
-- Each statement ends with ";" at the end of a line and is sent on its own (COMMIT PREPARED
-- may not run inside the implicit transaction of a multi-statement query).
-- All steps run on one connection, in order. The captures stop at the non-transactional
-- message with prefix 'pgoutput-inspector-corpus-end' that the runner emits last.

-- @setup
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE DOMAIN posint AS int4 CHECK (VALUE > 0);

-- Column types: every type with a binary codec in the decoder, one-dimensional arrays of
-- them, and types without one (point, money), plus user types (enum, enum array, domain)
-- that make pgoutput send Type (Y) messages.
CREATE TABLE types (
    id          int4 PRIMARY KEY,
    c_bool      bool,
    c_bytea     bytea,
    c_char      "char",
    c_name      name,
    c_int2      int2,
    c_int4      int4,
    c_int8      int8,
    c_oid       oid,
    c_float4    float4,
    c_float8    float8,
    c_text      text,
    c_varchar   varchar(20),
    c_bpchar    char(5),
    c_json      json,
    c_jsonb     jsonb,
    c_uuid      uuid,
    c_date      date,
    c_time      time,
    c_timestamp timestamp,
    c_timestamptz timestamptz,
    c_interval  interval,
    c_numeric   numeric,
    c_inet      inet,
    c_cidr      cidr,
    a_bool      bool[],
    a_bytea     bytea[],
    a_char      "char"[],
    a_name      name[],
    a_int2      int2[],
    a_int4      int4[],
    a_int8      int8[],
    a_oid       oid[],
    a_float4    float4[],
    a_float8    float8[],
    a_text      text[],
    a_varchar   varchar[],
    a_bpchar    char(2)[],
    a_json      json[],
    a_jsonb     jsonb[],
    a_uuid      uuid[],
    a_date      date[],
    a_time      time[],
    a_timestamp timestamp[],
    a_timestamptz timestamptz[],
    a_interval  interval[],
    a_numeric   numeric[],
    a_inet      inet[],
    a_cidr      cidr[],
    c_point     point,
    c_money     money,
    c_mood      mood,
    a_mood      mood[],
    c_posint    posint
);

-- Replica identities.
CREATE TABLE rid_default (id int4 PRIMARY KEY, v text, n int4);
CREATE TABLE rid_full (id int4, v text, n int4);
ALTER TABLE rid_full REPLICA IDENTITY FULL;
CREATE TABLE rid_index (id int4 NOT NULL, code text NOT NULL, v text);
CREATE UNIQUE INDEX rid_index_key ON rid_index (code, id);
ALTER TABLE rid_index REPLICA IDENTITY USING INDEX rid_index_key;
-- NOTHING: published for inserts only, so its UPDATE and DELETE are allowed and not sent.
CREATE TABLE rid_nothing (id int4, v text);
ALTER TABLE rid_nothing REPLICA IDENTITY NOTHING;

-- Unchanged TOAST: "big" is stored out of line without compression.
CREATE TABLE toasty (id int4 PRIMARY KEY, big text, small int4);
ALTER TABLE toasty ALTER COLUMN big SET STORAGE EXTERNAL;

-- TRUNCATE ... RESTART IDENTITY CASCADE.
CREATE TABLE parent (id serial PRIMARY KEY, v text);
CREATE TABLE child (id serial PRIMARY KEY, parent_id int4 REFERENCES parent (id), v text);

-- Enough rows to exceed logical_decoding_work_mem = 64kB, so transactions stream.
CREATE TABLE bulk (id serial PRIMARY KEY, payload text, m mood);

CREATE PUBLICATION pub_all FOR TABLE types, rid_default, rid_full, rid_index, toasty, parent, child, bulk;
CREATE PUBLICATION pub_insert_only FOR TABLE rid_nothing WITH (publish = 'insert');

SELECT pg_replication_origin_create('corpus_origin');

-- @step types
BEGIN;
INSERT INTO types VALUES (1, true, '\x00010203feff', 'a', 'a_name', 32767, 2147483647, 9223372036854775807, 4294967295,
    1.5, 3.141592653589793, 'text with ünïcödé and a "quote"', 'varchar', 'ab', '{"b": 1, "a": [1, 2.5, null]}', '{"b": 1, "a": [1, 2.5, null]}',
    'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '2024-02-29', '23:59:59.999999', '2024-02-29 12:34:56.789', '2024-02-29 12:34:56.789+05:30',
    '1 year 2 mons 3 days 04:05:06.789', 12345.6789, '192.168.0.1/24', '10.0.0.0/8',
    '{t,f,NULL}', '{"\\x00ff",NULL}', '{a,b}', '{n1,n2}', '{1,-2,NULL}', '{1,2,3}', '{9223372036854775807,-9223372036854775808}', '{1,4294967295}',
    '{1.5,NaN}', '{Infinity,-Infinity,0}', '{"a","b c",NULL,""}', '{x,y}', '{ab,c}', ARRAY['{"k": 1}'::json, '[]'::json], ARRAY['{"k": 1}'::jsonb, 'null'::jsonb],
    '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}', '{2000-01-01,infinity}', '{00:00:00,12:00:00.5}', '{2000-01-01 00:00:00,-infinity}',
    '{2000-01-01 00:00:00+00,infinity}', '{"1 day","-00:00:01"}', '{1.5,NaN,-0.001}', '{::1,10.1.2.3}', '{2001:db8::/32}',
    '(1.5,-2)', 12.34, 'happy', '{sad,ok}', 42);
INSERT INTO types VALUES (2, false, '\x', 'Z', '', -32768, -2147483648, -9223372036854775808, 0,
    'NaN', 'Infinity', '', '', '', 'null', '[]',
    '00000000-0000-0000-0000-000000000000', '-infinity', '00:00:00', 'infinity', '-infinity',
    '-178000000 years', 'NaN', '::1', '::/0',
    '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}',
    '{}', '{}', '{}', '{}', '{}', '{}', '{}',
    '{}', '{}', '{}', '{}',
    '{}', '{}', '{}', '{}', '{}',
    '(0,0)', -0.01, 'sad', '{}', 1);
INSERT INTO types (id, c_float4, c_float8, c_numeric, c_date, c_timestamp, c_timestamptz) VALUES
    (3, '-Infinity', '-Infinity', 'Infinity', '4713-01-01 BC', '0001-01-01 00:00:00 BC', '294276-12-31 23:59:59.999999+00'),
    (4, '-0', 'NaN', '-Infinity', 'infinity', '2000-01-01 00:00:00.000001', '1999-12-31 23:59:59.999999+00'),
    (5, 1e-45, 1e308, 0.00000000000000000001, '1970-01-01', '1970-01-01 00:00:00', '1970-01-01 00:00:00+00');
INSERT INTO types (id) VALUES (6);
COMMIT;
UPDATE types SET c_text = 'updated', c_mood = 'ok', a_int4 = '{4,5}' WHERE id = 1;
DELETE FROM types WHERE id = 6;

-- @step replica identity default
INSERT INTO rid_default VALUES (1, 'one', 1), (2, 'two', NULL), (3, NULL, 3);
UPDATE rid_default SET v = 'one, updated' WHERE id = 1;
UPDATE rid_default SET id = 10 WHERE id = 2;
DELETE FROM rid_default WHERE id = 3;

-- @step replica identity full
INSERT INTO rid_full VALUES (1, 'one', 1), (2, NULL, NULL);
UPDATE rid_full SET v = 'one, updated' WHERE id = 1;
UPDATE rid_full SET n = 2 WHERE id = 2;
DELETE FROM rid_full WHERE id = 1;

-- @step replica identity using index
INSERT INTO rid_index VALUES (1, 'a', 'one'), (2, 'b', NULL);
UPDATE rid_index SET v = 'one, updated' WHERE id = 1;
UPDATE rid_index SET code = 'c' WHERE id = 2;
DELETE FROM rid_index WHERE id = 1;

-- @step replica identity nothing
INSERT INTO rid_nothing VALUES (1, 'one'), (2, NULL);
UPDATE rid_nothing SET v = 'not sent' WHERE id = 1;
DELETE FROM rid_nothing WHERE id = 2;

-- @step unchanged toast
INSERT INTO toasty SELECT 1, string_agg(md5(i::text), ''), 0 FROM generate_series(1, 100) AS i;
UPDATE toasty SET small = 1 WHERE id = 1;
UPDATE toasty SET big = 'short now', small = 2 WHERE id = 1;

-- @step messages
SELECT pg_logical_emit_message(false, 'corpus', 'non-transactional, outside any transaction');
BEGIN;
SELECT pg_logical_emit_message(true, 'corpus', 'transactional, alone in its transaction');
COMMIT;
BEGIN;
INSERT INTO rid_default VALUES (4, 'with messages', 4);
SELECT pg_logical_emit_message(true, 'corpus', 'transactional, next to an insert');
SELECT pg_logical_emit_message(false, 'corpus', 'non-transactional, inside a transaction');
SELECT pg_logical_emit_message(true, 'corpus-binary', '\x00ff00fe'::bytea);
SELECT pg_logical_emit_message(true, '', '');
COMMIT;
BEGIN;
SELECT pg_logical_emit_message(true, 'corpus', 'transactional, rolled back: never sent');
ROLLBACK;

-- @step origin
SELECT pg_replication_origin_session_setup('corpus_origin');
BEGIN;
SELECT pg_replication_origin_xact_setup('0/1234ABCD', '2024-01-02 03:04:05+00');
INSERT INTO rid_default VALUES (5, 'from corpus_origin', 5);
COMMIT;
SELECT pg_replication_origin_session_reset();

-- @step truncate
INSERT INTO parent (v) VALUES ('p1'), ('p2');
INSERT INTO child (parent_id, v) VALUES (1, 'c1'), (2, 'c2');
TRUNCATE parent RESTART IDENTITY CASCADE;
INSERT INTO parent (v) VALUES ('p after restart');
TRUNCATE child;

-- @step streamed with a rolled back subtransaction
BEGIN;
INSERT INTO types (id, c_mood, a_mood, c_posint) VALUES (100, 'ok', '{happy}', 7);
INSERT INTO bulk (payload, m) SELECT repeat('a', 400), 'sad' FROM generate_series(1, 20);
SAVEPOINT s1;
INSERT INTO bulk (payload) SELECT repeat('b', 400) FROM generate_series(1, 250);
SELECT pg_logical_emit_message(true, 'corpus', 'transactional, in a subtransaction rolled back: never sent');
-- @wait_decoded
ROLLBACK TO SAVEPOINT s1;
SAVEPOINT s2;
INSERT INTO bulk (payload) SELECT repeat('c', 400) FROM generate_series(1, 250);
RELEASE SAVEPOINT s2;
SELECT pg_logical_emit_message(true, 'corpus', 'transactional, in a streamed transaction');
UPDATE bulk SET payload = 'updated in stream' WHERE id = 1;
DELETE FROM bulk WHERE id = 2;
UPDATE rid_full SET v = 'streamed' WHERE id = 2;
TRUNCATE rid_full;
COMMIT;

-- @step streamed and aborted
BEGIN;
INSERT INTO bulk (payload) SELECT repeat('d', 400) FROM generate_series(1, 250);
-- @wait_decoded
ROLLBACK;

-- @step two-phase
BEGIN;
INSERT INTO rid_default VALUES (6, 'prepared, committed', 6);
PREPARE TRANSACTION 'corpus_commit';
COMMIT PREPARED 'corpus_commit';
BEGIN;
INSERT INTO rid_default VALUES (7, 'prepared, rolled back', 7);
PREPARE TRANSACTION 'corpus_rollback';
ROLLBACK PREPARED 'corpus_rollback';
BEGIN;
INSERT INTO bulk (payload) SELECT repeat('e', 400) FROM generate_series(1, 250);
PREPARE TRANSACTION 'corpus_streamed';
COMMIT PREPARED 'corpus_streamed';

-- @step two-phase, streamed and rolled back
BEGIN;
INSERT INTO bulk (payload) SELECT repeat('f', 400) FROM generate_series(1, 250);
-- @wait_decoded
PREPARE TRANSACTION 'corpus_streamed_rollback';
ROLLBACK PREPARED 'corpus_streamed_rollback';
