package analysis

import (
	"math/big"
	"testing"
)

// reuseRules are rules whose calls the exact engine reuses: an attack of four rolls (hit,
// wound, save, then a d3 of damage), volleys of them in a loop, and a recursive "roll d6
// until the total reaches 20" whose calls merge on their argument.
const reuseRules = `
rule attack(): int {
  if d(6) < 3 {
    return 0
  }
  if d(6) < 4 {
    return 0
  }
  if d(6) >= 5 {
    return 0
  }
  return d(3)
}

rule volley(n: int): int {
  let total = 0
  for i in n {
    total += attack()
  }
  return total
}

rule reach(t: int): int {
  if t >= 20 {
    return 0
  }
  return 1 + reach(t + d(6))
}

rule loud(): int {
  let x = d(6)
  emit "rolled {x}"
  return x
}

rule picky(): int {
  let x = d(6)
  require x > 1 else "a one"
  return x
}

rule listed(): list {
  return [d(2)]
}

rule sum_loop(n: int): int {
  let t = 0
  for i in n {
    t += d(6)
  }
  return t
}

rule until20(): int {
  let t = 0
  let n = 0
  while t < 20 {
    t += d(6)
    n += 1
  }
  return n
}

rule eight(): int {
  return d(6) + d(6) + d(6) + d(6) + d(6) + d(6) + d(6) + d(6)
}

// Two loops one after the other with the same locals: their turns are different places.
rule two_loops(): int {
  let t = 0
  for i in 6 {
    t += d(2)
  }
  for i in 6 {
    t += 10 * d(2)
  }
  return t
}

// Nested loops, the inner one's length drawn: the outer turn is part of the state.
rule nested(): int {
  let t = 0
  for i in 3 {
    for j in d(3) {
      t += d(2)
    }
  }
  return t
}

`

// attackDist is the attack's distribution counted face by face in Go: the damage by its
// probability.
func attackDist() map[int]*big.Rat {
	dist := map[int]*big.Rat{}
	add := func(v int, p *big.Rat) {
		if dist[v] == nil {
			dist[v] = new(big.Rat)
		}
		dist[v].Add(dist[v], p)
	}
	for hit := 1; hit <= 6; hit++ {
		for wound := 1; wound <= 6; wound++ {
			for save := 1; save <= 6; save++ {
				for dmg := 1; dmg <= 3; dmg++ {
					p := big.NewRat(1, 6*6*6*3)
					switch {
					case hit < 3, wound < 4, save >= 5:
						add(0, p)
					default:
						add(dmg, p)
					}
				}
			}
		}
	}
	return dist
}

// sumOf is the distribution of the sum of independent values of a and b.
func sumOf(a, b map[int]*big.Rat) map[int]*big.Rat {
	out := map[int]*big.Rat{}
	for x, p := range a {
		for y, q := range b {
			if out[x+y] == nil {
				out[x+y] = new(big.Rat)
			}
			out[x+y].Add(out[x+y], new(big.Rat).Mul(p, q))
		}
	}
	return out
}

func toBrute(d map[int]*big.Rat) brute {
	b := brute{}
	for v, p := range d {
		b[itoa(v)] = p
	}
	return b
}

// TestReuseVolley: a volley over the budget is answered exactly by reusing the attack, and
// its odds are the n-fold convolution of the attack's, computed here face by face.
func TestReuseVolley(t *testing.T) {
	prog := loadSource(t, reuseRules)
	one := attackDist()
	want := map[int]*big.Rat{0: big.NewRat(1, 1)}
	for n := 1; n <= 6; n++ {
		want = sumOf(want, one)
		expr := "volley(" + itoa(n) + ")"
		// 182 branches per attack drawn die by die: 182^n, far over 10,000 from n = 2; 4^n
		// reused (and 182 for the attack once), which must be within half the budget.
		d := prob(t, prog, expr, ProbOptions{Budget: 10_000, Exact: true})
		checkExact(t, d, toBrute(want))
		if d.Leaves > 5_000 {
			t.Errorf("%s: %d branches", expr, d.Leaves)
		}
	}
	// The same sum written in the expression: every call is one weighted draw.
	d := prob(t, prog, "attack() + attack() + attack()", ProbOptions{Budget: 1_000, Exact: true})
	checkExact(t, d, toBrute(sumOf(sumOf(one, one), one)))
}

// reachDist is the number of d6 rolls until a total from t reaches 20, by recursion in Go.
func reachDist(t int, memo map[int]map[int]*big.Rat) map[int]*big.Rat {
	if t >= 20 {
		return map[int]*big.Rat{0: big.NewRat(1, 1)}
	}
	if d, ok := memo[t]; ok {
		return d
	}
	out := map[int]*big.Rat{}
	for f := 1; f <= 6; f++ {
		for n, p := range reachDist(t+f, memo) {
			if out[n+1] == nil {
				out[n+1] = new(big.Rat)
			}
			out[n+1].Add(out[n+1], new(big.Rat).Mul(p, big.NewRat(1, 6)))
		}
	}
	memo[t] = out
	return out
}

// TestReuseMergesOnArguments: a recursive rule is enumerated once per argument, so "roll
// until 20" (1.7 million branches die by die) costs a few hundred.
func TestReuseMergesOnArguments(t *testing.T) {
	prog := loadSource(t, reuseRules)
	d := prob(t, prog, "reach(0)", ProbOptions{Exact: true})
	checkExact(t, d, toBrute(reachDist(0, map[int]map[int]*big.Rat{})))
	if d.Leaves > 10_000 {
		t.Errorf("reach(0): %d branches", d.Leaves)
	}
}

// TestReuseLeavesUnsafeCallsAlone: a call that emits, fails on a branch or returns a list is
// not reused; beside a reused call the odds stay exact and right.
func TestReuseLeavesUnsafeCallsAlone(t *testing.T) {
	prog := loadSource(t, reuseRules)
	one := attackDist()
	six := map[int]*big.Rat{}
	for f := 1; f <= 6; f++ {
		six[f] = big.NewRat(1, 6)
	}
	// 182 × 182 × 6 branches die by die: over the budget unless the attacks are reused.
	d := prob(t, prog, "attack() + attack() + loud()", ProbOptions{Budget: 1_000, Exact: true})
	checkExact(t, d, toBrute(sumOf(sumOf(one, one), six)))

	want := brute{"error: a one": big.NewRat(1, 6)}
	five := map[int]*big.Rat{}
	for f := 2; f <= 6; f++ {
		five[f] = big.NewRat(1, 6)
	}
	for v, p := range sumOf(sumOf(one, one), five) {
		want[itoa(v)] = p
	}
	d = prob(t, prog, "attack() + attack() + picky()", ProbOptions{Budget: 1_000, Exact: true})
	checkExact(t, d, want)

	d = prob(t, prog, "attack() + attack() + len(listed())", ProbOptions{Budget: 1_000, Exact: true})
	checkExact(t, d, toBrute(sumOf(sumOf(one, one), map[int]*big.Rat{1: big.NewRat(1, 1)})))
}

// TestReuseStillRefusesBigTrees: a tree that stays over the budget with reuse (a rule of
// eight d6 and no loop: nothing merges) is refused with its estimate, quickly.
func TestReuseStillRefusesBigTrees(t *testing.T) {
	prog := loadSource(t, reuseRules)
	_, err := Prob(Question{Prog: prog, Expr: "eight()", Seed: 1}, ProbOptions{Budget: 10_000, Exact: true})
	tb, ok := err.(*ErrTooBig)
	if !ok {
		t.Fatalf("eight(): %v, want *ErrTooBig", err)
	}
	if tb.Estimate < 1e5 || tb.Estimate > 1e8 {
		t.Errorf("estimate %g, want about 6^8 = 1.7e6", tb.Estimate)
	}
}

// die is the distribution of one die of n sides.
func die(n int) map[int]*big.Rat {
	d := map[int]*big.Rat{}
	for f := 1; f <= n; f++ {
		d[f] = big.NewRat(1, int64(n))
	}
	return d
}

// TestMergeLoops: the branches of a rule's own loop that reach the same locals at a turn go
// on once, so loops that sum many dice are exact at a small cost; each answer is checked
// against a distribution computed in Go (convolution, recursion, or every face).
func TestMergeLoops(t *testing.T) {
	prog := loadSource(t, reuseRules)
	// 30 d6 summed in a loop: 6^30 branches die by die.
	want := map[int]*big.Rat{0: big.NewRat(1, 1)}
	for range 30 {
		want = sumOf(want, die(6))
	}
	d := prob(t, prog, "sum_loop(30)", ProbOptions{Exact: true})
	checkExact(t, d, toBrute(want))
	if d.Leaves > 50_000 {
		t.Errorf("sum_loop(30): %d branches", d.Leaves)
	}
	// Roll until 20 with a while loop: the number of rolls, as the Go recursion counts it.
	d = prob(t, prog, "until20()", ProbOptions{Exact: true})
	checkExact(t, d, toBrute(reachDist(0, map[int]map[int]*big.Rat{})))
	// A volley of 10 attacks in a loop: the 10-fold convolution of the attack.
	want = map[int]*big.Rat{0: big.NewRat(1, 1)}
	for range 10 {
		want = sumOf(want, attackDist())
	}
	d = prob(t, prog, "volley(10)", ProbOptions{Exact: true})
	checkExact(t, d, toBrute(want))
	if d.Leaves > 5_000 {
		t.Errorf("volley(10): %d branches", d.Leaves)
	}
}

// TestMergeKeepsPlacesApart: states are merged only at the same turn of the same loop, with
// the loops around it: every face counted in Go, the rules over a budget that only merged
// enumeration meets.
func TestMergeKeepsPlacesApart(t *testing.T) {
	prog := loadSource(t, reuseRules)
	two := brute{}
	for a := range 1 << 12 {
		tot := 0
		for k := range 6 {
			tot += 1 + (a>>k)&1
		}
		for k := 6; k < 12; k++ {
			tot += 10 * (1 + (a>>k)&1)
		}
		two.add(itoa(tot), 1, 1<<12)
	}
	// 4,096 branches die by die.
	checkExact(t, prob(t, prog, "two_loops()", ProbOptions{Budget: 1_000, Exact: true}), two)

	// nested: per outer turn, a d3 of d2 summed; three independent turns.
	turn := map[int]*big.Rat{}
	for n := 1; n <= 3; n++ {
		s := map[int]*big.Rat{0: big.NewRat(1, 1)}
		for range n {
			s = sumOf(s, die(2))
		}
		for v, p := range s {
			if turn[v] == nil {
				turn[v] = new(big.Rat)
			}
			turn[v].Add(turn[v], new(big.Rat).Mul(p, big.NewRat(1, 3)))
		}
	}
	checkExact(t, prob(t, prog, "nested()", ProbOptions{Budget: 2_000, Exact: true}), toBrute(sumOf(sumOf(turn, turn), turn)))

}
