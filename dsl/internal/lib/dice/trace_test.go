package dice_test

import (
	"fmt"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/peek"
	"rulesh/stdlib/dice"
)

// TestEveryDrawTraced: :trace promises every roll, and d(n) inside a rule did not appear
// (only dice literals and pick did). Each draw is traced, a hand-given one marked (given),
// a literal partly given marked (partly given).
func TestEveryDrawTraced(t *testing.T) {
	prog, diags := dsl.LoadSource("t.rules", []byte(`ruleset "t"
rule jet(bonus: int): int {
  return d(6) + d(4) + bonus
}
`))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, err := dsl.NewMachine(prog, dice.NewIntQueue([]int{5, 3, 2}, dice.NewPCG(1)), nil)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	peek.Machine(m).Trace = func(depth int, line string) { lines = append(lines, fmt.Sprintf("%d %s", depth, line)) }
	s := dsl.NewSession(m)
	if _, err := s.Eval("<e>", `jet(1)`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Eval("<e>", `2d6`); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(lines, "|")
	for _, want := range []string{"1 d(6) = 5 (given)", "1 d(4) = 3 (given)", "0 roll 2d6 [2, ", "(partly given)"} {
		if !strings.Contains(got, want) {
			t.Errorf("trace %q lacks %q", got, want)
		}
	}
	lines = nil
	if _, err := s.Eval("<e>", `d(6)`); err != nil {
		t.Fatal(err)
	}
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "0 d(6) = ") || strings.Contains(lines[0], "given") {
		t.Errorf("a seeded d(6) traced as %q", lines)
	}
}
