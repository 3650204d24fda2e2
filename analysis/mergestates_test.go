package analysis

import (
	"errors"
	"strings"
	"testing"
)

// statesRules loop in ways the merged enumeration must handle: over a range (a []int, which
// the state's key must name), with states that never merge, and with a state it cannot key.
const statesRules = `
rule sum_range(n: int): int {
  let t = 0
  for i in 1..n {
    t += d(6)
  }
  return t
}

rule grow(): int {
  let t = 0
  for i in 12 {
    t = t * 7 + d(6)
  }
  return t
}

rule unkeyed(): int {
  let r = 2d6
  let t = 0
  for i in 10 {
    t = t * 7 + d(6)
  }
  return t + r
}
`

// TestMergeRangeLoop: a loop over 1..n merges as one over n does. The range's list was not
// keyed, so nothing merged: 30 d6 summed so were sampled after 2.6 s, and refused with Exact.
func TestMergeRangeLoop(t *testing.T) {
	prog := loadSource(t, statesRules)
	d := prob(t, prog, "sum_range(30)", ProbOptions{Exact: true})
	checkExact(t, d, toBrute(nFold(die(6), 30)))
	if d.Leaves > 50_000 {
		t.Errorf("sum_range(30): %d branches", d.Leaves)
	}
}

// TestMergeGivesUpOnStates: under a raised budget, a loop whose states never merge is given
// up after MaxMergeStates states, not after the budget's runs (which took minutes), and the
// refusal says so; a loop whose state cannot be keyed is estimated as a plain tree at once.
func TestMergeGivesUpOnStates(t *testing.T) {
	prog := loadSource(t, statesRules)
	for _, expr := range []string{"grow()", "unkeyed()"} {
		r, err := newRunner(Question{Prog: prog, Expr: expr, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		opt := ProbOptions{Budget: 20_000_000, Exact: true}
		opt.defaults()
		d, why, err := r.exact(opt)
		if err != nil || d != nil || why == nil {
			t.Fatalf("%s: answered (%v, %v), want over the budget", expr, d != nil, err)
		}
		// About 6 runs per state kept, plus the first attempt's.
		if r.nested > 8*MaxMergeStates {
			t.Errorf("%s: %d runs spent on the call before giving up", expr, r.nested)
		}
		if expr == "grow()" {
			if why.Unmerged == 0 || why.Unmerged > MaxMergeStates {
				t.Errorf("grow(): %d states kept", why.Unmerged)
			}
			var tb *ErrTooBig
			if !errors.As(error(why), &tb) || !strings.Contains(why.Error(), "merging the equal states of a loop was given up") {
				t.Errorf("grow(): %q does not say merging was given up", why.Error())
			}
		}
	}
}

// TestRaisedBudgetMergesFirst: under a raised budget, a tree within it but over the default
// is tried with reuse and merging before die by die: 8 d6 summed in a loop are 1,679,616
// branches plain (seconds), and a few hundred runs merged.
func TestRaisedBudgetMergesFirst(t *testing.T) {
	prog := loadSource(t, reuseRules)
	var notes []string
	d, err := Prob(Question{Prog: prog, Expr: "sum_loop(8)", Seed: 1}, ProbOptions{Budget: 10_000_000, Exact: true, Note: func(s string) { notes = append(notes, s) }})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, d, toBrute(nFold(die(6), 8)))
	if d.Leaves > 10_000 || len(notes) != 0 {
		t.Errorf("sum_loop(8): %d branches, notes %q; want merged, said nothing", d.Leaves, notes)
	}
	// eight() has no loop: nothing to merge, so the plain tree it was (with the runs of the
	// attempt to reuse it).
	d, err = Prob(Question{Prog: prog, Expr: "eight()", Seed: 1}, ProbOptions{Budget: 10_000_000, Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.Leaves < 1_679_616 || d.Leaves > 1_680_000 {
		t.Errorf("eight(): %d branches, want the plain tree's 1,679,616 and a few hundred", d.Leaves)
	}
}
