package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"rulesh/analysis"
	"rulesh/cmd/rulesh/internal/output"
	"rulesh/cmd/rulesh/internal/sysio"
	"rulesh/dsl"
)

// DefaultRuns is how many runs sim does without --runs: intervals about ±1% wide.
const DefaultRuns = 10000

// simSynopsis is sim's usage line.
const simSynopsis = "sim [-f FILE]... [--runs N] [--seed S] [--set K=V]... [--limit-runs N] [--compare K=V | --variant FILE] [--sweep NAME=A..B [--sweep …] [--at-least]] [--shard I/N] [--json] [--svg OUT] [--png OUT] EXPR\n       rulesh sim --merge FILE... [--json] [--svg OUT] [--png OUT]"

// Sim is `rulesh sim`: Monte Carlo runs of an expression, each from the start state with a
// seed of its own, summarised; paired comparisons; shards and their merge.
func Sim(std IO, args []string) int { return newCLI(std).sim(args) }

func (c *cli) sim(args []string) int {
	defer collectLess()()
	fs := c.newFlags("sim", simSynopsis)
	var files, sets listFlag
	fs.Var(&files, "f", "load a rule `FILE` (repeatable)")
	fs.Var(&sets, "set", "set an option, `NAME=VALUE` (repeatable)")
	runs := fs.Int64("runs", DefaultRuns, "how many `N` runs")
	seed := fs.Uint64("seed", 0, "seed `S` of the runs (default: a random seed, printed)")
	compare := fs.String("compare", "", "run B with the option `NAME=VALUE` beside A, seed for seed")
	variant := fs.String("variant", "", "run B with the rule `FILE` added last beside A, seed for seed")
	shard := fs.String("shard", "", "do only slice `I/N` of the runs (1 ≤ I ≤ N ≤ runs) and print its counts for --merge")
	merge := fs.Bool("merge", false, fmt.Sprintf("combine the shard files given as arguments (regular files of at most %d MiB each)", analysis.MaxShardSize>>20))
	workers := fs.Int("workers", 0, "run on `N` goroutines (default: every core)")
	limitRuns := fs.Int("limit-runs", analysis.DefaultLimitRuns, limitRunsHelp)
	asJSON := fs.Bool("json", false, `print one JSON document: {expr, runs, seed, outcomes: [{value, count, frequency, ci95}], mean, stddev, quantiles, emitted}`)
	var chart chartOut
	fs.StringVar(&chart.svg, "svg", "", "write a chart of the outcomes to `OUT` (an SVG picture)")
	fs.StringVar(&chart.png, "png", "", "write the same chart to `OUT` as a PNG picture")
	var sweep listFlag
	fs.Var(&sweep, "sweep", "run once per value of an option or a name of EXPR, the same seeds for each, side by side: `NAME=A..B` (whole numbers) or NAME=a,b,c; given twice, once per pair of values (a grid)")
	atLeast := fs.Bool("at-least", false, "with --sweep, add a column per value of the frequency of outcomes ≥ the row's value, and draw a sweep's lines or bars (--svg, --png) as those frequencies")
	pos, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(c.stderr, "rulesh sim: "+format+"\n", a...)
		return ExitUsage
	}
	// Before the runs: a rule file given by mistake is refused at once.
	if code := c.checkChart("sim", chart); code != ExitOK {
		return code
	}
	if *merge {
		if len(pos) == 0 {
			return usage("--merge needs the shard files")
		}
		for _, f := range []string{"f", "set", "runs", "seed", "compare", "variant", "shard", "workers", "sweep", "at-least", "limit-runs"} {
			if flagSet(fs, f) {
				return usage("--merge takes shard files only; --%s belongs to the runs that made them", f)
			}
		}
		return c.simMerge(pos, *asJSON, chart)
	}
	if len(pos) == 0 {
		fmt.Fprintln(c.stderr, "rulesh sim: no expression given")
		fs.Usage()
		return ExitUsage
	}
	if *runs < 1 || *runs > analysis.MaxRuns {
		return usage("--runs must be between 1 and %d", analysis.MaxRuns)
	}
	if *compare != "" && *variant != "" {
		return usage("--compare and --variant both give B: use one")
	}
	if *limitRuns < 0 {
		return usage("--limit-runs must be 0 or more")
	}
	if *workers < 0 {
		return usage("--workers must be positive")
	}
	st := analysis.Study{Expr: strings.Join(pos, " "), Runs: *runs, Seed: *seed, Files: files, Set: sets,
		Compare: *compare, Variant: *variant}
	if st.Files == nil {
		st.Files = []string{}
	}
	if st.Set == nil {
		st.Set = []string{}
	}
	index, n := 0, 0
	if *shard != "" {
		var err error
		if index, n, err = analysis.ParseShard(*shard); err != nil {
			return usage("%v", err)
		}
		if err := analysis.CheckShard(*runs, n); err != nil {
			return usage("--shard %s: %v", *shard, err)
		}
		if !flagSet(fs, "seed") {
			return usage("--shard needs --seed: every shard must run the same study")
		}
		if chart.any() {
			return usage("--svg and --png draw the merged result: give them to --merge")
		}
	} else if !flagSet(fs, "seed") {
		st.Seed = rand.Uint64()
	}
	overrides, code := c.parseSets("sim", "--set", sets)
	if code != 0 {
		return code
	}
	var sw analysis.Sweep
	if len(sweep) > 0 {
		if sw, code, ok = c.parseSweeps("sim", sweep, func(f string) bool { return flagSet(fs, f) }, overrides); !ok {
			return code
		}
	} else if *atLeast {
		return usage("--at-least goes with --sweep")
	}
	prog, code := c.loadProgram(files, true)
	if code != 0 {
		return code
	}
	if prog == nil {
		prog, _ = dsl.LoadSource("<empty>", nil)
	}
	if len(sweep) > 0 {
		if code := c.resolveSweep("sim", &sw, prog, st.Expr); code != ExitOK {
			return code
		}
	}
	cfg := analysis.SimConfig{Expr: st.Expr, A: analysis.Variant{Prog: prog, Overrides: overrides},
		Runs: st.Runs, Seed: st.Seed, Workers: *workers, LimitRuns: limitRunsOption(*limitRuns)}
	if *compare != "" {
		more, code := c.parseSets("sim", "--compare", []string{*compare})
		if code != 0 {
			return code
		}
		if len(sweep) > 0 && !c.sweepCompare("sim", sw, more) {
			return ExitUsage
		}
		b := analysis.Variant{Prog: prog, Overrides: map[string]any{}}
		for k, v := range overrides {
			b.Overrides[k] = v
		}
		for k, v := range more {
			b.Overrides[k] = v
		}
		cfg.B = &b
	}
	if *variant != "" {
		progB, code := c.loadProgram(append(append([]string{}, files...), *variant), true)
		if code != 0 {
			return code
		}
		cfg.B = &analysis.Variant{Prog: progB, Overrides: overrides}
	}
	check := cfg
	if len(sweep) > 0 {
		check.A = sw.Variant(cfg.A, 0)
		if cfg.B != nil {
			b := sw.Variant(*cfg.B, 0)
			check.B = &b
		}
	}
	if err := analysis.CheckSim(check); err != nil {
		var diags dsl.Diagnostics
		if errors.As(err, &diags) {
			output.Error(c.stderr, err, dsl.Sources{"<sim>": []byte(st.Expr)}, prog.Sources())
		} else {
			fmt.Fprintf(c.stderr, "rulesh sim: %v\n", err)
		}
		return ExitError
	}
	if n > 0 {
		// CheckShard left no shard without runs.
		cfg.First, cfg.Last = analysis.ShardRange(st.Runs, index, n)
		if st.SHA256, code = hashSources(prog, cfg.B, files); code != ExitOK {
			return c.simRefuse("%s changed while it was read twice (for A and for B): run again", st.Files)
		}
	}
	srcs := []dsl.Sources{{"<sim>": []byte(st.Expr)}, prog.Sources()}
	if *variant != "" {
		srcs = append(srcs, cfg.B.Prog.Sources())
	}
	if len(sweep) > 0 {
		a := cfg
		a.B = nil
		ts, err := analysis.SimSweep(a, sw)
		var tsB []*analysis.Tally
		if err == nil && cfg.B != nil {
			// B's runs with the same seeds: paired with A's at every value.
			b := a
			b.A = *cfg.B
			tsB, err = analysis.SimSweep(b, sw)
		}
		if err != nil {
			if c.analysisStopped("sim", st.Expr, err, srcs) {
				return ExitError
			}
			fmt.Fprintf(c.stderr, "rulesh sim: %v\n", err)
			return ExitError
		}
		return c.simSweepReport(st, sw, ts, tsB, *asJSON, chart, *atLeast)
	}
	t, err := c.simulate(cfg)
	if err != nil {
		if c.analysisStopped("sim", st.Expr, err, srcs) {
			return ExitError
		}
		fmt.Fprintf(c.stderr, "rulesh sim: %v\n", err)
		return ExitError
	}
	if n > 0 {
		return c.writeShard(analysis.NewShard(st, index, n, t))
	}
	return c.simReport(st, t, *asJSON, chart, srcs)
}

// simulate runs the simulation, with a progress bar on stderr when it is a terminal and
// the runs take over a second.
func (c *cli) simulate(cfg analysis.SimConfig) (*analysis.Tally, error) {
	f, ok := c.stderr.(*os.File)
	if !ok || !sysio.IsTerminal(f) {
		return analysis.Simulate(cfg)
	}
	var done atomic.Int64
	cfg.Done = &done
	total := cfg.Runs
	if cfg.Last > 0 {
		total = cfg.Last - cfg.First
	}
	stop := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		start := time.Now()
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		drawn := false
		for {
			select {
			case <-stop:
				if drawn {
					fmt.Fprint(f, "\r\033[K")
				}
				return
			case <-tick.C:
				if time.Since(start) < time.Second {
					continue
				}
				drawn = true
				d := done.Load()
				fmt.Fprintf(f, "\r%s %3d%%  %d/%d runs", progressBar(float64(d)/float64(total), 30), 100*d/total, d, total)
			}
		}
	}()
	t, err := analysis.Simulate(cfg)
	close(stop)
	<-finished
	return t, err
}

// progressBar draws a fraction as n cells.
func progressBar(frac float64, n int) string {
	k := int(math.Round(frac * float64(n)))
	k = max(0, min(n, k))
	return "[" + strings.Repeat("█", k) + strings.Repeat("·", n-k) + "]"
}

// hashSources is the SHA-256 of every rule file the runs read: A's files and includes, and
// B's when B is a variant. A file read for both must have given the same bytes both times.
func hashSources(prog *dsl.Program, b *analysis.Variant, files []string) (map[string]string, int) {
	if len(files) == 0 {
		return map[string]string{}, ExitOK
	}
	h := analysis.HashSources(prog.Sources())
	if b != nil && b.Prog != prog {
		for k, v := range analysis.HashSources(b.Prog.Sources()) {
			if old, ok := h[k]; ok && old != v {
				return nil, ExitError
			}
			h[k] = v
		}
	}
	return h, ExitOK
}

// simRefuse prints a refusal of sim's and returns ExitError.
func (c *cli) simRefuse(format string, a ...any) int {
	fmt.Fprintf(c.stderr, "rulesh sim: "+format+"\n", a...)
	return ExitError
}

// shardLimit is analysis.MaxShardSize, lowered by tests.
var shardLimit = analysis.MaxShardSize

// writeShard prints a shard document, unless it is longer than --merge reads.
func (c *cli) writeShard(sh *analysis.Shard) int {
	var b bytes.Buffer
	if err := output.JSON(&b, sh); err != nil {
		return c.simRefuse("%v", err)
	}
	if b.Len() > shardLimit {
		return c.simRefuse("the shard document would be %d bytes, over the %d MiB that --merge reads (the emitted lines are too many or too long)",
			b.Len(), shardLimit>>20)
	}
	c.stdout.Write(b.Bytes())
	return ExitOK
}

// simMerge combines shard files into the single machine's result, reading one file at a
// time: only regular files of at most analysis.MaxShardSize bytes, each checked whole
// before its counts are added.
func (c *cli) simMerge(names []string, asJSON bool, chart chartOut) int {
	var m analysis.Merger
	for _, name := range names {
		data, err := sysio.ReadRegular(name, analysis.MaxShardSize)
		if err != nil {
			fmt.Fprintf(c.stderr, "rulesh sim --merge: %v\n", err)
			return ExitError
		}
		sh, err := analysis.ReadShard(data)
		if err == nil {
			err = m.Add(name, sh)
		} else {
			err = fmt.Errorf("%s: %w", name, err)
		}
		if err != nil {
			fmt.Fprintf(c.stderr, "rulesh sim --merge: %v\n", err)
			return ExitError
		}
	}
	st, t, err := m.Result()
	if err != nil {
		fmt.Fprintf(c.stderr, "rulesh sim --merge: %v\n", err)
		return ExitError
	}
	return c.simReport(st, t, asJSON, chart, nil)
}

// JSON shapes of sim: fields in the order DESIGN.md gives.
type (
	simOutcomeJSON struct {
		Value     json.RawMessage `json:"value"`
		Count     int64           `json:"count"`
		Frequency float64         `json:"frequency"`
		CI95      [2]float64      `json:"ci95"`
	}
	simQuantileJSON struct {
		Q     float64 `json:"q"`
		Value float64 `json:"value"`
	}
	simLineJSON struct {
		Line      string  `json:"line"`
		Count     int64   `json:"count"`
		Frequency float64 `json:"frequency"`
	}
	simJSON struct {
		Expr      string            `json:"expr"`
		Runs      int64             `json:"runs"`
		Seed      uint64            `json:"seed"`
		Outcomes  []simOutcomeJSON  `json:"outcomes"`
		Mean      *float64          `json:"mean"`
		Stddev    *float64          `json:"stddev"`
		Quantiles []simQuantileJSON `json:"quantiles"`
		Emitted   []simLineJSON     `json:"emitted"`
	}
	simDiffOutcomeJSON struct {
		Value         json.RawMessage `json:"value"`
		RunDifference float64         `json:"difference"`
		CI95          [2]float64      `json:"ci95"`
	}
	simDiffMeanJSON struct {
		RunDifference float64    `json:"difference"`
		CI95          [2]float64 `json:"ci95"`
	}
	simDiffJSON struct {
		Outcomes []simDiffOutcomeJSON `json:"outcomes"`
		Mean     *simDiffMeanJSON     `json:"mean"`
	}
	simCompareJSON struct {
		A             simJSON     `json:"a"`
		B             simJSON     `json:"b"`
		RunDifference simDiffJSON `json:"difference"`
	}
)

func summaryJSON(st analysis.Study, s analysis.Summary) simJSON {
	j := simJSON{Expr: st.Expr, Runs: s.Runs, Seed: st.Seed, Outcomes: []simOutcomeJSON{}, Emitted: []simLineJSON{}}
	for _, o := range s.Outcomes {
		j.Outcomes = append(j.Outcomes, simOutcomeJSON{o.Value, o.Count, o.Frequency, [2]float64{o.Lo, o.Hi}})
	}
	if s.Numeric {
		j.Mean, j.Stddev = &s.Mean, &s.Stddev
		for _, q := range s.Quantiles {
			j.Quantiles = append(j.Quantiles, simQuantileJSON{q.Level, q.Value})
		}
	}
	for _, l := range s.Emitted {
		j.Emitted = append(j.Emitted, simLineJSON(l))
	}
	if s.EmittedOverflow {
		j.Emitted = nil
	}
	return j
}

// simReport prints the result of the runs: for people, or as JSON; and the chart.
// The sources srcs (nil for merged shards) show where a failure of every run is.
func (c *cli) simReport(st analysis.Study, t *analysis.Tally, asJSON bool, chart chartOut, srcs []dsl.Sources) int {
	if len(t.Outcomes) == 1 {
		for _, o := range t.Outcomes {
			if o.Kind == analysis.KindError {
				// Every run fails, and the same way: a mistake, not a result (as prob says).
				c.everyRunFails("sim", st.Expr, strings.TrimPrefix(o.Text, "error: "), t.Failure, srcs)
				return ExitError
			}
		}
	}
	a := t.Summary(0)
	var b analysis.Summary
	var d analysis.RunDifference
	if t.Paired {
		b, d = t.Summary(1), t.RunDifference()
	}
	if chart.any() {
		if code := c.simChart(st, t, a, b, d, chart); code != 0 {
			return code
		}
	}
	if asJSON {
		if !t.Paired {
			return c.writeJSON(summaryJSON(st, a))
		}
		dj := simDiffJSON{Outcomes: []simDiffOutcomeJSON{}}
		for _, o := range d.Outcomes {
			dj.Outcomes = append(dj.Outcomes, simDiffOutcomeJSON{o.Value, o.RunDifference, [2]float64{o.Lo, o.Hi}})
		}
		if d.Numeric {
			dj.Mean = &simDiffMeanJSON{d.Mean, [2]float64{d.MeanLo, d.MeanHi}}
		}
		return c.writeJSON(simCompareJSON{summaryJSON(st, a), summaryJSON(st, b), dj})
	}
	var sb strings.Builder
	if !t.Paired {
		fmt.Fprintf(&sb, "%s: %d runs, seed %d%s\n", st.Expr, st.Runs, st.Seed, setsNote(st.Set))
		c.stdout.Write([]byte(sb.String()))
		c.printSummary(a)
		return ExitOK
	}
	what := "--compare " + st.Compare
	if st.Variant != "" {
		what = "--variant " + st.Variant
	}
	fmt.Fprintf(&sb, "%s: %d runs, seed %d%s, paired\n\nA: the rules as given\n", st.Expr, st.Runs, st.Seed, setsNote(st.Set))
	c.stdout.Write([]byte(sb.String()))
	c.printSummary(a)
	fmt.Fprintf(c.stdout, "\nB: %s\n", what)
	c.printSummary(b)
	fmt.Fprintf(c.stdout, "\nDifference B−A, run for run (paired 95%% intervals):\n")
	var rows [][]string
	var weights []float64
	for _, o := range d.Outcomes {
		rows = append(rows, []string{o.Text, output.Percent(o.A), output.Percent(o.B), signed(o.RunDifference, true),
			signed(o.Lo, true) + " … " + signed(o.Hi, true)})
		weights = append(weights, math.Abs(o.RunDifference))
	}
	output.Table(c.stdout, []string{"value", "A", "B", "B−A", "95% interval"}, rows, weights)
	if d.Numeric {
		fmt.Fprintf(c.stdout, "mean B−A %s  (95%% interval %s … %s)\n", signed(d.Mean, false), signed(d.MeanLo, false), signed(d.MeanHi, false))
	}
	return ExitOK
}

func setsNote(sets []string) string {
	if len(sets) == 0 {
		return ""
	}
	return ", --set " + strings.Join(sets, " --set ")
}

// printSummary prints one side as output.SimSummary does.
func (c *cli) printSummary(s analysis.Summary) { output.SimSummary(c.stdout, s) }

// simChart draws the outcomes (A and B side by side in a comparison).
func (c *cli) simChart(st analysis.Study, t *analysis.Tally, a, b analysis.Summary, d analysis.RunDifference, chart chartOut) int {
	var labels []string
	series := []output.Series{{Name: "A"}}
	if !t.Paired {
		series[0].Name = st.Expr
		for _, o := range a.Outcomes {
			labels = append(labels, o.Text)
			series[0].Values = append(series[0].Values, o.Frequency)
		}
	} else {
		series = append(series, output.Series{Name: "B"})
		for _, o := range d.Outcomes {
			labels = append(labels, o.Text)
			series[0].Values = append(series[0].Values, o.A)
			series[1].Values = append(series[1].Values, o.B)
		}
		series[1].Name = "B: --compare " + st.Compare
		if st.Variant != "" {
			series[1].Name = "B: --variant " + st.Variant
		}
	}
	title := fmt.Sprintf("%s — %d runs, seed %d", st.Expr, st.Runs, st.Seed)
	return c.writeChart("sim", chart, true, output.Chart{Title: title, Labels: labels, Series: series, YLabel: "frequency"})
}
