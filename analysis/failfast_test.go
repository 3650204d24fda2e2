package analysis

import (
	"errors"
	"slices"
	"testing"
	"time"

	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// within runs f and fails the test if it has not returned after d: an analysis that does not
// stop early would run for an hour, and the test must not hang with it.
func within[T any](t *testing.T, d time.Duration, f func() (T, error)) (T, error) {
	t.Helper()
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-time.After(d):
		t.Fatalf("still running after %v", d)
	}
	panic("unreachable")
}

// evalFailure is the failure `rulesh eval` gets from expr, compiled under name.
func evalFailure(t *testing.T, prog *dsl.Program, name, expr string, overrides map[string]any) *dsl.RuntimeError {
	t.Helper()
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), overrides)
	if err != nil {
		t.Fatal(err)
	}
	_, err = dsl.NewSession(m).Eval(name, expr)
	var re *dsl.RuntimeError
	if !errors.As(err, &re) {
		t.Fatalf("eval %s: %v, want a run-time error", expr, err)
	}
	return re
}

// checkStopped checks that err stopped an analysis after n runs with the failure eval has.
func checkStopped(t *testing.T, err error, n int64, want *dsl.RuntimeError) {
	t.Helper()
	var every *ErrEveryRunFails
	if !errors.As(err, &every) {
		t.Fatalf("got %v, want the first runs failing the same way", err)
	}
	if every.Runs != n {
		t.Errorf("stopped after %d runs, want %d", every.Runs, n)
	}
	var re *dsl.RuntimeError
	if !errors.As(every.Err, &re) {
		t.Fatalf("failure %v is not a run-time error", every.Err)
	}
	if re.Pos != want.Pos || re.Msg != want.Msg || !slices.Equal(re.Stack(), want.Stack()) {
		t.Errorf("failure %v %q, want eval's %v %q", re, re.Stack(), want, want.Stack())
	}
}

// TestProbStopsOnEndlessDiceLoop: a loop that rolls dice and never ends used to sample
// tens of thousands of runs, each one to max_loop_iterations (an hour); the first runs all
// failing the same way stop it, with eval's position and call stack.
func TestProbStopsOnEndlessDiceLoop(t *testing.T) {
	prog := loadFiles(t, "testdata/endless.rules")
	want := evalFailure(t, prog, ProbName, "roule()", nil)
	if want.Pos.Line != 10 || len(want.Stack()) != 1 {
		t.Fatalf("eval's failure %v %q: the test's rules changed", want, want.Stack())
	}
	for _, opt := range []ProbOptions{{}, {Budget: 1}, {Probes: 1}} {
		_, err := within(t, 60*time.Second, func() (*Dist, error) {
			return Prob(Question{Prog: prog, Expr: "roule()", Seed: 1}, opt)
		})
		checkStopped(t, err, FailFastRuns, want)
	}
	// With --compare, the side whose runs fail stops the comparison.
	a := Question{Prog: prog, Expr: "roule()", Seed: 1, Overrides: map[string]any{"sans_fin": false}}
	b := a
	b.Overrides = nil
	_, err := within(t, 60*time.Second, func() (*Comparison, error) { return Compare(a, b, ProbOptions{}) })
	checkStopped(t, err, FailFastRuns, want)
	var every *ErrEveryRunFails
	if errors.As(err, &every); every.Side != "B" {
		t.Errorf("side %q, want B", every.Side)
	}
}

// TestSimStopsOnEndlessDiceLoop: sim's first runs all failing the same way stop it, on any
// number of workers, and on B's side of a comparison.
func TestSimStopsOnEndlessDiceLoop(t *testing.T) {
	prog := loadFiles(t, "testdata/endless.rules")
	want := evalFailure(t, prog, "<sim>", "roule()", nil)
	for _, workers := range []int{1, 2} {
		_, err := within(t, 60*time.Second, func() (*Tally, error) {
			return Simulate(SimConfig{Expr: "roule()", A: Variant{Prog: prog}, Runs: 100_000, Seed: 3, Workers: workers})
		})
		checkStopped(t, err, FailFastRuns, want)
	}
	fine := Variant{Prog: prog, Overrides: map[string]any{"sans_fin": false}}
	_, err := within(t, 60*time.Second, func() (*Tally, error) {
		return Simulate(SimConfig{Expr: "roule()", A: fine, B: &Variant{Prog: prog}, Runs: 100_000, Seed: 3})
	})
	checkStopped(t, err, FailFastRuns, want)
	var every *ErrEveryRunFails
	if errors.As(err, &every); every.Side != "B" {
		t.Errorf("side %q, want B", every.Side)
	}
	// A shard's first runs are its own.
	_, err = within(t, 60*time.Second, func() (*Tally, error) {
		return Simulate(SimConfig{Expr: "roule()", A: Variant{Prog: prog}, Runs: 100_000, Seed: 3, First: 50_000, Last: 100_000})
	})
	checkStopped(t, err, FailFastRuns, want)
}

// TestFailuresKeptAsOutcomes: what does not stop an analysis keeps its failures as
// outcomes: a require failing on every run (a rule's answer), failures mixed with successes,
// fewer runs than FailFastRuns, a single branch.
func TestFailuresKeptAsOutcomes(t *testing.T) {
	prog := loadFiles(t, "testdata/endless.rules")
	for _, c := range []struct {
		expr    string
		opt     ProbOptions
		exact   bool
		outcome []string
	}{
		{"refuse()", ProbOptions{Samples: 500}, false, []string{"error: jamais"}},
		{"parfois()", ProbOptions{Budget: 1, Samples: 500}, false, []string{"1", "error: index 5 out of range (the list has 1 element)"}},
		{"compte()", ProbOptions{}, true, []string{"error: while loop exceeds the limit (max_loop_iterations = 100000)"}},
	} {
		d, err := within(t, 60*time.Second, func() (*Dist, error) {
			return Prob(Question{Prog: prog, Expr: c.expr, Seed: 1}, c.opt)
		})
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		var got []string
		for _, o := range d.Outcomes {
			got = append(got, o.Text)
			if o.Err != "" && o.Failure == nil {
				t.Errorf("%s: outcome %s without its failure", c.expr, o.Text)
			}
		}
		if d.Exact != c.exact || !slices.Equal(got, c.outcome) {
			t.Errorf("%s: exact %v, outcomes %q; want %v, %q", c.expr, d.Exact, got, c.exact, c.outcome)
		}
		if !c.exact && d.Samples != c.opt.Samples {
			t.Errorf("%s: %d samples, want %d", c.expr, d.Samples, c.opt.Samples)
		}
	}
	for _, runs := range []int64{5, FailFastRuns - 1} {
		tally, err := within(t, 60*time.Second, func() (*Tally, error) {
			return Simulate(SimConfig{Expr: "roule()", A: Variant{Prog: prog}, Runs: runs, Seed: 3})
		})
		if err != nil {
			t.Fatalf("%d runs: %v", runs, err)
		}
		if tally.Runs != runs || len(tally.Outcomes) != 1 || tally.Failure == nil {
			t.Errorf("%d runs: %d runs, %v outcomes, failure %v", runs, tally.Runs, tally.Outcomes, tally.Failure)
		}
	}
	tally := simulate(t, SimConfig{Expr: "parfois()", A: Variant{Prog: prog}, Runs: 200, Seed: 3, Workers: 2})
	if len(tally.Outcomes) != 2 || tally.Runs != 200 {
		t.Errorf("parfois(): %d runs, outcomes %v", tally.Runs, tally.Outcomes)
	}
}

// TestFailWatch: which sequences of runs stop an analysis.
func TestFailWatch(t *testing.T) {
	const maxSteps = 1000
	loop := &dsl.RuntimeError{Pos: dsl.Pos{File: "a.rules", Line: 3, Col: 1}, Msg: "while loop exceeds the limit"}
	elsewhere := &dsl.RuntimeError{Pos: dsl.Pos{File: "a.rules", Line: 9, Col: 1}, Msg: loop.Msg}
	req := &dsl.RuntimeError{Pos: loop.Pos, Msg: "no", Require: true}
	type run struct {
		err   error
		steps int
	}
	repeat := func(n int, r run) []run { return slices.Repeat([]run{r}, n) }
	for _, c := range []struct {
		name    string
		runs    []run
		ordered bool
		stopAt  int // the run (from 1) that stops, 0 for none
	}{
		{"the same failure FailFastRuns times", repeat(FailFastRuns+5, run{loop, 10}), false, FailFastRuns},
		{"one fewer", repeat(FailFastRuns-1, run{loop, 10}), false, 0},
		{"a success first", append([]run{{nil, 1}}, repeat(FailFastRuns+5, run{loop, 10})...), false, 0},
		{"a success among them", slices.Concat(repeat(5, run{loop, 10}), []run{{nil, 1}}, repeat(FailFastRuns, run{loop, 10})), false, 0},
		{"the same message elsewhere", slices.Concat(repeat(5, run{loop, 10}), []run{{elsewhere, 10}}, repeat(FailFastRuns, run{loop, 10})), false, 0},
		{"a require", repeat(FailFastRuns+5, run{req, 10}), false, 0},
		{"costly runs", repeat(5, run{loop, maxSteps / 2}), false, failFastFew},
		{"one costly run alone", []run{{loop, maxSteps}}, false, 0},
		{"ordered leaves, cheap", repeat(FailFastRuns+5, run{loop, 10}), true, 0},
		{"ordered leaves, costly", repeat(5, run{loop, maxSteps}), true, failFastFew},
		{"ordered leaves, costly past the first", slices.Concat(repeat(FailFastRuns, run{loop, 1}), repeat(5, run{loop, maxSteps})), true, 0},
	} {
		var w failWatch
		stopped := 0
		for i, r := range c.runs {
			if err := w.see(r.err, r.steps, maxSteps, c.ordered); err != nil {
				if stopped != 0 {
					t.Errorf("%s: stopped twice, at %d and %d", c.name, stopped, i+1)
				}
				stopped = i + 1
			}
		}
		if stopped != c.stopAt {
			t.Errorf("%s: stopped at run %d, want %d", c.name, stopped, c.stopAt)
		}
	}
}
