package exprx

import (
	"reflect"
	"sync"

	"github.com/expr-lang/expr"
	exprbuiltin "github.com/expr-lang/expr/builtin"

	"rulesh/dsl/internal/lib/core"
	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/dice"
)

// FuncNames are the names of the functions an expression may call, which a declaration may
// not take: the library's builtins, the core functions (lib/core) and expr-lang's builtins.
// The map is built once per library, then only read (every checker, one per REPL input too,
// shares it): callers must not change it.
func FuncNames(lib *runtime.Library) map[string]bool {
	if v, ok := funcNamesCache.Load(lib); ok {
		return v.(map[string]bool)
	}
	out := map[string]bool{}
	for n := range lib.Builtins {
		out[n] = true
	}
	for n := range core.Funcs() {
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
	// Lists concatenate with +, as GMs expect: journal + ["touché"]. A roll's faces
	// ([]int) and symbols ([]string) are lists too: every pairing is declared.
	var concatTypes []any
	lists := listGoTypes()
	for _, l := range lists {
		for _, r := range lists {
			concatTypes = append(concatTypes, reflect.New(reflect.FuncOf([]reflect.Type{l, r}, []reflect.Type{lists[0]}, false)).Interface())
		}
	}
	opts = append(opts, expr.Function("__concat", func(a ...any) (any, error) {
		x, _ := runtime.ListOf(a[0])
		y, _ := runtime.ListOf(a[1])
		return core.Concat(x, y), nil
	}, concatTypes...))
	opts = append(opts, expr.Function("__dice", func(a ...any) (any, error) {
		return a[0].(*runtime.Machine).RollExpr(a[1].(*dice.Expr))
	}, new(func(*runtime.Machine, *dice.Expr) *runtime.Roll)))
	// A sum of record dice rolls to a record of counts (recdice.go).
	opts = append(opts, expr.Function("__recdice", func(a ...any) (any, error) {
		return a[0].(*runtime.Machine).RollRecord(a[1].(*dice.Expr))
	}, new(func(*runtime.Machine, *dice.Expr) map[string]any)))
	opts = append(opts, expr.Function("__rec_add", func(a ...any) (any, error) {
		return runtime.AddTallies(a[0], a[1])
	}, new(func(map[string]any, map[string]any) map[string]any)))
	// A dice literal only its total is read from (totalOnly).
	opts = append(opts, expr.Function("__dicetotal", func(a ...any) (any, error) {
		return a[0].(*runtime.Machine).RollTotal(a[1].(*dice.Expr))
	}, new(func(*runtime.Machine, *dice.Expr) int)))
	opts = append(opts, rollOperatorFunctions()...)
	opts = append(opts, numOperatorFunctions()...)
	opts = append(opts, codeOperatorFunctions()...)
	opts = append(opts, budgetFunctions()...)
	opts = append(opts, expr.Function("__new", func(a ...any) (any, error) {
		return core.NewRecord(a[0].(*runtime.Machine), a[1].(string), a[2].(map[string]any))
	}, new(func(*runtime.Machine, string, map[string]any) map[string]any)))
	for _, name := range runtime.SortedKeys(lib.Builtins) {
		f := lib.Builtins[name]
		opts = append(opts, expr.Function(runtime.InternalName(name), func(args ...any) (any, error) {
			return runtime.RunBuiltin(&f, args[0].(*runtime.Machine), args[1:])
		}, f.Types...))
	}
	pure := core.Funcs()
	for _, name := range runtime.SortedKeys(pure) {
		f := pure[name]
		opts = append(opts, expr.Function(name, f.Fn, f.Types...))
	}
	v, _ := optionsCache.LoadOrStore(lib, opts)
	return v.([]expr.Option)
}

func callProc(args ...any) (any, error) {
	return args[0].(*runtime.Machine).CallAt(args[1].(*runtime.Proc), args[3:], *args[2].(*syntax.Pos))
}

// listGoTypes are the Go types that hold lists in expressions: lists, a roll's faces and its
// symbols.
func listGoTypes() []reflect.Type {
	return []reflect.Type{reflect.TypeFor[[]any](), reflect.TypeFor[[]int](), reflect.TypeFor[[]string]()}
}

// overloadedOps lets rolls stand for their totals in arithmetic and comparisons, and lists
// join with +. Built on first use, by the first expression compiled with an operator.
var overloadedOps = &runtime.Lazy[[]opOverloads]{Build: func() []opOverloads {
	out := []opOverloads{{"+", append([]string{"__concat", "__roll_add", "__code_add", "__rec_add"}, numOps("+")...)}}
	for _, op := range overloadOperators[1:] { // + has its own list, above
		fns := []string{rollOpName(op)}
		if code, ok := codeOps(op); ok {
			fns = append(fns, code)
		}
		out = append(out, opOverloads{op, append(fns, numOps(op)...)})
	}
	return out
}}

// opOverloads are the functions that overload one operator.
type opOverloads struct {
	op  string
	fns []string
}

// numOps are the overloads where a fraction meets a number: compared as rules see them
// (runtime.CompareNum), so 1 - 8/10 >= 0.2 holds; and float arithmetic, / and powers
// always, checked by runtime.RollArith (a division by zero, an overflow to +Inf or a NaN is
// an error at the operator, as % by zero is). Two ints keep expr's own comparison and +, -, *.
// numOps(op) names op's overload, or is nil. (A switch: a map is built at every start.)
func numOps(op string) []string {
	name := ""
	switch op {
	case "<":
		name = "__num_lt"
	case "<=":
		name = "__num_le"
	case ">":
		name = "__num_gt"
	case ">=":
		name = "__num_ge"
	case "==":
		name = "__num_eq"
	case "!=":
		name = "__num_ne"
	case "+":
		name = "__num_add"
	case "-":
		name = "__num_sub"
	case "*":
		name = "__num_mul"
	case "/":
		name = "__num_div"
	case "**":
		name = "__num_pow"
	case "^":
		name = "__num_caret"
	default:
		return nil
	}
	return []string{name}
}

// isFloatArith reports whether op is one of the arithmetic numOps (floatArith).
func isFloatArith(op string) bool {
	switch op {
	case "+", "-", "*", "/", "**", "^":
		return true
	}
	return false
}

// floatArith are the operand types each arithmetic numOp takes, nil for another operator.
func floatArith(op string) []any {
	if !isFloatArith(op) {
		return nil
	}
	mixed := []any{new(func(float64, float64) float64), new(func(int, float64) float64), new(func(float64, int) float64)}
	if op == "+" || op == "-" || op == "*" {
		return mixed
	}
	return append([]any{new(func(int, int) float64)}, mixed...)
}

// numOperatorFunctions declares the numOps.
func numOperatorFunctions() []expr.Option {
	var opts []expr.Option
	for _, op := range []string{"+", "-", "*", "/", "**", "^"} {
		op := op
		opts = append(opts, expr.Function(numOps(op)[0], func(a ...any) (any, error) {
			return runtime.RollArith(op, a[0], a[1])
		}, floatArith(op)...))
	}
	types := []any{new(func(float64, float64) bool), new(func(int, float64) bool), new(func(float64, int) bool)}
	for _, op := range []string{"<", "<=", ">", ">=", "==", "!="} {
		op := op
		opts = append(opts, expr.Function(numOps(op)[0], func(a ...any) (any, error) {
			return core.Compare(op, a[0], a[1]), nil
		}, types...))
	}
	return opts
}

func rollOpName(op string) string {
	names := map[string]string{"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod", "**": "pow", "^": "caret",
		"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}
	return "__roll_" + names[op]
}

// overloadOperators are the operators the roll overloads take (numOps takes all but %).
var overloadOperators = []string{"+", "-", "*", "/", "%", "**", "^", "<", "<=", ">", ">=", "==", "!="}

// rollOperatorFunctions declares, per operator, the overloads where a roll meets a number.
func rollOperatorFunctions() []expr.Option {
	var opts []expr.Option
	for _, op := range overloadOperators {
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
