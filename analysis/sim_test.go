package analysis

import (
	"fmt"
	"maps"
	"math"
	"reflect"
	"strconv"
	"testing"

	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

const simRules = `ruleset "sim"
option bonus = 0
kind Compteur { n: int = 0 }
entity c: Compteur {}
action plus(): int {
  c.n += 1
  emit "plus"
  return c.n
}
rule touche(): bool {
  return 1d6 + bonus >= 5
}
action exigeant(): int {
  let r = 1d6
  require r > 1 else "un"
  if r == 6 {
    emit "six"
  }
  return r
}
`

// deckRules draws from a deck: its shuffle takes dice from the source before the run does.
const deckRules = `ruleset "cartes"
deck jeu standard {}
action tirer(): string {
  let carte = draw(jeu)
  return "{carte}"
}
`

func loadSource(t testing.TB, src string) *dsl.Program {
	t.Helper()
	prog, d := dsl.LoadSource("sim.rules", []byte(src))
	if d.HasErrors() {
		t.Fatal(d)
	}
	return prog
}

func simulate(t testing.TB, cfg SimConfig) *Tally {
	t.Helper()
	tally, err := Simulate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return tally
}

// counts returns side A's count per outcome text.
func counts(s Summary) map[string]int64 {
	out := map[string]int64{}
	for _, o := range s.Outcomes {
		out[o.Text] = o.Count
	}
	return out
}

// TestSimulate: table-driven runs of the engine against what is computed independently.
func TestSimulate(t *testing.T) {
	prog := loadSource(t, simRules)
	// die returns run i's d6 computed apart from the engine: a fresh source seeded with
	// RunSeed(seed, i), one roll.
	die := func(seed uint64, i int64) int {
		v, _ := dice.NewPCG(RunSeed(seed, i)).Roll(6)
		return v
	}
	for _, c := range []struct {
		name string
		expr string
		runs int64
		want func(seed uint64, runs int64) map[string]int64
	}{
		{"a d6, exact counts from the run seeds", "d6", 6000, func(seed uint64, runs int64) map[string]int64 {
			m := map[string]int64{}
			for i := range runs {
				m[fmt.Sprint(die(seed, i))]++
			}
			return m
		}},
		{"state fresh every run: a counter incremented once is 1", "plus()", 500, func(_ uint64, runs int64) map[string]int64 {
			return map[string]int64{"1": runs}
		}},
		{"a failure is an outcome of its own", "exigeant()", 3000, func(seed uint64, runs int64) map[string]int64 {
			m := map[string]int64{}
			for i := range runs {
				if d := die(seed, i); d == 1 {
					m["error: un"]++
				} else {
					m[fmt.Sprint(d)]++
				}
			}
			return m
		}},
		{"booleans", "touche()", 3000, func(seed uint64, runs int64) map[string]int64 {
			m := map[string]int64{}
			for i := range runs {
				m[fmt.Sprint(die(seed, i) >= 5)]++
			}
			return m
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, seed := range []uint64{1, 42} {
				tally := simulate(t, SimConfig{Expr: c.expr, A: Variant{Prog: prog}, Runs: c.runs, Seed: seed, Workers: 3})
				s := tally.Summary(0)
				if got, want := counts(s), c.want(seed, c.runs); !reflect.DeepEqual(got, want) {
					t.Errorf("seed %d: counts %v, want %v", seed, got, want)
				}
			}
		})
	}
}

// TestSimD6: the frequencies of a d6 over 6000 runs (seed 2) each fall in their Wilson
// interval around 1/6, the mean and standard deviation near 3.5 and sqrt(35/12), and the
// outcomes are ordered numbers with quantiles. (Each interval misses 1/6 for 5% of seeds;
// this fixed seed is one where none does, and TestSimulate checks its exact counts.)
func TestSimD6(t *testing.T) {
	prog := loadSource(t, simRules)
	s := simulate(t, SimConfig{Expr: "d6", A: Variant{Prog: prog}, Runs: 6000, Seed: 2}).Summary(0)
	if len(s.Outcomes) != 6 || !s.Numeric {
		t.Fatalf("outcomes %+v", s.Outcomes)
	}
	for i, o := range s.Outcomes {
		if o.Num != float64(i+1) || o.Lo > 1.0/6 || o.Hi < 1.0/6 {
			t.Errorf("face %v: %d runs, interval [%v, %v] misses 1/6", o.Num, o.Count, o.Lo, o.Hi)
		}
	}
	if math.Abs(s.Mean-3.5) > 0.1 || math.Abs(s.Stddev-math.Sqrt(35.0/12)) > 0.05 {
		t.Errorf("mean %v stddev %v", s.Mean, s.Stddev)
	}
	if len(s.Quantiles) != 5 || s.Quantiles[0].Value != 1 || s.Quantiles[2].Value < 3 || s.Quantiles[2].Value > 4 || s.Quantiles[4].Value != 6 {
		t.Errorf("quantiles %+v", s.Quantiles)
	}
}

// TestSimEmitted: a line is counted once per run that emitted it.
func TestSimEmitted(t *testing.T) {
	prog := loadSource(t, simRules)
	tally := simulate(t, SimConfig{Expr: "[plus(), plus(), exigeant()]", A: Variant{Prog: prog}, Runs: 1200, Seed: 7})
	s := tally.Summary(0)
	var six int64
	for i := range int64(1200) {
		// the third roll of... the expression rolls one die: exigeant's.
		if v, _ := dice.NewPCG(RunSeed(7, i)).Roll(6); v == 6 {
			six++
		}
	}
	want := []LineCount{{"plus", 1200, 1}, {"six", six, float64(six) / 1200}}
	if !reflect.DeepEqual(s.Emitted, want) {
		t.Errorf("emitted %+v, want %+v", s.Emitted, want)
	}
	if s.Numeric || s.Mean != 0 {
		t.Errorf("lists are not numbers: numeric %v", s.Numeric)
	}
}

// TestSimFreshDecks: run i draws the card a new machine seeded with RunSeed(seed, i) draws:
// the decks are shuffled afresh every run, not once per worker.
func TestSimFreshDecks(t *testing.T) {
	prog := loadSource(t, deckRules)
	const runs, seed = 300, 9
	want := map[string]int64{}
	for i := range int64(runs) {
		m, err := dsl.NewMachine(prog, dice.NewPCG(RunSeed(seed, i)), nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := dsl.NewSession(m).Eval("<t>", "tirer()")
		if err != nil {
			t.Fatal(err)
		}
		want[dsl.Repr(v)]++
	}
	got := counts(simulate(t, SimConfig{Expr: "tirer()", A: Variant{Prog: prog}, Runs: runs, Seed: seed, Workers: 2}).Summary(0))
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cards %v, want %v", got, want)
	}
	if len(got) < 40 {
		t.Errorf("only %d distinct cards in %d runs: the deck is not shuffled per run", len(got), runs)
	}
}

// TestSimWorkersShards: the same counts whatever the workers, and shards merged give the
// whole.
func TestSimWorkersShards(t *testing.T) {
	prog := loadSource(t, simRules)
	cfg := SimConfig{Expr: "exigeant()", A: Variant{Prog: prog}, Runs: 1000, Seed: 3}
	var tallies []*Tally
	for _, w := range []int{1, 4} {
		cfg.Workers = w
		tallies = append(tallies, simulate(t, cfg))
	}
	merged := NewTally()
	for i := 1; i <= 3; i++ {
		cfg.First, cfg.Last = ShardRange(cfg.Runs, i, 3)
		merged.Merge(simulate(t, cfg))
	}
	tallies = append(tallies, merged)
	for _, tl := range tallies[1:] {
		if !reflect.DeepEqual(tl.Summary(0), tallies[0].Summary(0)) {
			t.Errorf("summaries differ: %+v\n%+v", tl.Summary(0), tallies[0].Summary(0))
		}
	}
}

// TestSimCompare: a +1 bonus turns every 4 into a hit, seed for seed: the paired difference
// is exactly the frequency of 4s, with a narrow interval, and the mean moves by that much.
func TestSimCompare(t *testing.T) {
	prog := loadSource(t, simRules)
	const runs, seed = 4000, 5
	tally := simulate(t, SimConfig{Expr: "touche()", A: Variant{Prog: prog},
		B: &Variant{Prog: prog, Overrides: map[string]any{"bonus": 1}}, Runs: runs, Seed: seed})
	var fours int64
	for i := range int64(runs) {
		if v, _ := dice.NewPCG(RunSeed(seed, i)).Roll(6); v == 4 {
			fours++
		}
	}
	d := tally.RunDifference()
	if len(d.Outcomes) != 2 || d.Outcomes[0].Text != "false" || d.Outcomes[1].Text != "true" {
		t.Fatalf("outcomes %+v", d.Outcomes)
	}
	p := float64(fours) / runs
	tr := d.Outcomes[1]
	if tr.RunDifference != p || tr.Lo > p || tr.Hi < p || tr.Hi-tr.Lo > 0.03 {
		t.Errorf("true: difference %v [%v, %v], want %v", tr.RunDifference, tr.Lo, tr.Hi, p)
	}
	if d.Outcomes[0].RunDifference != -p {
		t.Errorf("false: difference %v, want %v", d.Outcomes[0].RunDifference, -p)
	}
	// Half-width from the paired differences: d is 1 on a 4, else 0.
	want := Z95 * math.Sqrt(p*(1-p)/runs)
	if math.Abs((tr.Hi-tr.Lo)/2-want) > 1e-12 {
		t.Errorf("half-width %v, want %v", (tr.Hi-tr.Lo)/2, want)
	}
	if d.Numeric {
		t.Error("booleans have no mean difference")
	}
	a, b := tally.Summary(0), tally.Summary(1)
	if b.Outcomes[1].Count-a.Outcomes[1].Count != fours {
		t.Errorf("B has %d more hits, want %d", b.Outcomes[1].Count-a.Outcomes[1].Count, fours)
	}
}

// TestRunSeed: splitmix64's published first outputs from seed 1234567.
func TestRunSeed(t *testing.T) {
	want := []uint64{6457827717110365317, 3203168211198807973, 9817491932198370423}
	for i, w := range want {
		if got := RunSeed(1234567, int64(i)); got != w {
			t.Errorf("RunSeed(1234567, %d) = %d, want %d", i, got, w)
		}
	}
}

// TestSimLimits: runs and slices out of range are refused.
func TestSimLimits(t *testing.T) {
	prog := loadSource(t, simRules)
	for _, cfg := range []SimConfig{
		{Expr: "d6", A: Variant{Prog: prog}, Runs: 0},
		{Expr: "d6", A: Variant{Prog: prog}, Runs: MaxRuns + 1},
		{Expr: "d6", A: Variant{Prog: prog}, Runs: 10, First: 5, Last: 11},
	} {
		if _, err := Simulate(cfg); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
	if err := CheckSim(SimConfig{Expr: "nope(", A: Variant{Prog: prog}, Runs: 1}); err == nil {
		t.Error("a bad expression checks")
	}
}

// TestSimEmittedOverflow: past the bound on distinct lines, lines are no longer counted,
// whatever the workers and shards; below it every line is.
func TestSimEmittedOverflow(t *testing.T) {
	prog := loadSource(t, `ruleset "t"
action marque(): int {
  let r = 1d1000000
  emit "{r}"
  return 1
}
`)
	defer func(n int) { maxEmittedLines = n }(maxEmittedLines)
	for _, limit := range []int{50, 1000} {
		maxEmittedLines = limit
		cfg := SimConfig{Expr: "marque()", A: Variant{Prog: prog}, Runs: 300, Seed: 1}
		var got []bool
		for _, w := range []int{1, 3} {
			cfg.Workers = w
			got = append(got, simulate(t, cfg).Summary(0).EmittedOverflow)
		}
		merged := NewTally()
		for i := 1; i <= 3; i++ {
			cfg.First, cfg.Last = ShardRange(cfg.Runs, i, 3)
			merged.Merge(simulate(t, cfg))
		}
		s := merged.Summary(0)
		got = append(got, s.EmittedOverflow)
		want := limit < 300
		for _, g := range got {
			if g != want {
				t.Errorf("limit %d: overflow %v, want %v", limit, got, want)
				break
			}
		}
		if want && len(s.Emitted) != 0 || !want && len(s.Emitted) < 290 {
			t.Errorf("limit %d: %d lines kept", limit, len(s.Emitted))
		}
	}
}

// TestSimManyLinesOneRun: a run that emits many distinct lines has each counted once (the
// lines were looked for in a list, 64,000 lines taking 19 s; BenchmarkSimManyLines measures it).
func TestSimManyLinesOneRun(t *testing.T) {
	prog := loadSource(t, `ruleset "t"
action spam(n) {
  for i in 1..n {
    emit "line {i}"
  }
  return 1
}
`)
	tally := simulate(t, SimConfig{Expr: "spam(60000)", A: Variant{Prog: prog}, Runs: 1, Seed: 1, Workers: 1})
	if n := len(tally.Summary(0).Emitted); n != 60000 {
		t.Errorf("%d lines, want 60000", n)
	}
}

// TestSimEmittedCountsRuns: each line counts the runs that emitted it, once per run however
// often the run emitted it, on each side, whatever the workers and shards; a run that emits
// nothing counts no line.
func TestSimEmittedCountsRuns(t *testing.T) {
	prog := loadSource(t, `ruleset "t"
action coups(): int {
  let r = 1d4 + 0
  if r == 4 {
    return 0
  }
  emit "toujours"
  for i in 1..r {
    emit "coup {i}"
    emit "toujours"
  }
  return r
}
`)
	cfg := SimConfig{Expr: "coups()", A: Variant{Prog: prog}, B: &Variant{Prog: prog}, Runs: 500, Seed: 3}
	for _, workers := range []int{1, 3} {
		cfg.Workers = workers
		for _, shards := range []int{1, 2} {
			tally := NewTally()
			for i := 1; i <= shards; i++ {
				cfg.First, cfg.Last = ShardRange(cfg.Runs, i, shards)
				tally.Merge(simulate(t, cfg))
			}
			for side := range 2 {
				// The run's value r is how many "coup" lines it emitted: r >= i for "coup i".
				runs := map[int]int64{}
				for text, n := range tally.Pairs {
					v, _ := strconv.Atoi(text.A)
					if side == 1 {
						v, _ = strconv.Atoi(text.B)
					}
					runs[v] += n
				}
				want := map[string]int64{"toujours": runs[1] + runs[2] + runs[3],
					"coup 1": runs[1] + runs[2] + runs[3], "coup 2": runs[2] + runs[3], "coup 3": runs[3]}
				if got := tally.Emitted[side]; !maps.Equal(got, want) || runs[0] == 0 {
					t.Errorf("workers %d, shards %d, side %d: lines %v, want %v (runs by value %v)", workers, shards, side, got, want, runs)
				}
			}
		}
	}
}

// TestSimulateProgress: the progress calls rise, one at a time, to every run, whatever the
// workers, and leave the counts as they are without them.
func TestSimulateProgress(t *testing.T) {
	prog := loadSource(t, simRules)
	for _, workers := range []int{1, 3} {
		cfg := SimConfig{Expr: "d6", A: Variant{Prog: prog}, Runs: 1000, Seed: 7, Workers: workers}
		want := counts(simulate(t, cfg).Summary(0))
		var seen []int64
		busy := false
		cfg.Progress = func(done int64) {
			if busy {
				t.Error("two progress calls at once")
			}
			busy = true
			seen = append(seen, done)
			busy = false
		}
		got := counts(simulate(t, cfg).Summary(0))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("workers %d: counts %v with progress, %v without", workers, got, want)
		}
		if len(seen) < 2 || seen[len(seen)-1] != 1000 {
			t.Fatalf("workers %d: progress %v, want several calls ending at 1000", workers, seen)
		}
		for i := 1; i < len(seen); i++ {
			if seen[i] <= seen[i-1] {
				t.Errorf("workers %d: progress %v does not rise", workers, seen)
				break
			}
		}
	}
}

// TestSimLinesCountedOncePerRun: a line counts the runs that emitted it, once each, however
// often a run emits it, with one worker or three; the outcomes tell the truth to compare.
func TestSimLinesCountedOncePerRun(t *testing.T) {
	prog := loadSource(t, `ruleset "t"
action deux(): int {
  let r = 1d3
  emit "toujours"
  emit "r {r}"
  emit "toujours"
  emit "r {r}"
  return r
}
`)
	for _, w := range []int{1, 3} {
		tally := simulate(t, SimConfig{Expr: "deux()", A: Variant{Prog: prog}, Runs: 600, Seed: 1, Workers: w})
		want := map[string]int64{"toujours": 600}
		for p, n := range tally.Pairs {
			want["r "+p.A] += n
		}
		if got := tally.Emitted[0]; !maps.Equal(got, want) {
			t.Errorf("%d workers: lines %v, want %v", w, got, want)
		}
	}
}
