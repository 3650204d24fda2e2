package dice

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
)

// DieRoll is one die as rolled, with what happened to it.
type DieRoll struct {
	Face     Face
	Value    int    // after penetration and clamps; the face value otherwise
	Dropped  bool   // removed by keep/drop
	Added    bool   // added by an explosion
	Exploded bool   // this die triggered an explosion
	Rerolled []Face // earlier results replaced by rerolls
	Success  bool
	Failure  bool
	Critical int // +1 a critical success, -1 a critical failure (shown only: cs, cf)
}

// TermRoll is what one dice term or group gave.
type TermRoll struct {
	Text  string
	Dice  []DieRoll
	Total int
	// Counting: the term counts successes instead of summing.
	Counting bool
}

// Result is a whole expression rolled once, keeping every die.
type Result struct {
	Expr  string
	Total int
	// IsBool: the expression is a comparison; Bool is its outcome.
	IsBool bool
	Bool   bool
	Terms  []TermRoll
	// Record and Fields are a roll of record dice's counts, one per field (Total is 0).
	Record []int
	Fields []string
	// root is the expression rolled, and cmp the two sides of its comparison: String shows
	// the whole expression, constants and operators included.
	root Node
	cmp  [2]int
}

// Faces returns the values of the dice that count (not dropped), in rolling order.
func (r *Result) Faces() []int {
	var out []int
	for _, t := range r.Terms {
		for _, d := range t.Dice {
			if !d.Dropped {
				out = append(out, d.Value)
			}
		}
	}
	return out
}

// String shows a roll as a GM reads it: the whole expression with each dice term's dice
// (dropped ones in parentheses, explosions marked with !), then the total:
// `2d6 [4, 1] + 3 = 8`, `3d6 [4, 1, 5] = 10 >= 12 → false`.
func (r *Result) String() string {
	b, _ := r.AppendText(nil)
	return string(b)
}

// AppendText appends the text String gives to b (encoding.TextAppender): printing a million
// rolls into one buffer allocates nothing per roll. The error is always nil.
func (r *Result) AppendText(b []byte) ([]byte, error) {
	if r.Fields != nil {
		return r.appendRecord(b), nil
	}
	if len(r.Terms) == 0 {
		if r.IsBool {
			return strconv.AppendBool(b, r.Bool), nil
		}
		return strconv.AppendInt(b, int64(r.Total), 10), nil
	}
	terms := r.Terms
	if r.root == nil {
		// A result built by hand: its terms side by side.
		for i := range terms {
			if i > 0 {
				b = append(b, ' ')
			}
			b = appendTerm(b, &terms[i])
		}
	} else if c, ok := r.root.(*Cmp); ok {
		b = appendNode(b, c.L, &terms, 0)
		if _, num := c.L.(*Num); !num {
			b = append(b, " = "...)
			b = strconv.AppendInt(b, int64(r.cmp[0]), 10)
		}
		b = append(b, ' ')
		b = append(b, c.Op...)
		b = append(b, ' ')
		b = appendNode(b, c.R, &terms, 0)
		if _, num := c.R.(*Num); !num {
			b = append(b, " = "...)
			b = strconv.AppendInt(b, int64(r.cmp[1]), 10)
		}
		return strconv.AppendBool(append(b, " → "...), r.Bool), nil
	} else {
		b = appendNode(b, r.root, &terms, 0)
	}
	if r.IsBool {
		return strconv.AppendBool(append(b, " → "...), r.Bool), nil
	}
	if d, ok := r.root.(*Dice); ok && d.Die.Symbolic && len(r.Terms) == 1 && !r.Terms[0].Counting {
		return b, nil // one symbolic die: its face is the outcome, it has no number
	}
	return strconv.AppendInt(append(b, " = "...), int64(r.Total), 10), nil
}

// appendTerm shows one dice term: its text and its dice.
func appendTerm(b []byte, t *TermRoll) []byte {
	b = append(b, t.Text...)
	b = append(b, " ["...)
	for j := range t.Dice {
		if j > 0 {
			b = append(b, ", "...)
		}
		b = t.Dice[j].appendText(b)
	}
	return append(b, ']')
}

// precedence of a node for printing: comparisons bind loosest, then + -, then * /.
func precedence(n Node) int {
	switch n := n.(type) {
	case *Cmp:
		return 1
	case *Bin:
		if n.Op == '+' || n.Op == '-' {
			return 2
		}
		if n.Op == '^' {
			return 5
		}
		return 3
	case *Neg:
		return 4
	}
	return 6
}

// appendNode prints n, taking the recorded dice terms in rolling order (left to right), with
// parentheses where precedence needs them.
func appendNode(b []byte, n Node, terms *[]TermRoll, outer int) []byte {
	p := precedence(n)
	if p < outer {
		b = append(b, '(')
	}
	switch n := n.(type) {
	case *Num:
		b = strconv.AppendInt(b, int64(n.V), 10)
	case *Dec:
		b = append(b, n.Text...)
	case *Dice, *Pool:
		if len(*terms) == 0 {
			b = append(b, n.String()...)
			break
		}
		b = appendTerm(b, &(*terms)[0])
		*terms = (*terms)[1:]
	case *Group:
		b = append(b, '{')
		for i, it := range n.Items {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendNode(b, it, terms, 0)
		}
		b = append(b, '}')
		b = append(b, n.Mods.String()...)
	case *Bin:
		b = appendNode(b, n.L, terms, p)
		b = append(b, ' ', n.Op, ' ')
		// The right side of - and / needs parentheses at equal precedence: 1 - (2 - 3).
		b = appendNode(b, n.R, terms, p+1)
	case *Neg:
		b = append(b, '-')
		b = appendNode(b, n.X, terms, p)
	case *Call:
		b = append(b, n.Name...)
		b = append(b, '(')
		for i, a := range n.Args {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendNode(b, a, terms, 0)
		}
		b = append(b, ')')
	case *Cmp:
		b = appendNode(b, n.L, terms, p+1)
		b = append(b, ' ')
		b = append(b, n.Op...)
		b = append(b, ' ')
		b = appendNode(b, n.R, terms, p+1)
	}
	if p < outer {
		b = append(b, ')')
	}
	return b
}

func (d DieRoll) String() string { return string(d.appendText(nil)) }

// appendText appends how one die reads: `(2)` dropped, `+6!` added by an explosion and
// exploding again, `1↻4` rerolled from 1, `7→6` clamped, `8✓` a success.
func (d DieRoll) appendText(b []byte) []byte {
	if d.Dropped {
		b = append(b, '(')
	}
	if d.Added {
		b = append(b, '+')
	}
	for _, f := range d.Rerolled {
		b = append(b, f.String()...) // a symbolic face by its name
		b = append(b, "↻"...)
	}
	switch {
	case d.Face.Sym != "":
		b = append(b, d.Face.Sym...)
	case d.Face.Rec != "":
		b = append(b, d.Face.Rec...)
	case d.Value != d.Face.Value:
		b = strconv.AppendInt(b, int64(d.Face.Value), 10)
		b = append(b, "→"...)
		b = strconv.AppendInt(b, int64(d.Value), 10)
	default:
		b = strconv.AppendInt(b, int64(d.Face.Value), 10)
	}
	if d.Exploded {
		b = append(b, '!')
	}
	if d.Success {
		b = append(b, "✓"...)
	}
	if d.Failure {
		b = append(b, "✗"...)
	}
	switch d.Critical {
	case 1:
		b = append(b, "↑"...)
	case -1:
		b = append(b, "↓"...)
	}
	if d.Dropped {
		b = append(b, ')')
	}
	return b
}

// Roller rolls a parsed expression many times with little allocation. It is not safe for
// concurrent use; make one per goroutine (they may share the Expr).
type Roller struct {
	e   *Expr
	src Source
	pcg *PCG
	buf []int
	// faces is the scratch list of one term's faces, kept from roll to roll like buf.
	faces []Face
	rec   *Result
}

// NewRoller prepares to roll e from src.
func NewRoller(e *Expr, src Source) *Roller {
	r := &Roller{e: e, src: src}
	r.pcg, _ = src.(*PCG)
	return r
}

// Total rolls once and returns the value (a comparison gives 1 for true, 0 for false),
// without recording the dice: the fast path for statistics.
func (r *Roller) Total() (int, error) {
	if r.e.rec != nil {
		return 0, fmt.Errorf("%s: a roll of record dice has no total (read its fields)", r.e.Src)
	}
	r.rec = nil
	v, err := r.eval(r.e.Root)
	return v, err
}

// Roll rolls once, recording every die.
func (r *Roller) Roll() (*Result, error) {
	res := &Result{}
	if err := r.RollInto(res); err != nil {
		return nil, err
	}
	return res, nil
}

// RollInto rolls once, recording every die into res, whose earlier contents it replaces and
// whose storage it reuses: rolling a million times into one Result allocates nothing per roll
// once it has grown. A Result rolled into must not be kept as an earlier roll's record.
func (r *Roller) RollInto(res *Result) error {
	if r.e.rec != nil {
		_, rec, err := r.e.RollRecord(r.src)
		if err != nil {
			return err
		}
		*res = *rec
		return nil
	}
	terms := res.Terms[:0]
	*res = Result{Expr: r.e.Src, root: r.e.Root, Terms: terms}
	r.rec = res
	v, err := r.eval(r.e.Root)
	r.rec = nil
	if err != nil {
		return err
	}
	res.Total = v
	if _, ok := r.e.Root.(*Cmp); ok {
		res.IsBool, res.Bool = true, v == 1
	}
	return nil
}

// Roll is a convenience: parse-free rolling of an expression once from src.
func (e *Expr) Roll(src Source) (*Result, error) { return NewRoller(e, src).Roll() }

// ErrDivZero is returned when a rolled divisor is zero.
var ErrDivZero = errors.New("division by zero")

// eval2 rolls both operands of a binary node, left first.
func (r *Roller) eval2(l, rn Node) (int, int, error) {
	a, err := r.eval(l)
	if err != nil {
		return 0, 0, err
	}
	b, err := r.eval(rn)
	return a, b, err
}

func (r *Roller) eval(n Node) (int, error) {
	switch n := n.(type) {
	case *Num:
		return n.V, nil
	case *Neg:
		v, err := r.eval(n.X)
		return -v, err
	case *Bin:
		a, b, err := r.eval2(n.L, n.R)
		if err != nil {
			return 0, err
		}
		v, err := arith(n.Op, a, b)
		if err != nil {
			return 0, &Error{n.At + 1, err.Error()}
		}
		return v, nil
	case *Cmp:
		a, b, err := r.eval2(n.L, n.R)
		if err != nil {
			return 0, err
		}
		if r.rec != nil {
			r.rec.cmp = [2]int{a, b}
		}
		if compare(n.Op, a, b) {
			return 1, nil
		}
		return 0, nil
	case *Dice:
		return r.dice(n)
	case *Group:
		return r.group(n)
	case *Pool:
		return r.pool(n)
	case *Call:
		return r.call(n)
	}
	return 0, fmt.Errorf("unknown node %T", n)
}

// call evaluates a function of the notation (see Call).
func (r *Roller) call(n *Call) (int, error) {
	if rounding(n.Name) {
		if a, ok := n.Args[0].(*Call); ok && a.Name == "sqrt" {
			x, err := r.eval(a.Args[0])
			if err != nil {
				return 0, err
			}
			return sqrtRound(n.Name, x)
		}
		x, err := r.evalRat(n.Args[0])
		if err != nil {
			return 0, err
		}
		v, err := roundRat(n.Name, x)
		if err != nil {
			return 0, &Error{n.At + 1, err.Error()}
		}
		return v, nil
	}
	v, err := r.eval(n.Args[0])
	if err != nil {
		return 0, err
	}
	for _, a := range n.Args[1:] {
		w, err := r.eval(a)
		if err != nil {
			return 0, err
		}
		v = apply1(n.Name, v, w)
	}
	if n.Name == "abs" && v < 0 {
		v = -v
	}
	return v, nil
}

// apply1 folds one more argument of min or max.
func apply1(name string, v, w int) int {
	if name == "min" {
		return min(v, w)
	}
	return max(v, w)
}

func rounding(name string) bool { return name == "floor" || name == "ceil" || name == "round" }

// evalRat evaluates the argument of a rounding function exactly: + - * / ^ on fractions,
// decimals; anything else is a whole number.
func (r *Roller) evalRat(n Node) (*big.Rat, error) {
	switch n := n.(type) {
	case *Dec:
		return n.R, nil
	case *Dice:
		if n.Mods.fracClamp() {
			return r.fracDice(n)
		}
	case *Neg:
		x, err := r.evalRat(n.X)
		if err != nil {
			return nil, err
		}
		return new(big.Rat).Neg(x), nil
	case *Bin:
		if n.Op == '^' {
			x, err := r.evalRat(n.L)
			if err != nil {
				return nil, err
			}
			e, err := r.eval(n.R)
			if err != nil {
				return nil, err
			}
			v, err := ratPow(x, e)
			if err != nil {
				return nil, &Error{n.At + 1, err.Error()}
			}
			return v, nil
		}
		if n.Op != '%' {
			x, err := r.evalRat(n.L)
			if err != nil {
				return nil, err
			}
			y, err := r.evalRat(n.R)
			if err != nil {
				return nil, err
			}
			v, err := ratArith(n.Op, x, y)
			if err != nil {
				return nil, &Error{n.At + 1, err.Error()}
			}
			return v, nil
		}
	}
	v, err := r.eval(n)
	if err != nil {
		return nil, err
	}
	return new(big.Rat).SetInt64(int64(v)), nil
}

// ratArith applies + - * / to fractions.
func ratArith(op byte, x, y *big.Rat) (*big.Rat, error) {
	switch op {
	case '+':
		return new(big.Rat).Add(x, y), nil
	case '-':
		return new(big.Rat).Sub(x, y), nil
	case '*':
		return new(big.Rat).Mul(x, y), nil
	}
	if y.Sign() == 0 {
		return nil, ErrDivZero
	}
	return new(big.Rat).Quo(x, y), nil
}

// ratPow is x^e for a whole e >= 0, refusing results beyond 2^53 (or as fine).
func ratPow(x *big.Rat, e int) (*big.Rat, error) {
	if e < 0 {
		return nil, fmt.Errorf("%s^%d: a negative power", x.RatString(), e)
	}
	num := new(big.Int).Abs(x.Num())
	if num.Cmp(x.Denom()) != 0 && num.Sign() != 0 && e > 64 {
		return nil, ErrTooLarge
	}
	n := new(big.Int).Exp(x.Num(), big.NewInt(int64(e)), nil)
	d := new(big.Int).Exp(x.Denom(), big.NewInt(int64(e)), nil)
	if n.BitLen() > 53+64 || d.BitLen() > 53+64 {
		return nil, ErrTooLarge
	}
	return new(big.Rat).SetFrac(n, d), nil
}

// roundRat rounds a fraction as named: floor, ceil, or round (halves away from zero).
func roundRat(name string, x *big.Rat) (int, error) {
	den := x.Denom()
	q, m := new(big.Int).DivMod(x.Num(), den, new(big.Int)) // 0 <= m < den: q is the floor
	switch name {
	case "ceil":
		if m.Sign() != 0 {
			q.Add(q, big.NewInt(1))
		}
	case "round":
		c := new(big.Int).Lsh(m, 1).Cmp(den)
		if c > 0 || c == 0 && q.Sign() >= 0 {
			q.Add(q, big.NewInt(1))
		}
	}
	if q.BitLen() > 53 {
		return 0, ErrTooLarge
	}
	return int(q.Int64()), nil
}

// sqrtRound is the square root of x rounded as named, computed on whole numbers.
func sqrtRound(name string, x int) (int, error) {
	if x < 0 {
		return 0, fmt.Errorf("sqrt(%d): the square root of a negative number", x)
	}
	s := int(math.Sqrt(float64(x)))
	for s*s > x {
		s--
	}
	for (s+1)*(s+1) <= x {
		s++
	}
	switch {
	case s*s == x:
	case name == "ceil":
		s++
	case name == "round":
		// s+½ rounds up when x >= (s+½)² = s²+s+¼, that is x > s²+s for whole x.
		if x > s*s+s {
			s++
		}
	}
	return s, nil
}

// ErrTooLarge is returned when a power leaves the whole numbers the notation computes with.
var ErrTooLarge = errors.New("a value beyond 2^53")

// power is a^b for b >= 0, refusing results beyond 2^53.
func power(a, b int) (int, error) {
	if b < 0 {
		return 0, fmt.Errorf("%d^%d: a negative power gives a fraction", a, b)
	}
	const limit = 1 << 53
	v := 1
	for k := 0; k < b; k++ {
		if a == 0 || a == 1 || v == 0 {
			if a == 0 {
				return 0, nil
			}
			return v, nil
		}
		if a == -1 {
			if b%2 == 0 {
				return 1, nil
			}
			return -1, nil
		}
		v *= a
		if v > limit || v < -limit {
			return 0, ErrTooLarge
		}
	}
	return v, nil
}

// arith applies an operator of the notation to whole numbers, refusing a sum, difference or
// product beyond 2^53 (as a power is) rather than let it wrap around.
func arith(op byte, a, b int) (int, error) {
	const limit = 1 << 53
	switch op {
	case '+', '-', '*':
		var v int
		wrapped := false
		switch op {
		case '+':
			v = a + b
			wrapped = (a > 0 && b > 0 && v < 0) || (a < 0 && b < 0 && v >= 0)
		case '-':
			v = a - b
			wrapped = (a >= 0 && b < 0 && v < 0) || (a < 0 && b > 0 && v >= 0)
		default:
			v = a * b
			wrapped = a != 0 && (v/a != b || a == -1 && b == math.MinInt)
		}
		if wrapped || v > limit || v < -limit {
			return 0, ErrTooLarge
		}
		return v, nil
	case '/':
		if b == 0 {
			return 0, ErrDivZero
		}
		q := a / b
		if (a%b != 0) && ((a < 0) != (b < 0)) {
			q--
		}
		return q, nil
	case '%':
		if b == 0 {
			return 0, ErrDivZero
		}
		return a % b, nil // the sign of a, as the online rollers (JavaScript) give it
	case '^':
		return power(a, b)
	}
	return 0, fmt.Errorf("unknown operator %c", op)
}

func compare(op string, a, b int) bool {
	switch op {
	case "==":
		return a == b
	case "!=":
		return a != b
	case "<":
		return a < b
	case "<=":
		return a <= b
	case ">":
		return a > b
	case ">=":
		return a >= b
	}
	return false
}

// face rolls one face index; the PCG path avoids the interface call.
func (r *Roller) face(d *Die) (int, error) {
	if r.pcg != nil {
		return 1 + r.pcg.rr.IntN(len(d.Faces)), nil
	}
	return RollFace(r.src, d)
}

// one rolls a single die with rerolls applied, returning its face.
func (r *Roller) one(n *Dice, dr *DieRoll) (Face, error) {
	d := n.Die
	i, err := r.face(d)
	if err != nil {
		return Face{}, err
	}
	f := d.Faces[i-1]
	m := &n.Mods
	if m.Reroll.Op != "" {
		for k := 0; m.Reroll.Match(f); k++ {
			if k == MaxRerolls {
				return Face{}, fmt.Errorf("%s rerolled more than %d times", n.Text, MaxRerolls)
			}
			if dr != nil {
				dr.Rerolled = append(dr.Rerolled, f)
			}
			if i, err = r.face(d); err != nil {
				return Face{}, err
			}
			f = d.Faces[i-1]
			if m.RerollOnce {
				break
			}
		}
	}
	return f, nil
}

// fracDice rolls a term clamped to a decimal: each die below MinFrac (above MaxFrac) reads
// it, and the total is their exact sum. The dice are recorded by their faces.
func (r *Roller) fracDice(n *Dice) (*big.Rat, error) {
	var rec *TermRoll
	if r.rec != nil {
		r.rec.Terms = append(r.rec.Terms, TermRoll{Text: n.Text})
		rec = &r.rec.Terms[len(r.rec.Terms)-1]
	}
	sum := new(big.Rat)
	for k := 0; k < n.Count; k++ {
		i, err := r.face(n.Die)
		if err != nil {
			return nil, err
		}
		v := n.Die.Faces[i-1].Value
		sum.Add(sum, fracClamped(&n.Mods, v))
		if rec != nil {
			rec.Dice = append(rec.Dice, DieRoll{Face: Face{Value: v}, Value: v})
		}
	}
	if rec != nil {
		f, _ := sum.Float64()
		rec.Total = int(math.Floor(f))
	}
	return sum, nil
}

// fracClamped is a face's value under a decimal clamp.
func fracClamped(m *Mods, v int) *big.Rat {
	x := new(big.Rat).SetInt64(int64(v))
	if m.MinFrac != nil && x.Cmp(m.MinFrac) < 0 {
		x.Set(m.MinFrac)
	}
	if m.MaxFrac != nil && x.Cmp(m.MaxFrac) > 0 {
		x.Set(m.MaxFrac)
	}
	return x
}

// orderedDie rolls one die of a term that combines two of min/max, explosion and reroll, in
// the order of rpg-dice-roller: the first die's value is clamped, explosions (decided on the
// clamped value, then on each new face) add unclamped dice, then each die of the chain (a
// compound chain as one total) is rerolled while its value matches, the new result neither
// clamped nor exploding. It appends the dice's values to vals (and faces to faces, with
// keepFaces).
func (r *Roller) orderedDie(n *Dice, rec *TermRoll, vals []int, faces []Face, keepFaces bool) ([]int, []Face, error) {
	m := &n.Mods
	type elem struct {
		f        Face
		v        int
		exploded bool
		rerolled []Face
	}
	raw := func() (Face, error) {
		i, err := r.face(n.Die)
		if err != nil {
			return Face{}, err
		}
		return n.Die.Faces[i-1], nil
	}
	f, err := raw()
	if err != nil {
		return nil, nil, err
	}
	chain := []elem{{f: f, v: clamp(m, f.Value)}}
	if m.Explode != ExplodeNone && m.ExplodeOn.Match(Face{Value: chain[0].v, Sym: f.Sym}) {
		limit := m.ExplodeMax
		if limit == 0 {
			limit = MaxExplode
		}
		for e := 0; e < limit; e++ {
			chain[len(chain)-1].exploded = true
			nf, err := raw()
			if err != nil {
				return nil, nil, err
			}
			nv := nf.Value
			if m.Explode == ExplodePenetrate || m.Explode == ExplodeCompoundPenetrate {
				nv--
			}
			chain = append(chain, elem{f: nf, v: nv})
			if !m.ExplodeOn.Match(nf) {
				break
			}
		}
	}
	if len(chain) > 1 && (m.Explode == ExplodeCompound || m.Explode == ExplodeCompoundPenetrate) {
		total := 0
		for _, e := range chain {
			total += e.v
		}
		chain = []elem{{f: Face{Value: total}, v: total, exploded: true}}
	}
	for i := range chain {
		e := &chain[i]
		for k := 0; m.Reroll.Op != "" && m.Reroll.Match(Face{Value: e.v, Sym: e.f.Sym}); k++ {
			if k == MaxRerolls {
				return nil, nil, fmt.Errorf("%s rerolled more than %d times", n.Text, MaxRerolls)
			}
			e.rerolled = append(e.rerolled, Face{Value: e.v, Sym: e.f.Sym})
			nf, err := raw()
			if err != nil {
				return nil, nil, err
			}
			e.f, e.v = nf, nf.Value
			if m.RerollOnce {
				break
			}
		}
		vals = append(vals, e.v)
		if keepFaces {
			faces = append(faces, e.f)
		}
		if rec != nil {
			rec.Dice = append(rec.Dice, DieRoll{Face: e.f, Value: e.v, Added: i > 0, Exploded: e.exploded, Rerolled: e.rerolled})
		}
	}
	return vals, faces, nil
}

// ordered reports a term combining two of min/max, explosion and reroll: it rolls and is
// computed in rpg-dice-roller's order (orderedDie), the others as they always were.
func (m *Mods) ordered() bool {
	k := 0
	if m.Min != nil || m.Max != nil {
		k++
	}
	if m.Explode != ExplodeNone {
		k++
	}
	if m.Reroll.Op != "" {
		k++
	}
	return k >= 2
}

func clamp(m *Mods, v int) int {
	if m.Min != nil && v < *m.Min {
		v = *m.Min
	}
	if m.Max != nil && v > *m.Max {
		v = *m.Max
	}
	return v
}

// dice rolls a term: each die (rerolls, explosions, clamps, uniqueness), then keep/drop,
// then success counting or the sum.
func (r *Roller) dice(n *Dice) (int, error) {
	m := &n.Mods
	if r.rec == nil && r.pcg != nil && n.plain() {
		return r.plainDice(n), nil
	}
	if r.rec != nil && r.pcg != nil && n.plain() && m.Explode == ExplodeNone && m.Keep == KeepAll && !m.display() {
		return r.plainRecorded(n), nil
	}
	vals := r.buf[:0]
	var rec *TermRoll
	if r.rec != nil {
		// A Result rolled into again keeps the dice slices of its terms.
		var ds []DieRoll
		if k := len(r.rec.Terms); k < cap(r.rec.Terms) {
			ds = r.rec.Terms[:k+1][k].Dice[:0]
		}
		if cap(ds) < n.Count {
			ds = make([]DieRoll, 0, n.Count)
		}
		r.rec.Terms = append(r.rec.Terms, TermRoll{Text: n.Text, Counting: m.Success.Op != "" || m.Failure.Op != "", Dice: ds})
		rec = &r.rec.Terms[len(r.rec.Terms)-1]
	}
	var faces []Face // only when needed: success counting on symbols, unique, recording
	needFaces := rec != nil || n.Die.Symbolic || m.Unique
	if needFaces {
		faces = r.faces[:0]
	}
	for k := 0; k < n.Count; k++ {
		if m.ordered() {
			var err error
			if vals, faces, err = r.orderedDie(n, rec, vals, faces, needFaces); err != nil {
				return 0, err
			}
			continue
		}
		var dr *DieRoll
		if rec != nil {
			rec.Dice = append(rec.Dice, DieRoll{})
			dr = &rec.Dice[len(rec.Dice)-1]
		}
		f, err := r.one(n, dr)
		if err != nil {
			return 0, err
		}
		if m.Unique {
			for tries := 0; containsFace(faces, f) && (m.UniqueOn.Op == "" || m.UniqueOn.Match(f)) && !facesExhausted(n, faces); tries++ {
				if m.UniqueOnce && tries == 1 {
					break
				}
				if tries == MaxRerolls {
					return 0, fmt.Errorf("%s: could not find a unique result", n.Text)
				}
				if dr != nil {
					dr.Rerolled = append(dr.Rerolled, f)
				}
				if f, err = r.one(n, nil); err != nil {
					return 0, err
				}
			}
		}
		v := f.Value
		if m.Explode != ExplodeNone && m.ExplodeOn.Match(f) {
			limit := m.ExplodeMax
			if limit == 0 {
				limit = MaxExplode
			}
			if dr != nil {
				dr.Exploded = true
			}
			cur := f
			for e := 0; e < limit && m.ExplodeOn.Match(cur); e++ {
				nf, err := r.one(n, nil)
				if err != nil {
					return 0, err
				}
				nv := nf.Value
				if m.Explode == ExplodePenetrate || m.Explode == ExplodeCompoundPenetrate {
					nv--
				}
				more := m.ExplodeOn.Match(nf) && e+1 < limit
				if m.Explode == ExplodeCompound || m.Explode == ExplodeCompoundPenetrate {
					v += nv
				} else {
					vals = append(vals, clamp(m, v))
					if needFaces {
						faces = append(faces, f)
					}
					if rec != nil {
						dr.Value = clamp(m, v)
						dr.Face = f
						rec.Dice = append(rec.Dice, DieRoll{Added: true, Exploded: more})
						dr = &rec.Dice[len(rec.Dice)-1]
					}
					f, v = nf, nv
				}
				cur = nf
			}
		}
		v = clamp(m, v)
		vals = append(vals, v)
		if needFaces {
			faces = append(faces, f)
		}
		if dr != nil {
			dr.Face, dr.Value = f, v
		}
	}
	r.buf = vals
	if needFaces {
		r.faces = faces
	}
	counting := m.Success.Op != "" || m.Failure.Op != ""
	if rec == nil && !counting && m.Keep != KeepAll && len(m.More) == 0 && !n.Die.Symbolic {
		return r.keptSum(vals, m), nil
	}
	kept := keepMask(vals, m)
	total := 0
	for k, v := range vals {
		if kept != nil && !kept[k] {
			if rec != nil {
				rec.Dice[k].Dropped = true
			}
			continue
		}
		if !counting {
			total += v
			continue
		}
		f := Face{Value: v}
		if faces != nil {
			f = faces[k]
			f.Value = v
		}
		if m.Success.Op != "" && m.Success.Match(f) {
			total++
			if rec != nil {
				rec.Dice[k].Success = true
			}
		} else if m.Failure.Op != "" && m.Failure.Match(f) {
			total--
			if rec != nil {
				rec.Dice[k].Failure = true
			}
		}
	}
	if n.Die.Symbolic && !counting {
		if n.Count == 1 && m.Explode == ExplodeNone && rec != nil {
			rec.Total = total
		}
		if n.Count != 1 && r.rec == nil {
			return 0, fmt.Errorf("%s: several symbolic dice have no total; count a face, e.g. %d%s=%s", n.Text, n.Count, diceName(n.Die), n.Die.Faces[0].Sym)
		}
	}
	if rec != nil {
		rec.Total = total
		if m.display() {
			showDisplay(rec, m)
		}
	}
	return total, nil
}

// plainRecorded is plainDice for a term without keep/drop or explosion, recording its dice:
// what `rulesh roll -n 1000000 3d6` spends its time on. It draws what the general path draws.
func (r *Roller) plainRecorded(n *Dice) int {
	rng := &r.pcg.rr
	sides := len(n.Die.Faces)
	var ds []DieRoll
	if k := len(r.rec.Terms); k < cap(r.rec.Terms) {
		ds = r.rec.Terms[:k+1][k].Dice[:0]
	}
	t := 0
	for k := 0; k < n.Count; k++ {
		v := 1 + rng.IntN(sides)
		ds = append(ds, DieRoll{Face: Face{Value: v}, Value: v})
		t += v
	}
	r.rec.Terms = append(r.rec.Terms, TermRoll{Text: n.Text, Dice: ds, Total: t})
	return t
}

// plainDice is the hot path for standard dice with at most keep/drop, rolled from the
// seeded source without recording: what `roll -n 1000000 --stats 4d6kh3` spends its time on.
func (r *Roller) plainDice(n *Dice) int {
	rng := &r.pcg.rr
	sides := len(n.Die.Faces)
	if m := &n.Mods; m.Explode != ExplodeNone {
		limit := m.ExplodeMax
		if limit == 0 {
			limit = MaxExplode
		}
		pen := 0
		if m.Explode == ExplodePenetrate || m.Explode == ExplodeCompoundPenetrate {
			pen = 1
		}
		t := 0
		for k := 0; k < n.Count; k++ {
			v := 1 + rng.IntN(sides)
			t += v
			for e := 0; e < limit && v >= n.exLo && v <= n.exHi; e++ {
				v = 1 + rng.IntN(sides)
				t += v - pen
			}
		}
		return t
	}
	if n.Mods.Keep == KeepAll {
		t := 0
		for k := 0; k < n.Count; k++ {
			t += 1 + rng.IntN(sides)
		}
		return t
	}
	vals := r.buf[:0]
	for k := 0; k < n.Count; k++ {
		vals = append(vals, 1+rng.IntN(sides))
	}
	r.buf = vals
	return r.keptSum(vals, &n.Mods)
}

// keptSum sums the kept values without allocating. Keeping all but one, or only one, needs
// a single pass; otherwise the scratch values are insertion-sorted in place (a handful of
// dice). vals may be reordered.
func (r *Roller) keptSum(vals []int, m *Mods) int {
	n := len(vals)
	k, high := m.KeepN, true
	switch m.Keep {
	case KeepLow:
		high = false
	case DropHigh:
		k, high = n-m.KeepN, false
	case DropLow:
		k = n - m.KeepN
	}
	if k <= 0 {
		return 0
	}
	if k >= n {
		k = n
	}
	sum, lo, hi := 0, vals[0], vals[0]
	for _, v := range vals {
		sum += v
		lo, hi = min(lo, v), max(hi, v)
	}
	switch {
	case k == n:
		return sum
	case k == n-1 && high:
		return sum - lo
	case k == n-1:
		return sum - hi
	case k == 1 && high:
		return hi
	case k == 1:
		return lo
	}
	for i := 1; i < n; i++ {
		for j := i; j > 0 && (vals[j] > vals[j-1]) == high && vals[j] != vals[j-1]; j-- {
			vals[j], vals[j-1] = vals[j-1], vals[j]
		}
	}
	t := 0
	for _, v := range vals[:k] {
		t += v
	}
	return t
}

// facesExhausted reports that no reroll could end a repeat: every face of the die is one
// unique rerolls (matching its condition) and is among fs. The repeat is then kept as
// rolled, as rpg-dice-roller keeps it once its rerolls run out (5d4u makes four dice unique
// and rolls the fifth freely).
func facesExhausted(n *Dice, fs []Face) bool {
	m := &n.Mods
	for _, f := range n.Die.Faces {
		if m.UniqueOn.Op != "" && !m.UniqueOn.Match(f) || !containsFace(fs, f) {
			return false
		}
	}
	return true
}

func containsFace(fs []Face, f Face) bool {
	for _, g := range fs {
		if g == f {
			return true
		}
	}
	return false
}

// keepMask returns which values keep/drop keeps (nil: all). Ties keep the earlier die.
func keepMask(vals []int, m *Mods) []bool {
	if m.Keep == KeepAll {
		return nil
	}
	if len(m.More) > 0 {
		return windowMask(vals, m)
	}
	n := len(vals)
	k := m.KeepN
	high := m.Keep == KeepHigh || m.Keep == DropLow
	switch m.Keep {
	case DropHigh, DropLow:
		k = n - k
	}
	if k < 0 {
		k = 0
	}
	if k > n {
		k = n
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		if high {
			return vals[idx[a]] > vals[idx[b]]
		}
		return vals[idx[a]] < vals[idx[b]]
	})
	mask := make([]bool, n)
	for _, i := range idx[:k] {
		mask[i] = true
	}
	return mask
}

func (r *Roller) group(g *Group) (int, error) {
	vals := make([]int, len(g.Items))
	for i, it := range g.Items {
		v, err := r.eval(it)
		if err != nil {
			return 0, err
		}
		vals[i] = v
	}
	kept := keepMask(vals, &g.Mods)
	total := 0
	counting := g.Mods.Success.Op != "" || g.Mods.Failure.Op != ""
	for i, v := range vals {
		if kept != nil && !kept[i] {
			continue
		}
		switch {
		case !counting:
			total += v
		case g.Mods.Success.Op != "" && g.Mods.Success.Match(Face{Value: v}):
			total++
		case g.Mods.Failure.Op != "" && g.Mods.Failure.Match(Face{Value: v}):
			total--
		}
	}
	return total, nil
}

// showDisplay marks critical dice and sorts the dice shown (cs, cf, s): the total is kept.
func showDisplay(rec *TermRoll, m *Mods) {
	for k := range rec.Dice {
		d := &rec.Dice[k]
		f := d.Face
		f.Value = d.Value
		switch {
		case m.CritSuccess.Op != "" && m.CritSuccess.Match(f):
			d.Critical = 1
		case m.CritFailure.Op != "" && m.CritFailure.Match(f):
			d.Critical = -1
		}
	}
	if m.Sort != 0 {
		sort.SliceStable(rec.Dice, func(i, j int) bool {
			if m.Sort == 'd' {
				return rec.Dice[i].Value > rec.Dice[j].Value
			}
			return rec.Dice[i].Value < rec.Dice[j].Value
		})
	}
}

// windowMask applies several keep/drop steps in the order written, each to the dice the
// steps before kept: what remains is a run of the dice sorted by value.
func windowMask(vals []int, m *Mods) []bool {
	n := len(vals)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return vals[idx[a]] < vals[idx[b]] })
	lo, hi := 0, n // kept: idx[lo:hi], lowest first
	step := func(kind, k int) {
		switch kind {
		case KeepHigh:
			lo = max(lo, hi-k)
		case KeepLow:
			hi = min(hi, lo+k)
		case DropHigh:
			hi = max(lo, hi-k)
		case DropLow:
			lo = min(hi, lo+k)
		}
	}
	step(m.Keep, m.KeepN)
	for _, st := range m.More {
		step(st.Kind, st.N)
	}
	mask := make([]bool, n)
	for _, i := range idx[lo:hi] {
		mask[i] = true
	}
	return mask
}
