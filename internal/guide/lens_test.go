package guide

import "testing"

func TestLensValid(t *testing.T) {
	for _, c := range []struct{ in, want Lens }{
		{Lens{Release: 9}, Lens{}},
		{Lens{Release: 19, Proto: 2}, Lens{Proto: 2}},
		{Lens{Release: 13, Proto: 2}, Lens{Release: 13}}, // 13 accepts protocol 1 only
		{Lens{Release: 16, Proto: 4}, Lens{Release: 16, Proto: 4}},
		{Lens{Proto: 5}, Lens{}},
	} {
		if got := c.in.Valid(); got != c.want {
			t.Errorf("%+v.Valid() = %+v, want %+v", c.in, got, c.want)
		}
	}
	if n := (Lens{Release: 16, Proto: 1}).Name(); n != "PostgreSQL 16, protocol 1" {
		t.Errorf("name %q", n)
	}
}
