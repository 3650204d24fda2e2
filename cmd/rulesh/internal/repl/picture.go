package repl

import (
	"math/big"
	"strings"

	"rulesh/analysis"
	"rulesh/cmd/rulesh/internal/output"
	"rulesh/stdlib/dice"
)

// chartSeries is what a chart draws: one label per outcome, one probability per label.
type chartSeries struct {
	labels []string
	values []float64
}

// chart hands the bar chart of an answer of :prob to the session's picture receiver, when
// it has one (the playground); the terminal draws none.
func (s *Shell) chart(title string, cs chartSeries) {
	if s.picture == nil || len(cs.labels) == 0 {
		return
	}
	if svg, err := chartSVG(title, cs.labels, []output.Series{{Name: title, Values: cs.values}}); err == nil {
		s.picture(svg)
	}
}

// chartSVG is the one call of the chart drawer, so that a change of its signature is
// answered here alone.
func chartSVG(title string, labels []string, series []output.Series) (string, error) {
	var b strings.Builder
	err := output.ChartSVG(&b, title, labels, series)
	return b.String(), err
}

// convSeries is the chart of a distribution of dice computed by convolution: its outcomes
// of nonzero weight, in order.
func convSeries(d *dice.Dist) chartSeries {
	var cs chartSeries
	for i, w := range d.W {
		if w.Sign() == 0 {
			continue
		}
		cs.labels = append(cs.labels, output.Label(d.Min+i, d.Bool, d.Syms))
		p, _ := new(big.Rat).SetFrac(w, d.Den).Float64()
		cs.values = append(cs.values, p)
	}
	return cs
}

// distSeries is the chart of the engine's distribution, outcome by outcome.
func distSeries(d *analysis.Dist) chartSeries {
	var cs chartSeries
	for i := range d.Outcomes {
		o := &d.Outcomes[i]
		cs.labels = append(cs.labels, output.OutcomeLabel(o))
		cs.values = append(cs.values, o.P)
	}
	return cs
}
