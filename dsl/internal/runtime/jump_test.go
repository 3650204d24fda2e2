package runtime_test

import (
	"testing"

	"rulesh/dsl/internal/dsltest"
)

// jumpRules exercise break and continue in both loops, nested, and under a return.
const jumpRules = `rule first_six(xs: []int): int {
  let n = 0
  for x in xs {
    if x == 6 {
      break
    }
    n += 1
  }
  return n
}
rule odd_sum(k: int): int {
  let s = 0
  let i = 0
  while i < k {
    i += 1
    if i % 2 == 0 { continue }
    s += i
  }
  return s
}
rule nested(): int {
  let s = 0
  for a in 3 {
    for b in 3 {
      if b == 2 { break }
      s += 10 * a + b
    }
    if a == 2 { continue }
    s += 100
  }
  return s
}
rule early(): int {
  for a in 5 {
    if a == 2 { return 42 }
    continue
  }
  return 0
}
rule sauf_b(): string {
  let out = ""
  for k, v in ({a: 1, b: 2, c: 3}) {
    if v == 2 { continue }
    out += k
  }
  return out
}
rule forever(): int {
  let n = 0
  while true {
    n += 1
    if n == 5 { break }
  }
  return n
}
`

// TestBreakContinue: break leaves the innermost loop only, continue skips the rest of its
// body, and a return inside a loop still ends the procedure.
func TestBreakContinue(t *testing.T) {
	dsltest.CheckCases(t, jumpRules, []dsltest.Case{
		{Src: "first_six([1, 2, 6, 4])", Want: "2"},
		{Src: "first_six([1])", Want: "1"},
		{Src: "odd_sum(7)", Want: "16"},
		{Src: "nested()", Want: "263"},
		{Src: "early()", Want: "42"},
		{Src: "sauf_b()", Want: `"ac"`},
		{Src: "forever()", Want: "5"},
	})
}
