// Package cards binds the card library to the language: the builtins that shuffle, draw,
// deal, play, move and pass cards between piles, with their argument checks and bounds.
// It reads arguments and calls the Machine's pile primitives, which keep the undo journal;
// it holds no state. It imports runtime and stdlib/cards, never the checker or the facade.
package cards

import (
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/cards"
)

// pilesAndCard reads (from, to, card) arguments.
func pilesAndCard(m *runtime.Machine, a []any) (*cards.Pile, *cards.Pile, *cards.Card, error) {
	ps, err := pileArgs(a, 2)
	if err != nil {
		return nil, nil, nil, err
	}
	c, err := m.AsCard(a[2])
	return ps[0], ps[1], c, err
}

// pileArgs reads the first n arguments of a card function as piles.
func pileArgs(a []any, n int) ([]*cards.Pile, error) {
	out := make([]*cards.Pile, n)
	for i := range out {
		p, err := asPile(a[i])
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

func asPile(v any) (*cards.Pile, error) {
	if p, ok := v.(*cards.Pile); ok && p != nil {
		return p, nil
	}
	return nil, runtime.Errorf("expected a pile, got %s", runtime.Repr(v))
}

// chargeCards checks a count of cards and charges moving them.
func chargeCards(m *runtime.Machine, fn string, n int) error {
	if n < 0 {
		return runtime.Errorf("%s %d cards: the count cannot be negative", fn, n)
	}
	return m.Charge(n)
}

// Builtins are the card functions rules call, by name: shuffle, draw, deal, play, move,
// allow, pass, passes, card and new_pile. Every change to a pile goes through the *runtime.Machine,
// which journals it so that a failed call puts the cards back. Those that change a pile or an
// allowance are marked ChangesState: an action may call them, a rule may not.
func Builtins() map[string]runtime.Builtin {
	return runtime.CheckingNumbers(map[string]runtime.Builtin{
		"shuffle": {Fn: func(m *runtime.Machine, a []any) (any, error) {
			p, err := asPile(a[0])
			if err != nil {
				return nil, err
			}
			return p, m.Shuffle(p)
		}, Types: []any{new(func(*runtime.Machine, *cards.Pile) *cards.Pile)}, ChangesState: true},
		"draw": {Fn: func(m *runtime.Machine, a []any) (any, error) {
			p, err := asPile(a[0])
			if err != nil {
				return nil, err
			}
			if len(a) == 1 {
				return m.DrawOne(p)
			}
			n := runtime.ToInt(a[1])
			if err := chargeCards(m, "draw", n); err != nil {
				return nil, err
			}
			out := make([]any, 0, n)
			for i := 0; i < n; i++ {
				c, err := m.DrawOne(p)
				if err != nil {
					return nil, err
				}
				out = append(out, c)
			}
			return out, nil
		}, Types: []any{new(func(*runtime.Machine, *cards.Pile) *cards.Card), new(func(*runtime.Machine, *cards.Pile, int) []any)}, ChangesState: true},
		"deal": {Fn: func(m *runtime.Machine, a []any) (any, error) {
			ps, err := pileArgs(a, 2)
			if err != nil {
				return nil, err
			}
			from, to := ps[0], ps[1]
			n := runtime.ToInt(a[2])
			if err := chargeCards(m, "deal", n); err != nil {
				return nil, err
			}
			for i := 0; i < n; i++ {
				c, err := m.DrawOne(from)
				if err != nil {
					return nil, err
				}
				m.SetCards(to, to.With(c, false))
			}
			return to, nil
		}, Types: []any{new(func(*runtime.Machine, *cards.Pile, *cards.Pile, int) *cards.Pile)}, ChangesState: true},
		"play": {Fn: func(m *runtime.Machine, a []any) (any, error) {
			hand, err := asPile(a[0])
			if err != nil {
				return nil, err
			}
			c, err := m.AsCard(a[1])
			if err != nil {
				return nil, err
			}
			rest, err := hand.Take(c)
			if err != nil {
				return nil, runtime.Errorf("cannot play %s: it is not in %s", c, hand.Name)
			}
			m.SetCards(hand, rest)
			if len(a) > 2 {
				to, err := asPile(a[2])
				if err != nil {
					return nil, err
				}
				m.SetCards(to, to.With(c, true))
			}
			return c, nil
		}, Types: []any{new(func(*runtime.Machine, *cards.Pile, any) *cards.Card), new(func(*runtime.Machine, *cards.Pile, any, *cards.Pile) *cards.Card)}, ChangesState: true},
		"move": {Fn: func(m *runtime.Machine, a []any) (any, error) {
			from, to, c, err := pilesAndCard(m, a)
			if err != nil {
				return nil, err
			}
			return c, m.MoveCard(from, to, c)
		}, Types: []any{new(func(*runtime.Machine, *cards.Pile, *cards.Pile, any) *cards.Card)}, ChangesState: true},
		"allow": {Fn: func(m *runtime.Machine, a []any) (any, error) {
			ps, err := pileArgs(a, 2)
			if err != nil {
				return nil, err
			}
			from, to := ps[0], ps[1]
			if n := runtime.ToInt(a[2]); n < 0 {
				return nil, runtime.Errorf("allow %d passes: the count cannot be negative", n)
			}
			m.SetAllowance(from, to, runtime.ToInt(a[2]))
			return runtime.ToInt(a[2]), nil
		}, Types: []any{new(func(*runtime.Machine, *cards.Pile, *cards.Pile, int) int)}, ChangesState: true},
		"pass": {Fn: func(m *runtime.Machine, a []any) (any, error) {
			from, to, c, err := pilesAndCard(m, a)
			if err != nil {
				return nil, err
			}
			left := m.Allowance(from, to)
			if left <= 0 {
				return nil, runtime.Errorf("cannot pass %s from %s to %s: no passes left (allow(%s, %s, n) sets them)", c, from.Name, to.Name, from.Name, to.Name)
			}
			if err := m.MoveCard(from, to, c); err != nil {
				return nil, runtime.Errorf("cannot pass %s: it is not in %s", c, from.Name)
			}
			m.SetAllowance(from, to, left-1)
			return c, nil
		}, Types: []any{new(func(*runtime.Machine, *cards.Pile, *cards.Pile, any) *cards.Card)}, ChangesState: true},
		"passes": {Fn: func(m *runtime.Machine, a []any) (any, error) {
			ps, err := pileArgs(a, 2)
			if err != nil {
				return nil, err
			}
			from, to := ps[0], ps[1]
			return m.Allowance(from, to), nil
		}, Types: []any{new(func(*runtime.Machine, *cards.Pile, *cards.Pile) int)}},
		"card": {Fn: func(m *runtime.Machine, a []any) (any, error) {
			return m.AsCard(a[0])
		}, Types: []any{new(func(*runtime.Machine, string) *cards.Card)}},
		"new_pile": {Fn: func(m *runtime.Machine, a []any) (any, error) {
			return &cards.Pile{Name: a[0].(string)}, nil
		}, Types: []any{new(func(*runtime.Machine, string) *cards.Pile)}},
	})
}
