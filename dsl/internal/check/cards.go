package check

import (
	"fmt"

	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/cards"
)

func (c *Compiler) deckDecl(d *syntax.DeckDecl) {
	decl := &runtime.DeckDecl{Name: d.Name, Pos: syntax.PosOf(d.Pos)}
	if !c.declare(d.Name, d.Pos, decl) {
		return
	}
	suits, ranks := cards.StandardSuits(), cards.StandardRanks()
	jokers := 0
	for _, l := range d.Lines {
		switch {
		case l.Suit != nil:
			sym, _ := syntax.Unquote(l.Suit.Symbol)
			name, _ := syntax.Unquote(l.Suit.Name)
			meaning, _ := syntax.Unquote(l.Suit.Meaning)
			if l.Suit.Colour != "black" && l.Suit.Colour != "red" {
				c.errorf(l.Pos, "a suit is black or red, not "+l.Suit.Colour, "")
				continue
			}
			found := false
			for _, s := range suits {
				if s.Symbol == sym {
					s.Name, s.Colour, s.Meaning, found = name, l.Suit.Colour, meaning, true
				}
			}
			if !found {
				c.errorf(l.Pos, "unknown suit "+sym, "the suits are ♣ ♠ ♥ ♦")
			}
		case l.Jokers != "":
			n, ok := c.declInt(l.Jokers, false, l.Pos, "the joker count")
			if !ok {
				continue
			}
			if total := len(suits)*len(ranks) + n; total > MaxDeckCards {
				c.errorf(l.Pos, fmt.Sprintf("deck %s would hold %d cards, over the limit of %d cards per deck", d.Name, total, MaxDeckCards), "")
				continue
			}
			jokers = n
		case l.Rank != nil:
			v, ok := c.declInt(l.Rank.Value, false, l.Pos, "the value")
			if !ok {
				continue
			}
			found := false
			for _, r := range ranks {
				if r.Name == l.Rank.Name || contains(r.Aliases, l.Rank.Name) {
					r.Value, r.Figure, found = v, l.Rank.Figure, true
				}
			}
			if !found {
				c.errorf(l.Pos, "unknown rank "+l.Rank.Name, "the ranks are 2–10, J/V, Q/D, K/R, A")
			}
		}
	}
	decl.Deck = cards.NewDeck(d.Name, suits, ranks, jokers)
	c.prog.Decks = append(c.prog.Decks, decl)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (c *Compiler) pileDecl(p *syntax.PileDecl) {
	decl := &runtime.PileDecl{Name: p.Name, Pos: syntax.PosOf(p.Pos)}
	if c.declare(p.Name, p.Pos, decl) {
		c.prog.Piles = append(c.prog.Piles, decl)
	}
}
