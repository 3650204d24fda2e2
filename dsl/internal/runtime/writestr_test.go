package runtime_test

import (
	"math"
	"strings"
	"testing"

	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/cards"
)

// TestAppendStrIsStr: a template's hole written into the line gives the bytes Str gives,
// after text already in the buffer too (the printed form's size bound counts from the
// hole, not from the line's start).
func TestAppendStrIsStr(t *testing.T) {
	long := make([]any, 0, 200_000)
	for i := range 200_000 {
		long = append(long, strings.Repeat("x", i%7))
	}
	queen := &cards.Card{RankName: "Q", Value: 12, Symbol: "♣", Figure: true}
	joker := &cards.Card{RankName: "Joker1", Joker: true}
	cycle := map[string]any{"a": 1}
	cycle["self"] = cycle
	unit := &runtime.Kind{Name: "Unité", Fields: []*runtime.Field{{Name: "pv"}, {Name: "main"}}}
	hand := &cards.Pile{Name: "main du canonnier", Cards: []*cards.Card{queen, joker, queen}}
	rec := map[string]any{runtime.KindKey: unit, "pv": 3, "main": hand}
	values := []any{nil, "", "é", 0, 7, 255, 256, -12, 1 << 62, true, false, 2.0, 2.5, math.Copysign(0, -1),
		[]any{}, []any{1, "a", []any{true}}, map[string]any{}, map[string]any{"b": 2, "a": []any{1}},
		cycle, long, []any{long, long}, []int{1, 2}, map[string]int{"x": 1}, queen, joker, []any{queen, joker},
		&cards.Pile{Name: "pioche"}, hand, rec, []any{rec, rec}, map[string]any{"u": rec, "n": nil}}
	for _, prefix := range []string{"", "Assaut 1 : ", strings.Repeat("y", runtime.MaxReprBytes-10)} {
		for i, v := range values {
			got := string(runtime.AppendStr([]byte(prefix), v))
			if want := prefix + runtime.Str(v); got != want {
				t.Errorf("value %d after %d bytes: AppendStr wrote %d bytes %.60q…, Str gives %d bytes %.60q…",
					i, len(prefix), len(got), got[len(prefix):], len(want), want[len(prefix):])
			}
		}
	}
}

// TestStrOfStringerIsRepr: Str gives a value with its own printed form (a card, a hex) its
// String without going through Repr, which must be what Repr prints for it.
func TestStrOfStringerIsRepr(t *testing.T) {
	for _, v := range []any{&cards.Card{RankName: "10", Value: 10, Symbol: "♥", Red: true},
		&cards.Card{RankName: "Joker2", Joker: true}, &cards.Pile{Name: "main"}, stringer("« x »"), stringer("")} {
		if got, want := runtime.Str(v), runtime.Repr(v); got != want {
			t.Errorf("%T: Str %q, Repr %q", v, got, want)
		}
	}
}

// stringer is a value of a library type that prints itself.
type stringer string

func (s stringer) String() string { return string(s) }
