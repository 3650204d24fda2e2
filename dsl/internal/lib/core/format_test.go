package core

import (
	"math"
	"testing"
)

// TestFormatDecimal: fmt_num and fmt_pct round the number as written (its shortest decimal
// form) half away from zero, with a point, and refuse what they cannot show.
func TestFormatDecimal(t *testing.T) {
	for _, c := range []struct {
		x      any
		places any
		shift  int
		want   string
		err    string
	}{
		{x: 2.675, places: 2, want: "2.68"}, // the binary 2.67499… is not what the GM wrote
		{x: 0.125, places: 2, want: "0.13"},
		{x: 5.0 / 6, places: 2, want: "0.83"},
		{x: 3, places: 2, want: "3.00"},
		{x: 3, places: 0, want: "3"},
		{x: 2.5, places: 0, want: "3"},
		{x: -2.5, places: 0, want: "-3"},
		{x: -0.5, places: 0, want: "-1"},
		{x: -0.001, places: 2, want: "0.00"},
		{x: 0.0, places: 1, want: "0.0"},
		{x: 9.995, places: 2, want: "10.00"},
		{x: 0.0005, places: 3, want: "0.001"},
		{x: 0.00049, places: 3, want: "0.000"},
		{x: 1.5e-7, places: 3, want: "0.000"},
		{x: 1e21, places: 0, want: "1000000000000000000000"},
		{x: 123456789, places: 1, want: "123456789.0"},
		{x: 1.0 / 3, places: 20, want: "0.33333333333333300000"},
		{x: 0.8333, places: 1, shift: 2, want: "83.3"},
		{x: 0.145, places: 0, shift: 2, want: "15"},
		{x: 1, places: 0, shift: 2, want: "100"},
		{x: 0.005, places: 0, shift: 2, want: "1"},
		{x: -0.25, places: 1, shift: 2, want: "-25.0"},
		{x: 1.5, places: -1, err: "fmt_num: -1 decimals: between 0 and 20"},
		{x: 1.5, places: 21, err: "fmt_num: 21 decimals: between 0 and 20"},
		{x: math.Inf(1), places: 1, err: "fmt_num: +Inf is not a finite number"},
		{x: math.NaN(), places: 1, err: "fmt_num: NaN is not a finite number"},
	} {
		got, err := formatDecimal("fmt_num", c.x, c.places, c.shift)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%v, %v: err = %v, want %q", c.x, c.places, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%v, %v (shift %d) = %q, %v; want %q", c.x, c.places, c.shift, got, err, c.want)
		}
	}
}
