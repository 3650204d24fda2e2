package output

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"unicode/utf8"

	"rulesh/stdlib/dice"
)

// Dist writes the exact distribution d of the expression src: a table of the outcomes with
// their fractions, percentages, cumulative percentages (for numbers) and bars, or with asJSON
// one JSON document {expr, outcomes: [{value, probability, fraction}], mean, stddev} (mean and
// stddev null for symbols, "truncated" added when explosions were cut). Its error is the JSON
// encoder's.
//
// Distributions of hundreds of dice have thousands of outcomes with weights of thousands of
// bits, so no row costs a big.Rat: the fractions share d.Den and are reduced by its small
// prime factors (fractions), each probability and cumulative probability is one rounded
// division (quotient) of a running integer sum by d.Den, and the text is written in blocks
// of a megabyte. The result is byte for byte what big.Rat arithmetic per row printed.
func Dist(w io.Writer, src string, d *dice.Dist, asJSON bool) error {
	numeric := d.Syms == nil && !d.Bool
	rows, text, trunc := distRows(d, numeric)
	var mean, stddev float64
	if d.Syms == nil {
		mean, stddev = d.Moments()
	}
	if asJSON {
		return distJSON(w, src, d, rows, text, mean, stddev, trunc)
	}
	buf := make([]byte, 0, min(len(text)+len(rows)*(48+3*40)+256, outBlock+64<<10))
	if d.Syms == nil {
		buf = append(buf, src...)
		buf = append(buf, ": mean "...)
		buf = strconv.AppendFloat(buf, mean, 'f', 4, 64)
		buf = append(buf, ", stddev "...)
		buf = strconv.AppendFloat(buf, stddev, 'f', 4, 64)
		buf = append(buf, '\n')
	} else {
		buf = append(buf, src...)
		buf = append(buf, '\n')
	}
	header := []string{"value", "probability", "%"}
	if numeric {
		header = append(header, "P(≥)", "P(≤)")
	}
	ncol := len(header)
	width := make([]int, ncol)
	for i, h := range header {
		width[i] = utf8.RuneCountInString(h)
	}
	top := 0.0
	for i := range rows {
		r := &rows[i]
		for c := range ncol {
			width[c] = max(width[c], utf8.RuneCount(text[r.cell[c]:r.cell[c+1]]))
		}
		top = math.Max(top, r.p)
	}
	for c, h := range header {
		if c > 0 {
			buf = append(buf, "  "...)
		}
		buf = appendSpaces(buf, width[c]-utf8.RuneCountInString(h))
		buf = append(buf, h...)
	}
	buf = append(buf, '\n')
	for i := range rows {
		r := &rows[i]
		for c := range ncol {
			if c > 0 {
				buf = append(buf, "  "...)
			}
			cell := text[r.cell[c]:r.cell[c+1]]
			buf = appendSpaces(buf, width[c]-utf8.RuneCount(cell))
			buf = append(buf, cell...)
		}
		buf = append(buf, "  "...)
		buf = appendBar(buf, r.p, top, 40)
		buf = append(buf, '\n')
		if len(buf) >= outBlock {
			w.Write(buf)
			buf = buf[:0]
		}
	}
	if trunc != nil {
		buf = fmt.Appendf(buf, "(explosions followed until each exploding term leaves out less than %g; left out: %.3g, which the mean counts)\n", dice.ExplodeCutoff, *trunc)
	}
	w.Write(buf)
	return nil
}

// outBlock: Dist writes its text in blocks of about this many bytes, in one write unless the
// table is long.
const outBlock = 1 << 20

// distRow is one outcome of Dist: its value, probability, and its cells in the text
// distRows writes (label, fraction, percentage, then for numbers P(≥) and P(≤)), cell c
// being text[cell[c]:cell[c+1]].
type distRow struct {
	v    int
	p    float64
	cell [6]int32
}

// frac returns the row's fraction.
func (r *distRow) frac(text []byte) []byte { return text[r.cell[1]:r.cell[2]] }

// distRows computes the rows of d's outcomes of nonzero weight and the probability lost to
// truncated explosions (nil when none is).
func distRows(d *dice.Dist, numeric bool) ([]distRow, []byte, *float64) {
	mass := d.Mass()
	rows := make([]distRow, 0, len(d.W))
	// A fraction is at most twice the denominator's digits; the rest of a row, 40 bytes.
	text := make([]byte, 0, len(d.W)*(2*(d.Den.BitLen()*30103/100000+1)+40))
	var z quotient
	fr := newFractions(d.Den)
	// leq is the weight up to the current outcome, geq = mass less the weight before it.
	leq, geq := new(big.Int), new(big.Int).Set(mass)
	for i, wt := range d.W {
		if wt.Sign() == 0 {
			continue
		}
		v := d.Min + i
		r := distRow{v: v}
		r.p = z.float(wt, d.Den)
		r.cell[0] = int32(len(text))
		if numeric {
			text = strconv.AppendInt(text, int64(v), 10)
		} else {
			text = append(text, Label(v, d.Bool, d.Syms)...)
		}
		r.cell[1] = int32(len(text))
		text = fr.appendFrac(text, wt)
		r.cell[2] = int32(len(text))
		text = appendPercent(text, r.p)
		r.cell[3] = int32(len(text))
		leq.Add(leq, wt)
		if numeric {
			text = appendPercent(text, z.float(geq, d.Den))
			r.cell[4] = int32(len(text))
			text = appendPercent(text, z.float(leq, d.Den))
			r.cell[5] = int32(len(text))
		}
		geq.Sub(geq, wt)
		rows = append(rows, r)
	}
	lost := new(big.Int).Sub(d.Den, mass)
	if lost.Sign() > 0 {
		tf := z.float(lost, d.Den)
		return rows, text, &tf
	}
	return rows, text, nil
}

// distJSON writes Dist's JSON document: the bytes encoding/json writes for the map
// {expr, mean, outcomes, stddev[, truncated]} with outcomes [{value, probability,
// fraction}], its keys sorted and no HTML escapes.
func distJSON(w io.Writer, src string, d *dice.Dist, rows []distRow, text []byte, mean, stddev float64, trunc *float64) error {
	for _, f := range []float64{mean, stddev} {
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return JSON(w, f) // the encoder's error, as for the whole document
		}
	}
	buf := make([]byte, 0, min(len(text)+len(rows)*64+256, outBlock+64<<10))
	buf = append(buf, `{"expr":`...)
	buf = appendJSONString(buf, src)
	buf = append(buf, `,"mean":`...)
	if d.Syms == nil {
		buf = appendJSONFloat(buf, mean)
	} else {
		buf = append(buf, "null"...)
	}
	buf = append(buf, `,"outcomes":`...)
	if len(rows) == 0 {
		buf = append(buf, "null"...)
	} else {
		buf = append(buf, '[')
		for i := range rows {
			r := &rows[i]
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, `{"value":`...)
			switch {
			case d.Bool:
				buf = strconv.AppendBool(buf, r.v == 1)
			case d.Syms != nil && r.v >= 1 && r.v <= len(d.Syms):
				buf = appendJSONString(buf, d.Syms[r.v-1])
			default:
				buf = strconv.AppendInt(buf, int64(r.v), 10)
			}
			buf = append(buf, `,"probability":`...)
			buf = appendJSONFloat(buf, r.p)
			buf = append(buf, `,"fraction":"`...)
			buf = append(buf, r.frac(text)...)
			buf = append(buf, `"}`...)
			if len(buf) >= outBlock {
				if _, err := w.Write(buf); err != nil {
					return err
				}
				buf = buf[:0]
			}
		}
		buf = append(buf, ']')
	}
	buf = append(buf, `,"stddev":`...)
	if d.Syms == nil {
		buf = appendJSONFloat(buf, stddev)
	} else {
		buf = append(buf, "null"...)
	}
	if trunc != nil {
		buf = append(buf, `,"truncated":`...)
		buf = appendJSONFloat(buf, *trunc)
	}
	buf = append(buf, "}\n"...)
	_, err := w.Write(buf)
	return err
}

// appendJSONFloat appends f as encoding/json writes a float64.
func appendJSONFloat(buf []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	buf = strconv.AppendFloat(buf, f, format, -1, 64)
	if format == 'e' {
		// e-09 is written e-9
		if n := len(buf); n >= 4 && buf[n-4] == 'e' && buf[n-3] == '-' && buf[n-2] == '0' {
			buf[n-2] = buf[n-1]
			buf = buf[:n-1]
		}
	}
	return buf
}

// appendJSONString appends s as JSON writes it (no HTML escapes).
func appendJSONString(buf []byte, s string) []byte {
	var b bytes.Buffer
	JSON(&b, s) // a string always encodes
	return append(buf, bytes.TrimSuffix(b.Bytes(), []byte{'\n'})...)
}

// appendPercent appends Percent(p).
func appendPercent(buf []byte, p float64) []byte {
	return append(strconv.AppendFloat(buf, p*100, 'f', 2, 64), '%')
}

func appendSpaces(buf []byte, n int) []byte {
	for ; n > 0; n-- {
		buf = append(buf, ' ')
	}
	return buf
}
