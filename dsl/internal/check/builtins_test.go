package check_test

import (
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// TestBudgetedBuiltins: the checker wraps expr-lang's builtins and operators so that rolls
// count as totals, literals and results are charged, and in, type and int speak the
// language. Each one gives its exact value, or its message.
func TestBudgetedBuiltins(t *testing.T) {
	prog, d := dsl.LoadSource("b.rules", []byte("ruleset \"b\"\ndeck jeu standard\npile main\nkind U {\n  pv: int = 3\n}\nentity u: U { }\nrule brut(x) {\n  return x\n}\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	for _, c := range []struct{ src, want, err string }{
		{src: "[sum(map(1..4, 1d1)), sum([1d1, 2]), max([1d1, 3]), min([1d1, 3]), mean([1d1, 3]), median([1, 1d1, 3])]", want: "[4, 3, 3, 1, 2.0, 1.0]"},
		{src: "[filter(1..5, # % 2 == 0), count(1..5, # > 2), find(1..5, # > 2), findIndex(1..5, # > 2)]", want: "[[2, 4], 3, 3, 2]"},
		{src: "findLast(1..5, # < 3)", want: "2"},
		{src: "findLastIndex(1..5, # < 3)", want: "1"},
		{src: "[all([1, 2], # > 0), none([1], # > 1), one([1, 2], # > 1)]", want: "[true, true, true]"},
		{src: "[groupBy([1, 2, 3], # % 2), sortBy([3, 1, 2], #), reduce(1..4, #acc + #, 0), sort([3, 1, 2]), reverse([1, 2]), uniq([1, 1, 2]), flatten([[1], [2, [3]]]), concat([1], [2])]", want: "[{0: [2], 1: [1, 3]}, [1, 2, 3], 10, [1, 2, 3], [2, 1], [1, 2], [1, 2, 3], [1, 2]]"},
		{src: `[keys({b: 1, a: 2}), values({b: 1, a: 2}), toPairs({a: 1}), fromPairs([["a", 1]]), take([1, 2, 3], 2), indexOf("abc", "b"), lastIndexOf("abcb", "b"), toJSON([1])]`, want: `[["a", "b"], [2, 1], [["a", 1]], {"a": 1}, [1, 2], 1, 3, "[\n  1\n]"]`},
		{src: `[join(["a", "b"], ","), split("a,b", ","), splitAfter("a,b", ","), replace("aa", "a", "b"), upper("a"), lower("A"), trim(" a "), trimPrefix("ab", "a"), trimSuffix("ab", "b"), fromJSON("[1]"), toBase64("a"), fromBase64("YQ==")]`, want: `["a,b", ["a", "b"], ["a,", "b"], "bb", "A", "a", "a", "b", "a", [1.0], "YQ==", "a"]`},
		{src: "[type(1), type(1.5), type(\"a\"), type(nil), type(true), type({}), type([]), type(main), type(Q♣), type(hex(1, 1)), type(u), type(1d6)]", want: `["int", "float", "string", "nil", "bool", "map", "list", "pile", "card", "hex", "U", "roll"]`},
		{src: "[1d1 + 1, 1d1 - 1, 1d1 * 2, 1d1 / 2, 5 % 1d2, 1d1 < 2, 1d1 <= 1, 1d1 > 0, 1d1 >= 1, 1d1 == 1, 1d1 != 1]", want: "[2, 0, 2, 0.5, 0, true, true, true, true, true, false]"},
		{src: "[1..3, 3..1, len(1..0)]", want: "[[1, 2, 3], [], 0]"},
		{src: `[2 in [1, 2], "a" in {a: 1}, 3 in brut(nil)]`, want: "[true, true, false]"},
		{src: "brut(3) in brut(4)", err: "<e>:1:9: in needs a list or a map, not int"},
		{src: "brut(1) in brut({a: 1})", err: "<e>:1:9: in: a map's keys are strings, not int"},
		{src: "int(brut([1]))", err: "<e>:1:1: int takes a number or a string, not list"},
		{src: "[int(1d1), int(\"3\"), int(2.9)]", want: "[1, 3, 2]"},
		{src: "len(1..100000000)", err: "<e>:1:6: memory limit reached (memory_budget = 1000000) in this expression"},
	} {
		m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := dsl.NewSession(m).Eval("<e>", c.src)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%s: err = %v, want %q", c.src, err, c.err)
		case c.err == "" && (err != nil || runtime.Repr(v) != c.want):
			t.Errorf("%s = %v, %v; want %s", c.src, runtime.Repr(v), err, c.want)
		}
	}
}
