package exprx_test

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"rulesh/analysis"
	"rulesh/dsl"
	"rulesh/dsl/internal/exprx"
)

// shippedSims are runs of the shipped rulesets that reach most of their rules: the sim
// benchmarks' calls.
var shippedSims = []struct{ file, expr string }{
	{"mortebrume/forge.rules", "frapper(will, jack)"},
	{"naval/brigantin.rules", "assauts_automatiques(1)"},
	{"army/campagne.rules", "[lever(), bataille(loup, brume)][1]"},
	{"starwars/escarmouche.rules", "attaquer(tk421, kael, 15)"},
	{"sabre/démo.rules", "tour_auto()"},
}

// TestShippedOnClosures: every expression of every shipped ruleset compiles to closures,
// and the shipped rulesets' simulations give the same outcomes and the same emitted lines,
// run for run, with every expression on the VM.
func TestShippedOnClosures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "rulesets", "*", "*.rules"))
	if err != nil || len(files) == 0 {
		t.Fatal("no rulesets", err)
	}
	before := exprx.VMOnly()
	for _, f := range files {
		if _, d := dsl.Load(nil, f); d.HasErrors() {
			t.Fatalf("%s: %v", f, d)
		}
	}
	if n := exprx.VMOnly() - before; n > 0 {
		t.Errorf("%d expressions of the shipped rulesets are left to the VM", n)
	}
	runs := int64(60)
	if testing.Short() {
		runs = 10
	}
	for _, s := range shippedSims {
		got := simulateShipped(t, s.file, s.expr, runs, false)
		want := simulateShipped(t, s.file, s.expr, runs, true)
		if got != want {
			t.Errorf("%s %s: closures\n%s\nVM\n%s", s.file, s.expr, got, want)
		}
	}
}

// simulateShipped runs expr on a shipped ruleset, its expressions compiled to closures or
// left to the VM, and returns the outcomes and emitted lines, sorted.
func simulateShipped(t *testing.T, file, expr string, runs int64, vm bool) string {
	t.Helper()
	exprx.SetNoFast(vm)
	defer exprx.SetNoFast(false)
	prog, d := dsl.Load(nil, filepath.Join("..", "..", "..", "rulesets", file))
	if d.HasErrors() {
		t.Fatal(d)
	}
	tally, err := analysis.Simulate(analysis.SimConfig{Expr: expr, A: analysis.Variant{Prog: prog}, Runs: runs, Seed: 7, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for text, o := range tally.Outcomes {
		lines = append(lines, fmt.Sprintf("outcome %s: %v", text, o))
	}
	for text, n := range tally.Emitted[0] {
		lines = append(lines, fmt.Sprintf("emitted %s: %d", text, n))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
