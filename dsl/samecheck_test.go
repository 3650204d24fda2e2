package dsl_test

import (
	"errors"
	"testing"

	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// TestSameTextChecksOnce: an expression written again in another procedure reuses the
// first one's check only where it means the same. A name that is a parameter in one and a
// global in the other (of the same type) is read from the globals where it is one, and a
// call of a procedure keeps its own call site.
func TestSameTextChecksOnce(t *testing.T) {
	const src = `kind Unit {
  pv: int = 3
}
entity u: Unit {}
rule a(u: Unit): int {
  return u.pv + 1
}
rule b(): int {
  return u.pv + 1
}
rule boom(x: int): int {
  let l = [1]
  return l[x + 5]
}
rule c(): int {
  return boom(0)
}
rule e(): int {
  return boom(0)
}
`
	for _, load := range []loader{dsl.LoadSource, checkSource} {
		prog, d := load("s.rules", []byte(src))
		if d.HasErrors() {
			t.Fatal(d)
		}
		m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		s := dsl.NewSession(m)
		for in, want := range map[string]any{"a(Unit({pv: 5}))": 6, "b()": 4} {
			if v, err := s.Eval("<e>", in); err != nil || v != want {
				t.Errorf("%s = %v, %v; want %v", in, v, err, want)
			}
		}
		for in, site := range map[string]string{"c()": "s.rules:16:10", "e()": "s.rules:19:10"} {
			_, err := s.Eval("<e>", in)
			var re *dsl.RuntimeError
			if !errors.As(err, &re) || len(re.Frames) == 0 || re.Frames[0].String() != "in boom called at "+site {
				t.Errorf("%s: %v, want boom called at %s", in, err, site)
			}
		}
	}
}
