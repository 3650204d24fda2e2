package runtime

import "testing"

// holdsKind says a parameter's slot holds a record of a kind only while its typed mark is
// set, for a parameter of that very kind: otherwise the field write reads the record's kind
// from its map.
func TestHoldsKind(t *testing.T) {
	unit, army := &Kind{Name: "Unit"}, &Kind{Name: "Army"}
	p := &Proc{Params: []*Param{
		{Name: "u", Type: &Type{Kind: TRecord, Record: unit}},
		{Name: "n", Type: &Type{Kind: TInt}},
		{Name: "a", Type: &Type{Kind: TAny}},
	}}
	tests := []struct {
		name  string
		typed uint64
		proc  *Proc
		slot  int
		k     *Kind
		want  bool
	}{
		{"marked, its kind", 1, p, 1, unit, true},
		{"not marked (written since)", 0, p, 1, unit, false},
		{"another kind", 1, p, 1, army, false},
		{"an int parameter", 0b10, p, 2, unit, false},
		{"an any parameter", 0b100, p, 3, unit, false},
		{"not a parameter", ^uint64(0), p, 4, unit, false},
		{"the map (slot 0)", ^uint64(0), p, 0, unit, false},
		{"an input's frame", ^uint64(0), nil, 1, unit, false},
	}
	for _, tc := range tests {
		f := &Frame{typed: tc.typed, proc: tc.proc}
		if got := f.holdsKind(tc.slot, tc.k); got != tc.want {
			t.Errorf("%s: holdsKind = %v, want %v", tc.name, got, tc.want)
		}
	}
}
