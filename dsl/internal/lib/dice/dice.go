// Package dice binds dice to the language: d(sides) and roll(notation or die[, count]),
// each roll drawn from the Machine's dice source (seeded or hand-given) and traced, and the
// draws from lists, pick, shuffled and sample, from the same source. Dice
// literals in expressions (3d6, 4d6kh3) are parsed once at load by dsl/internal/exprx and
// rolled by runtime.Machine.RollExpr, not here. It holds no state; it imports runtime and
// stdlib/dice, never the checker or the facade.
package dice

import (
	"fmt"
	"math/bits"
	"reflect"
	"strings"

	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// Builtins are the dice functions rules call, by name. Rolling is not a change of the run's
// state (a rule may roll), so none is marked ChangesState.
func Builtins() map[string]runtime.Builtin {
	return runtime.CheckingNumbers(map[string]runtime.Builtin{
		"d": {Fn: func(m *runtime.Machine, args []any) (any, error) {
			return m.RollSides(runtime.ToInt(args[0]))
		}, Types: []any{new(func(*runtime.Machine, int) int)}},
		"roll": {Fn: func(m *runtime.Machine, args []any) (any, error) {
			switch x := args[0].(type) {
			case string:
				return m.RollText(x)
			case *dice.Code:
				return m.RollText(x.String())
			case dice.Code: // expr passes a pointer argument dereferenced
				return m.RollText(x.String())
			case *dice.Die:
				n := 1
				if len(args) > 1 {
					n = runtime.ToInt(args[1])
				}
				return m.RollDie(x, n)
			}
			return nil, runtime.Errorf("roll takes dice notation or a die, not %s", runtime.Repr(args[0]))
		}, Types: []any{new(func(*runtime.Machine, string) *runtime.Roll), new(func(*runtime.Machine, *dice.Code) *runtime.Roll), new(func(*runtime.Machine, *dice.Die) *runtime.Roll), new(func(*runtime.Machine, *dice.Die, int) *runtime.Roll)}},
		"pick": {Fn: func(m *runtime.Machine, args []any) (any, error) {
			list, err := listArg("pick", args[0])
			if err != nil {
				return nil, err
			}
			if len(list) == 0 {
				return nil, runtime.Errorf("pick from an empty list")
			}
			out, pos, err := draw(m, list, 1)
			if err != nil {
				return nil, err
			}
			m.Tracef("pick of %d %s = %s", len(list), positions(pos), runtime.Repr(out[0]))
			return out[0], nil
		}, Types: []any{new(func(*runtime.Machine, []any) any)}},
		"shuffled": {Fn: func(m *runtime.Machine, args []any) (any, error) {
			list, err := listArg("shuffled", args[0])
			if err != nil {
				return nil, err
			}
			out, pos, err := draw(m, list, len(list))
			if err != nil {
				return nil, err
			}
			m.Tracef("shuffled %d %s = %s", len(list), positions(pos), runtime.Repr(out))
			return out, nil
		}, Types: []any{new(func(*runtime.Machine, []any) []any)}},
		"sample": {Fn: func(m *runtime.Machine, args []any) (any, error) {
			list, err := listArg("sample", args[0])
			if err != nil {
				return nil, err
			}
			n := runtime.ToInt(args[1])
			if n < 0 || n > len(list) {
				return nil, runtime.Errorf("sample %d of a list of %d: between 0 and %d", n, len(list), len(list))
			}
			out, pos, err := draw(m, list, n)
			if err != nil {
				return nil, err
			}
			m.Tracef("sample %d of %d %s = %s", n, len(list), positions(pos), runtime.Repr(out))
			return out, nil
		}, Types: []any{new(func(*runtime.Machine, []any, int) []any)}},
	})
}

// listArg is a builtin's list argument as []any (a range such as 1..6 is a list of ints).
func listArg(fn string, v any) ([]any, error) {
	if l, ok := v.([]any); ok {
		return l, nil
	}
	rv := reflect.ValueOf(v)
	if v == nil || rv.Kind() != reflect.Slice {
		return nil, runtime.Errorf("%s takes a list, not %s", fn, runtime.TypeName(v))
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out, nil
}

// draw takes n elements of list in the order drawn, each a position among the elements left
// (1-based), from the Machine's dice source: a step per element of the list, the new list
// charged to memory. The last element left is taken without a draw (there is no choice),
// so shuffling three elements takes two results. It returns the positions drawn.
func draw(m *runtime.Machine, list []any, n int) ([]any, []int, error) {
	if m.Dice == nil {
		return nil, nil, runtime.Errorf("no dice source")
	}
	if err := m.Charge(len(list)); err != nil {
		return nil, nil, err
	}
	if err := m.ChargeValue(n, n); err != nil {
		return nil, nil, err
	}
	left := newRemaining(len(list))
	out := make([]any, 0, n)
	var pos []int
	for k := range n {
		i, size := 1, len(list)-k
		if size > 1 {
			var err error
			if i, err = dice.RollPosition(m.Dice, size, fmt.Sprintf("a list of %d", size)); err != nil {
				return nil, nil, err
			}
			pos = append(pos, i)
		}
		out = append(out, list[left.take(i)])
	}
	return out, pos, nil
}

// remaining is the set of positions of a list not drawn yet, as a Fenwick tree of counts, so
// that finding and removing the i-th one left takes log n (a shuffle of a long list stays
// linear in its length, give or take the logarithm).
type remaining struct{ tree []int }

func newRemaining(n int) *remaining {
	t := make([]int, n+1)
	for i := 1; i <= n; i++ {
		t[i]++
		if j := i + i&-i; j <= n {
			t[j] += t[i]
		}
	}
	return &remaining{t}
}

// take removes the i-th position left (1-based) and returns its index in the list (0-based).
func (r *remaining) take(i int) int {
	n := len(r.tree) - 1
	p := 0
	for step := 1 << bits.Len(uint(n)); step > 0; step >>= 1 {
		if q := p + step; q <= n && r.tree[q] < i {
			p = q
			i -= r.tree[q]
		}
	}
	for j := p + 1; j <= n; j += j & -j {
		r.tree[j]--
	}
	return p
}

// positions shows the positions drawn as a roll shows its dice: [3, 1].
func positions(pos []int) string {
	s := make([]string, len(pos))
	for i, p := range pos {
		s[i] = fmt.Sprint(p)
	}
	return "[" + strings.Join(s, ", ") + "]"
}
