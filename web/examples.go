package web

// Code generated from /work/shared/vectors by hand-picked lines; DO NOT EDIT by hand without
// checking the bytes against their source.

// Example is one entry of the examples menu: real bytes with a one-line description.
type Example struct {
	Name        string
	Description string
	// Text is what goes into the input box: one message per line.
	Text string
	// Proto is the protocol version the bytes need (0: infer).
	Proto int
	// Select is the message shown first.
	Select int
	// Source names where the bytes come from.
	Source string
}

// Examples is the examples menu. The first one is shown when the page opens.
var Examples = []Example{
	{Name: "Insert", Description: "Insert (I): a row added, inside Begin … Commit, columns named by the Relation before it (PostgreSQL capture)",
		Text:  "420000000002e34ae0000292492d0f8ae600000de4\n52000059677075626c6963007573657273006400070169640000000014ffffffff006e616d650000000413ffffffff006167650000000017ffffffff00656d61696c0000000413ffffffff0070617373776f72645f6469676573740000000413ffffffff0073616c61727900000006a400060006007365780000000010ffffffff\n49000059674e000774000000093938303139313234337400000003616263740000000232326e6e6e6e\n43000000000002e34ae00000000002e34b10000292492d0f8ae6\n",
		Proto: 0, Select: 2, Source: "postgrex_wal_txn_insert"},
	{Name: "Begin", Description: "Begin (B): a transaction starts: final LSN, commit time, xid",
		Text:  "420000000002e34ae0000292492d0f8ae600000de4\n52000059677075626c6963007573657273006400070169640000000014ffffffff006e616d650000000413ffffffff006167650000000017ffffffff00656d61696c0000000413ffffffff0070617373776f72645f6469676573740000000413ffffffff0073616c61727900000006a400060006007365780000000010ffffffff\n49000059674e000774000000093938303139313234337400000003616263740000000232326e6e6e6e\n43000000000002e34ae00000000002e34b10000292492d0f8ae6\n",
		Proto: 0, Select: 0, Source: "postgrex_wal_txn_insert"},
	{Name: "Relation", Description: "Relation (R): the columns of public.users, their types and the replica identity",
		Text:  "420000000002e34ae0000292492d0f8ae600000de4\n52000059677075626c6963007573657273006400070169640000000014ffffffff006e616d650000000413ffffffff006167650000000017ffffffff00656d61696c0000000413ffffffff0070617373776f72645f6469676573740000000413ffffffff0073616c61727900000006a400060006007365780000000010ffffffff\n49000059674e000774000000093938303139313234337400000003616263740000000232326e6e6e6e\n43000000000002e34ae00000000002e34b10000292492d0f8ae6\n",
		Proto: 0, Select: 1, Source: "postgrex_wal_txn_insert"},
	{Name: "Commit", Description: "Commit (C): the transaction ends: flags, commit LSN, end LSN, commit time",
		Text:  "420000000002e34ae0000292492d0f8ae600000de4\n52000059677075626c6963007573657273006400070169640000000014ffffffff006e616d650000000413ffffffff006167650000000017ffffffff00656d61696c0000000413ffffffff0070617373776f72645f6469676573740000000413ffffffff0073616c61727900000006a400060006007365780000000010ffffffff\n49000059674e000774000000093938303139313234337400000003616263740000000232326e6e6e6e\n43000000000002e34ae00000000002e34b10000292492d0f8ae6\n",
		Proto: 0, Select: 3, Source: "postgrex_wal_txn_insert"},
	{Name: "Update", Description: "Update (U): a row changed; new tuple only (replica identity default, key unchanged)",
		Text:  "420000000002e369a800029249d72a9d5600000de7\n52000059677075626c6963007573657273006400070169640000000014ffffffff006e616d650000000413ffffffff006167650000000017ffffffff00656d61696c0000000413ffffffff0070617373776f72645f6469676573740000000413ffffffff0073616c61727900000006a400060006007365780000000010ffffffff\n55000059674e000774000000093938303139313234347400000003616263740000000232336e6e6e6e\n43000000000002e369a80000000002e369d800029249d72a9d56\n",
		Proto: 0, Select: 2, Source: "postgrex_wal_txn_update"},
	{Name: "Delete", Description: "Delete (D): three rows removed, each identified by its key ('K' tuple)",
		Text:  "420000000002e3581800029249a358ec8100000de5\n52000059677075626c6963007573657273006400070169640000000014ffffffff006e616d650000000413ffffffff006167650000000017ffffffff00656d61696c0000000413ffffffff0070617373776f72645f6469676573740000000413ffffffff0073616c61727900000006a400060006007365780000000010ffffffff\n44000059674b000774000000093938303139313234316e6e6e6e6e6e\n44000059674b000774000000093938303139313234326e6e6e6e6e6e\n44000059674b000774000000093938303139313234336e6e6e6e6e6e\n43000000000002e358180000000002e3584800029249a358ec81\n",
		Proto: 0, Select: 2, Source: "postgrex_wal_txn_delete"},
	{Name: "Update with old tuple", Description: "Update (U) under REPLICA IDENTITY FULL: the old row ('O') and the new one ('N')",
		Text:  "52000040087075626c696300706f737473006400030169640000000014ffffffff007469746c6500000004130000010300626f6479000000041300000103\n55000040084f000374000000013574000000076368616e67656474000000086e657720626f64794e000374000000013574000000076368616e6765647400000004626f6479\n",
		Proto: 0, Select: 1, Source: "postgrex_pgoutput_messages"},
	{Name: "Truncate", Description: "Truncate (T): one relation, with CASCADE and RESTART IDENTITY options in turn",
		Text:  "5400000001000000af9b\n5400000001010000af9b\n5400000001020000af9b\n",
		Proto: 0, Select: 1, Source: "postgrex_pgoutput_messages"},
	{Name: "Origin", Description: "Origin (O): the change came from another node through replication origin \"Elmer Fud\"",
		Text:  "4f00000002a7f4a880456c6d65722046756400\n",
		Proto: 0, Select: 0, Source: "electric_decoder_extras"},
	{Name: "Type", Description: "Type (Y): a user-defined type's namespace and name, sent before a Relation uses it",
		Text:  "59000080347075626c6963006578616d706c655f7479706500\n",
		Proto: 0, Select: 0, Source: "postgrex_pgoutput_messages"},
	{Name: "Logical message", Description: "Logical decoding message (M) from pg_logical_emit_message, non-transactional and transactional (PostgreSQL 16 capture)",
		Text:  "4d00000000035e17e4b870726f62655f707265666978000000000d70726f62655f636f6e74656e74\n4d01000000035e17e5e074786e5f707265666978000000000b74786e5f636f6e74656e74\n",
		Proto: 0, Select: 0, Source: "replicant_pg16_logical_message"},
	{Name: "Streamed transaction", Description: "Stream Start (S), a Delete, Message and Type carrying the xid, Stream Stop (E) and Stream Commit (c) (protocol 2)",
		Text:  "5300000df701\n440000007b000059674f0007740000000939383031393130323974000000087469746c653232327400000001326e6e6e6e\n4d0000007b000000000002e3fbe86d795f74657374000000000474657374\n590000007b000079e47075626c6963006d795f7479706500\n45\n6300000df7000000000002e3fbe80000000002e3fbf5000292ea9fd15342\n",
		Proto: 2, Select: 1, Source: "postgrex_wal_stream_v2"},
	{Name: "Stream Abort", Description: "Stream Abort (A) of a subtransaction (protocol 2)",
		Text:  "4100000dff00000dff\n",
		Proto: 2, Select: 0, Source: "postgrex_wal_stream_v2"},
	{Name: "Stream Abort, parallel", Description: "Stream Abort (A) with abort LSN and time, as streaming = parallel sends it (protocol 4)",
		Text:  "410000002a0000002b000000000000900000000000499602d2\n",
		Proto: 4, Select: 0, Source: "pg_walstream_stream_v2_v4"},
	{Name: "Two-phase commit", Description: "Begin Prepare (b), Prepare (P), Commit Prepared (K), Rollback Prepared (r), Stream Prepare (p) (protocol 3)",
		Text:  "620000000012345678000000008765432100000000499602d20000002a6d795f7472616e73616374696f6e00\n5001000000000000a000000000000000a10000000000499602d2000000326d795f7072657061726500\n4b00000000000000b000000000000000b100000000024cb016ea0000003c636f6d6d69745f70726570617265645f67696400\n7202000000000000c000000000000000c100000000000001b207000000000003640e00000046726f6c6c6261636b5f67696400\n7000000000000000d000000000000000d10000000000000516150000005073747265616d5f707265706172655f67696400\n",
		Proto: 3, Select: 0, Source: "pg_walstream_v3_two_phase"},
	{Name: "Keepalive", Description: "Primary keepalive (k) from the walsender: WAL end, clock, reply requested",
		Text:  "6b0000000001828c8000028d59c1e5054901\n",
		Proto: 0, Select: 0, Source: "postgrex_pgoutput_messages"},
	{Name: "Standby status update", Description: "Standby status update (r) the client sends back: written, flushed, applied LSNs",
		Text:  "72000000000000000200000000000000020000000000000002000000000000000100\n",
		Proto: 0, Select: 0, Source: "postgrex_pgoutput_messages"},
	{Name: "Truncated Begin", Description: "A Begin cut short: the error names the field, the bytes it needs and the bytes left",
		Text:  "420000000001969d180002ea\n",
		Proto: 0, Select: 0, Source: "go_pq_cdc_truncated"},
}
