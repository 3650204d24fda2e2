package runtime

import (
	"reflect"
	"testing"
)

// TestAddTallies: + of two rolls of record dice adds each field, a field one lacks counting
// 0, and the sum's kind is the union of their fields, a's first; the rules' other fields (0
// in both) stay 0, hidden from printing and JSON.
func TestAddTallies(t *testing.T) {
	a := newTally(TallyKind([]string{"s", "a"}), []int{2, 1}, []string{"s", "a", "f", "de"})
	b := newTally(TallyKind([]string{"f", "a"}), []int{3, 4}, []string{"s", "a", "f", "de"})
	sum, err := AddTallies(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Repr(sum), "{s: 2, a: 5, f: 3}"; got != want {
		t.Errorf("Repr = %s, want %s", got, want)
	}
	if got := sum.(map[string]any)["de"]; got != 0 {
		t.Errorf("a field of the rules' other dice reads %v, want 0", got)
	}
	if got, want := ToJSON(sum), any(map[string]any{"s": 2, "a": 5, "f": 3}); !reflect.DeepEqual(got, want) {
		t.Errorf("ToJSON = %v, want %v", got, want)
	}
	if TypeName(sum) != "record" || !IsTally(sum) || IsTally(map[string]any{"s": 1}) {
		t.Errorf("TypeName %s, IsTally %v", TypeName(sum), IsTally(sum))
	}
	if _, err := AddTallies(a, map[string]any{"s": 1}); err == nil {
		t.Error("a map was added to a roll of record dice")
	}
	if got, want := TallyKind([]string{"s", "a"}).Type().String(), "record {s, a}"; got != want {
		t.Errorf("type %s, want %s", got, want)
	}
}

// TypeValue names every value as TypeName does, and boxes the built-in types' names
// without allocating.
func TestTypeValue(t *testing.T) {
	kind := &Kind{Name: "Poste"}
	for _, v := range []any{nil, 1, 2.5, true, "s", []any{1}, &Roll{}, map[string]any{}, map[string]any{KindKey: kind}, []int{1}} {
		if got, want := TypeValue(v), TypeName(v); got != want {
			t.Errorf("TypeValue(%#v) = %v, want %q", v, got, want)
		}
	}
	list := any([]any{1})
	if n := testing.AllocsPerRun(100, func() { _ = TypeValue(list) }); n != 0 {
		t.Errorf("TypeValue of a list allocates %v times", n)
	}
}
