package runtime_test

import (
	"math"
	"strconv"
	"testing"

	"rulesh/dsl/internal/runtime"
)

// TestSnapWholeNumbers: Snap gives a whole number below 1e15 back as it is, which is what
// the decimal text of Digits digits made and read back gives.
func TestSnapWholeNumbers(t *testing.T) {
	slow := func(f float64) float64 {
		s, err := strconv.ParseFloat(strconv.FormatFloat(f, 'g', runtime.Digits, 64), 64)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	values := []float64{1, -1, 2, 200, 4.0e2, 123456789012345, -999999999999999, 1e14, 1e15 - 1, 1 << 49}
	for i := 0; i < 2000; i++ {
		values = append(values, float64(i*i*7919), -float64(i)*1e9)
	}
	for _, f := range values {
		if got, want := runtime.Snap(f), slow(f); got != want || math.Signbit(got) != math.Signbit(want) {
			t.Errorf("Snap(%v) = %v, want %v", f, got, want)
		}
	}
	// Past 1e15 a whole number may have more digits than are kept: it is rounded.
	if got := runtime.Snap(1234567890123456); got != 1234567890123460 {
		t.Errorf("Snap(1234567890123456) = %v, want 1234567890123460", got)
	}
}

// TestFloatBoxes: Float boxes a whole float of its table's range from the table, any other
// float (a fraction, negative zero, one past the range, NaN) as Go boxes it, each equal to
// the value given.
func TestFloatBoxes(t *testing.T) {
	for _, v := range []float64{-256, -1, 0, 1, 2, 200, 1023, 1024, -257, 0.5, -2.5, 1e300, math.Copysign(0, -1), math.Inf(1)} {
		got, ok := runtime.Float(v).(float64)
		if !ok || got != v || math.Signbit(got) != math.Signbit(v) {
			t.Errorf("Float(%v) = %v", v, runtime.Float(v))
		}
	}
	if got, ok := runtime.Float(math.NaN()).(float64); !ok || !math.IsNaN(got) {
		t.Errorf("Float(NaN) = %v", got)
	}
}
