package main

import (
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSplitVs(t *testing.T) {
	for _, c := range []struct {
		args []string
		a, b []string
	}{
		{[]string{"x", "1"}, []string{"x", "1"}, nil},
		{[]string{"x", "--vs", "y", "2"}, []string{"x"}, []string{"y", "2"}},
		{[]string{"--vs", "y"}, []string{}, []string{"y"}},
	} {
		a, b := splitVs(c.args)
		if !slices.Equal(a, c.a) || !slices.Equal(b, c.b) {
			t.Errorf("splitVs(%q) = %q, %q; want %q, %q", c.args, a, b, c.a, c.b)
		}
	}
}

func TestRangeOf(t *testing.T) {
	for _, c := range []struct {
		v    []float64
		want string
	}{
		{[]float64{3}, "3.0 (3.0–3.0)"},
		{[]float64{5, 1, 3}, "3.0 (1.0–5.0)"},
		{[]float64{4, 1, 2, 10}, "3.0 (1.0–10.0)"},
	} {
		if got := rangeOf(c.v, "%.1f"); got != c.want {
			t.Errorf("rangeOf(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

// TestRowPairsRatios: the ratio is taken run by run, not as the ratio of the medians: here
// A is always twice B, while the medians alone (4 against 3) would say 1.33.
func TestRowPairsRatios(t *testing.T) {
	ms := func(v ...int) []sample {
		var s []sample
		for _, x := range v {
			s = append(s, sample{cpu: time.Duration(x) * time.Millisecond, peakKB: 2048})
		}
		return s
	}
	got := row("x", ms(2, 4, 12), ms(1, 2, 6))
	want := "| x | 4.0 (2.0–12.0) | 2.0 (2.0–2.0) | 2.0 (1.0–6.0) | 2.0 (2.0–2.0) | 2.000 (2.000–2.000) |"
	if got != want {
		t.Errorf("row:\n got %s\nwant %s", got, want)
	}
	if got := row("y", ms(2), nil); got != "| y | 2.0 (2.0–2.0) | 2.0 (2.0–2.0) |  |  |  |" {
		t.Errorf("row without B: %s", got)
	}
}

func TestRun(t *testing.T) {
	for _, name := range []string{"true", "false"} {
		if _, err := exec.LookPath(name); err != nil {
			t.Skip(name, "is not installed")
		}
	}
	var out, errs bytes.Buffer
	if code := run([]string{"-n", "2", "-label", "t", "--", "true", "--vs", "true"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if cells := strings.Split(strings.TrimSpace(out.String()), " | "); len(cells) != 6 || cells[0] != "| t" {
		t.Errorf("row %q", out.String())
	}
	if code := run([]string{"--", "false"}, &out, &errs); code != 1 || !strings.Contains(errs.String(), "false: exit status 1") {
		t.Errorf("a failing command: exit %d, %q", code, errs.String())
	}
	if code := run([]string{"-n", "0", "--", "true"}, &out, &errs); code != 2 {
		t.Errorf("no runs: exit %d, want 2", code)
	}
}
