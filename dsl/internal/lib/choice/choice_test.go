package choice_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/peek"
	"rulesh/stdlib/dice"
)

const rules = `ruleset "choix"
rule prudent(question, options) {
  return options[0]
}
rule dernier(question, options) {
  return options[len(options) - 1]
}
rule ailleurs(question, options) {
  return "ailleurs"
}
kind Unité {
  nom: string
}
entity a: Unité { nom: "Alpha" }
entity b: Unité { nom: "Bravo" }
action repli(): string {
  return choose("Où ?", ["bois", "colline", "village"], prudent)
}
action deux(): list {
  let x = choose("Premier ?", ["a", "b"], prudent)
  let y = choose("Second ?", ["c", "d"], dernier)
  return [x, y]
}
action puis_échec(): string {
  let x = choose("Premier ?", ["a", "b"], prudent)
  require false else "échec après {x}"
  return x
}
action mal(): string {
  return choose("?", ["a"], ailleurs)
}
rule qui(): any {
  return choose("Qui ?", [a, b], dernier)
}
`

// TestChoose: what choose returns from hand-given answers, a player's menu or the policy,
// what it leaves given, what it traces, and its messages.
func TestChoose(t *testing.T) {
	prog, d := dsl.LoadSource("c.rules", []byte(rules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	for _, c := range []struct {
		name   string
		expr   string
		given  []string
		ask    int // answer asked at the terminal, from 1 (0: no asker)
		want   string
		err    string
		left   []string
		traced []string
	}{
		{name: "policy", expr: "repli()", want: `"bois"`, traced: []string{`choose "Où ?": bois (policy prudent)`}},
		{name: "two policies", expr: "deux()", want: `["a", "d"]`},
		{name: "given number", expr: "repli()", given: []string{"2"}, want: `"colline"`, traced: []string{`choose "Où ?": colline (given)`}},
		{name: "given name", expr: "repli()", given: []string{"village", "1"}, want: `"village"`, left: []string{"1"}},
		{name: "given then policy", expr: "deux()", given: []string{"b"}, want: `["b", "d"]`},
		{name: "entity by name", expr: "qui()", given: []string{"a"}, want: `Unité{nom: "Alpha"}`},
		{name: "entity by policy", expr: "qui()", want: `Unité{nom: "Bravo"}`},
		{name: "asked", expr: "repli()", ask: 3, want: `"village"`, traced: []string{`choose "Où ?": village (given)`}},
		{name: "given before asked", expr: "repli()", given: []string{"1"}, ask: 3, want: `"bois"`},
		{name: "number out of range", expr: "repli()", given: []string{"4", "2"},
			err: `choose "Où ?": hand-given answer 4: no option 4 (1 to 3) (it is discarded)`, left: []string{"2"}},
		{name: "unknown name", expr: "repli()", given: []string{"rivière"},
			err: `choose "Où ?": hand-given answer rivière: no option named so (bois, colline, village) (it is discarded)`},
		{name: "failed call gives back", expr: "puis_échec()", given: []string{"b", "1"}, err: "échec après b", left: []string{"b", "1"}},
		{name: "policy off the options", expr: "mal()", err: `choose "?": the policy ailleurs returned "ailleurs", which is not one of the options ["a"]`},
		{name: "no options", expr: `choose("?", [], prudent)`, err: `choose "?": no options to choose from`},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
			if err != nil {
				t.Fatal(err)
			}
			peek.Machine(m).GivenChoices = c.given
			var traced []string
			peek.Machine(m).Trace = func(_ int, line string) {
				if strings.HasPrefix(line, "choose") {
					traced = append(traced, line)
				}
			}
			if c.ask > 0 {
				peek.Machine(m).Ask = func(prompt string, options []string) (int, error) { return c.ask - 1, nil }
			}
			v, err := dsl.NewSession(m).Eval("<t>", c.expr)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
			} else if err != nil {
				t.Fatal(err)
			} else if got := dsl.Repr(v); got != c.want {
				t.Errorf("= %s, want %s", got, c.want)
			}
			if len(peek.Machine(m).GivenChoices) > 0 || len(c.left) > 0 {
				if !reflect.DeepEqual(peek.Machine(m).GivenChoices, c.left) {
					t.Errorf("left %q, want %q", peek.Machine(m).GivenChoices, c.left)
				}
			}
			if c.traced != nil && !reflect.DeepEqual(traced, c.traced) {
				t.Errorf("traced %q, want %q", traced, c.traced)
			}
		})
	}
}

// TestChooseAskFails: a player who gives no answer fails the call.
func TestChooseAskFails(t *testing.T) {
	prog, _ := dsl.LoadSource("c.rules", []byte(rules))
	m, _ := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	peek.Machine(m).Ask = func(string, []string) (int, error) { return 0, errors.New("no answer given (EOF)") }
	_, err := dsl.NewSession(m).Eval("<t>", "repli()")
	if err == nil || !strings.Contains(err.Error(), `choose "Où ?": no answer given (EOF)`) {
		t.Errorf("error %v", err)
	}
}

// TestChooseChecked: the policy is checked at load.
func TestChooseChecked(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"rule p(q) {\n  return q\n}\naction x(): any {\n  return choose(\"?\", [1], p)\n}\n", "p takes 1 parameter; choose calls it with 2: (prompt, options)"},
		{"action p(q, o): any {\n  return o[0]\n}\naction x(): any {\n  return choose(\"?\", [1], p)\n}\n", "p is an action"},
		{"action x(): any {\n  return choose(\"?\", [1], nulle)\n}\n", "nulle"},
	} {
		_, d := dsl.LoadSource("c.rules", []byte("ruleset \"c\"\n"+c.src))
		if !d.HasErrors() || !strings.Contains(d.Error(), c.want) {
			t.Errorf("%s: diagnostics %v, want %q", c.src, d, c.want)
		}
	}
}
