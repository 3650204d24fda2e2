package runtime

import (
	"fmt"

	"rulesh/stdlib/dice"
)

// Roll is a dice result as rules see it: it behaves as its total in arithmetic and
// comparisons (`r + 3`, `r >= 12`), and keeps its dice.
type Roll struct {
	Total   int      `expr:"total"`
	Faces   []int    `expr:"faces"`   // the dice that count, in rolling order
	All     []int    `expr:"all"`     // every die, dropped ones included
	Dropped []int    `expr:"dropped"` // the dice keep/drop removed
	Symbols []string `expr:"symbols"` // faces' names, for symbolic dice
	Highest int      `expr:"highest"`
	Lowest  int      `expr:"lowest"`
	Bool    bool     `expr:"ok"` // the outcome of a comparison written in the notation
	result  *dice.Result
	// dice holds All and Faces of a roll of up to two dice, so that the commonest rolls
	// are one allocation, not three.
	dice [4]int
}

// rolled is a roll with its record and room for the record's commonest contents, a term of
// up to two dice: a roll from RollExpr is one allocation, not four (the roll, its record, the
// term, the dice). The roll is kept for as long as a rule holds it, its record with it.
type rolled struct {
	roll  Roll
	res   dice.Result
	terms [1]dice.TermRoll
	dice  [2]dice.DieRoll
}

// newRolled returns a rolled whose record has its own storage ready for the roller to
// record into (Roller.RollInto reuses a record's terms and the first term's dice).
func newRolled() *rolled {
	b := &rolled{}
	b.ready()
	return b
}

// ready points the record of a zero rolled at its own storage (newRolled).
func (b *rolled) ready() {
	b.terms[0].Dice = b.dice[:0]
	b.res.Terms = b.terms[:0]
}

// rollArena holds the rolls the runs of a simulation make, so that each run makes its rolls
// in the ones the run before it made: a Mortebrume strike's two rolls were two thirds of
// the bytes it allocated. used counts those taken since the last release.
type rollArena struct {
	on    bool
	rolls []*rolled
	used  int
}

// maxArenaRolls bounds the rolls an arena keeps: past it, a run's rolls are allocated.
const maxArenaRolls = 4096

// take returns a zero rolled, ready (newRolled): one given back if there is one.
func (a *rollArena) take() *rolled {
	if !a.on {
		return newRolled()
	}
	if a.used < len(a.rolls) {
		b := a.rolls[a.used]
		a.used++
		*b = rolled{}
		b.ready()
		return b
	}
	b := newRolled()
	if len(a.rolls) < maxArenaRolls {
		a.rolls = append(a.rolls, b)
		a.used++
	}
	return b
}

// ReuseRolls makes the machine take its rolls from those given back by ReleaseRolls (on),
// or allocate each (off, the default, which also forgets those it holds). Only a caller
// that knows when nothing holds a roll any more may turn it on: a simulation, between runs.
func (m *Machine) ReuseRolls(on bool) {
	m.rolls = rollArena{on: on}
}

// ReleaseRolls gives back the rolls made since the last release: nothing reachable holds
// them (the state they were written in is undone, the run's value read), and the next
// rolls are made in them.
func (m *Machine) ReleaseRolls() { m.rolls.used = 0 }

// KeepRolls keeps the rolls made since the last release out of the arena for good: an
// error that is kept names them (the arguments of its calls).
func (m *Machine) KeepRolls() {
	a := &m.rolls
	a.rolls = append([]*rolled(nil), a.rolls[a.used:]...)
	a.used = 0
}

// fill makes r the roll of the record res.
func (out *Roll) fill(r *dice.Result) {
	*out = Roll{Total: r.Total, Bool: r.Bool, result: r}
	n := 0
	for _, t := range r.Terms {
		n += len(t.Dice)
	}
	// All and Faces share one array, each capped at n so that an append copies.
	var buf []int
	if 2*n <= len(out.dice) {
		buf = out.dice[:]
	} else {
		buf = make([]int, 2*n)
	}
	out.All, out.Faces = buf[0:0:n], buf[n:n:2*n]
	first := true
	for _, t := range r.Terms {
		for _, d := range t.Dice {
			out.All = append(out.All, d.Value)
			if d.Face.Sym != "" {
				out.Symbols = append(out.Symbols, d.Face.Sym)
			}
			if d.Dropped {
				out.Dropped = append(out.Dropped, d.Value)
				continue
			}
			out.Faces = append(out.Faces, d.Value)
			if first || d.Value > out.Highest {
				out.Highest = d.Value
			}
			if first || d.Value < out.Lowest {
				out.Lowest = d.Value
			}
			first = false
		}
	}
	if out.Faces == nil {
		out.Faces = []int{}
	}
}

// String shows the dice and the total: `4d6kh3 [6, (1), 4, 4] = 14`.
func (r *Roll) String() string { return r.result.String() }

// JSON is the roll as JSON output shows it.
func (r *Roll) JSON() any {
	return map[string]any{"roll": r.result.String(), "total": r.Total, "faces": r.Faces, "all": r.All}
}

// Symbol returns the name of a single symbolic die's face, or "" (a count of faces,
// `1d[combat]=fusil`, is a number).
func (r *Roll) Symbol() string {
	if len(r.Symbols) == 1 && (r.result == nil || len(r.result.Terms) != 1 || !r.result.Terms[0].Counting) {
		return r.Symbols[0]
	}
	return ""
}

// faceArith is RollArith where a roll of one symbolic die, or a face's name, takes part:
// == and != compare faces by name; anything else is an error, as a face has no number (its
// place in the die's declaration is not one the rules mean).
func faceArith(op string, a, b any) (any, error) {
	face := func(v any) (string, bool) {
		switch x := v.(type) {
		case *Roll:
			s := x.Symbol()
			return s, s != ""
		case string:
			return x, true
		}
		return "", false
	}
	x, xok := face(a)
	y, yok := face(b)
	if xok && yok && (op == "==" || op == "!=") {
		return (x == y) == (op == "=="), nil
	}
	pair := [2]any{a, b}
	for i, v := range pair {
		if r, ok := v.(*Roll); ok && r.Symbol() != "" {
			if op == "==" || op == "!=" {
				return nil, Errorf("cannot compare %s with %s: a face is compared with a face (r == %s)", r, Repr(pair[1-i]), r.Symbol())
			}
			return nil, Errorf("cannot apply %s to %s: a face has a name, not a number (compare it with a face: r == %s)", op, r, r.Symbol())
		}
	}
	return nil, Errorf("cannot apply %s to %s and %s", op, TypeName(a), TypeName(b))
}

// isFace reports a roll of one symbolic die or a string: what faceArith takes.
func isFace(v any) bool {
	switch x := v.(type) {
	case *Roll:
		return x.Symbol() != ""
	case string:
		return true
	}
	return false
}

// RollType is the static type of a roll (a rolled table's key, the result of roll).
var RollType = &Type{Kind: TRoll}

// RollExpr rolls parsed dice on the machine's source, reusing a roller per expression. exprx
// calls it for a dice literal.
func (m *Machine) RollExpr(de *dice.Expr) (*Roll, error) {
	if m.Dice == nil {
		return nil, Errorf("no dice source")
	}
	if de.IsRecord() {
		// roll("2dability") or roll(ability): a record has no place in a roll's total.
		return nil, Errorf("%s rolls record dice: write them in the rule, where their roll is a record (let r = %s)", de.Src, de.Src)
	}
	if m.ownDice != nil {
		de = m.withOwnDice(de)
	}
	if m.rollers == nil {
		m.rollers = map[*dice.Expr]*dice.Roller{}
	}
	r := m.rollers[de]
	if r == nil {
		r = dice.NewRoller(de, m.Dice)
		m.rollers[de] = r
	}
	q, given := m.Dice.(*dice.Queue)
	if given = given && q.Left() > 0; given {
		q.FromNext = 0
	}
	b := m.rolls.take()
	res := &b.res
	if err := r.RollInto(res); err != nil {
		return nil, err
	}
	if given && q.FromNext > 0 {
		// Part hand-given, part seeded: the REPL says so, else seeded dice would pass
		// for the player's.
		m.Mixed = append(m.Mixed, fmt.Sprintf("the hand-given results ran out during %s: its last %d came from the seed", res.String(), q.FromNext))
	}
	n := 0
	for _, t := range res.Terms {
		n += len(t.Dice)
	}
	if err := m.Charge(n); err != nil {
		return nil, err
	}
	if m.Trace != nil {
		mark := givenMark(given && q.FromNext == 0)
		if given && q.FromNext > 0 {
			mark = " (partly given)"
		}
		m.trace("roll " + res.String() + mark)
	}
	b.roll.fill(res)
	return &b.roll, nil
}

// RollTotal rolls a dice literal whose faces nobody reads (exprx compiles `3d6 + 2 >= 12`
// to it) and returns its total. It draws the same dice from the source, in the same order,
// as RollExpr, and charges the same steps, but records no faces: unless the dice are traced
// or hand-given results are left (messages about them show the faces), or their number is
// not fixed, where it is RollExpr's total.
func (m *Machine) RollTotal(de *dice.Expr) (int, error) {
	if m.ownDice != nil {
		de = m.withOwnDice(de)
	}
	n, fixed := de.FixedDice()
	// A queue whose hand-given results are used up (the REPL's, always there) only passes
	// its seeded source's dice on, as for RollExpr: nothing to say about faces.
	q, given := m.Dice.(*dice.Queue)
	if given = given && q.Left() > 0; !fixed || given || m.Trace != nil || m.Dice == nil {
		r, err := m.RollExpr(de)
		if err != nil {
			return 0, err
		}
		return r.Total, nil
	}
	if m.rollers == nil {
		m.rollers = map[*dice.Expr]*dice.Roller{}
	}
	r := m.rollers[de]
	if r == nil {
		r = dice.NewRoller(de, m.Dice)
		m.rollers[de] = r
	}
	v, err := r.Total()
	if err != nil {
		return 0, err
	}
	if err := m.Charge(n); err != nil {
		return 0, err
	}
	return v, nil
}

// RollText parses notation given at run time (`roll(pool + "D+2")`), caching the parse.
func (m *Machine) RollText(src string) (*Roll, error) {
	de, ok := m.parsed[src]
	if !ok {
		var err error
		if de, err = dice.Parse(src, m.notationDice()); err != nil {
			if u := m.unmadeError(fmt.Sprintf("roll(%q)", src), err); u != nil {
				return nil, u
			}
			return nil, Errorf("roll(%q): %v", src, err)
		}
		m.cacheParsed(src, de)
	}
	return m.RollExpr(de)
}

// maxParsedRolls bounds the notation texts (and their rollers) a machine keeps parsed.
const maxParsedRolls = 1000

// cacheParsed keeps a parse of notation given at run time. When the cache is full it is
// emptied, with the rollers made for it: a rule building endless distinct texts cannot grow
// a machine without bound, and a handful of texts used again and again stays cached.
func (m *Machine) cacheParsed(src string, de *dice.Expr) {
	if m.parsed == nil || len(m.parsed) >= maxParsedRolls {
		m.parsed = map[string]*dice.Expr{}
		m.rollers = nil
	}
	m.parsed[src] = de
}
