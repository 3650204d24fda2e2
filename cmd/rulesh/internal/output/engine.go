package output

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"rulesh/analysis"
)

// OutcomeLabel writes an outcome for people: its value or failure, then the lines it emitted.
func OutcomeLabel(o *analysis.Outcome) string {
	if o.Emitted == nil {
		return o.Text
	}
	if len(o.Emitted) == 0 {
		return o.Text + " — (nothing emitted)"
	}
	return o.Text + " — " + strings.Join(o.Emitted, " / ")
}

// Branches counts branches of the dice in words: "1 branch", "12 branches".
func Branches(n int64) string {
	if n == 1 {
		return "1 branch"
	}
	return fmt.Sprintf("%d branches", n)
}

// howAnswered says whether the odds are exact or sampled, and from how many runs.
func howAnswered(d *analysis.Dist, seed uint64) string {
	if d.Exact {
		return fmt.Sprintf("exact: %s of the dice enumerated", Branches(d.Leaves))
	}
	return fmt.Sprintf("sampled: %d runs (seed %d), 95%% intervals", d.Samples, seed)
}

// EngineDist writes an answer of the analysis engine for people (rulesh prob, :prob): the
// outcomes with their exact fractions, or their counts and 95% intervals when sampled; seed
// is the sampling's, said in the heading.
func EngineDist(w io.Writer, d *analysis.Dist, seed uint64) {
	switch {
	case d.Numeric && !d.Exact:
		// A sampled mean says how sure it is, as a sampled probability does.
		fmt.Fprintf(w, "%s: mean %s (95%%: %s–%s), stddev %s\n", d.Expr, Float(d.Mean), Float(d.MeanLo), Float(d.MeanHi), Float(d.Stddev))
	case d.Numeric:
		fmt.Fprintf(w, "%s: mean %s, stddev %s\n", d.Expr, Float(d.Mean), Float(d.Stddev))
	default:
		fmt.Fprintln(w, d.Expr)
	}
	fmt.Fprintln(w, howAnswered(d, seed))
	if len(d.Outcomes) > 0 && d.Outcomes[0].Emitted != nil {
		printEmits(w, d)
		return
	}
	var header []string
	if d.Exact {
		header = []string{"value", "probability", "%"}
		if d.Numeric {
			header = append(header, "P(≥)", "P(≤)")
		}
	} else {
		header = []string{"value", "count", "%", "ci95"}
	}
	rows := make([][]string, 0, len(d.Outcomes))
	weights := make([]float64, 0, len(d.Outcomes))
	geq, leq := 1.0, 0.0
	for i := range d.Outcomes {
		o := &d.Outcomes[i]
		if d.Exact {
			row := []string{OutcomeLabel(o), o.Fraction.RatString(), Percent(o.P)}
			if d.Numeric {
				leq += o.P
				row = append(row, Percent(max(0, geq)), Percent(min(1, leq)))
				geq -= o.P
			}
			rows = append(rows, row)
		} else {
			rows = append(rows, []string{OutcomeLabel(o), strconv.FormatInt(o.Count, 10), Percent(o.P), Percent(o.Lo) + "–" + Percent(o.Hi)})
		}
		weights = append(weights, o.P)
	}
	Table(w, header, rows, weights)
}

// printEmits writes outcomes that carry emitted lines: a line per outcome (its value,
// probability and interval), then its lines indented.
func printEmits(w io.Writer, d *analysis.Dist) {
	for i := range d.Outcomes {
		o := &d.Outcomes[i]
		if d.Exact {
			fmt.Fprintf(w, "%s  %s  %s\n", o.Text, o.Fraction.RatString(), Percent(o.P))
		} else {
			fmt.Fprintf(w, "%s  %d  %s  %s–%s\n", o.Text, o.Count, Percent(o.P), Percent(o.Lo), Percent(o.Hi))
		}
		for _, line := range o.Emitted {
			fmt.Fprintf(w, "    %s\n", line)
		}
	}
}
