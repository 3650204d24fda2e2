package analysis

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseSweep(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []any
	}{
		{"stat=-1..3", []any{-1, 0, 1, 2, 3}},
		{"n = 2..2", []any{2}},
		{"k=1,3,2", []any{1, 3, 2}},
		{"x=0.5,1", []any{0.5, 1}},
		{"ténacité=1..2", []any{1, 2}},
		{"n=9223372036854775806..9223372036854775807", []any{9223372036854775806, 9223372036854775807}},
	} {
		sw, err := ParseSweep(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(sw.Values, c.want) {
			t.Errorf("%s: %v, want %v", c.in, sw.Values, c.want)
		}
	}
	for _, c := range []struct{ in, msg string }{
		{"n=3..1", "the range is empty"},
		{"n=1..50", ""},
		{"n=1..51", "more than 50 values"},
		{"n=-9223372036854775808..9223372036854775807", "more than 50 values"},
		{"n=a..b", "whole numbers"},
		{"n=1.5..3", "whole numbers"},
		{"n=1,x", `"x" is not a number`},
		{"n=1,NaN", `"NaN" is not a number`},
		{"n=1,1", "given twice"},
		{"n=", "no values"},
		{"=1..2", "want NAME=A..B"},
		{"n", "want NAME=A..B"},
		{"2n=1..2", "is not a name"},
		{"n=" + strings.Repeat("1,", 50) + "2", "51 values"},
	} {
		_, err := ParseSweep(c.in)
		switch {
		case c.msg == "" && err != nil:
			t.Errorf("%s: %v", c.in, err)
		case c.msg != "" && (err == nil || !strings.Contains(err.Error(), c.msg)):
			t.Errorf("%s: error %v, want %q", c.in, err, c.msg)
		}
	}
}

func TestSweepResolve(t *testing.T) {
	prog := loadFiles(t, "testdata/odds.rules")
	sw, _ := ParseSweep("bonus=0..1")
	if err := sw.Resolve(prog, "somme()"); err != nil || !sw.Option {
		t.Errorf("bonus: option %v, %v", sw.Option, err)
	}
	sw, _ = ParseSweep("n=0..1")
	if err := sw.Resolve(prog, "somme() + n"); err != nil || sw.Option {
		t.Errorf("n: option %v, %v", sw.Option, err)
	}
	var bad *ErrSweepName
	sw, _ = ParseSweep("m=0..1")
	if err := sw.Resolve(prog, "somme() + n"); !errors.As(err, &bad) || !strings.Contains(err.Error(), "not an option of the rules nor a name in the expression") {
		t.Errorf("m: %v", err)
	}
	// The names are the compiler's: a word in a string, or in a string that is not a
	// template, is read by nothing.
	for _, expr := range []string{`d6 >= 4 && "m" != ""`, `somme() + len("m")`, `"{m}"`} {
		sw, _ = ParseSweep("m=1..3")
		if err := sw.Resolve(prog, expr); !errors.As(err, &bad) {
			t.Errorf("m in %s: %v", expr, err)
		}
	}
	// Read inside a lambda, a let of the expression's own, a call's argument.
	for _, expr := range []string{`map([1, 2], # + m)`, `let k = m; k + 1`, `double(m)`, `[m][0]`} {
		sw, _ = ParseSweep("m=1..3")
		if err := sw.Resolve(prog, expr); err != nil || sw.Option {
			t.Errorf("m in %s: option %v, %v", expr, sw.Option, err)
		}
	}
	// A procedure's name cannot be bound: the rules' own name wins.
	sw, _ = ParseSweep("double=0..1")
	if err := sw.Resolve(prog, "double(2)"); !errors.As(err, &bad) {
		t.Errorf("double: %v", err)
	}
	sw, _ = ParseSweep("n=0..1")
	if err := sw.Resolve(nil, "2d6 + n"); err != nil || sw.Option {
		t.Errorf("no rules: %v", err)
	}
}

// TestProbSweepExact: each value's answer is the exact distribution computed by hand.
func TestProbSweepExact(t *testing.T) {
	sw, _ := ParseSweep("n=1..5")
	if err := sw.Resolve(nil, "2d6 + n >= 10"); err != nil {
		t.Fatal(err)
	}
	ds, err := ProbSweep(Question{Expr: "2d6 + n >= 10", Seed: 1}, sw, ProbOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range ds {
		n := sw.Values[i].(int)
		want := brute{}
		for a := 1; a <= 6; a++ {
			for b := 1; b <= 6; b++ {
				want.add(map[bool]string{true: "true", false: "false"}[a+b+n >= 10], 1, 36)
			}
		}
		checkExact(t, d, want)
	}

	prog := loadFiles(t, "testdata/odds.rules")
	sw, _ = ParseSweep("bonus=-1..3")
	if err := sw.Resolve(prog, "somme()"); err != nil {
		t.Fatal(err)
	}
	ds, err = ProbSweep(Question{Prog: prog, Expr: "somme()", Seed: 1}, sw, ProbOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range ds {
		checkExact(t, d, sommeBrute(sw.Values[i].(int)))
	}
	u := UnionOutcomes(ds)
	if len(u) != 15 || u[0].Text != "1" || u[14].Text != "15" {
		t.Errorf("union: %d outcomes, %v … %v", len(u), u[0].Text, u[len(u)-1].Text)
	}
}

// TestSimSweepPaired: every value runs with the same seeds, so `d(6) + n` at n+1 is each
// run of n plus one: the counts shift by one exactly; and a value's tally is the simulation
// of that value alone.
func TestSimSweepPaired(t *testing.T) {
	prog := loadFiles(t, "testdata/odds.rules")
	sw, _ := ParseSweep("n=0..2")
	if err := sw.Resolve(prog, "d(6) + n"); err != nil {
		t.Fatal(err)
	}
	cfg := SimConfig{Expr: "d(6) + n", A: Variant{Prog: prog}, Runs: 600, Seed: 42, Workers: 2}
	ts, err := SimSweep(cfg, sw)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(ts); i++ {
		for face := 1; face <= 6; face++ {
			a := ts[0].Pairs[Pair{A: itoa(face)}]
			b := ts[i].Pairs[Pair{A: itoa(face + i)}]
			if a != b || a == 0 {
				t.Errorf("n=%d: %d runs gave %d, want %d as n=0 gave %d", i, b, face+i, a, face)
			}
		}
	}
	again, err := SimSweep(SimConfig{Expr: cfg.Expr, A: cfg.A, Runs: cfg.Runs, Seed: cfg.Seed, Workers: 1}, sw)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ts, again) {
		t.Error("the same seed gave other counts on another number of workers")
	}

	sw, _ = ParseSweep("bonus=1,3")
	if err := sw.Resolve(prog, "somme()"); err != nil || !sw.Option {
		t.Fatal(err)
	}
	ts, err = SimSweep(SimConfig{Expr: "somme()", A: Variant{Prog: prog}, Runs: 300, Seed: 7}, sw)
	if err != nil {
		t.Fatal(err)
	}
	alone, err := Simulate(SimConfig{Expr: "somme()", A: Variant{Prog: prog, Overrides: map[string]any{"bonus": 3}}, Runs: 300, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ts[1].Pairs, alone.Pairs) {
		t.Errorf("bonus=3 in a sweep: %v, alone: %v", ts[1].Pairs, alone.Pairs)
	}
}
