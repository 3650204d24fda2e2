package dsl_test

import (
	"testing"

	"rulesh/dsl"
)

// TestCheckRolls: a hand-given result is refused when no die could show it: a whole number
// below 1 or above the sides limit unless a die of the rules (declared, inline, or Fudge
// in the rules or in the texts given) has it as a face, and a name no declared die has.
func TestCheckRolls(t *testing.T) {
	plain, _ := dsl.LoadSource("p.rules", []byte("rule r() {\n  return 1d6\n}\n"))
	faces, diags := dsl.LoadSource("f.rules", []byte("dice moral = [-1, 0, 1, 2]\ndice combat = [sabre, fusil]\n"+
		"rule r() {\n  return 1d[-3, 5] + 2dF\n}\n"))
	if plain == nil || faces == nil {
		t.Fatal(diags)
	}
	for _, c := range []struct {
		prog    *dsl.Program
		results []string
		texts   []string
		want    string
	}{
		{plain, []string{"1", "6", "20", "1000000"}, nil, ""},
		{plain, []string{"3", "0"}, nil, "hand-given result 0 fits no die: dice show 1 or more, and no die of these rules has the face 0"},
		{plain, []string{"-1"}, nil, "hand-given result -1 fits no die: dice show 1 or more, and no die of these rules has the face -1"},
		{plain, []string{"1000001"}, nil, "hand-given result 1000001 fits no die: a die has at most 1000000 sides"},
		{plain, []string{"sabre"}, nil, "hand-given result sabre fits no die: no die of these rules has named faces"},
		// The Fudge dice of an expression given with the results.
		{plain, []string{"-1", "0", "1"}, []string{"4dF + 1"}, ""},
		{plain, []string{"-1"}, []string{"4d6"}, "hand-given result -1 fits no die: dice show 1 or more, and no die of these rules has the face -1"},
		{faces, []string{"-1", "0", "-3", "sabre", "fusil", "7"}, nil, ""},
		{faces, []string{"-2"}, nil, "hand-given result -2 fits no die: dice show 1 or more, and no die of these rules has the face -2"},
		{faces, []string{"fusi"}, nil, "hand-given result fusi is a face of no die of these rules (combat)"},
	} {
		got := ""
		if err := c.prog.CheckRolls(c.results, c.texts...); err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("CheckRolls(%v, %v) = %q, want %q", c.results, c.texts, got, c.want)
		}
	}
}

// TestCheckChoices: an answer that is a whole number below 1 fits no menu; names and other
// numbers wait for the call that asks.
func TestCheckChoices(t *testing.T) {
	for _, c := range []struct {
		answers []string
		want    string
	}{
		{[]string{"1", "2", "99", "bois", "-x"}, ""},
		{[]string{"2", "0"}, "answer 0 fits no menu: options are numbered from 1"},
		{[]string{"-1"}, "answer -1 fits no menu: options are numbered from 1"},
	} {
		got := ""
		if err := dsl.CheckChoices(c.answers); err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("CheckChoices(%v) = %q, want %q", c.answers, got, c.want)
		}
	}
}
