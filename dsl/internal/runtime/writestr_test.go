package runtime_test

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
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

// TestReprForms: the printed form of each kind of value, written into the writer's own
// bytes (scalars appended where they are formatted, a map's keys sorted on the stack up to
// sixteen, in a slice past them).
func TestReprForms(t *testing.T) {
	queen := &cards.Card{RankName: "Q", Value: 12, Symbol: "♣", Figure: true}
	unit := &runtime.Kind{Name: "Unité", Fields: []*runtime.Field{{Name: "pv"}, {Name: "nom"}}}
	rec := map[string]any{runtime.KindKey: unit, "pv": -3, "nom": "l'\"as\""}
	many := map[string]any{}
	var manyWant []string
	for i := 25; i >= 0; i-- {
		k := string(rune('a'+i)) + "x"
		many[k] = i * 1000
	}
	for i := 0; i <= 25; i++ {
		manyWant = append(manyWant, string(rune('a'+i))+"x: "+strconv.Itoa(i*1000))
	}
	cases := []struct {
		v    any
		want string
	}{
		{nil, "nil"},
		{true, "true"},
		{false, "false"},
		{0, "0"},
		{-1234567, "-1234567"},
		{math.MinInt64, "-9223372036854775808"},
		{3.0, "3.0"},
		{0.1 + 0.2, "0.3"},
		{-2.5, "-2.5"},
		{1e20, "1e+20"},
		{math.NaN(), "NaN"},
		{math.Inf(-1), "-Inf"},
		{"", `""`},
		{"é\n\"x\"", `"é\n\"x\""`},
		{[]any{}, "[]"},
		{[]any{1, "a", []any{true, nil}}, `[1, "a", [true, nil]]`},
		{map[string]any{}, "{}"},
		{map[string]any{"b": 2, "a]": 1, "é1": 3.5, "_": queen}, `{_: Q♣, "a]": 1, b: 2, é1: 3.5}`},
		{many, "{" + strings.Join(manyWant, ", ") + "}"},
		{rec, `Unité{pv: -3, nom: "l'\"as\""}`},
		{[]any{rec, rec}, `[Unité{pv: -3, nom: "l'\"as\""}, Unité{pv: -3, nom: "l'\"as\""}]`},
		{[]int{1, 2}, "[1, 2]"},
		{map[int]string{2: "b", 1: "a"}, `{1: "a", 2: "b"}`},
	}
	for _, c := range cases {
		if got := runtime.Repr(c.v); got != c.want {
			t.Errorf("Repr(%#v) = %s, want %s", c.v, got, c.want)
		}
		if got := string(runtime.AppendStr([]byte("> "), []any{c.v})); got != "> ["+c.want+"]" {
			t.Errorf("AppendStr([%#v]) = %s, want > [%s]", c.v, got, c.want)
		}
	}
}

// TestReprMapsOfLikeKeys: a map is printed in the order of its own keys, whatever maps of
// as many keys were printed before it (the printer reuses a key order it sorted when a map
// has the same keys), from several goroutines at once too.
func TestReprMapsOfLikeKeys(t *testing.T) {
	cases := []struct {
		v    map[string]any
		want string
	}{
		{map[string]any{"Barre": 1, "Artillerie": 2, "Voilure": 3}, "{Artillerie: 2, Barre: 1, Voilure: 3}"},
		{map[string]any{"Barre": 4, "Artillerie": 5, "Voilure": 6}, "{Artillerie: 5, Barre: 4, Voilure: 6}"},
		// As many keys, the first two the same: the last one decides.
		{map[string]any{"Barre": 1, "Artillerie": 2, "Charpente": 3}, "{Artillerie: 2, Barre: 1, Charpente: 3}"},
		{map[string]any{"Barre": 1, "Artillerie": 2, "Voilure": 3}, "{Artillerie: 2, Barre: 1, Voilure: 3}"},
		// None of the keys the same, then a key that is quoted, twice.
		{map[string]any{"z": 1, "y": 2, "x": 3}, "{x: 3, y: 2, z: 1}"},
		{map[string]any{"a]": 1, "b": 2, "é1": 3}, `{"a]": 1, b: 2, é1: 3}`},
		{map[string]any{"a]": 4, "b": 5, "é1": 6}, `{"a]": 4, b: 5, é1: 6}`},
		// Maps of other sizes in between, and a map inside a map of the same size.
		{map[string]any{"b": 1, "a": 2}, "{a: 2, b: 1}"},
		{map[string]any{"b": map[string]any{"d": 1, "c": 2}, "a": 3}, "{a: 3, b: {c: 2, d: 1}}"},
		{map[string]any{"d": 1, "c": 2}, "{c: 2, d: 1}"},
		{map[string]any{"c": 1}, "{c: 1}"},
		{map[string]any{"Voilure": 7, "Barre": 8, "Artillerie": 9}, "{Artillerie: 9, Barre: 8, Voilure: 7}"},
	}
	// Each map printed often enough that its keys are the ones kept for the next map of as
	// many keys (a kept order is replaced only by every KeyOrderPatience-th other one).
	check := func(t *testing.T) {
		for _, c := range cases {
			for range runtime.KeyOrderPatience + 1 {
				if got := runtime.Repr(c.v); got != c.want {
					t.Errorf("Repr(%#v) = %s, want %s", c.v, got, c.want)
					return
				}
				if got := string(runtime.AppendStr([]byte("> "), c.v)); got != "> "+c.want {
					t.Errorf("AppendStr(%#v) = %s, want > %s", c.v, got, c.want)
					return
				}
			}
		}
	}
	check(t)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 50 {
				check(t)
			}
		})
	}
	wg.Wait()
}

// TestReprDeepCycles: the printer tells a cycle from a shared value at every depth, past
// the values its path keeps without allocating, and forgets each value once printed (a
// value met again beside itself is shared, not a cycle), in Repr and in JSON.
func TestReprDeepCycles(t *testing.T) {
	for _, depth := range []int{1, 7, 8, 9, 12, 19} {
		// A list nested depth times, the innermost holding the outermost.
		outer := []any{nil}
		l := outer
		for range depth - 1 {
			next := []any{nil}
			l[0] = next
			l = next
		}
		l[0] = outer
		want := strings.Repeat("[", depth) + "<cycle: list>" + strings.Repeat("]", depth)
		if got := runtime.Repr(outer); got != want {
			t.Errorf("depth %d: Repr = %s, want %s", depth, got, want)
		}
		if got := runtime.ToJSON(outer); !strings.Contains(fmt.Sprint(got), "<cycle: list>") {
			t.Errorf("depth %d: ToJSON = %v, want a cycle", depth, got)
		}
		// The same depth of distinct lists around one shared list, twice side by side.
		shared := []any{1}
		v := []any{shared, shared}
		for range depth - 1 {
			v = []any{v}
		}
		want = strings.Repeat("[", depth) + "[1], [1]" + strings.Repeat("]", depth)
		if got := runtime.Repr(v); got != want {
			t.Errorf("depth %d: Repr = %s, want %s", depth, got, want)
		}
	}
}

// TestStrWholeFloats: a whole float below 1e15 shows as strconv's 'f' with no decimals
// gives it, in Str and in a template's hole (written from its int), negative zero and the
// bounds included; from 1e15 on, as Repr writes it.
func TestStrWholeFloats(t *testing.T) {
	values := []float64{0, math.Copysign(0, -1), 1, -1, 2, -3, 42, 1 << 40, -(1 << 49),
		1e15 - 1, -(1e15 - 1), 999_999_999_999_998, 123_456_789_012_345}
	for _, x := range values {
		want := strconv.FormatFloat(x, 'f', 0, 64)
		if got := runtime.Str(x); got != want {
			t.Errorf("Str(%v) = %s, want %s", x, got, want)
		}
		if got := string(runtime.AppendStr([]byte("> "), x)); got != "> "+want {
			t.Errorf("AppendStr(%v) = %s, want > %s", x, got, want)
		}
	}
	for _, x := range []float64{1e15, -1e15, 1e20, 2.5} {
		if got, want := runtime.Str(x), runtime.Repr(x); got != want {
			t.Errorf("Str(%v) = %s, want %s", x, got, want)
		}
	}
}

// TestReprMapsInTurnAllocate: maps of as many keys but other keys, printed in turn into a
// line, make no new kept key order each time (the printer's keys of like maps), nor does a
// map printed again.
func TestReprMapsInTurnAllocate(t *testing.T) {
	var maps []any
	for _, keys := range [][]string{{"a", "b", "c", "d", "e"}, {"f", "g", "h", "i", "j"}, {"a", "b", "c", "d", "z"}} {
		m := map[string]any{}
		for i, k := range keys {
			m[k] = i
		}
		maps = append(maps, m)
	}
	buf := make([]byte, 0, 256)
	if n := testing.AllocsPerRun(200, func() {
		for _, m := range maps {
			buf = runtime.AppendStr(buf[:0], m)
		}
	}); n != 0 {
		t.Errorf("printing three maps in turn allocates %v times", n)
	}
	if n := testing.AllocsPerRun(200, func() { buf = runtime.AppendStr(buf[:0], maps[0]) }); n != 0 {
		t.Errorf("printing a map again allocates %v times", n)
	}
}
