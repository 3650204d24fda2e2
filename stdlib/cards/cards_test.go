package cards

import "testing"

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
