package exprx

import (
	"github.com/expr-lang/expr/file"

	"rulesh/dsl/internal/lib/core"
	"rulesh/dsl/internal/runtime"
)

// quickCore compiles a call of a core function a strike makes often (hypot, round, floor,
// ceil, same, all_faces) to a closure that calls the function itself when its arguments
// are of the types its number checks accept and it cannot panic on: without the guarded
// call (a defer and a recover), the arguments on the machine's stack and the check of
// their types. Any other argument goes to the guarded call, which checks it and says what
// is wrong as before. Nil when name is not one of them.
func (c *fastCompiler) quickCore(name string, args []fn, call func(...any) (any, error), loc file.Location) fn {
	if _, ok := core.Lookup(name); !ok {
		return nil
	}
	var direct func(a, b any) (any, bool, error)
	switch {
	case name == "hypot" && len(args) == 2:
		direct = func(a, b any) (any, bool, error) {
			if !isNumber(a) || !isNumber(b) {
				return nil, false, nil
			}
			v, err := core.Hypot(a, b)
			return v, true, err
		}
	case (name == "round" || name == "floor" || name == "ceil") && len(args) == 1:
		whole := map[string]func(any) (int, error){"round": core.Round, "floor": core.Floor, "ceil": core.Ceil}[name]
		direct = func(a, _ any) (any, bool, error) {
			if !isNumber(a) {
				return nil, false, nil
			}
			v, err := whole(a)
			return runtime.Int(v), true, err
		}
	case name == "same" && len(args) == 2:
		// Same reads any two values without panicking, and takes no number.
		direct = func(a, b any) (any, bool, error) {
			v, err := core.Same(a, b)
			return v, true, err
		}
	case name == "all_faces" && len(args) == 2:
		// A roll that is not nil (the faces of a nil one panic), any face.
		direct = func(a, b any) (any, bool, error) {
			if r, ok := a.(*runtime.Roll); !ok || r == nil {
				return nil, false, nil
			}
			v, err := core.AllFaces(a, b)
			return v, true, err
		}
	default:
		return nil
	}
	first := args[0]
	second := func(*fastState) (any, error) { return nil, nil }
	if len(args) == 2 {
		second = args[1]
	}
	return func(s *fastState) (any, error) {
		a, err := first(s)
		if err != nil {
			return nil, err
		}
		b, err := second(s)
		if err != nil {
			return nil, err
		}
		if v, ok, err := direct(a, b); ok {
			if err != nil {
				return nil, c.fail(loc, err)
			}
			return v, nil
		}
		m := s.m
		base := m.ArgBase()
		m.PushArg(a)
		if len(args) == 2 {
			m.PushArg(b)
		}
		v, err := c.callGuarded(loc, call, m.ArgsFrom(base))
		m.PopArgs(base)
		return v, err
	}
}

// isNumber reports an int or a float: what the core functions' number checks accept, a
// roll apart.
func isNumber(v any) bool {
	switch v.(type) {
	case int, float64:
		return true
	}
	return false
}
