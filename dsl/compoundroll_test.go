package dsl

import (
	"testing"

	"rulesh/stdlib/dice"
)

// TestCompoundAssignRoll: `t += 1d6` on a number passed check and failed on every run
// ("cannot += 0 with 1d6 [4] = 4") where `t = t + 1d6` works: a roll in a compound
// assignment to a number now counts as its total, as in arithmetic. Each pair of rules rolls
// the same dice, so under the same seed they must agree.
func TestCompoundAssignRoll(t *testing.T) {
	const src = `
rule plus(): int {
  let t = 1
  t += 2d6
  t -= 1d4
  t *= 1d3
  return t
}
rule plain(): int {
  let t = 1
  t = t + 2d6
  t = t - 1d4
  t = t * 1d3
  return t
}
rule fplus(): float {
  let x = 0.5
  x += 1d6
  return x
}
rule fplain(): float {
  let x = 0.5
  x = x + 1d6
  return x
}
rule mplus(): int {
  let m = {"a": 1}
  m["a"] += 1d6
  return m["a"]
}
rule mplain(): int {
  let m = {"a": 1}
  m["a"] = m["a"] + 1d6
  return m["a"]
}
`
	prog, d := LoadSource("c.rules", []byte(src))
	if d.HasErrors() {
		t.Fatal(d)
	}
	for _, pair := range [][2]string{{"plus()", "plain()"}, {"fplus()", "fplain()"}, {"mplus()", "mplain()"}} {
		for seed := uint64(1); seed <= 20; seed++ {
			var got [2]any
			for i, call := range pair {
				m, err := NewMachine(prog, dice.NewPCG(seed), nil)
				if err != nil {
					t.Fatal(err)
				}
				if got[i], err = NewSession(m).Eval("<t>", call); err != nil {
					t.Fatalf("seed %d: %s: %v", seed, call, err)
				}
			}
			if got[0] != got[1] {
				t.Errorf("seed %d: %s = %v, %s = %v", seed, pair[0], got[0], pair[1], got[1])
			}
		}
	}
}
