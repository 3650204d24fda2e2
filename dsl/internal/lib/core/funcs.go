package core

import (
	"maps"
	"sync"

	"rulesh/dsl/internal/runtime"
)

// Func is a core function as the expression engine registers it: Fn takes the arguments of
// a call already checked against one of Types, each a pointer to a func type (new(func(int,
// int) int)) whose parameters and result are those a call is checked against.
type Func struct {
	Fn    func(args ...any) (any, error)
	Types []any
}

// funcs are the core functions by the names rules call them, each checking the arguments
// its Types declare as numbers (runtime.NumberArgs): div(x, y) with an x of type any that
// holds a string is an error, not div(0, y). They are built on first use: a map of closures
// built at package init cost every command, `rulesh roll 1d6` included.
func funcs() map[string]Func {
	funcsOnce.Do(func() { funcsMap = buildFuncs() })
	return funcsMap
}

var (
	funcsOnce sync.Once
	funcsMap  map[string]Func
)

func buildFuncs() map[string]Func {
	// numberTypes are the signatures of a function of one number, a roll standing for its
	// total.
	numberTypes := []any{new(func(float64) int), new(func(*runtime.Roll) int)}
	return checkingNumbers(map[string]Func{
		"div": {func(a ...any) (any, error) { return Div(runtime.ToInt(a[0]), runtime.ToInt(a[1])) },
			[]any{new(func(int, int) int)}},
		"clamp": {func(a ...any) (any, error) { return Clamp(a[0], a[1], a[2]), nil },
			[]any{new(func(int, int, int) int), new(func(float64, float64, float64) float64)}},
		"half":    {func(a ...any) (any, error) { return Half(a[0]), nil }, numberTypes},
		"sign":    {func(a ...any) (any, error) { return Sign(a[0]), nil }, numberTypes},
		"ceil":    {func(a ...any) (any, error) { return Ceil(a[0]) }, numberTypes},
		"floor":   {func(a ...any) (any, error) { return Floor(a[0]) }, numberTypes},
		"round":   {func(a ...any) (any, error) { return Round(a[0]) }, numberTypes},
		"pct":     {func(a ...any) (any, error) { return Pct(a[0]), nil }, []any{new(func(float64) float64)}},
		"str":     {func(a ...any) (any, error) { return runtime.Str(a[0]), nil }, []any{new(func(any) string)}},
		"fmt_num": {func(a ...any) (any, error) { return FmtNum(a[0], a[1]) }, []any{new(func(*runtime.Roll, int) string), new(func(float64, int) string)}},
		"fmt_pct": {func(a ...any) (any, error) { return FmtPct(a[0], a[1]) }, []any{new(func(*runtime.Roll, int) string), new(func(float64, int) string)}},
		"sqrt":    {func(a ...any) (any, error) { return Sqrt(a[0]) }, []any{new(func(float64) float64)}},
		"hypot":   {func(a ...any) (any, error) { return Hypot(a[0], a[1]) }, []any{new(func(float64, float64) float64)}},
		"total":   {func(a ...any) (any, error) { return Total(a[0]) }, []any{new(func(any) int)}},
		"same":    {func(a ...any) (any, error) { return Same(a[0], a[1]) }, []any{new(func(any, any) bool)}},
		"any_face": {func(a ...any) (any, error) { return AnyFace(a[0], a[1:]...) },
			[]any{new(func(*runtime.Roll, ...any) bool)}},
		"all_faces": {func(a ...any) (any, error) { return AllFaces(a[0], a[1]) },
			[]any{new(func(*runtime.Roll, any) bool)}},
		"count_faces": {func(a ...any) (any, error) { return CountFaces(a[0], a[1:]...) },
			[]any{new(func(*runtime.Roll, ...any) int)}},
	})
}

// checkingNumbers is fs with each function that takes numbers checking them first. Which
// arguments are numbers is read from the function's Types on its first call, not when the
// program starts: a command that calls none (rulesh roll) reads none.
func checkingNumbers(fs map[string]Func) map[string]Func {
	for name, f := range fs {
		numbers := sync.OnceValue(func() *runtime.NumberArgs { return runtime.NewNumberArgs(name, 0, f.Types) })
		fn := f.Fn
		f.Fn = func(a ...any) (any, error) {
			if c := numbers(); c != nil {
				if err := c.Check(a); err != nil {
					return nil, err
				}
			}
			return fn(a...)
		}
		fs[name] = f
	}
	return fs
}

// Funcs are the core functions that need nothing but their arguments, by the names rules
// call them; a declaration may not take these names. The map is a copy: changing it
// changes no other caller's.
func Funcs() map[string]Func { return maps.Clone(funcs()) }

// Lookup returns the core function rules call name, without copying the map as Funcs does.
func Lookup(name string) (Func, bool) {
	f, ok := funcs()[name]
	return f, ok
}
