package dice_test

import (
	"fmt"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/peek"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

const listRules = `ruleset "l"
rule tirer(xs) {
  return pick(xs)
}
rule deux_puis_échec(xs) {
  let a = pick(xs)
  let b = pick(xs)
  require false else "échec après {a} et {b}"
}
`

func loadLists(t *testing.T) *dsl.Program {
	t.Helper()
	prog, diags := dsl.LoadSource("l.rules", []byte(listRules))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return prog
}

// TestListDraws: pick, shuffled and sample on hand-given results (each a position, 1-based,
// among the elements left; the last one left taken without a result), with the message for
// every argument they refuse, at load or at run time, and the results left unused.
func TestListDraws(t *testing.T) {
	prog := loadLists(t)
	for _, c := range []struct {
		src       string
		rolls     []int
		want, err string
		left      string
	}{
		{src: `pick(["a", "b", "c"])`, rolls: []int{2}, want: `"b"`},
		{src: `pick(["seul"])`, rolls: []int{5}, want: `"seul"`, left: "5"},
		{src: `pick(1..6)`, rolls: []int{6}, want: `6`},
		{src: `shuffled(["a", "b", "c"])`, rolls: []int{3, 1}, want: `["c", "a", "b"]`},
		{src: `shuffled(["a", "b", "c"])`, rolls: []int{1, 1, 4}, want: `["a", "b", "c"]`, left: "4"},
		{src: `shuffled([])`, want: `[]`},
		{src: `shuffled([7])`, want: `[7]`},
		{src: `sample(["a", "b", "c", "d", "e"], 2)`, rolls: []int{5, 1}, want: `["e", "a"]`},
		{src: `sample(["a", "b", "c"], 3)`, rolls: []int{2, 2}, want: `["b", "c", "a"]`},
		{src: `sample(["a", "b"], 0)`, want: `[]`},
		{src: `sample([], 0)`, want: `[]`},
		{src: `tirer([[1], {a: 2}])`, rolls: []int{2}, want: `{a: 2}`},
		{src: `pick(["a", "b", "c"])`, rolls: []int{4}, err: "<e>:1:1: hand-given result 4 does not fit a draw from a list of 3 (1 to 3; it is discarded)"},
		{src: `shuffled(["a", "b", "c"])`, rolls: []int{1, 3}, err: "<e>:1:1: hand-given result 3 does not fit a draw from a list of 2 (1 to 2; it is discarded)", left: "1"},
		{src: `pick(["a", "b"])`, rolls: []int{0}, err: "<e>:1:1: hand-given result 0 does not fit a draw from a list of 2 (1 to 2; it is discarded)"},
		{src: `pick(["a", "b"])`, err: "<e>:1:1: no hand-given result left for a draw from a list of 2"},
		{src: `pick([])`, err: "<e>:1:1: pick from an empty list"},
		{src: `tirer([])`, err: "l.rules:3:10: pick from an empty list"},
		{src: `tirer("abc")`, err: "l.rules:3:10: pick takes a list, not string"},
		{src: `sample([1, 2], 3)`, err: "<e>:1:1: sample 3 of a list of 2: between 0 and 2"},
		{src: `sample([1, 2], -1)`, err: "<e>:1:1: sample -1 of a list of 2: between 0 and 2"},
		{src: `sample([], 1)`, err: "<e>:1:1: sample 1 of a list of 0: between 0 and 0"},
		{src: `pick(3)`, err: "<e>:1:6: cannot use int as argument (type list) to call pick"},
		{src: `shuffled("abc")`, err: "<e>:1:10: cannot use string as argument (type list) to call shuffled"},
		{src: `sample([1], 0.5)`, err: "<e>:1:13: cannot use float as argument (type int) to call sample"},
		{src: `deux_puis_échec(["a", "b"])`, rolls: []int{2, 1}, err: "l.rules:8:3: échec après b et a", left: "2 1"},
	} {
		q := dice.NewIntQueue(c.rolls, nil)
		m, err := dsl.NewMachine(prog, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := dsl.NewSession(m).Eval("<e>", c.src)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%s: err = %v, want %q", c.src, err, c.err)
		case c.err == "" && (err != nil || runtime.Repr(v) != c.want):
			t.Errorf("%s = %v, %v; want %s", c.src, runtime.Repr(v), err, c.want)
		}
		if got := strings.Join(q.Pending(), " "); got != c.left {
			t.Errorf("%s: results left %q, want %q", c.src, got, c.left)
		}
	}
}

// TestListDrawsUniform enumerates every sequence of hand-given results a draw can take: each
// gives a different outcome, and together they give every ordering (shuffled) or every
// ordered choice (sample) once, so fair dice make every outcome equally likely.
func TestListDrawsUniform(t *testing.T) {
	prog := loadLists(t)
	for _, c := range []struct {
		src      string
		sizes    []int // the die each result is drawn on, in order
		outcomes int
	}{
		{`shuffled(["a", "b", "c", "d"])`, []int{4, 3, 2}, 24},
		{`sample(["a", "b", "c", "d", "e"], 2)`, []int{5, 4}, 20},
		{`sample(["a", "b", "c"], 3)`, []int{3, 2}, 6},
		{`pick(["a", "b", "c"])`, []int{3}, 3},
	} {
		seen := map[string]bool{}
		var walk func(rolls []int)
		walk = func(rolls []int) {
			if len(rolls) < len(c.sizes) {
				for r := 1; r <= c.sizes[len(rolls)]; r++ {
					walk(append(rolls[:len(rolls):len(rolls)], r))
				}
				return
			}
			m, err := dsl.NewMachine(prog, dice.NewIntQueue(rolls, nil), nil)
			if err != nil {
				t.Fatal(err)
			}
			v, err := dsl.NewSession(m).Eval("<e>", c.src)
			if err != nil {
				t.Fatalf("%s with %v: %v", c.src, rolls, err)
			}
			if seen[runtime.Repr(v)] {
				t.Errorf("%s: %s drawn twice", c.src, runtime.Repr(v))
			}
			seen[runtime.Repr(v)] = true
		}
		walk(nil)
		if len(seen) != c.outcomes {
			t.Errorf("%s: %d outcomes, want %d", c.src, len(seen), c.outcomes)
		}
	}
}

// TestListDrawsTraced: each draw is traced as a roll is, with the positions drawn; a seeded
// run draws from the seeded source, the same seed giving the same lists; long lists cost a
// step per element.
func TestListDrawsTraced(t *testing.T) {
	prog := loadLists(t)
	m, err := dsl.NewMachine(prog, dice.NewIntQueue([]int{3, 2, 1, 4, 1}, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	peek.Machine(m).Trace = func(depth int, line string) { lines = append(lines, fmt.Sprintf("%d %s", depth, line)) }
	s := dsl.NewSession(m)
	if _, err := s.Eval("<e>", `[pick(["a", "b", "c"]), shuffled([1, 2, 3]), sample(["x", "y", "z", "w"], 2)]`); err != nil {
		t.Fatal(err)
	}
	want := `0 pick of 3 [3] = "c"|0 shuffled 3 [2, 1] = [2, 1, 3]|0 sample 2 of 4 [4, 1] = ["w", "x"]`
	if got := strings.Join(lines, "|"); got != want {
		t.Errorf("trace\n%s\nwant\n%s", got, want)
	}

	seeded := func() string {
		m, err := dsl.NewMachine(prog, dice.NewPCG(42), nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := dsl.NewSession(m).Eval("<e>", `[shuffled(1..10), sample(1..10, 3), pick(1..10)]`)
		if err != nil {
			t.Fatal(err)
		}
		return runtime.Repr(v)
	}
	if a, b := seeded(), seeded(); a != b {
		t.Errorf("seed 42 gave %s, then %s", a, b)
	}

	m, err = dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	peek.Machine(m).Limits.MaxSteps = 1000
	if _, err := dsl.NewSession(m).Eval("<e>", `len(shuffled(1..900))`); err == nil || !strings.Contains(err.Error(), "step limit reached") {
		t.Errorf("shuffled(1..900) under 1000 steps: %v, want the step limit", err)
	}
	peek.Machine(m).Limits.MaxSteps = 1_000_000
	if v, err := dsl.NewSession(m).Eval("<e>", `sum(shuffled(1..100000))`); err != nil || runtime.Repr(v) != "5000050000" {
		t.Errorf("sum(shuffled(1..100000)) = %v, %v", runtime.Repr(v), err)
	}
}
