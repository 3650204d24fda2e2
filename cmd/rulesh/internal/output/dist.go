package output

import (
	"fmt"
	"io"
	"math/big"

	"rulesh/stdlib/dice"
)

// Dist writes the exact distribution d of the expression src: a table of the outcomes with
// their fractions, percentages, cumulative percentages (for numbers) and bars, or with asJSON
// one JSON document {expr, outcomes: [{value, probability, fraction}], mean, stddev} (mean and
// stddev null for symbols, "truncated" added when explosions were cut). Its error is the JSON
// encoder's.
func Dist(w io.Writer, src string, d *dice.Dist, asJSON bool) error {
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
	for i, wt := range d.W {
		if wt.Sign() == 0 {
			continue
		}
		v := d.Min + i
		p := new(big.Rat).SetFrac(wt, d.Den)
		pf, _ := p.Float64()
		outs = append(outs, outcome{Value(v, d.Bool, d.Syms), pf, p.RatString()})
		leq.Add(leq, p)
		gf, _ := geq.Float64()
		lf, _ := leq.Float64()
		row := []string{Label(v, d.Bool, d.Syms), p.RatString(), Percent(pf)}
		if d.Syms == nil && !d.Bool {
			row = append(row, Percent(gf), Percent(lf))
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
		return JSON(w, doc)
	}
	if d.Syms == nil {
		fmt.Fprintf(w, "%s: mean %s, stddev %s\n", src, Float(d.Mean()), Float(d.Stddev()))
	} else {
		fmt.Fprintf(w, "%s\n", src)
	}
	header := []string{"value", "probability", "%"}
	if d.Syms == nil && !d.Bool {
		header = append(header, "P(≥)", "P(≤)")
	}
	Table(w, header, rows, weights)
	if trunc.Sign() > 0 {
		tf, _ := trunc.Float64()
		fmt.Fprintf(w, "(explosions followed to depth %d; probability beyond: %.3g)\n", dice.ExactExplodeDepth, tf)
	}
	return nil
}
