package dice

import (
	"math/big"
	"testing"
)

func combatDice(t *testing.T) map[string]*Die {
	t.Helper()
	combat, err := NewDie("combat", []Face{{Sym: "sabre"}, {Sym: "fusil"}, {Sym: "fusil"}, {Sym: "boulet"}, {Sym: "drapeau"}, {Sym: "général"}})
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*Die{"combat": combat}
}

// TestSymbolicConditions: a symbolic die's conditions name a face; a number (which would
// be the face's place in the declaration) is refused where it is written.
func TestSymbolicConditions(t *testing.T) {
	named := combatDice(t)
	for _, c := range []struct{ src, err string }{
		{"1d[combat]ro=général", ""},
		{"1d[combat]rogénéral", ""},
		{"1d[combat]r=sabre", ""},
		{"3d[combat]=fusil", ""},
		{"3d[combat]f=sabre=fusil", ""},
		{"2d[combat]!3", ""},
		{"1d[combat]r1", "column 12: combat has faces with names, not numbers: name a face, e.g. r=sabre"},
		{"1d[combat]ro<3", "column 13: combat has faces with names, not numbers: name a face, e.g. ro=sabre"},
		{"3d[combat]>=2", "column 11: combat has faces with names, not numbers: name a face, e.g. =sabre"},
		{"3d[combat]f1=fusil", "column 12: combat has faces with names, not numbers: name a face, e.g. f=sabre"},
		{"2d[combat]!>5", "column 12: combat has faces with names, not numbers: name a face, e.g. !=sabre"},
		{"2d[combat]min2", "column 1: combat has faces with names, not numbers: min and max do not apply"},
		{"1d[combat]ro=canon", "column 14: combat has no face \"canon\""},
		{"1dcombatro=général", "column 3: unknown die \"combatro\": to add modifiers to combat, write its name in brackets: 1d[combat]ro=général"},
		{"2dcombat=fusil", ""},
		{"2dcombo", "column 3: unknown die \"combo\""},
	} {
		_, err := Parse(c.src, named)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.err {
			t.Errorf("%s: got %q, want %q", c.src, got, c.err)
		}
	}
}

// TestSymbolicRerollOnce: 1d[combat]ro=général by enumeration of the two throws, against
// the exact distribution, and a rerolled face shown by its name.
func TestSymbolicRerollOnce(t *testing.T) {
	named := combatDice(t)
	e, err := Parse("1d[combat]ro=général", named)
	if err != nil {
		t.Fatal(err)
	}
	faces := named["combat"].Faces
	want := map[string]*big.Rat{}
	for _, a := range faces {
		for _, b := range faces {
			got := a.Sym
			if a.Sym == "général" {
				got = b.Sym
			}
			if want[got] == nil {
				want[got] = new(big.Rat)
			}
			want[got].Add(want[got], big.NewRat(1, 36))
		}
	}
	d, err := e.Distribution()
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range d.Syms {
		if p := d.P(i + 1); p.Cmp(want[s]) != 0 {
			t.Errorf("P(%s) = %s, want %s", s, p, want[s])
		}
	}
	for _, c := range []struct {
		given []string
		want  string
	}{
		{[]string{"général", "sabre"}, "1d[combat]ro=général [général↻sabre]"},
		{[]string{"général", "général"}, "1d[combat]ro=général [général↻général]"},
		{[]string{"fusil"}, "1d[combat]ro=général [fusil]"},
	} {
		r, err := e.Roll(NewQueue(c.given, nil))
		if err != nil || r.String() != c.want {
			t.Errorf("%v: got %v (%v), want %s", c.given, r, err, c.want)
		}
	}
	// A count of faces keeps its number.
	e, _ = Parse("2d[combat]=fusil", named)
	if r, err := e.Roll(NewQueue([]string{"fusil", "sabre"}, nil)); err != nil || r.String() != "2d[combat]=fusil [fusil✓, sabre] = 1" {
		t.Errorf("count: %v %v", r, err)
	}
}
