package repl

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"rulesh/analysis"
	"rulesh/cmd/rulesh/internal/output"
	"rulesh/dsl"
)

// DefaultSimRuns is how many runs :sim does without N: as many as `rulesh sim` without
// --runs.
const DefaultSimRuns = 10000

// simName names the expression of :sim in its diagnostics, as `rulesh sim` names it.
const simName = "<sim>"

// sim answers :sim [N] EXPR as `rulesh sim` does (analysis.Simulate): N runs of EXPR, each
// from the rules as loaded with the options as :set has them and a seed of its own drawn
// from the session's seed, summarised in the same table, and charted where pictures are
// shown. A first word that is a whole number is N. The progress hook, when set, hears how
// many runs are done; Ctrl-C stops the runs.
func (s *Shell) sim(arg string) {
	runs := int64(DefaultSimRuns)
	if i := strings.IndexAny(arg, " \t"); i > 0 {
		first, rest := arg[:i], arg[i+1:]
		// A whole number too large for an int64 is still N (and refused as one), not
		// the start of an expression.
		if n, err := strconv.ParseInt(first, 10, 64); err == nil || errors.Is(err, strconv.ErrRange) {
			if err != nil || n < 1 || n > analysis.MaxRuns {
				s.errorf(":sim N must be between 1 and %d", analysis.MaxRuns)
				return
			}
			runs, arg = n, strings.TrimSpace(rest)
		}
	}
	if arg == "" {
		s.errorf(":sim [N] EXPR: %d runs (or N) of an expression, each from the rules as loaded, counted", DefaultSimRuns)
		return
	}
	expr := withLets(s.lets, arg)
	cfg := analysis.SimConfig{Expr: expr, A: analysis.Variant{Prog: s.prog, Overrides: s.overrides()},
		Runs: runs, Seed: s.seed, Interrupt: &s.interrupt}
	srcs := []dsl.Sources{{simName: []byte(expr)}, s.prog.Sources()}
	if err := analysis.CheckSim(cfg); err != nil {
		s.failed = true
		output.Error(s.stdout, err, srcs...)
		return
	}
	if s.progress != nil {
		// Said when the whole percentage changes, so that a host that shows it (the page's
		// bar) is not called a million times.
		shown := int64(-1)
		s.progress(0, runs)
		cfg.Progress = func(done int64) {
			if pc := 100 * done / runs; pc != shown {
				shown = pc
				s.progress(done, runs)
			}
		}
	}
	t, err := analysis.Simulate(cfg)
	if err != nil {
		s.simFailed(err, arg, srcs)
		return
	}
	if len(t.Outcomes) == 1 {
		for _, o := range t.Outcomes {
			if o.Kind == analysis.KindError {
				// Every run fails, and the same way: a mistake, not a result (as sim says).
				s.errorf(":sim every run of %s fails: %s", arg, strings.TrimPrefix(o.Text, "error: "))
				if t.Failure != nil {
					output.Error(s.stdout, t.Failure, srcs...)
				}
				return
			}
		}
	}
	sum := t.Summary(0)
	fmt.Fprintf(s.stdout, "%s: %d runs, seed %d\n", arg, runs, s.seed)
	output.SimSummary(s.stdout, sum)
	if s.picture != nil && len(sum.Outcomes) > 0 {
		var labels []string
		series := []output.Series{{Name: arg}}
		for _, o := range sum.Outcomes {
			labels = append(labels, o.Text)
			series[0].Values = append(series[0].Values, o.Frequency)
		}
		title := fmt.Sprintf("%s — %d runs, seed %d", arg, runs, s.seed)
		if svg, err := chartSVG(output.Chart{Title: title, Labels: labels, Series: series, YLabel: "frequency"}); err == nil {
			s.picture(svg)
		}
	}
}

// simFailed says why :sim has no answer, as `rulesh sim` says it.
func (s *Shell) simFailed(err error, src string, srcs []dsl.Sources) {
	var every *analysis.ErrEveryRunFails
	var limits *analysis.ErrLimitRuns
	var stopped *analysis.ErrInterrupted
	switch {
	case errors.As(err, &stopped):
		s.errorf(":sim %v", err)
		return
	case errors.As(err, &every) && every.All:
		s.errorf(":sim every run of %s fails: %s", src, every.Msg)
		output.Error(s.stdout, every.Err, srcs...)
	case errors.As(err, &every):
		s.errorf(":sim the first %d runs of %s fail the same way, so sim stopped there (the others would too):", every.Runs, src)
		output.Error(s.stdout, every.Err, srcs...)
	case errors.As(err, &limits):
		s.errorf(":sim %s", output.LimitRunsHeader(":sim", src, limits))
		output.Error(s.stdout, limits.Err, srcs...)
	default:
		s.errorf(":sim %v", err)
	}
}
