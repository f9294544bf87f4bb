package hexview_test

import (
	"fmt"
	"strings"

	"pgoutput-inspector/hexview"
)

// A Begin message's fields as spans: each row comes out as runs of bytes per field, with the
// selected bytes (here the final LSN) cut out as segments of their own.
func ExampleModel_Rows() {
	begin := []byte{'B',
		0x00, 0x00, 0x00, 0x00, 0x01, 0x77, 0x3f, 0xe8, // final LSN
		0x00, 0x02, 0xb2, 0x2c, 0x5a, 0x3e, 0x1f, 0x40, // commit timestamp
		0x00, 0x00, 0x02, 0xf1} // xid
	spans := []hexview.Span{
		{Offset: 0, Length: 1, Class: hexview.ClassType, ID: 1},
		{Offset: 1, Length: 8, Class: hexview.ClassLSN, ID: 2},
		{Offset: 9, Length: 8, Class: hexview.ClassTime, ID: 3},
		{Offset: 17, Length: 4, Class: hexview.ClassXid, ID: 4},
	}
	m, err := hexview.New(begin, spans, 16)
	if err != nil {
		fmt.Println(err)
		return
	}
	marks := hexview.Marks{Selection: hexview.Range{Offset: 1, Length: 8}}
	for _, row := range m.Rows(0, m.RowCount(), marks) {
		var segs []string
		for _, s := range row.Segments {
			sel := ""
			if s.Selected {
				sel = " (selected)"
			}
			segs = append(segs, fmt.Sprintf("%s[%s]%s", s.Class, s.Hex, sel))
		}
		fmt.Println(row.Label, strings.Join(segs, " "))
	}
	i, _ := m.SpanAt(12)
	fmt.Println("offset 12 is in span", i, "with ID", m.Span(i).ID)
	// Output:
	// 0000 k-type[42] k-lsn[00 00 00 00 01 77 3f e8] (selected) k-time[00 02 b2 2c 5a 3e 1f]
	// 0010 k-time[40] k-xid[00 00 02 f1]
	// offset 12 is in span 2 with ID 3
}
