package output

import (
	"encoding/json"
	"io"
	"math"
	"strconv"
	"unicode/utf8"
)

// JSON writes v on w as one JSON document and a newline, with <, > and & left as they are.
// The error is the encoder's: a NaN or an infinity cannot be written.
func JSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Table prints aligned columns (right-aligned, as numbers are) and after each row a bar
// scaled so that the largest of weights fills 40 cells. weights has one entry per row. The
// table is written at once.
func Table(w io.Writer, header []string, rows [][]string, weights []float64) {
	width := make([]int, len(header))
	for i, h := range header {
		width[i] = utf8.RuneCountInString(h)
	}
	size := 0
	for _, r := range rows {
		for i, cell := range r {
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
	}
	for _, n := range width {
		size += n + 2
	}
	line := func(buf []byte, cells []string) []byte {
		for i, cell := range cells {
			if i > 0 {
				buf = append(buf, "  "...)
			}
			buf = appendSpaces(buf, width[i]-utf8.RuneCountInString(cell))
			buf = append(buf, cell...)
		}
		return buf
	}
	buf := make([]byte, 0, (len(rows)+1)*(size+3*40+4))
	buf = append(line(buf, header), '\n')
	top := 0.0
	for _, wt := range weights {
		top = math.Max(top, wt)
	}
	for i, r := range rows {
		buf = append(line(buf, r), "  "...)
		buf = append(appendBar(buf, weights[i], top, 40), '\n')
	}
	w.Write(buf)
}

// bar draws w/top as up to n cells with eighth-block precision; a weight above zero always
// shows.
func bar(w, top float64, n int) string { return string(appendBar(nil, w, top, n)) }

// appendBar appends bar(w, top, n).
func appendBar(buf []byte, w, top float64, n int) []byte {
	if top <= 0 {
		return buf
	}
	eighths := int(math.Round(w / top * float64(n*8)))
	if eighths == 0 && w > 0 {
		eighths = 1
	}
	for range eighths / 8 {
		buf = append(buf, "█"...)
	}
	return append(buf, blocks[eighths%8]...)
}

var blocks = [8]string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// Float writes a mean or a standard deviation with four decimals.
func Float(f float64) string { return strconv.FormatFloat(f, 'f', 4, 64) }

// Percent writes the probability p as a percentage with two decimals.
func Percent(p float64) string { return strconv.FormatFloat(p*100, 'f', 2, 64) + "%" }

// Label writes an outcome v for people: true or false for a comparison (isBool, v is 1 or
// 0), the face's symbol for a die with symbol faces (syms, v counted from 1), else the number.
func Label(v int, isBool bool, syms []string) string {
	if isBool {
		return strconv.FormatBool(v == 1)
	}
	if syms != nil && v >= 1 && v <= len(syms) {
		return syms[v-1]
	}
	return strconv.Itoa(v)
}

// Value is Label for JSON: a bool, a symbol string or a number.
func Value(v int, isBool bool, syms []string) any {
	if isBool {
		return v == 1
	}
	if syms != nil && v >= 1 && v <= len(syms) {
		return syms[v-1]
	}
	return v
}
