package dice

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// genesys are the narrative dice of Genesys, the triumph counting a success and the despair
// a failure, as the rules have it.
func genesys(t testing.TB) map[string]*Die {
	t.Helper()
	spec := map[string][]string{
		"ability":     {"", "s", "s", "ss", "a", "a", "sa", "aa"},
		"proficiency": {"", "s", "s", "ss", "ss", "a", "sa", "sa", "sa", "aa", "aa", "sT"},
		"difficulty":  {"", "f", "ff", "t", "t", "t", "tt", "ft"},
		"challenge":   {"", "f", "f", "ff", "ff", "t", "t", "ft", "ft", "tt", "tt", "fD"},
		"boost":       {"", "", "s", "sa", "aa", "a"},
		"setback":     {"", "", "f", "f", "t", "t"},
	}
	names := map[rune]string{'s': "s", 'a': "a", 'T': "tr", 'f': "f", 't': "t", 'D': "de"}
	out := map[string]*Die{}
	for name, faces := range spec {
		var rf []RecordFace
		for _, f := range faces {
			counts := map[string]int{}
			var order []string
			for _, c := range f {
				n := names[c]
				if counts[n] == 0 {
					order = append(order, n)
				}
				counts[n]++
			}
			var face RecordFace
			for _, n := range order {
				face.Fields = append(face.Fields, n)
				face.Counts = append(face.Counts, counts[n])
			}
			rf = append(rf, face)
		}
		d, err := NewRecordDie(name, rf)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = d
	}
	return out
}

// bruteJoint lists every face of every die of a pool and counts the records they add up to:
// the independent reference for Joint.
func bruteJoint(e *Expr) map[string]uint64 {
	s := e.rec
	var dice []*Die
	var cols [][]int
	for ti, t := range s.terms {
		for range t.Count {
			dice = append(dice, t.Die)
			cols = append(cols, s.cols[ti])
		}
	}
	out := map[string]uint64{}
	counts := make([]int, len(s.fields))
	var walk func(i int)
	walk = func(i int) {
		if i == len(dice) {
			out[fmt.Sprint(counts)]++
			return
		}
		for _, face := range dice[i].Counts {
			for k, c := range face {
				counts[cols[i][k]] += c
			}
			walk(i + 1)
			for k, c := range face {
				counts[cols[i][k]] -= c
			}
		}
	}
	walk(0)
	return out
}

func TestJointMatchesBruteForce(t *testing.T) {
	named := genesys(t)
	for _, src := range []string{
		"1dability",
		"2dability + 1dproficiency + 2ddifficulty",
		"1dboost + 2dsetback + 1dchallenge + 1d[ability]",
		"3dchallenge + 2dproficiency",
		"0dability + 1dsetback",
	} {
		t.Run(src, func(t *testing.T) {
			e, err := Parse(src, named)
			if err != nil {
				t.Fatal(err)
			}
			j, err := e.Joint()
			if err != nil {
				t.Fatal(err)
			}
			want := bruteJoint(e)
			got := map[string]uint64{}
			var sum uint64
			for i, v := range j.Vecs {
				got[fmt.Sprint(v)] = j.Counts[i]
				sum += j.Counts[i]
			}
			if sum != j.Total || len(got) != len(want) {
				t.Fatalf("total %d (sum %d), %d outcomes, want %d", j.Total, sum, len(got), len(want))
			}
			for k, w := range want {
				if got[k] != w {
					t.Errorf("%s: %d ways, want %d", k, got[k], w)
				}
			}
			for i := 1; i < len(j.Vecs); i++ {
				if slices.Compare(j.Vecs[i-1], j.Vecs[i]) >= 0 {
					t.Errorf("outcomes out of order at %d", i)
				}
			}
		})
	}
}

func TestJointTwelveDice(t *testing.T) {
	e, err := Parse("4dability + 2dproficiency + 3ddifficulty + 3dchallenge", genesys(t))
	if err != nil {
		t.Fatal(err)
	}
	j, err := e.Joint()
	if err != nil {
		t.Fatal(err)
	}
	if want := uint64(8*8*8*8) * 12 * 12 * 8 * 8 * 8 * 12 * 12 * 12; j.Total != want {
		t.Fatalf("total %d, want %d", j.Total, want)
	}
	// Draw reaches the first and the last outcomes, and nothing past them.
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[int]bool{}
	for range 2000 {
		i := j.Draw(rng)
		if i < 0 || i >= len(j.Vecs) {
			t.Fatalf("Draw gave %d of %d", i, len(j.Vecs))
		}
		seen[i] = true
	}
	if len(seen) < 100 {
		t.Errorf("2000 draws reached %d outcomes", len(seen))
	}
}

// TestJointWide: past 2^62 ways the weights are big numbers, checked against a dense table
// of (successes, advantages) built die by die, an independent way to the same counts.
func TestJointWide(t *testing.T) {
	const n = 25 // 8^25 = 2^75 ways
	e, err := Parse(fmt.Sprintf("%ddability", n), genesys(t))
	if err != nil {
		t.Fatal(err)
	}
	j, err := e.Joint()
	if err != nil {
		t.Fatal(err)
	}
	if j.BigTotal == nil || j.Counts != nil {
		t.Fatalf("%d dice: not wide", n)
	}
	faces := [][2]int{{0, 0}, {1, 0}, {1, 0}, {2, 0}, {0, 1}, {0, 1}, {1, 1}, {0, 2}}
	table := map[[2]int]*big.Int{{0, 0}: big.NewInt(1)}
	for range n {
		next := map[[2]int]*big.Int{}
		for k, w := range table {
			for _, f := range faces {
				key := [2]int{k[0] + f[0], k[1] + f[1]}
				if next[key] == nil {
					next[key] = new(big.Int)
				}
				next[key].Add(next[key], w)
			}
		}
		table = next
	}
	if len(table) != len(j.Vecs) {
		t.Fatalf("%d outcomes, want %d", len(j.Vecs), len(table))
	}
	sum := new(big.Int)
	for i, v := range j.Vecs {
		if want := table[[2]int{v[0], v[1]}]; want == nil || want.Cmp(j.BigCounts[i]) != 0 {
			t.Errorf("%v: %v ways, want %v", v, j.BigCounts[i], want)
		}
		sum.Add(sum, j.BigCounts[i])
	}
	if sum.Cmp(j.BigTotal) != 0 || j.BigTotal.Cmp(new(big.Int).Exp(big.NewInt(8), big.NewInt(n), nil)) != 0 {
		t.Errorf("total %v, counts sum to %v", j.BigTotal, sum)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 1000 {
		if i := j.Draw(rng); i < 0 || i >= len(j.Vecs) {
			t.Fatalf("Draw gave %d of %d", i, len(j.Vecs))
		}
	}
}

func TestRecordNotationErrors(t *testing.T) {
	named := genesys(t)
	for _, c := range []struct{ src, want string }{
		{"2dability + 3", "column 13: record dice are added with + to other record dice only, not to 3"},
		{"2dability - 1ddifficulty", "column 11: record dice are added with + only, not -"},
		{"2dability * 2", "column 11: record dice are added with + only, not *"},
		{"2d[ability]kh1", "column 12: ability has faces that are records of counts: it takes no modifier (kh1)"},
		{"2dability + 1d6", "column 13: 1d6 has numbers for faces"},
		{"2dability >= 1", "column 11: a roll of record dice has no order (>=)"},
		// A group takes modifiers for its dice: they were kept silently ({2dability}kh1 a
		// plain 2dability), or the faces' places read as numbers ({…}k1 rolled 1 to 8).
		{"{2dability}kh1", "column 1: {2dability}kh1: ability has faces that are records of counts: it takes no modifier"},
		{"{2dability}>=1", "column 1: {2dability}>=1: ability has faces that are records of counts: it takes no modifier"},
		{"{2dability + 1ddifficulty}k1", "column 1: record dice are added with + to other record dice only, not to {2dability + 1ddifficulty}k1"},
		{"1 + {3dability + 2}>1", "record dice are added with + to other record dice only"},
	} {
		_, err := Parse(c.src, named)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
	}
}

func TestRollRecordHandGiven(t *testing.T) {
	named := genesys(t)
	e, err := Parse("2dability + 1ddifficulty", named)
	if err != nil {
		t.Fatal(err)
	}
	// By index, by record (blanks and order free), and the blank face.
	q := NewQueue([]string{"7", "{a:2}", "{}"}, nil)
	counts, res, err := e.RollRecord(q)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.String(), "2dability [{s: 1, a: 1}, {a: 2}] + 1ddifficulty [{}] = {s: 1, a: 3, f: 0, t: 0}"; got != want {
		t.Errorf("got %s, want %s (%v)", got, want, counts)
	}
	q = NewQueue([]string{"{s: 3}"}, nil)
	if _, _, err := e.RollRecord(q); err == nil || !strings.Contains(err.Error(), "hand-given result {s: 3} is not a face of ability") {
		t.Errorf("err = %v", err)
	}
	q = NewQueue([]string{"9"}, nil)
	if _, _, err := e.RollRecord(q); err == nil || !strings.Contains(err.Error(), "hand-given result 9 is not a face of ability") {
		t.Errorf("err = %v", err)
	}
}

func TestParseListKeepsRecords(t *testing.T) {
	got, err := ParseList("3, {s: 1, a: 1} {},2")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"3", "{s: 1, a: 1}", "{}", "2"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := ParseList("{s: 1"); err == nil {
		t.Error("an unclosed record was taken")
	}
}

func BenchmarkJointTwelve(b *testing.B) {
	named := genesys(b)
	for b.Loop() {
		e, _ := Parse("4dability + 2dproficiency + 3ddifficulty + 3dchallenge", named)
		if _, err := e.Joint(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestJointRefusedEarly: pools with more records than exact odds list are refused from the
// count of their records before any weighted convolution, at once (1000dability ran for
// minutes), with what to do; the count is exact when the groups of fields are listed.
func TestJointRefusedEarly(t *testing.T) {
	named := genesys(t)
	for _, src := range []string{
		"1000dability", "10000dability", "30dability + 30ddifficulty",
		"7dability + 7dproficiency + 7ddifficulty + 7dchallenge + 6dboost + 6dsetback",
	} {
		e, err := Parse(src, named)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { _, err := e.Joint(); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "more than 2000000 different records") || !strings.Contains(err.Error(), "rulesh sim") {
				t.Errorf("%s: %v", src, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no answer in 10 s", src)
		}
	}
	for _, c := range []struct {
		src  string
		want int
	}{
		{"4dability + 2dproficiency + 3ddifficulty + 3dchallenge", 46460},
		{"2dability + 1dproficiency + 2ddifficulty", 645},
		{"0dability", 1},
	} {
		e, err := Parse(c.src, named)
		if err != nil {
			t.Fatal(err)
		}
		j, err := e.Joint()
		if err != nil {
			t.Fatal(err)
		}
		dies, lo, hi, _ := e.rec.jointDice()
		if got, listed := e.rec.supportBound(dies, lo, hi); got != c.want || !listed || len(j.Vecs) != c.want {
			t.Errorf("%s: bound %d, %d records, want %d", c.src, got, len(j.Vecs), c.want)
		}
	}
}

// TestJointGroupsProduct: dice that share no field are convolved apart and multiplied:
// 20dability + 20ddifficulty, refused at the step limit when grown die by die, is the
// product of two groups of 861 records, its weights past 2^62 those of each group
// multiplied.
func TestJointGroupsProduct(t *testing.T) {
	named := genesys(t)
	whole, err := Parse("20dability + 20ddifficulty", named)
	if err != nil {
		t.Fatal(err)
	}
	j, err := whole.Joint()
	if err != nil {
		t.Fatal(err)
	}
	parts := map[string]*Joint{}
	for _, src := range []string{"20dability", "20ddifficulty"} {
		e, err := Parse(src, named)
		if err != nil {
			t.Fatal(err)
		}
		if parts[src], err = e.Joint(); err != nil {
			t.Fatal(err)
		}
	}
	a, d := parts["20dability"], parts["20ddifficulty"]
	if len(j.Vecs) != len(a.Vecs)*len(d.Vecs) || len(a.Vecs) != 861 || j.BigTotal == nil {
		t.Fatalf("%d records (groups %d, %d), wide %v", len(j.Vecs), len(a.Vecs), len(d.Vecs), j.BigTotal != nil)
	}
	if !slices.Equal(j.Fields, append(slices.Clone(a.Fields), d.Fields...)) {
		t.Fatalf("fields %v", j.Fields)
	}
	sum := new(big.Int)
	for i, v := range j.Vecs {
		if i > 0 && slices.Compare(j.Vecs[i-1], v) >= 0 {
			t.Fatalf("records out of order at %d: %v then %v", i, j.Vecs[i-1], v)
		}
		// In order, record i is the (i / 861)th of the first group with the (i % 861)th of
		// the second.
		ia, id := i/len(d.Vecs), i%len(d.Vecs)
		want := new(big.Int).Mul(a.bigCount(ia), d.bigCount(id))
		if !slices.Equal(v, append(slices.Clone(a.Vecs[ia]), d.Vecs[id]...)) || want.Cmp(j.BigCounts[i]) != 0 {
			t.Fatalf("record %d: %v %v, want %v %v", i, v, j.BigCounts[i], append(slices.Clone(a.Vecs[ia]), d.Vecs[id]...), want)
		}
		sum.Add(sum, j.BigCounts[i])
	}
	if sum.Cmp(j.BigTotal) != 0 || j.BigTotal.Cmp(new(big.Int).Exp(big.NewInt(8), big.NewInt(40), nil)) != 0 {
		t.Errorf("total %v, counts sum to %v", j.BigTotal, sum)
	}
}
