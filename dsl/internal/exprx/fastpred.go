package exprx

import (
	"errors"
	"reflect"
	"slices"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	exprruntime "github.com/expr-lang/expr/vm/runtime"

	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/cards"
)

// The builtins that take a predicate (all, map, filter, sum…), as expr's compiler lays
// their loops out: the collection dereferenced, then walked with # for the element, #index
// and #acc, each predicate result that decides being a bool or the VM's failure at the
// builtin.

// items is a collection being walked (the VM's Scope).
type items struct {
	anys  []any
	cards []*cards.Card // a pile's cards, walked without reflect
	rv    reflect.Value
	n     int
}

// item is the element at index i, as the VM's Scope.Item (which panics on what cannot be
// indexed: a map), its failure placed at loc.
func (c *fastCompiler) item(loc file.Location, it *items, i int) (v any, err error) {
	if it.anys != nil {
		return it.anys[i], nil
	}
	if it.cards != nil {
		return it.cards[i], nil
	}
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, c.fail(loc, r)
		}
	}()
	return it.rv.Index(i).Interface(), nil
}

// begin is OpBegin: what the builtin walks.
func (c *fastCompiler) begin(loc file.Location, v any) (items, error) {
	switch v := v.(type) {
	case []any:
		return items{anys: v, n: len(v)}, nil
	case []*cards.Card:
		if v != nil {
			return items{cards: v, n: len(v)}, nil
		}
	}
	var it items
	_, err := c.guard(loc, func() any {
		it.rv = reflect.ValueOf(v)
		it.n = it.rv.Len()
		return nil
	})
	return it, err
}

// collection compiles what a predicate walks, dereferenced as the compiler would; a pile's
// cards (p.cards) are walked as their slice, which boxing and unboxing would copy to the heap.
func (c *fastCompiler) collection(n ast.Node) (func(*fastState, file.Location) (items, error), bool) {
	// The budget's __each(__rt, p.cards) charges the walk (budgetFunctions): the same charge,
	// the size of the cards, and the same failure at the call.
	if call, ok := n.(*ast.CallNode); ok && len(call.Arguments) == 2 && isMachine(call.Arguments[0]) {
		id, ok := call.Callee.(*ast.IdentifierNode)
		pc := c.pileCards(call.Arguments[1])
		if ok && id.Value == "__each" && c.cfg.Functions["__each"] != nil && pc != nil {
			needs := needsDeref(n)
			callLoc := call.Location()
			return func(s *fastState, loc file.Location) (items, error) {
				cs, ok, v, err := pc(s)
				if err != nil {
					return items{}, err
				}
				size := len(cs) + 1
				if !ok {
					size = runtime.Size(v)
				}
				if err := s.m.Charge(size); err != nil {
					return items{}, c.fail(callLoc, err)
				}
				if ok {
					return items{cards: cs, n: len(cs)}, nil
				}
				if needs {
					v = deref(v)
				}
				return c.begin(loc, v)
			}, true
		}
	}
	if pc := c.pileCards(n); pc != nil {
		needs := needsDeref(n)
		return func(s *fastState, loc file.Location) (items, error) {
			cs, ok, v, err := pc(s)
			if err != nil {
				return items{}, err
			}
			if ok {
				return items{cards: cs, n: len(cs)}, nil
			}
			if needs {
				v = deref(v)
			}
			return c.begin(loc, v)
		}, true
	}
	coll, ok := c.compileDeref(n)
	if !ok {
		return nil, false
	}
	return func(s *fastState, loc file.Location) (items, error) {
		v, err := coll(s)
		if err != nil {
			return items{}, err
		}
		return c.begin(loc, v)
	}, true
}

// predicate compiles a builtin with a predicate, or returns nil.
func (c *fastCompiler) predicate(n *ast.BuiltinNode) fn {
	switch n.Name {
	case "all", "none", "any", "one", "filter", "map", "count", "sum", "find", "findIndex", "findLast", "findLastIndex", "reduce", "sortBy":
	default:
		return nil
	}
	if len(n.Arguments) == 0 {
		return nil
	}
	coll, ok := c.collection(n.Arguments[0])
	if !ok {
		return nil
	}
	var body, mapped, init fn
	if len(n.Arguments) > 1 {
		if body, ok = c.compile(n.Arguments[1]); !ok {
			return nil
		}
	}
	if n.Map != nil {
		if mapped, ok = c.compile(n.Map); !ok {
			return nil
		}
	}
	if (n.Name == "reduce" || n.Name == "sortBy") && len(n.Arguments) == 3 {
		if init, ok = c.compileDeref(n.Arguments[2]); !ok {
			return nil
		}
	}
	if body == nil && n.Name != "count" && n.Name != "sum" {
		return nil
	}
	if n.Name == "sortBy" && len(n.Arguments) == 3 {
		// The order is not dereferenced.
		if init, ok = c.compile(n.Arguments[2]); !ok {
			return nil
		}
	}
	if len(n.Arguments) > 3 || len(n.Arguments) == 3 && n.Name != "reduce" && n.Name != "sortBy" {
		return nil
	}
	loc := n.Location()
	name, throws, threshold := n.Name, n.Throws, n.Threshold
	// truth reads a predicate's result as the VM's jump does.
	truth := func(v any) (bool, error) {
		if b, ok := v.(bool); ok {
			return b, nil
		}
		_, err := c.guard(loc, func() any { return v.(bool) })
		return false, err
	}
	return func(s *fastState) (any, error) {
		it, err := coll(s, loc)
		if err != nil {
			return nil, err
		}
		s.items = append(s.items, predItem{it: it})
		depth := len(s.items) - 1
		defer func() { s.items = s.items[:depth] }()
		// run evaluates f with the element i as #.
		run := func(f fn, i int) (any, error) {
			s.items[depth].index = i
			return f(s)
		}
		// cur is the current element, read by the builtin itself.
		cur := func() (any, error) { return c.item(loc, &it, s.items[depth].index) }
		switch name {
		case "all", "none", "any":
			for i := 0; i < it.n; i++ {
				v, err := run(body, i)
				if err != nil {
					return nil, err
				}
				b, err := truth(v)
				if err != nil {
					return nil, err
				}
				if name == "none" {
					b = !b
				}
				if b == (name == "any") {
					return b, nil
				}
			}
			return name != "any", nil
		case "one", "count":
			count := 0
			for i := 0; i < it.n; i++ {
				var v any
				if body != nil {
					if v, err = run(body, i); err != nil {
						return nil, err
					}
				} else {
					s.items[depth].index = i
					if v, err = cur(); err != nil {
						return nil, err
					}
				}
				b, err := truth(v)
				if err != nil {
					return nil, err
				}
				if b {
					count++
					if name == "count" && threshold != nil && count >= *threshold {
						break
					}
				}
			}
			if name == "one" {
				return exprruntime.Equal(count, 1), nil
			}
			return count, nil
		case "sum":
			var acc any
			total := 0
			for i := 0; i < it.n; i++ {
				var v any
				if body != nil {
					if v, err = run(body, i); err != nil {
						return nil, err
					}
				} else {
					s.items[depth].index = i
					if v, err = cur(); err != nil {
						return nil, err
					}
				}
				// While both are ints the sum is kept unboxed (acc is then nil).
				if x, ok := v.(int); ok && acc == nil {
					total += x
					continue
				}
				if acc == nil {
					acc = total
				}
				if acc, err = c.guard2(loc, exprruntime.Add, v, acc); err != nil {
					return nil, err
				}
			}
			if acc == nil {
				return total, nil
			}
			return acc, nil
		case "map":
			out := make([]any, it.n)
			for i := 0; i < it.n; i++ {
				if out[i], err = run(body, i); err != nil {
					return nil, err
				}
			}
			if err := c.grow(s, loc, uint(len(out))); err != nil {
				return nil, err
			}
			return out, nil
		case "filter":
			// The elements kept gather on the state's scratch stack (a filter inside the
			// predicate takes its own stretch above), then go to a list of their number, as
			// the VM's OpArray makes it.
			base := len(s.scratch)
			defer func() {
				clear(s.scratch[base:])
				s.scratch = s.scratch[:base]
			}()
			for i := 0; i < it.n; i++ {
				v, err := run(body, i)
				if err != nil {
					return nil, err
				}
				b, err := truth(v)
				if err != nil {
					return nil, err
				}
				if !b {
					continue
				}
				if mapped != nil {
					if v, err = mapped(s); err != nil {
						return nil, err
					}
				} else if v, err = cur(); err != nil {
					return nil, err
				}
				s.scratch = append(s.scratch, v)
			}
			kept := s.scratch[base:]
			if err := c.grow(s, loc, uint(len(kept))); err != nil {
				return nil, err
			}
			return append(make([]any, 0, len(kept)), kept...), nil
		case "find", "findIndex", "findLast", "findLastIndex":
			last := name == "findLast" || name == "findLastIndex"
			for k := 0; k < it.n; k++ {
				i := k
				if last {
					i = it.n - 1 - k
				}
				v, err := run(body, i)
				if err != nil {
					return nil, err
				}
				b, err := truth(v)
				if err != nil {
					return nil, err
				}
				if !b {
					continue
				}
				switch {
				case name == "findIndex" || name == "findLastIndex":
					return i, nil
				case mapped != nil:
					return mapped(s)
				}
				return cur()
			}
			if throws && (name == "find" || name == "findLast") {
				return nil, c.fail(loc, errors.New("reflect: slice index out of range"))
			}
			return nil, nil
		case "sortBy":
			var order any = "asc"
			if init != nil {
				if order, err = init(s); err != nil {
					return nil, err
				}
			}
			o, ok := order.(string)
			if !ok {
				return nil, c.fail(loc, "sortBy order argument must be a string")
			}
			if o != "asc" && o != "desc" {
				return nil, c.fail(loc, "unknown order, use asc or desc")
			}
			// The elements and their keys gather on the state's sorting stack (a sortBy in
			// the key takes its own stretch above), sorted there as pairs: slices.SortFunc
			// runs the same pattern-defeating quicksort as the VM's sort.Sort of its
			// exprruntime.SortBy (the two are generated from one template, every comparison
			// a Less), so the order of equal keys is the VM's, without the sorter and the
			// list of keys each sort allocated.
			desc := o == "desc"
			base := len(s.sorting)
			defer func() {
				clear(s.sorting[base:])
				s.sorting = s.sorting[:base]
			}()
			for i := 0; i < it.n; i++ {
				v, err := run(body, i)
				if err != nil {
					return nil, err
				}
				item, err := cur()
				if err != nil {
					return nil, err
				}
				s.sorting = append(s.sorting, sortPair{item: item, key: v})
			}
			pairs := s.sorting[base:]
			if _, err := c.guard(loc, func() any {
				slices.SortFunc(pairs, func(a, b sortPair) int {
					if desc {
						a, b = b, a
					}
					if exprruntime.Less(a.key, b.key) {
						return -1
					}
					return 0
				})
				return nil
			}); err != nil {
				return nil, err
			}
			if err := c.grow(s, loc, uint(it.n)); err != nil {
				return nil, err
			}
			out := make([]any, len(pairs))
			for i, p := range pairs {
				out[i] = p.item
			}
			return out, nil
		case "reduce":
			start := 0
			if init != nil {
				if s.items[depth].acc, err = init(s); err != nil {
					return nil, err
				}
			} else {
				if it.n == 0 {
					return nil, c.fail(loc, errors.New("reduce of empty array with no initial value"))
				}
				if s.items[depth].acc, err = cur(); err != nil {
					return nil, err
				}
				start = 1
			}
			for i := start; i < it.n; i++ {
				v, err := run(body, i)
				if err != nil {
					return nil, err
				}
				s.items[depth].acc = v
			}
			return s.items[depth].acc, nil
		}
		return nil, nil
	}
}

// pointer is # (the element), #index or #acc of the innermost predicate loop.
func (c *fastCompiler) pointer(n *ast.PointerNode) (fn, bool) {
	switch n.Name {
	case "":
		loc := n.Location()
		return func(s *fastState) (any, error) {
			p := &s.items[len(s.items)-1]
			return c.item(loc, &p.it, p.index)
		}, true
	case "index":
		return func(s *fastState) (any, error) { return s.items[len(s.items)-1].index, nil }, true
	case "acc":
		return func(s *fastState) (any, error) { return s.items[len(s.items)-1].acc, nil }, true
	}
	return nil, false
}
