package analysis

import (
	"strings"
	"testing"

	"rulesh/dsl"
)

// TestEnumOutcomesInDeclarationOrder: a result typed by an enum is listed in the enum's
// declaration order by prob, sim and their sweeps (it was alphabetical: miss, strong_hit,
// weak_hit), the order a GM reads a move's outcomes in.
func TestEnumOutcomesInDeclarationOrder(t *testing.T) {
	prog, diags := dsl.LoadSource("e.rules", []byte(`ruleset "e"
enum Outcome { miss, weak_hit, strong_hit }
option stat = 1
rule act(bonus: int): Outcome {
  let t = d(6) + stat + bonus
  if t >= 7 { return Outcome.strong_hit }
  if t >= 5 { return Outcome.weak_hit }
  return Outcome.miss
}
`))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := `"miss" "weak_hit" "strong_hit"`
	d, err := Prob(Question{Prog: prog, Expr: "act(1)"}, ProbOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range d.Outcomes {
		got = append(got, o.Text)
	}
	if strings.Join(got, " ") != want {
		t.Errorf("prob: %v, want %s", got, want)
	}
	tally, err := Simulate(SimConfig{Expr: "act(1)", A: Variant{Prog: prog}, Runs: 300, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, o := range tally.Summary(0).Outcomes {
		got = append(got, o.Text)
	}
	if strings.Join(got, " ") != want {
		t.Errorf("sim: %v, want %s", got, want)
	}
	sw, err := ParseSweep("stat=-1..2")
	if err != nil {
		t.Fatal(err)
	}
	if err := sw.Resolve(prog, "act(0)"); err != nil {
		t.Fatal(err)
	}
	ds, err := ProbSweep(Question{Prog: prog, Expr: "act(0)"}, sw, ProbOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, o := range UnionOutcomes(ds) {
		got = append(got, o.Text)
	}
	if strings.Join(got, " ") != want {
		t.Errorf("sweep: %v, want %s", got, want)
	}
}
