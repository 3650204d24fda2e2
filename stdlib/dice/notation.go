package dice

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Limits of the notation: they keep hostile input from hanging or exhausting memory.
const (
	MaxCount     = 10_000    // dice in one term
	MaxSides     = 1_000_000 // sides of one die
	MaxNesting   = 100       // parentheses and groups
	MaxExplode   = 1000      // extra dice one die may add when rolled
	MaxRerolls   = 1_000     // rerolls of one die
	MaxTextBytes = 100_000   // length of one expression
)

// Face is one face of a die: a number, and for symbolic dice a name; for a record die, Rec
// is the face's text (`{s: 1, a: 1}`, its counts being the die's Counts) and Value its place.
type Face struct {
	Value int
	Sym   string
	Rec   string
}

func (f Face) String() string {
	if f.Sym != "" {
		return f.Sym
	}
	if f.Rec != "" {
		return f.Rec
	}
	return strconv.Itoa(f.Value)
}

// Die is the kind of die a term rolls: its faces in order.
type Die struct {
	Name  string // "d6", "dF", or a declared name
	Faces []Face
	// Standard dice have faces 1..N: the face index is the value.
	Standard bool
	Symbolic bool
	// Record dice (NewRecordDie) have faces that are records of counts: Fields names them
	// in order of first use, Counts[i][j] is face i's count of Fields[j] (0 when the face
	// does not name it).
	Record bool
	Fields []string
	Counts [][]int
}

// Sides returns the number of faces.
func (d *Die) Sides() int { return len(d.Faces) }

// StandardDie returns the die with faces 1..n.
func StandardDie(n int) *Die {
	faces := make([]Face, n)
	for i := range faces {
		faces[i].Value = i + 1
	}
	return &Die{Name: "d" + strconv.Itoa(n), Faces: faces, Standard: true}
}

// FudgeDie is dF (and dF.2): faces -1, 0, +1.
var FudgeDie = &Die{Name: "dF", Faces: []Face{{Value: -1}, {Value: 0}, {Value: 1}}}

// FudgeDie1 is dF.1, the variant with one -1, four 0 and one +1.
var FudgeDie1 = &Die{Name: "dF.1", Faces: []Face{{Value: -1}, {Value: 0}, {Value: 0}, {Value: 0}, {Value: 0}, {Value: 1}}}

// NewDie declares a named custom die; faces may be numbers or symbols (not both).
func NewDie(name string, faces []Face) (*Die, error) {
	if len(faces) < 1 {
		return nil, fmt.Errorf("die %s has no face", name)
	}
	if len(faces) > MaxSides {
		return nil, fmt.Errorf("die %s has more than %d faces", name, MaxSides)
	}
	d := &Die{Name: name, Faces: faces}
	// A symbolic face's value is its index among distinct symbols (for sorting), counted
	// once for the whole die (per face, it was quadratic in the faces).
	index := map[string]int{}
	for i, f := range faces {
		if f.Sym != "" {
			d.Symbolic = true
			if _, ok := index[f.Sym]; !ok {
				index[f.Sym] = len(index) + 1
			}
			d.Faces[i].Value = index[f.Sym]
		} else if d.Symbolic {
			return nil, fmt.Errorf("die %s mixes numbers and symbols", name)
		}
	}
	return d, nil
}

// Symbols lists a symbolic die's distinct symbols in the order of its faces.
func (d *Die) Symbols() []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range d.Faces {
		if f.Sym != "" && !seen[f.Sym] {
			seen[f.Sym] = true
			out = append(out, f.Sym)
		}
	}
	return out
}

// Cond is a comparison of one die's value with a number: `>=8`, `<3`, `=1`.
type Cond struct {
	Op  string // "=", "!=", "<", "<=", ">", ">="; "" means unset
	N   int
	Sym string // for symbolic dice: the face compared with "="
}

// Match reports whether a face satisfies the condition.
func (c Cond) Match(f Face) bool {
	if c.Sym != "" {
		return (f.Sym == c.Sym) == (c.Op != "!=")
	}
	v := f.Value
	switch c.Op {
	case "=":
		return v == c.N
	case "!=":
		return v != c.N
	case "<":
		return v < c.N
	case "<=":
		return v <= c.N
	case ">":
		return v > c.N
	case ">=":
		return v >= c.N
	}
	return false
}

func (c Cond) String() string {
	if c.Sym != "" {
		return c.Op + c.Sym
	}
	return c.Op + strconv.Itoa(c.N)
}

// Explode kinds.
const (
	ExplodeNone              = iota
	ExplodeAdd               // `!`: each explosion adds a die
	ExplodeCompound          // `!!`: explosions add to the same die
	ExplodePenetrate         // `!p`: each added die counts one less
	ExplodeCompoundPenetrate // `!!p`: compound, each added result counting one less
)

// Keep kinds.
const (
	KeepAll = iota
	KeepHigh
	KeepLow
	DropHigh
	DropLow
)

// Mods are the modifiers of a dice term, applied in this order whatever the order written:
// the change to each die, keep/drop, then success counting (or the sum). A term combining
// min/max, explosions and rerolls applies them in rpg-dice-roller's order: clamp the die,
// explode, then reroll each die of the chain (ordered). Unique stands alone on a term
// (checkMods): where it would come after the others the online rollers differ.
type Mods struct {
	Reroll     Cond
	RerollOnce bool
	Explode    int
	ExplodeOn  Cond // default: the highest face
	ExplodeMax int  // 0: MaxExplode
	Min, Max   *int // per-die clamps
	// A clamp that is not whole (min50.45): a die below (above) it reads that fraction, so the
	// term's total is a fraction, written inside floor, ceil or round. Min or Max is then nil.
	MinFrac, MaxFrac *big.Rat
	Unique           bool
	UniqueOn         Cond // only repeats of faces that match are rerolled; "" means any
	UniqueOnce       bool // a repeat is rerolled once, whatever it then shows
	Keep             int  // KeepAll, KeepHigh…
	KeepN            int
	// More are keep/drop steps written after the first (4d6dl1dh1), each applied to the
	// dice the steps before kept.
	More    []KeepStep
	Success Cond
	Failure Cond
	// Shown, not changing the total: dice marked as critical successes or failures (cs, cf),
	// and the dice sorted ('a' ascending, 'd' descending; s, sa, sd).
	CritSuccess Cond
	CritFailure Cond
	Sort        byte
	writtenKeep bool
}

// KeepStep is one keep/drop modifier: a kind (KeepHigh…) and how many dice.
type KeepStep struct {
	Kind, N int
}

// fracClamp reports a min or max that is not a whole number.
func (m *Mods) fracClamp() bool { return m.MinFrac != nil || m.MaxFrac != nil }

// display reports modifiers that change only how a roll is shown.
func (m *Mods) display() bool {
	return m.CritSuccess.Op != "" || m.CritFailure.Op != "" || m.Sort != 0
}

// Node is a node of a parsed dice expression.
type Node interface {
	pos() int
	String() string
}

// Num is a constant.
type Num struct {
	At int
	V  int
}

// Dice is a term such as 4d6kh3.
type Dice struct {
	At    int
	Count int
	Die   *Die
	Mods  Mods
	Text  string
	fast  bool
	// exLo..exHi: the values that explode, for the fast path.
	exLo, exHi int
}

// Group is `{a, b, …}` with keep/drop or success counting over its items' totals.
type Group struct {
	At    int
	Items []Node
	Mods  Mods
}

// Bin is arithmetic: + - * % ^ and /. A division is written only as the argument of floor,
// ceil or round (a Call), which says how its fraction becomes a whole number.
type Bin struct {
	At   int
	Op   byte
	L, R Node
}

// Neg is unary minus.
type Neg struct {
	At int
	X  Node
}

// Dec is a decimal number (1.5), exact; it stands only inside floor, ceil or round.
type Dec struct {
	At   int
	R    *big.Rat
	Text string
}

// Call is a function inside notation: floor, ceil and round (of a whole value, of a/b or of
// sqrt(x), rounded as named), abs, min and max.
type Call struct {
	At   int
	Name string
	Args []Node
}

// Cmp is a comparison of two expressions; its value is true or false.
type Cmp struct {
	At   int
	Op   string
	L, R Node
}

// plain reports a standard die with no modifier but keep/drop: the roller's fast path.
func (n *Dice) plain() bool { return n.fast }

func (n *Dice) computePlain() bool {
	m := &n.Mods
	if m.Explode != ExplodeNone {
		if m.Keep != KeepAll || m.ExplodeOn.Op == "!=" {
			return false
		}
		n.exLo, n.exHi = m.ExplodeOn.bounds()
	}
	return n.Die.Standard && m.Reroll.Op == "" && m.Min == nil && m.Max == nil && !m.fracClamp() && len(m.More) == 0 &&
		!m.Unique && m.Success.Op == "" && m.Failure.Op == ""
}

// bounds returns the values [lo, hi] a numeric condition accepts.
func (c Cond) bounds() (int, int) {
	const inf = 1 << 62
	switch c.Op {
	case "=":
		return c.N, c.N
	case "<":
		return -inf, c.N - 1
	case "<=":
		return -inf, c.N
	case ">":
		return c.N + 1, inf
	case ">=":
		return c.N, inf
	}
	return 1, 0
}

func (n *Num) pos() int   { return n.At }
func (n *Dice) pos() int  { return n.At }
func (n *Group) pos() int { return n.At }
func (n *Bin) pos() int   { return n.At }
func (n *Neg) pos() int   { return n.At }
func (n *Cmp) pos() int   { return n.At }
func (n *Call) pos() int  { return n.At }
func (n *Dec) pos() int   { return n.At }

func (n *Dec) String() string { return n.Text }

func (n *Num) String() string  { return strconv.Itoa(n.V) }
func (n *Dice) String() string { return n.Text }
func (n *Group) String() string {
	parts := make([]string, len(n.Items))
	for i, it := range n.Items {
		parts[i] = it.String()
	}
	return "{" + strings.Join(parts, ", ") + "}" + n.Mods.String()
}
func (n *Bin) String() string { return n.L.String() + " " + string(n.Op) + " " + n.R.String() }
func (n *Neg) String() string { return "-" + n.X.String() }
func (n *Cmp) String() string { return n.L.String() + " " + n.Op + " " + n.R.String() }
func (n *Call) String() string {
	parts := make([]string, len(n.Args))
	for i, a := range n.Args {
		parts[i] = a.String()
	}
	return n.Name + "(" + strings.Join(parts, ", ") + ")"
}

func (m Mods) String() string {
	var b strings.Builder
	if m.Reroll.Op != "" {
		b.WriteString("r")
		if m.RerollOnce {
			b.WriteString("o")
		}
		b.WriteString(m.Reroll.String())
	}
	switch m.Explode {
	case ExplodeAdd:
		b.WriteString("!")
	case ExplodeCompound:
		b.WriteString("!!")
	case ExplodePenetrate:
		b.WriteString("!p")
	case ExplodeCompoundPenetrate:
		b.WriteString("!!p")
	}
	if m.Explode != ExplodeNone && m.ExplodeOn.Op != "" {
		b.WriteString(m.ExplodeOn.String())
	}
	if m.Explode != ExplodeNone && m.ExplodeMax > 0 {
		b.WriteString(strconv.Itoa(m.ExplodeMax))
	}
	if m.Min != nil {
		fmt.Fprintf(&b, "min%d", *m.Min)
	}
	if m.Max != nil {
		fmt.Fprintf(&b, "max%d", *m.Max)
	}
	if m.Unique {
		b.WriteString("u")
		if m.UniqueOnce {
			b.WriteString("o")
		}
		if m.UniqueOn.Op != "" {
			b.WriteString(m.UniqueOn.String())
		}
	}
	switch m.Keep {
	case KeepHigh:
		fmt.Fprintf(&b, "kh%d", m.KeepN)
	case KeepLow:
		fmt.Fprintf(&b, "kl%d", m.KeepN)
	case DropHigh:
		fmt.Fprintf(&b, "dh%d", m.KeepN)
	case DropLow:
		fmt.Fprintf(&b, "dl%d", m.KeepN)
	}
	for _, st := range m.More {
		fmt.Fprintf(&b, "%s%d", [...]string{"", "kh", "kl", "dh", "dl"}[st.Kind], st.N)
	}
	if m.Success.Op != "" {
		b.WriteString(m.Success.String())
	}
	if m.Failure.Op != "" {
		b.WriteString("f" + m.Failure.String())
	}
	if m.CritSuccess.Op != "" {
		b.WriteString("cs" + m.CritSuccess.String())
	}
	if m.CritFailure.Op != "" {
		b.WriteString("cf" + m.CritFailure.String())
	}
	if m.Sort != 0 {
		b.WriteString("s" + string(m.Sort))
	}
	return b.String()
}

// Error is a notation error at a column (1-based, in characters) of the expression.
type Error struct {
	Col int
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("column %d: %s", e.Col, e.Msg) }

// Parse reads a dice expression. named resolves custom dice (may be nil).
func Parse(src string, named map[string]*Die) (*Expr, error) {
	if len(src) > MaxTextBytes {
		return nil, &Error{1, fmt.Sprintf("expression longer than %d bytes", MaxTextBytes)}
	}
	p := &parser{src: []rune(src), named: named}
	p.skipSpace()
	if p.i >= len(p.src) {
		return nil, &Error{1, "empty dice expression"}
	}
	n, err := p.cmp()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.peek() == '#' || p.hasPrefix("//") {
		p.i = len(p.src) // a description of the whole roll: 4d6 # fire
	}
	if p.i < len(p.src) {
		return nil, p.errf("unexpected %q", string(p.src[p.i]))
	}
	if terms, err := recordTerms(n); err != nil {
		return nil, err
	} else if terms != nil {
		return &Expr{Src: src, Root: n, rec: newRecordSum(terms)}, nil
	}
	if err := p.checkWhole(n, false); err != nil {
		return nil, err
	}
	return &Expr{Src: src, Root: n}, nil
}

// Expr is a parsed dice expression, ready to roll many times or to analyse.
type Expr struct {
	Src  string
	Root Node
	// rec is set when the expression is a sum of record dice (see record.go).
	rec *recordSum
}

type parser struct {
	src   []rune
	i     int
	depth int
	named map[string]*Die
}

func (p *parser) errf(format string, args ...any) error {
	return &Error{p.i + 1, fmt.Sprintf(format, args...)}
}

func (p *parser) errAt(at int, format string, args ...any) error {
	return &Error{at + 1, fmt.Sprintf(format, args...)}
}

func (p *parser) skipSpace() bool {
	start := p.i
	for p.i < len(p.src) && (p.src[p.i] == ' ' || p.src[p.i] == '\t') {
		p.i++
	}
	return p.i > start
}

func (p *parser) peek() rune {
	if p.i < len(p.src) {
		return p.src[p.i]
	}
	return 0
}

func (p *parser) peekAt(k int) rune {
	if p.i+k < len(p.src) {
		return p.src[p.i+k]
	}
	return 0
}

func (p *parser) cmpOp() string {
	for _, op := range []string{">=", "<=", "<>", "==", "!=", ">", "<", "="} {
		if p.hasPrefix(op) {
			return op
		}
	}
	return ""
}

func (p *parser) hasPrefix(s string) bool {
	r := []rune(s)
	if p.i+len(r) > len(p.src) {
		return false
	}
	for k, c := range r {
		if p.src[p.i+k] != c {
			return false
		}
	}
	return true
}

func (p *parser) cmp() (Node, error) {
	l, err := p.sum()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if op := p.cmpOp(); op != "" {
		at := p.i
		p.i += len(op)
		switch op {
		case "=":
			op = "=="
		case "<>":
			op = "!="
		}
		r, err := p.sum()
		if err != nil {
			return nil, err
		}
		return &Cmp{At: at, Op: op, L: l, R: r}, nil
	}
	return l, nil
}

func (p *parser) sum() (Node, error) {
	l, err := p.term()
	if err != nil {
		return nil, err
	}
	for {
		p.skipSpace()
		c := p.peek()
		if c != '+' && c != '-' {
			return l, nil
		}
		at := p.i
		p.i++
		r, err := p.term()
		if err != nil {
			return nil, err
		}
		l = &Bin{At: at, Op: byte(c), L: l, R: r}
	}
}

func (p *parser) term() (Node, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		p.skipSpace()
		c := p.peek()
		if c != '*' && c != '/' && c != '×' && c != '%' || p.hasPrefix("**") {
			return l, nil
		}
		if c == '×' {
			c = '*'
		}
		at := p.i
		p.i++
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		if n, ok := r.(*Num); ok && (c == '/' || c == '%') && n.V == 0 {
			return nil, p.errAt(r.pos(), "division by zero")
		}
		l = &Bin{At: at, Op: byte(c), L: l, R: r}
	}
}

func (p *parser) unary() (Node, error) {
	p.skipSpace()
	if p.peek() == '-' {
		at := p.i
		p.i++
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		if n, ok := x.(*Num); ok {
			return &Num{At: at, V: -n.V}, nil
		}
		return &Neg{At: at, X: x}, nil
	}
	if p.peek() == '+' {
		p.i++
		return p.unary()
	}
	return p.power()
}

// power reads `a ^ b` or `a ** b` (right-associative, binding tighter than a sign: -2^2 is -4).
func (p *parser) power() (Node, error) {
	l, err := p.atom()
	if err != nil {
		return nil, err
	}
	if err := p.description(); err != nil {
		return nil, err
	}
	p.skipSpace()
	at := p.i
	switch {
	case p.hasPrefix("**"):
		p.i += 2
	case p.peek() == '^':
		p.i++
	default:
		return l, nil
	}
	r, err := p.unary()
	if err != nil {
		return nil, err
	}
	if n, ok := r.(*Num); ok && n.V < 0 {
		return nil, p.errAt(r.pos(), "a negative power gives a fraction; dice totals here are whole numbers")
	}
	return &Bin{At: at, Op: '^', L: l, R: r}, nil
}

// description skips a description after a value, as the online rollers write them:
// `2d10 [fire]` or `2d10 /* fire */`. It does not change the roll.
func (p *parser) description() error {
	start := p.i
	p.skipSpace()
	var end string
	switch {
	case p.peek() == '[':
		end = "]"
	case p.hasPrefix("/*"):
		end = "*/"
	default:
		p.i = start
		return nil
	}
	at := p.i
	for p.i < len(p.src) && !p.hasPrefix(end) {
		p.i++
	}
	if p.i == len(p.src) {
		return p.errAt(at, "a description opened here has no closing %s", end)
	}
	p.i += len(end)
	return nil
}

// funcArgs is how many arguments each function of the notation takes (-1: two or more),
// false for a name that is none.
func funcArgs(s string) (int, bool) {
	switch s {
	case "floor", "ceil", "round", "sqrt", "abs":
		return 1, true
	case "min", "max":
		return -1, true
	}
	return 0, false
}

// items reads expressions separated by commas up to and past close (the opening bracket is
// read), each with item; where says in the error where a comma or close was expected.
func (p *parser) items(item func() (Node, error), close rune, where string) ([]Node, error) {
	var out []Node
	for {
		n, err := item()
		if err != nil {
			return nil, err
		}
		out = append(out, n)
		p.skipSpace()
		switch p.peek() {
		case ',':
			p.i++
		case close:
			p.i++
			return out, nil
		default:
			return nil, p.errf("expected , or %c %s", close, where)
		}
	}
}

// call reads the arguments of a function after its name.
func (p *parser) call(at int, name string) (Node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	p.skipSpace()
	p.i++ // (
	c := &Call{At: at, Name: name}
	var err error
	if c.Args, err = p.items(p.cmp, ')', "after an argument of "+name); err != nil {
		return nil, err
	}
	p.depth--
	want, _ := funcArgs(name)
	if want == 1 && len(c.Args) != 1 {
		return nil, p.errAt(at, "%s takes one argument, got %d", name, len(c.Args))
	}
	if want == -1 && len(c.Args) < 2 {
		return nil, p.errAt(at, "%s takes two arguments or more", name)
	}
	return c, nil
}

// checkWhole refuses a fraction that no rounding function turns into a whole number: a `/`
// or a sqrt must be the argument of floor, ceil or round (rounded says n is one).
func (p *parser) checkWhole(n Node, rounded bool) error {
	return p.checkFrac(n, rounded, rounded)
}

// checkFrac is checkWhole; direct says n is the very argument of a rounding function (where
// a sqrt may stand), rounded that it is inside one's arithmetic (where / and decimals may).
func (p *parser) checkFrac(n Node, rounded, direct bool) error {
	switch n := n.(type) {
	case *Dec:
		if !rounded {
			return p.errAt(n.At, "%s: dice totals here are whole numbers, so a decimal goes inside floor, ceil or round: floor(1d6*1.5); in a rule expression decimals are numbers", n.Text)
		}
	case *Bin:
		if n.Op == '/' && !rounded {
			text := n.String()
			return p.errAt(n.At, "%s is a fraction and dice totals here are whole numbers: write floor(%s) to round down (as / did before), round(%s) or ceil(%s); in a rule expression %s is the fraction itself", text, text, text, text, text)
		}
		l, r := rounded, rounded
		switch n.Op {
		case '%':
			l, r = false, false
		case '^':
			r = false // a fraction to a whole power
		}
		if err := p.checkFrac(n.L, l, false); err != nil {
			return err
		}
		return p.checkFrac(n.R, r, false)
	case *Neg:
		return p.checkFrac(n.X, rounded, false)
	case *Dice:
		if n.Mods.fracClamp() && !rounded {
			return p.errAt(n.At, "%s: a die clamped to a decimal reads a fraction and dice totals here are whole numbers: write floor(%s), round(%s) or ceil(%s); in a rule expression write roll(\"floor(%s)\")", n.Text, n.Text, n.Text, n.Text, n.Text)
		}
	case *Cmp:
		if err := p.checkFrac(n.L, false, false); err != nil {
			return err
		}
		return p.checkFrac(n.R, false, false)
	case *Group:
		for _, it := range n.Items {
			if err := p.checkFrac(it, false, false); err != nil {
				return err
			}
		}
	case *Call:
		if n.Name == "sqrt" && !direct {
			text := n.String()
			return p.errAt(n.At, "%s is a fraction and dice totals here are whole numbers: write floor(%s), round(%s) or ceil(%s)", text, text, text, text)
		}
		r := rounding(n.Name)
		for _, a := range n.Args {
			if err := p.checkFrac(a, r, r); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > MaxNesting {
		return p.errf("nested deeper than the limit of %d", MaxNesting)
	}
	return nil
}

func (p *parser) atom() (Node, error) {
	p.skipSpace()
	at := p.i
	c := p.peek()
	switch {
	case c == '(':
		if err := p.enter(); err != nil {
			return nil, err
		}
		p.i++
		n, err := p.cmp()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.peek() != ')' {
			return nil, p.errf("missing )")
		}
		p.i++
		p.depth--
		if d := p.peek(); d == 'd' || d == 'D' {
			// A computed count: (4-2)d10.
			if err := p.checkWhole(n, false); err != nil {
				return nil, err
			}
			count, ok, err := constValue(n)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, p.errAt(at, "the number of dice must be a whole number known before rolling, e.g. (4-2)d10")
			}
			if count < 0 {
				return nil, p.errAt(at, "cannot roll %d dice", count)
			}
			return p.dice(at, count)
		}
		return n, nil
	case c == '{':
		return p.group()
	case isDigit(c):
		n, err := p.number()
		if err != nil {
			return nil, err
		}
		if d := p.peek(); d == 'd' || d == 'D' {
			return p.dice(at, n)
		}
		if p.peek() == '.' && isDigit(p.peekAt(1)) {
			// A decimal: exact, and allowed only inside a rounding function (checkWhole).
			p.i++
			start := p.i
			for p.i < len(p.src) && isDigit(p.src[p.i]) {
				p.i++
			}
			if p.i-start > 15 {
				return nil, p.errAt(start, "more than 15 decimals")
			}
			r, _ := new(big.Rat).SetString(string(p.src[at:p.i]))
			return &Dec{At: at, R: r, Text: string(p.src[at:p.i])}, nil
		}
		return &Num{At: at, V: n}, nil
	case c == 'd' || c == 'D':
		return p.dice(at, 1)
	case isLetter(c):
		// A bare declared die name rolls one of it: `combat`.
		name := p.word()
		if _, ok := funcArgs(name); ok {
			p.skipSpace()
			if p.peek() == '(' {
				return p.call(at, name)
			}
		}
		if d, ok := p.named[name]; ok {
			return p.finishDice(at, 1, d, name)
		}
		p.i = at
		return nil, p.errf("unknown die %q", name)
	case c == 0:
		return nil, p.errf("expression ends too early")
	}
	return nil, p.errf("unexpected %q", string(c))
}

// constant reads a parenthesized expression without dice, for a computed number of what.
func (p *parser) constant(what string) (int, error) {
	at := p.i
	if err := p.enter(); err != nil {
		return 0, err
	}
	p.i++
	n, err := p.cmp()
	if err != nil {
		return 0, err
	}
	p.skipSpace()
	if p.peek() != ')' {
		return 0, p.errf("missing )")
	}
	p.i++
	p.depth--
	if err := p.checkWhole(n, false); err != nil {
		return 0, err
	}
	v, ok, err := constValue(n)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, p.errAt(at, "the number of %s must be a whole number known before rolling, e.g. 3d(2*6)", what)
	}
	return v, nil
}

// constValue evaluates an expression without dice (false when it has dice; the error when
// it fails, a division by zero or a value beyond 2^53).
func constValue(n Node) (int, bool, error) {
	if !noDice(n) {
		return 0, false, nil
	}
	v, err := NewRoller(&Expr{Root: n}, nil).Total()
	return v, err == nil, err
}

func noDice(n Node) bool {
	switch n := n.(type) {
	case *Num, *Dec:
		return true
	case *Neg:
		return noDice(n.X)
	case *Bin:
		return noDice(n.L) && noDice(n.R)
	case *Cmp:
		return noDice(n.L) && noDice(n.R)
	case *Call:
		for _, a := range n.Args {
			if !noDice(a) {
				return false
			}
		}
		return true
	}
	return false
}

func isDigit(c rune) bool { return c >= '0' && c <= '9' }
func isLetter(c rune) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c > 127
}

func (p *parser) word() string {
	start := p.i
	for p.i < len(p.src) && (isLetter(p.src[p.i]) || isDigit(p.src[p.i])) {
		p.i++
	}
	return string(p.src[start:p.i])
}

// number reads digits, refusing values beyond the int range (a 400-digit count).
func (p *parser) number() (int, error) {
	start := p.i
	for p.i < len(p.src) && isDigit(p.src[p.i]) {
		p.i++
	}
	s := string(p.src[start:p.i])
	n, err := strconv.Atoi(s)
	if err != nil || n > 1<<40 {
		p.i = start
		return 0, p.errf("number %s is too large", abbreviate(s))
	}
	return n, nil
}

func abbreviate(s string) string {
	if len(s) > 12 {
		return s[:6] + "…" + s[len(s)-3:]
	}
	return s
}

func (p *parser) dice(at, count int) (Node, error) {
	p.i++ // the d
	var die *Die
	name := ""
	switch c := p.peek(); {
	case c == '%':
		p.i++
		die = StandardDie(100)
		die.Name = "d%"
	case c == 'F':
		p.i++
		die = FudgeDie
		switch {
		case p.hasPrefix(".1"):
			p.i += 2
			die = FudgeDie1
		case p.hasPrefix(".2"):
			p.i += 2
		}
	case c == '(':
		// A computed number of sides: 3d(2*6).
		sidesAt := p.i
		n, err := p.constant("sides")
		if err != nil {
			return nil, err
		}
		if n < 1 {
			return nil, p.errAt(sidesAt, "a die needs at least one side, got d%d", n)
		}
		if n > MaxSides {
			return nil, p.errAt(sidesAt, "d%d has more sides than the limit of %d", n, MaxSides)
		}
		die = StandardDie(n)
	case isDigit(c):
		sidesAt := p.i
		n, err := p.number()
		if err != nil {
			return nil, err
		}
		if n < 1 {
			return nil, p.errAt(sidesAt, "a die needs at least one side, got d%d", n)
		}
		if n > MaxSides {
			return nil, p.errAt(sidesAt, "d%d has more sides than the limit of %d", n, MaxSides)
		}
		die = StandardDie(n)
	case c == '[':
		d, err := p.inlineDie()
		if err != nil {
			return nil, err
		}
		die = d
	case p.src[p.i-1] == 'D' && at < p.i-1 && !isLetter(c):
		die = StandardDie(6) // the D6 system's 4D: a bare D after a count is a d6
		die.Name = "D"
	case isLetter(c):
		nameAt := p.i
		name = p.word()
		d, ok := p.named[name]
		if !ok {
			return nil, p.unknownDie(at, nameAt, name)
		}
		die = d
	default:
		return nil, p.errf("missing number of sides after d")
	}
	return p.finishDice(at, count, die, name)
}

// unknownDie reports a name after d that names no die. When it starts with a declared die's
// name, modifiers were glued to it (`1dcombatro=sabre`): the brackets delimit the name.
func (p *parser) unknownDie(at, nameAt int, name string) error {
	best := ""
	for n := range p.named {
		if len(n) > len(best) && len(n) < len(name) && strings.HasPrefix(name, n) {
			best = n
		}
	}
	if best == "" && at == nameAt-1 {
		// No count: the d begins a word (do_move), which is a name as the user wrote it.
		return p.errAt(at, "unknown die %q", string(p.src[at:nameAt])+name)
	}
	if best == "" {
		return p.errAt(nameAt, "unknown die %q", name)
	}
	count := string(p.src[at : nameAt-1])
	end := nameAt
	for end < len(p.src) && p.src[end] != ' ' && p.src[end] != '\t' {
		end++
	}
	rest := string(p.src[nameAt+len([]rune(best)) : end])
	return p.errAt(nameAt, "unknown die %q: to add modifiers to %s, write its name in brackets: %sd[%s]%s", name, best, count, best, rest)
}

func (p *parser) inlineDie() (*Die, error) {
	open := p.i
	p.i++
	var faces []Face
	for {
		p.skipSpace()
		var f Face
		switch c := p.peek(); {
		case isDigit(c) || c == '-':
			neg := c == '-'
			if neg {
				p.i++
			}
			n, err := p.number()
			if err != nil {
				return nil, err
			}
			if neg {
				n = -n
			}
			f.Value = n
		case isLetter(c):
			f.Sym = p.word()
		default:
			return nil, p.errf("expected a face (a number or a name)")
		}
		faces = append(faces, f)
		if len(faces) > MaxSides {
			return nil, p.errf("more than %d faces", MaxSides)
		}
		p.skipSpace()
		if p.peek() == ',' {
			p.i++
			continue
		}
		if p.peek() == ']' {
			p.i++
			break
		}
		return nil, p.errf("expected , or ] in the list of faces")
	}
	if len(faces) == 1 && faces[0].Sym != "" {
		if d, ok := p.named[faces[0].Sym]; ok {
			return d, nil
		}
		return nil, p.errAt(open+1, "unknown die %q", faces[0].Sym)
	}
	return NewDie("d["+string(p.src[open+1:p.i-1])+"]", faces)
}

func (p *parser) finishDice(at, count int, die *Die, name string) (Node, error) {
	if count > MaxCount {
		return nil, p.errAt(at, "%d dice is more than the limit of %d", count, MaxCount)
	}
	d := &Dice{At: at, Count: count, Die: die}
	before := p.i
	if err := p.mods(&d.Mods, die, true); err != nil {
		return nil, err
	}
	if die.Record && p.i > before {
		return nil, p.errAt(before, "%s has faces that are records of counts: it takes no modifier (%s)", die.Name, string(p.src[before:p.i]))
	}
	if err := checkMods(&d.Mods, die, count, at); err != nil {
		return nil, err
	}
	d.Text = string(p.src[at:p.i])
	d.fast = d.computePlain()
	return d, nil
}

func (p *parser) group() (Node, error) {
	at := p.i
	if err := p.enter(); err != nil {
		return nil, err
	}
	p.i++
	g := &Group{At: at}
	var err error
	if g.Items, err = p.items(p.sum, '}', "in the group"); err != nil {
		return nil, err
	}
	p.depth--
	if err := p.mods(&g.Mods, nil, false); err != nil {
		return nil, err
	}
	if len(g.Items) == 1 && (g.Mods.Keep != KeepAll || g.Mods.Success.Op != "" || g.Mods.Failure.Op != "") {
		return p.oneItemGroup(g)
	}
	for _, st := range g.Mods.More {
		if st.N > len(g.Items) {
			return nil, p.errAt(at, "cannot keep or drop %d of %d items", st.N, len(g.Items))
		}
	}
	if g.Mods.writtenKeep && g.Mods.KeepN > len(g.Items) {
		return nil, p.errAt(at, "cannot keep or drop %d of %d items", g.Mods.KeepN, len(g.Items))
	}
	return g, nil
}

// oneItemGroup gives a group of one dice term the meaning the online rollers give it: its
// keep/drop and success counting apply to the term's dice ({4d6}kh3 is 4d6kh3), not to the
// one item's total.
func (p *parser) oneItemGroup(g *Group) (Node, error) {
	d, ok := g.Items[0].(*Dice)
	gm := &g.Mods
	if !ok {
		pl := &Pool{At: g.At, Mods: *gm}
		if !poolOf(g.Items[0], 1, pl) || len(pl.Terms) == 0 {
			return nil, p.errAt(g.At, "keep/drop or counting on a group of one item applies to its dice: the item must add or subtract dice terms without modifiers of their own and whole numbers (e.g. {4d10+5d6}k2, {3d20+5}>40)")
		}
		if gm.writtenKeep && gm.KeepN > pl.dice() {
			return nil, p.errAt(g.At, "cannot keep or drop %d of %d dice", gm.KeepN, pl.dice())
		}
		pl.Text = string(p.src[g.At:p.i])
		return pl, nil
	}
	m := d.Mods
	if gm.Keep != KeepAll && m.Keep != KeepAll || (gm.Success.Op != "" || gm.Failure.Op != "") && (m.Success.Op != "" || m.Failure.Op != "") {
		return nil, p.errAt(g.At, "%s already has that modifier: write it once", d.Text)
	}
	if gm.Keep != KeepAll {
		m.Keep, m.KeepN, m.More, m.writtenKeep = gm.Keep, gm.KeepN, gm.More, true
	}
	if gm.Success.Op != "" || gm.Failure.Op != "" {
		if d.Die.Symbolic {
			return nil, p.errAt(g.At, "%s has faces with names: count a face on the term, e.g. %s=%s", d.Die.Name, d.Text, d.Die.Faces[0].Sym)
		}
		m.Success, m.Failure = gm.Success, gm.Failure
	}
	if gm.display() {
		m.CritSuccess, m.CritFailure, m.Sort = gm.CritSuccess, gm.CritFailure, gm.Sort
	}
	if err := checkMods(&m, d.Die, d.Count, g.At); err != nil {
		return nil, err
	}
	out := &Dice{At: g.At, Count: d.Count, Die: d.Die, Mods: m, Text: string(p.src[g.At:p.i])}
	out.fast = out.computePlain()
	return out, nil
}

// mods reads modifiers glued to a dice term or group. Whitespace ends them, so that
// `6d10>=8` counts successes while `3d6 >= 12` compares the total.
func (p *parser) mods(m *Mods, die *Die, dice bool) error {
	for p.i < len(p.src) {
		at := p.i
		var err error
		switch {
		case p.hasPrefix("cs") || p.hasPrefix("cf"):
			err = p.critical(m, die, dice, at)
		case p.hasPrefix("sa") || p.hasPrefix("sd") || p.peek() == 's' && !isLetter(p.peekAt(1)):
			p.sortOrder(m)
		case p.hasPrefix("kh") || p.hasPrefix("kl") || p.hasPrefix("dh") || p.hasPrefix("dl") || p.peek() == 'k' || (p.peek() == 'd' && isDigit(p.peekAt(1))):
			err = p.keepDrop(m)
		case dice && p.peek() == '!':
			err = p.explode(m, die, at)
		case dice && p.peek() == 'r':
			err = p.reroll(m, die, at)
		case dice && (p.hasPrefix("min") || p.hasPrefix("max")):
			err = p.minMax(m)
		case dice && p.peek() == 'u':
			err = p.unique(m, die, at)
		case p.peek() == 'f' && (p.cmpAt(1) || isDigit(p.peekAt(1))):
			err = p.failure(m, die, at)
		case p.cmpAt(0) && p.peek() != '!':
			err = p.success(m, die, at)
		default:
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// critical reads cs or cf, with the condition of a critical success or failure; bare, it is
// the die's highest face (cs) or lowest (cf), as the online rollers read it.
func (p *parser) critical(m *Mods, die *Die, dice bool, at int) error {
	fail := p.src[p.i+1] == 'f'
	p.i += 2
	var c Cond
	if p.cmpAt(0) || isDigit(p.peek()) || p.hasPrefix("!=") {
		var err error
		if c, err = p.cond(die, at); err != nil {
			return err
		}
	} else {
		if !dice || die.Symbolic {
			return p.errf("which results are critical? e.g. %s=6", string(p.src[at:p.i]))
		}
		v := die.Faces[0].Value
		for _, f := range die.Faces {
			if fail {
				v = min(v, f.Value)
			} else {
				v = max(v, f.Value)
			}
		}
		c = Cond{Op: "=", N: v}
	}
	if fail {
		m.CritFailure = c
	} else {
		m.CritSuccess = c
	}
	return nil
}

// sortOrder reads s, sa or sd: the faces sorted ascending (s, sa) or descending.
func (p *parser) sortOrder(m *Mods) {
	p.i++
	m.Sort = 'a'
	if c := p.peek(); c == 'a' || c == 'd' {
		m.Sort = byte(c)
		p.i++
	}
}

// keepDrop reads kh, kl, dh, dl, k (keep highest) or d (drop lowest) and its count; a
// second one is a further step (4d6kh3kl2).
func (p *parser) keepDrop(m *Mods) error {
	kind := KeepHigh
	switch {
	case p.hasPrefix("kh"):
		p.i += 2
	case p.hasPrefix("kl"):
		kind, p.i = KeepLow, p.i+2
	case p.hasPrefix("dh"):
		kind, p.i = DropHigh, p.i+2
	case p.hasPrefix("dl"):
		kind, p.i = DropLow, p.i+2
	case p.peek() == 'k':
		p.i++
	default:
		kind, p.i = DropLow, p.i+1
	}
	if !isDigit(p.peek()) {
		return p.errf("how many dice to keep or drop? (e.g. kh3)")
	}
	n, err := p.number()
	if err != nil {
		return err
	}
	if m.writtenKeep {
		m.More = append(m.More, KeepStep{kind, n})
	} else {
		m.Keep, m.KeepN, m.writtenKeep = kind, n, true
	}
	return nil
}

// explode reads ! (added), !! (compounded), !p or !!p (penetrating), then an optional
// condition (!>=5) and an optional limit of explosions (!3).
func (p *parser) explode(m *Mods, die *Die, at int) error {
	if m.Explode != ExplodeNone {
		return p.errf("explosion written twice")
	}
	p.i++
	m.Explode = ExplodeAdd
	switch p.peek() {
	case '!':
		p.i++
		m.Explode = ExplodeCompound
		if p.peek() == 'p' {
			p.i++
			m.Explode = ExplodeCompoundPenetrate
		}
	case 'p':
		p.i++
		m.Explode = ExplodePenetrate
	}
	if op := p.cmpOp(); op != "" && op != "==" && op != "!=" {
		c, err := p.cond(die, at)
		if err != nil {
			return err
		}
		m.ExplodeOn = c
	}
	if isDigit(p.peek()) {
		n, err := p.number()
		if err != nil {
			return err
		}
		if n < 1 || n > MaxExplode {
			return p.errAt(at, "explosion limit %d is outside 1..%d", n, MaxExplode)
		}
		m.ExplodeMax = n
	}
	return nil
}

// reroll reads r or ro (once) and the faces rerolled; bare, the lowest face, as the online
// rollers read it.
func (p *parser) reroll(m *Mods, die *Die, at int) error {
	if m.Reroll.Op != "" {
		return p.errf("reroll written twice")
	}
	p.i++
	if p.peek() == 'o' {
		p.i++
		m.RerollOnce = true
	}
	if !p.cmpAt(0) && !isDigit(p.peek()) && !p.hasPrefix("!=") && !(p.peek() == '-' && isDigit(p.peekAt(1))) && !(die.Symbolic && isLetter(p.peek())) {
		if die.Symbolic {
			return p.errf("%s has no lowest face: name the face to reroll, e.g. r=%s", die.Name, die.Faces[0].Sym)
		}
		lo := die.Faces[0].Value
		for _, f := range die.Faces {
			lo = min(lo, f.Value)
		}
		m.Reroll = Cond{Op: "=", N: lo}
		return nil
	}
	c, err := p.cond(die, at)
	if err != nil {
		return err
	}
	m.Reroll = c
	return nil
}

// minMax reads min N or max N (N may be negative): each die's result is raised or lowered
// to it.
func (p *parser) minMax(m *Mods) error {
	isMin := p.hasPrefix("min")
	p.i += 3
	neg := false
	if p.peek() == '-' {
		neg = true
		p.i++
	}
	if !isDigit(p.peek()) {
		return p.errf("a number must follow min or max")
	}
	start := p.i
	n, err := p.number()
	if err != nil {
		return err
	}
	if p.peek() == '.' && p.i+1 < len(p.src) && isDigit(p.src[p.i+1]) {
		// A decimal clamp (6d%min50.45), as rpg-dice-roller reads it: a die below it reads it.
		p.i++
		for p.i < len(p.src) && isDigit(p.src[p.i]) {
			p.i++
		}
		r, ok := new(big.Rat).SetString(string(p.src[start:p.i]))
		if !ok {
			return p.errf("%s is not a number", string(p.src[start:p.i]))
		}
		if neg {
			r.Neg(r)
		}
		if !r.IsInt() {
			if isMin {
				m.MinFrac = r
			} else {
				m.MaxFrac = r
			}
			return nil
		}
		n = int(r.Num().Int64())
		if neg {
			n = -n // undone below
		}
	}
	if neg {
		n = -n
	}
	if isMin {
		m.Min = &n
	} else {
		m.Max = &n
	}
	return nil
}

// unique reads u or uo (once), then an optional condition: as the online rollers read it,
// which repeats are rerolled (4d6u=5: a second 5), not what counts as a success.
func (p *parser) unique(m *Mods, die *Die, at int) error {
	p.i++
	m.Unique = true
	if p.peek() == 'o' {
		p.i++
		m.UniqueOnce = true
	}
	if p.cmpAt(0) || isDigit(p.peek()) {
		c, err := p.cond(die, at)
		if err != nil {
			return err
		}
		m.UniqueOn = c
	}
	return nil
}

// failure reads f and the condition that counts failures (10d10>=8f1).
func (p *parser) failure(m *Mods, die *Die, at int) error {
	p.i++
	c, err := p.cond(die, at)
	if err != nil {
		return err
	}
	m.Failure = c
	return nil
}

// success reads the condition that counts successes (6d10>=8), written once.
func (p *parser) success(m *Mods, die *Die, at int) error {
	if m.Success.Op != "" {
		return p.errf("success condition written twice")
	}
	c, err := p.cond(die, at)
	if err != nil {
		return err
	}
	m.Success = c
	return nil
}

func (p *parser) cmpAt(k int) bool {
	c := p.peekAt(k)
	return c == '>' || c == '<' || c == '='
}

// cond reads `>=N`, `<N`, `=N` or a bare `N` (meaning =N); on a symbolic die `=name`.
func (p *parser) cond(die *Die, mark int) (Cond, error) {
	start := p.i
	op := p.cmpOp()
	p.i += len(op)
	switch op {
	case "==", "":
		op = "="
	case "<>":
		op = "!="
	}
	if die != nil && die.Symbolic {
		// A symbolic die's faces have no number and no order: a condition names a face.
		at := p.i
		if !isLetter(p.peek()) || op != "=" && op != "!=" {
			p.i = start
			return Cond{}, p.errf("%s has faces with names, not numbers: name a face, e.g. %s=%s", die.Name, string(p.src[mark:start]), die.Faces[0].Sym)
		}
		sym := p.word()
		for _, f := range die.Faces {
			if f.Sym == sym {
				return Cond{Op: op, Sym: sym}, nil
			}
		}
		return Cond{}, p.errAt(at, "%s has no face %q", die.Name, sym)
	}
	neg := false
	if p.peek() == '-' {
		neg = true
		p.i++
	}
	if !isDigit(p.peek()) {
		return Cond{}, p.errf("a number must follow %s", op)
	}
	n, err := p.number()
	if err != nil {
		return Cond{}, err
	}
	if neg {
		n = -n
	}
	return Cond{Op: op, N: n}, nil
}

// checkMods rejects modifiers that cannot work: a reroll or explosion on every face, keeping
// more dice than rolled.
func checkMods(m *Mods, die *Die, count, at int) error {
	errAt := func(format string, args ...any) error { return &Error{at + 1, fmt.Sprintf(format, args...)} }
	if m.Explode != ExplodeNone && m.ExplodeOn.Op == "" {
		hi := die.Faces[0]
		for _, f := range die.Faces {
			if f.Value > hi.Value {
				hi = f
			}
		}
		m.ExplodeOn = Cond{Op: "=", N: hi.Value}
		if die.Symbolic {
			m.ExplodeOn = Cond{Op: "=", Sym: hi.Sym}
		}
	}
	all := func(c Cond) bool {
		for _, f := range die.Faces {
			if !c.Match(f) {
				return false
			}
		}
		return true
	}
	if m.Explode != ExplodeNone && all(m.ExplodeOn) && m.ExplodeMax == 0 {
		return errAt("%s explodes on every face: it would never stop (add a limit, e.g. !3)", die.Name)
	}
	if m.Reroll.Op != "" && all(m.Reroll) && !m.RerollOnce {
		return errAt("%s is rerolled on every face: it would never stop", die.Name)
	}
	if m.writtenKeep && m.KeepN > count && m.Explode != ExplodeAdd {
		return errAt("cannot keep or drop %d of %d dice", m.KeepN, count)
	}
	for _, st := range m.More {
		if st.N > count && m.Explode != ExplodeAdd {
			return errAt("cannot keep or drop %d of %d dice", st.N, count)
		}
	}
	if err := orderFree(m, die, errAt); err != nil {
		return err
	}
	if m.fracClamp() && (m.Explode != ExplodeNone || m.Reroll.Op != "" || m.Unique || m.Keep != KeepAll ||
		m.Success.Op != "" || m.Failure.Op != "" || m.Min != nil || m.Max != nil || m.display()) {
		return errAt("a decimal min or max stands alone on a term (no other modifier)")
	}
	if die.Symbolic && (m.Min != nil || m.Max != nil || m.fracClamp()) {
		return errAt("%s has faces with names, not numbers: min and max do not apply", die.Name)
	}
	if m.Min != nil && m.Max != nil && *m.Min > *m.Max {
		return errAt("min %d is above max %d", *m.Min, *m.Max)
	}
	return nil
}

// orderFree refuses unique beside min/max, an explosion or a reroll on one term. min/max,
// explosions and rerolls apply in rpg-dice-roller's order (Mods.ordered); where unique would
// come after them, whether the dice it rerolls are clamped, explode or are rerolled again is
// not the same from one roller to the next, so such a term has no one meaning a GM could trust.
func orderFree(m *Mods, die *Die, errAt func(string, ...any) error) error {
	if !m.Unique {
		return nil
	}
	var other string
	switch {
	case m.Min != nil || m.Max != nil:
		other = "min/max"
	case m.Explode != ExplodeNone:
		other = "an explosion"
	case m.Reroll.Op != "":
		other = "a reroll"
	default:
		return nil
	}
	return errAt("unique and %s on one term: whether the dice unique rerolls are then clamped, exploded or rerolled differs between online rollers; write unique alone on a term (min/max, explosions and rerolls combine: clamp, then explode, then reroll)", other)
}

// FixedDice reports how many dice every roll of e draws, when that number is fixed and every
// die has numeric faces 1..N with no modifier but keep/drop: e is sums, differences and
// products of such terms and of numbers. ok is false for anything else (explosions, rerolls,
// symbolic or custom dice, counted successes, comparisons, groups, functions), whose dice
// vary in number or whose faces mean more than their total.
func (e *Expr) FixedDice() (n int, ok bool) { return fixedDice(e.Root) }

func fixedDice(n Node) (int, bool) {
	switch n := n.(type) {
	case *Num:
		return 0, true
	case *Neg:
		return fixedDice(n.X)
	case *Bin:
		if n.Op != '+' && n.Op != '-' && n.Op != '*' {
			return 0, false
		}
		l, lok := fixedDice(n.L)
		r, rok := fixedDice(n.R)
		return l + r, lok && rok
	case *Dice:
		if !n.plain() || n.Mods.Explode != ExplodeNone || n.Mods.display() {
			return 0, false
		}
		return n.Count, true
	}
	return 0, false
}
