package runtime

import (
	"math"
	"strconv"
)

// Digits is how many significant decimal digits a fraction keeps when rules compare,
// round or print it. A float64 holds 15 of them faithfully, so a number computed from
// decimal literals and whole-number divisions reads as its decimal value: 1 - 8/10 is 0.2
// (not 0.19999999999999996), 0.1 + 0.2 is 0.3, and 0.7 * 10 is 7.
const Digits = 15

// Snap is f as rules see it: rounded to Digits significant decimal digits. Infinities and
// NaN are themselves.
func Snap(f float64) float64 {
	if f == 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return f
	}
	// A whole number below 1e15 has at most Digits digits: it is its own value, without
	// the text made and read back (a distance rounded to its decimals, then divided).
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return f
	}
	s, err := strconv.ParseFloat(strconv.FormatFloat(f, 'g', Digits, 64), 64)
	if err != nil {
		return f
	}
	return s
}

// CompareNum compares two numbers as rules see them (Snap): -1, 0 or 1. NaN is equal to
// nothing and is reported as 2.
func CompareNum(a, b float64) int {
	if a == b {
		return 0
	}
	if math.IsNaN(a) || math.IsNaN(b) {
		return 2
	}
	// Numbers apart by more than the last kept digit compare as they are.
	if d := math.Abs(a - b); d > 1e-9*math.Max(math.Abs(a), math.Abs(b)) {
		if a < b {
			return -1
		}
		return 1
	}
	sa, sb := Snap(a), Snap(b)
	switch {
	case sa < sb:
		return -1
	case sa > sb:
		return 1
	}
	return 0
}
