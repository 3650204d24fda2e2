package exprx

import (
	"math"
	"slices"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"

	"rulesh/dsl/internal/lib/core"
	"rulesh/dsl/internal/runtime"
)

// The number operators' overloads (__num_add, __roll_lt, …), the checks the patches wrap
// around numbers (__finite, __num) and `in` of a list, called without the guarded call's
// argument stack, defer and recover: each is computed here, or its function called as it
// is, when its operands are values it cannot panic on (an int, a float, a roll of numbered
// dice), else by the guarded call, as before. A strike of Mortebrume makes about
// twenty-five of these calls.

// quickCall compiles the call of the configuration's function name with the compiled
// arguments args (call is the function) without the guarded call's layers, or returns nil
// when name is none of those it knows.
func (c *fastCompiler) quickCall(n *ast.CallNode, name string, args []fn, call func(...any) (any, error), loc file.Location) fn {
	switch {
	case len(args) == 2 && (strings.HasPrefix(name, "__num_") || strings.HasPrefix(name, "__roll_")):
		op, ok := opOfOverload(name)
		if !ok {
			return nil
		}
		if isComparison(op) && strings.HasPrefix(name, "__num_") {
			return quickCompare(op, args)
		}
		return c.quickArith(op, args, call, loc)
	case name == "__finite" && len(args) == 2:
		// __finite(name, x): the name is the builtin's, a constant the patch wrote.
		what, ok := n.Arguments[0].(*ast.StringNode)
		if !ok {
			return nil
		}
		arg := args[1]
		return func(s *fastState) (any, error) {
			v, err := arg(s)
			if err != nil {
				return nil, err
			}
			if f, ok := v.(float64); ok {
				if v, err = runtime.Finite(f, what.Value); err != nil {
					return nil, c.fail(loc, err)
				}
			}
			return v, nil
		}
	case name == "__in" && len(args) == 3 && isMachine(n.Arguments[0]):
		return c.quickIn(args[1], args[2], call, loc)
	case name == "__num" && len(args) == 1:
		arg := args[0]
		return func(s *fastState) (any, error) {
			v, err := arg(s)
			if err != nil {
				return nil, err
			}
			// Totals panics on a nil roll: that one goes to the guarded call.
			if t, ok := runtime.TotalsOf(v); ok {
				return t, nil
			}
			m := s.m
			base := m.ArgBase()
			m.PushArg(v)
			v, err = c.callGuarded(loc, call, m.ArgsFrom(base))
			m.PopArgs(base)
			return v, err
		}
	}
	return c.quickCore(name, args, call, loc)
}

// opOfOverload is the operator a number or roll overload's name stands for: the one whose
// numOps or rollOpName name it is.
func opOfOverload(name string) (string, bool) {
	for _, op := range overloadOperators {
		if name == rollOpName(op) || slices.Contains(numOps(op), name) {
			return op, true
		}
	}
	return "", false
}

// isComparison reports whether op is one of the comparison operators.
func isComparison(op string) bool {
	switch op {
	case "<", "<=", ">", ">=", "==", "!=":
		return true
	}
	return false
}

// quickCompare is a numOp comparison: core.Compare, which reads any value and cannot fail.
func quickCompare(op string, args []fn) fn {
	l, r := args[0], args[1]
	return func(s *fastState) (any, error) {
		a, err := l(s)
		if err != nil {
			return nil, err
		}
		b, err := r(s)
		if err != nil {
			return nil, err
		}
		return core.Compare(op, a, b), nil
	}
}

// quickArith is an arithmetic overload, or a roll's comparison: runtime.RollArith, called
// as it is when both operands are numbers it reads without panicking or naming a face; the
// float operations of two floats, or a float and an int, and the whole operations (+, -, *
// and comparisons) of rolls and ints, computed here as RollArith computes them.
func (c *fastCompiler) quickArith(op string, args []fn, call func(...any) (any, error), loc file.Location) fn {
	l, r := args[0], args[1]
	var float func(x, y float64) (float64, bool)
	switch op {
	case "+":
		float = func(x, y float64) (float64, bool) { return x + y, true }
	case "-":
		float = func(x, y float64) (float64, bool) { return x - y, true }
	case "*":
		float = func(x, y float64) (float64, bool) { return x * y, true }
	case "/":
		// A division by zero is RollArith's error.
		float = func(x, y float64) (float64, bool) { return x / y, y != 0 }
	}
	var whole func(x, y int) any
	switch op {
	case "+":
		whole = func(x, y int) any { return runtime.Int(x + y) }
	case "-":
		whole = func(x, y int) any { return runtime.Int(x - y) }
	case "*":
		whole = func(x, y int) any { return runtime.Int(x * y) }
	case "<":
		whole = func(x, y int) any { return x < y }
	case "<=":
		whole = func(x, y int) any { return x <= y }
	case ">":
		whole = func(x, y int) any { return x > y }
	case ">=":
		whole = func(x, y int) any { return x >= y }
	case "==":
		whole = func(x, y int) any { return x == y }
	case "!=":
		whole = func(x, y int) any { return x != y }
	}
	return func(s *fastState) (any, error) {
		a, err := l(s)
		if err != nil {
			return nil, err
		}
		b, err := r(s)
		if err != nil {
			return nil, err
		}
		if whole != nil {
			// A roll and an int, or two: RollArith's exact arithmetic on their totals.
			if x, ok := wholeOperand(a); ok {
				if y, ok := wholeOperand(b); ok {
					return whole(x, y), nil
				}
			}
		}
		if float != nil {
			if x, y, ok := floatPair(a, b); ok {
				if v, ok := float(x, y); ok && !math.IsInf(v, 0) && !math.IsNaN(v) {
					return runtime.Float(v), nil
				}
			}
		}
		if plainNumber(a) && plainNumber(b) {
			v, err := runtime.RollArith(op, a, b)
			if err != nil {
				return nil, c.fail(loc, err)
			}
			return v, nil
		}
		return c.callGuarded2(s.m, loc, call, a, b)
	}
}

// floatPair returns the operands of a float operation in RollArith: two numbers, at least
// one a float, the other a float or an int (a roll is for RollArith).
func floatPair(a, b any) (x, y float64, ok bool) {
	switch a := a.(type) {
	case float64:
		switch b := b.(type) {
		case float64:
			return a, b, true
		case int:
			return a, float64(b), true
		}
	case int:
		if b, ok := b.(float64); ok {
			return float64(a), b, true
		}
	}
	return 0, 0, false
}

// plainNumber reports a value RollArith takes as a number without panicking or calling it
// a face: an int, a float, a roll with no symbolic die.
func plainNumber(v any) bool {
	switch x := v.(type) {
	case int, float64:
		return true
	case *runtime.Roll:
		return x != nil && len(x.Symbols) == 0
	}
	return false
}

// quickIn is `x in l` (core.In) for a needle that is an int, a string or a bool and a list
// whose elements are all of the needle's type: compared here as core.In compares them (its
// charge of a step per element is the same, made after the comparisons, which change
// nothing). Any other needle, collection or element goes to the guarded call of core.In,
// before anything is charged.
func (c *fastCompiler) quickIn(needle, coll fn, call func(...any) (any, error), loc file.Location) fn {
	return func(s *fastState) (any, error) {
		x, err := needle(s)
		if err != nil {
			return nil, err
		}
		l, err := coll(s)
		if err != nil {
			return nil, err
		}
		m := s.m
		if list, ok := l.([]any); ok {
			if found, ok := inSameType(x, list); ok {
				if err := m.Charge(len(list)); err != nil {
					return nil, c.fail(loc, err)
				}
				return found, nil
			}
		}
		base := m.ArgBase()
		m.PushArg(m)
		m.PushArg(x)
		m.PushArg(l)
		v, err := c.callGuarded(loc, call, m.ArgsFrom(base))
		m.PopArgs(base)
		return v, err
	}
}

// inSameType reports whether x is in list, when x is an int, a string or a bool and every
// element of list up to the one equal to x is of its type (ok): core.In compares these by
// ==, and stops at the first equal.
func inSameType(x any, list []any) (found, ok bool) {
	switch x := x.(type) {
	case int:
		return inOf(x, list)
	case string:
		return inOf(x, list)
	case bool:
		return inOf(x, list)
	}
	return false, false
}

// inOf is inSameType for a needle of type T.
func inOf[T comparable](x T, list []any) (found, ok bool) {
	for _, e := range list {
		y, same := e.(T)
		if !same {
			return false, false
		}
		if x == y {
			return true, true
		}
	}
	return false, true
}

// wholeOperand is the whole number RollArith computes with exactly for an operand: an int,
// or the total of a roll with no symbolic die.
func wholeOperand(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case *runtime.Roll:
		if x != nil && len(x.Symbols) == 0 {
			return x.Total, true
		}
	}
	return 0, false
}
