package decoder

// reading is one way of reading context-dependent bytes.
type reading struct {
	inStream bool // the Xid field of streamed changes is present
	parallel bool // a Stream Abort carries the abort LSN and timestamp
}

// messageFields lists, per message type byte, the group and type-byte fields.
func messageGroup(typ byte) (group, typeField FieldID, ok bool) {
	switch typ {
	case 'B':
		return FieldBegin, FieldBeginType, true
	case 'M':
		return FieldMessage, FieldMessageType, true
	case 'C':
		return FieldCommit, FieldCommitType, true
	case 'O':
		return FieldOrigin, FieldOriginType, true
	case 'R':
		return FieldRelation, FieldRelationType, true
	case 'Y':
		return FieldType, FieldTypeType, true
	case 'I':
		return FieldInsert, FieldInsertType, true
	case 'U':
		return FieldUpdate, FieldUpdateType, true
	case 'D':
		return FieldDelete, FieldDeleteType, true
	case 'T':
		return FieldTruncate, FieldTruncateType, true
	case 'S':
		return FieldStreamStart, FieldStreamStartType, true
	case 'E':
		return FieldStreamStop, FieldStreamStopType, true
	case 'c':
		return FieldStreamCommit, FieldStreamCommitType, true
	case 'A':
		return FieldStreamAbort, FieldStreamAbortType, true
	case 'b':
		return FieldBeginPrepare, FieldBeginPrepareType, true
	case 'P':
		return FieldPrepare, FieldPrepareType, true
	case 'K':
		return FieldCommitPrepared, FieldCommitPreparedType, true
	case 'r':
		return FieldRollbackPrepared, FieldRollbackPreparedType, true
	case 'p':
		return FieldStreamPrepare, FieldStreamPrepareType, true
	}
	return 0, 0, false
}

// MessageName returns the protocol documentation's name of a pgoutput message type
// ("Begin", "Stream Abort"), or "" when typ is no pgoutput message type.
func MessageName(typ byte) string {
	g, _, ok := messageGroup(typ)
	if !ok {
		return ""
	}
	return g.Info().Name
}

// hasStreamXid reports whether messages of this type carry an Xid inside a streamed transaction.
func hasStreamXid(typ byte) bool {
	switch typ {
	case 'M', 'R', 'Y', 'I', 'U', 'D', 'T':
		return true
	}
	return false
}

// message decodes one pgoutput message from the cursor's position to its end.
func (s *Session) message(c *cursor, rd reading) {
	typ := c.b[c.pos]
	group, typeField, ok := messageGroup(typ)
	if !ok {
		c.leaf(FieldUnknownType, FormatByte1, 1)
		c.t.Message = len(c.t.Nodes) - 1
		c.failAt(ErrUnknownType, FieldUnknownType, c.pos-1, 0,
			detail{text: "expected a pgoutput message type (B C O R Y I U D T M S E c A b P K r p), found ", form: detailChar, ch: typ})
		return
	}
	c.t.Message = len(c.t.Nodes)
	c.t.Type = typ
	c.push(group, 0)
	c.Byte1(typeField)
	if rd.inStream && hasStreamXid(typ) {
		c.Int32(FieldStreamXid)
	}
	switch typ {
	case 'B':
		c.Int64(FieldBeginFinalLSN)
		c.Int64(FieldBeginCommitTime)
		c.Int32(FieldBeginXid)
	case 'M':
		c.Int8(FieldMessageFlags)
		c.Int64(FieldMessageLSN)
		c.String(FieldMessagePrefix)
		if n, ok := c.length(FieldMessageLength); ok {
			c.Bytes(FieldMessageContent, n)
		}
	case 'C':
		c.zeroFlags(FieldCommitFlags)
		c.Int64(FieldCommitLSN)
		c.Int64(FieldCommitEndLSN)
		c.Int64(FieldCommitTime)
	case 'O':
		c.Int64(FieldOriginLSN)
		c.String(FieldOriginName)
	case 'R':
		s.relation(c)
	case 'Y':
		c.Int32(FieldTypeOID)
		c.String(FieldTypeNamespace)
		c.String(FieldTypeName)
	case 'I':
		oid, _ := c.Int32(FieldInsertRelationOID)
		rel := s.lookup(c, oid)
		if c.marker(FieldInsertNew, 'N', "expected 'N' (new tuple), found ") {
			s.tuple(c, FieldTupleNew, rel)
		}
	case 'U':
		oid, _ := c.Int32(FieldUpdateRelationOID)
		rel := s.lookup(c, oid)
		if !c.have(FieldUpdateNew, 1) {
			break
		}
		switch c.b[c.pos] {
		case 'K':
			c.Byte1(FieldUpdateOld)
			s.tuple(c, FieldTupleKey, rel)
		case 'O':
			c.Byte1(FieldUpdateOld)
			s.tuple(c, FieldTupleOld, rel)
		}
		if c.marker(FieldUpdateNew, 'N', "expected 'K' (old key), 'O' (old tuple) or 'N' (new tuple), found ") {
			s.tuple(c, FieldTupleNew, rel)
		}
	case 'D':
		oid, _ := c.Int32(FieldDeleteRelationOID)
		rel := s.lookup(c, oid)
		if m, ok := c.Byte1(FieldDeleteOld); ok {
			switch m {
			case 'K':
				s.tuple(c, FieldTupleKey, rel)
			case 'O':
				s.tuple(c, FieldTupleOld, rel)
			default:
				c.invalid(detail{text: "expected 'K' (old key) or 'O' (old tuple), found ", form: detailChar, ch: m})
			}
		}
	case 'T':
		if n, ok := c.count(FieldTruncateRelationCount); ok {
			c.Int8(FieldTruncateOptions)
			for i := 0; i < n && c.err == nil; i++ {
				if c.have(FieldTruncateRelationOID, 4) {
					c.Int32(FieldTruncateRelationOID)
					c.t.Nodes[len(c.t.Nodes)-1].Index = int32(i + 1)
				}
			}
		}
	case 'S':
		c.Int32(FieldStreamStartXid)
		c.Int8(FieldStreamStartFirst)
	case 'E':
	case 'c':
		c.Int32(FieldStreamCommitXid)
		c.zeroFlags(FieldStreamCommitFlags)
		c.Int64(FieldStreamCommitLSN)
		c.Int64(FieldStreamCommitEndLSN)
		c.Int64(FieldStreamCommitTime)
	case 'A':
		c.Int32(FieldStreamAbortXid)
		c.Int32(FieldStreamAbortSubXid)
		if rd.parallel {
			c.Int64(FieldStreamAbortLSN)
			c.Int64(FieldStreamAbortTime)
		}
	case 'b':
		c.Int64(FieldBeginPrepareLSN)
		c.Int64(FieldBeginPrepareEndLSN)
		c.Int64(FieldBeginPrepareTime)
		c.Int32(FieldBeginPrepareXid)
		c.String(FieldBeginPrepareGID)
	case 'P':
		c.zeroFlags(FieldPrepareFlags)
		c.Int64(FieldPrepareLSN)
		c.Int64(FieldPrepareEndLSN)
		c.Int64(FieldPrepareTime)
		c.Int32(FieldPrepareXid)
		c.String(FieldPrepareGID)
	case 'K':
		c.zeroFlags(FieldCommitPreparedFlags)
		c.Int64(FieldCommitPreparedLSN)
		c.Int64(FieldCommitPreparedEndLSN)
		c.Int64(FieldCommitPreparedTime)
		c.Int32(FieldCommitPreparedXid)
		c.String(FieldCommitPreparedGID)
	case 'r':
		c.zeroFlags(FieldRollbackPreparedFlags)
		c.Int64(FieldRollbackPreparedPrepareEndLSN)
		c.Int64(FieldRollbackPreparedEndLSN)
		c.Int64(FieldRollbackPreparedPrepareTime)
		c.Int64(FieldRollbackPreparedTime)
		c.Int32(FieldRollbackPreparedXid)
		c.String(FieldRollbackPreparedGID)
	case 'p':
		c.zeroFlags(FieldStreamPrepareFlags)
		c.Int64(FieldStreamPrepareLSN)
		c.Int64(FieldStreamPrepareEndLSN)
		c.Int64(FieldStreamPrepareTime)
		c.Int32(FieldStreamPrepareXid)
		c.String(FieldStreamPrepareGID)
	}
	c.pop()
}

// zeroFlags reads a flags byte the protocol says is always 0. A non-zero value is shown, not
// rejected: PostgreSQL's own reader rejects it, but the bytes after it still decode.
func (c *cursor) zeroFlags(f FieldID) {
	c.Int8(f)
}

// marker reads a Byte1 that must be want, failing with detail plus what was found otherwise.
func (c *cursor) marker(f FieldID, want byte, expected string) bool {
	m, ok := c.Byte1(f)
	if !ok {
		return false
	}
	if m != want {
		c.invalid(detail{text: expected, form: detailChar, ch: m})
		return false
	}
	return true
}

// length reads an Int32 length and checks it against the bytes that remain, so that a length
// read from the wire never sizes anything before it is checked.
func (c *cursor) length(f FieldID) (int, bool) {
	v, ok := c.Int32(f)
	if !ok {
		return 0, false
	}
	if int32(v) < 0 {
		c.invalid(detail{text: "a length cannot be negative, found ", form: detailNum, num: int(int32(v))})
		return 0, false
	}
	return int(v), true
}

// count reads an Int32 count of items (Truncate's relations). Each item is read with its own
// bounds check, so a count larger than the bytes allow fails at the first missing item.
func (c *cursor) count(f FieldID) (int, bool) {
	v, ok := c.Int32(f)
	if !ok {
		return 0, false
	}
	if int32(v) < 0 {
		c.invalid(detail{text: "a count cannot be negative, found ", form: detailNum, num: int(int32(v))})
		return 0, false
	}
	return int(v), true
}

func (s *Session) relation(c *cursor) {
	c.Int32(FieldRelationOID)
	c.String(FieldRelationNamespace)
	c.String(FieldRelationName)
	// Any replica identity byte is shown as found: PostgreSQL's reader does not check it either.
	c.Int8(FieldRelationReplicaIdentity)
	n, ok := c.Int16(FieldRelationColumnCount)
	if !ok {
		return
	}
	for i := 0; i < int(n) && c.err == nil; i++ {
		c.push(FieldRelationColumn, int32(i+1))
		c.Int8(FieldRelationColumnFlags)
		c.String(FieldRelationColumnName)
		c.Int32(FieldRelationColumnTypeOID)
		c.SignedInt32(FieldRelationColumnTypeModifier)
		c.pop()
	}
}

// tuple reads a TupleData. rel, when known, names and types its columns.
func (s *Session) tuple(c *cursor, f FieldID, rel *Relation) {
	c.push(f, 0)
	n, ok := c.Int16(FieldTupleColumnCount)
	for i := 0; ok && i < int(n) && c.err == nil; i++ {
		c.push(FieldTupleColumn, int32(i+1))
		if kind, ok := c.Byte1(FieldColumnKind); ok {
			switch kind {
			case 'n', 'u':
			case 't', 'b':
				if l, ok := c.length(FieldColumnLength); ok {
					c.Bytes(FieldColumnValue, l)
				}
			default:
				c.invalid(detail{text: "expected 'n' (null), 'u' (unchanged TOAST), 't' (text) or 'b' (binary), found ", form: detailChar, ch: kind})
			}
		}
		c.pop()
	}
	c.pop()
}

// lookup finds the Relation a change refers to, noting in the tree when it is not known.
func (s *Session) lookup(c *cursor, oid uint32) *Relation {
	if c.err != nil {
		return nil
	}
	rel := s.relations[oid]
	if rel == nil {
		c.t.MissingRelation = oid
		return nil
	}
	c.t.Relation = rel
	return rel
}
