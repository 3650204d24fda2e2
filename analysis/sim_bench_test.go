package analysis

import (
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"syscall"
	"testing"

	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// benchSim runs b.N runs of expr on the rule file, on workers goroutines, and reports runs
// per second (per core with one worker).
func benchSim(b *testing.B, file, expr string, workers int) {
	prog, d := dsl.Load(nil, filepath.Join("..", file))
	if d.HasErrors() {
		b.Fatal(d)
	}
	cfg := SimConfig{Expr: expr, A: Variant{Prog: prog}, Runs: int64(max(b.N, 1)), Seed: 1, Workers: workers}
	if err := CheckSim(cfg); err != nil {
		b.Fatal(err)
	}
	cpu0 := cpuTime()
	b.ResetTimer()
	t, err := Simulate(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	// CPU seconds per run, all workers together: on a machine shared with other work the
	// wall clock counts the waits, the CPU time only the work.
	b.ReportMetric(float64(b.N)/(cpuTime()-cpu0), "runs/cpu-s")
	for text := range t.Outcomes {
		if len(text) > 6 && text[:6] == "error:" {
			b.Fatalf("%s: %s", expr, text)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
}

// BenchmarkSimMortebrumeStrike: a full strike of Mortebrume (two rolls, modifiers, the
// damage written to the defender, emitted lines), every run from the start state.
func BenchmarkSimMortebrumeStrike(b *testing.B) {
	b.Run("workers=1", func(b *testing.B) {
		benchSim(b, "rulesets/mortebrume/forge.rules", "frapper(will, jack)", 1)
	})
	b.Run("workers=all", func(b *testing.B) {
		benchSim(b, "rulesets/mortebrume/forge.rules", "frapper(will, jack)", runtime.GOMAXPROCS(0))
	})
}

// BenchmarkSimNavalAssaut: a whole naval Assaut (six Rondes, hands dealt from a freshly
// shuffled deck, the automatic card-play policy), every run from the start state.
func BenchmarkSimNavalAssaut(b *testing.B) {
	b.Run("workers=1", func(b *testing.B) {
		benchSim(b, "rulesets/naval/brigantin.rules", "assauts_automatiques(1)", 1)
	})
	b.Run("workers=all", func(b *testing.B) {
		benchSim(b, "rulesets/naval/brigantin.rules", "assauts_automatiques(1)", runtime.GOMAXPROCS(0))
	})
}

// BenchmarkSimArmyBattle: an army battle of the Castelmaure scenario (armies raised from
// their lines, odds, the combat results table, every blow drawn and rolled), every run from
// the start state.
func BenchmarkSimArmyBattle(b *testing.B) {
	b.Run("workers=1", func(b *testing.B) {
		benchSim(b, "rulesets/army/campagne.rules", "[lever(), bataille(loup, brume)][1]", 1)
	})
}

// BenchmarkSimStarWarsShot: a Star Wars D6 blaster shot of the skirmish (attack roll,
// damage against protection, RDP, wounds), every run from the start state.
func BenchmarkSimStarWarsShot(b *testing.B) {
	b.Run("workers=1", func(b *testing.B) {
		benchSim(b, "rulesets/starwars/escarmouche.rules", "attaquer(tk421, kael, 15)", 1)
	})
}

// BenchmarkSimSabreTurn: a whole automatic turn of Sabre au clair on the demo board (each
// general picked, its units moved and their combats fought), every run from the start state.
func BenchmarkSimSabreTurn(b *testing.B) {
	b.Run("workers=1", func(b *testing.B) {
		benchSim(b, "rulesets/sabre/démo.rules", "tour_auto()", 1)
	})
}

// BenchmarkSimSabreGame: a whole automatic game of Sabre au clair on the demo board, up to
// its victory or tours_max, every run from the start state with its own seed.
func BenchmarkSimSabreGame(b *testing.B) {
	b.Run("workers=1", func(b *testing.B) {
		benchSim(b, "rulesets/sabre/démo.rules", "partie_auto()", 1)
	})
}

// goStrike is frapper(will, jack) of rulesets/mortebrume/forge.rules written in Go, the
// reference of the benchmark: Will (maniement 7, épée longue: d10, at its ideal distance of
// 2 cm, 6 wounds) strikes Jack (maniement 8, sabre: d10, out of its ideal distance, -3);
// a die of all ones fails automatically, the attacker's first; else the strike lands when
// the attacker's total beats the defender's.
//
//go:noinline
func goStrike(src dice.Source) int {
	ra, _ := src.Roll(10)
	rd, _ := src.Roll(10)
	switch {
	case ra == 1:
		return 0
	case rd == 1:
		return 6
	case ra+7 <= rd+8-3:
		return 0
	}
	return 6
}

// TestGoStrikeAgrees: the Go reference gives, run for run, what the simulation of the rule
// gives (the same seeds, the same two dice), so the benchmarks time the same work.
func TestGoStrikeAgrees(t *testing.T) {
	prog, d := dsl.Load(nil, filepath.Join("..", "rulesets/mortebrume/forge.rules"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	const runs, seed = 3000, 1
	tally := simulate(t, SimConfig{Expr: "frapper(will, jack)", A: Variant{Prog: prog}, Runs: runs, Seed: seed})
	want := map[string]int64{}
	for i := range int64(runs) {
		want[strconv.Itoa(goStrike(dice.NewPCG(RunSeed(seed, i))))]++
	}
	if got := counts(tally.Summary(0)); !reflect.DeepEqual(got, want) {
		t.Errorf("the rule gives %v, the Go reference %v", got, want)
	}
}

// BenchmarkGoStrike: the reference, one run per op, its source reseeded as a run's is.
func BenchmarkGoStrike(b *testing.B) {
	src := dice.NewPCG(0)
	hits := 0
	for i := range b.N {
		src.Reseed(RunSeed(1, int64(i)))
		hits += goStrike(src)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
	if hits < 0 {
		b.Fatal(hits)
	}
}

// cpuTime is the CPU time (user and system) the process has used, in seconds.
func cpuTime() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// BenchmarkSimManyLines: one run emitting 20,000 distinct lines (quadratic before the run's
// lines were kept in a set).
func BenchmarkSimManyLines(b *testing.B) {
	prog := loadSource(b, `ruleset "t"
action spam(n) {
  for i in 1..n {
    emit "line {i}"
  }
  return 1
}
`)
	for b.Loop() {
		if _, err := Simulate(SimConfig{Expr: "spam(20000)", A: Variant{Prog: prog}, Runs: 1, Seed: 1, Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
