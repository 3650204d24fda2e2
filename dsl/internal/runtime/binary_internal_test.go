package runtime

import (
	"fmt"
	"math"
	"testing"
)

// Binary gives two ints what RollArith gives them and two strings what Equal gives them (its
// shortcut for those operands skips their checks, not their rules): wrapping arithmetic,
// / and powers as floats, % by zero an error, strings ordered as strings.
func TestBinaryShortcutsMatchTheGeneralPath(t *testing.T) {
	prog := &Program{Globals: map[string]Global{}, Equal: func(a, b any) bool { return a == b }}
	m, err := NewMachine(prog, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ops := []string{"+", "-", "*", "/", "%", "**", "^", "<", "<=", ">", ">=", "==", "!="}
	ints := []int{0, 1, -1, 7, 2, 1023, 1024, -257, math.MaxInt, math.MinInt}
	for _, op := range ops {
		for _, x := range ints {
			for _, y := range ints {
				got, gotErr := m.Binary(op, x, y)
				want, wantErr := RollArith(op, x, y)
				if fmt.Sprintf("%#v %v", got, gotErr) != fmt.Sprintf("%#v %v", want, wantErr) {
					t.Errorf("%d %s %d: %#v, %v; RollArith gives %#v, %v", x, op, y, got, gotErr, want, wantErr)
				}
			}
		}
	}
	strs := []string{"", "a", "b", "ab", "é"}
	for _, op := range []string{"==", "!="} {
		for _, x := range strs {
			for _, y := range strs {
				got, err := m.Binary(op, x, y)
				eq, _ := m.Equal(x, y)
				if err != nil || got != (eq == (op == "==")) {
					t.Errorf("%q %s %q: %v, %v; Equal gives %v", x, op, y, got, err, eq)
				}
			}
		}
	}
	if got, err := m.Binary("<", "a", "b"); got != true || err != nil {
		t.Errorf(`"a" < "b": %v, %v`, got, err)
	}
	if got, err := m.Binary("+", "a", "b"); got != "ab" || err != nil {
		t.Errorf(`"a" + "b": %v, %v`, got, err)
	}
}

// Equal still walks lists and maps, and a list met again (a cycle, a shared element) is
// taken as equal, once the map of the pairs seen is made only for them.
func TestEqualWalksCollections(t *testing.T) {
	m, err := NewMachine(&Program{Globals: map[string]Global{}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	shared := []any{1, "a"}
	cyclic := []any{0}
	cyclic[0] = cyclic
	other := []any{0}
	other[0] = other
	for _, c := range []struct {
		a, b any
		want bool
	}{
		{[]any{1, shared}, []any{1, []any{1, "a"}}, true},
		{[]any{1, shared}, []any{1, []any{1, "b"}}, false},
		{map[string]any{"a": shared}, map[string]any{"a": []any{1, "a"}}, true},
		{map[string]any{"a": 1}, map[string]any{"b": 1}, false},
		{cyclic, other, true},
		{1, 1, true},
		{"a", "b", false},
	} {
		if got, err := m.Equal(c.a, c.b); got != c.want || err != nil {
			t.Errorf("Equal(%v, %v) = %v, %v; want %v", Repr(c.a), Repr(c.b), got, err, c.want)
		}
	}
}
