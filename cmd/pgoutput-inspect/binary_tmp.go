package main

// binaryValue stands in for decoder.BinaryValue until decoder/values.go lands: it types no
// value, so binary columns are shown as bytea hex.
func binaryValue(oid uint32, b []byte) (any, bool, error) { return nil, false, nil }
