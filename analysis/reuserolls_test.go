package analysis

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// reuseSrc makes rolls that outlive the rule that made them: kept in a record, in a list,
// as the run's value, in the state (undone after each run), and in the arguments of the
// calls an error unwinds through.
const reuseSrc = `ruleset "r"
kind Trace {
  dernier: roll
  n: int = 0
}
entity t: Trace { }
rule boum(r: roll, seuil: int): int {
  require r.total > seuil else "trop bas : {r} ({r.faces})"
  return r.total
}
action lancer(seuil: int): int {
  let a = roll("2d6")
  t.dernier = a
  t.n += 1
  return boum(a, seuil) + boum(roll("1d4"), 0)
}
rule paire(): list {
  let a = roll("1d6")
  let b = roll("2d6")
  return [a, b, {x: a, y: b.faces}]
}
`

// The runs of a simulation that make their rolls in those of the runs before count what
// runs that allocate every roll count: the same outcomes, the same lines, and the first
// run's failure naming the very roll it failed on, though hundreds of runs rolled after it.
func TestSimReuseRolls(t *testing.T) {
	prog, diags := dsl.LoadSource("r.rules", []byte(reuseSrc))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	// A seed whose first run fails: the tally keeps that failure to the end.
	var seed uint64
	var want *dsl.RuntimeError
	for seed = 1; seed < 200 && want == nil; seed++ {
		m, err := dsl.NewMachine(prog, dice.NewPCG(RunSeed(seed, 0)), nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = dsl.NewSession(m).Eval("<sim>", "lancer(7)")
		errors.As(err, &want)
	}
	seed--
	if want == nil {
		t.Fatal("no seed makes the first run fail")
	}
	defer func(old bool) { reuseRolls = old }(reuseRolls)
	for _, expr := range []string{"lancer(7)", "paire()", `roll("3d6")`, "t.dernier"} {
		var tallies [2]*Tally
		for i, on := range []bool{false, true} {
			reuseRolls = on
			tl, err := Simulate(SimConfig{Expr: expr, A: Variant{Prog: prog}, Runs: 600, Seed: seed, Workers: 2})
			if err != nil {
				t.Fatalf("%s (reuse %v): %v", expr, on, err)
			}
			tallies[i] = tl
		}
		off, on := tallies[0], tallies[1]
		if !reflect.DeepEqual(off.Outcomes, on.Outcomes) || !reflect.DeepEqual(off.Emitted, on.Emitted) {
			t.Errorf("%s: rolls reused give %v, allocated %v", expr, on.Outcomes, off.Outcomes)
		}
		if expr != "lancer(7)" {
			continue
		}
		for i, tl := range tallies {
			var got *dsl.RuntimeError
			if !errors.As(tl.Failure, &got) {
				t.Fatalf("%s: the first run's failure is %v", expr, tl.Failure)
			}
			if g, w := failureText(got), failureText(want); g != w {
				t.Errorf("reuse %v: the first run's failure reads\n%s\nwant\n%s", i == 1, g, w)
			}
		}
	}
}

// failureText is an error with its call stack and the arguments of each call.
func failureText(e *dsl.RuntimeError) string {
	s := e.Error()
	for _, f := range e.Frames {
		s += fmt.Sprintf("\n%s %s", f, dsl.Repr(f.Args))
	}
	return s
}
