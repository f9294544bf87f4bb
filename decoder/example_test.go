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
	//   1 Int32    Relation OID 16384 public.t
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

// Edit a decoded Update: a longer value for column 2, then a copy of that column added after
// it. The column's length and the tuple's column count follow; the draft's tree is always the
// decode of its bytes.
func ExampleDraft() {
	relation, _ := hex.DecodeString("52000040007075626c69630074006400020169640000000017ffffffff00760000000019ffffffff")
	update, _ := hex.DecodeString("55000040004e0002740000000131740000000568656c6c6f")
	s := decoder.NewSession(decoder.Options{})
	s.Decode(relation)
	d := decoder.NewDraft(s.Decode(update))
	value := -1
	for i, n := range d.Tree().Nodes {
		if n.Field == decoder.FieldTupleColumn && n.Index == 2 {
			value = d.Tree().Find(i, decoder.FieldColumnValue)
		}
	}
	if err := d.SetText(value, "hello, world"); err != nil {
		fmt.Println(err)
	}
	fmt.Printf("%x\n", d.Bytes())
	col, err := d.AddItem(value)
	if err != nil {
		fmt.Println(err)
	}
	fmt.Println("added", d.Tree().Label(col))
	fmt.Printf("%x\n", d.Bytes())
	fmt.Println(d.SetText(d.Tree().Find(col, decoder.FieldColumnLength), "3"))
	// Output:
	// 55000040004e0002740000000131740000000c68656c6c6f2c20776f726c64
	// added column 3
	// 55000040004e0003740000000131740000000c68656c6c6f2c20776f726c64740000000c68656c6c6f2c20776f726c64
	// Length: is computed from what it measures; change the value or the columns instead
}
