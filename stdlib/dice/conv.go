package dice

import (
	"math"
	"math/big"
	"math/bits"
)

// Convolution of exact weight vectors. Three ways, the cheapest estimate wins:
//
//   - uint64 schoolbook, when no coefficient of the product can overflow: every output
//     weight is at most max(a)·max(b)·min(len a, len b), so that bound's bits decide;
//   - big.Int schoolbook, for short vectors;
//   - Kronecker substitution: each vector packed into one big.Int (one coefficient per slot
//     of whole words, wide enough that no slot carries into the next), one multiplication,
//     the product cut back into slots. math/big multiplies long numbers by Karatsuba, so a
//     convolution of n coefficients costs about n^1.58 word products instead of n².

const (
	// bigOpCost is the overhead of one big.Int multiply-add, in word operations.
	bigOpCost = 24
	// karatsubaWords is where math/big switches from schoolbook to Karatsuba (about 40
	// words); below it a multiplication costs the product of the lengths.
	karatsubaWords = 40
)

// mulCost estimates the word operations of multiplying numbers of x and y words.
func mulCost(x, y int) int {
	if x < y {
		x, y = y, x
	}
	if y < karatsubaWords {
		return x * y
	}
	// math/big cuts the longer operand into pieces of the shorter one's length.
	k := math.Pow(float64(y), math.Log2(3)) * 2
	return int(math.Min(float64(x)/float64(y)*k, float64(x)*float64(y)))
}

// maxBits returns the bit length of the largest weight.
func maxBits(a []*big.Int) int {
	m := 0
	for _, x := range a {
		m = max(m, x.BitLen())
	}
	return m
}

// convPlan says how a convolution will be done and what it costs.
type convPlan struct {
	way  int // convU64, convBig, convKronecker
	cost int
	slot int // Kronecker slot width in words
}

const (
	convU64 = iota
	convBig
	convKronecker
)

func planConv(a, b []*big.Int) convPlan {
	la, lb := len(a), len(b)
	ba, bb := maxBits(a), maxBits(b)
	bound := ba + bb + bits.Len(uint(min(la, lb)))
	pairs := la * lb
	if bound <= 64 && pairs <= 1<<22 {
		return convPlan{way: convU64, cost: pairs}
	}
	words := (bound + bits.UintSize - 1) / bits.UintSize
	wa, wb := (ba+bits.UintSize-1)/bits.UintSize, (bb+bits.UintSize-1)/bits.UintSize
	school := convPlan{way: convBig, cost: pairs * (mulCost(max(wa, 1), max(wb, 1)) + bigOpCost)}
	kron := convPlan{way: convKronecker, slot: words,
		cost: 4*(la+lb+1)*words + mulCost(la*words, lb*words)}
	if kron.cost < school.cost {
		return kron
	}
	return school
}

// conv returns the convolution of two non-empty vectors of non-negative weights.
func conv(a, b []*big.Int, p convPlan) []*big.Int {
	switch p.way {
	case convU64:
		return convU64s(a, b)
	case convKronecker:
		return convKron(a, b, p.slot)
	}
	out := make([]*big.Int, len(a)+len(b)-1)
	for i := range out {
		out[i] = new(big.Int)
	}
	t := new(big.Int)
	for i, x := range a {
		if x.Sign() == 0 {
			continue
		}
		for j, y := range b {
			if y.Sign() != 0 {
				out[i+j].Add(out[i+j], t.Mul(x, y))
			}
		}
	}
	return out
}

func convU64s(a, b []*big.Int) []*big.Int {
	ua, ub := toU64(a), toU64(b)
	acc := make([]uint64, len(a)+len(b)-1)
	for i, x := range ua {
		if x == 0 {
			continue
		}
		row := acc[i : i+len(ub)]
		for j, y := range ub {
			row[j] += x * y
		}
	}
	return fromU64(acc)
}

func toU64(a []*big.Int) []uint64 {
	out := make([]uint64, len(a))
	for i, x := range a {
		out[i] = x.Uint64()
	}
	return out
}

func fromU64(a []uint64) []*big.Int {
	ints := make([]big.Int, len(a))
	out := make([]*big.Int, len(a))
	for i, x := range a {
		out[i] = ints[i].SetUint64(x)
	}
	return out
}

// pack lays the weights out as one number, slot words per weight, lowest first.
func pack(a []*big.Int, slot int) *big.Int {
	ws := make([]big.Word, len(a)*slot)
	for i, x := range a {
		copy(ws[i*slot:], x.Bits())
	}
	return new(big.Int).SetBits(ws)
}

func convKron(a, b []*big.Int, slot int) []*big.Int {
	pa := pack(a, slot)
	var prod *big.Int
	if sameVec(a, b) {
		prod = new(big.Int).Mul(pa, pa) // math/big squares faster than it multiplies
	} else {
		prod = new(big.Int).Mul(pa, pack(b, slot))
	}
	ws := prod.Bits()
	n := len(a) + len(b) - 1
	out := make([]*big.Int, n)
	ints := make([]big.Int, n)
	for i := range out {
		lo, hi := min(i*slot, len(ws)), min((i+1)*slot, len(ws))
		// The slot's capacity ends with it: growing one weight later reallocates instead of
		// writing over the next.
		out[i] = ints[i].SetBits(ws[lo:hi:hi])
	}
	return out
}

func sameVec(a, b []*big.Int) bool {
	return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
}
