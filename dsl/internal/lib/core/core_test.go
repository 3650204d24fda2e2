package core_test

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"rulesh/dsl/internal/check"
	"rulesh/dsl/internal/dsltest"
	"rulesh/dsl/internal/lib/core"
	"rulesh/dsl/internal/libtest"
	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/dice"
)

// machine loads src without the facade and gives a Machine whose dice are rolls, in order.
func machine(t *testing.T, src string, rolls ...string) *runtime.Machine {
	t.Helper()
	files, sources, diags := syntax.ParseFiles(libtest.MemFiles{"t.rules": []byte(src)}, "t.rules")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	prog := check.NewProgram(libtest.Library(), sources, []string{"t.rules"})
	if diags := check.CheckFiles(prog, files); diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, k := range prog.Kinds {
		k.Type()
	}
	prog.Freeze()
	m, err := runtime.NewMachine(prog, dice.NewQueue(rolls, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// global is the value of a global of m.
func global(t *testing.T, m *runtime.Machine, name string) any {
	t.Helper()
	v, ok := m.Global(name)
	if !ok {
		t.Fatalf("no global %s", name)
	}
	return v
}

// roll rolls notation on m.
func roll(t *testing.T, m *runtime.Machine, notation string) *runtime.Roll {
	t.Helper()
	r, err := m.RollText(notation)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// errText is an error's message, "" for none.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestDiv(t *testing.T) {
	for _, c := range []struct {
		x, y, want int
		err        string
	}{
		{7, 2, 3, ""},
		{-7, 2, -4, ""}, // toward minus infinity: Go's / gives -3
		{7, -2, -4, ""},
		{-7, -2, 3, ""},
		{-8, 2, -4, ""}, // exact: no rounding
		{0, -3, 0, ""},
		{-1, 3, -1, ""},
		{math.MinInt, -1, math.MinInt, ""}, // wraps as Go's int does
		{5, 0, 0, "division by zero"},
	} {
		got, err := core.Div(c.x, c.y)
		if errText(err) != c.err || c.err == "" && got != c.want {
			t.Errorf("div(%d, %d) = %d, %v; want %d, %q", c.x, c.y, got, err, c.want, c.err)
		}
	}
}

// TestClamp: an int stays an int, a fraction a fraction; hi wins over lo.
func TestClamp(t *testing.T) {
	for _, c := range []struct {
		x, lo, hi, want any
	}{
		{5, 0, 3, 3},
		{-5, 0, 3, 0},
		{2, 0, 3, 2},
		{-2, -10, -1, -2},
		{2.5, 0.0, 2.0, 2.0},
		{-1.5, 0.0, 2.0, 0.0},
		{0.5, 0.0, 1.0, 0.5},
		{3, 0, 2.5, 2},    // an int x: the bound met cut toward zero
		{-3, -2.5, 0, -2}, // toward zero, not down
		{3.0, 0, 2, 2.0},  // a fraction x stays one
		{5, 4, 1, 4},      // lo > hi: lo
		{math.Inf(1), 0.0, 9.0, 9.0},
	} {
		got := core.Clamp(c.x, c.lo, c.hi)
		if got != c.want {
			t.Errorf("clamp(%v, %v, %v) = %#v, want %#v", c.x, c.lo, c.hi, got, c.want)
		}
	}
}

// TestHalfSign: half rounds down (negatives too); sign is -1, 0 or 1; a roll is its total.
func TestHalfSign(t *testing.T) {
	m := machine(t, "", "4", "5", "6")
	r := roll(t, m, "3d6") // 15
	for _, c := range []struct {
		x          any
		half, sign int
	}{
		{7, 3, 1}, {-7, -4, -1}, {-3, -2, -1}, {-1, -1, -1}, {0, 0, 0}, {1, 0, 1},
		{2.5, 1, 1}, {-0.5, -1, -1}, {r, 7, 1},
	} {
		if got := core.Half(c.x); got != c.half {
			t.Errorf("half(%v) = %d, want %d", c.x, got, c.half)
		}
		if got := core.Sign(c.x); got != c.sign {
			t.Errorf("sign(%v) = %d, want %d", c.x, got, c.sign)
		}
	}
	if got := core.Sign(math.NaN()); got != 0 {
		t.Errorf("sign(NaN) = %d, want 0", got)
	}
}

// TestWhole: ceil, floor and round on numbers as rules see them; round takes a half away
// from zero; what is beyond the whole numbers is an error naming the function.
func TestWhole(t *testing.T) {
	m := machine(t, "", "2", "3")
	r := roll(t, m, "2d6") // 5
	for _, c := range []struct {
		x                  any
		ceil, floor, round int
		err                string
	}{
		{2.5, 3, 2, 3, ""},
		{-2.5, -2, -3, -3, ""},
		{0.5, 1, 0, 1, ""},
		{-0.5, 0, -1, -1, ""},
		{1.49, 2, 1, 1, ""},
		{-1.5, -1, -2, -2, ""},
		{7, 7, 7, 7, ""},
		{-7, -7, -7, -7, ""},
		{0.7 * 10, 7, 7, 7, ""}, // 7.000000000000001 snapped: not 8
		{r, 5, 5, 5, ""},
		{math.Inf(1), 0, 0, 0, "(+Inf): beyond the whole numbers"},
		{math.NaN(), 0, 0, 0, "(NaN): beyond the whole numbers"},
		{1e300, 0, 0, 0, "(1e+300): beyond the whole numbers"},
	} {
		for _, f := range []struct {
			name string
			fn   func(any) (int, error)
			want int
		}{{"ceil", core.Ceil, c.ceil}, {"floor", core.Floor, c.floor}, {"round", core.Round, c.round}} {
			got, err := f.fn(c.x)
			switch {
			case c.err != "" && errText(err) != f.name+c.err:
				t.Errorf("%s(%v): err %v, want %q", f.name, c.x, err, f.name+c.err)
			case c.err == "" && (err != nil || got != f.want):
				t.Errorf("%s(%v) = %d, %v; want %d", f.name, c.x, got, err, f.want)
			}
		}
	}
}

// TestPctSqrtHypot: pct snaps its fraction; sqrt refuses a negative; hypot refuses +Inf.
func TestPctSqrtHypot(t *testing.T) {
	for _, c := range []struct {
		x    any
		want float64
	}{{15, 0.15}, {-50, -0.5}, {0.1 * 3, 0.003}, {100, 1}} {
		if got := core.Pct(c.x); got != c.want {
			t.Errorf("pct(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	for _, c := range []struct {
		x    any
		want float64
		err  string
	}{{9, 3, ""}, {2.25, 1.5, ""}, {0, 0, ""}, {-4, 0, "sqrt of a negative number (-4.0)"}, {-0.5, 0, "sqrt of a negative number (-0.5)"}} {
		got, err := core.Sqrt(c.x)
		if errText(err) != c.err || got != c.want {
			t.Errorf("sqrt(%v) = %v, %v; want %v, %q", c.x, got, err, c.want, c.err)
		}
	}
	if got, err := core.Hypot(3, 4); got != 5.0 || err != nil {
		t.Errorf("hypot(3, 4) = %v, %v", got, err)
	}
	if got, err := core.Hypot(-3.0, -4); got != 5.0 || err != nil {
		t.Errorf("hypot(-3, -4) = %v, %v", got, err)
	}
	if _, err := core.Hypot(math.MaxFloat64, math.MaxFloat64); err == nil {
		t.Error("hypot of the largest numbers: no error for an overflow")
	}
}

// TestTotal: a roll's total, a number cut toward zero; a named face has no number, and any
// other value is refused in the words of the other builtins' number checks.
func TestTotal(t *testing.T) {
	m := machine(t, "dice combat = [sabre, fusil, boulet]\n", "3", "4", "fusil")
	r := roll(t, m, "2d6")
	sym, err := m.RollDie(global(t, m, "combat").(*dice.Die), 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v    any
		want int
		err  string
	}{
		{r, 7, ""}, {4, 4, ""}, {-2.7, -2, ""}, {2.7, 2, ""},
		{sym, 0, "is the face fusil: it has a name, not a number"},
		{"3", 0, `total: argument 1 must be a number or a roll, got "3" (a string)`},
		{nil, 0, `total: argument 1 must be a number or a roll, got nil`},
		{[]any{1}, 0, `total: argument 1 must be a number or a roll, got [1] (a list)`},
	} {
		got, err := core.Total(c.v)
		if c.err != "" && !strings.Contains(errText(err), c.err) || c.err == "" && (err != nil || got != c.want) {
			t.Errorf("total(%v) = %d, %v; want %d, %q", c.v, got, err, c.want, c.err)
		}
	}
}

// TestIntFloat: int() cuts toward zero and reads strings; float() reads strings; what is no
// number, or beyond the whole numbers, is an error.
func TestIntFloat(t *testing.T) {
	m := machine(t, "", "6", "6")
	r := roll(t, m, "2d6")
	for _, c := range []struct {
		v    any
		want int
		err  string
	}{
		{3, 3, ""}, {-2.9, -2, ""}, {2.9, 2, ""}, {" 42 ", 42, ""}, {"-7", -7, ""}, {r, 12, ""},
		{"4.5", 0, `int("4.5"): not a whole number`},
		{"", 0, `int(""): not a whole number`},
		{1e19, 0, "int(1e+19): beyond the whole numbers"},
		{math.NaN(), 0, "int(NaN): beyond the whole numbers"},
		{true, 0, "int takes a number or a string, not bool"},
	} {
		got, err := core.Int(c.v)
		if c.err != "" && !strings.HasPrefix(errText(err), c.err) || c.err == "" && (err != nil || got != c.want) {
			t.Errorf("int(%v) = %d, %v; want %d, %q", c.v, got, err, c.want, c.err)
		}
	}
	for _, c := range []struct {
		v    any
		want float64
		err  string
	}{
		{3, 3, ""}, {-2.5, -2.5, ""}, {" 1.25 ", 1.25, ""}, {"-1e3", -1000, ""}, {r, 12, ""},
		{"abc", 0, `float("abc"): not a number`},
		{"NaN", 0, `float("NaN"): not a number`},
		{"1e400", 0, `float("1e400"): not a number`},
		{[]any{}, 0, "float takes a number or a string, not list"},
	} {
		got, err := core.Float(c.v)
		if errText(err) != c.err || c.err == "" && got != c.want {
			t.Errorf("float(%v) = %v, %v; want %v, %q", c.v, got, err, c.want, c.err)
		}
	}
}

// TestCompare: numbers compare as rules see them; NaN equals nothing.
func TestCompare(t *testing.T) {
	for _, c := range []struct {
		op   string
		a, b any
		want bool
	}{
		{">=", 1 - 8.0/10, 0.2, true},
		{"==", 0.1 + 0.2, 0.3, true},
		{"<", 0.1 + 0.2, 0.3, false},
		{"<", -1, 0.5, true},
		{">", 2.0, 1, true},
		{"<=", 3, 3.0, true},
		{"!=", 1.0, 1.0000001, true},
		{"==", math.NaN(), math.NaN(), false},
		{"!=", math.NaN(), 1.0, true},
		{"<", math.NaN(), 1.0, false},
		{">=", math.NaN(), 1.0, false},
	} {
		if got := core.Compare(c.op, c.a, c.b); got != c.want {
			t.Errorf("%v %s %v = %v, want %v", c.a, c.op, c.b, got, c.want)
		}
	}
}

// TestFmt: fmt_num and fmt_pct through their public names (formatDecimal's own table is in
// format_test.go).
func TestFmt(t *testing.T) {
	m := machine(t, "", "3")
	r := roll(t, m, "1d6")
	for _, c := range []struct {
		fn        func(any, any) (string, error)
		x, places any
		want, err string
	}{
		{core.FmtNum, 2.675, 2, "2.68", ""},
		{core.FmtNum, -2.5, 0, "-3", ""},
		{core.FmtNum, r, 1, "3.0", ""},
		{core.FmtPct, 0.8333, 1, "83.3%", ""},
		{core.FmtPct, -0.001, 1, "-0.1%", ""},
		{core.FmtPct, 1.5, 21, "", "fmt_pct: 21 decimals: between 0 and 20"},
	} {
		got, err := c.fn(c.x, c.places)
		if got != c.want || errText(err) != c.err {
			t.Errorf("fmt(%v, %v) = %q, %v; want %q, %q", c.x, c.places, got, err, c.want, c.err)
		}
	}
}

// TestFaces: numbers compare with numbers (a whole fraction as its int), names with a
// symbolic roll's faces; dropped dice do not count; a roll is required.
func TestFaces(t *testing.T) {
	m := machine(t, "dice combat = [sabre, fusil, boulet]\n", "6", "1", "6", "2", "3", "6", "6", "6", "sabre", "fusil")
	kept := roll(t, m, "3d6kh2")                                 // 6, (1), 6
	plain := roll(t, m, "3d6")                                   // 2, 3, 6
	sixes := roll(t, m, "2d6")                                   // 6, 6
	sym, err := m.RollDie(global(t, m, "combat").(*dice.Die), 2) // sabre, fusil
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		got  any
		err  error
		want any
	}{
		{"any_face kept 1", first(core.AnyFace(kept, 1)), nil, false}, // the 1 was dropped
		{"any_face kept 6", first(core.AnyFace(kept, 2, 6)), nil, true},
		{"any_face 6.0", first(core.AnyFace(plain, 6.0)), nil, true},
		{"any_face 2.5", first(core.AnyFace(plain, 2.5)), nil, false},
		{"any_face none", first(core.AnyFace(plain)), nil, false},
		{"all_faces 6", first(core.AllFaces(sixes, 6)), nil, true},
		{"all_faces kept", first(core.AllFaces(kept, 6)), nil, true},
		{"all_faces plain", first(core.AllFaces(plain, 6)), nil, false},
		{"count_faces", first(core.CountFaces(kept, 6, 1)), nil, 2},
		{"count_faces each once", first(core.CountFaces(sixes, 6, 6)), nil, 2},
		{"any_face name", first(core.AnyFace(sym, "fusil")), nil, true},
		{"any_face number of a symbolic roll", first(core.AnyFace(sym, 2)), nil, false},
		{"count_faces name", first(core.CountFaces(sym, "sabre", "boulet")), nil, 1},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if _, err := core.AnyFace(3, 3); errText(err) != "expected a roll, got 3" {
		t.Errorf("any_face of a number: err %v", err)
	}
	if ok, err := core.AllFaces([]any{6}, 6); ok || err == nil {
		t.Errorf("all_faces of a list = %v, %v; want an error", ok, err)
	}
	// The faces are read from the roll, not copied into a list for each test.
	want := []any{6, 8, 10}
	if n := testing.AllocsPerRun(20, func() {
		_, _ = core.AnyFace(plain, want...)
		_, _ = core.AllFaces(sixes, 1)
		_, _ = core.CountFaces(kept, 6.0)
	}); n != 0 {
		t.Errorf("any_face, all_faces, count_faces: %v allocations", n)
	}
}

// first is the value of a (value, error) pair, the error dropped when nil and kept in the
// value otherwise (so a table can hold both).
func first[T any](v T, err error) any {
	if err != nil {
		return err
	}
	return v
}

// TestSame: one record is one map; equal fields do not make two records one.
func TestSame(t *testing.T) {
	m := machine(t, "kind U { n: int = 1 }\n")
	a, err := core.NewRecord(m, "U", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := core.NewRecord(m, "U", map[string]any{})
	for _, c := range []struct {
		x, y any
		want bool
		err  string
	}{
		{a, a, true, ""},
		{a, b, false, ""},
		{a, map[string]any{"n": 1}, false, "same compares two records, not U{n: 1} and {n: 1}"},
		{1, 1, false, "same compares two records, not 1 and 1"},
	} {
		got, err := core.Same(c.x, c.y)
		if got != c.want || errText(err) != c.err {
			t.Errorf("same(%v, %v) = %v, %v; want %v, %q", c.x, c.y, got, err, c.want, c.err)
		}
	}
}

// TestIn: keys of a map, elements of a list by equality (a plain roll as its total), and
// each element looked at charged.
func TestIn(t *testing.T) {
	m := machine(t, "dice combat = [sabre, fusil, boulet]\n", "2", "3", "boulet")
	r := roll(t, m, "2d6") // 5
	sym, err := m.RollDie(global(t, m, "combat").(*dice.Die), 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		needle, coll any
		want         bool
		err          string
	}{
		{"a", map[string]any{"a": 0}, true, ""},
		{"b", map[string]any{"a": 0}, false, ""},
		{1, map[string]any{"a": 0}, false, "in: a map's keys are strings, not int"},
		{2, []any{1, 2, 3}, true, ""},
		{2.0, []any{1, 2, 3}, true, ""},
		{4, []any{1, 2, 3}, false, ""},
		{r, []any{4, 5}, true, ""},            // a roll looked for is its total
		{5, []any{"x", r}, true, ""},          // and so is one listed
		{sym, []any{1, 2, 3}, false, ""},      // a symbolic roll is not a number
		{[]any{1}, []any{[]any{1}}, true, ""}, // lists compare by their elements
		{"x", nil, false, ""},
		{"x", "xyz", false, "in needs a list or a map, not string"},
		{1, []int{1}, true, ""}, // any slice
		{1.0, []int{2, 1}, true, ""},
		{r, []int{5}, true, ""},
		{"b", []string{"a", "b"}, true, ""},
		{"c", []string{"a", "b"}, false, ""},
		{1, []string{"1"}, false, ""},
		{true, []any{false, true}, true, ""},
		{"a", []any{1, "a"}, true, ""},
		{1, []any{"1", 1.0}, true, ""},
		{[]any{1}, []any{[]any{2}}, false, ""},
		{nil, []any{1, nil}, true, ""},
	} {
		got, err := core.In(m, c.needle, c.coll)
		if got != c.want || errText(err) != c.err {
			t.Errorf("%v in %v = %v, %v; want %v, %q", c.needle, c.coll, got, err, c.want, c.err)
		}
	}
	m.Limits.MaxSteps = 10
	for _, coll := range []any{make([]any, 100), make([]string, 100), make([]int, 100), make([]float64, 100)} {
		if _, err := core.In(m, 0, coll); err == nil || !strings.Contains(err.Error(), "step limit") {
			t.Errorf("in a %T past the step limit: err %v", coll, err)
		}
		if _, err := core.In(m, "", coll); err == nil || !strings.Contains(err.Error(), "step limit") {
			t.Errorf("\"\" in a %T past the step limit: err %v", coll, err)
		}
	}
}

// TestKeysOrder: keys, values and toPairs list a map in the order of its keys (byte order),
// whatever order Go's map gives, and leave out a record's hidden kind.
func TestKeysOrder(t *testing.T) {
	m := machine(t, "kind U { b: int = 2, a: int = 1, été: int = 3 }\n")
	mp := map[string]any{"b": 2, "a": 1, "Z": 0, "é": 4, "aa": 3, "": 5}
	rec, err := core.NewRecord(m, "U", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		fn   func(*runtime.Machine, any) ([]any, error)
		v    any
		want []any
	}{
		{"keys", core.Keys, mp, []any{"", "Z", "a", "aa", "b", "é"}},
		{"values", core.Values, mp, []any{5, 0, 1, 3, 2, 4}},
		{"toPairs", core.Pairs, map[string]any{"y": 1, "x": 2}, []any{[]any{"x", 2}, []any{"y", 1}}},
		{"keys of a record", core.Keys, rec, []any{"a", "b", "été"}},
		{"values of a record", core.Values, rec, []any{1, 2, 3}},
		{"keys of nothing", core.Keys, map[string]any{}, []any{}},
	} {
		for range 5 { // Go's map order changes from one walk to the next
			got, err := c.fn(m, c.v)
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s = %v, %v; want %v", c.name, got, err, c.want)
				break
			}
		}
	}
	if _, err := core.Keys(m, []any{1}); errText(err) != "expected a map or a record, got list" {
		t.Errorf("keys of a list: err %v", err)
	}
}

// TestConcatRepeat: + on lists builds a new list; repeat refuses a negative count and is
// charged before it builds.
func TestConcatRepeat(t *testing.T) {
	x, y := []any{1, 2}, []any{3}
	got := core.Concat(x[:1], y)
	if !reflect.DeepEqual(got, []any{1, 3}) || x[1] != 2 {
		t.Errorf("concat = %v, x now %v: the first list's room was written into", got, x)
	}
	if got := core.Concat(nil, nil); got == nil || len(got) != 0 {
		t.Errorf("concat of nothing = %#v, want an empty list", got)
	}
	m := machine(t, "")
	for _, c := range []struct {
		s, n      any
		want, err string
	}{
		{"ab", 3, "ababab", ""},
		{"ab", 0, "", ""},
		{"ab", -1, "", "repeat -1 times: the count cannot be negative"},
		{1, 2, "", "repeat takes a string and an int, got int and int"},
		{"abcdefgh", math.MaxInt / 4, "", "memory limit reached"},
	} {
		got, err := core.Repeat(m, c.s, c.n)
		if got != c.want || !strings.HasPrefix(errText(err), c.err) || (c.err == "") != (err == nil) {
			t.Errorf("repeat(%v, %v) = %q, %v; want %q, %q", c.s, c.n, got, err, c.want, c.err)
		}
	}
}

// TestNewRecord: defaults, then the fields given conformed to their types; a const's map
// given to a field is copied; an unknown field is an error.
func TestNewRecord(t *testing.T) {
	m := machine(t, "const base = {\"a\": 1}\nkind U { n: int = 1, f: float = 0.5, m: map = {} }\n")
	base := global(t, m, "base").(map[string]any)
	rec, err := core.NewRecord(m, "U", map[string]any{"f": 2, "m": base})
	if err != nil {
		t.Fatal(err)
	}
	if rec["n"] != 1 || rec["f"] != 2.0 || rec[runtime.KindKey] == nil {
		t.Errorf("record = %v", rec)
	}
	rec["m"].(map[string]any)["a"] = 9
	if base["a"] != 1 {
		t.Errorf("changing the record's map changed the const: %v", base)
	}
	if _, err := core.NewRecord(m, "U", map[string]any{"x": 1}); errText(err) != "U has no field x" {
		t.Errorf("unknown field: err %v", err)
	}
	if _, err := core.NewRecord(m, "U", map[string]any{"n": "deux"}); err == nil || !strings.HasPrefix(err.Error(), "U.n: ") {
		t.Errorf("a string for an int field: err %v", err)
	}
}

// TestFuncs: every name the engine registers has a function and at least one signature,
// and the copy given is the caller's own.
func TestFuncs(t *testing.T) {
	fs := core.Funcs()
	for _, name := range []string{"div", "clamp", "half", "sign", "ceil", "floor", "round", "pct", "str", "fmt_num", "fmt_pct", "sqrt", "hypot", "total", "same", "any_face", "all_faces", "count_faces"} {
		f, ok := fs[name]
		if !ok || f.Fn == nil || len(f.Types) == 0 {
			t.Errorf("%s: %+v, %v", name, f, ok)
		}
		for _, ty := range f.Types {
			if reflect.TypeOf(ty).Kind() != reflect.Pointer || reflect.TypeOf(ty).Elem().Kind() != reflect.Func {
				t.Errorf("%s: signature %T is not a pointer to a func type", name, ty)
			}
		}
	}
	if len(fs) != 18 {
		t.Errorf("%d core functions, want 18", len(fs))
	}
	delete(fs, "div")
	if _, ok := core.Funcs()["div"]; !ok {
		t.Error("deleting from Funcs' map deleted from the next caller's")
	}
	if got, err := fs["str"].Fn(2.5); got != "2.5" || err != nil {
		t.Errorf("str(2.5) = %v, %v", got, err)
	}
}

// TestRollsAreTotals: in a rule, the functions of a number that take a roll read its total
// (half and sign of a roll were 0: the roll was read as no number).
func TestRollsAreTotals(t *testing.T) {
	dsltest.CheckCases(t, "", []dsltest.Case{
		{Src: "half(3d6)", Rolls: []string{"4", "5", "6"}, Want: "7"},
		{Src: "half(1d6 - 6)", Rolls: []string{"3"}, Want: "-2"},
		{Src: "sign(1d6)", Rolls: []string{"2"}, Want: "1"},
		{Src: "ceil(2d6)", Rolls: []string{"2", "3"}, Want: "5"},
		{Src: "round(1d6)", Rolls: []string{"6"}, Want: "6"},
		{Src: `fmt_num(1d6, 1)`, Rolls: []string{"3"}, Want: `"3.0"`},
		{Src: "half(-3)", Want: "-2"},
		{Src: "sign(-0.5)", Want: "-1"},
	})
}

// TestCodes: codes add dice and bonus; a number adds to the bonus, on either side of +; a
// missing entry of a map of codes is an error, a string entry a code.
func TestCodes(t *testing.T) {
	code := func(s string) *dice.Code {
		c, err := dice.ParseCode(s)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, c := range []struct {
		sign      int
		a, b      any
		want, err string
	}{
		{1, code("4D+1"), code("1D"), "5D+1", ""},
		{-1, code("4D+1"), code("1D+1"), "3D", ""},
		{-1, code("1D"), code("3D"), "", "1D - 3D leaves -2 dice"},
		{1, code("4D+2"), 1, "4D+3", ""},
		{-1, code("4D+2"), 3, "4D-1", ""},
		{1, 2, code("3D"), "3D+2", ""},
		{1, 2, 3, "", "expected dice, got 3"},
	} {
		got, err := core.CodeArith(c.sign, c.a, c.b)
		if errText(err) != c.err || err == nil && got.String() != c.want {
			t.Errorf("%v %+d× %v = %v, %v; want %s, %q", c.a, c.sign, c.b, got, err, c.want, c.err)
		}
	}
	if _, err := core.CodeEntry(nil); err == nil || !strings.HasPrefix(err.Error(), "no code for this key") {
		t.Errorf("a missing entry: err %v", err)
	}
	if got, err := core.CodeEntry("2D+1"); err != nil || got.(*dice.Code).String() != "2D+1" {
		t.Errorf("a string entry = %v, %v", got, err)
	}
}
