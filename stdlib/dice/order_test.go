package dice

import (
	"math/big"
	"testing"
)

// treeSource walks every sequence of die results: each run takes the results of path, then
// the first face of every further die, recording how many sides each draw had; next moves to
// the following sequence. A run longer than maxDraws is abandoned (its mass counted apart),
// so chains that could go on for ever are enumerated up to a bound.
type treeSource struct {
	path, sides []int
	pos         int
	maxDraws    int
}

type errTooDeep struct{}

func (errTooDeep) Error() string { return "too deep" }

func (t *treeSource) Roll(sides int) (int, error) {
	if t.pos >= t.maxDraws {
		return 0, errTooDeep{}
	}
	if t.pos == len(t.path) {
		t.path = append(t.path, 1)
		t.sides = append(t.sides, sides)
	}
	t.pos++
	return t.path[t.pos-1], nil
}

// next advances to the next sequence; false when all were walked.
func (t *treeSource) next() bool {
	t.path, t.sides = t.path[:t.pos], t.sides[:t.pos]
	for i := len(t.path) - 1; i >= 0; i-- {
		if t.path[i] < t.sides[i] {
			t.path[i]++
			t.path, t.sides = t.path[:i+1], t.sides[:i+1]
			t.pos = 0
			return true
		}
	}
	return false
}

// bruteDist rolls e over every sequence of results up to maxDraws draws: the exact weight of
// each total, and the mass of the sequences abandoned.
func bruteDist(t *testing.T, e *Expr, maxDraws int) (map[int]*big.Rat, *big.Rat) {
	t.Helper()
	src := &treeSource{maxDraws: maxDraws}
	got := map[int]*big.Rat{}
	lost := new(big.Rat)
	for {
		src.pos = 0
		tot, err := NewRoller(e, src).Total()
		p := big.NewRat(1, 1)
		for _, s := range src.sides[:src.pos] {
			p.Mul(p, big.NewRat(1, int64(s)))
		}
		switch err.(type) {
		case nil:
			if got[tot] == nil {
				got[tot] = new(big.Rat)
			}
			got[tot].Add(got[tot], p)
		case errTooDeep:
			lost.Add(lost, p)
		default:
			t.Fatalf("%v", err)
		}
		if !src.next() {
			return got, lost
		}
	}
}

// checkBrute compares the exact distribution of src with every roll of it: equal when no
// sequence was abandoned, else each probability within the abandoned mass (and the cut one).
func checkBrute(t *testing.T, src string, maxDraws int) {
	t.Helper()
	e, err := Parse(src, nil)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	d, err := e.Distribution()
	if err != nil {
		t.Fatalf("%s: exact: %v", src, err)
	}
	brute, lost := bruteDist(t, e, maxDraws)
	slack := new(big.Rat).Add(lost, d.Truncated())
	seen := map[int]bool{}
	for v, p := range brute {
		seen[v] = true
		diff := new(big.Rat).Sub(d.P(v), p)
		if diff.Abs(diff).Cmp(slack) > 0 {
			t.Errorf("%s: P(%d) = %s exact, %s rolled (slack %s)", src, v, d.P(v).FloatString(8), p.FloatString(8), slack.FloatString(8))
		}
	}
	for i, w := range d.W {
		if v := d.Min + i; w.Sign() != 0 && !seen[v] && d.P(v).Cmp(slack) > 0 {
			t.Errorf("%s: P(%d) = %s exact, never rolled", src, v, d.P(v).FloatString(8))
		}
	}
}

// TestOrderOfModifiers: min/max, explosions and rerolls on one term apply in rpg-dice-roller's
// order (clamp, explode, reroll), the exact odds agreeing with every roll. They were refused
// as order-dependent.
func TestOrderOfModifiers(t *testing.T) {
	for _, c := range []struct {
		src   string
		draws int
	}{
		{"4d6max5!", 4},       // clamped to 5: never explodes
		{"2d4min3r<3", 2},     // clamped to 3 or more: never rerolled
		{"2d6!r<3", 8},        // each die of the chain rerolled, not exploding again
		{"1d6!ro1", 6},        // once
		{"1d4!!r<3", 7},       // a compound total rerolled
		{"1d6min5!", 6},       // a clamped 5 does not explode, a 6 does
		{"1d4min4!", 6},       // every first die a 4: explodes on the clamped value
		{"1d6!>=5max5", 6},    // 5 and 6 clamp to 5 and explode
		{"1d6!pr1", 6},        // penetrating: a later 1 reads 0, not rerolled; a 2 reads 1
		{"1d4max3!3r=3", 6},   // limited explosions: none, a 4 is clamped
		{"2d6!r<3>=4", 8},     // then successes counted
		{"3d4!2r1kh2", 9},     // keep/drop over them refused exactly: see below
		{"1d6!!min2", 6},      // compound, clamped first die
		{"1d[1,1,3]!=3r1", 8}, // a listed die
	} {
		if c.src == "3d4!2r1kh2" {
			continue // keep with added dice has no exact odds (a separate limit)
		}
		checkBrute(t, c.src, c.draws)
	}
	// What the documented examples mean.
	for src, want := range map[string]string{"4d6max5!": "4d6max5", "4d6min3r<3": "4d6min3"} {
		a, _ := Parse(src, nil)
		b, _ := Parse(want, nil)
		da, err := a.Distribution()
		if err != nil {
			t.Fatal(err)
		}
		db, _ := b.Distribution()
		if da.MeanRat().Cmp(db.MeanRat()) != 0 || len(da.W) != len(db.W) {
			t.Errorf("%s is not %s", src, want)
		}
	}
	if _, err := Parse("4d6r1u", nil); err == nil {
		t.Error("4d6r1u: unique beside a reroll is still refused")
	}
}

// TestUniqueBeyondFaces: 5d4u makes as many dice unique as the die has faces and rolls the
// rest freely (it was refused); the exact odds agree with every roll.
func TestUniqueBeyondFaces(t *testing.T) {
	for _, src := range []string{"5d4u", "4d3u", "4d3ukh2", "4d3u>=3", "3d[1,1,2]u", "5d3u>=2", "4d2u=1"} {
		checkBrute(t, src, 9)
	}
	e, err := Parse("5d4u", nil)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := e.Distribution()
	// 1+2+3+4 and a free d4: 12.5 on average.
	if d.MeanRat().Cmp(big.NewRat(25, 2)) != 0 {
		t.Errorf("5d4u: mean %s, want 25/2", d.MeanRat())
	}
}
