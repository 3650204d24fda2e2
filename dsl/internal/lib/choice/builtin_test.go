package choice_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/lib/choice"
	"rulesh/dsl/internal/peek"
	"rulesh/stdlib/dice"
)

// TestChooseArguments calls the builtin directly with the arguments the checker keeps rules
// from passing (a caller from Go, or a value of type any at run time): each is refused with
// a message naming choose and the bad value, and none is taken as an answer.
func TestChooseArguments(t *testing.T) {
	prog, d := dsl.LoadSource("c.rules", []byte(rules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	choose := choice.Builtins()["choose"].Fn
	opts := []any{"bois", "colline"}
	for _, c := range []struct {
		name string
		args []any
		want string // the value chosen, or the error's text
		err  bool
	}{
		{name: "prompt not a string", args: []any{3, opts, "prudent"}, want: "choose: the prompt must be a string, got 3", err: true},
		{name: "options not a list", args: []any{"Où ?", "bois", "prudent"}, want: `choose: the options must be a list, got "bois"`, err: true},
		{name: "no policy", args: []any{"Où ?", opts, ""}, want: `choose "Où ?": a policy rule is needed`, err: true},
		{name: "policy unknown", args: []any{"Où ?", opts, "nulle"}, want: "choose: no procedure nulle", err: true},
		{name: "policy not a procedure", args: []any{"Où ?", opts, 7}, want: "choose: expected a procedure, got 7", err: true},
		{name: "policy of another shape", args: []any{"Où ?", opts, "repli"}, want: "repli takes 0 parameters; choose calls it with 2: (prompt, options)", err: true},
		{name: "policy by name", args: []any{"Où ?", opts, "dernier"}, want: "colline"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
			if err != nil {
				t.Fatal(err)
			}
			v, err := choose(peek.Machine(m), c.args)
			switch {
			case c.err && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("= %v, %v; want the error %q", v, err, c.want)
			case !c.err && (err != nil || v != c.want):
				t.Errorf("= %v, %v; want %q", v, err, c.want)
			}
		})
	}
}
