package exprx_test

import (
	"fmt"
	"strings"
	"testing"

	"rulesh/dsl/internal/exprx"
	"rulesh/dsl/internal/racetest"
	"rulesh/dsl/internal/runtime"
	stddice "rulesh/stdlib/dice"
)

// The differential test of the closures: every generated expression (names, fields,
// literals; every operator; builtins, expr's builtins with and without predicates, lists,
// maps, conditionals, ?? and ?.) that compiles to closures is evaluated once by them and
// once by the VM (the same compiled Expr with Fast cleared), over values of every type a
// rule can hold, and must give the same value or the same error, message and position.

// diffWorld is one set of values for the names the generated expressions read.
type diffWorld map[string]string // name -> expression giving its value ("" for nil)

func TestFastMatchesVM(t *testing.T) {
	prog := load(t)
	unit := prog.Globals["Unit"].(*runtime.Kind).Type()
	types := map[string]*runtime.Type{
		"i": runtime.IntType, "j": runtime.IntType, "f": runtime.FloatType, "b": runtime.BoolType,
		"c": runtime.BoolType, "s": runtime.StringType, "t": runtime.StringType, "n": runtime.AnyType,
		"r": runtime.RollType, "u": unit, "v": unit, "l": runtime.ListType,
		"k": builtinType("card"), "h": builtinType("hex"), "m": builtinType("map"),
	}
	worlds := []diffWorld{
		{"i": "3", "j": "-2", "f": "2.5", "b": "true", "c": "false", "s": `"a"`, "t": `""`, "n": "1",
			"r": "2d6", "u": "Unit({force: 4})", "v": "Unit()", "l": "[1, 2]", "k": "Q♣", "h": "hex(1, 2)", "m": "{a: 1}"},
		{"i": "0", "j": "0", "f": "-0.5", "b": "false", "c": "true", "s": `"é"`, "t": `"a"`, "n": `"x"`,
			"r": "1d6", "u": "", "v": "Unit({nom: 'B'})", "l": "[]", "k": "A♠", "h": "hex(0, 0)", "m": "{}"},
		{"i": "9223372036854775807", "j": "1", "f": "1e300", "b": "true", "c": "true", "s": `"b"`, "t": `"b"`,
			"n": "", "r": "3d6", "u": "Unit({force: -1})", "v": "", "l": "['a']", "k": "", "h": "", "m": ""},
		{"i": "-9223372036854775807 - 1", "j": "-1", "f": "0.0", "b": "false", "c": "false", "s": `""`,
			"t": `""`, "n": "true", "r": "", "u": "Unit()", "v": "Unit()", "l": "", "k": "Q♣", "h": "hex(-1, 5)", "m": "{b: 2}"},
		{"i": "6", "j": "0", "f": "3.0", "b": "true", "c": "false", "s": `"ab"`, "t": `"a"`, "n": "Unit()",
			"r": "2d6", "u": "Unit({force: 6})", "v": "Unit({force: 6})", "l": "[1]", "k": "Q♣", "h": "hex(1, 2)", "m": "{force: 1}"},
	}
	operands := []string{"i", "j", "f", "b", "c", "s", "t", "n", "r", "u", "v", "l", "k", "h", "m",
		"u.force", "u.nom", "u.suivant", "v.force", "m.a", "m.force", "m[\"b\"]", "r.total", "k.value", "h.q",
		"0", "1", "-1", "6", "9223372036854775807", "true", "false", `"a"`, `""`, "nil"}
	ops := []string{"+", "-", "*", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "and", "or",
		"/", "%", "**", "^", "in", "??", "..", "contains", "startsWith", "endsWith", "matches"}
	var texts []string
	for _, a := range operands {
		if a[0] >= 'a' && a[0] <= 'z' && len(a) > 1 && a != "true" && a != "false" {
			texts = append(texts, a) // a field read alone
		}
		texts = append(texts, "!"+a, "not "+a, "!("+a+")")
		for _, op := range ops {
			for _, b := range operands {
				texts = append(texts, a+" "+op+" "+b)
			}
		}
	}
	for _, fn := range []string{"d", "entities", "new_pile", "card", "hex", "hex_distance", "roll", "on_board", "terrain", "neighbours", "shuffle", "passes", "div", "floor", "sample", "hypot", "round", "ceil", "same", "all_faces"} {
		for _, a := range operands {
			texts = append(texts, fn+"("+a+")")
			for _, b := range []string{"i", "j", "0", "s", "h", "n", "u.force"} {
				texts = append(texts, fn+"("+a+", "+b+")")
			}
		}
	}
	// A builtin returning an int as one operand, and procedure calls with simple arguments.
	for _, op := range ops {
		for _, a := range operands {
			for _, call := range []string{"d(i)", "d(6)", "d(n)", "d(u.force)", "hex_distance(h, h)", "d(s)"} {
				texts = append(texts, a+" "+op+" "+call, call+" "+op+" "+a)
			}
		}
	}
	for _, a := range operands {
		texts = append(texts, "plus("+a+")", "plus("+a+", i)", "plus(i, "+a+")")
	}
	// Nested + - * (a loop's counters' arithmetic), alone, compared, and as arguments.
	nested := map[string]bool{}
	for _, a := range []string{"i", "j", "f", "n", "r", "s", "l", "u.force", "m.a", "1", "9223372036854775807"} {
		for _, b := range []string{"i", "j", "f", "n", "r", "u.force", "-1", "1000"} {
			for _, text := range []string{"(" + a + " - " + b + ") * 1000 + j", a + " * " + b + " + i", "i - " + a + " * " + b,
				"(" + a + " + " + b + ") < (i - j)", "plus(" + a + " + " + b + ", i)", "d(" + a + " - " + b + ")", "i + " + a + " * " + b + " == " + b} {
				texts = append(texts, text)
				nested[text] = true
			}
		}
	}
	// expr's builtins, with predicates too, lists, maps, conditionals and optional fields.
	// (1..13 and the list of 14 with ties: sortBy(…)[0] past the elements sorted by insertion.)
	for _, a := range []string{"l", "n", "s", "m", "u", "i", "r", "[1, 2, 3]", "[]", "1..i", "['b', 'a']", "nil",
		"[3, 1, 2, 1, 3]", "[4, 3, 2, 5]", "1..13", "[5, 2, 7, 2, 9, 4, 2, 6, 8, 1, 3, 1, 0, 0]", "[u, v, u]", "[1.5, 1, 0.5, 1.0]"} {
		for _, f := range []string{"len(%s)", "sum(%s)", "map(%s, # + 1)", "filter(%s, # > 1)", "all(%s, # > 0)",
			"any(%s, # == 2)", "none(%s, # == 2)", "one(%s, # == 2)", "count(%s, # > 1)", "count(%s)", "find(%s, # > 1)",
			"findIndex(%s, # > 1)", "findLast(%s, # > 0)", "findLastIndex(%s, # > 0)", "reduce(%s, #acc + #)",
			"reduce(%s, #acc + #, 10)", "sortBy(%s, #)", "sortBy(%s, #, 'desc')", "sortBy(%s, #, i)", "first(%s)",
			"sortBy(%s, #)[0]", "sortBy(%s, -#, 'desc')[0]", "sortBy(%s, # % 2)[0]", "sortBy(%s, # % 2, 'desc')[0]",
			"sortBy(%s, str(#))[0]", "sortBy(%s, #)[0:1]", "sortBy(%s, #.force)[0]", "sortBy(%s, #)?.[0]",
			"last(%s)", "%s[0]", "%s[-1]", "%s[1:]", "%s[:i]", "%s[-1:]", "%s[j:i]", "%s[:-1]", "%s[i:]", "concat(%s, l)", "concat(l, %s, [i])", "%s?.force", "%s?.force ?? 7", "%s.force",
			"max(%s)", "min(%s)", "max(%s, i)", "min(j, %s)", "max(0, %s, f)", "min(%s, [3, i], 1)", "map(%s, #index)", "filter(%s, # == #)", "let x = %s; x", "[%s, i]",
			"{k: %s}", "b ? %s : i", "%s ? 1 : 2", "-%s", "abs(%s)", "int(%s)", "str(%s)", "upper(%s)", "keys(%s)",
			"map(%s, .force)", "any(%s, .force > 1)", "%s + [i]", "%s + []", "%s + [i, sum(filter(l, # > 0)), s]", "%s + [d(i)] + [j]", "type(%s)", "map([%s, u], #.nom)", "filter([u, %s], #.force > 3)", "u?.nom ?? %s", "sum(map(%s, #))", "%s in l", "i in %s"} {
			texts = append(texts, fmt.Sprintf(f, a))
		}
	}
	// Every field of a roll (read without reflect), alone and as an operand.
	for _, a := range []string{"r.total", "r.faces", "r.all", "r.dropped", "r.symbols", "r.highest", "r.lowest", "r.ok"} {
		for _, f := range []string{"%s", "%s + 1", "%s == r.total", "%s > 2", "len(%s)", "%s[0]", "!%s", "%s ?? 1", "r?.total ?? %s"} {
			texts = append(texts, fmt.Sprintf(f, a))
		}
	}
	values := make([]map[string]*runtime.Expr, len(worlds))
	for wi, w := range worlds {
		values[wi] = map[string]*runtime.Expr{}
		for name, src := range w {
			if src == "" {
				values[wi][name] = nil
				continue
			}
			vx := expr(src)
			if _, diags, cerr := exprx.NewCompiler(prog).Compile(vx, &scope{prog: prog, inProc: true}); diags != nil || cerr != nil {
				t.Fatalf("value %s: %v %v", src, diags, cerr)
			}
			values[wi][name] = vx
		}
	}
	// Under -race every fourth text is compared: each operator still meets every left
	// operand, and a run costs ten times more there.
	stride := 1
	if racetest.Enabled {
		stride = 4
	}
	simple, nestedSimple, nilSimple, notSimple, compared, missed := 0, 0, 0, 0, 0, 0
	for ti, text := range texts {
		if ti%stride != 0 {
			continue
		}
		// A call is also written in parentheses: a failure is reported at the call, not
		// where the expression starts.
		forms := []string{"%s"}
		if strings.Contains(text, "(") {
			forms = append(forms, "(%s)", "( (%s))")
		}
		for _, form := range forms {
			x := expr(fmt.Sprintf(form, text))
			if _, diags, cerr := exprx.NewCompiler(prog).Compile(x, &scope{prog: prog, locals: types, inProc: true}); diags != nil || cerr != nil {
				continue
			}
			if x.Fast == nil {
				missed++
				continue
			}
			simple++
			if nested[text] {
				nestedSimple++
			}
			if strings.HasSuffix(text, "= nil") || strings.HasPrefix(text, "nil =") || strings.HasPrefix(text, "nil !=") {
				nilSimple++
			}
			if strings.HasPrefix(text, "!") || strings.HasPrefix(text, "not ") {
				notSimple++
			}
			vmOnly := *x
			vmOnly.Fast = nil
			wants := make([]string, len(values))
			for wi, w := range values {
				got, gotErr := evalIn(t, prog, w, x)
				want, wantErr := evalIn(t, prog, w, &vmOnly)
				compared++
				if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || runtime.Repr(got) != runtime.Repr(want) || fmt.Sprintf("%T", got) != fmt.Sprintf("%T", want) {
					t.Errorf("%s in world %d: closures %s (%T), %v; VM %s (%T), %v", x.Text, wi,
						runtime.Repr(got), got, gotErr, runtime.Repr(want), want, wantErr)
				}
				wants[wi] = fmt.Sprintf("%s (%T), %v", runtime.Repr(want), want, wantErr)
			}
			// The same closures reading their names from a procedure's slots (which
			// resolves x: it is last).
			for wi, w := range values {
				got, gotErr := evalSlotsIn(t, prog, w, x)
				if g := fmt.Sprintf("%s (%T), %v", runtime.Repr(got), got, gotErr); g != wants[wi] {
					t.Errorf("%s in world %d: closures on slots %s; VM %s", x.Text, wi, g, wants[wi])
				}
			}
		}
	}
	if nestedSimple < 300/stride {
		t.Errorf("only %d nested arithmetic expressions compile to closures", nestedSimple)
	}
	if nilSimple < 50/stride || notSimple < 30/stride {
		t.Errorf("only %d comparisons with nil and %d negations compile to closures", nilSimple, notSimple)
	}
	if simple < 10000/stride || missed > 0 {
		t.Errorf("%d generated expressions compile to closures, %d are left to the VM", simple, missed)
	}
	t.Logf("%d expressions on closures (%d with nil, %d negations), %d comparisons", simple, nilSimple, notSimple, compared)
}

// evalIn evaluates x on a fresh machine (the same dice each time), in an environment whose
// names hold the values of world w, and returns its value or its error; a panic is an
// error too, so that the two paths can be compared.
func evalIn(t *testing.T, prog *runtime.Program, w map[string]*runtime.Expr, x *runtime.Expr) (v any, err error) {
	t.Helper()
	rolls := []int{3, 5, 2, 6, 1, 4, 4, 2, 6, 1, 3, 5}
	m, err := runtime.NewMachine(prog, stddice.NewIntQueue(append(rolls, rolls...), nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]any{"__rt": m, "malus": 3, "base": 10}
	for name, vx := range w {
		if vx == nil {
			env[name] = nil
			continue
		}
		val, err := m.Eval(vx, env)
		if err != nil {
			t.Fatalf("value %s: %v", vx.Text, err)
		}
		env[name] = val
	}
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	return m.Eval(x, env)
}

// evalSlotsIn is evalIn with the world's names in slots, as a procedure's locals are: the
// closures read them there, and the VM, when it runs, from the map they are copied into.
func evalSlotsIn(t *testing.T, prog *runtime.Program, w map[string]*runtime.Expr, x *runtime.Expr) (v any, err error) {
	t.Helper()
	rolls := []int{3, 5, 2, 6, 1, 4, 4, 2, 6, 1, 3, 5}
	m, err := runtime.NewMachine(prog, stddice.NewIntQueue(append(rolls, rolls...), nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]any{"__rt": m, "malus": 3, "base": 10}
	names := make([]string, 0, len(w))
	for name := range w {
		names = append(names, name)
	}
	values := make([]any, len(names))
	for i, name := range names {
		if vx := w[name]; vx != nil {
			val, err := m.Eval(vx, env)
			if err != nil {
				t.Fatalf("value %s: %v", vx.Text, err)
			}
			values[i] = val
		}
	}
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	return m.EvalSlots(x, names, values, env)
}

// FuzzFastMatchesVM: any expression that compiles to closures gives, over the values of the
// first world of TestFastMatchesVM, what the VM gives: the same value and Go type, or the
// same error at the same place.
func FuzzFastMatchesVM(f *testing.F) {
	for _, seed := range []string{"i + j * 2", "u?.force ?? i", "filter(l, # > 1)", "s + t", "b && c || !b",
		"sortBy([3, 1, 2], -#)", "let x = i; x * x", "m.a + 1", "r > 6", "{a: i}.a", "1..i", "l[-1]",
		"max(i, j)", "min(l, 3, i)", "max(0, r - 8)", "min(max(j, 1), len(l))", "max(f, [i, n])",
		"concat(l, [i], l)[1:j]", "len(concat([], l))", "len(s + t)", "[i, j, 3][-2:i]"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 200 {
			return
		}
		prog := load(t)
		unit := prog.Globals["Unit"].(*runtime.Kind).Type()
		types := map[string]*runtime.Type{
			"i": runtime.IntType, "j": runtime.IntType, "f": runtime.FloatType, "b": runtime.BoolType,
			"c": runtime.BoolType, "s": runtime.StringType, "t": runtime.StringType, "n": runtime.AnyType,
			"r": runtime.RollType, "u": unit, "l": runtime.ListType, "m": builtinType("map"),
		}
		world := diffWorld{"i": "3", "j": "-2", "f": "2.5", "b": "true", "c": "false", "s": `"a"`, "t": `""`,
			"n": "1", "r": "2d6", "u": "Unit({force: 4})", "l": "[1, 2]", "m": "{a: 1}"}
		values := map[string]*runtime.Expr{}
		for name, src := range world {
			vx := expr(src)
			if _, diags, cerr := exprx.NewCompiler(prog).Compile(vx, &scope{prog: prog, inProc: true}); diags != nil || cerr != nil {
				t.Fatalf("value %s: %v %v", src, diags, cerr)
			}
			values[name] = vx
		}
		x := expr(text)
		if _, diags, cerr := exprx.NewCompiler(prog).Compile(x, &scope{prog: prog, locals: types, inProc: true}); diags.HasErrors() || cerr != nil || x.Fast == nil {
			return
		}
		vmOnly := *x
		vmOnly.Fast = nil
		got, gotErr := evalIn(t, prog, values, x)
		want, wantErr := evalIn(t, prog, values, &vmOnly)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || runtime.Repr(got) != runtime.Repr(want) || fmt.Sprintf("%T", got) != fmt.Sprintf("%T", want) {
			t.Errorf("%s: closures %s (%T), %v; VM %s (%T), %v", text, runtime.Repr(got), got, gotErr, runtime.Repr(want), want, wantErr)
		}
	})
}
