package runtime

import (
	"slices"
	"testing"

	"rulesh/stdlib/dice"
)

// A roll of one or two dice is one allocation (its faces in the Roll itself), a larger
// one two, and one more for a list of dropped dice; All and Faces share an array, but an
// append to one leaves the other as it was.
func TestNewRollAllocations(t *testing.T) {
	for _, c := range []struct {
		src    string
		allocs float64
	}{{"1d6", 1}, {"2d6", 1}, {"3d6", 2}, {"4d6kh3", 3}} {
		de, err := dice.Parse(c.src, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := dice.NewRoller(de, dice.NewPCG(1)).Roll()
		if err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(50, func() { newRoll(res) }); n != c.allocs {
			t.Errorf("%s: %v allocations, want %v", c.src, n, c.allocs)
		}
		r := newRoll(res)
		all, faces := slices.Clone(r.All), slices.Clone(r.Faces)
		_ = append(r.All, 99)
		_ = append(r.Faces, 98)
		if !slices.Equal(r.All, all) || !slices.Equal(r.Faces, faces) || len(r.All) != len(res.Terms[0].Dice) {
			t.Errorf("%s: all %v faces %v, were %v and %v", c.src, r.All, r.Faces, all, faces)
		}
	}
}
