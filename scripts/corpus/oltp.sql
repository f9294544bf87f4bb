-- The small-message workload of the capture corpus (testdata/corpus/pg*-oltp*.capture.gz):
-- many short transactions of one small row each, as an OLTP application makes them. Read by
-- internal/pgcapture/corpus, in the format of workload.sql; "-- @repeat N" runs the next
-- statement N times, each run its own transaction.

-- @setup
CREATE TABLE accounts (
    id      bigserial PRIMARY KEY,
    owner   text NOT NULL,
    balance numeric(12,2) NOT NULL,
    updated timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE orders (
    id         bigserial PRIMARY KEY,
    account_id bigint NOT NULL,
    amount     numeric(10,2) NOT NULL,
    status     text NOT NULL,
    created    timestamptz NOT NULL DEFAULT now()
);
CREATE PUBLICATION pub_oltp FOR TABLE accounts, orders;

-- @step accounts opened
-- @repeat 500
INSERT INTO accounts (owner, balance) SELECT 'user-' || (coalesce(max(id), 0) + 1), 100.00 FROM accounts;

-- @step orders placed
-- @repeat 800
INSERT INTO orders (account_id, amount, status) SELECT 1 + count(*) % 500, 19.99 + count(*) % 7, 'new' FROM orders;

-- @step payments
-- @repeat 600
UPDATE accounts SET balance = balance - 19.99, updated = now() WHERE id = (SELECT min(id) FROM accounts WHERE balance >= 100);

-- @step orders paid
-- @repeat 500
UPDATE orders SET status = 'paid' WHERE id = (SELECT min(id) FROM orders WHERE status = 'new');

-- @step accounts closed
-- @repeat 100
DELETE FROM accounts WHERE id = (SELECT max(id) FROM accounts);
