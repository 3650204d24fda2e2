package runtime

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"

	"rulesh/stdlib/dice"
)

// The builtins rules may call besides expr-lang's own (abs, ceil, floor, round, min, max,
// len, sum, filter, map, any, all, count, sort, …), and the primitives the libraries bind
// them to. Calls of builtins that need the running Machine (dice, cards, procedures) are
// rewritten by exprx to receive it as first argument.

// Builtin is a function rules call that needs the running Machine (dice, cards, maps,
// entities). A library gives its builtins by the names rules use; exprx registers each with
// expr-lang under its internal name, which receives the Machine as first argument.
type Builtin struct {
	// Fn runs the builtin; its arguments are already of one of the Types.
	Fn func(m *Machine, args []any) (any, error)
	// Types are the signatures expr-lang checks calls against, each a pointer to a func
	// type whose first parameter is *Machine.
	Types []any
	// ChangesState is set for a builtin that changes the run's state (it moves cards, sets
	// an allowance): a rule or a table may not call it, the checker says so at load. Rolling
	// dice is not a change of state in this sense: a builtin that only rolls leaves it unset.
	ChangesState bool
	// Callbacks are the arguments where a rule passes a procedure the builtin calls back.
	// The checker resolves the procedure there at load and refuses one whose parameters do
	// not fit the call the builtin makes.
	Callbacks []Callback
	// List, when set, is Fn for a builtin whose result is a list, without boxing it: the
	// predicates and loops that walk the result of a call with constant arguments
	// (entities("Poste")) take it from here. It must give what Fn gives.
	List func(m *Machine, args []any) ([]any, error)
}

// Callback is an argument of a builtin that takes a procedure, and how the builtin calls it.
type Callback struct {
	// Arg is the argument's index as rules write the call (the Machine not counted).
	Arg int
	// Args, when not 0, limits the callback to calls with that many arguments (a builtin
	// whose signatures call back differently).
	Args int
	// Params names what the builtin passes, in order: their count is the arity it calls with.
	Params []string
	// Older, when set, marks a form kept for older rule files: the checker warns with it as
	// the detail (how to write the call today).
	Older string
}

// Applies reports whether the callback concerns a call with n arguments.
func (cb Callback) Applies(n int) bool { return cb.Arg < n && (cb.Args == 0 || cb.Args == n) }

// Fits reports whether p can be called with the callback's arguments.
func (cb Callback) Fits(p *Proc) bool {
	return p.MinArg <= len(cb.Params) && len(cb.Params) <= len(p.Params)
}

// Mismatch says why p does not fit the call fn makes of it: "coût takes 2 parameters;
// path calls it with 3: (unit, from, to)".
func (cb Callback) Mismatch(fn string, p *Proc) string {
	takes := fmt.Sprint(len(p.Params))
	if p.MinArg < len(p.Params) {
		takes = fmt.Sprintf("%d to %d", p.MinArg, len(p.Params))
	}
	noun := "parameters"
	if takes == "1" {
		noun = "parameter"
	}
	return fmt.Sprintf("%s takes %s %s; %s calls it with %d: (%s)", p.Name, takes, noun, fn, len(cb.Params), strings.Join(cb.Params, ", "))
}

// CallbackProc reads the argument of a builtin where a procedure is expected: a procedure
// value (resolved at load), or a procedure's name computed as a string (looked up now, as
// rules wrote it before procedures were values). An empty name is no procedure (nil).
func (m *Machine) CallbackProc(fn string, cb Callback, v any) (*Proc, error) {
	var p *Proc
	switch x := v.(type) {
	case *Proc:
		p = x
	case string:
		if x == "" {
			return nil, nil
		}
		if p = m.Proc(x); p == nil {
			return nil, Errorf("%s: no procedure %s", fn, x)
		}
	default:
		return nil, Errorf("%s: expected a procedure, got %s", fn, Repr(v))
	}
	if !cb.Fits(p) {
		return nil, NewError(cb.Mismatch(fn, p))
	}
	if p.Verb == "action" {
		return nil, Errorf("%s is an action: %s calls rules, which cannot change the state (declare it `rule %s(…)`)", p.Name, fn, p.Name)
	}
	return p, nil
}

// InternalName is the name a builtin is registered under with expr-lang: calls are rewritten
// to it, with the Machine added as first argument. Error messages turn it back (publicName).
func InternalName(name string) string { return "__" + name }

// Library is the set of builtins a Program was checked against, by the names rules use. It
// is gathered once by whoever assembles the language (package dsl) and only read after.
type Library struct {
	Builtins map[string]Builtin
}

// Core are the builtins of the language itself, beside the libraries; they only read.
func Core() map[string]Builtin {
	return map[string]Builtin{
		"entities": {Fn: func(m *Machine, args []any) (any, error) {
			return m.entitiesBoxed(args[0].(string))
		}, Types: []any{new(func(*Machine, string) []any)},
			List: func(m *Machine, args []any) ([]any, error) {
				return m.EntitiesOf(args[0].(string))
			}},
	}
}

// ToInt is a number's value as an int (a float truncated); 0 for anything else, so callers
// pass it only a number: one expr-lang typed as such, or an argument a library's
// CheckingNumbers has checked (a value of type any gets past expr-lang).
func ToInt(v any) int {
	switch x := v.(type) {
	case int:
		return x
	case float64:
		return int(x)
	}
	return 0
}

// ToFloat is a number's value as a float; 0 for anything else, as ToInt.
func ToFloat(v any) float64 {
	switch x := v.(type) {
	case int:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

// RollSides rolls one die of sides faces (1 to 1000000) from the run's source of dice. For
// the dice library.
func (m *Machine) RollSides(sides int) (int, error) {
	if m.Dice == nil {
		return 0, NewError("no dice source")
	}
	if sides < 1 || sides > 1_000_000 {
		return 0, Errorf("a die has 1 to 1000000 sides, not %d", sides)
	}
	if m.Trace == nil {
		return m.Dice.Roll(sides)
	}
	q, given := m.Dice.(*dice.Queue)
	given = given && q.Left() > 0
	v, err := m.Dice.Roll(sides)
	if err == nil {
		m.trace(fmt.Sprintf("d(%d) = %d%s", sides, v, givenMark(given)))
	}
	return v, err
}

// givenMark marks a traced draw whose result was given by hand.
func givenMark(given bool) string {
	if given {
		return " (given)"
	}
	return ""
}

// EntitiesOf lists the values of the entities of a kind, in declaration order, a step per
// entity declared: the builtin entities(kind). The list is the machine's own, the same from
// call to call while no global binding changes (a list is never changed in place: an
// assignment or a builtin makes a new one), so asking again looks up and copies nothing.
func (m *Machine) EntitiesOf(kind string) ([]any, error) {
	e, err := m.entityList(kind)
	if err != nil {
		return nil, err
	}
	return e.list, nil
}

// entitiesBoxed is EntitiesOf as the builtin gives it, boxed once per list.
func (m *Machine) entitiesBoxed(kind string) (any, error) {
	e, err := m.entityList(kind)
	if err != nil {
		return nil, err
	}
	return e.boxed, nil
}

// entityList is a machine's list of the entities of one kind (EntitiesOf), made when the
// global bindings were at version.
type entityList struct {
	kind    string
	version int
	list    []any
	boxed   any
}

// entityList finds or makes the list of the entities of kind, charged as EntitiesOf is. The
// lists are few (a kind per entities call written in the rules): they are searched in turn.
func (m *Machine) entityList(kind string) (*entityList, error) {
	for i := range m.entityLists {
		if e := &m.entityLists[i]; e.kind == kind {
			if e.version != m.version {
				break // the bindings changed (a reload): made anew below
			}
			if err := m.Charge(len(m.prog.Entities)); err != nil {
				return nil, err
			}
			return e, nil
		}
	}
	k, ok := m.prog.Globals[kind].(*Kind)
	if !ok {
		return nil, Errorf("unknown kind %s", kind)
	}
	if err := m.Charge(len(m.prog.Entities)); err != nil {
		return nil, err
	}
	n := 0 // counted first: one list of the right size, not the growth of an append
	for _, e := range m.prog.Entities {
		if e.Kind == k {
			n++
		}
	}
	var out []any
	if n > 0 {
		out = make([]any, 0, n)
		for _, e := range m.prog.Entities {
			if e.Kind == k {
				out = append(out, m.globals[e.Name])
			}
		}
	}
	made := entityList{kind: kind, version: m.version, list: out, boxed: out}
	for i := range m.entityLists {
		if m.entityLists[i].kind == kind {
			m.entityLists[i] = made
			return &m.entityLists[i], nil
		}
	}
	m.entityLists = append(m.entityLists, made)
	return &m.entityLists[len(m.entityLists)-1], nil
}

//go:generate go run boxedints_gen.go

// minBoxedInt is the first int of boxedInts (boxedints_table.go, written by boxedints_gen.go).
const minBoxedInt = -256

// Int is v boxed, without an allocation from -256 to 1023.
func Int(v int) any {
	if i := uint(v - minBoxedInt); i < uint(len(boxedInts)) {
		return boxedInts[i]
	}
	return v
}

// Float is v boxed, without an allocation for a whole number from -256 to 1023 (negative
// zero keeps its sign, boxed as any other float).
func Float(v float64) any {
	if i := uint(int(v) - minBoxedInt); i < uint(len(boxedFloats)) && float64(int(v)) == v && (v != 0 || !math.Signbit(v)) {
		return boxedFloats[i]
	}
	return v
}

// intArith is exact arithmetic on whole numbers (floats lose precision past 2^53); ok is
// false for what it leaves to the float path (/, and % by zero).
func intArith(op string, x, y int) (any, bool) {
	switch op {
	case "+":
		return Int(x + y), true
	case "-":
		return Int(x - y), true
	case "*":
		return Int(x * y), true
	case "%":
		if y != 0 {
			return Int(x % y), true
		}
	case "==":
		return x == y, true
	case "!=":
		return x != y, true
	}
	return compare(op, x, y)
}

// compare applies an ordering operator (<, <=, >, >=); ok is false for any other.
func compare[T cmp.Ordered](op string, x, y T) (any, bool) {
	switch op {
	case "<":
		return x < y, true
	case "<=":
		return x <= y, true
	case ">":
		return x > y, true
	case ">=":
		return x >= y, true
	}
	return nil, false
}

// RollArith applies an arithmetic or comparison operator to two numbers, a roll standing for
// its total: exact on whole numbers, float otherwise, / always float. exprx's operator
// overloads for rolls call it.
func RollArith(op string, a, b any) (any, error) {
	num := func(v any) (float64, bool) {
		switch x := v.(type) {
		case *Roll:
			return float64(x.Total), true
		case int:
			return float64(x), true
		case float64:
			return x, false
		}
		return 0, false
	}
	if isFace(a) || isFace(b) {
		return faceArith(op, a, b)
	}
	x, xi := num(a)
	y, yi := num(b)
	if _, ok := Number(a); !ok {
		return nil, Errorf("cannot apply %s to %s and %s", op, TypeName(a), TypeName(b))
	}
	if _, ok := Number(b); !ok {
		return nil, Errorf("cannot apply %s to %s and %s", op, TypeName(a), TypeName(b))
	}
	ints := xi && yi
	if ints {
		if r, ok := intArith(op, int(Totals(a).(int)), int(Totals(b).(int))); ok {
			return r, nil
		}
	}
	switch op {
	case "+", "-", "*", "%":
		var r float64
		switch op {
		case "+":
			r = x + y
		case "-":
			r = x - y
		case "*":
			r = x * y
		case "%":
			if y == 0 {
				return nil, NewError("division by zero")
			}
			r = math.Mod(x, y)
		}
		if ints {
			return int(r), nil
		}
		return Finite(r, op)
	case "/":
		if y == 0 {
			return nil, NewError("division by zero")
		}
		return Finite(x/y, op)
	case "**", "^":
		return Finite(math.Pow(x, y), op)
	case "<":
		return x < y, nil
	case "<=":
		return x <= y, nil
	case ">":
		return x > y, nil
	case ">=":
		return x >= y, nil
	case "==":
		return x == y, nil
	case "!=":
		return x != y, nil
	}
	return nil, Errorf("unknown operator %s", op)
}

// Finite returns x, or an error when it is infinite or not a number: a float operation (op)
// that overflowed (1e308 * 10), or that has no answer (0 ** -1), must not give a value a rule
// would carry on with (+Inf is no odds).
func Finite(x float64, op string) (any, error) {
	if math.IsInf(x, 0) {
		return nil, fmt.Errorf("%s gives a number too large (%s)", op, FormatFloat(x))
	}
	if math.IsNaN(x) {
		return nil, fmt.Errorf("%s gives no number (NaN)", op)
	}
	return Float(x), nil
}

// RollDie rolls n dice of a declared kind, the parsed notation cached on the Machine. For the
// dice library. A pool of no dice is an empty roll (total 0, no faces), as "0d6" is.
func (m *Machine) RollDie(d *dice.Die, n int) (*Roll, error) {
	if n < 0 || n > dice.MaxCount {
		return nil, Errorf("roll %d dice: between 0 and %d", n, dice.MaxCount)
	}
	key := strconv.Itoa(n) + "d[" + d.Name + "]"
	if d.Record {
		return nil, Errorf("%s has records of counts for faces: roll it in the rule, where its roll is a record (let r = %s)", d.Name, key)
	}
	de, ok := m.parsed[key]
	if !ok {
		de = &dice.Expr{Src: key, Root: &dice.Dice{Count: n, Die: d, Text: key}}
		m.cacheParsed(key, de)
	}
	return m.RollExpr(de)
}
