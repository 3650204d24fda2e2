package analysis

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// pathSource is the dice.Source of an analysis machine. Every random value a rule asks for
// (a die, a pick or shuffle position, a card shuffle, a policy's choice) comes through Roll.
//
// Following a path, it gives the recorded faces of the draws the path fixes and face 1 for
// each new draw, recording the draw's sides: the runs of one expression are deterministic
// given their draws, so re-running it along path after path (the deepest draw not at its last
// face moved on by one) visits every leaf of the tree of draws once. Sampling, it gives
// uniform faces from its generator. Before the analysis starts (the machine's setup, such as
// shuffling the decks) it rolls from the setup generator.
type pathSource struct {
	mode  int // setupMode, pathMode or randomMode
	faces []int
	sides []int
	pos   int // draws given in the current run
	// prod is the product of the sides of the current random run's draws (Knuth's
	// estimate of the leaves of the tree, from one random path).
	prod float64
	// broken is set when a re-run did not repeat the draws of its path.
	broken bool
	rng    *rand.Rand
	pcg    *rand.PCG
	setup  *rand.Rand
}

const (
	setupMode = iota
	pathMode
	randomMode
)

// errDrawSides says a re-run asked a different die at the same place of its path: the
// expression is not a function of its draws (it reads something outside the state).
var errDrawSides = errors.New("a run did not repeat its draws: the expression reads something besides the dice and the state")

func newPathSource(seed uint64) *pathSource {
	pcg := rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)
	return &pathSource{
		pcg:   pcg,
		rng:   rand.New(pcg),
		setup: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
	}
}

// Roll implements dice.Source.
func (s *pathSource) Roll(sides int) (int, error) {
	if sides < 1 {
		return 0, fmt.Errorf("a die needs at least one side, got %d", sides)
	}
	switch s.mode {
	case setupMode:
		return 1 + s.setup.IntN(sides), nil
	case randomMode:
		s.pos++
		s.prod *= float64(sides)
		return 1 + s.rng.IntN(sides), nil
	}
	i := s.pos
	s.pos++
	if i < len(s.faces) {
		if s.sides[i] != sides {
			s.broken = true
			return 0, errDrawSides
		}
		return s.faces[i], nil
	}
	s.faces = append(s.faces, 1)
	s.sides = append(s.sides, sides)
	return 1, nil
}

// drawn returns how many values the current run drew (the rule cache's Drawn).
func (s *pathSource) drawn() int { return s.pos }

// start prepares a run: along the current path, or random from seed.
func (s *pathSource) start() { s.pos, s.prod = 0, 1 }

// reseed starts the random generator of sample i of a run seeded seed: sample i of two
// questions asked with the same seed draws the same values (paired samples).
func (s *pathSource) reseed(seed uint64, i int64) {
	a := splitmix(seed ^ splitmix(uint64(i)))
	s.pcg.Seed(a, splitmix(a))
}

// splitmix is SplitMix64's finaliser: nearby seeds give unrelated streams.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// next moves the path to the next leaf after a run: the draws the run did not reach are
// dropped, the deepest draw not at its last face moves on by one and those after it go.
// It returns false when the tree is done.
func (s *pathSource) next() bool {
	n := min(s.pos, len(s.faces))
	for n > 0 && s.faces[n-1] == s.sides[n-1] {
		n--
	}
	if n == 0 {
		s.faces, s.sides = s.faces[:0], s.sides[:0]
		return false
	}
	s.faces, s.sides = s.faces[:n], s.sides[:n]
	s.faces[n-1]++
	return true
}

// weight returns the denominator of the current leaf's probability: the product of the
// sides of its draws, and false if it does not fit in 64 bits.
func (s *pathSource) weight() (uint64, bool) {
	d := uint64(1)
	for _, n := range s.sides[:min(s.pos, len(s.sides))] {
		hi, lo := bits.Mul64(d, uint64(n))
		if hi != 0 {
			return 0, false
		}
		d = lo
	}
	return d, true
}
