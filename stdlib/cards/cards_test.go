package cards

import (
	"fmt"
	"testing"
)

func TestStandardDeck(t *testing.T) {
	d := NewDeck("jeu", StandardSuits(), StandardRanks(), 2)
	if len(d.Cards) != 54 {
		t.Fatalf("%d cards, want 52 + 2 jokers", len(d.Cards))
	}
	tests := []struct {
		lit, want string
		value     int
		figure    bool
		black     bool
	}{
		{"Q♣", "Q♣", 12, true, true}, {"QC", "Q♣", 12, true, true}, {"D♣", "Q♣", 12, true, true},
		{"10♥", "10♥", 10, false, false}, {"10h", "10♥", 10, false, false}, {"7♠", "7♠", 7, false, true},
		{"V♦", "J♦", 11, true, false}, {"A♠", "A♠", 14, false, true}, {"joker2", "Joker2", 0, false, false},
	}
	for _, tt := range tests {
		c, err := d.Parse(tt.lit)
		if err != nil {
			t.Errorf("%s: %v", tt.lit, err)
			continue
		}
		if c.String() != tt.want || c.Value != tt.value || c.Figure != tt.figure || c.Black != tt.black {
			t.Errorf("%s = %s value %d figure %v black %v", tt.lit, c, c.Value, c.Figure, c.Black)
		}
	}
	for _, bad := range []string{"1♣", "Z♠", "Q", "QX", ""} {
		if _, err := d.Parse(bad); err == nil {
			t.Errorf("%q should not parse", bad)
		}
	}
	a, _ := d.Parse("Q♣")
	b, _ := d.Parse("QC")
	if a != b {
		t.Error("the same card must be the same pointer")
	}
}

func TestPileOperations(t *testing.T) {
	d := NewDeck("jeu", StandardSuits(), StandardRanks(), 0)
	p := &Pile{Name: "pioche", Cards: d.Cards}
	q, _ := d.Parse("Q♣")
	rest, err := p.Take(q)
	if err != nil || len(rest) != 51 || len(p.Cards) != 52 {
		t.Fatalf("take: %v, %d left, original %d", err, len(rest), len(p.Cards))
	}
	p.Cards = rest
	if _, err := p.Take(q); err == nil {
		t.Error("taking a card that is not there must fail")
	}
	calls := 0
	sh, _ := p.Shuffled(func(n int) (int, error) { calls++; return 0, nil })
	if len(sh) != 51 || calls != 50 {
		t.Errorf("shuffle: %d cards, %d draws", len(sh), calls)
	}
}

// A card or a pile appended to a buffer (a template's hole) gives what String gives.
func TestAppendToIsString(t *testing.T) {
	d := NewDeck("jeu", StandardSuits(), StandardRanks(), 2)
	piles := []*Pile{{Name: "vide"}, {Name: "main", Cards: d.Cards[:1]}, {Name: "jeu", Cards: d.Cards}}
	for _, c := range d.Cards {
		if got := string(c.AppendTo([]byte("> "))); got != "> "+c.String() {
			t.Errorf("card %s: AppendTo gives %q", c, got)
		}
	}
	for _, p := range piles {
		if got := string(p.AppendTo([]byte("> "))); got != "> "+p.String() {
			t.Errorf("pile %s: AppendTo gives %q, String %q", p.Name, got, p.String())
		}
	}
}

// TestDeckCardsPrintWithoutAllocating: a deck's cards print as a card made by hand with the
// same fields prints (rank, then suit; a joker its name), without making a string.
func TestDeckCardsPrintWithoutAllocating(t *testing.T) {
	d := NewDeck("jeu", StandardSuits(), StandardRanks(), 2)
	for _, c := range d.Cards {
		byHand := &Card{RankName: c.RankName, Symbol: c.Symbol, Joker: c.Joker}
		if c.String() != byHand.String() || c.String() == "" {
			t.Errorf("card %q, by hand %q", c.String(), byHand.String())
		}
	}
	if got := d.Cards[11].String(); got != "K♣" {
		t.Errorf("the 12th card prints %q, want K♣", got)
	}
	if n := testing.AllocsPerRun(100, func() { _ = d.Cards[11].String() }); n != 0 {
		t.Errorf("String allocates %v times", n)
	}
}

// TestPileSlicesKeepTheirCards moves cards on and off a pile, keeping every slice the pile
// held, putting old ones back as a rollback does, and appending to held slices as Go code
// may: no slice ever sees a later change (the free slots beside the cards are written only
// while Cards is still the slice built there, and every slice handed out is capped).
func TestPileSlicesKeepTheirCards(t *testing.T) {
	d := NewDeck("jeu", StandardSuits(), StandardRanks(), 0)
	p := &Pile{Name: "p"}
	type kept struct {
		s    []*Card
		want []*Card
	}
	var held []kept     // every slice kept, checked at each step
	var snaps [][]*Card // the pile's slices, which a rollback puts back
	hold := func(s []*Card) {
		held = append(held, kept{s, append([]*Card(nil), s...)})
	}
	check := func(step int) {
		t.Helper()
		for i, k := range held {
			if len(k.s) != len(k.want) {
				t.Fatalf("step %d: slice %d has %d cards, held %d", step, i, len(k.s), len(k.want))
			}
			for j := range k.s {
				if k.s[j] != k.want[j] {
					t.Fatalf("step %d: slice %d changed at %d: %s, held %s", step, i, j, k.s[j], k.want[j])
				}
			}
		}
	}
	seed := uint32(7)
	next := func(n int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % n
	}
	var want []*Card // what the pile holds, built by copying
	for step := 0; step < 3000; step++ {
		hold(p.Cards)
		snaps = append(snaps, p.Cards)
		switch op := next(7); {
		case op <= 2:
			c := d.Cards[next(len(d.Cards))]
			p.Cards = p.With(c, op == 0)
			if op == 0 {
				want = append([]*Card{c}, want...)
			} else {
				want = append(append([]*Card(nil), want...), c)
			}
		case op == 3 && len(p.Cards) > 0:
			c := p.Cards[next(len(p.Cards))]
			cs, err := p.Take(c)
			if err != nil {
				t.Fatal(err)
			}
			p.Cards = cs
			i := 0
			for want[i] != c {
				i++ // Take takes the first of the same card
			}
			want = append(append([]*Card(nil), want[:i]...), want[i+1:]...)
		case op == 4 && len(p.Cards) > 0:
			p.Cards = p.Cards[1:] // a draw from the top
			want = want[1:]
		case op == 5:
			p.Cards = snaps[next(len(snaps))] // a rollback
			want = append([]*Card(nil), p.Cards...)
		case op == 6:
			// Go code appending to the pile's slice makes its own slice.
			hold(append(p.Cards, d.Cards[next(len(d.Cards))]))
		}
		check(step)
		if fmt.Sprint(p.Cards) != fmt.Sprint(want) {
			t.Fatalf("step %d: the pile holds %v, want %v", step, p.Cards, want)
		}
	}
}

// TestPileWithInPlace: cards moved one by one onto a pile, top or bottom, are written
// beside its cards, not copied with them each time.
func TestPileWithInPlace(t *testing.T) {
	d := NewDeck("jeu", StandardSuits(), StandardRanks(), 0)
	for _, top := range []bool{true, false} {
		p := &Pile{Name: "p"}
		allocs := testing.AllocsPerRun(1, func() {
			p.Cards = nil
			for _, c := range d.Cards {
				p.Cards = p.With(c, top)
			}
		})
		if allocs > 6 {
			t.Errorf("top %v: %v allocations for 52 cards", top, allocs)
		}
		for i, c := range d.Cards {
			j := i
			if top {
				j = len(d.Cards) - 1 - i
			}
			if p.Cards[j] != c {
				t.Fatalf("top %v: card %d is %s, want %s", top, j, p.Cards[j], c)
			}
		}
	}
}

// TestTextIsString: Text is String as an interface value, for a deck's card (made once: no
// allocation) and for a card made by hand.
func TestTextIsString(t *testing.T) {
	d := NewDeck("jeu", StandardSuits(), StandardRanks(), 2)
	cards := append([]*Card{{RankName: "7", Symbol: "♠"}}, d.Cards...)
	for _, c := range cards {
		if got, ok := c.Text().(string); !ok || got != c.String() {
			t.Errorf("card %s: Text gives %#v", c, c.Text())
		}
	}
	c := d.Cards[0]
	var sink any
	if n := testing.AllocsPerRun(100, func() { sink = c.Text() }); n != 0 {
		t.Errorf("Text of a deck's card: %v allocations", n)
	}
	_ = sink
}
