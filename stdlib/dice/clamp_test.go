package dice

import (
	"strings"
	"testing"
)

// TestDecimalClamp: min and max may be decimals, as in rpg-dice-roller (6d%min50.45: a die
// below 50.45 reads 50.45); the total is then a fraction, rounded as written, and the exact
// odds agree with every roll. `6d%min50.45` stopped at the decimal point.
func TestDecimalClamp(t *testing.T) {
	for _, src := range []string{"floor(2d4min2.5)", "round(2d6max3.5)", "ceil(3d3min1.5 * 2)", "floor(1d4max-0.5 + 1d6)", "round(2d%min50.45 / 10)"} {
		checkBrute(t, src, 3)
	}
	for src, want := range map[string]string{
		"6d%min50.45":  "write floor(6d%min50.45)",
		"2d6min2.5!":   "a decimal min or max stands alone",
		"2d6min2.5kh1": "a decimal min or max stands alone",
	} {
		if _, err := Parse(src, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
	e, err := Parse("1d6min2.0", nil)
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := e.Distribution(); d.Min != 2 {
		t.Errorf("1d6min2.0 is not 1d6min2")
	}
}
