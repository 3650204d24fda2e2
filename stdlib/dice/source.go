// Package dice rolls dice: the sources of random results (seeded or hand-given), dice
// notation, rolling and exact distributions. It knows nothing of any ruleset.
package dice

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Source gives die results. Roll returns a face index in [1, sides]; a hand-given source
// returns the next result the GM entered and errors when it does not fit or none is left.
type Source interface {
	Roll(sides int) (int, error)
}

// PCG is the default source: a seeded PCG from math/rand/v2, so a seed replays a whole session.
type PCG struct {
	rng  *rand.Rand
	pcg  *rand.PCG
	seed uint64
}

// NewPCG returns a seeded source.
func NewPCG(seed uint64) *PCG {
	p := rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)
	return &PCG{rng: rand.New(p), pcg: p, seed: seed}
}

// Seed returns the seed the source started from.
func (p *PCG) Seed() uint64 { return p.seed }

// Roll returns a uniform result in [1, sides].
func (p *PCG) Roll(sides int) (int, error) {
	if sides < 1 {
		return 0, fmt.Errorf("a die needs at least one side, got %d", sides)
	}
	return 1 + p.rng.IntN(sides), nil
}

// Queue gives results entered by hand, in order, then falls back to Next when one is set
// (nil: running out is an error).
type Queue struct {
	items []int
	pos   int
	Next  Source
}

// NewQueue returns a source that gives the listed results first.
func NewQueue(results []int, fallback Source) *Queue {
	return &Queue{items: append([]int(nil), results...), Next: fallback}
}

// Push appends hand-given results (the REPL's :rolls).
func (q *Queue) Push(results ...int) { q.items = append(q.items, results...) }

// Pending returns the hand-given results not used yet.
func (q *Queue) Pending() []int { return append([]int(nil), q.items[q.pos:]...) }

// Roll returns the next hand-given result, checking it fits the die.
func (q *Queue) Roll(sides int) (int, error) {
	if q.pos < len(q.items) {
		v := q.items[q.pos]
		if v < 1 || v > sides {
			return 0, fmt.Errorf("hand-given result %d does not fit a %d-sided die", v, sides)
		}
		q.pos++
		return v, nil
	}
	if q.Next != nil {
		return q.Next.Roll(sides)
	}
	return 0, fmt.Errorf("no hand-given result left for a %d-sided die", sides)
}

// Mark records how far a source has been consumed, where that can be undone (hand-given
// results of a failed call are given back).
func Mark(s Source) int {
	if q, ok := s.(*Queue); ok {
		return q.pos
	}
	return 0
}

// Restore returns a Queue to a Mark, giving back results used since.
func Restore(s Source, mark int) {
	if q, ok := s.(*Queue); ok {
		q.pos = mark
	}
}

// ParseList reads hand-given results written "7,3,5" or "7 3 5".
func ParseList(s string) ([]int, error) {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	out := make([]int, 0, len(f))
	for _, x := range f {
		v, err := strconv.Atoi(x)
		if err != nil || v < 1 {
			return nil, fmt.Errorf("bad die result %q: results are whole numbers from 1", x)
		}
		out = append(out, v)
	}
	return out, nil
}
