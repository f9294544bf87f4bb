package decoder

// TypeName is a placeholder until the type table lands.
func TypeName(oid uint32) string { return "" }
