package decoder

// Placeholders until the type table and value codecs land (decoder/types.go, decoder/values.go).

// TypeName is a placeholder.
func TypeName(oid uint32) string { return "" }

// AppendText is a placeholder.
func AppendText(dst []byte, b []byte) []byte { return append(dst, b...) }

// AppendBinary is a placeholder.
func AppendBinary(dst []byte, oid uint32, b []byte) ([]byte, bool, error) { return dst, false, nil }
