package runtime

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"strconv"

	"rulesh/stdlib/dice"
)

// The functions rules may call besides expr-lang's builtins (abs, ceil, floor, round, min,
// max, len, sum, filter, map, any, all, count, sort, …). Functions that need the running
// Machine (dice, procedures) are rewritten by the patcher to receive it as first argument.

// Builtin is a function rules call that needs the running Machine (dice, cards, maps,
// entities). A library gives its builtins by the names rules use; the checker registers each
// with expr-lang under its internal name, which receives the Machine as first argument.
type Builtin struct {
	// Fn runs the builtin; its arguments are already of one of the Types.
	Fn func(m *Machine, args []any) (any, error)
	// Types are the signatures expr-lang checks calls against, each a pointer to a func
	// type whose first parameter is *Machine.
	Types []any
}

// InternalName is the name a builtin is registered under with expr-lang: calls are rewritten
// to it, with the Machine added as first argument. Error messages turn it back (publicName).
func InternalName(name string) string { return "__" + name }

// Library is the set of builtins a Program was checked against, by the names rules use. It
// is gathered once by whoever assembles the language (package dsl) and only read after.
type Library struct {
	Builtins map[string]Builtin
}

// Core are the builtins of the language itself, beside the libraries.
func Core() map[string]Builtin {
	return map[string]Builtin{
		"entities": {Fn: func(m *Machine, args []any) (any, error) {
			return m.EntitiesOf(args[0].(string))
		}, Types: []any{new(func(*Machine, string) []any)}},
	}
}

func ToInt(v any) int {
	switch x := v.(type) {
	case int:
		return x
	case float64:
		return int(x)
	}
	return 0
}

func ToFloat(v any) float64 {
	switch x := v.(type) {
	case int:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

func (m *Machine) RollSides(sides int) (int, error) {
	if m.Dice == nil {
		return 0, errors.New("no dice source")
	}
	if sides < 1 || sides > 1_000_000 {
		return 0, fmt.Errorf("a die has 1 to 1000000 sides, not %d", sides)
	}
	return m.Dice.Roll(sides)
}

func (m *Machine) EntitiesOf(kind string) ([]any, error) {
	k, ok := m.prog.Globals[kind].(*Kind)
	if !ok {
		return nil, fmt.Errorf("unknown kind %s", kind)
	}
	if err := m.Charge(len(m.prog.Entities)); err != nil {
		return nil, err
	}
	var out []any
	for _, e := range m.prog.Entities {
		if e.Kind == k {
			out = append(out, m.globals[e.Name])
		}
	}
	return out, nil
}

// intArith is exact arithmetic on whole numbers (floats lose precision past 2^53); ok is
// false for what it leaves to the float path (/, and % by zero).
func intArith(op string, x, y int) (any, bool) {
	switch op {
	case "+":
		return x + y, true
	case "-":
		return x - y, true
	case "*":
		return x * y, true
	case "%":
		if y != 0 {
			return x % y, true
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
	x, xi := num(a)
	y, yi := num(b)
	if _, ok := Number(a); !ok {
		return nil, fmt.Errorf("cannot apply %s to %s and %s", op, TypeName(a), TypeName(b))
	}
	if _, ok := Number(b); !ok {
		return nil, fmt.Errorf("cannot apply %s to %s and %s", op, TypeName(a), TypeName(b))
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
				return nil, errors.New("division by zero")
			}
			r = math.Mod(x, y)
		}
		if ints {
			return int(r), nil
		}
		return r, nil
	case "/":
		if y == 0 {
			return nil, errors.New("division by zero")
		}
		return x / y, nil
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
	return nil, fmt.Errorf("unknown operator %s", op)
}

// rollDie rolls n dice of a declared kind.
func (m *Machine) RollDie(d *dice.Die, n int) (*Roll, error) {
	if n < 1 || n > dice.MaxCount {
		return nil, fmt.Errorf("roll %d dice: between 1 and %d", n, dice.MaxCount)
	}
	key := strconv.Itoa(n) + "d[" + d.Name + "]"
	de, ok := m.parsed[key]
	if !ok {
		de = &dice.Expr{Src: key, Root: &dice.Dice{Count: n, Die: d, Text: key}}
		m.cacheParsed(key, de)
	}
	return m.RollExpr(de)
}
