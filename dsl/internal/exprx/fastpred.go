package exprx

import (
	"errors"
	"reflect"
	"slices"
	"strings"

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

// element is what the body of count or sum gives for item i of it, or the item itself
// when the builtin has no body (count(list), sum(list)).
func (c *fastCompiler) element(s *fastState, loc file.Location, body fn, it *items, i int) (any, error) {
	if body != nil {
		return body(s)
	}
	return c.item(loc, it, i)
}

// item is the element at index i, as the VM's Scope.Item (which panics on what cannot be
// indexed: a map), its failure placed at loc.
func (c *fastCompiler) item(loc file.Location, it *items, i int) (any, error) {
	if it.anys != nil {
		return it.anys[i], nil
	}
	if it.cards != nil {
		return it.cards[i], nil
	}
	return c.reflectItem(loc, it, i)
}

// reflectItem is item for a collection walked through reflect (kept apart: its recover
// would keep item from being inlined).
func (c *fastCompiler) reflectItem(loc file.Location, it *items, i int) (v any, err error) {
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
	if list := c.constList(n); list != nil {
		return list, true
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

// constList compiles what a predicate walks when it is the list a builtin with constant
// arguments gives (entities("Poste"), patched as __each(__rt, __entities(__rt, "Poste"))),
// or returns nil: the list is read from the builtin's List, neither boxed nor looked up,
// with the same charges and failures as the two calls.
func (c *fastCompiler) constList(n ast.Node) func(*fastState, file.Location) (items, error) {
	each, ok := n.(*ast.CallNode)
	if !ok || len(each.Arguments) != 2 || !isMachine(each.Arguments[0]) || c.lib == nil {
		return nil
	}
	if id, ok := each.Callee.(*ast.IdentifierNode); !ok || id.Value != "__each" || c.cfg.Functions["__each"] == nil {
		return nil
	}
	call, ok := each.Arguments[1].(*ast.CallNode)
	if !ok || len(call.Arguments) < 1 || !isMachine(call.Arguments[0]) {
		return nil
	}
	id, ok := call.Callee.(*ast.IdentifierNode)
	if !ok || c.cfg.Functions[id.Value] == nil {
		return nil
	}
	name, ok := strings.CutPrefix(id.Value, "__")
	b, known := c.lib.Builtins[name]
	if !ok || !known || b.List == nil || runtime.InternalName(name) != id.Value {
		return nil
	}
	args := make([]any, len(call.Arguments)-1)
	for i, a := range call.Arguments[1:] {
		s, ok := a.(*ast.StringNode)
		if !ok {
			return nil
		}
		args[i] = s.Value
	}
	list := b.List
	callLoc, eachLoc := call.Location(), each.Location()
	return func(s *fastState, _ file.Location) (items, error) {
		l, err := list(s.m, args)
		if err != nil {
			return items{}, c.fail(callLoc, err)
		}
		if err := s.m.Charge(len(l) + 1); err != nil { // __each's charge: the list's Size
			return items{}, c.fail(eachLoc, err)
		}
		return items{anys: l, n: len(l)}, nil
	}
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
	var test cond
	if body != nil {
		test = c.cond(n.Arguments[1], loc, body)
	}
	loop := c.predLoop(n, loc, body, test, mapped, init)
	return func(s *fastState) (any, error) {
		it, err := coll(s, loc)
		if err != nil {
			return nil, err
		}
		depth := len(s.items)
		s.items = append(s.items, predItem{it: it})
		v, err := loop(s, depth, it)
		// Popped without a defer, which this closure's many returns would have made a slow
		// one: a panic that left the stacks longer is undone by the next Eval.
		s.items = s.items[:depth]
		return v, err
	}
}

// predLoop is a predicate builtin's loop over it, the collection pushed as s.items[depth]:
// the element i is # while the predicate (body) runs. s.items may grow (and move) under a
// predicate that has its own loop: it is indexed anew after each call.
type predLoop func(s *fastState, depth int, it items) (any, error)

// emptyList is the empty list a filter, map or sortBy gives: a list with nothing in it
// cannot be written to (an append makes a new one), so one boxed value serves them all.
var emptyList any = []any{}

// truth reads a predicate's result at loc as the VM's jump does.
func (c *fastCompiler) truth(loc file.Location, v any) (bool, error) {
	if b, ok := v.(bool); ok {
		return b, nil
	}
	_, err := c.guard(loc, func() any { return v.(bool) })
	return false, err
}

// cond is a predicate's body read as the builtin reads it (truth), for the element pushed
// as # already; el is that element when the collection is a list of values (it.anys), else
// nil. (Not the collection itself: a pointer to it would put every loop's on the heap.)
type cond func(s *fastState, el any) (bool, error)

// at is the element i of it for a cond.
func (it *items) at(i int) any {
	if it.anys != nil {
		return it.anys[i]
	}
	return nil
}

// cond compiles the body n of a predicate, already compiled as body, to a cond. A body that
// compares a field of the element with a string, #.f == "x" or #.f != "x" (the patch's
// __op(__rt, "==", #.f, "x"): # has no static type), reads the field of an element that is a
// record and compares it here, where the operator would have compared the same two strings
// as the language's == does; anything else (no record, a field that is no string) takes the
// body.
func (c *fastCompiler) cond(n ast.Node, loc file.Location, body fn) cond {
	slow := func(s *fastState, _ any) (bool, error) {
		v, err := body(s)
		if err != nil {
			return false, err
		}
		return c.truth(loc, v)
	}
	key, lit, eq, ok := fieldIsString(n)
	if !ok || c.cfg.Functions["__op"] == nil {
		return slow
	}
	key = runtime.FieldKey(key)
	kh := runtime.FieldHash(key)
	return func(s *fastState, el any) (bool, error) {
		if rec, ok := el.(map[string]any); ok {
			f, kept := s.m.FieldKept(rec, key, kh)
			if !kept {
				f = s.m.ReadField(rec, key, kh)
			}
			if v, ok := f.(string); ok {
				return (v == lit) == eq, nil
			}
		}
		return slow(s, el)
	}
}

// fieldIsString matches n against __op(__rt, "==" or "!=", #.key, "lit"), either way round:
// eq is true for ==.
func fieldIsString(n ast.Node) (key, lit string, eq, ok bool) {
	if p, isPred := n.(*ast.PredicateNode); isPred {
		n = p.Node
	}
	call, isCall := n.(*ast.CallNode)
	if !isCall || len(call.Arguments) != 4 || !isMachine(call.Arguments[0]) {
		return "", "", false, false
	}
	if id, isID := call.Callee.(*ast.IdentifierNode); !isID || id.Value != "__op" {
		return "", "", false, false
	}
	op, isStr := call.Arguments[1].(*ast.StringNode)
	if !isStr || op.Value != "==" && op.Value != "!=" {
		return "", "", false, false
	}
	field := func(x ast.Node) (string, bool) {
		m, isMember := x.(*ast.MemberNode)
		if !isMember || m.Optional || m.Method {
			return "", false
		}
		if p, isPtr := m.Node.(*ast.PointerNode); !isPtr || p.Name != "" {
			return "", false
		}
		name, isStr := m.Property.(*ast.StringNode)
		if !isStr {
			return "", false
		}
		return name.Value, true
	}
	l, r := call.Arguments[2], call.Arguments[3]
	if k, isField := field(l); isField {
		if s, isStr := r.(*ast.StringNode); isStr {
			return k, s.Value, op.Value == "==", true
		}
	}
	if k, isField := field(r); isField {
		if s, isStr := l.(*ast.StringNode); isStr {
			return k, s.Value, op.Value == "==", true
		}
	}
	return "", "", false, false
}

// predLoop compiles the loop of the builtin n (one closure for each builtin: no switch on
// its name for each call); test is body read as a bool.
func (c *fastCompiler) predLoop(n *ast.BuiltinNode, loc file.Location, body fn, test cond, mapped, init fn) predLoop {
	switch n.Name {
	case "all", "none", "any":
		// all stops at the first false, none and any at the first true.
		stopAt, stopped := n.Name != "all", n.Name == "any"
		return func(s *fastState, depth int, it items) (any, error) {
			for i := 0; i < it.n; i++ {
				s.items[depth].index = i
				b, err := test(s, it.at(i))
				if err != nil {
					return nil, err
				}
				if b == stopAt {
					return stopped, nil
				}
			}
			return !stopped, nil
		}
	case "one", "count":
		one := n.Name == "one"
		// count(…) > k and the like stop at the threshold (expr's optimizer sets it).
		threshold, stops := 0, n.Threshold != nil && !one
		if stops {
			threshold = *n.Threshold
		}
		return func(s *fastState, depth int, it items) (any, error) {
			count := 0
			for i := 0; i < it.n; i++ {
				s.items[depth].index = i
				var b bool
				var err error
				if test != nil {
					b, err = test(s, it.at(i))
				} else {
					var v any
					if v, err = c.item(loc, &it, i); err == nil {
						b, err = c.truth(loc, v)
					}
				}
				if err != nil {
					return nil, err
				}
				if b {
					count++
					if stops && count >= threshold {
						break
					}
				}
			}
			if one {
				return count == 1, nil
			}
			return count, nil
		}
	case "sum":
		return func(s *fastState, depth int, it items) (any, error) {
			var acc any
			total := 0
			for i := 0; i < it.n; i++ {
				s.items[depth].index = i
				v, err := c.element(s, loc, body, &it, i)
				if err != nil {
					return nil, err
				}
				// While both are ints the sum is kept unboxed (acc is then nil).
				if x, ok := v.(int); ok && acc == nil {
					total += x
					continue
				}
				if acc == nil {
					acc = runtime.Int(total)
				}
				if acc, err = c.guard2(loc, exprruntime.Add, v, acc); err != nil {
					return nil, err
				}
			}
			if acc == nil {
				// A sum of modifiers is often below 0: boxed from the table, not allocated.
				return runtime.Int(total), nil
			}
			return acc, nil
		}
	case "map":
		site := runtime.NewListSite()
		return func(s *fastState, depth int, it items) (any, error) {
			// The values gather on the scratch stack, as a filter's do.
			base := len(s.scratch)
			for i := 0; i < it.n; i++ {
				s.items[depth].index = i
				v, err := body(s)
				if err != nil {
					dropScratch(s, base)
					return nil, err
				}
				s.scratch = append(s.scratch, v)
			}
			if err := c.grow(s, loc, uint(it.n)); err != nil {
				dropScratch(s, base)
				return nil, err
			}
			if it.n == 0 {
				return emptyList, nil
			}
			list := s.m.ListOf(site, s.scratch[base:])
			dropScratch(s, base)
			return list, nil
		}
	case "filter":
		site := runtime.NewListSite()
		return func(s *fastState, depth int, it items) (any, error) {
			// The elements kept gather on the state's scratch stack (a filter inside the
			// predicate takes its own stretch above), then go to a list of their number, as
			// the VM's OpArray makes it.
			base := len(s.scratch)
			for i := 0; i < it.n; i++ {
				s.items[depth].index = i
				b, err := test(s, it.at(i))
				if err == nil && b {
					var v any
					if mapped != nil {
						v, err = mapped(s)
					} else {
						v, err = c.item(loc, &it, i)
					}
					if err == nil {
						s.scratch = append(s.scratch, v)
					}
				}
				if err != nil {
					dropScratch(s, base)
					return nil, err
				}
			}
			kept := s.scratch[base:]
			if err := c.grow(s, loc, uint(len(kept))); err != nil {
				dropScratch(s, base)
				return nil, err
			}
			if len(kept) == 0 {
				return emptyList, nil
			}
			list := s.m.ListOf(site, kept)
			dropScratch(s, base)
			return list, nil
		}
	case "find", "findIndex", "findLast", "findLastIndex":
		last := n.Name == "findLast" || n.Name == "findLastIndex"
		index := n.Name == "findIndex" || n.Name == "findLastIndex"
		throws := n.Throws && !index
		return func(s *fastState, depth int, it items) (any, error) {
			for k := 0; k < it.n; k++ {
				i := k
				if last {
					i = it.n - 1 - k
				}
				s.items[depth].index = i
				b, err := test(s, it.at(i))
				if err != nil {
					return nil, err
				}
				if !b {
					continue
				}
				switch {
				case index:
					return i, nil
				case mapped != nil:
					return mapped(s)
				}
				return c.item(loc, &it, i)
			}
			if throws {
				return nil, c.fail(loc, errors.New("reflect: slice index out of range"))
			}
			return nil, nil
		}
	case "sortBy":
		var first bool
		var firstAt, firstBuilt file.Location
		if f := c.first; f != nil && f.node == n {
			first, firstAt, firstBuilt = true, f.at, f.built
		}
		site := runtime.NewListSite()
		return func(s *fastState, depth int, it items) (any, error) {
			var order any = "asc"
			if init != nil {
				var err error
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
			var out any
			var err error
			if first {
				out, err = c.sortFirst(s, depth, it, loc, body, base, desc, firstBuilt, firstAt)
			} else {
				out, err = c.sortPairs(s, depth, it, loc, body, base, desc, site)
			}
			clear(s.sorting[base:])
			s.sorting = s.sorting[:base]
			return out, err
		}
	case "reduce":
		return func(s *fastState, depth int, it items) (any, error) {
			start := 0
			var err error
			if init != nil {
				if s.items[depth].acc, err = init(s); err != nil {
					return nil, err
				}
			} else {
				if it.n == 0 {
					return nil, c.fail(loc, errors.New("reduce of empty array with no initial value"))
				}
				if s.items[depth].acc, err = c.item(loc, &it, 0); err != nil {
					return nil, err
				}
				start = 1
			}
			for i := start; i < it.n; i++ {
				s.items[depth].index = i
				v, err := body(s)
				if err != nil {
					return nil, err
				}
				s.items[depth].acc = v
			}
			return s.items[depth].acc, nil
		}
	}
	return nil
}

// dropScratch lets go of the elements a filter gathered from base on.
func dropScratch(s *fastState, base int) {
	clear(s.scratch[base:])
	s.scratch = s.scratch[:base]
}

// sortPairs is sortBy's work on the sorting stack from base: each element with its key
// (body), sorted, then the list of the elements.
func (c *fastCompiler) sortPairs(s *fastState, depth int, it items, loc file.Location, body fn, base int, desc bool, site *runtime.ListSite) (any, error) {
	pairs, err := c.sortKeys(s, depth, it, loc, body, base, desc, false)
	if err != nil {
		return nil, err
	}
	if len(pairs) == 0 {
		return emptyList, nil
	}
	// The elements in their order, on the scratch stack, for the list.
	at := len(s.scratch)
	for _, p := range pairs {
		s.scratch = append(s.scratch, p.item)
	}
	list := s.m.ListOf(site, s.scratch[at:])
	dropScratch(s, at)
	return list, nil
}

// sortFirst is __built(__rt, sortBy(…))[0]: sortPairs' work, the list's charge (chargeBuilt
// of a list of its length, at built), then its first element, not the list, or the index's
// error (at) when there is none. The first of a few elements with int keys is found without
// sorting them: slices.SortFunc sorts up to 12 elements by insertion, which keeps equal keys
// in their order, so the first is the first of the least keys (of the greatest, descending).
func (c *fastCompiler) sortFirst(s *fastState, depth int, it items, loc file.Location, body fn, base int, desc bool, built, at file.Location) (any, error) {
	pairs, err := c.sortKeys(s, depth, it, loc, body, base, desc, true)
	if err != nil {
		return nil, err
	}
	size := len(pairs) + 1 // runtime.Size of the list
	if err := s.m.Charge(size); err != nil {
		return nil, c.fail(built, err)
	}
	if err := s.m.ChargeValue(size, 0); err != nil {
		return nil, c.fail(built, err)
	}
	if len(pairs) == 0 {
		return c.guard2(at, exprruntime.Fetch, emptyList, 0)
	}
	return pairs[0].item, nil
}

// smallSort is the most elements slices.SortFunc sorts by insertion (its maxInsertion).
const smallSort = 12

// sortKeys gathers each element with its key (body) on the sorting stack from base, and
// sorts them; with first, a few elements of int keys are only searched for the first,
// which it puts first (sortFirst). It charges the memory of the list they make.
func (c *fastCompiler) sortKeys(s *fastState, depth int, it items, loc file.Location, body fn, base int, desc, first bool) ([]sortPair, error) {
	ints := true
	for i := 0; i < it.n; i++ {
		s.items[depth].index = i
		v, err := body(s)
		if err != nil {
			return nil, err
		}
		item, err := c.item(loc, &it, i)
		if err != nil {
			return nil, err
		}
		_, isInt := v.(int)
		ints = ints && isInt
		s.sorting = append(s.sorting, sortPair{item: item, key: v})
	}
	pairs := s.sorting[base:]
	if first && ints && len(pairs) <= smallSort {
		best := 0
		for i := 1; i < len(pairs); i++ {
			if k, b := pairs[i].key.(int), pairs[best].key.(int); desc && k > b || !desc && k < b {
				best = i
			}
		}
		if len(pairs) > 0 {
			pairs[0], pairs[best] = pairs[best], pairs[0]
		}
	} else if ints {
		// Keys that are all ints (a card's value, a score) are compared as Less compares
		// two ints, which cannot fail: the same comparisons give the same order, without
		// Less's switch on the types and the recover.
		slices.SortFunc(pairs, func(a, b sortPair) int {
			if desc {
				a, b = b, a
			}
			if a.key.(int) < b.key.(int) {
				return -1
			}
			return 0
		})
	} else if _, err := c.guard(loc, func() any {
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
	return pairs, nil
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

// elementKey is #.key, # being of no static type (a record of a list of entities, most
// often): the element is read from the innermost loop and the field from it, what the
// pointer and member closures do one after the other. ptrLoc is where # fails.
func (c *fastCompiler) elementKey(ptrLoc file.Location, key string, read func(any) (any, error)) fn {
	kh := runtime.FieldHash(key)
	return func(s *fastState) (any, error) {
		p := &s.items[len(s.items)-1]
		var o any
		if p.it.anys != nil {
			o = p.it.anys[p.index]
		} else {
			var err error
			if o, err = c.item(ptrLoc, &p.it, p.index); err != nil {
				return nil, err
			}
		}
		if mp, ok := o.(map[string]any); ok {
			if v, ok := s.m.FieldKept(mp, key, kh); ok {
				return v, nil
			}
			return s.m.ReadField(mp, key, kh), nil
		}
		return read(o)
	}
}

// elementCardField is #.f, # being a card to the checker (an element of a pile's cards) and
// f one of a card's fields, read by card: a card of the loop is read directly, anything else
// as structField reads it (get, then FetchField at loc). ptrLoc is where # fails.
func (c *fastCompiler) elementCardField(ptrLoc, loc file.Location, card func(*cards.Card) any, get func(any) (any, bool), field *exprruntime.Field) fn {
	return func(s *fastState) (any, error) {
		p := &s.items[len(s.items)-1]
		if p.it.cards != nil && p.it.anys == nil {
			if cd := p.it.cards[p.index]; cd != nil {
				return card(cd), nil
			}
		}
		o, err := c.item(ptrLoc, &p.it, p.index)
		if err != nil {
			return nil, err
		}
		if cd, ok := o.(*cards.Card); ok && cd != nil {
			return card(cd), nil
		}
		if v, ok := get(o); ok {
			return v, nil
		}
		return c.fetchField(loc, o, field)
	}
}

// inKeys compiles x in keys(m), patched as __in(__rt, x, __keys(__rt, m)), as a look-up in
// the map, or returns nil: the same steps charged (keys' one per entry, in's one per key
// listed) and the same failures, without the sorted list of boxed keys. A needle that is not
// a string, or an m that is not a map, takes the two calls.
func (c *fastCompiler) inKeys(n *ast.CallNode, args []fn) fn {
	kc, ok := n.Arguments[2].(*ast.CallNode)
	if !ok || len(kc.Arguments) != 2 || !isMachine(kc.Arguments[0]) {
		return nil
	}
	if id, ok := kc.Callee.(*ast.IdentifierNode); !ok || id.Value != "__keys" {
		return nil
	}
	inF, keysF := c.cfg.Functions["__in"], c.cfg.Functions["__keys"]
	if inF == nil || inF.Func == nil || keysF == nil || keysF.Func == nil {
		return nil
	}
	kargs, _, ok := c.callArgs(kc)
	if !ok {
		return nil
	}
	needle, coll := args[1], kargs[1]
	loc, keysLoc := n.Location(), kc.Location()
	return func(s *fastState) (any, error) {
		x, err := needle(s)
		if err != nil {
			return nil, err
		}
		v, err := coll(s)
		if err != nil {
			return nil, err
		}
		key, isString := x.(string)
		mp, isMap := v.(map[string]any)
		if !isString || !isMap {
			keys, err := c.callGuarded(keysLoc, keysF.Func, []any{s.m, v})
			if err != nil {
				return nil, err
			}
			return c.callGuarded(loc, inF.Func, []any{s.m, x, keys})
		}
		if err := s.m.Charge(len(mp)); err != nil {
			return nil, c.fail(keysLoc, err)
		}
		listed := len(mp)
		if _, ok := mp[runtime.KindKey]; ok {
			listed-- // keys leaves a record's kind out
		}
		if err := s.m.Charge(listed); err != nil {
			return nil, c.fail(loc, err)
		}
		_, has := mp[key]
		return has && key != runtime.KindKey, nil
	}
}
