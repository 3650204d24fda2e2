package runtime

import (
	"fmt"
	"unsafe"

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

// DeclPos is where the deck is declared.
func (d *DeckDecl) DeclPos() Pos { return d.Pos }

// DeclPos is where the pile is declared.
func (p *PileDecl) DeclPos() Pos { return p.Pos }

// cardType is the static type of a card; PileType, of a pile (the checker types a pile's
// global with it).
var (
	cardType = &Type{Kind: TCard}
	PileType = &Type{Kind: TPile}
)

// DefaultDeck is the deck card literals refer to: the only one declared, or a standard one,
// made on first use. exprx parses the card literals of expressions with it at load.
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
	return nil, NewError("several decks are declared: card literals need one deck")
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

// SetCards replaces a pile's cards (journaled: the pile's cards before the call come back
// if the call fails).
func (m *Machine) SetCards(p *cards.Pile, cs []*cards.Card) {
	if !m.pileJournaled(p) {
		old := p.Cards
		m.record(undo{restore: func() { p.Cards = old }, id: p})
		m.recentPiles[pileSlot(p)] = recentPile{pile: uintptr(unsafe.Pointer(p)), gen: m.jgen}
	}
	p.Cards = cs
}

// recentPile is an entry of Machine.recentPiles: a pile's address whose cards the journal
// holds, when gen is the journal's generation (the journal keeps the pile alive meanwhile,
// so the address names no other pile).
type recentPile struct {
	pile uintptr
	gen  uint32
}

// recentPileSize is the number of entries of Machine.recentPiles (a power of two): the
// naval rules change nine piles.
const recentPileSize = 16

// pileSlot is where p goes in Machine.recentPiles: a hash of its address.
func pileSlot(p *cards.Pile) uint { return addrSlot(uintptr(unsafe.Pointer(p)), 0, 4) }

// pileJournaled is journaledOnce for a pile, first asked of m.recentPiles.
func (m *Machine) pileJournaled(p *cards.Pile) bool {
	e := &m.recentPiles[pileSlot(p)]
	if e.gen == m.jgen && e.pile == uintptr(unsafe.Pointer(p)) {
		return true
	}
	if !m.journaledOnce(p) {
		return false
	}
	*e = recentPile{pile: uintptr(unsafe.Pointer(p)), gen: m.jgen}
	return true
}

// AsCard takes a card as a builtin receives it: a card, or a card literal's text read
// against the ruleset's deck. For the card library.
func (m *Machine) AsCard(v any) (*cards.Card, error) {
	switch x := v.(type) {
	case *cards.Card:
		return x, nil
	case string:
		return m.prog.ParseCard(x)
	}
	return nil, Errorf("expected a card, got %s", Repr(v))
}

// DrawOne takes the top card of a pile, or, from a shuffled pile (a declared deck, or a
// pile shuffled since), the next hand-given card: hand-given cards stand for the luck of the
// draw, so a pile in a known order (a hand emptied into the discard) is drawn from its top
// and the card waits for a draw from a deck. A given card the deck does not hold fails the
// call, and the rollback keeps it given, as every other change is undone.
func (m *Machine) DrawOne(p *cards.Pile) (*cards.Card, error) {
	if len(m.GivenCards) > 0 && p.Random {
		c, err := m.AsCard(m.GivenCards[0])
		if err != nil {
			return nil, Errorf("hand-given card: %v (:cards clear drops it)", err)
		}
		rest, err := p.Take(c)
		if err != nil {
			return nil, Errorf("hand-given card: %v (:cards clear drops it)", err)
		}
		if !m.journaledOnce(givenID{}) {
			given := m.GivenCards
			m.record(undo{restore: func() { m.GivenCards = given }, id: givenID{}})
		}
		m.GivenCards = m.GivenCards[1:]
		m.SetCards(p, rest)
		if m.Trace != nil {
			m.trace(fmt.Sprintf("draw %s from %s (given)", c, p.Name))
		}
		return c, nil
	}
	if len(p.Cards) == 0 {
		return nil, Errorf("cannot draw: %s is empty", p.Name)
	}
	c := p.Cards[0]
	m.SetCards(p, p.Cards[1:])
	if m.Trace != nil {
		m.trace(fmt.Sprintf("draw %s from %s", c, p.Name))
	}
	return c, nil
}

// Shuffle puts a pile in a random order drawn from the run's seeded source (a fixed one when
// there is none), a step per card; journaled like every change to a pile.
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
	if !p.Random {
		m.record(undo{restore: func() { p.Random = false }})
		p.Random = true
	}
	return nil
}

// MoveCard takes c out of from and puts it on top of to, both changes journaled; it fails
// if c is not in from.
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

// Allowance is how many cards may still pass from one pile to the other.
func (m *Machine) Allowance(from, to *cards.Pile) int { return m.allowances[passage{from, to}] }

// SetAllowance sets how many cards may pass from one pile to the other (journaled).
func (m *Machine) SetAllowance(from, to *cards.Pile, n int) {
	if m.allowances == nil {
		m.allowances = map[passage]int{}
	}
	k := passage{from, to}
	if !m.journaledOnce(k) {
		old, had := m.allowances[k]
		m.record(undo{restore: func() {
			if had {
				m.allowances[k] = old
			} else {
				delete(m.allowances, k)
			}
		}, id: k})
	}
	m.allowances[k] = n
}

// ShuffleDecks shuffles the draw pile of every declared deck, in declaration order, from the
// machine's source (journaled: a Trial's rollback puts them back). An analysis calls it
// before each run so that the decks' order is part of the odds, as in a fresh game.
func (m *Machine) ShuffleDecks() error {
	for _, d := range m.prog.Decks {
		if p, ok := m.globals[d.Name].(*cards.Pile); ok {
			if err := m.Shuffle(p); err != nil {
				return err
			}
		}
	}
	return nil
}
