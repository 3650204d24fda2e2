package analysis

import (
	"errors"
	"slices"
	"sync/atomic"
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

// checkLimited checks that err stopped an analysis at its hits-th run at a limit, after
// runs runs (0: any number), with the failure eval has.
func checkLimited(t *testing.T, err error, hits int, runs int64, limit string, want *dsl.RuntimeError) *ErrLimitRuns {
	t.Helper()
	var lim *ErrLimitRuns
	if !errors.As(err, &lim) {
		t.Fatalf("got %v, want too many runs at a limit", err)
	}
	if lim.Hits != hits || runs != 0 && lim.Runs != runs || lim.Limit != limit {
		t.Errorf("stopped at %d runs at %s out of %d, want %d at %s out of %d", lim.Hits, lim.Limit, lim.Runs, hits, limit, runs)
	}
	var re *dsl.RuntimeError
	if !errors.As(lim.Err, &re) {
		t.Fatalf("failure %v is not a run-time error", lim.Err)
	}
	if re.Pos != want.Pos || re.Msg != want.Msg || !slices.Equal(re.Stack(), want.Stack()) {
		t.Errorf("failure %v %q, want eval's %v %q", re, re.Stack(), want, want.Stack())
	}
	return lim
}

// TestProbStopsOnEndlessDiceLoop: a loop that rolls dice and never ends used to sample
// tens of thousands of runs, each one to max_loop_iterations (an hour); the third run at a
// limit stops it, with eval's position and call stack. Without that bound (LimitRuns < 0)
// the first runs all failing the same way stop it.
func TestProbStopsOnEndlessDiceLoop(t *testing.T) {
	prog := loadFiles(t, "testdata/endless.rules")
	want := evalFailure(t, prog, ProbName, "roule()", nil)
	if want.Pos.Line != 10 || len(want.Stack()) != 1 {
		t.Fatalf("eval's failure %v %q: the test's rules changed", want, want.Stack())
	}
	for _, opt := range []ProbOptions{{}, {Budget: 1}, {Probes: 1}} {
		_, err := within(t, 20*time.Second, func() (*Dist, error) {
			return Prob(Question{Prog: prog, Expr: "roule()", Seed: 1}, opt)
		})
		checkLimited(t, err, DefaultLimitRuns, DefaultLimitRuns, "max_loop_iterations", want)
		if opt.Budget != 0 || opt.Probes != 0 {
			continue // each run costs a whole loop: once is enough (the race run replays it)
		}
		opt.LimitRuns = -1
		_, err = within(t, 60*time.Second, func() (*Dist, error) {
			return Prob(Question{Prog: prog, Expr: "roule()", Seed: 1}, opt)
		})
		checkStopped(t, err, FailFastRuns, want)
	}
	// With --compare, the side whose runs fail stops the comparison.
	a := Question{Prog: prog, Expr: "roule()", Seed: 1, Overrides: map[string]any{"sans_fin": false}}
	b := a
	b.Overrides = nil
	_, err := within(t, 20*time.Second, func() (*Comparison, error) { return Compare(a, b, ProbOptions{}) })
	if lim := checkLimited(t, err, DefaultLimitRuns, DefaultLimitRuns, "max_loop_iterations", want); lim.Side != "B" {
		t.Errorf("side %q, want B", lim.Side)
	}
	_, err = within(t, 60*time.Second, func() (*Comparison, error) { return Compare(a, b, ProbOptions{LimitRuns: -1}) })
	checkStopped(t, err, FailFastRuns, want)
	var every *ErrEveryRunFails
	if errors.As(err, &every); every.Side != "B" {
		t.Errorf("side %q, want B", every.Side)
	}
}

// TestAnalysesStopOnSomeRunsAtALimit: a loop without end on only some runs (half of them)
// made prob run for an hour and sim for minutes: the first-runs watch never fired, as other
// runs succeed. The third run at a limit stops them, saying how many of how many runs; a
// failure that is not a limit stays an outcome; LimitRuns < 0 counts limits as outcomes.
func TestAnalysesStopOnSomeRunsAtALimit(t *testing.T) {
	prog := loadFiles(t, "testdata/endless.rules")
	want := evalFailure(t, prog, ProbName, "moitié(1)", nil)
	if want.Pos.Line != 57 {
		t.Fatalf("eval's failure %v: the test's rules changed", want)
	}
	// Two branches, one at the limit: an exact answer has the failure as an outcome.
	d, err := within(t, 20*time.Second, func() (*Dist, error) {
		return Prob(Question{Prog: prog, Expr: "moitié(1)", Seed: 1}, ProbOptions{})
	})
	if err != nil || !d.Exact || len(d.Outcomes) != 2 || d.Outcomes[1].Err == "" {
		t.Fatalf("exact: %v, %+v", err, d)
	}
	for _, opt := range []ProbOptions{{Budget: 1}, {Budget: 1, Probes: 1}} {
		_, err := within(t, 20*time.Second, func() (*Dist, error) {
			return Prob(Question{Prog: prog, Expr: "moitié(1)", Seed: 1}, opt)
		})
		lim := checkLimited(t, err, DefaultLimitRuns, 0, "max_loop_iterations", want)
		if lim.Runs < DefaultLimitRuns || lim.Runs > 40 {
			t.Errorf("%+v: stopped after %d runs", opt, lim.Runs)
		}
	}
	wantSim := evalFailure(t, prog, "<sim>", "moitié(1)", nil)
	for _, workers := range []int{1, 2} {
		_, err := within(t, 20*time.Second, func() (*Tally, error) {
			return Simulate(SimConfig{Expr: "moitié(1)", A: Variant{Prog: prog}, Runs: 100_000, Seed: 3, Workers: workers})
		})
		lim := checkLimited(t, err, DefaultLimitRuns, 0, "max_loop_iterations", wantSim)
		if lim.Runs < DefaultLimitRuns || lim.Runs > 40 {
			t.Errorf("%d workers: stopped after %d runs", workers, lim.Runs)
		}
	}
	// Counted as outcomes when asked (a few runs: each costs a whole loop).
	tally, err := within(t, 20*time.Second, func() (*Tally, error) {
		return Simulate(SimConfig{Expr: "moitié(1)", A: Variant{Prog: prog}, Runs: 12, Seed: 3, LimitRuns: -1})
	})
	if err != nil || len(tally.Outcomes) != 2 {
		t.Errorf("LimitRuns -1: %v, %v", err, tally)
	}
	// Five runs at a limit allowed: the sixth stops.
	_, err = within(t, 20*time.Second, func() (*Tally, error) {
		return Simulate(SimConfig{Expr: "moitié(1)", A: Variant{Prog: prog}, Runs: 100_000, Seed: 3, Workers: 1, LimitRuns: 6})
	})
	checkLimited(t, err, 6, 0, "max_loop_iterations", wantSim)
}

// TestSimStopsOnEndlessDiceLoop: sim's first runs all failing the same way stop it, on any
// number of workers, and on B's side of a comparison.
func TestSimStopsOnEndlessDiceLoop(t *testing.T) {
	prog := loadFiles(t, "testdata/endless.rules")
	want := evalFailure(t, prog, "<sim>", "roule()", nil)
	for _, workers := range []int{1, 2} {
		_, err := within(t, 20*time.Second, func() (*Tally, error) {
			return Simulate(SimConfig{Expr: "roule()", A: Variant{Prog: prog}, Runs: 100_000, Seed: 3, Workers: workers})
		})
		checkLimited(t, err, DefaultLimitRuns, DefaultLimitRuns, "max_loop_iterations", want)
		if workers > 1 {
			continue // each run costs a whole loop: once is enough
		}
		_, err = within(t, 60*time.Second, func() (*Tally, error) {
			return Simulate(SimConfig{Expr: "roule()", A: Variant{Prog: prog}, Runs: 100_000, Seed: 3, Workers: workers, LimitRuns: -1})
		})
		checkStopped(t, err, FailFastRuns, want)
	}
	fine := Variant{Prog: prog, Overrides: map[string]any{"sans_fin": false}}
	_, err := within(t, 20*time.Second, func() (*Tally, error) {
		return Simulate(SimConfig{Expr: "roule()", A: fine, B: &Variant{Prog: prog}, Runs: 100_000, Seed: 3})
	})
	if lim := checkLimited(t, err, DefaultLimitRuns, DefaultLimitRuns, "max_loop_iterations", want); lim.Side != "B" {
		t.Errorf("side %q, want B", lim.Side)
	}
	_, err = within(t, 60*time.Second, func() (*Tally, error) {
		return Simulate(SimConfig{Expr: "roule()", A: fine, B: &Variant{Prog: prog}, Runs: 100_000, Seed: 3, LimitRuns: -1})
	})
	checkStopped(t, err, FailFastRuns, want)
	var every *ErrEveryRunFails
	if errors.As(err, &every); every.Side != "B" {
		t.Errorf("side %q, want B", every.Side)
	}
	// A shard's first runs are its own.
	_, err = within(t, 60*time.Second, func() (*Tally, error) {
		return Simulate(SimConfig{Expr: "roule()", A: Variant{Prog: prog}, Runs: 100_000, Seed: 3, First: 50_000, Last: 100_000, LimitRuns: -1})
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
			return Simulate(SimConfig{Expr: "roule()", A: Variant{Prog: prog}, Runs: runs, Seed: 3, LimitRuns: -1})
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

// TestInterruptStopsAnalyses: a raised interrupt flag stops prob and sim at the next step
// of a run, instead of counting "interrupted" as an outcome and going on.
func TestInterruptStopsAnalyses(t *testing.T) {
	prog := loadFiles(t, "testdata/endless.rules")
	var stop atomic.Bool
	stop.Store(true)
	_, err := within(t, 20*time.Second, func() (*Dist, error) {
		return Prob(Question{Prog: prog, Expr: "tours(3)", Seed: 1, Interrupt: &stop}, ProbOptions{Budget: 1})
	})
	var intr *ErrInterrupted
	if !errors.As(err, &intr) || intr.Runs != 1 {
		t.Errorf("prob: %v, want interrupted after 1 run", err)
	}
	for _, workers := range []int{1, 2} {
		stop.Store(false)
		go func() {
			time.Sleep(20 * time.Millisecond)
			stop.Store(true)
		}()
		_, err = within(t, 20*time.Second, func() (*Tally, error) {
			return Simulate(SimConfig{Expr: "tours(3)", A: Variant{Prog: prog}, Runs: MaxRuns, Seed: 1, Workers: workers, Interrupt: &stop})
		})
		if !errors.As(err, &intr) {
			t.Errorf("sim on %d workers: %v, want interrupted", workers, err)
		}
	}
}
