package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"

	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// MaxRollCount bounds -n.
const MaxRollCount = 100_000_000

// MaxRollDice bounds the dice one roll command rolls, all rolls together: -n 10000000 of
// 10000d6 would otherwise run for hours.
const MaxRollDice = 200_000_000

// countingSource counts the dice rolled from it.
type countingSource struct {
	src dice.Source
	n   int
}

// Roll implements dice.Source, counting.
func (s *countingSource) Roll(sides int) (int, error) {
	s.n++
	return s.src.Roll(sides)
}

func (c *cli) roll(args []string) int {
	fs := c.newFlags("roll", "roll [--seed N] [-n COUNT] [--stats] [--json] [-f FILE]... EXPR")
	var files listFlag
	fs.Var(&files, "f", "load a rule `FILE` for its named dice (repeatable)")
	seed := fs.Uint64("seed", 0, "seed the dice (default: a random seed)")
	n := fs.Int("n", 1, "roll `COUNT` times")
	stats := fs.Bool("stats", false, "print mean, standard deviation, min, max and a histogram")
	asJSON := fs.Bool("json", false, "print one JSON document: {expr, n, mean, stddev, min, max, counts}")
	pos, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(pos) == 0 {
		fmt.Fprintln(c.stderr, "rulesh roll: no dice expression given")
		fs.Usage()
		return exitUsage
	}
	if *n < 1 || *n > MaxRollCount {
		fmt.Fprintf(c.stderr, "rulesh roll: -n must be between 1 and %d\n", MaxRollCount)
		return exitUsage
	}
	src := strings.Join(pos, " ")
	named, code := c.namedDice(files)
	if code != 0 {
		return code
	}
	e, err := dice.Parse(src, named)
	if err != nil {
		c.diceError(src, err)
		return exitError
	}
	s := *seed
	if !flagSet(fs, "seed") {
		s = rand.Uint64()
	}
	// One trial roll, from a source of its own, tells how many dice a roll takes.
	trial := &countingSource{src: dice.NewPCG(s)}
	if _, err := dice.NewRoller(e, trial).Total(); err != nil {
		c.diceError(src, err)
		return exitError
	}
	if trial.n > 0 && *n > MaxRollDice/trial.n {
		fmt.Fprintf(c.stderr, "rulesh roll: %d rolls of %d dice each is more than the limit of %d dice in all; roll fewer\n", *n, trial.n, MaxRollDice)
		return exitError
	}
	r := dice.NewRoller(e, dice.NewPCG(s))
	_, isBool := e.Root.(*dice.Cmp)
	if !*stats && !*asJSON {
		// Buffered: a line per roll, millions of them, one write each took minutes.
		out := bufio.NewWriter(c.stdout)
		defer out.Flush()
		for i := 0; i < *n; i++ {
			res, err := r.Roll()
			if err != nil {
				out.Flush()
				c.diceError(src, err)
				return exitError
			}
			fmt.Fprintln(out, res)
		}
		return exitOK
	}
	var h histogram
	for i := 0; i < *n; i++ {
		v, err := r.Total()
		if err != nil {
			c.diceError(src, err)
			return exitError
		}
		h.add(v)
	}
	if *asJSON {
		counts := map[string]int{}
		for i, k := range h.counts {
			if k > 0 {
				counts[valueLabel(h.min+i, isBool, nil)] = k
			}
		}
		return c.writeJSON(map[string]any{
			"expr": src, "n": *n, "mean": h.mean(), "stddev": h.stddev(),
			"min": jsonValue(h.min, isBool, nil), "max": jsonValue(h.max(), isBool, nil), "counts": counts,
		})
	}
	fmt.Fprintf(c.stdout, "%s: %d rolls\nmean %s  stddev %s  min %s  max %s\n", src, *n,
		fmtFloat(h.mean()), fmtFloat(h.stddev()), valueLabel(h.min, isBool, nil), valueLabel(h.max(), isBool, nil))
	var rows [][]string
	var weights []float64
	for i, k := range h.counts {
		if k == 0 {
			continue
		}
		p := float64(k) / float64(*n)
		rows = append(rows, []string{valueLabel(h.min+i, isBool, nil), strconv.Itoa(k), pct(p)})
		weights = append(weights, p)
	}
	c.table([]string{"value", "count", "%"}, rows, weights)
	return exitOK
}

// flagSet reports whether a flag was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// histogram counts integer results in a slice indexed from the smallest seen.
type histogram struct {
	counts []int
	min    int
	n      int
	sum    float64
	sum2   float64
}

func (h *histogram) add(v int) {
	if h.n == 0 {
		h.min = v
		h.counts = make([]int, 1, 64)
	}
	h.n++
	f := float64(v)
	h.sum += f
	h.sum2 += f * f
	if v < h.min {
		grow := h.min - v
		h.counts = append(make([]int, grow, grow+len(h.counts)), h.counts...)
		h.min = v
	}
	for v-h.min >= len(h.counts) {
		h.counts = append(h.counts, 0)
	}
	h.counts[v-h.min]++
}

func (h *histogram) max() int { return h.min + len(h.counts) - 1 }

func (h *histogram) mean() float64 { return h.sum / float64(h.n) }

func (h *histogram) stddev() float64 {
	m := h.mean()
	v := h.sum2/float64(h.n) - m*m
	if v < 0 {
		return 0
	}
	return math.Sqrt(v)
}

func valueLabel(v int, isBool bool, syms []string) string {
	if isBool {
		return strconv.FormatBool(v == 1)
	}
	if syms != nil && v >= 1 && v <= len(syms) {
		return syms[v-1]
	}
	return strconv.Itoa(v)
}

func jsonValue(v int, isBool bool, syms []string) any {
	if isBool {
		return v == 1
	}
	if syms != nil && v >= 1 && v <= len(syms) {
		return syms[v-1]
	}
	return v
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'f', 4, 64) }

func pct(p float64) string { return strconv.FormatFloat(p*100, 'f', 2, 64) + "%" }

// table prints aligned columns (numbers right-aligned) and a bar per row scaled to the
// largest weight.
func (c *cli) table(header []string, rows [][]string, weights []float64) {
	width := make([]int, len(header))
	for i, h := range header {
		width[i] = len([]rune(h))
	}
	for _, r := range rows {
		for i, cell := range r {
			width[i] = max(width[i], len([]rune(cell)))
		}
	}
	line := func(cells []string) string {
		var b strings.Builder
		for i, cell := range cells {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(strings.Repeat(" ", width[i]-len([]rune(cell))))
			b.WriteString(cell)
		}
		return b.String()
	}
	fmt.Fprintln(c.stdout, line(header))
	top := 0.0
	for _, w := range weights {
		top = math.Max(top, w)
	}
	for i, r := range rows {
		fmt.Fprintf(c.stdout, "%s  %s\n", line(r), bar(weights[i], top, 40))
	}
}

// bar draws w/top as up to n cells with eighth-block precision.
func bar(w, top float64, n int) string {
	if top <= 0 {
		return ""
	}
	eighths := int(math.Round(w / top * float64(n*8)))
	if eighths == 0 && w > 0 {
		eighths = 1
	}
	blocks := []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}
	return strings.Repeat("█", eighths/8) + blocks[eighths%8]
}

func (c *cli) prob(args []string) int {
	fs := c.newFlags("prob", "prob [-f FILE]... [--json] EXPR")
	var files listFlag
	fs.Var(&files, "f", "load a rule `FILE` for its named dice (repeatable)")
	asJSON := fs.Bool("json", false, `print one JSON document: {expr, outcomes: [{value, probability, fraction}], mean, stddev}`)
	pos, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(pos) == 0 {
		fmt.Fprintln(c.stderr, "rulesh prob: no dice expression given")
		fs.Usage()
		return exitUsage
	}
	src := strings.Join(pos, " ")
	prog, code := c.loadProgram(files, false)
	if code != 0 {
		return code
	}
	if name := strings.TrimSuffix(strings.TrimSpace(src), "()"); prog != nil && prog.Proc(name) != nil {
		// A table that rolls its own key: the distribution of its results.
		d, err := prog.TableDist(name)
		if err != nil {
			fmt.Fprintf(c.stderr, "rulesh prob: %v\n", err)
			return exitError
		}
		return c.printDist(src, d, *asJSON)
	}
	var named map[string]*dice.Die
	if prog != nil {
		named = prog.Dice()
	}
	e, err := dice.Parse(src, named)
	if err != nil {
		c.diceError(src, err)
		return exitError
	}
	d, err := e.Distribution()
	if err != nil {
		c.diceError(src, err)
		return exitError
	}
	return c.printDist(src, d, *asJSON)
}

func (c *cli) printDist(src string, d *dice.Dist, asJSON bool) int {
	type outcome struct {
		Value       any     `json:"value"`
		Probability float64 `json:"probability"`
		Fraction    string  `json:"fraction"`
	}
	var outs []outcome
	var rows [][]string
	var weights []float64
	geq := new(big.Rat).SetFrac(d.Mass(), d.Den)
	leq := new(big.Rat)
	for i, w := range d.W {
		if w.Sign() == 0 {
			continue
		}
		v := d.Min + i
		p := new(big.Rat).SetFrac(w, d.Den)
		pf, _ := p.Float64()
		outs = append(outs, outcome{jsonValue(v, d.Bool, d.Syms), pf, p.RatString()})
		leq.Add(leq, p)
		gf, _ := geq.Float64()
		lf, _ := leq.Float64()
		row := []string{valueLabel(v, d.Bool, d.Syms), p.RatString(), pct(pf)}
		if d.Syms == nil && !d.Bool {
			row = append(row, pct(gf), pct(lf))
		}
		rows = append(rows, row)
		weights = append(weights, pf)
		geq.Sub(geq, p)
	}
	trunc := d.Truncated()
	if asJSON {
		// Symbols have no mean: the keys stay, with null values.
		doc := map[string]any{"expr": src, "outcomes": outs, "mean": nil, "stddev": nil}
		if d.Syms == nil {
			doc["mean"], doc["stddev"] = d.Mean(), d.Stddev()
		}
		if trunc.Sign() > 0 {
			tf, _ := trunc.Float64()
			doc["truncated"] = tf
		}
		return c.writeJSON(doc)
	}
	if d.Syms == nil {
		fmt.Fprintf(c.stdout, "%s: mean %s, stddev %s\n", src, fmtFloat(d.Mean()), fmtFloat(d.Stddev()))
	} else {
		fmt.Fprintf(c.stdout, "%s\n", src)
	}
	header := []string{"value", "probability", "%"}
	if d.Syms == nil && !d.Bool {
		header = append(header, "P(≥)", "P(≤)")
	}
	c.table(header, rows, weights)
	if trunc.Sign() > 0 {
		tf, _ := trunc.Float64()
		fmt.Fprintf(c.stdout, "(explosions followed to depth %d; probability beyond: %.3g)\n", dice.ExactExplodeDepth, tf)
	}
	return exitOK
}

// diceError shows a notation error with the expression and a caret under the column.
func (c *cli) diceError(src string, err error) {
	if de, ok := err.(*dice.Error); ok {
		d := dsl.Diagnostics{{Pos: dsl.Pos{File: "<expr>", Line: 1, Col: de.Col}, Summary: de.Msg}}
		fmt.Fprint(c.stderr, d.Render(dsl.Sources{"<expr>": []byte(src)}))
		return
	}
	msg := err.Error()
	var col int
	if _, e := fmt.Sscanf(msg, "column %d:", &col); e == nil {
		msg = strings.TrimSpace(msg[strings.Index(msg, ":")+1:])
		d := dsl.Diagnostics{{Pos: dsl.Pos{File: "<expr>", Line: 1, Col: col}, Summary: msg}}
		fmt.Fprint(c.stderr, d.Render(dsl.Sources{"<expr>": []byte(src)}))
		return
	}
	fmt.Fprintf(c.stderr, "<expr>: %s\n", msg)
}

// namedDice loads rule files and returns their declared dice (empty without files).
func (c *cli) namedDice(files []string) (map[string]*dice.Die, int) {
	prog, code := c.loadProgram(files, false)
	if prog == nil {
		return map[string]*dice.Die{}, code
	}
	return prog.Dice(), 0
}
