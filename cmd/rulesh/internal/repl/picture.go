package repl

import (
	"math/big"
	"strings"

	"rulesh/analysis"
	"rulesh/cmd/rulesh/internal/output"
	"rulesh/stdlib/dice"
)

// chartSeries is what a chart draws: one label per outcome, one probability per label, and
// its exact fraction ("7/36"), shown when a bar is hovered, where the odds are exact.
type chartSeries struct {
	labels []string
	values []float64
	fracs  []string
}

// chart hands the bar chart of an answer of :prob to the session's picture receiver, when
// it has one (the playground); the terminal draws none.
func (s *Shell) chart(title string, cs chartSeries) {
	if s.picture == nil || len(cs.labels) == 0 {
		return
	}
	ch := output.Chart{Title: title, Labels: cs.labels, Series: []output.Series{{Name: title, Values: cs.values, Fractions: cs.fracs}}}
	if svg, err := chartSVG(ch); err == nil {
		s.picture(svg)
	}
}

// chartSVG is the one call of the chart drawer, so that a change of its signature is
// answered here alone.
func chartSVG(ch output.Chart) (string, error) {
	var b strings.Builder
	err := ch.SVG(&b)
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
		r := new(big.Rat).SetFrac(w, d.Den)
		p, _ := r.Float64()
		cs.values = append(cs.values, p)
		cs.fracs = append(cs.fracs, r.RatString())
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
		cs.fracs = append(cs.fracs, fraction(o))
	}
	return cs
}

// fraction is an outcome's exact probability as a fraction, "" when it was sampled.
func fraction(o *analysis.Outcome) string {
	if o.Fraction == nil {
		return ""
	}
	return o.Fraction.RatString()
}
