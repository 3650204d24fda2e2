package dsl

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"rulesh/stdlib/dice"
)

func TestParseTableCall(t *testing.T) {
	for _, c := range []struct {
		src    string
		name   string
		args   []any
		consts bool
	}{
		{"coup", "coup", nil, true},
		{"coup()", "coup", nil, true},
		{"coup(2, -1)", "coup", []any{2, -1}, true},
		{"combats(1:1)", "combats", []any{"1:1"}, true},
		{"combats(5/3)", "combats", []any{"5/3"}, true},
		{`moral("clair")`, "moral", []any{"clair"}, true},
		{"f(true)", "f", []any{true}, true},
		// A name, a roll or a card is no constant: the call is an expression.
		{"résultat_aidé(stat)", "résultat_aidé", []any{"stat"}, false},
		{"coup(1d2)", "coup", []any{"1d2"}, false},
		{"f(Q♣)", "f", []any{"Q♣"}, false},
	} {
		name, args, consts := ParseTableCall(c.src)
		if name != c.name || !reflect.DeepEqual(args, c.args) || consts != c.consts {
			t.Errorf("%s: %q %#v %v, want %q %#v %v", c.src, name, args, consts, c.name, c.args, c.consts)
		}
	}
}

func TestWrittenNames(t *testing.T) {
	for _, c := range []struct {
		src   string
		names []string
		call  bool
	}{
		{"do_move", []string{"do_move"}, false},
		{"frapper(will, jack)", []string{"frapper", "will", "jack"}, true},
		{`d6 >= 4 && "n" != ""`, nil, false}, // d6 is dice notation, "n" a string
		{"3d(2^60)", nil, false},             // the d of dice notation, glued to its count
		{"(2d6 + n)", []string{"n"}, false},
		{"x.y(1)", []string{"x", "y"}, true},
	} {
		names, call := WrittenNames(c.src)
		if !reflect.DeepEqual(names, c.names) || call != c.call {
			t.Errorf("%s: %q %v, want %q %v", c.src, names, call, c.names, c.call)
		}
	}
}

func TestCompiledNames(t *testing.T) {
	prog, diags := LoadSource("n.rules", []byte("option bonus = 1 \"b\"\nconst k = 2\nrule double(x: int): int { return 2 * x }\n"))
	if prog == nil {
		t.Fatal(diags)
	}
	m, err := NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession(m)
	if _, err := s.Let("n", "3"); err != nil {
		t.Fatal(err)
	}
	// Past 16 names read, lets or calls, the walk keeps its sets in maps: the same names.
	var many, lets, calls []string
	for i := range 20 {
		v := fmt.Sprintf("v%d", i)
		if _, err := s.Let(v, "1"); err != nil {
			t.Fatal(err)
		}
		many = append(many, v)
		lets = append(lets, fmt.Sprintf("let a%d = %d", i, i))
		calls = append(calls, fmt.Sprintf("double(a%d)", i))
	}
	for _, c := range []struct {
		src  string
		want []string
	}{
		{strings.Join(many, " + ") + " + v3 + n", append(slices.Clone(many), "n")},
		{strings.Join(lets, "; ") + "; " + strings.Join(calls, " + ") + " + n + a3 + v1", []string{"n", "v1"}},
		{"1", nil},
		{"n", []string{"n"}},
		{"bonus", []string{"bonus"}},
		{`d6 >= 4 && "n" != ""`, nil},
		{"double(n) + k", []string{"n", "k"}},
		{"let j = n; j + bonus", []string{"n", "bonus"}},
		{"map([1, 2], # + n)", []string{"n"}},
		{`"{n}" + "x"`, nil}, // not a template: a string inside an expression
	} {
		x, err := s.Compile("<t>", c.src)
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		if got := x.Names(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %q, want %q", c.src, got, c.want)
		}
	}
}

// TestProgramOption: whether a name is an option, and whether a value fits it, is read from
// the Program, as NewMachine would find it.
func TestProgramOption(t *testing.T) {
	prog, diags := LoadSource("o.rules", []byte("option stat = 1 \"s\"\nconst k = 2\n"))
	if prog == nil {
		t.Fatal(diags)
	}
	if o, ok := prog.Option("stat"); !ok || o.Name != "stat" || o.Default != 1 || o.Value != 1 || o.Doc != "s" {
		t.Errorf("stat: %+v %v", o, ok)
	}
	if _, ok := prog.Option("k"); ok {
		t.Error("the const k is no option")
	}
	for _, c := range []struct {
		set  map[string]any
		want string
	}{
		{map[string]any{"stat": 3}, ""},
		{map[string]any{"stat": "abc"}, `option stat: expected int, got "abc"`},
		{map[string]any{"sta": 1}, "unknown option sta (did you mean stat?)"},
		{map[string]any{"k": 1, "stat": 2}, "unknown option k"},
	} {
		err := prog.CheckOptions(c.set)
		_, merr := NewMachine(prog, dice.NewPCG(1), c.set)
		if got := fmt.Sprint(err); err == nil && c.want != "" || err != nil && got != c.want {
			t.Errorf("%v: %v, want %q", c.set, err, c.want)
		}
		if fmt.Sprint(err) != fmt.Sprint(merr) {
			t.Errorf("%v: CheckOptions says %v, NewMachine %v", c.set, err, merr)
		}
	}
}
