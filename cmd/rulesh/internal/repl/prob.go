package repl

import (
	"errors"
	"fmt"
	"reflect"

	"rulesh/analysis"
	"rulesh/cmd/rulesh/internal/output"
	"rulesh/dsl"
)

// prob answers :prob EXPR as `rulesh prob` does (analysis.Odds decides how). Every run
// starts from the rules as loaded, with the options as :set has them: not from the
// session's entities or variables, which a run must not change. What stops it early (every
// run failing, too many at a limit, Ctrl-C) is said as the CLI says it.
func (s *Shell) prob(arg string) {
	if arg == "" {
		s.errorf(":prob EXPR: the odds of an expression (dice, a table, a call)")
		return
	}
	overrides := map[string]any{}
	for _, o := range s.m.Options() {
		if !reflect.DeepEqual(o.Value, o.Default) {
			overrides[o.Name] = o.Value
		}
	}
	// Ctrl-C reaches the analysis' own machine, as it reaches a plain call's.
	q := analysis.Question{Prog: s.prog, Overrides: overrides, Expr: arg, Seed: s.seed, Interrupt: &s.interrupt}
	opt := analysis.ProbOptions{Note: func(msg string) { fmt.Fprintf(s.stdout, "note: %s\n", msg) }}
	a, err := analysis.Odds(q, opt)
	var diceErr *analysis.DiceError
	var tableErr *analysis.TableError
	var stopped *analysis.ErrInterrupted
	switch {
	case errors.As(err, &stopped):
		s.errorf(":prob %v", err)
	case errors.As(err, &diceErr):
		output.DiceError(s.stdout, diceErr.Src, diceErr.Err)
		s.failed = true
	case errors.As(err, &tableErr):
		s.errorf("%v", err)
	case err != nil:
		s.failed = true
		output.Error(s.stdout, err, dsl.Sources{analysis.ProbName: []byte(arg)}, s.prog.Sources())
	case a.Conv != nil:
		_ = output.Dist(s.stdout, arg, a.Conv, false)
	default:
		output.EngineDist(s.stdout, a.Dist, s.seed)
	}
}
