package core

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"rulesh/dsl/internal/runtime"
)

// Div is div(x, y): the whole quotient rounded down (toward minus infinity, so div(-7, 2)
// is -4, where Go's / gives -3), as a GM halves a negative modifier. A zero divisor is an
// error.
func Div(x, y int) (int, error) {
	if y == 0 {
		return 0, runtime.NewError("division by zero")
	}
	q := x / y
	if (x%y != 0) && ((x < 0) != (y < 0)) {
		q--
	}
	return q, nil
}

// Clamp is clamp(x, lo, hi): x held between lo and hi (lo wins when lo > hi). An int x
// gives an int, a bound it meets cut toward zero (Clamp(3, 0, 2.5) is 2); a fraction gives
// a fraction. The expression engine passes three ints or three fractions (clamp(3, 0, 2.5)
// in a rule is 2.5).
func Clamp(x, lo, hi any) any {
	r := math.Max(runtime.ToFloat(lo), math.Min(runtime.ToFloat(hi), runtime.ToFloat(x)))
	if _, ok := x.(int); ok {
		return int(r)
	}
	return r
}

// Half is half(x): x / 2 rounded down, as an int (half(-3) is -2). A roll is its total.
func Half(x any) int { return int(math.Floor(number(x) / 2)) }

// Sign is sign(x): 1, -1 or 0 by the sign of x (0 for NaN). A roll is its total.
func Sign(x any) int {
	f := number(x)
	switch {
	case f > 0:
		return 1
	case f < 0:
		return -1
	}
	return 0
}

// Ceil is ceil(x): the smallest whole number not below x as rules see it (runtime.Snap, so
// ceil(0.7 * 10) is 7, not 8). A roll is its total.
func Ceil(x any) (int, error) { return whole("ceil", math.Ceil, x) }

// Floor is floor(x): the largest whole number not above x as rules see it.
func Floor(x any) (int, error) { return whole("floor", math.Floor, x) }

// Round is round(x): the nearest whole number, a half rounded away from zero (round(2.5) is
// 3, round(-2.5) is -3).
func Round(x any) (int, error) { return whole("round", math.Round, x) }

// whole rounds x with f after Snap; a number beyond the whole numbers (NaN, ±Inf, 1e300) is
// an error naming the function.
func whole(name string, f func(float64) float64, v any) (int, error) {
	if i, ok := v.(int); ok {
		return i, nil
	}
	x := number(v)
	w := f(runtime.Snap(x))
	if math.IsNaN(w) || w < -(1<<63) || w >= 1<<63 {
		return 0, runtime.Errorf("%s(%s): beyond the whole numbers", name, runtime.FormatFloat(x))
	}
	return int(w), nil
}

// number is a number's value as a float, a roll's total for a roll (runtime.ToFloat knows
// numbers only); 0 for anything else.
func number(v any) float64 {
	if r, ok := v.(*runtime.Roll); ok {
		return float64(r.Total)
	}
	return runtime.ToFloat(v)
}

// Pct is pct(x): x per cent as a fraction, as rules see it (pct(15) is 0.15).
func Pct(x any) float64 { return runtime.Snap(runtime.ToFloat(x) / 100) }

// Sqrt is sqrt(x); the root of a negative number is an error.
func Sqrt(x any) (float64, error) {
	f := runtime.ToFloat(x)
	if f < 0 {
		return 0, runtime.Errorf("sqrt of a negative number (%s)", runtime.FormatFloat(f))
	}
	return math.Sqrt(f), nil
}

// Hypot is hypot(x, y), the length of the hypotenuse; one that overflows is an error.
func Hypot(x, y any) (any, error) {
	return runtime.Finite(math.Hypot(runtime.ToFloat(x), runtime.ToFloat(y)), "hypot")
}

// Total is total(v): a roll's total, a number as an int (a fraction cut toward zero). A
// roll of a face with a name has no number: an error, as is any other value, in the words
// of the other builtins' number checks (runtime.NumberArgs). Its signature takes any, so
// no check runs before it: it refuses the value itself.
func Total(v any) (int, error) {
	switch x := v.(type) {
	case int:
		return x, nil
	case float64:
		return int(x), nil
	case *runtime.Roll:
		if x.Symbol() != "" {
			return 0, runtime.Errorf("%s is the face %s: it has a name, not a number", x, x.Symbol())
		}
		return x.Total, nil
	}
	return 0, runtime.Errorf("total: argument 1 must be a number or a roll, got %s", runtime.Described(v))
}

// Int is int(v): a fraction cut toward zero, a string read (spaces around it allowed), a
// roll taken as its total. Go would wrap a fraction beyond the whole numbers into any
// value: that is an error, as is a string that is no whole number.
func Int(v any) (int, error) {
	switch x := v.(type) {
	case int:
		return x, nil
	case float64:
		if math.IsNaN(x) || x >= math.MaxInt64 || x < math.MinInt64 {
			return 0, runtime.Errorf("int(%s): beyond the whole numbers (%d to %d)", runtime.FormatFloat(x), math.MinInt64, math.MaxInt64)
		}
		return int(x), nil
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			return 0, runtime.Errorf("int(%q): not a whole number", x)
		}
		return n, nil
	case *runtime.Roll:
		return x.Total, nil
	}
	return 0, runtime.Errorf("int takes a number or a string, not %s", runtime.TypeName(v))
}

// Float is float(v): a number as a fraction, a string read (spaces around it allowed, as
// Int does), a roll taken as its total. A string that reads as no finite number ("abc", "",
// "NaN", "1e400") is an error naming it.
func Float(v any) (float64, error) {
	switch x := v.(type) {
	case int:
		return float64(x), nil
	case float64:
		return x, nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, runtime.Errorf("float(%q): not a number", x)
		}
		return f, nil
	case *runtime.Roll:
		return float64(x.Total), nil
	}
	return 0, runtime.Errorf("float takes a number or a string, not %s", runtime.TypeName(v))
}

// Compare is a comparison of two numbers (op one of < <= > >= == !=) as rules see them
// (runtime.CompareNum): 1 - 8/10 >= 0.2 holds. NaN is equal to nothing, not even itself.
func Compare(op string, a, b any) bool {
	c := runtime.CompareNum(runtime.ToFloat(a), runtime.ToFloat(b))
	switch op {
	case "<":
		return c == -1
	case "<=":
		return c == -1 || c == 0
	case ">":
		return c == 1
	case ">=":
		return c == 1 || c == 0
	case "==":
		return c == 0
	}
	return c != 0
}

// maxDecimals bounds the decimals fmt_num and fmt_pct show.
const maxDecimals = 20

// FmtNum is fmt_num(x, places): x written with places decimals (0 to 20), rounded as
// formatDecimal says. A roll is its total.
func FmtNum(x, places any) (string, error) { return formatDecimal("fmt_num", x, places, 0) }

// FmtPct is fmt_pct(x, places): the fraction x as a percentage with places decimals and a
// % sign (fmt_pct(0.8333, 1) is "83.3%").
func FmtPct(x, places any) (string, error) {
	s, err := formatDecimal("fmt_pct", x, places, 2)
	if err != nil {
		return "", err
	}
	return s + "%", nil
}

// formatDecimal writes x times 10^shift with places decimals after a point, rounding the
// number as it is written (its shortest decimal form, so 2.675 is 2.675 and not the binary
// 2.67499…) half away from zero: fmt_num(2.675, 2) is "2.68", fmt_num(-0.5, 0) is "-1". A
// result that rounds to zero has no sign.
func formatDecimal(fn string, x, places any, shift int) (string, error) {
	f := number(x)
	n := runtime.ToInt(places)
	if n < 0 || n > maxDecimals {
		return "", runtime.Errorf("%s: %d decimals: between 0 and %d", fn, n, maxDecimals)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", runtime.Errorf("%s: %s is not a finite number", fn, runtime.FormatFloat(f))
	}
	// "d.dddde±x": the digits, and where the point goes; 15 significant digits, the
	// precision at which the language compares and prints fractions (1 - 8/10 is 0.2).
	e := strconv.FormatFloat(math.Abs(f), 'e', 14, 64)
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.TrimRight(strings.Replace(mant, ".", "", 1), "0")
	if digits == "" {
		digits = "0"
	}
	ex, _ := strconv.Atoi(exp)
	keep := ex + 1 + shift + n // digits kept, counted from the first one
	var kept string
	up := false
	switch {
	case keep <= 0:
		kept, up = "0", keep == 0 && digits[0] >= '5'
	case keep >= len(digits):
		kept = digits + strings.Repeat("0", keep-len(digits))
	default:
		kept, up = digits[:keep], digits[keep] >= '5'
	}
	v, _ := new(big.Int).SetString(kept, 10)
	if up {
		v.Add(v, big.NewInt(1))
	}
	out := v.String()
	if len(out) <= n {
		out = strings.Repeat("0", n+1-len(out)) + out
	}
	if n > 0 {
		out = out[:len(out)-n] + "." + out[len(out)-n:]
	}
	if f < 0 && v.Sign() != 0 {
		out = "-" + out
	}
	return out, nil
}
