package output

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

// quotient turns fractions a/b of big integers into float64, rounded as big.Rat's Float64
// rounds them (to the nearest, ties to even, through subnormals), without reducing the
// fraction first: the rounding depends only on the value. It keeps its scratch integers
// between calls.
type quotient struct{ a, b, q, r big.Int }

// float returns a/b for a >= 0, b > 0.
func (z *quotient) float(a, b *big.Int) float64 {
	alen := a.BitLen()
	if alen == 0 {
		return 0
	}
	blen := b.BitLen()
	if alen <= 53 && blen <= 53 {
		// Both exact as float64: IEEE division rounds the exact quotient to the nearest, and
		// a quotient of such integers is never subnormal.
		return float64(a.Uint64()) / float64(b.Uint64())
	}
	if f, ok := quickQuo(a, b, alen, blen); ok {
		return f
	}
	// The algorithm of math/big's quotToFloat64, on big.Int.
	const (
		msize  = 52
		msize1 = msize + 1
		msize2 = msize1 + 1
		ebias  = 1<<(64-msize1-1) - 1
		emin   = 1 - ebias
	)
	exp := alen - blen
	a2, b2 := a, b
	if shift := msize2 - exp; shift > 0 {
		a2 = z.a.Lsh(a, uint(shift))
	} else if shift < 0 {
		b2 = z.b.Lsh(b, uint(-shift))
	}
	z.q.QuoRem(a2, b2, &z.r)
	mantissa := z.q.Uint64()
	haveRem := z.r.Sign() != 0
	if mantissa>>msize2 == 1 {
		if mantissa&1 == 1 {
			haveRem = true
		}
		mantissa >>= 1
		exp++
	}
	if emin-msize <= exp && exp <= emin {
		shift := uint(emin - (exp - 1))
		lost := mantissa & (1<<shift - 1)
		haveRem = haveRem || lost != 0
		mantissa >>= shift
		exp = 2 - ebias
	}
	if mantissa&1 != 0 && (haveRem || mantissa&2 != 0) {
		if mantissa++; mantissa >= 1<<msize2 {
			mantissa >>= 1
			exp++
		}
	}
	mantissa >>= 1
	return math.Ldexp(float64(mantissa), exp-msize1)
}

// quickQuo rounds a/b from the top 64 bits of each: their quotient is within 2^-60 of a/b
// relatively, which decides the rounding unless a/b lies that close to a midpoint between
// two float64 (then ok is false, as it is for results near the subnormal range).
func quickQuo(a, b *big.Int, alen, blen int) (float64, bool) {
	if bits.UintSize != 64 {
		return 0, false
	}
	ta, sa := top64(a, alen)
	tb, sb := top64(b, blen)
	// q = floor(ta·2^63 / tb): ta, tb have their top bit set, so q is in [2^62, 2^64).
	q, _ := bits.Div64(ta>>1, ta<<63, tb)
	t := bits.Len64(q) - 1 // 62 or 63
	lowBits := uint(t - 52)
	r := q & (1<<lowBits - 1)
	half := uint64(1) << (lowBits - 1)
	if r+16 >= half && r <= half+16 {
		return 0, false
	}
	m := q >> lowBits
	if r > half {
		m++
	}
	exp := sa - sb - 63 + int(lowBits)
	// m < 2^54 times 2^exp: keep well inside the normal range.
	if exp < -1000 || exp > 900 {
		return 0, false
	}
	return math.Ldexp(float64(m), exp), true
}

// top64 returns x's top 64 bits (x has n >= 1 bits) and the power of two they are scaled by:
// x = top·2^shift + a remainder below 2^shift.
func top64(x *big.Int, n int) (uint64, int) {
	ws := x.Bits()
	i := len(ws) - 1
	hi := uint64(ws[i])
	lz := uint(bits.LeadingZeros64(hi))
	top := hi << lz
	if i > 0 && lz > 0 {
		top |= uint64(ws[i-1]) >> (64 - lz)
	}
	return top, n - 64
}

// fractions writes w/den in lowest terms, as big.Rat's RatString does, for many w over one
// den. When den's prime factors are all small (sums of dice have the product of their sides
// as denominator), the common factor of w and den is found from w's valuations at those
// primes, a division by a word each, instead of a GCD of two big integers; otherwise by the
// GCD. The reduced denominators are written once each.
type fractions struct {
	den    *big.Int
	primes []uint64 // den's prime factors, when they are all small; nil otherwise
	exps   []uint   // their exponents in den
	powers []uint64 // the largest power of each that fits a word
	pexp   []uint   // and its exponent

	dens  map[string][]byte // den/g written, by g's exponents (or g's bytes)
	key   []byte
	g, t  big.Int
	num   big.Int
	small bool // den fits a uint64: everything in uint64 arithmetic
	d64   uint64
}

// smallPrimeBound: den is factored by trial division up to this bound.
const smallPrimeBound = 1 << 12

func newFractions(den *big.Int) *fractions {
	f := &fractions{den: den, dens: map[string][]byte{}}
	if den.IsUint64() {
		f.small, f.d64 = true, den.Uint64()
		return f
	}
	c := new(big.Int).Set(den)
	if tz := c.TrailingZeroBits(); tz > 0 {
		f.addPrime(2, tz)
		c.Rsh(c, tz)
	}
	var q big.Int
	for p := uint64(3); p < smallPrimeBound && !(c.IsUint64() && c.Uint64() == 1); p += 2 {
		if modWord(c, p) != 0 {
			continue
		}
		pk, k := wordPower(p)
		e := uint(0)
		pkBig := new(big.Int).SetUint64(pk)
		for {
			r := modWord(c, pk)
			if r != 0 {
				v := valuation(r, p)
				e += v
				c.Quo(c, q.Exp(new(big.Int).SetUint64(p), big.NewInt(int64(v)), nil))
				break
			}
			e += k
			c.Quo(c, pkBig)
		}
		f.addPrime(p, e)
	}
	if !(c.IsUint64() && c.Uint64() == 1) {
		f.primes = nil // a large prime factor: GCDs
	}
	return f
}

func (f *fractions) addPrime(p uint64, e uint) {
	pk, k := wordPower(p)
	f.primes = append(f.primes, p)
	f.exps = append(f.exps, e)
	f.powers = append(f.powers, pk)
	f.pexp = append(f.pexp, k)
}

// wordPower returns p^k for the largest k with p^k < 2^64.
func wordPower(p uint64) (uint64, uint) {
	pk, k := p, uint(1)
	for {
		hi, lo := bits.Mul64(pk, p)
		if hi != 0 {
			return pk, k
		}
		pk, k = lo, k+1
	}
}

// modWord returns x mod m for x >= 0.
func modWord(x *big.Int, m uint64) uint64 {
	ws := x.Bits()
	var r uint64
	if bits.UintSize == 64 {
		for i := len(ws) - 1; i >= 0; i-- {
			_, r = bits.Div64(r, uint64(ws[i]), m)
		}
		return r
	}
	return new(big.Int).Mod(x, new(big.Int).SetUint64(m)).Uint64()
}

// valuation returns how many times p divides r > 0.
func valuation(r, p uint64) uint {
	v := uint(0)
	for r%p == 0 {
		r /= p
		v++
	}
	return v
}

// appendFrac appends w/den in lowest terms ("n/d", or "n" when d is 1) for 0 < w.
func (f *fractions) appendFrac(buf []byte, w *big.Int) []byte {
	if f.small {
		n, d := w.Uint64(), f.d64
		g := gcd64(n, d)
		buf = strconv.AppendUint(buf, n/g, 10)
		if d/g != 1 {
			buf = append(buf, '/')
			buf = strconv.AppendUint(buf, d/g, 10)
		}
		return buf
	}
	f.key = f.key[:0]
	if f.primes != nil {
		// g = the product of p^min(v_p(w), e_p) over den's primes.
		f.t.Set(w)
		f.g.SetInt64(1)
		for i, p := range f.primes {
			e := f.exps[i]
			v := uint(0)
			if p == 2 {
				v = min(f.t.TrailingZeroBits(), e)
				f.t.Rsh(&f.t, v)
			} else {
				for v < e {
					r := modWord(&f.t, f.powers[i])
					if r != 0 {
						v = min(v+valuation(r, p), e)
						break
					}
					v += f.pexp[i]
					f.t.Quo(&f.t, f.num.SetUint64(f.powers[i]))
				}
			}
			if v > 0 {
				f.num.Exp(f.num.SetUint64(p), big.NewInt(int64(v)), nil)
				f.g.Mul(&f.g, &f.num)
			}
			f.key = strconv.AppendUint(f.key, uint64(v), 36)
			f.key = append(f.key, ',')
		}
	} else {
		f.g.GCD(nil, nil, w, f.den)
		f.key = f.g.Append(f.key, 16)
	}
	one := f.g.IsUint64() && f.g.Uint64() == 1
	if one {
		buf = w.Append(buf, 10)
	} else {
		buf = f.num.Quo(w, &f.g).Append(buf, 10)
	}
	d, ok := f.dens[string(f.key)]
	if !ok {
		dd := f.den
		if !one {
			dd = new(big.Int).Quo(f.den, &f.g)
		}
		if !(dd.IsUint64() && dd.Uint64() == 1) {
			d = append([]byte{'/'}, dd.Append(nil, 10)...)
		}
		f.dens[string(f.key)] = d
	}
	return append(buf, d...)
}

func gcd64(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
