// Package cards models decks of playing cards: suits with names, colours and meanings, ranks
// with values, figures, jokers, card literals, and piles (draw pile, hands, discards). It
// knows nothing of any ruleset.
package cards

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unsafe"
)

// Suit is a suit: its symbol (♣), ASCII letter (C), name, colour and meaning in the game.
type Suit struct {
	Symbol  string
	ASCII   string
	Name    string
	Colour  string
	Meaning string
}

// Rank is a rank: its name as written on cards (Q, 10, V), its value and whether it is a
// figure.
type Rank struct {
	Name    string
	Aliases []string
	Value   int
	Figure  bool
}

// Card is one card of a deck. Cards are unique per deck: compare pointers.
type Card struct {
	RankName string `expr:"rank"`
	Value    int    `expr:"value"`
	Symbol   string `expr:"suit"`
	SuitName string `expr:"suit_name"`
	Colour   string `expr:"colour"`
	Meaning  string `expr:"meaning"`
	Black    bool   `expr:"black"`
	Red      bool   `expr:"red"`
	Figure   bool   `expr:"figure"`
	Joker    bool   `expr:"joker"`
	deck     *Deck
	// text is what String gives, made once when the deck is built ("" for a card made
	// otherwise): str(c) of a card, a hand joined into a line, make no string each time.
	text string
	// boxed is text as an interface value, made with it: Text gives it without boxing the
	// string again (an allocation each time).
	boxed any
}

func (c *Card) String() string {
	if c.text != "" {
		return c.text
	}
	if c.Joker {
		return c.RankName
	}
	return c.RankName + c.Symbol
}

// Text is what String returns, as an interface value: a deck's card gives one made when the
// deck was built, so that str(c) in an expression allocates nothing.
func (c *Card) Text() any {
	if c.boxed != nil {
		return c.boxed
	}
	return c.String()
}

// AppendTo appends what String returns to b.
func (c *Card) AppendTo(b []byte) []byte {
	b = append(b, c.RankName...)
	if c.Joker {
		return b
	}
	return append(b, c.Symbol...)
}

// JSON is the card as JSON output shows it.
func (c *Card) JSON() any { return c.String() }

// Deck is a declared deck: its suits, ranks and every card, in order.
type Deck struct {
	Name  string
	Suits []*Suit
	Ranks []*Rank
	Cards []*Card
}

// StandardSuits are ♣ ♠ ♥ ♦ (ASCII C S H D).
func StandardSuits() []*Suit {
	return []*Suit{
		{Symbol: "♣", ASCII: "C", Name: "trèfle", Colour: "black"},
		{Symbol: "♠", ASCII: "S", Name: "pique", Colour: "black"},
		{Symbol: "♥", ASCII: "H", Name: "cœur", Colour: "red"},
		{Symbol: "♦", ASCII: "D", Name: "carreau", Colour: "red"},
	}
}

// StandardRanks are 2–10, then the figures J/V (11), Q/D (12), K/R (13), and A (14).
func StandardRanks() []*Rank {
	var out []*Rank
	for v := 2; v <= 10; v++ {
		out = append(out, &Rank{Name: strconv.Itoa(v), Value: v})
	}
	return append(out,
		&Rank{Name: "J", Aliases: []string{"V"}, Value: 11, Figure: true},
		&Rank{Name: "Q", Aliases: []string{"D"}, Value: 12, Figure: true},
		&Rank{Name: "K", Aliases: []string{"R"}, Value: 13, Figure: true},
		&Rank{Name: "A", Value: 14},
	)
}

// NewDeck builds every card of suits × ranks, plus jokers.
func NewDeck(name string, suits []*Suit, ranks []*Rank, jokers int) *Deck {
	d := &Deck{Name: name, Suits: suits, Ranks: ranks}
	for _, s := range suits {
		for _, r := range ranks {
			d.Cards = append(d.Cards, &Card{RankName: r.Name, Value: r.Value, Symbol: s.Symbol, SuitName: s.Name,
				Colour: s.Colour, Meaning: s.Meaning, Black: s.Colour == "black", Red: s.Colour == "red", Figure: r.Figure, deck: d,
				text: r.Name + s.Symbol})
			c := d.Cards[len(d.Cards)-1]
			c.boxed = c.text
		}
	}
	for j := 1; j <= jokers; j++ {
		d.Cards = append(d.Cards, &Card{RankName: "Joker" + strconv.Itoa(j), Joker: true, deck: d})
	}
	return d
}

// Parse reads a card literal: `Q♣`, `10♥`, `V♠` (French figures), or the ASCII spelling
// `QC`, `10H`, `VS` (suit letters C S H D); `Joker1`.
func (d *Deck) Parse(s string) (*Card, error) {
	s = strings.TrimSpace(s)
	for _, c := range d.Cards {
		if c.Joker && strings.EqualFold(c.RankName, s) {
			return c, nil
		}
	}
	for _, suit := range d.Suits {
		var rank string
		switch {
		case strings.HasSuffix(s, suit.Symbol):
			rank = strings.TrimSuffix(s, suit.Symbol)
		case suit.ASCII != "" && strings.HasSuffix(strings.ToUpper(s), suit.ASCII) && len(s) > 1:
			rank = s[:len(s)-1]
		default:
			continue
		}
		for _, c := range d.Cards {
			if c.Symbol != suit.Symbol || c.Joker {
				continue
			}
			r := d.rank(c.RankName)
			if strings.EqualFold(r.Name, rank) || contains(r.Aliases, rank) {
				return c, nil
			}
		}
		return nil, fmt.Errorf("%q: no rank %q in deck %s", s, rank, d.Name)
	}
	return nil, fmt.Errorf("%q is not a card of deck %s (write Q♣, 10♥, or QC, 10H)", s, d.Name)
}

func (d *Deck) rank(name string) *Rank {
	for _, r := range d.Ranks {
		if r.Name == name {
			return r
		}
	}
	return &Rank{Name: name}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// Pile is an ordered stack of cards: a draw pile (top = first), a hand, a discard.
// Operations never change a card of a Cards slice once handed out, so an old slice can be
// put back to undo, and a slice the rules hold keeps its cards.
type Pile struct {
	Name  string
	Cards []*Card `expr:"cards"`
	// Random is set once the pile's order came from a shuffle (a declared deck is
	// shuffled at the start): its order is luck, which hand-given cards stand for.
	Random bool `expr:"-"`
	// room is the array With last built the cards in, with free slots on both sides, and
	// at, n where it put them (room[at:at+n]). Every slice the pile hands out is capped at
	// its length, so no slice ever reaches a free slot: while Cards is still
	// room[at:at+n] (same start, same length), the slots beside it are the pile's alone, and
	// a card moved onto the pile is written there instead of copying the pile. Anything
	// else that sets Cards (a rollback putting an old slice back, a draw from the top, a
	// card taken) makes Cards another slice, and the next With builds a new array.
	room  []*Card
	at, n int
}

// String shows the pile's cards.
func (p *Pile) String() string {
	parts := make([]string, len(p.Cards))
	for i, c := range p.Cards {
		parts[i] = c.String()
	}
	return p.Name + "[" + strings.Join(parts, " ") + "]"
}

// AppendTo appends what String returns to b.
func (p *Pile) AppendTo(b []byte) []byte {
	b = append(append(b, p.Name...), '[')
	for i, c := range p.Cards {
		if i > 0 {
			b = append(b, ' ')
		}
		b = c.AppendTo(b)
	}
	return append(b, ']')
}

// JSON is the pile as JSON output shows it.
func (p *Pile) JSON() any {
	out := make([]string, len(p.Cards))
	for i, c := range p.Cards {
		out[i] = c.String()
	}
	return out
}

// ErrEmpty is the error of drawing from an empty pile.
var ErrEmpty = errors.New("the pile is empty")

// Take removes a given card from the pile and returns the new slice of cards. The first
// or the last card is cut off the slice; any other is taken out of a copy.
func (p *Pile) Take(c *Card) ([]*Card, error) {
	n := len(p.Cards)
	for i, x := range p.Cards {
		if x != c {
			continue
		}
		switch i {
		case 0:
			return p.Cards[1:n:n], nil
		case n - 1:
			return p.Cards[: n-1 : n-1], nil
		}
		out := make([]*Card, n-1)
		copy(out, p.Cards[:i])
		copy(out[i:], p.Cards[i+1:])
		return out, nil
	}
	return nil, fmt.Errorf("%s is not in %s", c, p.Name)
}

// With returns the pile's cards with c added on top (first) or at the bottom: written in a
// free slot beside the cards when the pile's room holds them (see Pile.room), else in a
// new array with room on both sides.
func (p *Pile) With(c *Card, top bool) []*Card {
	n := len(p.Cards)
	if p.owns() {
		if top && p.at > 0 {
			p.at--
			p.n++
			p.room[p.at] = c
			return p.room[p.at : p.at+p.n : p.at+p.n]
		}
		if end := p.at + p.n; !top && end < len(p.room) {
			p.n++
			p.room[end] = c
			return p.room[p.at : end+1 : end+1]
		}
	}
	out := p.build(n + 1)
	if top {
		out[0] = c
		copy(out[1:], p.Cards)
	} else {
		copy(out, p.Cards)
		out[n] = c
	}
	return out
}

// owns reports whether Cards is still the slice With last built in the pile's room, so
// that the free slots beside it were never handed out.
func (p *Pile) owns() bool {
	return p.n > 0 && len(p.Cards) == p.n && unsafe.SliceData(p.Cards) == &p.room[p.at]
}

// build makes the pile's room anew for n cards, with n+2 free slots on each side (a pile
// grown one card at a time copies itself a logarithmic number of times), and returns
// where the cards go, capped at n.
func (p *Pile) build(n int) []*Card {
	p.room = make([]*Card, 3*n+4)
	p.at, p.n = n+2, n
	return p.room[p.at : p.at+n : p.at+n]
}

// Shuffled returns the cards in a random order, drawing indexes from intn (Fisher–Yates).
func (p *Pile) Shuffled(intn func(n int) (int, error)) ([]*Card, error) {
	out := append([]*Card(nil), p.Cards...)
	for i := len(out) - 1; i > 0; i-- {
		j, err := intn(i + 1)
		if err != nil {
			return nil, err
		}
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}
