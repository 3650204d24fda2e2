package runtime_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/dsltest"
	"rulesh/dsl/internal/peek"
	"rulesh/dsl/internal/ruletest"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// unitRules is shared with the other packages' tests.
const unitRules = ruletest.UnitRules

// run loads rules and evaluates an input (dsltest.Run).
var run = dsltest.Run

func TestEval(t *testing.T) {
	tests := []struct {
		name, expr string
		rolls      []int
		want       string
		emitted    string
		err        string
	}{
		{name: "arith", expr: "1 + 2 * 3", want: "7"},
		{name: "float division", expr: "7 / 2", want: "3.5"},
		{name: "div rounds down", expr: "div(7, 2)", want: "3"},
		{name: "div negative rounds down", expr: "div(-7, 2)", want: "-4"},
		{name: "div by zero", expr: "div(1, 0)", err: "division by zero"},
		{name: "const from const", expr: "DOUBLE", want: "20"},
		{name: "option", expr: "malus", want: "3"},
		{name: "entity field", expr: "a.force", want: "5"},
		{name: "entity default", expr: "b.pv", want: "10"},
		{name: "record repr", expr: "b", want: `Unit{nom: "B", force: 3, pv: 10, portée: 1.5, tags: []}`},
		{name: "default param", expr: "plus(2)", want: "3"},
		{name: "explicit param", expr: "plus(2, 5)", want: "7"},
		{name: "else if", expr: "[signe(3), signe(-1), signe(0)]", want: `["positif", "négatif", "nul"]`},
		{name: "for list", expr: "somme([1, 2, 3])", want: "6"},
		{name: "for range", expr: "somme(1..4)", want: "10"},
		{name: "for map sorted", expr: `somme_map({b: 2, a: 1})`, want: `"a=1;b=2;"`},
		{name: "while", expr: "compte(5)", want: "5"},
		{name: "emit and field write", expr: "blesse(a, 4)", emitted: "A perd 4 PV, reste 6"},
		{name: "require fails", expr: "blesse(a, 40)", emitted: "A perd 40 PV, reste -30", err: "A tombe"},
		{name: "dice from queue", expr: "jet()", rolls: []int{7}, want: "9"},
		{name: "dice exhausted", expr: "jet()", err: "no hand-given result left"},
		{name: "hand-given too big", expr: "jet()", rolls: []int{11}, err: "does not fit a 10-sided die"},
		{name: "recursion", expr: "fact(10)", want: "3628800"},
		{name: "kind constructor", expr: "nouvelle().force", want: "9"},
		{name: "list concat", expr: `a.tags + ["x"]`, want: `["x"]`},
		{name: "faces join a list", expr: `roll("2d6").faces + [1]`, rolls: []int{4, 5}, want: `[4, 5, 1]`},
		{name: "a list joins faces", expr: `[0] + roll("2d6").faces`, rolls: []int{4, 5}, want: `[0, 4, 5]`},
		{name: "faces join faces", expr: `roll("2d6").faces + roll("1d6").all`, rolls: []int{4, 5, 6}, want: `[4, 5, 6]`},
		{name: "param type checked at run time", expr: `plus(["x"][0])`, err: "parameter x: expected int"},
		{name: "loop limit", expr: "boucle()", err: "max_loop_iterations"},
		{name: "call depth limit", expr: "récursion(1)", err: "max_call_depth"},
		{name: "unicode names", expr: "a.portée * 2", want: "3.0"},
		{name: "same record", expr: "[same(a, a), same(a, b), a == Unit({nom: \"A\", force: 5})]", want: "[true, false, true]"},
		{name: "same twins", expr: "same(b, Unit({nom: \"B\"})) || !(b == Unit({nom: \"B\"}))", want: "false"},
		{name: "same needs records", expr: "same(a, 3)", err: "same compares two records"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, out, err := run(t, unitRules, tt.expr, tt.rolls...)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one containing %q", err, tt.err)
				}
			} else if err != nil {
				t.Fatalf("unexpected error: %v", err)
			} else if got := runtime.Repr(v); tt.want != "" && got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
			if got := strings.Join(out, "\n"); got != tt.emitted {
				t.Errorf("emitted %q, want %q", got, tt.emitted)
			}
		})
	}
}

func TestFailedCallRollsBack(t *testing.T) {
	prog, diags := dsl.LoadSource("t.rules", []byte(unitRules))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, _ := dsl.NewMachine(prog, dice.NewIntQueue(nil, nil), nil)
	s := dsl.NewSession(m)
	if _, err := s.Eval("<e>", "deux(a, b)"); err == nil {
		t.Fatal("deux should fail on b")
	}
	for _, name := range []string{"a", "b"} {
		if v, _ := s.Eval("<e>", name+".pv"); runtime.Repr(v) != "10" {
			t.Errorf("%s.pv = %s after a failed call, want 10", name, runtime.Repr(v))
		}
	}
	if _, err := s.Eval("<e>", "blesse(a, 4)"); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Eval("<e>", "a.pv"); runtime.Repr(v) != "6" {
		t.Errorf("a.pv = %s after a successful call, want 6", runtime.Repr(v))
	}
}

func TestFailedCallGivesBackHandRolls(t *testing.T) {
	prog, _ := dsl.LoadSource("t.rules", []byte(unitRules+"\nrule deux_jets() {\n  let x = d(6)\n  require false else \"non\"\n}\n"))
	q := dice.NewIntQueue([]int{4}, nil)
	m, _ := dsl.NewMachine(prog, q, nil)
	if _, err := dsl.NewSession(m).Eval("<e>", "deux_jets()"); err == nil {
		t.Fatal("want a failure")
	}
	if got := q.Pending(); len(got) != 1 || got[0] != "4" {
		t.Errorf("pending rolls %v, want [4]", got)
	}
}

func TestStepLimit(t *testing.T) {
	prog, _ := dsl.LoadSource("t.rules", []byte(unitRules))
	m, _ := dsl.NewMachine(prog, dice.NewIntQueue(nil, nil), nil)
	peek.Machine(m).Limits.MaxSteps = 50
	_, err := dsl.NewSession(m).Eval("<e>", "compte(100)")
	var re *runtime.RuntimeError
	if !errors.As(err, &re) || !strings.Contains(re.Msg, "max_steps = 50") {
		t.Fatalf("err = %v, want the step limit", err)
	}
}

func TestMemoryLimit(t *testing.T) {
	prog, _ := dsl.LoadSource("t.rules", []byte(unitRules))
	m, _ := dsl.NewMachine(prog, dice.NewIntQueue(nil, nil), nil)
	_, err := dsl.NewSession(m).Eval("<e>", "len(map(1..10000000, # * 2))")
	if err == nil || !strings.Contains(err.Error(), "memory_budget") {
		t.Fatalf("err = %v, want the memory limit", err)
	}
}

func TestSetOption(t *testing.T) {
	prog, _ := dsl.LoadSource("t.rules", []byte(unitRules))
	m, err := dsl.NewMachine(prog, dice.NewIntQueue([]int{7, 7}, nil), map[string]any{"malus": 1})
	if err != nil {
		t.Fatal(err)
	}
	s := dsl.NewSession(m)
	if v, _ := s.Eval("<e>", "jet()"); runtime.Repr(v) != "11" {
		t.Errorf("jet() with malus 1 = %s, want 11", runtime.Repr(v))
	}
	// Frames pooled before the change must see the new value.
	if err := m.SetOption("malus", 5); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Eval("<e>", "jet()"); runtime.Repr(v) != "7" {
		t.Errorf("jet() with malus 5 = %s, want 7", runtime.Repr(v))
	}
	if err := m.SetOption("malis", 2); err == nil || !strings.Contains(err.Error(), "did you mean malus") {
		t.Errorf("unknown option error = %v", err)
	}
	if err := m.SetOption("malus", "beaucoup"); err == nil {
		t.Error("a string for an int option should fail")
	}
}

func TestRuntimeErrorPosition(t *testing.T) {
	src := "rule f(x) {\n  let y = 1\n  return y + x.champ\n}\n"
	_, _, err := run(t, src, "f(3)")
	var re *runtime.RuntimeError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v", err)
	}
	if re.Pos.Line != 3 || re.Pos.Col != 16 {
		t.Errorf("position %v, want t.rules:3:16 (the field)", re.Pos)
	}
	if st := re.Stack(); len(st) != 1 || !strings.Contains(st[0], "in f called at <eval>:1:1") {
		t.Errorf("stack %v", st)
	}
}

// An error leaving nested calls carries a frame per call, innermost first, each with the
// call's position, the procedure and its parameters' values (a default taken included); the
// printed stack is written from them.
func TestRuntimeErrorFrames(t *testing.T) {
	src := "rule inner(x, y = 7) {\n  return 1 + x.champ\n}\nrule outer(n) {\n  let k = n * 2\n  return inner(k)\n}\n"
	_, _, err := run(t, src, "outer(4)")
	var re *runtime.RuntimeError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v", err)
	}
	want := []struct {
		proc, at string
		args     []any
	}{
		{"inner", "t.rules:6:10", []any{8, 7}},
		{"outer", "<eval>:1:1", []any{4}},
	}
	if len(re.Frames) != len(want) {
		t.Fatalf("frames %+v, want %d", re.Frames, len(want))
	}
	for i, w := range want {
		f := re.Frames[i]
		if f.Proc != w.proc || f.Pos.String() != w.at || fmt.Sprint(f.Args) != fmt.Sprint(w.args) {
			t.Errorf("frame %d = %s %s %v, want %s %s %v", i, f.Proc, f.Pos, f.Args, w.proc, w.at, w.args)
		}
		if got := re.Stack()[i]; got != "in "+w.proc+" called at "+w.at {
			t.Errorf("stack line %d = %q", i, got)
		}
	}
}

// The runtime's own errors are worded for the user and reach them as they are: only expr's
// and Go's text is rewritten. A kind named float64 was called "float" in its error, and a
// string with a Go type name in it was changed the same way.
func TestOwnErrorsAreNotRewritten(t *testing.T) {
	for _, tc := range []struct{ src, expr, want string }{
		{"kind float64 { n: int = 0 }\nrule f(x) {\n  return float64({n: x})\n}\n", `f("z")`, `float64.n: expected int, got "z"`},
		// expr's own words are still the language's.
		{"rule g(x: int, y: int) {\n  return x % y\n}\n", `g(5, 0)`, "division by zero"},
	} {
		_, _, err := run(t, tc.src, tc.expr)
		var re *runtime.RuntimeError
		if !errors.As(err, &re) || re.Msg != tc.want {
			t.Errorf("%s: error %v, want %q", tc.expr, err, tc.want)
		}
	}
}

// TestSymbolsJoin: a roll's symbols are a list to +, as its faces are (they are held as
// []string, which + refused as "mismatched types list and list").
func TestSymbolsJoin(t *testing.T) {
	// += adds the elements of faces and symbols, not the list as one element.
	src := "dice g = [a, b]\nrule plus_faces(): list {\n  let l = [0]\n  l += roll(\"2d6\").faces\n  return l\n}\n" +
		"rule plus_symbols(): list {\n  let l = []\n  l += roll(g, 2).symbols\n  return l\n}\n"
	dsltest.CheckCases(t, src, []dsltest.Case{
		{Src: `roll(g, 2).symbols + roll(g, 1).symbols`, Rolls: []string{"a", "b", "b"}, Want: `["a", "b", "b"]`},
		{Src: `roll(g, 1).symbols + ["z"]`, Rolls: []string{"b"}, Want: `["b", "z"]`},
		{Src: `roll(g, 1).symbols + roll("1d6").faces`, Rolls: []string{"a", "4"}, Want: `["a", 4]`},
		{Src: "plus_faces()", Rolls: []string{"3", "4"}, Want: `[0, 3, 4]`},
		{Src: "plus_symbols()", Rolls: []string{"b", "a"}, Want: `["b", "a"]`},
	})
}
