package runtime_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/peek"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// TestPickAnswer: a whole number is an option's number in the menu, from 1; any other text
// an option's name, exactly.
func TestPickAnswer(t *testing.T) {
	texts := []string{"bois", "colline", "12"}
	for _, c := range []struct {
		answer string
		want   int
		err    string
	}{
		{answer: "1", want: 0},
		{answer: "3", want: 2},
		{answer: "colline", want: 1},
		{answer: "0", err: "no option 0 (1 to 3)"},
		{answer: "4", err: "no option 4 (1 to 3)"},
		{answer: "-1", err: "no option -1 (1 to 3)"},
		{answer: "12", err: "no option 12 (1 to 3)"}, // a number is a position, never a name
		{answer: "Bois", err: "no option named so (bois, colline, 12)"},
		{answer: "", err: "no option named so (bois, colline, 12)"},
	} {
		i, err := runtime.PickAnswer(c.answer, texts)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: %d, %v; want the error %q", c.answer, i, err, c.err)
			}
		} else if err != nil || i != c.want {
			t.Errorf("%q: %d, %v; want %d", c.answer, i, err, c.want)
		}
	}
}

const chooseRules = `ruleset "choix"
kind U { nom: string }
entity a: U { nom: "Alpha" }
rule premier(q, o) { return o[0] }
rule rien(q, o) { return nil }
action deux(): list {
  let x = choose("Un ?", ["a", "b"], premier)
  let y = choose("Deux ?", ["c", "d"], premier)
  return [x, y]
}
action puis_échec(): string {
  let x = choose("Un ?", ["a", "b"], premier)
  require false else "échec après {x}"
  return x
}
`

// TestChooseGivenJournal: answers taken by a call that fails are given back; an answer that
// fits no option is discarded for good, the ones taken before it given back; a player's menu
// shows entities by name and other values as printed; nil is an option a policy can return.
func TestChooseGivenJournal(t *testing.T) {
	prog, diags := dsl.LoadSource("c.rules", []byte(chooseRules))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, c := range []struct {
		name   string
		expr   string
		given  []string
		ask    func(string, []string) (int, error)
		want   string
		err    string
		left   []string
		menu   []string
		traced []string
	}{
		{name: "both given", expr: "deux()", given: []string{"b", "2", "x"}, want: `["b", "d"]`, left: []string{"x"},
			traced: []string{`choose "Un ?": b (given)`, `choose "Deux ?": d (given)`}},
		{name: "failed call gives back", expr: "puis_échec()", given: []string{"2", "x"}, err: "échec après b", left: []string{"2", "x"}},
		{name: "bad second answer discarded", expr: "deux()", given: []string{"b", "z", "1"},
			err: `choose "Deux ?": hand-given answer z: no option named so (c, d) (it is discarded)`, left: []string{"b", "1"}},
		{name: "bad first answer discarded", expr: "deux()", given: []string{"9", "a"},
			err: `choose "Un ?": hand-given answer 9: no option 9 (1 to 2) (it is discarded)`, left: []string{"a"}},
		{name: "menu", expr: `choose("Qui ?", [a, 2, "x", [1]], premier)`, ask: func(string, []string) (int, error) { return 0, nil },
			want: `U{nom: "Alpha"}`, menu: []string{"a", "2", "x", "[1]"}, traced: []string{`choose "Qui ?": a (given)`}},
		{name: "menu answer out of range", expr: `choose("Où ?", ["x"], premier)`, ask: func(string, []string) (int, error) { return 1, nil },
			err: `choose "Où ?": no option 2 (1 to 1)`},
		{name: "no answer", expr: `choose("Où ?", ["x"], premier)`, ask: func(string, []string) (int, error) { return 0, errors.New("EOF") },
			err: `choose "Où ?": EOF`},
		{name: "nil chosen by policy", expr: `choose("Rien ?", ["x", nil], rien)`, want: "nil",
			traced: []string{`choose "Rien ?": nil (policy rien)`}},
		{name: "nil not an option", expr: `choose("Rien ?", ["x"], rien)`,
			err: `choose "Rien ?": the policy rien returned nil, which is not one of the options ["x"]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
			if err != nil {
				t.Fatal(err)
			}
			rt := peek.Machine(m)
			rt.GivenChoices = c.given
			var menu, traced []string
			if c.ask != nil {
				rt.Ask = func(prompt string, options []string) (int, error) {
					menu = options
					return c.ask(prompt, options)
				}
			}
			rt.Trace = func(_ int, line string) {
				if strings.HasPrefix(line, "choose") {
					traced = append(traced, line)
				}
			}
			v, err := dsl.NewSession(m).Eval("<t>", c.expr)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("= %s, %v; want the error %q", dsl.Repr(v), err, c.err)
				}
			} else if err != nil {
				t.Fatal(err)
			} else if got := dsl.Repr(v); got != c.want {
				t.Errorf("= %s, want %s", got, c.want)
			}
			if len(rt.GivenChoices)+len(c.left) > 0 && !reflect.DeepEqual(rt.GivenChoices, c.left) {
				t.Errorf("left %q, want %q", rt.GivenChoices, c.left)
			}
			if c.menu != nil && !reflect.DeepEqual(menu, c.menu) {
				t.Errorf("menu %q, want %q", menu, c.menu)
			}
			if c.traced != nil && !reflect.DeepEqual(traced, c.traced) {
				t.Errorf("traced %q, want %q", traced, c.traced)
			}
		})
	}
}
