package analysis

import (
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"

	"rulesh/stdlib/dice"
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
	// dists holds, for each draw of the path, the outcomes of a reused rule call it stands
	// for (a weighted draw, sides its outcomes), nil for a plain draw.
	dists []*spread
	// joints holds the weighted draw of each sum of record dice met (Joint).
	joints map[*dice.Joint]*spread
	pos    int // draws given in the current run
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
	s.dists = append(s.dists, nil)
	return 1, nil
}

// pick draws one outcome of a reused call's distribution d and returns its index. Along a
// path it is one draw of len(d.vals) branches, each weighted by its count. At random (only
// the cost estimate draws so: samples never reuse calls) it picks a branch uniformly, as
// Knuth's estimator of the leaves wants: weighted picks would make a rare outcome's subtree
// count for its inverse probability, and the estimate of a volley swing by orders of
// magnitude.
func (s *pathSource) pick(d *spread) (int, error) {
	n := len(d.vals)
	if s.mode != pathMode {
		s.pos++
		s.prod *= float64(n)
		return s.rng.IntN(n), nil
	}
	i := s.pos
	s.pos++
	if i < len(s.faces) {
		if s.sides[i] != n || s.dists[i] != d {
			s.broken = true
			return 0, errDrawSides
		}
		return s.faces[i] - 1, nil
	}
	s.faces = append(s.faces, 1)
	s.sides = append(s.sides, n)
	s.dists = append(s.dists, d)
	return 0, nil
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
		s.faces, s.sides, s.dists = s.faces[:0], s.sides[:0], s.dists[:0]
		return false
	}
	s.faces, s.sides, s.dists = s.faces[:n], s.sides[:n], s.dists[:n]
	s.faces[n-1]++
	return true
}

// nextFrom is next for the draws from the one at floor on: those before are a fixed prefix.
func (s *pathSource) nextFrom(floor int) bool {
	n := min(s.pos, len(s.faces))
	for n > floor && s.faces[n-1] == s.sides[n-1] {
		n--
	}
	if n <= floor {
		return false
	}
	s.faces, s.sides, s.dists = s.faces[:n], s.sides[:n], s.dists[:n]
	s.faces[n-1]++
	return true
}

// weight returns the current leaf's probability as num/den: den the product of the sides of
// its draws (a weighted draw counts its distribution's total), num the product of the counts
// of the outcomes its weighted draws took (1 without them); false if either does not fit in
// 64 bits.
func (s *pathSource) weight() (num, den uint64, fits bool) {
	num, den = 1, 1
	n := min(s.pos, len(s.sides))
	for i, sides := range s.sides[:n] {
		f := uint64(sides)
		if d := s.dists[i]; d != nil {
			if d.bigTotal != nil {
				return 0, 0, false
			}
			hi, lo := bits.Mul64(num, d.counts[s.faces[i]-1])
			if hi != 0 {
				return 0, 0, false
			}
			num, f = lo, d.total
		}
		hi, lo := bits.Mul64(den, f)
		if hi != 0 {
			return 0, 0, false
		}
		den = lo
	}
	return num, den, true
}

// bigWeight is weight in big numbers.
func (s *pathSource) bigWeight() *big.Rat { return s.weightFrom(0) }

// weightFrom is the probability of the current run's draws from the one at from on.
func (s *pathSource) weightFrom(from int) *big.Rat {
	num, den := big.NewInt(1), big.NewInt(1)
	var t big.Int
	n := min(s.pos, len(s.sides))
	for i := from; i < n; i++ {
		sides := s.sides[i]
		if d := s.dists[i]; d != nil {
			if d.bigTotal != nil {
				num.Mul(num, d.bigCounts[s.faces[i]-1])
				den.Mul(den, d.bigTotal)
				continue
			}
			num.Mul(num, t.SetUint64(d.counts[s.faces[i]-1]))
			den.Mul(den, t.SetUint64(d.total))
			continue
		}
		den.Mul(den, t.SetInt64(int64(sides)))
	}
	return new(big.Rat).SetFrac(num, den)
}

// saved is the path of a run paused while a reused call is enumerated on its own.
type saved struct {
	mode         int
	faces, sides []int
	dists        []*spread
	pos          int
	prod         float64
	broken       bool
}

// push pauses the current path and starts an empty one, to enumerate a call on its own.
func (s *pathSource) push() saved {
	sv := saved{s.mode, s.faces, s.sides, s.dists, s.pos, s.prod, s.broken}
	s.mode, s.faces, s.sides, s.dists, s.broken = pathMode, nil, nil, nil, false
	return sv
}

// pop resumes the path push paused.
func (s *pathSource) pop(sv saved) {
	s.mode, s.faces, s.sides, s.dists, s.pos, s.prod, s.broken = sv.mode, sv.faces, sv.sides, sv.dists, sv.pos, sv.prod, sv.broken
}

// Joint implements dice.JointSource: a sum of record dice is one draw among the outcomes of
// its joint distribution (computed by convolution), each branch weighted by its count, so
// the tree branches once per record of counts, not once per face of each die. At random it
// draws an outcome by its weight (samples are then true to the dice) and counts the
// outcomes for the estimate of the leaves, as a weighted draw of a reused call does.
func (s *pathSource) Joint(j *dice.Joint) (int, error) {
	n := len(j.Vecs)
	switch s.mode {
	case setupMode:
		return j.Draw(s.setup), nil
	case randomMode:
		s.pos++
		s.prod *= float64(n)
		return j.Draw(s.rng), nil
	}
	if s.joints == nil {
		s.joints = map[*dice.Joint]*spread{}
	}
	d := s.joints[j]
	if d == nil {
		d = &spread{vals: make([]any, n), counts: j.Counts, total: j.Total, bigCounts: j.BigCounts, bigTotal: j.BigTotal}
		s.joints[j] = d
	}
	return s.pick(d)
}
