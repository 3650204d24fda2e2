// Package rollref holds hand-written Go references for the roll library's benchmarks
// (stdlib/dice BenchmarkRoll4d6kh3, BenchmarkRoll3d6, BenchmarkRoll10d10x), for bench/run.sh.
// Each draws its dice from the same seeded source as the library (dice.NewPCG(1)), through
// the dice.Source interface and a function that is not inlined, so that the compiler cannot
// fold the draws into the loop: the work left is the same dice from the same generator, with
// none of the library's parsing, recording or interpretation of notation.
package rollref

import (
	"testing"

	"rulesh/stdlib/dice"
)

//go:noinline
func die(src dice.Source, sides int) int {
	v, _ := src.Roll(sides)
	return v
}

func BenchmarkGoRoll4d6kh3(b *testing.B) {
	var src dice.Source = dice.NewPCG(1)
	s := 0
	for b.Loop() {
		a, c, d, e := die(src, 6), die(src, 6), die(src, 6), die(src, 6)
		s += a + c + d + e - min(a, c, d, e)
	}
	_ = s
}

func BenchmarkGoRoll3d6(b *testing.B) {
	var src dice.Source = dice.NewPCG(1)
	s := 0
	for b.Loop() {
		s += die(src, 6) + die(src, 6) + die(src, 6)
	}
	_ = s
}

// BenchmarkGoRoll10d10x is 10d10!: each 10 rolls again and adds.
func BenchmarkGoRoll10d10x(b *testing.B) {
	var src dice.Source = dice.NewPCG(1)
	s := 0
	for b.Loop() {
		for range 10 {
			v := die(src, 10)
			s += v
			for v == 10 {
				v = die(src, 10)
				s += v
			}
		}
	}
	_ = s
}
