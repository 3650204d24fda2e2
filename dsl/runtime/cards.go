package runtime

import (
	"errors"
	"fmt"

	"rulesh/stdlib/cards"
	"rulesh/stdlib/dice"
)

// DeckDecl is a deck declared with `deck NAME standard { … }`; NAME is also its draw pile.
type DeckDecl struct {
	Name string
	Pos  Pos
	Deck *cards.Deck
}

// PileDecl is an empty pile declared with `pile NAME`.
type PileDecl struct {
	Name string
	Pos  Pos
}

func (d *DeckDecl) DeclPos() Pos { return d.Pos }
func (p *PileDecl) DeclPos() Pos { return p.Pos }

var (
	cardType = &Type{Kind: TCard}
	PileType = &Type{Kind: TPile}
)

// defaultDeck is the deck card literals refer to: the only one declared, or a standard one.
func (p *Program) DefaultDeck() (*cards.Deck, error) {
	switch len(p.Decks) {
	case 0:
		if p.stdDeck == nil {
			p.stdDeck = cards.NewDeck("standard", cards.StandardSuits(), cards.StandardRanks(), 0)
		}
		return p.stdDeck, nil
	case 1:
		return p.Decks[0].Deck, nil
	}
	return nil, errors.New("several decks are declared: card literals need one deck")
}

// ParseCard reads a card literal (Q♣, 10♥, QC…) of the ruleset's deck: for --set and :cards.
func (p *Program) ParseCard(s string) (*cards.Card, error) {
	d, err := p.DefaultDeck()
	if err != nil {
		return nil, err
	}
	return d.Parse(s)
}

// Card functions. Every change to a pile is journaled, so a failed call puts cards back.

// setCards replaces a pile's cards. The old ones stay in the journal until the call ends,
// so the new ones count against the memory budget; the next step checks it (charge).
func (m *Machine) SetCards(p *cards.Pile, cs []*cards.Card) {
	old := p.Cards
	m.journal = append(m.journal, undo{restore: func() { p.Cards = old }})
	p.Cards = cs
	m.Mem += len(cs) + 1
}

// pilesAndCard reads (from, to, card) arguments.
func (m *Machine) pilesAndCard(a []any) (*cards.Pile, *cards.Pile, *cards.Card, error) {
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
	return nil, fmt.Errorf("expected a pile, got %s", Repr(v))
}

func (m *Machine) AsCard(v any) (*cards.Card, error) {
	switch x := v.(type) {
	case *cards.Card:
		return x, nil
	case string:
		return m.Prog.ParseCard(x)
	}
	return nil, fmt.Errorf("expected a card, got %s", Repr(v))
}

// drawOne takes the top card, or the next hand-given card (which must be in the pile).
func (m *Machine) DrawOne(p *cards.Pile) (*cards.Card, error) {
	if len(m.GivenCards) > 0 {
		c, err := m.AsCard(m.GivenCards[0])
		if err != nil {
			m.GivenCards = m.GivenCards[1:]
			return nil, fmt.Errorf("hand-given card: %v (it is discarded)", err)
		}
		rest, err := p.Take(c)
		if err != nil {
			m.GivenCards = m.GivenCards[1:]
			return nil, fmt.Errorf("hand-given card: %v (it is discarded)", err)
		}
		given := m.GivenCards
		m.journal = append(m.journal, undo{restore: func() { m.GivenCards = given }})
		m.GivenCards = m.GivenCards[1:]
		m.SetCards(p, rest)
		return c, nil
	}
	if len(p.Cards) == 0 {
		return nil, fmt.Errorf("cannot draw: %s is empty", p.Name)
	}
	c := p.Cards[0]
	m.SetCards(p, p.Cards[1:])
	return c, nil
}

// chargeCards checks a count of cards and charges moving them.
func (m *Machine) chargeCards(fn string, n int) error {
	if n < 0 {
		return fmt.Errorf("%s %d cards: the count cannot be negative", fn, n)
	}
	return m.Charge(n)
}

func (m *Machine) Shuffle(p *cards.Pile) error {
	if err := m.Charge(len(p.Cards)); err != nil {
		return err
	}
	src := dice.ShuffleSource(m.Dice)
	if src == nil {
		if m.noSeed == nil {
			m.noSeed = dice.NewPCG(0)
		}
		src = m.noSeed
	}
	cs, err := p.Shuffled(func(n int) (int, error) {
		v, err := src.Roll(n)
		return v - 1, err
	})
	if err != nil {
		return err
	}
	m.SetCards(p, cs)
	return nil
}

func (m *Machine) MoveCard(from, to *cards.Pile, c *cards.Card) error {
	rest, err := from.Take(c)
	if err != nil {
		return err
	}
	m.SetCards(from, rest)
	m.SetCards(to, to.With(c, true))
	return nil
}

// passage is a directed allowance between two piles (a Liaison).
type passage struct{ from, to *cards.Pile }

func (m *Machine) SetAllowance(from, to *cards.Pile, n int) {
	if m.allowances == nil {
		m.allowances = map[passage]int{}
	}
	k := passage{from, to}
	old, had := m.allowances[k]
	m.journal = append(m.journal, undo{restore: func() {
		if had {
			m.allowances[k] = old
		} else {
			delete(m.allowances, k)
		}
	}})
	m.allowances[k] = n
}

var cardFuncs = map[string]Builtin{
	"shuffle": {Internal: "__shuffle", Fn: func(m *Machine, a []any) (any, error) {
		p, err := asPile(a[0])
		if err != nil {
			return nil, err
		}
		return p, m.Shuffle(p)
	}, Types: []any{new(func(*Machine, *cards.Pile) *cards.Pile)}},
	"draw": {Internal: "__draw", Fn: func(m *Machine, a []any) (any, error) {
		p, err := asPile(a[0])
		if err != nil {
			return nil, err
		}
		if len(a) == 1 {
			return m.DrawOne(p)
		}
		n := ToInt(a[1])
		if err := m.chargeCards("draw", n); err != nil {
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
	}, Types: []any{new(func(*Machine, *cards.Pile) *cards.Card), new(func(*Machine, *cards.Pile, int) []any)}},
	"deal": {Internal: "__deal", Fn: func(m *Machine, a []any) (any, error) {
		ps, err := pileArgs(a, 2)
		if err != nil {
			return nil, err
		}
		from, to := ps[0], ps[1]
		n := ToInt(a[2])
		if err := m.chargeCards("deal", n); err != nil {
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
	}, Types: []any{new(func(*Machine, *cards.Pile, *cards.Pile, int) *cards.Pile)}},
	"play": {Internal: "__play", Fn: func(m *Machine, a []any) (any, error) {
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
			return nil, fmt.Errorf("cannot play %s: it is not in %s", c, hand.Name)
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
	}, Types: []any{new(func(*Machine, *cards.Pile, any) *cards.Card), new(func(*Machine, *cards.Pile, any, *cards.Pile) *cards.Card)}},
	"move": {Internal: "__move", Fn: func(m *Machine, a []any) (any, error) {
		from, to, c, err := m.pilesAndCard(a)
		if err != nil {
			return nil, err
		}
		return c, m.MoveCard(from, to, c)
	}, Types: []any{new(func(*Machine, *cards.Pile, *cards.Pile, any) *cards.Card)}},
	"allow": {Internal: "__allow", Fn: func(m *Machine, a []any) (any, error) {
		ps, err := pileArgs(a, 2)
		if err != nil {
			return nil, err
		}
		from, to := ps[0], ps[1]
		if n := ToInt(a[2]); n < 0 {
			return nil, fmt.Errorf("allow %d passes: the count cannot be negative", n)
		}
		m.SetAllowance(from, to, ToInt(a[2]))
		return ToInt(a[2]), nil
	}, Types: []any{new(func(*Machine, *cards.Pile, *cards.Pile, int) int)}},
	"pass": {Internal: "__pass", Fn: func(m *Machine, a []any) (any, error) {
		from, to, c, err := m.pilesAndCard(a)
		if err != nil {
			return nil, err
		}
		left := m.allowances[passage{from, to}]
		if left <= 0 {
			return nil, fmt.Errorf("cannot pass %s from %s to %s: no passes left (allow(%s, %s, n) sets them)", c, from.Name, to.Name, from.Name, to.Name)
		}
		if err := m.MoveCard(from, to, c); err != nil {
			return nil, fmt.Errorf("cannot pass %s: it is not in %s", c, from.Name)
		}
		m.SetAllowance(from, to, left-1)
		return c, nil
	}, Types: []any{new(func(*Machine, *cards.Pile, *cards.Pile, any) *cards.Card)}},
	"passes": {Internal: "__passes", Fn: func(m *Machine, a []any) (any, error) {
		ps, err := pileArgs(a, 2)
		if err != nil {
			return nil, err
		}
		from, to := ps[0], ps[1]
		return m.allowances[passage{from, to}], nil
	}, Types: []any{new(func(*Machine, *cards.Pile, *cards.Pile) int)}},
	"card": {Internal: "__card", Fn: func(m *Machine, a []any) (any, error) {
		return m.AsCard(a[0])
	}, Types: []any{new(func(*Machine, string) *cards.Card)}},
	"new_pile": {Internal: "__newpile", Fn: func(m *Machine, a []any) (any, error) {
		return &cards.Pile{Name: a[0].(string)}, nil
	}, Types: []any{new(func(*Machine, string) *cards.Pile)}},
}

func init() {
	for k, v := range cardFuncs {
		RtFuncs[k] = v
	}
}
