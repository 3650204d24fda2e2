package dice

import "testing"

// TestParseCode: codes read and print back in their normalised form; mistakes are named.
func TestParseCode(t *testing.T) {
	tests := []struct {
		src, want, err    string
		count, sides, bon int
	}{
		{src: "4D+2", want: "4D+2", count: 4, sides: 6, bon: 2},
		{src: "1D", want: "1D", count: 1, sides: 6},
		{src: "D", want: "1D", count: 1, sides: 6},
		{src: " 3d6 ", want: "3d6", count: 3, sides: 6},
		{src: "2d10 - 1", want: "2d10-1", count: 2, sides: 10, bon: -1},
		{src: "5D+0", want: "5D", count: 5, sides: 6},
		{src: "0D+2", want: "0D+2", count: 0, sides: 6, bon: 2},
		{src: "4D+", err: `"4D+" is not a dice code: expected a whole number after + (a code is N dice then an optional bonus: 4D+2, 1D, 3d6, 2d10-1)`},
		{src: "3x6", err: `"3x6" is not a dice code: expected d or D after the count (a code is N dice then an optional bonus: 4D+2, 1D, 3d6, 2d10-1)`},
		{src: "4d6kh3", err: `"4d6kh3" is not a dice code: unexpected "kh3" (a code is N dice then an optional bonus: 4D+2, 1D, 3d6, 2d10-1)`},
		{src: "2d1", err: `"2d1" is not a dice code: a die has at least 2 sides (a code is N dice then an optional bonus: 4D+2, 1D, 3d6, 2d10-1)`},
		{src: "20000D", err: `"20000D" is not a dice code: at most 10000 dice (a code is N dice then an optional bonus: 4D+2, 1D, 3d6, 2d10-1)`},
		{src: "", err: `"" is not a dice code: expected d or D after the count (a code is N dice then an optional bonus: 4D+2, 1D, 3d6, 2d10-1)`},
	}
	for _, tt := range tests {
		c, err := ParseCode(tt.src)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("ParseCode(%q) error = %v, want %s", tt.src, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("ParseCode(%q): %v", tt.src, err)
		}
		if c.String() != tt.want || c.Count != tt.count || c.Sides != tt.sides || c.Bonus != tt.bon {
			t.Errorf("ParseCode(%q) = %s %+v, want %s", tt.src, c, *c, tt.want)
		}
	}
}

// TestCodeArith: dice and pips add and subtract, the left code's spelling kept.
func TestCodeArith(t *testing.T) {
	code := func(s string) *Code {
		c, err := ParseCode(s)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	tests := []struct {
		a, b      string
		sign      int
		want, err string
	}{
		{a: "4D+2", b: "1D", sign: 1, want: "5D+2"},
		{a: "4D+2", b: "3d6", sign: 1, want: "7D+2"},
		{a: "3d6", b: "1D+1", sign: 1, want: "4d6+1"},
		{a: "4D+2", b: "1D", sign: -1, want: "3D+2"},
		{a: "1D", b: "1D", sign: -1, want: "0D"},
		{a: "4D+2", b: "5D", sign: -1, err: "4D+2 - 5D leaves -1 dice"},
		{a: "4D+2", b: "1d8", sign: 1, err: "4D+2 + 1d8: the dice have different sides (d6 and d8)"},
	}
	for _, tt := range tests {
		got, err := code(tt.a).Add(code(tt.b), tt.sign)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%s %d %s: error %v, want %s", tt.a, tt.sign, tt.b, err, tt.err)
			}
			continue
		}
		if err != nil || got.String() != tt.want {
			t.Errorf("%s %d %s = %v, %v; want %s", tt.a, tt.sign, tt.b, got, err, tt.want)
		}
	}
	if got := code("4D+2").Plus(-3).String(); got != "4D-1" {
		t.Errorf("4D+2 plus -3 = %s, want 4D-1", got)
	}
	if !code("4D").Equal(code("4d6")) || code("4D").Equal(code("4D+1")) {
		t.Error("4D should equal 4d6 and differ from 4D+1")
	}
}
