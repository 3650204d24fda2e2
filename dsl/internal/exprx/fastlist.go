package exprx

import (
	"github.com/expr-lang/expr/file"
)

// The builtins on lists and numbers that take no predicate, where expr's own function
// would go through reflect and a recover for the commonest operands.

// minMax compiles max(…) or min(…) (isMax tells which), whose arguments args are already
// compiled (each patched as __nums(__rt, x): a roll is its total): when every argument is an
// int or a list of ints, the greatest or least of them is taken here, which is what expr's
// minMax gives them (it keeps the first value and takes a later one only when Less or More
// says so); anything else, and lists with no number at all, go to expr's function call with
// the same values, its failure the builtin's.
func (c *fastCompiler) minMax(loc file.Location, isMax bool, call func(...any) (any, error), args []fn) fn {
	return func(s *fastState) (any, error) {
		m := s.m
		base, err := pushArgs(s, args)
		if err != nil {
			return nil, err
		}
		vals := m.ArgsFrom(base)
		if v, ok := intMinMax(vals, isMax); ok {
			m.PopArgs(base)
			return v, nil
		}
		v, err := c.callGuarded(loc, call, vals)
		m.PopArgs(base)
		return v, err
	}
}

// intMinMax is the greatest (isMax) or least int of vals, each an int or a list of ints;
// false when some value is neither, or when there is no int at all.
func intMinMax(vals []any, isMax bool) (any, bool) {
	best, found := 0, false
	take := func(x int) {
		if !found || isMax && x > best || !isMax && x < best {
			best, found = x, true
		}
	}
	for _, v := range vals {
		switch x := v.(type) {
		case int:
			take(x)
		case []any:
			for _, e := range x {
				y, ok := e.(int)
				if !ok {
					return nil, false
				}
				take(y)
			}
		default:
			return nil, false
		}
	}
	if !found {
		return nil, false
	}
	return best, true
}
