package runtime

import (
	"slices"
	"strings"
	"testing"

	"rulesh/stdlib/dice"
)

// A roll of one or two dice is one allocation (its record, term, dice and faces with the
// Roll itself; it was four and five), a larger one more, and keep/drop more again (the
// roller's general path: it was ten); All and Faces share an array, but an append to one
// leaves the other as it was.
func TestRolledAllocations(t *testing.T) {
	for _, c := range []struct {
		src    string
		allocs float64
	}{{"1d6", 1}, {"2d6", 1}, {"3d6", 3}, {"4d6kh3", 8}} {
		de, err := dice.Parse(c.src, nil)
		if err != nil {
			t.Fatal(err)
		}
		roller := dice.NewRoller(de, dice.NewPCG(1))
		var r *Roll
		roll := func() {
			b := newRolled()
			if err := roller.RollInto(&b.res); err != nil {
				t.Fatal(err)
			}
			b.roll.fill(&b.res)
			r = &b.roll
		}
		if n := testing.AllocsPerRun(50, roll); n != c.allocs {
			t.Errorf("%s: %v allocations, want %v", c.src, n, c.allocs)
		}
		roll()
		if r.String() != r.result.String() || r.Total != r.result.Total || !strings.HasPrefix(r.String(), c.src+" [") {
			t.Errorf("%s: rolled %s, total %d", c.src, r, r.Total)
		}
		all, faces := slices.Clone(r.All), slices.Clone(r.Faces)
		_ = append(r.All, 99)
		_ = append(r.Faces, 98)
		if !slices.Equal(r.All, all) || !slices.Equal(r.Faces, faces) || len(r.All) != len(r.result.Terms[0].Dice) {
			t.Errorf("%s: all %v faces %v, were %v and %v", c.src, r.All, r.Faces, all, faces)
		}
	}
}
