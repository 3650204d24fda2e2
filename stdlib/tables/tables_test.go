package tables

import "testing"

func f(x float64) *float64 { return &x }

func TestBandBoundaries(t *testing.T) {
	// The seeds' distance bands: 0–1.5, 1.5+–2.5, 2.5+–4; a value on a boundary is in the
	// lower band.
	bands := []Band{{Lo: f(0), Hi: f(1.5)}, {Lo: f(1.5), LoOpen: true, Hi: f(2.5)}, {Lo: f(2.5), LoOpen: true, Hi: f(4)}}
	tests := []struct {
		v    float64
		want int
	}{{0, 0}, {1, 0}, {1.5, 0}, {1.51, 1}, {2.5, 1}, {2.6, 2}, {4, 2}, {4.01, -1}, {-0.1, -1}}
	for _, tt := range tests {
		got := -1
		for i, b := range bands {
			if b.Contains(tt.v) {
				got = i
				break
			}
		}
		if got != tt.want {
			t.Errorf("%v falls in band %d, want %d", tt.v, got, tt.want)
		}
	}
	if Overlap(bands[0], bands[1]) || !Overlap(bands[0], Band{Lo: f(1.5), Hi: f(2)}) {
		t.Error("overlap: (1.5 .. 2.5] does not meet [0 .. 1.5]; [1.5 .. 2] does")
	}
}

func TestRatioColumns(t *testing.T) {
	var cols []Ratio
	for _, s := range []string{"1:3", "2:5", "1:2", "2:3", "1:1", "3:2", "2:1", "5:2", "3:1"} {
		r, err := ParseRatio(s)
		if err != nil {
			t.Fatal(err)
		}
		cols = append(cols, r)
	}
	tests := []struct {
		a, b float64
		want string
	}{
		{5, 3, "3:2"}, {1, 4, "below"}, {1, 3, "1:3"}, {2, 3, "2:3"}, {3, 2, "3:2"}, {10, 1, "3:1"},
		{7, 10, "2:3"}, {0.9, 1, "2:3"}, {12, 4, "3:1"}, {5, 2, "5:2"}, {9, 5, "3:2"}, {0, 5, "below"},
	}
	for _, tt := range tests {
		i := Column(cols, tt.a, tt.b)
		got := "below"
		if i >= 0 {
			got = cols[i].String()
		}
		if got != tt.want {
			t.Errorf("%v:%v rounds to %s, want %s", tt.a, tt.b, got, tt.want)
		}
	}
	for _, tt := range []struct {
		a, b float64
		want bool
	}{{3, 1, false}, {6, 2, false}, {3.0000000001, 1, false}, {3.01, 1, true}, {7, 2, true}, {1, 0, true}, {0, 0, false}, {1, 4, false}} {
		if got := Over(cols, tt.a, tt.b); got != tt.want {
			t.Errorf("Over(%v:%v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	if Over(nil, 5, 1) {
		t.Error("no columns: nothing is over them")
	}
	if _, err := ParseRatio("3/2"); err == nil {
		t.Error("3/2 is not written as a ratio column")
	}
}
