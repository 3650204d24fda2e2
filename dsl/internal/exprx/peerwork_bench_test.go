package exprx_test

// expr-lang alone on the dice workload of dsl/peerwork_bench_test.go: the expression
// d(6) + d(6) + d(6) + 2 >= 12, compiled once with d a Go function on the same seeded source
// (dice.NewPCG(1)), run 1,000,000 times from a Go loop on one reused VM. It is what the
// rulesh rule's expression would cost with nothing of the language around it (no call, no
// frame, no loop in the language): bench/peers.sh prints it beside the rule.

import (
	"syscall"
	"testing"

	exprlang "github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"

	"rulesh/stdlib/dice"
)

// exprDice compiles the expression and returns a loop of n runs counting the successes.
func exprDice(tb testing.TB) func(n int) int {
	tb.Helper()
	src := dice.NewPCG(1)
	d := exprlang.Function("d", func(args ...any) (any, error) {
		return src.Roll(args[0].(int))
	}, new(func(int) int))
	prog, err := exprlang.Compile(`d(6) + d(6) + d(6) + 2 >= 12`, d, exprlang.AsBool())
	if err != nil {
		tb.Fatal(err)
	}
	var machine vm.VM
	return func(n int) int {
		hits := 0
		for range n {
			v, err := machine.Run(prog, nil)
			if err != nil {
				tb.Fatal(err)
			}
			if v.(bool) {
				hits++
			}
		}
		return hits
	}
}

func BenchmarkPeerWorkExprDice(b *testing.B) {
	loop := exprDice(b)
	b.ReportAllocs()
	cpu0 := processCPU()
	for b.Loop() {
		loop(1_000_000)
	}
	b.ReportMetric((processCPU()-cpu0)*1e3/float64(b.N), "cpu-ms/op")
}

// processCPU is the CPU time (user and system) the process has used, in seconds.
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// TestPeerWorkExprDiceAgrees: the expression draws the dice a Go loop draws, in the same
// order, and counts the same successes.
func TestPeerWorkExprDiceAgrees(t *testing.T) {
	const n = 3000
	var src dice.Source = dice.NewPCG(1)
	want := 0
	for range n {
		t := 2
		for range 3 {
			r, _ := src.Roll(6)
			t += r
		}
		if t >= 12 {
			want++
		}
	}
	if got := exprDice(t)(n); got != want {
		t.Errorf("expr-lang counts %d successes of %d, Go %d", got, n, want)
	}
	if want == 0 || want == n {
		t.Errorf("%d successes of %d: the check does not discriminate", want, n)
	}
}
