// Package dice binds dice to the language: d(sides) and roll(notation or die[, count]),
// each roll drawn from the Machine's dice source (seeded or hand-given) and traced. Dice
// literals in expressions (3d6, 4d6kh3) are parsed once at load by dsl/internal/exprx and
// rolled by runtime.Machine.RollExpr, not here. It holds no state; it imports runtime and
// stdlib/dice, never the checker or the facade.
package dice

import (
	"fmt"

	"rulesh/dsl/runtime"
	"rulesh/stdlib/dice"
)

// Builtins are the dice functions rules call, by name. Rolling is not a change of the run's
// state (a rule may roll), so none is marked ChangesState.
func Builtins() map[string]runtime.Builtin {
	return map[string]runtime.Builtin{
		"d": {Fn: func(m *runtime.Machine, args []any) (any, error) {
			return m.RollSides(runtime.ToInt(args[0]))
		}, Types: []any{new(func(*runtime.Machine, int) int)}},
		"roll": {Fn: func(m *runtime.Machine, args []any) (any, error) {
			switch x := args[0].(type) {
			case string:
				return m.RollText(x)
			case *dice.Die:
				n := 1
				if len(args) > 1 {
					n = runtime.ToInt(args[1])
				}
				return m.RollDie(x, n)
			}
			return nil, fmt.Errorf("roll takes dice notation or a die, not %s", runtime.Repr(args[0]))
		}, Types: []any{new(func(*runtime.Machine, string) *runtime.Roll), new(func(*runtime.Machine, *dice.Die) *runtime.Roll), new(func(*runtime.Machine, *dice.Die, int) *runtime.Roll)}},
	}
}
