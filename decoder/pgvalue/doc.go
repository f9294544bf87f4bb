// Package pgvalue turns PostgreSQL values into the text a person reads: column values in text
// format ('t', escaped for display) and in binary format ('b', the types' send functions, shown
// as the server's text output would show them), LSNs, timestamps and type modifiers, and names
// the built-in types by OID. It knows PostgreSQL's types, not the replication protocol, and
// uses the standard library only.
package pgvalue
