package cli

import (
	"bytes"
	"errors"
	"io"
	"maps"

	"fmt"
	"math"
	"math/big"
	"strings"

	"rulesh/analysis"
	"rulesh/cmd/rulesh/internal/output"
	"rulesh/cmd/rulesh/internal/sysio"
	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

const probSynopsis = "prob [-f FILE]... [--set K=V]... [--json] [--svg OUT] [--png OUT] [--at-least] [--at-most] [--emits] [--samples N] [--seed S] [--shuffle] [--exact] [--budget N] [--limit-runs N] [--compare K=V | --variant FILE] [--sweep NAME=A..B [--sweep …]] EXPR"

func (c *cli) prob(args []string) int {
	fs := c.newFlags("prob", probSynopsis)
	var files, sets listFlag
	fs.Var(&files, "f", "load a rule `FILE` (repeatable)")
	fs.Var(&sets, "set", "set an option, `NAME=VALUE` (repeatable)")
	asJSON := fs.Bool("json", false, `print one JSON document: {expr, outcomes: [{value, probability, fraction | ci95}], mean, stddev, exact[, samples, mean_ci95]}`)
	var chart chartOut
	fs.StringVar(&chart.svg, "svg", "", "write a chart of the distribution to `OUT` (an SVG picture; a bar per outcome, each with its exact fraction on hover)")
	fs.StringVar(&chart.png, "png", "", "write the same chart to `OUT` as a PNG picture")
	emits := fs.Bool("emits", false, "an outcome is the value with the lines the run emitted")
	samples := fs.Int64("samples", analysis.SamplesFor(0.005), "runs to sample when the odds are not enumerated (`N`)")
	seed := fs.Uint64("seed", 1, "seed of the samples and of the decks' first order")
	shuffle := fs.Bool("shuffle", false, "shuffle every deck at the start of each run: the decks' order is part of the odds (else they keep the order --seed gave them)")
	exact := fs.Bool("exact", false, "refuse to sample: fail when the enumeration is over the budget")
	budget := fs.Int64("budget", analysis.DefaultBudget, fmt.Sprintf("the most branches of the dice enumerated (`N`, at most %d) before sampling instead", analysis.MaxBudget))
	compare := fs.String("compare", "", "compare with an option at another value, `NAME=VALUE` (B beside A)")
	variant := fs.String("variant", "", "compare with the rules plus the rule `FILE` loaded last (B beside A)")
	var sweep listFlag
	fs.Var(&sweep, "sweep", "answer once per value of an option or a name of EXPR, side by side: `NAME=A..B` (whole numbers) or NAME=a,b,c; given twice, once per pair of values (a grid)")
	atLeast := fs.Bool("at-least", false, "with --sweep, add a column per value of P(outcome ≥ the row's value), and draw a sweep's lines as P(≥ each outcome); on a chart of one answer or a comparison, draw P(≥) as a curve over the bars")
	atMost := fs.Bool("at-most", false, "on a chart of one answer or a comparison (--svg, --png), draw P(≤) as a curve over the bars")
	limitRuns := fs.Int("limit-runs", analysis.DefaultLimitRuns, limitRunsHelp)
	pos, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(pos) == 0 {
		fmt.Fprintln(c.stderr, "rulesh prob: no expression given")
		fs.Usage()
		return ExitUsage
	}
	if *compare != "" && *variant != "" {
		fmt.Fprintln(c.stderr, "rulesh prob: --compare and --variant are one comparison each: give one")
		return ExitUsage
	}
	if *samples < 1 || *samples > analysis.MaxSamples {
		fmt.Fprintf(c.stderr, "rulesh prob: --samples must be between 1 and %d\n", analysis.MaxSamples)
		return ExitUsage
	}
	if *budget < 1 || *budget > analysis.MaxBudget {
		fmt.Fprintf(c.stderr, "rulesh prob: --budget must be between 1 and %d\n", analysis.MaxBudget)
		return ExitUsage
	}
	if *limitRuns < 0 {
		fmt.Fprintln(c.stderr, "rulesh prob: --limit-runs must be 0 or more")
		return ExitUsage
	}
	src := strings.Join(pos, " ")
	overrides, code := c.parseSets("prob", "--set", sets)
	if code != 0 {
		return code
	}
	var sw analysis.Sweep
	if len(sweep) > 0 {
		if sw, code, ok = c.parseSweeps("prob", sweep, func(f string) bool { return flagSet(fs, f) }, overrides); !ok {
			return code
		}
	} else if *atLeast && !chart.any() {
		fmt.Fprintln(c.stderr, "rulesh prob: --at-least goes with --sweep, or with a chart (--svg, --png) to draw P(≥) on it (one answer's table gives P(≥) already)")
		return ExitUsage
	}
	if *atMost && (len(sweep) > 0 || !chart.any()) {
		fmt.Fprintln(c.stderr, "rulesh prob: --at-most draws P(≤) on the chart of one answer or a comparison: give --svg or --png, without --sweep")
		return ExitUsage
	}
	// Before the odds: a rule file given by mistake is refused at once.
	if code := c.checkChart("prob", chart); code != ExitOK {
		return code
	}
	chart.atLeast, chart.atMost = *atLeast && len(sweep) == 0, *atMost
	prog, code := c.loadProgram(files, false)
	if code != 0 {
		return code
	}
	if len(sweep) > 0 {
		if code := c.resolveSweep("prob", &sw, prog, src); code != ExitOK {
			return code
		}
	}
	q := analysis.Question{Prog: prog, Overrides: overrides, Expr: src, Emits: *emits, Seed: *seed, Shuffle: *shuffle}
	opt := analysis.ProbOptions{Budget: *budget, Samples: *samples, Exact: *exact, LimitRuns: limitRunsOption(*limitRuns),
		Note: func(s string) { fmt.Fprintf(c.stderr, "rulesh prob: %s\n", s) }}
	if len(sweep) > 0 {
		var b *analysis.Question
		if *compare != "" {
			more, code := c.parseSets("prob", "--compare", []string{*compare})
			if code != ExitOK {
				return code
			}
			if !c.sweepCompare("prob", sw, more) {
				return ExitUsage
			}
			qb := q
			qb.Overrides = maps.Clone(overrides)
			maps.Copy(qb.Overrides, more)
			b = &qb
		}
		return c.probSweep(q, sw, opt, *asJSON, chart, *atLeast, b, *compare)
	}
	if *compare == "" && *variant == "" {
		return c.probAnswer(q, opt, *asJSON, chart)
	}
	b := q
	nameA, nameB := "A: the rules", ""
	if *compare != "" {
		more, code := c.parseSets("prob", "--compare", []string{*compare})
		if code != ExitOK {
			return code
		}
		b.Overrides = maps.Clone(overrides)
		maps.Copy(b.Overrides, more)
		nameB = "B: --compare " + *compare
	} else {
		pb, code := c.loadProgram(append(append([]string{}, files...), *variant), false)
		if code != 0 {
			return code
		}
		b.Prog = pb
		nameB = "B: --variant " + *variant
	}
	cmp, err := analysis.Compare(q, b, opt)
	if err != nil {
		return c.probError(prog, src, err)
	}
	if chart.any() {
		labels := labelsOf(outcomesOf(cmp.Diff))
		pa, fa := alignProbs(cmp.Diff, cmp.A)
		pb, fb := alignProbs(cmp.Diff, cmp.B)
		if code := c.writeChart("prob", chart, cmp.Diff.Numeric, output.Chart{Title: src, Labels: labels, Series: []output.Series{
			{Name: nameA, Values: pa, Fractions: fa},
			{Name: nameB, Values: pb, Fractions: fb},
		}}); code != 0 {
			return code
		}
	}
	if *asJSON {
		return c.writeJSON(map[string]any{"a": distDoc(cmp.A, *seed), "b": distDoc(cmp.B, *seed), "difference": diffDoc(cmp.Diff)})
	}
	fmt.Fprintln(c.stdout, nameA)
	output.EngineDist(c.stdout, cmp.A, *seed)
	fmt.Fprintln(c.stdout)
	fmt.Fprintln(c.stdout, nameB)
	output.EngineDist(c.stdout, cmp.B, *seed)
	fmt.Fprintln(c.stdout)
	c.printDiff(cmp)
	return ExitOK
}

// probAnswer prints analysis.Odds' answer to one question, or why there is none.
func (c *cli) probAnswer(q analysis.Question, opt analysis.ProbOptions, asJSON bool, chart chartOut) int {
	a, err := analysis.Odds(q, opt)
	var diceErr *analysis.DiceError
	var tableErr *analysis.TableError
	switch {
	case errors.As(err, &diceErr):
		output.DiceError(c.stderr, diceErr.Src, diceErr.Err)
		return ExitError
	case errors.As(err, &tableErr):
		fmt.Fprintf(c.stderr, "rulesh prob: %v\n", err)
		return ExitError
	case err != nil:
		return c.probError(q.Prog, q.Expr, err)
	case a.Conv != nil:
		return c.printDist(q.Expr, a.Conv, asJSON, chart)
	}
	d := a.Dist
	if chart.any() {
		p, f := probsOf(d.Outcomes)
		if code := c.writeChart("prob", chart, d.Numeric, output.Chart{Title: q.Expr, Labels: labelsOf(d.Outcomes),
			Series: []output.Series{{Name: q.Expr, Values: p, Fractions: f}}}); code != 0 {
			return code
		}
	}
	if asJSON {
		return c.writeJSON(distDoc(d, q.Seed))
	}
	output.EngineDist(c.stdout, d, q.Seed)
	return ExitOK
}

// probError says why the engine could not answer.
func (c *cli) probError(prog *dsl.Program, src string, err error) int {
	var big *analysis.ErrTooBig
	if errors.As(err, &big) {
		fmt.Fprintf(c.stderr, "rulesh prob: %v\n", err)
		return ExitError
	}
	if c.analysisStopped("prob", src, err, probSources(prog, src)) {
		return ExitError
	}
	output.Error(c.stderr, err, probSources(prog, src)...)
	return ExitError
}

// limitRunsHelp is the help of prob's and sim's --limit-runs.
const limitRunsHelp = "stop at the `N`th run that fails at a limit (max_steps, max_loop_iterations, max_call_depth, memory_budget), each of which may cost up to a whole max_steps; 0 never stops and counts them all as outcomes"

// limitRunsOption is the analysis' LimitRuns for the flag's value: 0 is no bound.
func limitRunsOption(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// analysisStopped says why an analysis stopped early, if it did: its first runs failed the
// same way, too many reached a limit, or it was interrupted. It reports whether err was one.
func (c *cli) analysisStopped(cmd, src string, err error, srcs []dsl.Sources) bool {
	var every *analysis.ErrEveryRunFails
	var limits *analysis.ErrLimitRuns
	switch {
	case errors.As(err, &every) && every.All:
		c.everyRunFails(cmd, src, every.Msg, every.Err, srcs)
	case errors.As(err, &every):
		c.runsFail(cmd, src, every, srcs)
	case errors.As(err, &limits):
		fmt.Fprintf(c.stderr, "rulesh %s: %s\n", cmd, output.LimitRunsHeader(cmd, src, limits))
		output.Error(c.stderr, limits.Err, srcs...)
	default:
		return false
	}
	return true
}

// probSources are the sources prob's errors are shown in: the expression's and the rules'.
func probSources(prog *dsl.Program, src string) []dsl.Sources {
	srcs := []dsl.Sources{{analysis.ProbName: []byte(src)}}
	if prog != nil {
		srcs = append(srcs, prog.Sources())
	}
	return srcs
}

// everyRunFails says that every run of src failed with msg, and shows the first failure as
// eval does (position, source line, call stack) when there is one (merged shards have none).
func (c *cli) everyRunFails(cmd, src, msg string, first error, srcs []dsl.Sources) {
	fmt.Fprintf(c.stderr, "rulesh %s: every run of %s fails: %s\n", cmd, src, msg)
	if first != nil {
		output.Error(c.stderr, first, srcs...)
	}
}

// runsFail says that the first runs of src all failed the same way, so that cmd stopped
// there, and shows the first failure as eval does.
func (c *cli) runsFail(cmd, src string, every *analysis.ErrEveryRunFails, srcs []dsl.Sources) {
	in := ""
	if every.Side != "" {
		in = " in " + every.Side
	}
	fmt.Fprintf(c.stderr, "rulesh %s: the first %d runs of %s%s fail the same way, so %s stopped there (the others would too):\n", cmd, every.Runs, src, in, cmd)
	output.Error(c.stderr, every.Err, srcs...)
}

// printDist writes a distribution of dice on stdout, for people or as JSON (with
// "exact": true, as every answer of prob), and its chart.
func (c *cli) printDist(src string, d *dice.Dist, asJSON bool, chart chartOut) int {
	if chart.any() {
		var labels, fracs []string
		var values []float64
		for i, w := range d.W {
			if w.Sign() == 0 {
				continue
			}
			labels = append(labels, output.Label(d.Min+i, d.Bool, d.Syms))
			r := new(big.Rat).SetFrac(w, d.Den)
			p, _ := r.Float64()
			values = append(values, p)
			fracs = append(fracs, r.RatString())
		}
		numeric := !d.Bool && d.Syms == nil
		if code := c.writeChart("prob", chart, numeric, output.Chart{Title: src, Labels: labels,
			Series: []output.Series{{Name: src, Values: values, Fractions: fracs}}}); code != 0 {
			return code
		}
	}
	var b bytes.Buffer
	if err := output.Dist(&b, src, d, asJSON); err != nil {
		fmt.Fprintf(c.stderr, "rulesh: %v\n", err)
		return ExitError
	}
	out := b.Bytes()
	if asJSON {
		out = append([]byte(`{"exact":true,`), out[1:]...)
	}
	c.stdout.Write(out)
	return ExitOK
}

// chartOut is where a command writes its chart (--svg, --png: either, both or neither) and
// the curves asked for on it (prob's --at-least, --at-most).
type chartOut struct {
	svg, png        string
	atLeast, atMost bool
}

func (o chartOut) any() bool { return o.svg != "" || o.png != "" }

// checkChart refuses, before any work, to write a chart over a file that is not a picture
// of its kind (a rule file given by mistake, --svg duel.rules).
func (c *cli) checkChart(cmd string, o chartOut) int {
	for _, f := range []struct {
		flag, path string
		ok         func(string) error
	}{{"--svg", o.svg, sysio.ReplaceableSVG}, {"--png", o.png, sysio.ReplaceablePNG}} {
		if f.path == "" {
			continue
		}
		if err := f.ok(f.path); err != nil {
			fmt.Fprintf(c.stderr, "rulesh %s: %s: %v\n", cmd, f.flag, err)
			return ExitError
		}
	}
	return ExitOK
}

// writeChart writes a command's chart as SVG (--svg) and PNG (--png): never over a file
// that is not a picture of its kind, and through a temporary file, so a failed write leaves
// the old one. The curves o asks for are drawn when the outcomes are numbers (numeric);
// otherwise stderr says there are none.
func (c *cli) writeChart(cmd string, o chartOut, numeric bool, ch output.Chart) int {
	if (o.atLeast || o.atMost) && !numeric {
		fmt.Fprintf(c.stderr, "rulesh %s: the outcomes are not all numbers: no P(≥) or P(≤) curve on the chart\n", cmd)
	} else {
		ch.AtLeast, ch.AtMost = o.atLeast, o.atMost
	}
	if code := c.checkChart(cmd, o); code != ExitOK {
		return code
	}
	for _, f := range []struct {
		flag, path string
		draw       func(io.Writer) error
	}{{"--svg", o.svg, ch.SVG}, {"--png", o.png, ch.PNG}} {
		if f.path == "" {
			continue
		}
		if err := sysio.Write(f.path, f.draw); err != nil {
			fmt.Fprintf(c.stderr, "rulesh %s: %s: %v\n", cmd, f.flag, err)
			return ExitError
		}
	}
	return ExitOK
}

func labelsOf(os []analysis.Outcome) []string {
	out := make([]string, len(os))
	for i := range os {
		out[i] = output.OutcomeLabel(&os[i])
	}
	return out
}

// probsOf gives the outcomes' probabilities and, when exact, their fractions.
func probsOf(os []analysis.Outcome) ([]float64, []string) {
	out, fracs := make([]float64, len(os)), make([]string, len(os))
	for i, o := range os {
		out[i] = o.P
		if o.Fraction != nil {
			fracs[i] = o.Fraction.RatString()
		}
	}
	return out, fracs
}

func outcomesOf(d *analysis.Difference) []analysis.Outcome {
	out := make([]analysis.Outcome, len(d.Outcomes))
	for i, o := range d.Outcomes {
		out[i] = o.Outcome
	}
	return out
}

// alignProbs gives the probability in d of each outcome of the difference (0 when absent),
// and its fraction when d is exact ("0" when absent).
func alignProbs(diff *analysis.Difference, d *analysis.Dist) ([]float64, []string) {
	p, f := map[string]float64{}, map[string]string{}
	for _, o := range d.Outcomes {
		p[o.Key] = o.P
		if o.Fraction != nil {
			f[o.Key] = o.Fraction.RatString()
		}
	}
	out, fracs := make([]float64, len(diff.Outcomes)), make([]string, len(diff.Outcomes))
	for i, o := range diff.Outcomes {
		out[i] = p[o.Key]
		if _, in := p[o.Key]; !in && d.Exact {
			fracs[i] = "0"
		} else {
			fracs[i] = f[o.Key]
		}
	}
	return out, fracs
}

// printDiff writes B − A per outcome.
func (c *cli) printDiff(cmp *analysis.Comparison) {
	diff := cmp.Diff
	if diff.Exact {
		fmt.Fprintln(c.stdout, "difference B − A (exact)")
	} else {
		fmt.Fprintln(c.stdout, "difference B − A (paired samples, 95% intervals)")
	}
	if diff.Numeric {
		if diff.Exact {
			fmt.Fprintf(c.stdout, "mean %s\n", signed(diff.Mean, false))
		} else {
			fmt.Fprintf(c.stdout, "mean %s  [%s, %s]\n", signed(diff.Mean, false), signed(diff.MeanLo, false), signed(diff.MeanHi, false))
		}
	}
	pa, _ := alignProbs(diff, cmp.A)
	pb, _ := alignProbs(diff, cmp.B)
	header := []string{"value", "A %", "B %", "B − A"}
	if !diff.Exact {
		header = append(header, "ci95")
	}
	var rows [][]string
	var weights []float64
	for i := range diff.Outcomes {
		o := &diff.Outcomes[i]
		row := []string{output.OutcomeLabel(&o.Outcome), output.Percent(pa[i]), output.Percent(pb[i]), signed(o.D, true)}
		if !diff.Exact {
			row = append(row, signed(o.Lo, true)+" … "+signed(o.Hi, true))
		}
		rows = append(rows, row)
		weights = append(weights, math.Abs(o.D))
	}
	output.Table(c.stdout, header, rows, weights)
}

// signed writes a difference with its sign, in percentage points when pct is set.
func signed(f float64, pct bool) string {
	s := output.Float(f)
	if pct {
		s = output.Percent(f)
	}
	if f >= 0 && !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

// probOutcome is one outcome in prob's JSON.
type probOutcome struct {
	Value       any         `json:"value"`
	Probability float64     `json:"probability"`
	Fraction    string      `json:"fraction,omitempty"`
	CI95        *[2]float64 `json:"ci95,omitempty"`
	Error       string      `json:"error,omitempty"`
	Emitted     []string    `json:"emitted,omitempty"`
}

// distDoc is the JSON document of an answer of the engine.
func distDoc(d *analysis.Dist, seed uint64) map[string]any {
	outs := make([]probOutcome, len(d.Outcomes))
	for i, o := range d.Outcomes {
		po := probOutcome{Value: o.Value, Probability: o.P, Error: o.Err, Emitted: o.Emitted}
		if d.Exact {
			po.Fraction = o.Fraction.RatString()
		} else {
			// The observed frequency as a fraction too, so every outcome keeps the shape
			// {value, probability, fraction}; ci95 says how far it may be from the odds.
			po.Fraction = big.NewRat(o.Count, d.Samples).RatString()
			po.CI95 = &[2]float64{o.Lo, o.Hi}
		}
		outs[i] = po
	}
	doc := map[string]any{"expr": d.Expr, "exact": d.Exact, "outcomes": outs, "mean": nil, "stddev": nil}
	if d.Numeric {
		doc["mean"], doc["stddev"] = d.Mean, d.Stddev
	}
	if !d.Exact {
		doc["samples"] = d.Samples
		if d.Numeric {
			doc["mean_ci95"] = [2]float64{d.MeanLo, d.MeanHi}
		}
	}
	return doc
}

// diffOutcome is one outcome of the difference in prob's JSON.
type diffOutcome struct {
	Value      any        `json:"value"`
	Difference float64    `json:"difference"`
	CI95       [2]float64 `json:"ci95"`
	Error      string     `json:"error,omitempty"`
	Emitted    []string   `json:"emitted,omitempty"`
}

// diffDoc is the JSON document of a difference.
func diffDoc(d *analysis.Difference) map[string]any {
	outs := make([]diffOutcome, len(d.Outcomes))
	for i, o := range d.Outcomes {
		outs[i] = diffOutcome{Value: o.Value, Difference: o.D, CI95: [2]float64{o.Lo, o.Hi}, Error: o.Err, Emitted: o.Emitted}
	}
	doc := map[string]any{"exact": d.Exact, "outcomes": outs, "mean": nil, "mean_ci95": nil}
	if d.Numeric {
		doc["mean"], doc["mean_ci95"] = d.Mean, [2]float64{d.MeanLo, d.MeanHi}
	}
	return doc
}
