package cli

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"slices"
	"strings"
	"unicode/utf8"

	"rulesh/analysis"
	"rulesh/cmd/rulesh/internal/output"
	"rulesh/dsl"
)

// sweepRefused are the flags a sweep refuses beside it in command cmd.
func sweepRefused(cmd string) []string {
	switch cmd {
	case "prob":
		return []string{"variant"}
	case "sim":
		return []string{"variant", "shard", "merge"}
	}
	return nil
}

// parseSweeps reads one --sweep, or two crossed in a grid, and checks what goes with them;
// ok is false with the exit code.
func (c *cli) parseSweeps(cmd string, specs []string, set func(string) bool, overrides map[string]any) (analysis.Sweep, int, bool) {
	if len(specs) > 2 {
		fmt.Fprintf(c.stderr, "rulesh %s: --sweep given %d times: one sweeps a value, two make a grid, no more\n", cmd, len(specs))
		return analysis.Sweep{}, ExitUsage, false
	}
	var parts []analysis.Sweep
	for _, spec := range specs {
		sw, code, ok := c.parseSweep(cmd, spec, set, overrides)
		if !ok {
			return sw, code, false
		}
		parts = append(parts, sw)
	}
	if len(parts) == 1 {
		return parts[0], ExitOK, true
	}
	g, err := analysis.Grid(parts[0], parts[1])
	if err != nil {
		fmt.Fprintf(c.stderr, "rulesh %s: --sweep %v\n", cmd, err)
		return g, ExitUsage, false
	}
	return g, ExitOK, true
}

// parseSweep reads --sweep and checks what goes with it; ok is false with the exit code.
func (c *cli) parseSweep(cmd, spec string, set func(string) bool, overrides map[string]any) (analysis.Sweep, int, bool) {
	for _, f := range sweepRefused(cmd) {
		if !set(f) {
			continue
		}
		if f == "shard" {
			fmt.Fprintf(c.stderr, "rulesh %s: --sweep runs every value on this machine: it does not split into --shard\n", cmd)
		} else {
			fmt.Fprintf(c.stderr, "rulesh %s: --sweep gives one answer per value and --%s another comparison: give one (a sweep takes --compare, answering A and B at each value)\n", cmd, f)
		}
		return analysis.Sweep{}, ExitUsage, false
	}
	sw, err := analysis.ParseSweep(spec)
	if err != nil {
		fmt.Fprintf(c.stderr, "rulesh %s: --sweep %v\n", cmd, err)
		return sw, ExitUsage, false
	}
	if _, ok := overrides[sw.Name]; ok {
		fmt.Fprintf(c.stderr, "rulesh %s: --sweep %s and --set %s both give %s a value: give one\n", cmd, sw.Name, sw.Name, sw.Name)
		return sw, ExitUsage, false
	}
	return sw, ExitOK, true
}

// resolveSweep finds what the sweep's name is in the rules and the expression.
func (c *cli) resolveSweep(cmd string, sw *analysis.Sweep, prog *dsl.Program, src string) int {
	err := sw.Resolve(prog, src)
	if err == nil {
		return ExitOK
	}
	var bad *analysis.ErrSweepName
	if errors.As(err, &bad) {
		fmt.Fprintf(c.stderr, "rulesh %s: %v\n", cmd, err)
		return ExitUsage
	}
	fmt.Fprintf(c.stderr, "rulesh %s: %v\n", cmd, err)
	return ExitError
}

// sweepCompare refuses a --compare that sets a name the sweep gives values to (the sweep's
// value would win, B answering as A); ok is false when it printed why.
func (c *cli) sweepCompare(cmd string, sw analysis.Sweep, more map[string]any) bool {
	names := []string{sw.Name}
	if sw.Parts != nil {
		names = []string{sw.Parts[0].Name, sw.Parts[1].Name}
	}
	for _, n := range names {
		if _, ok := more[n]; ok {
			fmt.Fprintf(c.stderr, "rulesh %s: --sweep %s and --compare %s both give %s a value: compare another option\n", cmd, n, n, n)
			return false
		}
	}
	return true
}

// sweepWhat says what was swept, for the first line of a sweep's table.
func sweepWhat(sw analysis.Sweep) string {
	if sw.Parts != nil {
		return sweepWhat(sw.Parts[0]) + " × " + sweepWhat(sw.Parts[1])
	}
	texts := make([]string, len(sw.Values))
	for i := range sw.Values {
		texts[i] = sw.Text(i)
	}
	kind := "a name of the expression"
	if sw.Option {
		kind = "an option of the rules"
	}
	return fmt.Sprintf("%s = %s (%s)", sw.Name, strings.Join(texts, ", "), kind)
}

// sweepColumns names the columns of a sweep, one per value: NAME=VALUE.
func sweepColumns(sw analysis.Sweep) []string {
	out := make([]string, len(sw.Values))
	for i := range sw.Values {
		out[i] = sw.Label(i)
	}
	return out
}

// sweepJSON is the shape of a sweep in JSON: the name, whether it is an option or a name
// bound in the expression, and its values in order (results[i] is the answer at values[i]).
// A grid is kind "grid": its values are the pairs of its two sweeps' values, and grid
// describes those two.
type sweepJSON struct {
	Name   string      `json:"name"`
	Kind   string      `json:"kind"`
	Values []any       `json:"values"`
	Grid   []sweepJSON `json:"grid,omitempty"`
}

func newSweepJSON(sw analysis.Sweep) sweepJSON {
	if sw.Parts != nil {
		out := sweepJSON{Name: sw.Name, Kind: "grid"}
		for i := range sw.Values {
			out.Values = append(out.Values, sw.Cell(i))
		}
		for _, p := range sw.Parts {
			out.Grid = append(out.Grid, newSweepJSON(p))
		}
		return out
	}
	kind := "name"
	if sw.Option {
		kind = "option"
	}
	return sweepJSON{Name: sw.Name, Kind: kind, Values: sw.Values}
}

// sweepRow is an outcome of a sweep's table: its label, whether it is a number, and its
// probability or frequency at each value.
type sweepRow struct {
	label string
	isNum bool
	p     []float64
	has   []bool   // the outcome happened at that value (else "—")
	frac  []string // the exact probability at that value, when exact ("" otherwise)
}

// printSweepTable writes the outcomes side by side, a column per value, then the mean of
// each value when it has one ("—" otherwise), and with atLeast a column per value of
// P(outcome ≥ the row's value) when every outcome is a number. Cells are right-aligned,
// outcomes left-aligned; an outcome that did not happen at a value is "—". It returns
// false when P(≥) was asked for outcomes that are not all numbers.
func printSweepTable(w io.Writer, cols []string, rows []sweepRow, means []*float64, atLeast bool) bool {
	header := append([]string{"value"}, cols...)
	numeric := len(rows) > 0
	for _, r := range rows {
		numeric = numeric && r.isNum
	}
	refused := atLeast && !numeric
	atLeast = atLeast && numeric
	if atLeast {
		for _, c := range cols {
			header = append(header, "P(≥) "+c)
		}
	}
	var cells [][]string
	geq := make([]float64, len(cols))
	for i := range cols {
		for _, r := range rows {
			geq[i] += r.p[i]
		}
	}
	for _, r := range rows {
		line := []string{r.label}
		for i, p := range r.p {
			switch {
			case r.has[i] && r.frac != nil && r.frac[i] != "":
				line = append(line, r.frac[i]+" "+output.Percent(p))
			case r.has[i]:
				line = append(line, output.Percent(p))
			default:
				line = append(line, "—")
			}
		}
		if atLeast {
			for i, p := range r.p {
				line = append(line, output.Percent(min(1, max(0, geq[i]))))
				geq[i] -= p
			}
		}
		cells = append(cells, line)
	}
	if slices.ContainsFunc(means, func(m *float64) bool { return m != nil }) {
		line := []string{"mean"}
		for _, m := range means {
			if m == nil {
				line = append(line, "—")
			} else {
				line = append(line, output.Float(*m))
			}
		}
		cells = append(cells, line)
	}
	width := make([]int, len(header))
	for _, l := range append([][]string{header}, cells...) {
		for i, cell := range l {
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
	}
	var b strings.Builder
	for _, l := range append([][]string{header}, cells...) {
		for i, cell := range l {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(cell))
			switch {
			case i == 0:
				b.WriteString(cell + pad)
			default:
				b.WriteString("  " + pad + cell)
			}
		}
		b.WriteString("\n")
	}
	io.WriteString(w, b.String())
	return !refused
}

// probSweep answers a sweep of prob: one table, one JSON document, one chart.
// With b (--compare), each value is answered for A and for B, side by side (NAME=V A,
// NAME=V B), and the JSON gives B's answers as compare_results.
func (c *cli) probSweep(q analysis.Question, sw analysis.Sweep, opt analysis.ProbOptions, asJSON bool, chart chartOut, atLeast bool, b *analysis.Question, compare string) int {
	ds, err := analysis.ProbSweep(q, sw, opt)
	if err != nil {
		return c.probError(q.Prog, q.Expr, err)
	}
	cols := sweepColumns(sw)
	dsA := ds
	var dsB []*analysis.Dist
	if b != nil {
		if dsB, err = analysis.ProbSweep(*b, sw, opt); err != nil {
			return c.probError(q.Prog, q.Expr, err)
		}
		ds, cols = nil, nil
		for i, name := range sweepColumns(sw) {
			ds = append(ds, dsA[i], dsB[i])
			cols = append(cols, name+" A", name+" B")
		}
	}
	union := analysis.UnionOutcomes(ds)
	rows := make([]sweepRow, len(union))
	index := map[string]int{}
	for i := range union {
		o := &union[i]
		rows[i] = sweepRow{label: output.OutcomeLabel(o), isNum: o.IsNum, p: make([]float64, len(ds)), has: make([]bool, len(ds)), frac: make([]string, len(ds))}
		index[o.Key] = i
	}
	means := make([]*float64, len(ds))
	for j, d := range ds {
		for _, o := range d.Outcomes {
			rows[index[o.Key]].p[j], rows[index[o.Key]].has[j] = o.P, true
			if d.Exact && o.Fraction != nil {
				rows[index[o.Key]].frac[j] = o.Fraction.RatString()
			}
		}
		if d.Numeric {
			means[j] = &d.Mean
		}
	}
	if chart.any() {
		if code := c.writeChart("prob", chart, true, sweepChart(q.Expr+" — "+sweepWhat(sw), sw, cols, rows, b != nil, atLeast)); code != 0 {
			return code
		}
	}
	if asJSON {
		docs := func(ds []*analysis.Dist) []map[string]any {
			out := make([]map[string]any, len(ds))
			for i, d := range ds {
				out[i] = distDoc(d, q.Seed)
			}
			return out
		}
		var resultsB []map[string]any
		if dsB != nil {
			resultsB = docs(dsB)
		}
		return c.writeJSON(struct {
			Expr     string           `json:"expr"`
			Sweep    sweepJSON        `json:"sweep"`
			Results  []map[string]any `json:"results"`
			Compare  string           `json:"compare,omitempty"`
			ResultsB []map[string]any `json:"compare_results,omitempty"`
		}{q.Expr, newSweepJSON(sw), docs(dsA), compare, resultsB})
	}
	fmt.Fprintf(c.stdout, "%s, for %s\n", q.Expr, sweepWhat(sw))
	if b != nil {
		fmt.Fprintf(c.stdout, "A: the rules; B: --compare %s\n", compare)
	}
	var exact, sampled []string
	var leaves, samples int64
	for i, d := range ds {
		if d.Exact {
			exact = append(exact, cols[i])
			leaves += d.Leaves
		} else {
			sampled = append(sampled, cols[i])
			samples = d.Samples
		}
	}
	switch {
	case len(sampled) == 0:
		fmt.Fprintf(c.stdout, "exact: %s of the dice enumerated in all\n", output.Branches(leaves))
	case len(exact) == 0:
		fmt.Fprintf(c.stdout, "sampled: %d runs per value (seed %d); --json gives the 95%% intervals\n", samples, q.Seed)
	default:
		fmt.Fprintf(c.stdout, "exact for %s; sampled for %s: %d runs each (seed %d); --json gives the 95%% intervals\n",
			strings.Join(exact, ", "), strings.Join(sampled, ", "), samples, q.Seed)
	}
	if !printSweepTable(c.stdout, cols, rows, means, atLeast) {
		fmt.Fprintf(c.stderr, "rulesh prob: --at-least: the outcomes are not all numbers, no P(≥) columns\n")
	}
	return ExitOK
}

// numericRows reports that every row is a number.
func numericRows(rows []sweepRow) bool {
	for _, r := range rows {
		if !r.isNum {
			return false
		}
	}
	return len(rows) > 0
}

func rowLabels(rows []sweepRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.label
	}
	return out
}

// sweepChart is the chart of a sweep. With a few outcomes (as many as the chart has
// colours) and no B beside A, a line per outcome across the values: how the odds of each
// move with the parameter; with atLeast and numbers, the lines are P(≥ each outcome).
// Otherwise a group of bars per outcome, a bar per column: with atLeast and numbers, of
// P(≥ each outcome) too.
func sweepChart(title string, sw analysis.Sweep, cols []string, rows []sweepRow, paired, atLeast bool) output.Chart {
	ch := output.Chart{Title: title}
	if atLeast && numericRows(rows) {
		rows = atLeastRows(rows)
	}
	if !paired && len(cols) > 1 && len(rows) <= output.ChartColours {
		ch.Lines, ch.XLabel = true, sw.Name
		for i := range cols {
			if sw.Parts == nil {
				ch.Labels = append(ch.Labels, sw.Text(i)) // the axis is named NAME already
			} else {
				ch.Labels = append(ch.Labels, cols[i])
			}
		}
		for _, r := range rows {
			name := r.label
			if !strings.HasPrefix(name, "P(") {
				name = "P(" + name + ")"
			}
			ch.Series = append(ch.Series, output.Series{Name: name, Values: r.p, Fractions: r.frac})
		}
		return ch
	}
	ch.Labels = rowLabels(rows)
	ch.Series = make([]output.Series, len(cols))
	for j, name := range cols {
		ch.Series[j].Name = name
		for _, r := range rows {
			ch.Series[j].Values = append(ch.Series[j].Values, r.p[j])
			if r.frac != nil {
				ch.Series[j].Fractions = append(ch.Series[j].Fractions, r.frac[j])
			}
		}
	}
	return ch
}

// atLeastRows turns a sweep's rows (numbers, ascending) into P(≥ each): the sum of its
// row and those below it at each value, exact fractions summed when every one is there.
func atLeastRows(rows []sweepRow) []sweepRow {
	out := make([]sweepRow, len(rows))
	n := len(rows[0].p)
	sum, rsum, exact := make([]float64, n), make([]*big.Rat, n), make([]bool, n)
	for j := range n {
		rsum[j], exact[j] = new(big.Rat), true
	}
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		o := sweepRow{label: "P(≥ " + r.label + ")", isNum: true, p: make([]float64, n), has: make([]bool, n), frac: make([]string, n)}
		for j := range n {
			sum[j] += r.p[j]
			o.p[j], o.has[j] = min(1, sum[j]), true
			f, ok := new(big.Rat), false
			if r.frac != nil && r.frac[j] != "" {
				_, ok = f.SetString(r.frac[j])
			} else if !r.has[j] {
				ok = true // never there: 0
			}
			exact[j] = exact[j] && ok
			if exact[j] {
				rsum[j].Add(rsum[j], f)
				o.frac[j] = rsum[j].RatString()
				o.p[j], _ = rsum[j].Float64()
			}
		}
		out[i] = o
	}
	return out
}

// simSweepReport prints the runs of a sweep: one table (frequencies side by side), one JSON
// document, one chart.
// With tsB (--compare), each value has B's runs beside A's (NAME=V A, NAME=V B), the same
// seeds for both, and the JSON gives them as compare_results.
func (c *cli) simSweepReport(st analysis.Study, sw analysis.Sweep, tsA, tsB []*analysis.Tally, asJSON bool, chart chartOut, atLeast bool) int {
	ts := tsA
	cols := sweepColumns(sw)
	if tsB != nil {
		ts, cols = nil, nil
		for i, name := range sweepColumns(sw) {
			ts = append(ts, tsA[i], tsB[i])
			cols = append(cols, name+" A", name+" B")
		}
	}
	sums := make([]analysis.Summary, len(ts))
	var union []analysis.RunOutcome
	seen := map[string]bool{}
	for i, t := range ts {
		sums[i] = t.Summary(0)
		for _, o := range sums[i].Outcomes {
			if !seen[o.Text] {
				seen[o.Text] = true
				union = append(union, o.RunOutcome)
			}
		}
	}
	slices.SortFunc(union, analysis.CompareRunOutcomes)
	rows := make([]sweepRow, len(union))
	index := map[string]int{}
	for i, o := range union {
		rows[i] = sweepRow{label: o.Text, isNum: o.Kind == analysis.KindNumber, p: make([]float64, len(ts)), has: make([]bool, len(ts))}
		index[o.Text] = i
	}
	means := make([]*float64, len(ts))
	for j := range sums {
		for _, o := range sums[j].Outcomes {
			rows[index[o.Text]].p[j], rows[index[o.Text]].has[j] = o.Frequency, true
		}
		if sums[j].Numeric {
			means[j] = &sums[j].Mean
		}
	}
	binned := ""
	if numericRows(rows) && len(union) > output.SimMaxRows && !math.IsInf(union[len(union)-1].Num-union[0].Num, 0) {
		// As one sim draws many numbers: a row per range, the same ranges for every value.
		nums := make([]float64, len(union))
		for i, o := range union {
			nums[i] = o.Num
		}
		h := output.NewHist(nums)
		bins := make([]sweepRow, h.N)
		for i := range bins {
			bins[i] = sweepRow{label: h.Label(i), isNum: true, p: make([]float64, len(ts)), has: make([]bool, len(ts))}
		}
		for i, o := range union {
			b := &bins[h.Bin(o.Num)]
			for j := range ts {
				b.p[j] += rows[i].p[j]
				b.has[j] = b.has[j] || rows[i].has[j]
			}
		}
		rows = bins
		binned = fmt.Sprintf("%d distinct values, in %d ranges (--json lists each)\n", len(union), h.N)
	}
	if chart.any() {
		title := fmt.Sprintf("%s — %s — %d runs, seed %d", st.Expr, sweepWhat(sw), st.Runs, st.Seed)
		ch := sweepChart(title, sw, cols, rows, tsB != nil, atLeast)
		ch.YLabel = "frequency"
		if code := c.writeChart("sim", chart, true, ch); code != 0 {
			return code
		}
	}
	if asJSON {
		docs := func(ts []*analysis.Tally) []simJSON {
			out := make([]simJSON, len(ts))
			for i, t := range ts {
				out[i] = summaryJSON(st, t.Summary(0))
			}
			return out
		}
		var resultsB []simJSON
		if tsB != nil {
			resultsB = docs(tsB)
		}
		return c.writeJSON(struct {
			Expr     string    `json:"expr"`
			Runs     int64     `json:"runs"`
			Seed     uint64    `json:"seed"`
			Sweep    sweepJSON `json:"sweep"`
			Results  []simJSON `json:"results"`
			Compare  string    `json:"compare,omitempty"`
			ResultsB []simJSON `json:"compare_results,omitempty"`
		}{st.Expr, st.Runs, st.Seed, newSweepJSON(sw), docs(tsA), st.Compare, resultsB})
	}
	fmt.Fprintf(c.stdout, "%s, for %s\n%d runs per value, seed %d%s, the same runs for every value; --json gives the 95%% intervals\n%s",
		st.Expr, sweepWhat(sw), st.Runs, st.Seed, setsNote(st.Set), binned)
	if tsB != nil {
		fmt.Fprintf(c.stdout, "A: the rules; B: --compare %s\n", st.Compare)
	}
	if !printSweepTable(c.stdout, cols, rows, means, atLeast) {
		fmt.Fprintf(c.stderr, "rulesh sim: --at-least: the outcomes are not all numbers, no P(≥) columns\n")
	}
	return ExitOK
}
