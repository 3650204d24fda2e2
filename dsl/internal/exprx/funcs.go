package exprx

import (
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/expr-lang/expr"
	exprbuiltin "github.com/expr-lang/expr/builtin"

	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/dice"
)

// pureFuncs are plain functions of their arguments.
var pureFuncs = map[string]struct {
	fn    func(args ...any) (any, error)
	types []any
}{
	"div": {func(a ...any) (any, error) {
		x, y := runtime.ToInt(a[0]), runtime.ToInt(a[1])
		if y == 0 {
			return nil, runtime.NewError("division by zero")
		}
		q := x / y
		if (x%y != 0) && ((x < 0) != (y < 0)) {
			q--
		}
		return q, nil
	}, []any{new(func(int, int) int)}},
	"clamp": {func(a ...any) (any, error) {
		x, lo, hi := runtime.ToFloat(a[0]), runtime.ToFloat(a[1]), runtime.ToFloat(a[2])
		r := math.Max(lo, math.Min(hi, x))
		if _, ok := a[0].(int); ok {
			return int(r), nil
		}
		return r, nil
	}, []any{new(func(int, int, int) int), new(func(float64, float64, float64) float64)}},
	"half": {func(a ...any) (any, error) {
		return int(math.Floor(runtime.ToFloat(a[0]) / 2)), nil
	}, []any{new(func(float64) int), new(func(*runtime.Roll) int)}},
	"sign": {func(a ...any) (any, error) {
		x := runtime.ToFloat(a[0])
		switch {
		case x > 0:
			return 1, nil
		case x < 0:
			return -1, nil
		}
		return 0, nil
	}, []any{new(func(float64) int), new(func(*runtime.Roll) int)}},
	"ceil":    {wholeOf("ceil", math.Ceil), []any{new(func(float64) int), new(func(*runtime.Roll) int)}},
	"floor":   {wholeOf("floor", math.Floor), []any{new(func(float64) int), new(func(*runtime.Roll) int)}},
	"round":   {wholeOf("round", math.Round), []any{new(func(float64) int), new(func(*runtime.Roll) int)}},
	"pct":     {func(a ...any) (any, error) { return runtime.Snap(runtime.ToFloat(a[0]) / 100), nil }, []any{new(func(float64) float64)}},
	"str":     {func(a ...any) (any, error) { return runtime.Str(a[0]), nil }, []any{new(func(any) string)}},
	"fmt_num": {func(a ...any) (any, error) { return formatDecimal("fmt_num", a[0], a[1], 0) }, []any{new(func(*runtime.Roll, int) string), new(func(float64, int) string)}},
	"fmt_pct": {func(a ...any) (any, error) {
		s, err := formatDecimal("fmt_pct", a[0], a[1], 2)
		if err != nil {
			return nil, err
		}
		return s + "%", nil
	}, []any{new(func(*runtime.Roll, int) string), new(func(float64, int) string)}},
	"sqrt": {func(a ...any) (any, error) {
		x := runtime.ToFloat(a[0])
		if x < 0 {
			return nil, runtime.Errorf("sqrt of a negative number (%s)", runtime.FormatFloat(x))
		}
		return math.Sqrt(x), nil
	}, []any{new(func(float64) float64)}},
	"hypot": {func(a ...any) (any, error) { return math.Hypot(runtime.ToFloat(a[0]), runtime.ToFloat(a[1])), nil }, []any{new(func(float64, float64) float64)}},
	"total": {func(a ...any) (any, error) { return asInt(a[0]) }, []any{new(func(any) int)}},
	"same": {func(a ...any) (any, error) {
		x, okx := a[0].(map[string]any)
		y, oky := a[1].(map[string]any)
		_, kx := x[runtime.KindKey]
		_, ky := y[runtime.KindKey]
		if !okx || !oky || !kx || !ky {
			return nil, runtime.Errorf("same compares two records, not %s and %s", runtime.Repr(a[0]), runtime.Repr(a[1]))
		}
		// One record is one map: two records with equal fields are still two.
		return reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(y).UnsafePointer(), nil
	}, []any{new(func(any, any) bool)}},
	"any_face": {func(a ...any) (any, error) {
		faces, err := rollFaces(a[0])
		for _, f := range faces {
			for _, want := range a[1:] {
				if f == want || f == toAnyInt(want) {
					return true, err
				}
			}
		}
		return false, err
	}, []any{new(func(*runtime.Roll, ...any) bool)}},
	"all_faces": {func(a ...any) (any, error) {
		faces, err := rollFaces(a[0])
		for _, f := range faces {
			if f != a[1] && f != toAnyInt(a[1]) {
				return false, err
			}
		}
		return len(faces) > 0, err
	}, []any{new(func(*runtime.Roll, any) bool)}},
	"count_faces": {func(a ...any) (any, error) {
		faces, err := rollFaces(a[0])
		n := 0
		for _, f := range faces {
			for _, want := range a[1:] {
				if f == want || f == toAnyInt(want) {
					n++
					break
				}
			}
		}
		return n, err
	}, []any{new(func(*runtime.Roll, ...any) int)}},
}

// FuncNames are the names of the functions an expression may call, which a declaration may
// not take: the library's builtins, the pure functions and expr-lang's builtins. The map is
// built once per library, then only read (every checker, one per REPL input too, shares
// it): callers must not change it.
func FuncNames(lib *runtime.Library) map[string]bool {
	if v, ok := funcNamesCache.Load(lib); ok {
		return v.(map[string]bool)
	}
	out := map[string]bool{}
	for n := range lib.Builtins {
		out[n] = true
	}
	for n := range pureFuncs {
		out[n] = true
	}
	// expr-lang's builtins too: a procedure named count would never be called, count(…)
	// reaching the builtin.
	for _, n := range exprbuiltin.Names {
		out[n] = true
	}
	v, _ := funcNamesCache.LoadOrStore(lib, out)
	return v.(map[string]bool)
}

// funcNamesCache and optionsCache hold, per library, what FuncNames and stdFuncOptions
// build: one library serves every load and every REPL input of a process.
var funcNamesCache, optionsCache sync.Map

// stdFuncOptions are built once, on first use, and then only read: compilers in several
// goroutines (sessions on one Program) share them.
func stdFuncOptions(lib *runtime.Library) []expr.Option {
	if v, ok := optionsCache.Load(lib); ok {
		return v.([]expr.Option)
	}
	opts := []expr.Option{
		expr.Function("__call", callProc, new(func(*runtime.Machine, *runtime.Proc, *syntax.Pos, ...any) any)),
	}
	// Lists concatenate with +, as GMs expect: journal + ["touché"].
	opts = append(opts, expr.Function("__concat", func(a ...any) (any, error) {
		x, y := a[0].([]any), a[1].([]any)
		return append(append(make([]any, 0, len(x)+len(y)), x...), y...), nil
	}, new(func([]any, []any) []any)))
	opts = append(opts, expr.Function("__dice", func(a ...any) (any, error) {
		return a[0].(*runtime.Machine).RollExpr(a[1].(*dice.Expr))
	}, new(func(*runtime.Machine, *dice.Expr) *runtime.Roll)))
	opts = append(opts, rollOperatorFunctions()...)
	opts = append(opts, numOperatorFunctions()...)
	opts = append(opts, codeOperatorFunctions()...)
	opts = append(opts, budgetFunctions()...)
	opts = append(opts, expr.Function("__new", newRecordFunc, new(func(*runtime.Machine, string, map[string]any) map[string]any)))
	for _, name := range runtime.SortedKeys(lib.Builtins) {
		f := lib.Builtins[name]
		opts = append(opts, expr.Function(runtime.InternalName(name), func(args ...any) (any, error) {
			return f.Fn(args[0].(*runtime.Machine), args[1:])
		}, f.Types...))
	}
	for _, name := range runtime.SortedKeys(pureFuncs) {
		f := pureFuncs[name]
		opts = append(opts, expr.Function(name, f.fn, f.types...))
	}
	v, _ := optionsCache.LoadOrStore(lib, opts)
	return v.([]expr.Option)
}

func callProc(args ...any) (any, error) {
	return args[0].(*runtime.Machine).CallAt(args[1].(*runtime.Proc), args[3:], *args[2].(*syntax.Pos))
}

// rollFaces returns what a rule compares faces with: numbers, or names for symbolic dice.
func rollFaces(v any) ([]any, error) {
	r, ok := v.(*runtime.Roll)
	if !ok {
		return nil, runtime.Errorf("expected a roll, got %s", runtime.Repr(v))
	}
	out := make([]any, 0, len(r.Faces))
	if len(r.Symbols) == len(r.All) && len(r.Symbols) > 0 {
		for _, s := range r.Symbols {
			out = append(out, s)
		}
		return out, nil
	}
	for _, f := range r.Faces {
		out = append(out, f)
	}
	return out, nil
}

func toAnyInt(v any) any {
	if f, ok := v.(float64); ok && f == float64(int(f)) {
		return int(f)
	}
	return v
}

func asInt(v any) (int, error) {
	switch x := v.(type) {
	case int:
		return x, nil
	case float64:
		return int(x), nil
	case *runtime.Roll:
		if x.Symbol() != "" {
			return 0, runtime.Errorf("%s is the face %s: it has a name, not a number", x, x.Symbol())
		}
		return x.Total, nil
	}
	return 0, runtime.Errorf("expected a number or a roll, got %s", runtime.Repr(v))
}

// overloadedOps lets rolls stand for their totals in arithmetic and comparisons, and lists
// join with +.
var overloadedOps = func() []struct {
	op  string
	fns []string
} {
	out := []struct {
		op  string
		fns []string
	}{{"+", []string{"__concat", "__roll_add", "__code_add"}}}
	for _, op := range []string{"-", "*", "/", "%", "**", "^", "<", "<=", ">", ">=", "==", "!="} {
		fns := []string{rollOpName(op)}
		if code, ok := codeOps[op]; ok {
			fns = append(fns, code)
		}
		out = append(out, struct {
			op  string
			fns []string
		}{op, append(fns, numOps[op]...)})
	}
	return out
}()

// numOps are the overloads where a fraction meets a number: compared as rules see them
// (runtime.CompareNum), so 1 - 8/10 >= 0.2 holds. Two ints keep expr's own comparison.
var numOps = map[string][]string{"<": {"__num_lt"}, "<=": {"__num_le"}, ">": {"__num_gt"}, ">=": {"__num_ge"}, "==": {"__num_eq"}, "!=": {"__num_ne"}}

// numOperatorFunctions declares the numOps.
func numOperatorFunctions() []expr.Option {
	var opts []expr.Option
	types := []any{new(func(float64, float64) bool), new(func(int, float64) bool), new(func(float64, int) bool)}
	for _, op := range []string{"<", "<=", ">", ">=", "==", "!="} {
		op := op
		opts = append(opts, expr.Function(numOps[op][0], func(a ...any) (any, error) {
			c := runtime.CompareNum(runtime.ToFloat(a[0]), runtime.ToFloat(a[1]))
			switch op {
			case "<":
				return c == -1, nil
			case "<=":
				return c == -1 || c == 0, nil
			case ">":
				return c == 1, nil
			case ">=":
				return c == 1 || c == 0, nil
			case "==":
				return c == 0, nil
			}
			return c != 0, nil
		}, types...))
	}
	return opts
}

func rollOpName(op string) string {
	names := map[string]string{"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod", "**": "pow", "^": "caret",
		"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}
	return "__roll_" + names[op]
}

// wholeOf makes ceil, floor and round: the number as rules see it (runtime.Snap, so
// ceil(0.7 * 10) is 7), rounded to an int (round: half away from zero).
func wholeOf(name string, f func(float64) float64) func(a ...any) (any, error) {
	return func(a ...any) (any, error) {
		if i, ok := a[0].(int); ok {
			return i, nil
		}
		x := runtime.ToFloat(a[0])
		if r, ok := a[0].(*runtime.Roll); ok {
			x = float64(r.Total)
		}
		w := f(runtime.Snap(x))
		if math.IsNaN(w) || w < -(1<<63) || w >= 1<<63 {
			return nil, runtime.Errorf("%s(%s): beyond the whole numbers", name, runtime.FormatFloat(x))
		}
		return int(w), nil
	}
}

// rollOperatorFunctions declares, per operator, the overloads where a roll meets a number.
func rollOperatorFunctions() []expr.Option {
	var opts []expr.Option
	for _, op := range []string{"+", "-", "*", "/", "%", "**", "^", "<", "<=", ">", ">=", "==", "!="} {
		op := op
		var types []any
		switch op {
		case "==", "!=":
			// A roll of one symbolic die is compared with a face's name (r == fusil).
			types = []any{new(func(*runtime.Roll, int) bool), new(func(int, *runtime.Roll) bool), new(func(*runtime.Roll, *runtime.Roll) bool),
				new(func(*runtime.Roll, float64) bool), new(func(float64, *runtime.Roll) bool),
				new(func(*runtime.Roll, string) bool), new(func(string, *runtime.Roll) bool)}
		case "<", "<=", ">", ">=":
			types = []any{new(func(*runtime.Roll, int) bool), new(func(int, *runtime.Roll) bool), new(func(*runtime.Roll, *runtime.Roll) bool),
				new(func(*runtime.Roll, float64) bool), new(func(float64, *runtime.Roll) bool)}
		case "/", "**", "^":
			// A power is a float, as expr gives it for two ints.
			types = []any{new(func(*runtime.Roll, int) float64), new(func(int, *runtime.Roll) float64), new(func(*runtime.Roll, *runtime.Roll) float64),
				new(func(*runtime.Roll, float64) float64), new(func(float64, *runtime.Roll) float64)}
		default:
			types = []any{new(func(*runtime.Roll, int) int), new(func(int, *runtime.Roll) int), new(func(*runtime.Roll, *runtime.Roll) int),
				new(func(*runtime.Roll, float64) float64), new(func(float64, *runtime.Roll) float64)}
		}
		// A roll met with a value of unknown type (#acc in reduce): decided when run.
		types = append(types, new(func(*runtime.Roll, any) any), new(func(any, *runtime.Roll) any))
		opts = append(opts, expr.Function(rollOpName(op), func(a ...any) (any, error) {
			return runtime.RollArith(op, a[0], a[1])
		}, types...))
	}
	return opts
}

func newRecordFunc(args ...any) (any, error) {
	m := args[0].(*runtime.Machine)
	k := m.Kind(args[1].(string))
	fields := args[2].(map[string]any)
	rec, err := m.NewRecord(k, nil)
	if err != nil {
		return nil, err
	}
	// A record built in an expression is new material, as a map literal is.
	if err := m.ChargeMem(len(rec)); err != nil {
		return nil, err
	}
	for _, name := range runtime.SortedKeys(fields) {
		f := k.ByName[name]
		if f == nil {
			return nil, runtime.Errorf("%s has no field %s", k.Name, name)
		}
		v, err := runtime.Conform(fields[name], f.Type)
		if err != nil {
			return nil, runtime.Errorf("%s.%s: %v", k.Name, name, err)
		}
		rec[name] = m.Thaw(v)
	}
	return rec, nil
}

// maxDecimals bounds the decimals fmt_num and fmt_pct show.
const maxDecimals = 20

// formatDecimal writes x times 10^shift with places decimals after a point, rounding the
// number as it is written (its shortest decimal form, so 2.675 is 2.675 and not the binary
// 2.67499…) half away from zero: fmt_num(2.675, 2) is "2.68", fmt_num(-0.5, 0) is "-1". A
// result that rounds to zero has no sign.
func formatDecimal(fn string, x, places any, shift int) (string, error) {
	f := runtime.ToFloat(x)
	if r, ok := x.(*runtime.Roll); ok {
		f = float64(r.Total)
	}
	n := runtime.ToInt(places)
	if n < 0 || n > maxDecimals {
		return "", runtime.Errorf("%s: %d decimals: between 0 and %d", fn, n, maxDecimals)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", runtime.Errorf("%s: %s is not a finite number", fn, runtime.FormatFloat(f))
	}
	// "d.dddde±x": the digits, and where the point goes; 15 significant digits, the
	// precision at which the language compares and prints fractions (1 - 8/10 is 0.2).
	e := strconv.FormatFloat(math.Abs(f), 'e', 14, 64)
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.TrimRight(strings.Replace(mant, ".", "", 1), "0")
	if digits == "" {
		digits = "0"
	}
	ex, _ := strconv.Atoi(exp)
	keep := ex + 1 + shift + n // digits kept, counted from the first one
	var kept string
	up := false
	switch {
	case keep <= 0:
		kept, up = "0", keep == 0 && digits[0] >= '5'
	case keep >= len(digits):
		kept = digits + strings.Repeat("0", keep-len(digits))
	default:
		kept, up = digits[:keep], digits[keep] >= '5'
	}
	v, _ := new(big.Int).SetString(kept, 10)
	if up {
		v.Add(v, big.NewInt(1))
	}
	out := v.String()
	if len(out) <= n {
		out = strings.Repeat("0", n+1-len(out)) + out
	}
	if n > 0 {
		out = out[:len(out)-n] + "." + out[len(out)-n:]
	}
	if f < 0 && v.Sign() != 0 {
		out = "-" + out
	}
	return out, nil
}
