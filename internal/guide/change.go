package guide

// The one change the field guide's comparison captures record (scripts/guidelens across
// releases, scripts/guideoptions with each pgoutput option): a table of accounts, and an
// Insert and an Update of one row in it.

// ChangeTable makes the accounts table.
const ChangeTable = `CREATE TABLE accounts (
    id      integer PRIMARY KEY,
    owner   text NOT NULL,
    balance numeric(12,2) NOT NULL,
    opened  date NOT NULL,
    active  boolean NOT NULL
);`

// ChangeInsert and ChangeUpdate are the change's two statements.
const (
	ChangeInsert = `INSERT INTO accounts VALUES (1, 'alice', 100.50, '2024-01-02', true);`
	ChangeUpdate = `UPDATE accounts SET balance = 90.25 WHERE id = 1;`
)
