package output

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"rulesh/analysis"
)

// simTopLines is how many emitted lines a simulation's summary lists.
const simTopLines = 10

// SimMaxRows is how many distinct numbers a simulation's summary lists one by one; more are
// binned into a histogram.
const SimMaxRows = 30

// SimSummary prints one side of a simulation as `rulesh sim` and the REPL's :sim show it:
// outcomes (or a histogram of many numbers), moments,
// quantiles and the lines emitted most often.
func SimSummary(w io.Writer, s analysis.Summary) {
	if s.Numeric && len(s.Outcomes) > SimMaxRows && !math.IsInf(s.Outcomes[len(s.Outcomes)-1].Num-s.Outcomes[0].Num, 0) {
		printHistogram(w, s)
	} else {
		var rows [][]string
		var weights []float64
		for _, o := range s.Outcomes {
			rows = append(rows, []string{o.Text, strconv.FormatInt(o.Count, 10), Percent(o.Frequency),
				Percent(o.Lo) + " … " + Percent(o.Hi)})
			weights = append(weights, o.Frequency)
		}
		Table(w, []string{"value", "count", "frequency", "95% interval"}, rows, weights)
	}
	if s.Numeric {
		fmt.Fprintf(w, "mean %s  stddev %s\nquantiles", Float(s.Mean), Float(s.Stddev))
		for _, q := range s.Quantiles {
			fmt.Fprintf(w, "  %s%% %s", strconv.FormatFloat(q.Level*100, 'f', -1, 64), strconv.FormatFloat(q.Value, 'g', -1, 64))
		}
		fmt.Fprintln(w)
	}
	if s.EmittedOverflow {
		fmt.Fprintf(w, "emitted: more than %d distinct lines, not counted\n", analysis.MaxEmittedLines)
	}
	if len(s.Emitted) > 0 {
		top := s.Emitted[:min(len(s.Emitted), simTopLines)]
		fmt.Fprintf(w, "emitted: %d distinct lines; the runs that emitted each", len(s.Emitted))
		if len(top) < len(s.Emitted) {
			fmt.Fprintf(w, " (the %d most frequent; --json lists all)", len(top))
		}
		fmt.Fprintln(w, ":")
		var rows [][]string
		for _, l := range top {
			rows = append(rows, []string{strconv.FormatInt(l.Count, 10), Percent(l.Frequency), l.Line})
		}
		tableNoBars(w, rows)
	}
}

// tableNoBars prints rows with the numbers right-aligned and the last column (text) as is.
func tableNoBars(w io.Writer, rows [][]string) {
	width := make([]int, 2)
	for _, r := range rows {
		for i := range width {
			width[i] = max(width[i], len(r[i]))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "  %*s  %*s  %s\n", width[0], r[0], width[1], r[1], r[2])
	}
	w.Write([]byte(b.String()))
}

// printHistogram bins many distinct numbers into about 20 equal ranges: of whole numbers
// when every outcome is one (22–24, both ends in), else half-open ranges.
func printHistogram(w io.Writer, s analysis.Summary) {
	nums := make([]float64, len(s.Outcomes))
	for i, o := range s.Outcomes {
		nums[i] = o.Num
	}
	h := NewHist(nums)
	counts := make([]int64, h.N)
	for _, o := range s.Outcomes {
		counts[h.Bin(o.Num)] += o.Count
	}
	fmt.Fprintf(w, "%d distinct values, in %d ranges (--json lists each):\n", len(s.Outcomes), h.N)
	var rows [][]string
	var weights []float64
	for i, k := range counts {
		rows = append(rows, []string{h.Label(i), strconv.FormatInt(k, 10), Percent(float64(k) / float64(s.Runs))})
		weights = append(weights, float64(k))
	}
	Table(w, []string{"range", "count", "frequency"}, rows, weights)
}

// Hist is a binning of sorted numbers into about 20 equal ranges (printHistogram).
type Hist struct {
	lo, hi, width float64
	N             int
	whole         bool
}

// NewHist bins sorted numbers (at least one) into about 20 equal ranges.
func NewHist(sorted []float64) Hist {
	const bins = 20
	h := Hist{lo: sorted[0], hi: sorted[len(sorted)-1], whole: true, N: bins}
	for _, x := range sorted {
		h.whole = h.whole && x == math.Trunc(x) && math.Abs(x) < 1<<53
	}
	h.width = (h.hi - h.lo) / bins
	if h.whole {
		h.width = math.Ceil((h.hi - h.lo + 1) / bins)
		h.N = int(math.Ceil((h.hi - h.lo + 1) / h.width))
	}
	return h
}

// Bin is the range x falls in.
func (h Hist) Bin(x float64) int {
	if h.width <= 0 {
		return h.N - 1
	}
	return min(h.N-1, int((x-h.lo)/h.width))
}

// Label names range i: 22–24 (whole numbers, both ends in), [1.5, 2) or the last [a, b].
func (h Hist) Label(i int) string {
	num := func(f float64) string { return strconv.FormatFloat(round4(f), 'g', -1, 64) }
	from, to := h.lo+float64(i)*h.width, h.lo+float64(i+1)*h.width
	switch {
	case h.whole && (h.width == 1 || from == min(to-1, h.hi)):
		return num(from)
	case h.whole:
		return num(from) + "–" + num(min(to-1, h.hi))
	case i == h.N-1:
		return "[" + num(from) + ", " + num(h.hi) + "]"
	}
	return "[" + num(from) + ", " + num(to) + ")"
}

func round4(f float64) float64 { return math.Round(f*1e4) / 1e4 }
