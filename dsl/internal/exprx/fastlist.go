package exprx

import (
	"unicode/utf8"

	"github.com/expr-lang/expr/file"

	"rulesh/stdlib/cards"
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
	if len(args) == 2 {
		// max(0, x), min(x, y): the two values compared here when both are ints.
		first, second := args[0], args[1]
		return func(s *fastState) (any, error) {
			x, err := first(s)
			if err != nil {
				return nil, err
			}
			y, err := second(s)
			if err != nil {
				return nil, err
			}
			if a, ok := x.(int); ok {
				if b, ok := y.(int); ok {
					if isMax == (b > a) {
						return b, nil
					}
					return a, nil
				}
			}
			return c.callGuarded2(s.m, loc, call, x, y)
		}
	}
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
	for _, v := range vals {
		switch x := v.(type) {
		case int:
			if !found || isMax == (x > best) && x != best {
				best, found = x, true
			}
		case []any:
			for _, e := range x {
				y, ok := e.(int)
				if !ok {
					return nil, false
				}
				if !found || isMax == (y > best) && y != best {
					best, found = y, true
				}
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

// concat compiles concat(…), its arguments already compiled: lists of values and a pile's
// cards are joined here into a list of their total size (none when they are all empty, as
// expr's concat leaves it), charged that size as expr's is; anything else goes to expr's
// function (safe), with the same values.
func (c *fastCompiler) concat(loc file.Location, safe func(...any) (any, uint, error), args []fn) fn {
	return func(s *fastState) (any, error) {
		m := s.m
		base, err := pushArgs(s, args)
		if err != nil {
			return nil, err
		}
		vals := m.ArgsFrom(base)
		out, size, ok := concatLists(vals)
		if !ok {
			v, err := c.runSafe(s, loc, safe, vals)
			m.PopArgs(base)
			return v, err
		}
		m.PopArgs(base)
		if err := c.grow(s, loc, size); err != nil {
			return nil, err
		}
		return out, nil
	}
}

// concatLists joins vals, each a list of values or of cards, as expr's concat does; false
// when there is none, or some value is neither.
func concatLists(vals []any) (any, uint, bool) {
	total := 0
	for _, v := range vals {
		switch x := v.(type) {
		case []any:
			total += len(x)
		case []*cards.Card:
			total += len(x)
		default:
			return nil, 0, false
		}
	}
	if len(vals) == 0 {
		return nil, 0, false
	}
	var arr []any
	if total > 0 {
		arr = make([]any, 0, total)
		for _, v := range vals {
			switch x := v.(type) {
			case []any:
				arr = append(arr, x...)
			case []*cards.Card:
				for _, cd := range x {
					arr = append(arr, cd)
				}
			}
		}
	}
	return arr, uint(total), true
}

// runSafe calls one of expr's builtins that say what they built (Safe) as the VM does: its
// error or a panic is the builtin's failure, and what it built is charged to memory.
func (c *fastCompiler) runSafe(s *fastState, loc file.Location, safe func(...any) (any, uint, error), vals []any) (any, error) {
	var out any
	var mem uint
	if _, err := c.guard(loc, func() any {
		var ferr error
		out, mem, ferr = safe(vals...)
		if ferr != nil {
			panic(ferr)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	if err := c.grow(s, loc, mem); err != nil {
		return nil, err
	}
	return out, nil
}

// length is len(v) for the values it is commonly given, as expr's Len counts them (a
// string's runes, a list's or a map's entries); false for anything else.
func length(v any) (int, bool) {
	switch x := v.(type) {
	case []any:
		return len(x), true
	case []*cards.Card:
		return len(x), true
	case map[string]any:
		return len(x), true
	case string:
		return utf8.RuneCountInString(x), true
	}
	return 0, false
}

// sliceList is a[lo:hi] for a list of values and int bounds, as expr's Slice cuts it (a
// negative bound counts from the end, and the bounds are clamped to the list); false for
// anything else.
func sliceList(a, lo, hi any) (any, bool) {
	l, ok1 := a.([]any)
	from, ok2 := lo.(int)
	to, ok3 := hi.(int)
	if !ok1 || !ok2 || !ok3 {
		return nil, false
	}
	n := len(l)
	if from < 0 {
		from = max(n+from, 0)
	}
	if to < 0 {
		to = max(n+to, 0)
	}
	to = min(to, n)
	from = min(from, to)
	return l[from:to], true
}
