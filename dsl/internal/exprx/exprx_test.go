package exprx_test

import (
	"errors"
	"reflect"
	"rulesh/dsl/internal/libtest"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"

	"rulesh/dsl/internal/check"
	"rulesh/dsl/internal/exprx"
	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
	stddice "rulesh/stdlib/dice"
)

// library is the library package dsl assembles.
var library = libtest.Library

// memFiles holds rule files in memory.
type memFiles = libtest.MemFiles

const rules = `
ruleset "t"
option malus = 3 "doc"
const base = 10
kind Unit {
  nom: string
  force: int = 3
  suivant: Unit
}
entity a: Unit { nom: "A" }
rule plus(x: int, y: int = 1): int {
  return x + y
}
`

// load checks the rules above into a program.
func load(t *testing.T) *runtime.Program {
	t.Helper()
	files, sources, diags := syntax.ParseFiles(memFiles{"t.rules": []byte(rules)}, "t.rules")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	prog := check.NewProgram(library(), sources, []string{"t.rules"})
	if diags := check.CheckFiles(prog, files); diags.HasErrors() {
		t.Fatal(diags)
	}
	return prog
}

// scope answers as the checker does: locals given, every global visible in a procedure,
// options, consts, dice and maps elsewhere.
type scope struct {
	prog     *runtime.Program
	locals   map[string]*runtime.Type
	inProc   bool
	defaults string // DefaultsNow's answer
}

func (s *scope) Local(name string) (*runtime.Type, bool) { t, ok := s.locals[name]; return t, ok }

func (s *scope) Global(name string) (*runtime.Type, bool) {
	switch g := s.prog.Globals[name].(type) {
	case *runtime.Option:
		return g.Type, g.Type != nil
	case *runtime.Const:
		return g.Type, g.Type != nil
	case *runtime.Entity:
		if s.inProc && g.Kind != nil {
			return g.Kind.Type(), true
		}
	}
	return nil, false
}

func (s *scope) InProc() bool                           { return s.inProc }
func (s *scope) DefaultsNow(*runtime.Kind) string       { return s.defaults }
func (s *scope) Suggest(string, func() []string) string { return "did you mean?" }

func expr(text string) *runtime.Expr {
	start := lexer.Position{Filename: "<t>", Line: 1, Column: 1}
	return &runtime.Expr{Pos: syntax.PosOf(start), Text: text, Start: start}
}

// TestCompile: what Compile finds out about an expression, or why it refuses it.
func TestCompile(t *testing.T) {
	prog := load(t)
	intLocal := map[string]*runtime.Type{"x": runtime.IntType}
	tests := []struct {
		text    string
		locals  map[string]*runtime.Type
		inProc  bool
		typ     string   // the static type
		lit     any      // the literal value, if any
		ident   string   // the local's name, if it is one
		reads   []string // the globals read
		diag    string   // a diagnostic's summary
		err     string   // an Error's summary
		unknown exprx.Unknown
		at      int // the Error's offset
	}{
		{text: "1 + 2", typ: "int", lit: 3},
		{text: `"a" + "b"`, typ: "string", lit: "ab"},
		{text: "1.5 * 2", typ: "float", lit: 3.0},
		{text: "true && false", typ: "bool", lit: false},
		{text: "(x)", locals: intLocal, typ: "int", ident: "x"},
		{text: "x + malus + base", locals: intLocal, typ: "int", reads: []string{"malus", "base"}},
		{text: "a.nom", inProc: true, typ: "string", reads: []string{"a"}},
		{text: "a.suivant", inProc: true, typ: "Unit", reads: []string{"a"}},
		{text: "Unit({force: 1})", typ: "Unit"},
		{text: "Unit()", typ: "Unit"},
		{text: "plus(1)", inProc: true, typ: "int"},
		{text: "let y = 2; y + base", typ: "int", reads: []string{"base"}},
		{text: "3d6 + 1", typ: "int"},
		{text: "(4-2)d10", err: "a dice literal cannot follow a value here", at: 5},
		{text: "2d[combat]", diag: "dice 2d[combat]: "},
		{text: "Q♣", typ: "card"},
		{text: "[1, 2] + [3]", typ: "list"},
		{text: "sum([1, 2]) + len(x)", locals: map[string]*runtime.Type{"x": runtime.AnyType}, typ: "int"},
		{text: "plus(1)", diag: "rule plus cannot be called here"},
		{text: "plus(1, 2, 3)", inProc: true, diag: "plus takes 1 to 2 arguments, got 3"},
		{text: "plus('a')", inProc: true, diag: "parameter x of plus is int, got string"},
		{text: "plus(1, y = true)", inProc: true, diag: "parameter y of plus is int, got bool"},
		{text: "Unit({nope: 1})", diag: "Unit has no field nope"},
		{text: "Unit(1, 2)", diag: "Unit takes one map of fields, got 2 arguments"},
		{text: "zz + 1", err: "unknown name zz", unknown: exprx.UnknownName, at: 0},
		{text: "1 + zz", err: "unknown name zz", unknown: exprx.UnknownName, at: 4},
		{text: "a.zz", inProc: true, err: "unknown field zz", unknown: exprx.UnknownField, at: -2},
		{text: "now()", err: "now is not available in rules", at: -2},
		{text: "99999999999999999999 + 1", err: "the number 99999999999999999999 is too large", at: -2},
		{text: "1 +", err: "unexpected end of input", at: -2},
		{text: "nope(1)", err: "unknown name nope", unknown: exprx.UnknownName, at: -2},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			x := expr(tt.text)
			c := exprx.NewCompiler(prog)
			reads, diags, err := c.Compile(x, &scope{prog: prog, locals: tt.locals, inProc: tt.inProc})
			switch {
			case tt.diag != "":
				if len(diags) == 0 || !strings.HasPrefix(diags[0].Summary, tt.diag) {
					t.Fatalf("diagnostics %v, error %v; want %q", diags, err, tt.diag)
				}
				return
			case tt.err != "":
				if err == nil || !strings.HasPrefix(err.Summary, tt.err) {
					t.Fatalf("error %v, diagnostics %v; want %q", err, diags, tt.err)
				}
				if err.Unknown != tt.unknown {
					t.Errorf("unknown kind %d, want %d", err.Unknown, tt.unknown)
				}
				if tt.at != -2 && err.At != tt.at {
					t.Errorf("at offset %d, want %d", err.At, tt.at)
				}
				if err.Error() != err.Summary {
					t.Errorf("Error() = %q", err.Error())
				}
				return
			}
			if diags != nil || err != nil {
				t.Fatalf("diagnostics %v, error %v", diags, err)
			}
			if x.Code == nil {
				t.Fatal("no code")
			}
			if got := x.Type.String(); got != tt.typ {
				t.Errorf("type %s, want %s", got, tt.typ)
			}
			if tt.lit != nil && (!x.IsLit || x.Lit != tt.lit) {
				t.Errorf("literal %v (%v), want %v", x.Lit, x.IsLit, tt.lit)
			}
			if x.Ident != tt.ident {
				t.Errorf("ident %q, want %q", x.Ident, tt.ident)
			}
			if !slices.Equal(reads, tt.reads) {
				t.Errorf("reads %v, want %v", reads, tt.reads)
			}
		})
	}
}

// TestDefaultsNotReady: a record built before its kind's defaults can be computed is refused
// with the checker's reason.
func TestDefaultsNotReady(t *testing.T) {
	prog := load(t)
	_, diags, _ := exprx.NewCompiler(prog).Compile(expr("Unit()"), &scope{prog: prog, defaults: "not yet"})
	if len(diags) != 1 || diags[0].Summary != "not yet" {
		t.Fatalf("diagnostics %v", diags)
	}
}

// TestRun: compiled code runs on a Machine, and its failures are placed in the expression.
func TestRun(t *testing.T) {
	prog := load(t)
	tests := []struct {
		text  string
		rolls []int
		want  string // the value, printed
		err   string // the run-time error, with its position
	}{
		{text: "3d6 + 1", rolls: []int{1, 2, 3}, want: "7"},
		{text: "1d6 >= 4", rolls: []int{5}, want: "true"},
		{text: "[1, 2] + [3]", want: "[1, 2, 3]"},
		{text: "{a: 1} == {a: 1}", want: "true"},
		{text: "[1, [2]] != [1, [2]]", want: "false"},
		{text: "2 in [1, 2.0]", want: "true"},
		{text: "Q♣ in [Q♣]", want: "true"},
		{text: "keys({b: 1, a: 2})", want: `["a", "b"]`},
		{text: "uniq([1, 1.0, 2])", want: "[1, 2]"},
		{text: "div(-7, 2)", want: "-4"},
		{text: "Unit({force: 7}).force", want: "7"},
		{text: "plus(2)", want: "3"},
		{text: "join(['a', 'b'], '-')", want: `"a-b"`},
		{text: "repeat('ab', 2)", want: `"abab"`},
		{text: "int('12') + int(2.5)", want: "14"},
		{text: "sum([1d6, 2])", rolls: []int{4}, want: "6"},
		{text: "split('a,b', ',')", want: `["a", "b"]`},
		{text: "replace('aXa', 'X', 'yy')", want: `"ayya"`},
		{text: "flatten([[1], [2, 3]])", want: "[1, 2, 3]"},
		{text: "toJSON([1])", want: `"[\n  1\n]"`},
		{text: "string(12)", want: `"12"`},
		{text: "values({b: 1, a: 2})", want: "[2, 1]"},
		{text: "toPairs({a: 2})", want: `[["a", 2]]`},
		{text: "type(1.5)", want: `"float"`},
		{text: "clamp(5, 1, 3) + clamp(0.5, 1.0, 3.0)", want: "4.0"},
		{text: "half(7) + sign(-2) + sign(3) + sign(0)", want: "3"},
		{text: "str(1) + str('a')", want: `"1a"`},
		{text: "hypot(3, 4)", want: "5.0"},
		{text: "total(2d6)", rolls: []int{2, 5}, want: "7"},
		{text: "same(Unit(), Unit())", want: "false"},
		{text: "any_face(3d6, 6) && all_faces(1d6, 6)", rolls: []int{1, 6, 2, 6}, want: "true"},
		{text: "count_faces(3d6, 1, 2)", rolls: []int{1, 2, 3}, want: "2"},
		{text: "1d6 + 1d6 - 1d6 * 1d6", rolls: []int{1, 2, 3, 4}, want: "-9"},
		{text: "1d6 / 2 < 1d6 % 4", rolls: []int{4, 3}, want: "true"},
		{text: "3d20 ** 4", rolls: []int{1, 2, 3}, want: "1296.0"},
		{text: "4dF.1 + 2dF.2 + 1d6r + 2d6<>3", rolls: []int{-1, 0, 1, 0, 1, 1, 1, 4, 3, 5}, want: "7"},
		{text: "2 ^ 1d4 + 1d4 ** 1d4", rolls: []int{3, 2, 2}, want: "12.0"},
		{text: "[int(1d6), float(1d6), min(1d6, 5), max(2, 1d6), abs(1d6)]", rolls: []int{3, 4, 6, 1, 2}, want: "[3, 4.0, 5, 2, 2]"},
		{text: "floor(1d6 / 2) + 1d6 / 2", rolls: []int{5, 3}, want: "3.5"},
		{text: "reduce([1d6, 1d6], #acc + #, 0)", rolls: []int{2, 3}, want: "5"},
		{text: "max(1d6, 2) + min([3, 1d6])", rolls: []int{5, 1}, want: "6"},
		{text: "all([1, 2], # > 0) and count([1, 2], # > 1) == 1", want: "true"},
		{text: "'a' + 'b' + str(x)", want: `"ab1"`},
		{text: "1..3", want: "[1, 2, 3]"},
		{text: "[1] == [1]", want: "true"},
		{text: "'k' in {k: 1}", want: "true"},
		{text: "Unit({force: 'x'})", err: "<t>:1:1: Unit.force: "},
		{text: "same(1, a)", err: "<t>:1:1: same compares two records"},
		{text: "any_face(n, 6)", err: "<t>:1:1: any_face: argument 1 must be a roll, got 1 (an int)"},
		{text: "int('x')", err: `<t>:1:1: int("x"): not a whole number`},
		{text: "float('x')", err: `<t>:1:1: float("x"): not a number`},
		{text: "float('')", err: `<t>:1:1: float(""): not a number`},
		{text: "float('NaN')", err: `<t>:1:1: float("NaN"): not a number`},
		{text: "float(l)", err: "<t>:1:1: float takes a number or a string, not list"},
		{text: "float(' 2.5 ') + float(2) + float(n)", want: "5.5"},
		{text: "float(1d6)", rolls: []int{4}, want: "4.0"},
		{text: "int(1e300)", err: "<t>:1:1: int(1e+300): beyond the whole numbers"},
		{text: "int(l)", err: "<t>:1:1: int takes a number or a string, not list"},
		{text: "keys(n)", err: "<t>:1:1: expected a map or a record, got int"},
		{text: "repeat('a', -1)", err: "<t>:1:1: repeat -1 times: the count cannot be negative"},
		{text: "n in n", err: "<t>:1:3: in needs a list or a map, not int"},
		{text: "1 + x % 0", err: "<t>:1:"},
		{text: "sqrt(-1)", err: "<t>:1:1: sqrt of a negative number (-1.0)"},
		{text: "plus(['a'][0])", err: "<t>:1:1: "},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			m, err := runtime.NewMachine(prog, stddice.NewIntQueue(tt.rolls, nil), nil)
			if err != nil {
				t.Fatal(err)
			}
			x := expr(tt.text)
			locals := map[string]*runtime.Type{"x": runtime.IntType, "n": runtime.AnyType, "l": runtime.AnyType}
			if _, diags, cerr := exprx.NewCompiler(prog).Compile(x, &scope{prog: prog, locals: locals, inProc: true}); diags != nil || cerr != nil {
				t.Fatalf("diagnostics %v, error %v", diags, cerr)
			}
			env := map[string]any{"__rt": m, "x": 1, "n": 1, "l": []any{1}, "a": nil, "malus": 3, "base": 10}
			v, err := m.Eval(x, env)
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
					t.Fatalf("got %v, %v; want the error %q", v, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := runtime.Repr(v); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestRunOutOfMemory: expr's own memory budget is reported as the language's limit.
func TestRunOutOfMemory(t *testing.T) {
	prog := load(t)
	m, err := runtime.NewMachine(prog, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.Limits.MemoryBudget = 50
	x := expr("map(1..40, {map(1..40, #)})")
	if _, diags, cerr := exprx.NewCompiler(prog).Compile(x, &scope{prog: prog}); diags != nil || cerr != nil {
		t.Fatalf("diagnostics %v, error %v", diags, cerr)
	}
	_, err = m.Eval(x, map[string]any{"__rt": m})
	var re *runtime.RuntimeError
	if !errors.As(err, &re) || !strings.Contains(re.Msg, "memory") {
		t.Fatalf("got %v", err)
	}
}

// TestShapeOf: what an assignment reads off its target.
func TestShapeOf(t *testing.T) {
	prog := load(t)
	locals := map[string]*runtime.Type{"u": prog.Globals["Unit"].(*runtime.Kind).Type(), "m": builtinType("map"), "k": runtime.StringType}
	tests := []struct {
		text string
		want exprx.Shape
	}{
		{"plus(1)", exprx.Shape{Call: true}},
		{"a", exprx.Shape{Name: "a"}},
		{"u.nom", exprx.Shape{Member: true, Field: "nom", ObjType: locals["u"], Root: "u"}},
		{"u.suivant.nom", exprx.Shape{Member: true, Field: "nom", ObjType: locals["u"], Root: "u"}},
		{"m[k]", exprx.Shape{Member: true, Keyed: true, ObjType: builtinType("map"), Root: "m"}},
		{"u?.nom", exprx.Shape{}}, // a chain, not a member
		{"plus(1).x", exprx.Shape{Member: true, Field: "x", ObjType: runtime.IntType}},
		{"1 + u.force", exprx.Shape{}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			c := exprx.NewCompiler(prog)
			sc := &scope{prog: prog, locals: locals, inProc: true}
			x := expr(tt.text)
			if _, diags, err := c.Compile(x, sc); diags != nil || err != nil {
				t.Fatalf("diagnostics %v, error %v", diags, err)
			}
			got := c.ShapeOf(x, sc)
			if got.ObjType != nil && tt.want.ObjType != nil && got.ObjType.String() == tt.want.ObjType.String() {
				got.ObjType = tt.want.ObjType
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
	if sh := exprx.NewCompiler(prog).ShapeOf(&runtime.Expr{IsLit: true}, &scope{prog: prog}); sh != (exprx.Shape{}) {
		t.Errorf("a literal has the shape %+v", sh)
	}
}

// TestBuiltKinds: the kinds an expression builds records of.
func TestBuiltKinds(t *testing.T) {
	prog := load(t)
	for text, want := range map[string][]string{
		"Unit({force: 1})":        {"Unit"},
		"[Unit(), Unit()]":        {"Unit", "Unit"},
		"base + 1":                nil,
		"Unit({suivant: Unit()})": {"Unit", "Unit"},
	} {
		x := expr(text)
		if _, diags, err := exprx.NewCompiler(prog).Compile(x, &scope{prog: prog}); diags != nil || err != nil {
			t.Fatalf("%s: diagnostics %v, error %v", text, diags, err)
		}
		if got := exprx.BuiltKinds(x); !slices.Equal(got, want) {
			t.Errorf("%s: built %v, want %v", text, got, want)
		}
	}
	if got := exprx.BuiltKinds(nil); got != nil {
		t.Errorf("nil expression: %v", got)
	}
}

// TestFuncNames: the names a declaration may not take.
func TestFuncNames(t *testing.T) {
	names := exprx.FuncNames(library())
	for _, n := range []string{"div", "roll", "draw", "count", "len", "now"} {
		if !names[n] {
			t.Errorf("%s is missing", n)
		}
	}
	if names["plus"] {
		t.Error("plus is not a function")
	}
}

// TestEqual: == on plain values, as expressions compare them.
func TestEqual(t *testing.T) {
	var nilMap map[string]any
	tests := []struct {
		a, b any
		want bool
	}{
		{1, 1, true},
		{1, 1.0, true},
		{1, 2, false},
		{"a", "a", true},
		{"a", 1, false},
		{true, true, true},
		{nil, nilMap, true},
		{[]int{1, 2}, []any{1, 2}, true},
		{[]string{"a"}, []any{"b"}, false},
	}
	for _, tt := range tests {
		if got := exprx.Equal(tt.a, tt.b); got != tt.want {
			t.Errorf("Equal(%#v, %#v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestProcArgs: a procedure passed where a builtin calls it back is resolved at compile time
// (the code holds it), a string literal naming one too with a warning, and a procedure of
// another arity, an unknown name in a string, or a procedure's name anywhere else is
// refused at the argument.
func TestProcArgs(t *testing.T) {
	files, sources, diags := syntax.ParseFiles(memFiles{"t.rules": []byte(rules + `rule trois(u, a, b): int {
  return 1
}
`)}, "t.rules")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	prog := check.NewProgram(library(), sources, []string{"t.rules"})
	if diags := check.CheckFiles(prog, files); diags.HasErrors() {
		t.Fatal(diags)
	}
	locals := map[string]*runtime.Type{"m": runtime.AnyType, "u": runtime.AnyType, "nom": runtime.StringType}
	for _, tt := range []struct{ text, diag string }{
		{text: "reachable(m, u, u, 2, trois)"},
		{text: "reachable(m, u, u, 2, trois, trois)"},
		{text: "reachable(m, u, u, 2, nom)"},
		{text: `reachable(m, u, u, 2, "")`},
		{text: `reachable(m, u, u, 2, "trois")`, diag: `<t>:1:23: warning: reachable names a procedure by a string (write trois without quotes: a procedure is a value, checked when the file loads)`},
		{text: "reachable(m, u, u, 2, trois, plus)", diag: "<t>:1:30: plus takes 1 to 2 parameters; reachable calls it with 3: (unit, from, to) (rule plus is declared at t.rules:11:1)"},
		{text: `reachable(m, u, u, 2, "plus")`, diag: "<t>:1:23: plus takes 1 to 2 parameters; reachable calls it with 3: (unit, from, to) (rule plus is declared at t.rules:11:1)"},
		{text: `reachable(m, u, u, 2, "troi")`, diag: "<t>:1:23: reachable: no procedure troi (did you mean?)"},
		{text: "[trois]", diag: "<t>:1:2: rule trois is not called here (call it with trois(…); a procedure is a value only where a builtin calls it back (choose, line_of_fire, path, reachable, retreats))"},
		{text: "retreats(m, u, u, plus)", diag: "<t>:1:1: warning: retreats with 4 arguments is the older form (write retreats(m, unit, from, attacker, libre): the rule then receives the retreating unit, where it comes from and where it goes)"},
	} {
		t.Run(tt.text, func(t *testing.T) {
			x := expr(tt.text)
			_, diags, err := exprx.NewCompiler(prog).Compile(x, &scope{prog: prog, locals: locals, inProc: true})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if len(diags) > 0 {
				got = diags[0].Error()
			}
			if got != tt.diag {
				t.Errorf("diagnostic %q, want %q", got, tt.diag)
			}
			if !diags.HasErrors() && x.Code == nil {
				t.Error("no code")
			}
		})
	}
}

// builtinType is the type of a type name rules write, for the tests' environments.
func builtinType(name string) *runtime.Type {
	t, _ := runtime.BuiltinType(name)
	return t
}
