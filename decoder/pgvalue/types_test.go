package pgvalue_test

import (
	"strings"
	"testing"

	"pgoutput-inspector/decoder/pgvalue"
)

func TestTypeName(t *testing.T) {
	for _, c := range []struct {
		oid  uint32
		want string
	}{
		{16, "bool"}, {18, "char"}, {23, "int4"}, {1007, "int4[]"}, {1042, "bpchar"}, {1184, "timestamptz"},
		{1185, "timestamptz[]"}, {3802, "jsonb"}, {3807, "jsonb[]"}, {651, "cidr[]"}, {4451, "int4multirange"},
		{0, ""}, {1, ""}, {99999, ""}, {4294967295, ""},
	} {
		if got := pgvalue.TypeName(c.oid); got != c.want {
			t.Errorf("TypeName(%d) = %q, want %q", c.oid, got, c.want)
		}
	}
}

func TestBuiltinTypes(t *testing.T) {
	types := pgvalue.BuiltinTypes()
	byOID := map[uint32]pgvalue.Type{}
	for i, ty := range types {
		if i > 0 && types[i-1].OID >= ty.OID {
			t.Errorf("table not sorted by OID at %d (%d after %d)", i, ty.OID, types[i-1].OID)
		}
		if ty.Name == "" {
			t.Errorf("OID %d has no name", ty.OID)
		}
		byOID[ty.OID] = ty
		got, ok := pgvalue.LookupType(ty.OID)
		if !ok || got != ty {
			t.Errorf("LookupType(%d) = %+v, %v, want %+v", ty.OID, got, ok, ty)
		}
	}
	for _, ty := range types {
		isArray := strings.HasSuffix(ty.Name, "[]")
		if ty.Elem == 0 {
			if isArray && ty.Name != "record[]" { // record[]'s typelem is 0 in pg_type
				t.Errorf("%s (%d) is named as an array but has no element type", ty.Name, ty.OID)
			}
			continue
		}
		elem, ok := byOID[ty.Elem]
		if !ok {
			t.Errorf("%s (%d): element type %d is not in the table", ty.Name, ty.OID, ty.Elem)
			continue
		}
		if ty.Name != elem.Name+"[]" {
			t.Errorf("array %d is named %q, its element %q", ty.OID, ty.Name, elem.Name)
		}
	}
	// The copy is the caller's.
	types[0].Name = "changed"
	if pgvalue.TypeName(types[0].OID) == "changed" {
		t.Error("BuiltinTypes returned the table itself")
	}
}

// Every type with a binary codec has an array type in the table, and both decode.
func TestCodecTypesInTable(t *testing.T) {
	for _, c := range pgtypeCases() {
		if pgvalue.TypeName(c.oid) == "" {
			t.Errorf("%s (%d) is not in the type table", c.name, c.oid)
		}
		arrayOf(t, c.oid)
	}
}
