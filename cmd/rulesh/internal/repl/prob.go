package repl

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"unicode/utf8"

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
	// Ctrl-C reaches the analysis' own machine, as it reaches a plain call's.
	expr := withLets(s.lets, arg)
	q := analysis.Question{Prog: s.prog, Overrides: s.overrides(), Expr: expr, Seed: s.seed, Interrupt: &s.interrupt}
	a, err := analysis.Odds(q, s.probOptions())
	switch {
	case s.probFailed(err, expr):
	case a.Conv != nil:
		_ = output.Dist(s.stdout, arg, a.Conv, false)
		s.chart(arg, convSeries(a.Conv))
	default:
		output.EngineDist(s.stdout, a.Dist, s.seed)
		s.chart(arg, distSeries(a.Dist))
	}
}

// overrides are the options :set changed from their defaults: a question of :prob or
// :sweep starts from the rules as loaded, with these.
func (s *Shell) overrides() map[string]any {
	overrides := map[string]any{}
	for _, o := range s.m.Options() {
		if !reflect.DeepEqual(o.Value, o.Default) {
			overrides[o.Name] = o.Value
		}
	}
	return overrides
}

func (s *Shell) probOptions() analysis.ProbOptions {
	return analysis.ProbOptions{Note: func(msg string) { fmt.Fprintf(s.stdout, "note: %s\n", msg) }}
}

// probFailed says why a question of :prob or :sweep has no answer, as the CLI says it (every
// run failing, too many at a limit, Ctrl-C), and reports whether err was one.
func (s *Shell) probFailed(err error, expr string) bool {
	var diceErr *analysis.DiceError
	var tableErr *analysis.TableError
	var stopped *analysis.ErrInterrupted
	switch {
	case err == nil:
		return false
	case errors.As(err, &stopped):
		s.errorf(":prob %v", err)
	case errors.As(err, &diceErr):
		output.DiceError(s.stdout, diceErr.Src, diceErr.Err)
		s.failed = true
	case errors.As(err, &tableErr), output.Plain(err):
		s.errorf("%v", err)
	default:
		s.failed = true
		output.Error(s.stdout, err, dsl.Sources{analysis.ProbName: []byte(expr)}, s.prog.Sources())
	}
	return true
}

// sweep answers :sweep NAME=A..B EXPR (or NAME=a,b,c): the odds of EXPR once per value of
// NAME, an option of the rules or a name the expression leaves free, as `rulesh prob
// --sweep` gives them: a column of percentages per value, and one chart of them all.
func (s *Shell) sweep(arg string) {
	spec, expr, _ := strings.Cut(arg, " ")
	expr = strings.TrimSpace(expr)
	if spec == "" || expr == "" {
		s.errorf(":sweep NAME=A..B EXPR (or NAME=a,b,c EXPR): the odds of EXPR once per value of NAME")
		return
	}
	sw, err := analysis.ParseSweep(spec)
	if err == nil {
		err = sw.Resolve(s.prog, withLets(s.lets, expr))
	}
	if err != nil {
		s.errorf(":sweep %s", strings.TrimPrefix(err.Error(), "--sweep "))
		return
	}
	full := withLets(s.lets, expr)
	q := analysis.Question{Prog: s.prog, Overrides: s.overrides(), Expr: full, Seed: s.seed, Interrupt: &s.interrupt}
	ds, err := analysis.ProbSweep(q, sw, s.probOptions())
	if s.probFailed(err, full) {
		return
	}
	union := analysis.UnionOutcomes(ds)
	header := []string{"value"}
	series := make([]output.Series, len(ds))
	for i := range ds {
		header = append(header, sw.Label(i))
		series[i] = output.Series{Name: sw.Label(i), Values: make([]float64, len(union)), Fractions: make([]string, len(union))}
	}
	rows := make([][]string, len(union))
	labels := make([]string, len(union))
	for r := range union {
		labels[r] = output.OutcomeLabel(&union[r])
		rows[r] = append(make([]string, 0, len(ds)+1), labels[r])
		for i, d := range ds {
			cell := "—"
			for j, o := range d.Outcomes {
				if o.Key == union[r].Key {
					cell = output.Percent(o.P)
					series[i].Values[r] = o.P
					series[i].Fractions[r] = fraction(&d.Outcomes[j])
				}
			}
			rows[r] = append(rows[r], cell)
		}
	}
	fmt.Fprintln(s.stdout, expr)
	writeColumns(s.stdout, header, rows)
	if s.picture != nil && len(labels) > 0 {
		if svg, err := chartSVG(output.Chart{Title: expr + " — " + sw.Name, Labels: labels, Series: series}); err == nil {
			s.picture(svg)
		}
	}
}

// writeColumns prints rows under header, each column right-aligned to its widest cell.
func writeColumns(w io.Writer, header []string, rows [][]string) {
	width := make([]int, len(header))
	for _, r := range append([][]string{header}, rows...) {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range append([][]string{header}, rows...) {
		var b strings.Builder
		for i, c := range r {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(strings.Repeat(" ", width[i]-utf8.RuneCountInString(c)))
			b.WriteString(c)
		}
		fmt.Fprintln(w, b.String())
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
