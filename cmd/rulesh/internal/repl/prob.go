package repl

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

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
	expr := withLets(s.lets, arg)
	q := analysis.Question{Prog: s.prog, Overrides: overrides, Expr: expr, Seed: s.seed, Interrupt: &s.interrupt}
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
		output.Error(s.stdout, err, dsl.Sources{analysis.ProbName: []byte(expr)}, s.prog.Sources())
	case a.Conv != nil:
		_ = output.Dist(s.stdout, arg, a.Conv, false)
		s.chart(arg, convSeries(a.Conv))
	default:
		output.EngineDist(s.stdout, a.Dist, s.seed)
		s.chart(arg, distSeries(a.Dist))
	}
}

// letInput is one `let NAME = SRC` of the session.
type letInput struct{ name, src string }

// withLets puts before expr the session's lets it reads, directly or through other lets, in
// the order they were made (`let r = 2d6; r >= 7`): the question starts from the rules as
// loaded, where they are unknown, and so each branch rolls r once and asks of it. A name the
// expression reads that no let bound is left to the question (a rule's name, or unknown).
func withLets(lets []letInput, expr string) string {
	need := map[string]bool{}
	names, _ := dsl.WrittenNames(expr)
	for _, n := range names {
		need[n] = true
	}
	var used []letInput
	for i := len(lets) - 1; i >= 0; i-- {
		l := lets[i]
		if !need[l.name] {
			continue
		}
		delete(need, l.name)
		used = append(used, l)
		more, _ := dsl.WrittenNames(l.src)
		for _, n := range more {
			need[n] = true
		}
	}
	if len(used) == 0 {
		return expr
	}
	var b strings.Builder
	for i := len(used) - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "let %s = %s; ", used[i].name, used[i].src)
	}
	return b.String() + expr
}
