package core

import (
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// CodeArith is code + x and code - x (sign 1 or -1) for a dice code (a value of type dice):
// a code adds or takes away the dice and bonus of another of the same sides (4D+1 + 1D is
// 5D+1), a whole number the bonus (4D+2 - 1 is 4D+1); a number plus a code (1 + 4D) is the
// code plus the number.
func CodeArith(sign int, a, b any) (*dice.Code, error) {
	switch x := a.(type) {
	case *dice.Code:
		if y, ok := b.(*dice.Code); ok {
			return x.Add(y, sign)
		}
		return x.Plus(sign * runtime.ToInt(b)), nil
	}
	c, ok := b.(*dice.Code)
	if !ok {
		return nil, runtime.Errorf("expected dice, got %s", runtime.Repr(b))
	}
	return c.Plus(runtime.ToInt(a)), nil
}

// CodeEntry is the entry of a typed map of dice codes read by a rule: a code has no zero, so
// a missing key (nil) is an error; a string entry is read as a code.
func CodeEntry(v any) (any, error) {
	if v == nil {
		return nil, runtime.Errorf("no code for this key (a map of dice codes has no default: set the entry, or test it with in)")
	}
	return runtime.Conform(v, &runtime.Type{Kind: runtime.TDice})
}
