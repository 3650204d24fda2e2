package output

import (
	"fmt"
	"io"
	"math"
	"math/big"
	"strings"

	"rulesh/stdlib/dice"
)

// refDist is Dist as it was before the output path was made fast (a big.Rat per row, Table
// from [][]string, a write per line): the reference the golden comparison holds Dist to,
// byte for byte.
func refDist(w io.Writer, src string, d *dice.Dist, asJSON bool) error {
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
	refTable(w, header, rows, weights)
	if trunc.Sign() > 0 {
		tf, _ := trunc.Float64()
		fmt.Fprintf(w, "(explosions followed until each exploding term leaves out less than %g; left out: %.3g, which the mean counts)\n", dice.ExplodeCutoff, tf)
	}
	return nil
}

// refTable is Table as it was: the reference for Table and for Dist's tables.
func refTable(w io.Writer, header []string, rows [][]string, weights []float64) {
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
	fmt.Fprintln(w, line(header))
	top := 0.0
	for _, wt := range weights {
		top = math.Max(top, wt)
	}
	for i, r := range rows {
		fmt.Fprintf(w, "%s  %s\n", line(r), refBar(weights[i], top, 40))
	}
}

// refBar is bar as it was.
func refBar(w, top float64, n int) string {
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
