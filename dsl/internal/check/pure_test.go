package check

import (
	"fmt"
	"strings"
	"testing"
)

// pureHead declares what the cases of TestPureRules use: a kind with a map field, an
// entity, a deck, a pile and an action.
const pureHead = `kind K {
  v: int
  m: map
}
entity e: K { v: 1 }
deck jeu
pile main
action act(k: K) {
  k.v = 2
}
// each case starts on line 12
`

// pureFix is the detail every purity error of rule r ends with.
func pureFixOf(r string) string {
	return "write `action " + r + "(…)` if " + r + " should change the state"
}

// A rule reads, rolls, emits and builds, but changes nothing it did not build: each case is
// the body of rules after pureHead (line 12 onwards) and the errors it gets, exactly.
func TestPureRules(t *testing.T) {
	fieldFix := "a rule may assign only the fields of a local holding a record it built (let r = Kind({…}) or a map literal); " + pureFixOf("r")
	actFix := "act is an action (declared at t.rules:8:1), and a rule cannot change the run's state; " + pureFixOf("r")
	builtinFix := "a rule cannot change the run's state; " + pureFixOf("r")
	cases := []struct {
		name, src string
		want      []string
	}{
		{"reads, rolls, emits and calls rules", `rule lire(k: K): int {
  return k.v + e.v + len(main.cards) + passes(jeu, main)
}
rule r(k: K): int {
  let x = lire(k) + 1d6
  emit "{k.v} et {x}"
  require x > 0 else "jamais"
  return x
}`, nil},
		{"its own records and maps", `rule r(k: K): K {
  let n = K({v: k.v})
  n.v += 1d6
  n.m = {a: 1}
  let o = {a: 1}
  o["b"] = 2
  o.a = 3
  if n.v > 3 {
    n.v = 3
  }
  n = K()
  n.v = 1
  return n
}`, nil},
		{"a parameter's field", `rule r(k: K) {
  k.v = 3
}`, []string{"13:3: rule r cannot assign k.v: it did not build that record (" + fieldFix + ")"}},
		{"an entity's field and map entry", `rule r() {
  e.v += 1
  e.m["a"] = 1
}`, []string{
			"13:3: rule r cannot assign e.v: it did not build that record (" + fieldFix + ")",
			`14:3: rule r cannot assign e.m["a"]: it did not build that record (` + fieldFix + ")",
		}},
		{"a field of its own record's field", `rule r() {
  let n = K()
  n.m["a"] = 1
}`, []string{`14:3: rule r cannot assign n.m["a"]: it did not build that record (` + fieldFix + ")"}},
		{"a loop variable", `rule r(l: []K) {
  for k in l {
    k.v = 0
  }
}`, []string{"14:5: rule r cannot assign k.v: it did not build that record (" + fieldFix + ")"}},
		{"another local holding its record", `rule r() {
  let n = K()
  let alias = n
  alias.v = 1
}`, []string{"15:3: rule r cannot assign alias.v: it did not build that record (" + fieldFix + ")"}},
		{"its own local given a parameter later", `rule r(k: K) {
  let n = K()
  for i in 1..2 {
    n.v = i
    n = k
  }
}`, []string{"15:5: rule r cannot assign n.v: n may hold a record it did not build (n is given another value at t.rules:16:5; " + pureFixOf("r") + ")"}},
		{"an action", `rule r(k: K) {
  act(k)
}`, []string{"13:3: rule r cannot call action act (" + actFix + ")"}},
		{"an action inside an expression and a default", `rule r(k: K, x = act(e)) {
  let l = map(1..2, act(k))
}`, []string{
			"12:18: rule r cannot call action act (" + actFix + ")",
			"13:21: rule r cannot call action act (" + actFix + ")",
		}},
		{"every builtin that changes the state", `rule r(c: card) {
  shuffle(jeu)
  let a = draw(jeu)
  let b = draw(jeu, 2)
  deal(jeu, main, 1)
  play(main, c)
  play(main, c, jeu)
  move(jeu, main, c)
  allow(jeu, main, 1)
  pass(jeu, main, c)
}`, []string{
			"13:3: rule r cannot call shuffle: it changes the run's state (" + builtinFix + ")",
			"14:11: rule r cannot call draw: it changes the run's state (" + builtinFix + ")",
			"15:11: rule r cannot call draw: it changes the run's state (" + builtinFix + ")",
			"16:3: rule r cannot call deal: it changes the run's state (" + builtinFix + ")",
			"17:3: rule r cannot call play: it changes the run's state (" + builtinFix + ")",
			"18:3: rule r cannot call play: it changes the run's state (" + builtinFix + ")",
			"19:3: rule r cannot call move: it changes the run's state (" + builtinFix + ")",
			"20:3: rule r cannot call allow: it changes the run's state (" + builtinFix + ")",
			"21:3: rule r cannot call pass: it changes the run's state (" + builtinFix + ")",
		}},
		{"in a template's hole and a condition", `rule r(k: K) {
  emit "{act(k)}"
  if len(draw(jeu, 2)) > 0 {
  }
}`, []string{
			"13:10: rule r cannot call action act (" + actFix + ")",
			"14:10: rule r cannot call draw: it changes the run's state (" + builtinFix + ")",
		}},
		{"a table calling an action", `table r(x) {
  1 : act(e)
  else : 0
}`, []string{"13:7: table r cannot call action act (act is an action (declared at t.rules:8:1), and a table cannot change the run's state; do this in an action)"}},
		{"an action may do all of it", `action r(k: K, c: card) {
  k.v = 3
  e.m["a"] = 1
  act(k)
  shuffle(jeu)
  pass(jeu, main, c)
}`, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := checkSource(t, "t.rules", []byte(pureHead+tc.src+"\n"))
			var got []string
			for _, d := range c.Diags {
				s := fmt.Sprintf("%d:%d: %s", d.Pos.Line, d.Pos.Col, d.Summary)
				if d.Detail != "" {
					s += " (" + d.Detail + ")"
				}
				got = append(got, s)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
