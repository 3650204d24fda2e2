package runtime_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"rulesh/dsl"
	"rulesh/dsl/internal/peek"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

const messagesRules = `
ruleset "m"
deck jeu standard {
}
pile main
dice combat = [sabre, fusil, boulet]
kind Unit {
  nom: string
  pv: int = 3
  tags: []string
}
entity u: Unit { nom: "U" }
map champ {
  rows {
    ". . ."
    ". . ."
  }
  legend "." plaine
}
rule f(x: int): int {
  return x + 1
}
`

// goisms are pieces of Go that must never reach a user.
var goisms = []string{"interface {}", "*dsl.", "dsl.", "runtime.", "map[string]", "[]i", "[]s", "[]*", "[]a", "[]f", "runtime error", "panic", "goroutine", "reflect", "*cards.", "*hex.", "*dice.", "0x", "interface conversion", "__", "%!", "<nil>", "Go value"}

// badInputs are expressions and statements a hostile or clumsy user may type.
var badInputs = []string{
	`sum(map(1..3, 1d6))`, `[1] + [2]`, `1d6 + "a"`, `"a" + 1d6`, `string(1d6)`, `groupBy([1, 2], # % 2)`,
	`ring(hex(1, 1), -1)`, `hex_range(hex(1,1), -2)`, `1d6 + [1]`, `[1] + 1d6`, `[1] - [2]`, `{} + {}`,
	`reduce(1..3, #acc + "x", 1d6)`, `reduce(1..3, #acc * [1], 1)`, `u + 1`, `u.pv + "a"`, `jeu + 1`,
	`main - 1`, `hex(1, 1) + 1`, `champ + 1`, `combat + 1`, `roll(combat) + "x"`, `draw(jeu) + 1`,
	`max([1, "a"])`, `min(u)`, `sum(["a", 1])`, `sum([u])`, `mean(["a"])`, `sort([1, "a"])`,
	`1 / 0`, `1 % 0`, `u.pv / 0`, `[1][5]`, `u.nope`, `f("a")`, `f(u)`, `f(1, 2)`, `len(1)`,
	`repeat("a", -3)`, `u.tags + 1`, `u.tags[0]`, `keys(1)`, `join([1, 2])`, `upper(1)`,
	`int("abc")`, `float("x")`, `split(1, 2)`, `1d6 > "a"`, `"a" < 1`, `draw(jeu, -1)`,
	`deal(jeu, main, -2)`, `first(1)`, `fromJSON("{")`, `toJSON(u)`, `{"a": 1}.b.c`, `nil + 1`, `nil.x`,
	`take([1], -1)`, `1..3 + 1`, `[1, 2] | map(# + "a")`, `reduce([], #acc)`, `find([1], # > "a")`,
	`roll(1)`, `roll("3d")`, `d(-1)`, `d(0)`, `entities("Nope")`, `point(champ, "x")`, `terrain(1, 2)`,
	`line(1, 2)`, `neighbours(1)`, `hex_distance("a", 1)`, `card("ZZ")`, `play(main, "A♠")`, `shuffle(1)`,
	`toPairs(1)`, `fromPairs([1])`, `flatten(1)`, `uniq(1)`, `concat(1, 2)`, `values(1)`,
	`(1d6).nope`, `1d6[0]`, `u[1]`, `[1]["a"]`, `"abc"[10]`, `"abc"[1:0]`,
	`len(nil)`, `keys(nil)`, `values(nil)`, `fromJSON("1e999")`, `fromJSON("[1, 2")`, `u.nope.x`, `nil.x`,
	`first(nil)`, `upper(nil)`, `sum(nil)`, `u.tags[0].x`, `bitshr(1, -1)`,
}

// badStatements are statements typed at the REPL.
var badStatements = []string{
	`u.pv = "a"`, `u.nope = 1`, `let x: int = "a"`, `u.tags += 1`, `for x in 3.5 { }`, `for x in u.pv + 0.5 { }`,
	`let m = 1` + "\n" + `m["a"] = 1`, `u.pv += "a"`, `let s = "a"` + "\n" + `s -= 1`,
}

// TestNoGoInMessages scans the errors (and printed results) of many bad inputs for Go.
func TestNoGoInMessages(t *testing.T) {
	prog, d := dsl.LoadSource("m.rules", []byte(messagesRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	check := func(src, out string) {
		for _, g := range goisms {
			if strings.Contains(out, g) {
				t.Errorf("%s: %q shows Go (%q)", src, out, g)
				return
			}
		}
	}
	for _, src := range badInputs {
		m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := dsl.NewSession(m).Eval("<e>", src)
		if testing.Verbose() {
			t.Logf("%s → %v %v", src, runtime.Repr(v), err)
		}
		if err != nil {
			check(src, err.Error())
		} else {
			check(src, runtime.Repr(v))
		}
	}
	for _, src := range badStatements {
		m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := dsl.NewSession(m).Exec("<e>", src); err != nil {
			check(src, err.Error())
		}
	}
}

// FuzzRuntimeMessages evaluates arbitrary expressions against a ruleset with every kind of
// value: nothing panics, and no error shows Go. Seeds: the bad inputs above.
func FuzzRuntimeMessages(f *testing.F) {
	for _, s := range badInputs {
		f.Add(s)
	}
	prog, d := dsl.LoadSource("m.rules", []byte(messagesRules))
	if d.HasErrors() {
		f.Fatal(d)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if !utf8.ValidString(src) {
			t.Skip("inputs are validated as UTF-8 before they reach the compiler")
		}
		m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		peek.Machine(m).Limits.MaxSteps = 100_000
		peek.Machine(m).Limits.MemoryBudget = 100_000
		v, err := dsl.NewSession(m).Eval("<e>", src)
		out := runtime.Repr(v)
		if err != nil {
			out = err.Error()
		}
		for _, g := range []string{"interface {}", "*dsl.", "runtime error", "goroutine", "[]interface", "map[string]interface"} {
			if strings.Contains(out, g) {
				t.Fatalf("%q: %q shows Go (%q)", src, out, g)
			}
		}
	})
}
