package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSplitVs(t *testing.T) {
	for _, c := range []struct {
		args []string
		a, b []string
		vs   bool
	}{
		{[]string{"x", "1"}, []string{"x", "1"}, nil, false},
		{[]string{"x", "--vs", "y", "2"}, []string{"x"}, []string{"y", "2"}, true},
		{[]string{"--vs", "y"}, []string{}, []string{"y"}, true},
		{[]string{"x", "--vs"}, []string{"x"}, []string{}, true},
	} {
		a, b, vs := splitVs(c.args)
		if !slices.Equal(a, c.a) || !slices.Equal(b, c.b) || vs != c.vs {
			t.Errorf("splitVs(%q) = %q, %q, %v; want %q, %q, %v", c.args, a, b, vs, c.a, c.b, c.vs)
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

func ms(v ...int) []sample {
	var s []sample
	for _, x := range v {
		s = append(s, sample{cpu: time.Duration(x) * time.Millisecond, peakKB: 2048})
	}
	return s
}

// TestRowPairsRatios: the ratio is taken run by run, not as the ratio of the medians: here
// two runs of A out of three took twice their pair's B, while the medians alone (3 against
// 3) would say 1.
func TestRowPairsRatios(t *testing.T) {
	got := row("x", ms(10, 2, 3), ms(5, 1, 3))
	want := "| x | 3.0 (2.0–10.0) | 2.0 (2.0–2.0) | 3.0 (1.0–5.0) | 2.0 (2.0–2.0) | 2.000 (1.000–2.000) |"
	if got != want {
		t.Errorf("row:\n got %s\nwant %s", got, want)
	}
	if got := row("y", ms(2), nil); got != "| y | 2.0 (2.0–2.0) | 2.0 (2.0–2.0) |  |  |  |" {
		t.Errorf("row without B: %s", got)
	}
	if got := row("z", ms(2, 2), ms(1, 0)); !strings.HasSuffix(got, "| n/a (a run of B took no CPU time) |") {
		t.Errorf("row with a run of B of no CPU time: %s", got)
	}
}

// TestRun runs shell commands that count their runs in files: the warm-up run and the timed
// ones of each command, B measured as well as A, their order, failures told with their
// messages, and the usage refused.
func TestRun(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	fa, fb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	var out, errs bytes.Buffer
	code := run([]string{"-n", "3", "-label", "t", "--", "sh", "-c", "echo >> " + fa, "--vs", "sh", "-c", "echo >> " + fb}, &out, &errs)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	for _, f := range []string{fa, fb} {
		if b, err := os.ReadFile(f); err != nil || bytes.Count(b, []byte("\n")) != 4 {
			t.Errorf("%s: %d runs, want 4 (one warm-up, three timed): %v", f, bytes.Count(b, []byte("\n")), err)
		}
	}
	// The order alternates: the warm-up pair starts with B, the first timed one with A.
	order := filepath.Join(dir, "order")
	if code := run([]string{"-n", "3", "--", "sh", "-c", "printf a >> " + order, "--vs", "sh", "-c", "printf b >> " + order}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if b, _ := os.ReadFile(order); string(b) != "baabbaab" {
		t.Errorf("runs in the order %q, want baabbaab", b)
	}
	cells := strings.Split(strings.TrimSpace(strings.SplitN(out.String(), "\n", 2)[0]), " | ")
	if len(cells) != 6 || cells[0] != "| t" || cells[3] == "" || !strings.HasSuffix(cells[5], ") |") {
		t.Errorf("row %q: want A's and B's cells and a ratio", out.String())
	}
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--", "sh", "-c", "echo oops >&2; exit 3"}, 1, "sh: exit status 3: oops"},
		{[]string{"--", "sh", "-c", "kill -9 $$"}, 1, "sh: signal: killed"},
		{[]string{"--", "true", "--vs", "sh", "-c", "exit 4"}, 1, "sh: exit status 4"},
		{[]string{"--", filepath.Join(dir, "none")}, 1, "no such file"},
		{[]string{"-n", "0", "--", "true"}, 2, "usage: pairs"},
		{[]string{"--", "true", "--vs"}, 2, "usage: pairs"},
		{[]string{"--vs", "true"}, 2, "usage: pairs"},
		{[]string{"-h"}, 0, "usage: pairs"},
	} {
		errs.Reset()
		code := run(c.args, &out, &errs)
		if code != c.code || !strings.Contains(errs.String(), c.msg) {
			t.Errorf("pairs %q: exit %d, %q; want %d and %q", c.args, code, errs.String(), c.code, c.msg)
		}
	}
}
