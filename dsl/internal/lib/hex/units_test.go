package hex_test

import (
	"fmt"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// unitsRules has a board with two `units` lines: brigades placed, marked and labelled by
// fields; generals placed by a rule that takes a captured one off the board, labelled by
// default with the entity's name and marked with the label's first letter.
const unitsRules = `map b {
  rows {
    ". . ."
    ". . ."
  }
  legend "." plaine
  units Brigade at position marker sigle label appellation
  units Général at place
}
kind Brigade {
  appellation: string
  sigle: string
  position: hex
}
kind Général {
  case_: hex
  capturé: bool
}
entity garde: Brigade { appellation: "la Garde", sigle: "Gd", position: hex(2, 2) }
entity ligne: Brigade { appellation: "", sigle: "", position: hex(2, 2) }
entity réserve: Brigade { appellation: "la réserve", sigle: "R" }
entity murat: Général { case_: hex(3, 1) }
rule place(g: Général) {
  return g.capturé ? nil : g.case_
}
`

// TestUnits: which units a map draws, where and how, as the state changes; a position that
// is no hex is an error naming the unit.
func TestUnits(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(unitsRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	for _, c := range []struct{ inputs, want, err string }{
		{"", "(2,2) Gd la Garde|(2,2) L ligne|(3,1) M murat", ""},
		{"murat.capturé = true", "(2,2) Gd la Garde|(2,2) L ligne", ""},
		{"garde.position = nil; réserve.position = hex(1, 1)", "(2,2) L ligne|(1,1) R la réserve|(3,1) M murat", ""},
		{"murat.case_ = hex(4, 1)", "(2,2) Gd la Garde|(2,2) L ligne", ""}, // off the board
		{"garde.sigle = \"\"", "(2,2) L la Garde|(2,2) L ligne|(3,1) M murat", ""},
	} {
		m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		s := dsl.NewSession(m)
		for _, in := range strings.Split(c.inputs, "; ") {
			if in == "" {
				continue
			}
			if err := s.Exec("<e>", in); err != nil {
				t.Fatalf("%s: %v", in, err)
			}
		}
		units, err := m.Units("")
		var got []string
		for _, u := range units {
			got = append(got, fmt.Sprintf("%s %s %s", u.At, u.Marker, u.Label))
		}
		if fmt.Sprint(err) != fmt.Sprint(nilOr(c.err)) || strings.Join(got, "|") != c.want {
			t.Errorf("%s: got %q, %v; want %q, %s", c.inputs, strings.Join(got, "|"), err, c.want, c.err)
		}
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Units("autre"); fmt.Sprint(err) != "no map autre (maps: b)" {
		t.Errorf("Units(autre): %v", err)
	}
}

func nilOr(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// TestUnitsRuleResult: a position rule declared without a result type that gives something
// other than a hex or nil is an error at drawing time, naming the unit.
func TestUnitsRuleResult(t *testing.T) {
	src := strings.Replace(unitsRules, "return g.capturé ? nil : g.case_", "return g.capturé ? 3 : g.case_", 1)
	prog, d := dsl.LoadSource("t.rules", []byte(src))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, _ := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err := dsl.NewSession(m).Exec("<e>", "murat.capturé = true"); err != nil {
		t.Fatal(err)
	}
	_, err := m.Units("b")
	if want := "murat: the position of a Général must be a hex or nil, got 3"; fmt.Sprint(err) != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// TestUnitsChecked: every name of a units line is checked at load, at its position.
func TestUnitsChecked(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"units Brigad at position", "t.rules:7:3: units of Brigad: no kind Brigad (did you mean Brigade?)"},
		{"units Brigade at positon", "t.rules:7:20: the position of a Brigade: positon is no field of Brigade and no rule (did you mean position?)"},
		{"units Brigade at sigle", "t.rules:7:20: the position of a Brigade is sigle, a field of type string (a position is a hex)"},
		{"units Brigade at position marker force", "t.rules:7:36: the marker of a Brigade is force, a field of type int (a marker is a string)"},
		{"units Brigade at position label annoncer", "t.rules:7:35: the label of a Brigade is given by a rule; annoncer is an action (drawing a board changes nothing: declare it rule)"},
		{"units Brigade at deux", "t.rules:7:20: deux cannot give the position of a Brigade: it must take one Brigade"},
		{"units Brigade at général", "t.rules:7:20: général cannot give the position of a Brigade: it must take one Brigade"},
		{"units Brigade at position label effectif", "t.rules:7:35: effectif cannot give the label of a Brigade: it returns int, not string"},
		{"units Brigade at position side force", "t.rules:7:34: the side of a Brigade is force, a field of type int (a side is a string)"},
		{"units Brigade at position side camp", "t.rules:7:34: the side of a Brigade: camp is no field of Brigade and no rule"},
		{"units Brigade at position marker sigle side sigle", ""},
	} {
		src := `map b {
  rows {
    ". . ."
    ". . ."
  }
  legend "." plaine
  ` + c.line + `
}
kind Brigade {
  sigle: string
  force: int
  position: hex
}
kind Général { case_: hex }
action annoncer(b: Brigade) { emit "x" }
rule deux(a: Brigade, b: Brigade): hex { return a.position }
rule général(g: Général): hex { return g.case_ }
rule effectif(b: Brigade): int { return b.force }
`
		_, d := dsl.LoadSource("t.rules", []byte(src))
		var got []string
		for _, x := range d {
			got = append(got, x.Error())
		}
		if strings.Join(got, "\n") != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.line, strings.Join(got, "\n"), c.want)
		}
	}
}

// TestHexFieldNil: a hex field, which starts at nil, may be set back to nil (off the board);
// other fields still refuse nil.
func TestHexFieldNil(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(unitsRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	for _, c := range []struct{ src, err string }{
		{"garde.position = nil", ""},
		{"réserve.position = garde.position", ""},
		{"murat.capturé = nil", "<e>:1:1: field capturé: expected bool, got nil"},
		{"garde.position = 3", "<e>:1:18: field position is hex, got int"},
	} {
		m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := dsl.NewSession(m).Exec("<e>", c.src); fmt.Sprint(nilOr(c.err)) != fmt.Sprint(err) {
			t.Errorf("%s: got %v, want %s", c.src, err, c.err)
		}
	}
}

// TestUnitsSide: a units line's side (a field, an enum here, or a rule) reaches the units
// drawn; a line without side leaves it empty; a rule giving no string is an error naming the
// unit.
func TestUnitsSide(t *testing.T) {
	src := `map b {
  rows {
    ". . ."
  }
  legend "." plaine
  units Pion at position marker sigle side camp
  units Chef at position side bord
  units Neutre at position
}
enum Camp { rouge, bleu }
kind Pion {
  sigle: string
  camp: Camp
  position: hex
}
kind Chef { position: hex
  n: int }
kind Neutre { position: hex }
entity i: Pion { sigle: "i", camp: "bleu", position: hex(1, 1) }
entity g: Chef { position: hex(2, 1) }
entity x: Neutre { position: hex(3, 1) }
rule bord(c: Chef) { return c.n == 0 ? "nord" : c.n }
`
	prog, d := dsl.LoadSource("t.rules", []byte(src))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	units, err := m.Units("")
	var got []string
	for _, u := range units {
		got = append(got, fmt.Sprintf("%s %s %q", u.At, u.Marker, u.Side))
	}
	if want := `(1,1) i "bleu"|(2,1) G "nord"|(3,1) X ""`; err != nil || strings.Join(got, "|") != want {
		t.Errorf("got %s, %v; want %s", strings.Join(got, "|"), err, want)
	}
	if err := dsl.NewSession(m).Exec("<e>", "g.n = 2"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Units(""); fmt.Sprint(err) != "g: a marker, label or side must be a string, got 2" {
		t.Errorf("got %v", err)
	}
}

// TestUnitsAt: units_at gives the units the map's `units` lines put on a hex, by kind or
// all of them, in declaration order; what it reads from its index follows every field
// write and the rollback of a failed call, and positions given by rules are asked afresh.
func TestUnitsAt(t *testing.T) {
	src := unitsRules + `
action bouge_puis_échoue() {
  ligne.position = hex(3, 2)
  require len(units_at(b, hex(3, 2))) == 1 else "l'index n'a pas vu le déplacement"
  require false else "échec"
}
`
	prog, d := dsl.LoadSource("t.rules", []byte(src))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := dsl.NewSession(m)
	for _, c := range []struct{ in, want string }{
		{`map(units_at(b, hex(2, 2)), .sigle)`, `["Gd", ""]`},
		{`map(units_at(b, hex(2, 2), "Brigade"), .sigle)`, `["Gd", ""]`},
		{`len(units_at(b, hex(3, 1)))`, `1`},
		{`same(units_at(b, hex(3, 1), "Général")[0], murat)`, `true`},
		{`units_at(b, hex(1, 1))`, `[]`},
		{`garde.position = hex(1, 1)`, ``},
		{`map(units_at(b, hex(1, 1)), .sigle)`, `["Gd"]`},
		{`map(units_at(b, hex(2, 2)), .sigle)`, `[""]`},
		{`bouge_puis_échoue()`, `error: t.rules:30:3: échec`},
		{`map(units_at(b, hex(2, 2)), .sigle)`, `[""]`},
		{`units_at(b, hex(3, 2))`, `[]`},
		{`murat.capturé = true`, ``},
		{`units_at(b, hex(3, 1), "Général")`, `[]`},
		{`réserve.position = hex(9, 9)`, ``}, // off the board, still at its hex
		{`map(units_at(b, hex(9, 9)), .sigle)`, `["R"]`},
		{`units_at(b, hex(1, 1), "Brigad")`, `error: <e>:1:1: units_at: the map b has no units line of Brigad (units of Brigade, Général)`},
		{`units_at(b, 3)`, `error: <e>:1:1: expected a hex, got 3`},
	} {
		var v any
		var err error
		if strings.Contains(c.in, " = ") {
			err = s.Exec("<e>", c.in)
		} else {
			v, err = s.Eval("<e>", c.in)
		}
		got := ""
		switch {
		case err != nil:
			got = "error: " + strings.Split(err.Error(), "\n")[0]
		case v != nil:
			got = dsl.Repr(v)
		}
		if got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
}

// TestUnitsWithin: units_within gives the units the map's `units` lines put within a
// distance of a hex, by kind or all of them, in the order of the lines and of the
// declarations (a brigade declared first comes first, whatever its distance), positions
// given by rules included, off the board too; it agrees with a filter over every unit.
func TestUnitsWithin(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(unitsRules+`
entity avant_garde: Brigade { appellation: "l'avant-garde", sigle: "AG", position: hex(1, 1) }
`))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := dsl.NewSession(m)
	for _, c := range []struct{ in, want string }{
		{`map(units_within(b, hex(2, 2), 0), .sigle)`, `["Gd", ""]`},
		{`map(units_within(b, hex(1, 1), 0), .sigle)`, `["AG"]`},
		{`map(units_within(b, hex(1, 1), 1), .sigle)`, `["AG"]`},
		{`len(units_within(b, hex(1, 1), 2))`, `4`}, // murat, by his rule, at (3,1)
		{`same(units_within(b, hex(1, 1), 2)[3], murat)`, `true`},
		{`map(units_within(b, hex(1, 1), 2, "Brigade"), .sigle)`, `["Gd", "", "AG"]`},
		{`len(units_within(b, hex(3, 1), 0, "Général"))`, `1`},
		{`units_within(b, hex(3, 2), 0)`, `[]`},
		{`murat.capturé = true`, ``},
		{`units_within(b, hex(3, 1), 5, "Général")`, `[]`},
		{`garde.position = hex(3, 2)`, ``},
		{`map(units_within(b, hex(3, 2), 0), .sigle)`, `["Gd"]`},
		{`réserve.position = hex(9, 9)`, ``}, // off the board, still at its hex
		{`map(units_within(b, hex(8, 8), 1), .sigle)`, `["R"]`},
		{`all(0..4, { let r = #; map(units_within(b, hex(2, 1), r, "Brigade"), .sigle) == map(filter(entities("Brigade"), .position != nil && hex_distance(.position, hex(2, 1)) <= r), .sigle) })`, `true`},
		{`units_within(b, hex(1, 1), -1)`, `error: <e>:1:1: units_within: the distance cannot be negative (got -1)`},
		{`units_within(b, hex(1, 1), 1, "Brigad")`, `error: <e>:1:1: units_within: the map b has no units line of Brigad (units of Brigade, Général)`},
		{`units_within(b, 3, 1)`, `error: <e>:1:1: expected a hex, got 3`},
		{`units_within(3, hex(1, 1), 1)`, `error: <e>:1:1: expected a map, got 3`},
	} {
		var v any
		var err error
		if strings.Contains(c.in, " = ") && !strings.Contains(c.in, "==") {
			err = s.Exec("<e>", c.in)
		} else {
			v, err = s.Eval("<e>", c.in)
		}
		got := ""
		switch {
		case err != nil:
			got = "error: " + strings.Split(err.Error(), "\n")[0]
		case v != nil:
			got = dsl.Repr(v)
		}
		if got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
}
