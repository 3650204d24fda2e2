package runtime_test

import (
	"fmt"
	"strings"
	"testing"

	"rulesh/dsl/internal/runtime"
)

// TestWithArticle: "an" before a vowel sound, accented capitals included (kinds are often
// French), "a" before a consonant and before the "you" sound of unit or user.
func TestWithArticle(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"roll", "a roll"},
		{"Unit", "a Unit"},
		{"unit", "a unit"},
		{"user", "a user"},
		{"Arme", "an Arme"},
		{"int", "an int"},
		{"Écaille", "an Écaille"},
		{"éclaireur", "an éclaireur"},
		{"Officier", "an Officier"},
		{"hour", "an hour"},
		{"Héros", "a Héros"},
		{"Brigade", "a Brigade"},
		{"A", "an A"},
		{"F", "an F"},
		{"U", "a U"},
		{"B", "a B"},
		{"", "a "},
	} {
		if got := runtime.WithArticle(c.name); got != c.want {
			t.Errorf("WithArticle(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestRecordExpectedArticle: a value that is not of a record's kind, given where one is
// declared, is said with the article the kind's name asks ("expected an Arme", not "a Arme").
func TestRecordExpectedArticle(t *testing.T) {
	const src = `ruleset "a"
kind Arme {
  portée: int = 1
}
kind Brigade {
  force: int = 1
}
rule id(x) {
  return x
}
rule portée(a: Arme): int {
  return a.portée
}
rule force(b: Brigade): int {
  return b.force
}
`
	for _, c := range []struct{ expr, want string }{
		{"portée(id(3))", "expected an Arme, got 3"},
		{"force(id(3))", "expected a Brigade, got 3"},
	} {
		_, _, err := run(t, src, c.expr)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want one containing %q", c.expr, err, c.want)
		}
	}
}

// TestNumberArgs: which arguments a function's signatures make numbers, for each count of
// arguments: one every signature of that count takes as int or float (a roll accepted if
// one takes a roll there); one any signature takes as something else is left alone.
func TestNumberArgs(t *testing.T) {
	roll := &runtime.Roll{Total: 5} // accepted, never shown
	for _, c := range []struct {
		name  string
		skip  int
		types []any
		args  []any
		err   string
	}{
		{"div", 0, []any{new(func(int, int) int)}, []any{1, 2.5}, ""},
		{"div", 0, []any{new(func(int, int) int)}, []any{1, "x"}, `div: argument 2 must be a number, got "x" (a string)`},
		{"div", 0, []any{new(func(int, int) int)}, []any{[]any{1}, 1}, "div: argument 1 must be a number, got [1] (a list)"},
		{"floor", 0, []any{new(func(float64) int), new(func(*runtime.Roll) int)}, []any{roll}, ""},
		{"floor", 0, []any{new(func(float64) int), new(func(*runtime.Roll) int)}, []any{nil}, "floor: argument 1 must be a number or a roll, got nil"},
		// roll(die) or roll(die, n): the die is left to the builtin, n is a number.
		{"roll", 1, []any{new(func(*runtime.Machine, string) *runtime.Roll), new(func(*runtime.Machine, int) *runtime.Roll), new(func(*runtime.Machine, string, int) *runtime.Roll)}, []any{"x"}, ""},
		{"roll", 1, []any{new(func(*runtime.Machine, string) *runtime.Roll), new(func(*runtime.Machine, string, int) *runtime.Roll)}, []any{"x", true}, "roll: argument 2 must be a number, got true (a bool)"},
		// A variadic tail of any is not checked, beyond every fixed count either.
		{"count", 0, []any{new(func(*runtime.Roll, ...any) int)}, []any{roll, "a", "b", "c", "d"}, ""},
		// A roll alone where every signature takes one.
		{"count", 0, []any{new(func(*runtime.Roll, ...any) int)}, []any{"x", 1}, `count: argument 1 must be a roll, got "x" (a string)`},
		{"count", 0, []any{new(func(*runtime.Roll, ...any) int)}, []any{2.5}, "count: argument 1 must be a roll, got 2.5 (a float)"},
		{"str", 0, []any{new(func(any) string)}, []any{"x"}, ""},
	} {
		err := runtime.NewNumberArgs(c.name, c.skip, c.types).Check(c.args)
		if got := fmt.Sprint(err); (c.err == "" && err != nil) || (c.err != "" && !strings.HasPrefix(got, c.err)) {
			t.Errorf("%s%v: err = %v, want %q", c.name, c.args, err, c.err)
		}
	}
	if runtime.NewNumberArgs("str", 0, []any{new(func(any) string)}) != nil {
		t.Error("a function that takes no number has a check")
	}
}
