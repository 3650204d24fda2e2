package dsl_test

import (
	"reflect"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/stdlib/cards"
	"rulesh/stdlib/dice"
)

// This file imports only the facade, as a user of the language does: it shows that nothing
// reachable from a Program or a Machine lets a caller change the Program that other
// machines run. Three ways in that the facade used to allow no longer compile:
//
//	m1.Proc("f").Body = nil                   // Machine has no Proc; Program.Proc gives a ProcInfo, which has no Body
//	*m1.Map("champ") = hex.Map{}              // Map gives a Board, a view with no exported field
//	m1.Kind("U").Fields[0].Default = nil      // Machine has no Kind; Program.Kind gives a KindInfo of copies
//
// What still compiles is checked below to have no effect.

const sharedRules = `
deck jeu standard
dice combat = [sabre, fusil, boulet]
const TABLE = [1, 2, 3]
const BOOK = {"x": 1}
kind U {
  nom: string
  pv: int = 10
  pos: hex
}
entity a: U { nom: "a", pos: hex(1, 1) }
map champ {
  rows {
    ". . ."
    ". f ."
  }
  legend "." plaine, "f" forêt
  units U at pos label nom
}
rule f(x: int): int {
  return x + 1
}
rule somme(): int {
  return TABLE[0] + TABLE[1] + TABLE[2] + BOOK["x"]
}
action bouge() {
  a.pos = hex(2, 2)
}
`

func sharedMachines(t *testing.T) (*dsl.Program, *dsl.Machine, *dsl.Machine) {
	t.Helper()
	prog, d := dsl.LoadSource("shared.rules", []byte(sharedRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m1, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	return prog, m1, m2
}

// TestProgramCannotChange: what a Program or a Machine hands out is a copy or a view;
// editing it changes neither the Program nor another machine of it.
func TestProgramCannotChange(t *testing.T) {
	prog, m1, m2 := sharedMachines(t)

	// A procedure's description is a copy.
	info, ok := m1.Program().Proc("f")
	if !ok || info.Verb != "rule" || len(info.Params) != 1 || info.Params[0].Name != "x" || info.Result != "int" {
		t.Fatalf("Proc(f) = %+v, %v", info, ok)
	}
	info.Params[0].Name, info.Params = "y", nil
	if v, err := m2.Call("f", 4); err != nil || v != 5 {
		t.Errorf("after editing Proc(f): f(4) = %v, %v; want 5", v, err)
	}
	if again, _ := prog.Proc("f"); len(again.Params) != 1 || again.Params[0].Name != "x" {
		t.Errorf("Proc(f) after an edit of a copy = %+v", again)
	}

	// A kind's description is a copy: a fresh machine still builds its defaults.
	k, ok := prog.Kind("U")
	if !ok || len(k.Fields) != 3 || k.Fields[1].Name != "pv" || k.Fields[1].Default != "10" || k.Fields[1].Type != "int" {
		t.Fatalf("Kind(U) = %+v, %v", k, ok)
	}
	k.Fields[1].Default, k.Fields[1].Name = "99", "vie"
	m3, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := m3.Global("a")
	if pv := a.(map[string]any)["pv"]; pv != 10 {
		t.Errorf("after editing Kind(U): a fresh a.pv = %v, want 10", pv)
	}
	if again, _ := prog.Kind("U"); again.Fields[1].Name != "pv" || again.Fields[1].Default != "10" {
		t.Errorf("Kind(U) after an edit of a copy = %+v", again)
	}

	// A map is a view; the units are the machine's own, in a fresh slice.
	board2, err := m2.Map("champ")
	if err != nil {
		t.Fatal(err)
	}
	units2, _ := m2.Units("champ")
	before := board2.Render(units2)
	if _, err := m1.Call("bouge"); err != nil {
		t.Fatal(err)
	}
	units1, _ := m1.Units("champ")
	units1[0].Label = "changé"
	units2, _ = m2.Units("champ")
	if after := board2.Render(units2); after != before {
		t.Errorf("m2's board changed after m1 moved a unit:\n%s\nthen\n%s", before, after)
	}
	if units2[0].Label != "a" {
		t.Errorf("m2's unit label = %q, want a", units2[0].Label)
	}

	// A const's list or map, read from Go, is a copy: the rules of other machines and of
	// later runs read the declared values.
	list, _ := m1.Global("TABLE")
	list.([]any)[0] = 100
	book, _ := m1.Global("BOOK")
	book.(map[string]any)["x"] = 100
	for _, m := range []*dsl.Machine{m1, m2} {
		if v, err := m.Call("somme"); err != nil || v != 7 {
			t.Errorf("somme() after editing the consts read from Go = %v, %v; want 7", v, err)
		}
	}

	// Dice and cards come out as copies.
	prog.Dice()["combat"].Faces[0].Sym = "canon"
	if got := prog.Dice()["combat"].Faces[0].Sym; got != "sabre" {
		t.Errorf("combat's first face = %q after editing a copy, want sabre", got)
	}
	c, err := prog.ParseCard("Q♣")
	if err != nil {
		t.Fatal(err)
	}
	c.Value, c.Symbol = 1, "♥"
	if again, _ := prog.ParseCard("Q♣"); again.Value == 1 || again.String() != "Q♣" {
		t.Errorf("ParseCard(Q♣) after editing a copy = %v (value %d)", again, again.Value)
	}

	// A drawn card is a copy: the deck's cards are the Program's, in every machine's piles.
	s1, s2 := dsl.NewSession(m1), dsl.NewSession(m2)
	m1.SetGivenCards([]string{"Q♣"})
	m2.SetGivenCards([]string{"Q♣"})
	drawn, err := s1.Eval("<e>", "draw(jeu, 1)")
	if err != nil {
		t.Fatal(err)
	}
	drawn.([]any)[0].(*cards.Card).Value = 1
	if v, err := s2.Eval("<e>", "draw(jeu).value"); err != nil || v != 12 {
		t.Errorf("m2 draws Q♣ of value %v, %v after m1's copy was edited; want 12", v, err)
	}

	// Hand-given cards and choices are copied in and out.
	given := []string{"K♥"}
	m1.SetGivenCards(given)
	given[0] = "2♦"
	m1.GivenCards()[0] = "3♣"
	if got := m1.GivenCards(); len(got) != 1 || got[0] != "K♥" {
		t.Errorf("GivenCards() = %v, want [K♥]", got)
	}
}

// TestFacadeReturnsNoCompiledForm: no exported method of the facade's types, nor an exported
// field of what they return, hands out a pointer to a type of the language's internal
// packages (the compiled forms, shared by every Machine of a Program). Values of internal
// types (Limits, OptionValue, Pos), copied on return, are allowed; that the slices and maps
// returned are fresh copies is TestProgramCannotChange's part.
func TestFacadeReturnsNoCompiledForm(t *testing.T) {
	roots := []any{&dsl.Program{}, &dsl.Machine{}, &dsl.Session{}, dsl.Board{}, &dsl.Compiled{}}
	seen := map[reflect.Type]bool{}
	var walk func(path string, ty reflect.Type, shared bool)
	walk = func(path string, ty reflect.Type, shared bool) {
		if shared && strings.HasPrefix(ty.PkgPath(), "rulesh/dsl/internal/") {
			t.Errorf("%s reaches %s, a compiled form, by reference", path, ty)
			return
		}
		if seen[ty] {
			return
		}
		seen[ty] = true
		switch ty.Kind() {
		case reflect.Pointer:
			walk(path, ty.Elem(), true)
		case reflect.Slice, reflect.Array, reflect.Chan:
			walk(path, ty.Elem(), shared)
		case reflect.Map:
			walk(path, ty.Key(), shared)
			walk(path, ty.Elem(), shared)
		case reflect.Struct:
			for i := range ty.NumField() {
				if f := ty.Field(i); f.IsExported() {
					walk(path+"."+f.Name, f.Type, shared)
				}
			}
		}
	}
	methods := 0
	for _, r := range roots {
		ty := reflect.TypeOf(r)
		for i := range ty.NumMethod() {
			m := ty.Method(i)
			for j := range m.Type.NumOut() {
				walk(ty.String()+"."+m.Name, m.Type.Out(j), false)
			}
			methods++
		}
		if ty.Kind() == reflect.Pointer {
			walk(ty.String(), ty.Elem(), false)
		}
	}
	if methods < 40 {
		t.Errorf("only %d methods walked", methods)
	}
}
