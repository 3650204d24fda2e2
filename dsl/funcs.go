package dsl

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/expr-lang/expr"
)

// The functions rules may call besides expr-lang's builtins (abs, ceil, floor, round, min,
// max, len, sum, filter, map, any, all, count, sort, …). Functions that need the running
// Machine (dice, procedures) are rewritten by the patcher to receive it as first argument.

type rtFunc struct {
	internal string
	fn       func(m *Machine, args []any) (any, error)
	types    []any
}

// rtFuncs are the state-aware functions, by the name rules use.
var rtFuncs = map[string]rtFunc{
	"d": {internal: "__d", fn: func(m *Machine, args []any) (any, error) {
		return m.rollDie(toInt(args[0]))
	}, types: []any{new(func(*Machine, int) int)}},
	"entities": {internal: "__entities", fn: func(m *Machine, args []any) (any, error) {
		return m.entitiesOf(args[0].(string))
	}, types: []any{new(func(*Machine, string) []any)}},
}

// pureFuncs are plain functions of their arguments.
var pureFuncs = map[string]struct {
	fn    func(args ...any) (any, error)
	types []any
}{
	"div": {func(a ...any) (any, error) {
		x, y := toInt(a[0]), toInt(a[1])
		if y == 0 {
			return nil, errors.New("division by zero")
		}
		q := x / y
		if (x%y != 0) && ((x < 0) != (y < 0)) {
			q--
		}
		return q, nil
	}, []any{new(func(int, int) int)}},
	"clamp": {func(a ...any) (any, error) {
		x, lo, hi := toFloat(a[0]), toFloat(a[1]), toFloat(a[2])
		r := math.Max(lo, math.Min(hi, x))
		if _, ok := a[0].(int); ok {
			return int(r), nil
		}
		return r, nil
	}, []any{new(func(int, int, int) int), new(func(float64, float64, float64) float64)}},
	"half": {func(a ...any) (any, error) {
		return int(math.Floor(toFloat(a[0]) / 2)), nil
	}, []any{new(func(float64) int)}},
	"sign": {func(a ...any) (any, error) {
		x := toFloat(a[0])
		switch {
		case x > 0:
			return 1, nil
		case x < 0:
			return -1, nil
		}
		return 0, nil
	}, []any{new(func(float64) int)}},
	"str": {func(a ...any) (any, error) { return Str(a[0]), nil }, []any{new(func(any) string)}},
}

func stdFuncNames() map[string]bool {
	out := map[string]bool{}
	for n := range rtFuncs {
		out[n] = true
	}
	for n := range pureFuncs {
		out[n] = true
	}
	return out
}

var stdOptions []expr.Option

func stdFuncOptions() []expr.Option {
	if stdOptions != nil {
		return stdOptions
	}
	opts := []expr.Option{
		expr.Function("__call", callProc, new(func(*Machine, int, string, ...any) any)),
	}
	// Lists concatenate with +, as GMs expect: journal + ["touché"].
	opts = append(opts, expr.Function("__concat", func(a ...any) (any, error) {
		x, y := a[0].([]any), a[1].([]any)
		return append(append(make([]any, 0, len(x)+len(y)), x...), y...), nil
	}, new(func([]any, []any) []any)))
	opts = append(opts, expr.Function("__new", newRecordFunc, new(func(*Machine, string, map[string]any) map[string]any)))
	for _, name := range sortedKeys(rtFuncs) {
		f := rtFuncs[name]
		opts = append(opts, expr.Function(f.internal, func(args ...any) (any, error) {
			return f.fn(args[0].(*Machine), args[1:])
		}, f.types...))
	}
	for _, name := range sortedKeys(pureFuncs) {
		f := pureFuncs[name]
		opts = append(opts, expr.Function(name, f.fn, f.types...))
	}
	stdOptions = opts
	return opts
}

func callProc(args ...any) (any, error) {
	m := args[0].(*Machine)
	p := m.prog.Procs[args[1].(int)]
	return m.call(p, args[3:], callSite(args[2].(string)))
}

func toInt(v any) int {
	switch x := v.(type) {
	case int:
		return x
	case float64:
		return int(x)
	}
	return 0
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

func (m *Machine) rollDie(sides int) (int, error) {
	if m.Dice == nil {
		return 0, errors.New("no dice source")
	}
	if sides < 1 || sides > 1_000_000 {
		return 0, fmt.Errorf("a die has 1 to 1000000 sides, not %d", sides)
	}
	return m.Dice.Roll(sides)
}

func (m *Machine) entitiesOf(kind string) ([]any, error) {
	k, ok := m.prog.globals[kind].(*Kind)
	if !ok {
		return nil, fmt.Errorf("unknown kind %s", kind)
	}
	var out []any
	for _, e := range m.prog.Entities {
		if e.Kind == k {
			out = append(out, m.globals[e.Name])
		}
	}
	return out, nil
}

// rewriteLiterals turns literals rule files have and expr-lang lacks into calls; it returns
// the new text and, when it changed anything, the map from new rune offsets to old ones.
func rewriteLiterals(text string) (string, []int) {
	return text, nil
}

// callSite reads back the "file:line:col" a call was compiled with.
func callSite(s string) Pos {
	var p Pos
	i := strings.LastIndexByte(s, ':')
	j := strings.LastIndexByte(s[:max(i, 0)], ':')
	if i < 0 || j < 0 {
		return Pos{File: s}
	}
	p.File = s[:j]
	p.Line, _ = strconv.Atoi(s[j+1 : i])
	p.Col, _ = strconv.Atoi(s[i+1:])
	return p
}

func newRecordFunc(args ...any) (any, error) {
	m := args[0].(*Machine)
	k := m.prog.globals[args[1].(string)].(*Kind)
	fields := args[2].(map[string]any)
	rec, err := m.newRecord(k, nil)
	if err != nil {
		return nil, err
	}
	for _, name := range sortedKeys(fields) {
		f := k.byName[name]
		if f == nil {
			return nil, fmt.Errorf("%s has no field %s", k.Name, name)
		}
		v, err := conform(fields[name], f.Type)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %v", k.Name, name, err)
		}
		rec[name] = v
	}
	return rec, nil
}
