// Package decoder decodes PostgreSQL logical replication messages of the pgoutput plugin, and
// the replication protocol envelopes around them (CopyData, XLogData, keepalive, standby
// status update, hot standby feedback), into annotated trees (Tree.Nodes, in pre-order) in
// which every byte belongs to exactly one leaf, named by its protocol field.
//
// A Session decodes the messages of one stream in order and carries what earlier messages
// said: Relation and Type messages by OID (so tuple columns get names and types), whether a
// streamed transaction's block is open (so the Xid field is read where it is present), and
// the protocol version. Where the bytes alone do not say how to read a message, Options fix
// it or the decoder decides and says so in Tree.Reading and Tree.Notes.
//
// Bad input never panics: Tree.Err names the offset, the field, what was expected and what
// was there, and everything decoded before it stays in the tree. Values are derived from the
// bytes on demand (Tree.ValueOf, Tree.Value, Tree.Label); FieldID.Info describes each field.
// The package uses the standard library only.
package decoder
