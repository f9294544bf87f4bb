package decoder_test

import (
	"encoding/hex"
	"fmt"
	"strings"

	"pgoutput-inspector/decoder"
)

// Decode a Relation message and then an Update: the session names the Update's columns.
func Example() {
	relation, _ := hex.DecodeString("52000040007075626c69630074006400020169640000000017ffffffff00760000000019ffffffff")
	update, _ := hex.DecodeString("55000040004e0002740000000131740000000568656c6c6f")
	s := decoder.NewSession(decoder.Options{})
	s.Decode(relation)
	t := s.Decode(update)
	for i, n := range t.Nodes {
		line := fmt.Sprintf("%3d %-6s %s%s %s", n.Offset, n.Format, strings.Repeat("  ", int(n.Depth)), t.Label(i), t.Value(i))
		fmt.Println(strings.TrimRight(line, " "))
	}
	// Output:
	//   0        Update
	//   0 Byte1    Type 'U' Update
	//   1 Int32    Relation OID 16384
	//   5 Byte1    New tuple marker 'N' new tuple
	//   6          New tuple
	//   6 Int16      Column count 2
	//   8            column 1 (id)
	//   8 Byte1        Kind 't' text
	//   9 Int32        Length 1
	//  13 Byte n       Value "1"
	//  14            column 2 (v)
	//  14 Byte1        Kind 't' text
	//  15 Int32        Length 5
	//  19 Byte n       Value "hello"
}

// A truncated message: everything decodable is in the tree, and the error names the offset,
// the field, and what was missing.
func Example_error() {
	b, _ := hex.DecodeString("42000000000177")
	t := decoder.NewSession(decoder.Options{}).Decode(b)
	fmt.Println(t.Err)
	// Output:
	// Begin: Final LSN: need 8 bytes at offset 1, 6 remain
}
