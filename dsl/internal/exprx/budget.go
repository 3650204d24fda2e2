package exprx

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"

	"rulesh/dsl/internal/lib/core"
	"rulesh/dsl/internal/runtime"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
)

// iterated reports whether builtin s is one of expr-lang's that walk their first argument:
// each element they walk costs a step. (A switch, not a map: a map is built at every start.)
func iterated(s string) bool {
	switch s {
	case "all", "none", "any", "one", "filter", "map", "count", "sum", "find", "findIndex",
		"findLast", "findLastIndex", "groupBy", "sortBy", "reduce", "max", "min", "mean",
		"median", "join", "sort", "reverse", "uniq", "flatten", "concat", "keys", "values",
		"toPairs", "fromPairs", "take", "indexOf", "lastIndexOf", "toJSON":
		return true
	}
	return false
}

// numeric reports whether builtin s takes numbers (or adds or compares its elements): a
// roll there is its total.
func numeric(s string) bool {
	switch s {
	case "sum", "max", "min", "mean", "median", "int", "float", "abs":
		return true
	}
	return false
}

// built reports whether builtin s makes a new collection or string, charged to memory.
func built(s string) bool {
	switch s {
	case "filter", "map", "groupBy", "sortBy", "sort", "reverse", "uniq", "flatten",
		"concat", "keys", "values", "toPairs", "fromPairs", "take", "join", "split",
		"splitAfter", "replace", "upper", "lower", "trim", "trimPrefix", "trimSuffix",
		"toJSON", "fromJSON", "toBase64", "fromBase64":
		return true
	}
	return false
}

// disabledBuiltins are expr-lang builtins a rule must not reach: they read the clock or the
// host's time zones, so a run would no longer be a function of its inputs.
var disabledBuiltins = []string{"now", "date", "duration", "timezone"}

// chargeEach is __each(__rt, v): walking v costs a step per element.
func chargeEach(m *runtime.Machine, v any) (any, error) {
	if err := m.Charge(runtime.Size(v)); err != nil {
		return nil, err
	}
	return v, nil
}

// chargeNums is __nums(__rt, v): the numbers a numeric builtin reads, walking v costing a
// step per element, a roll being its total.
func chargeNums(m *runtime.Machine, v any) (any, error) {
	if err := m.Charge(runtime.Size(v)); err != nil {
		return nil, err
	}
	return runtime.Totals(v), nil
}

// chargeLit is __lit(__rt, v): a literal list or map built is charged to memory.
func chargeLit(m *runtime.Machine, v any) (any, error) {
	return v, m.ChargeMem(runtime.Size(v))
}

// chargeBuilt is __built(__rt, v): a builtin's result (a range, map, filter…). No single
// value may pass the budget, and the work of building it costs steps. It does not count as
// growth: most are walked and dropped (the range of a for loop), and what a rule keeps
// grows by + or +=, which are counted.
func chargeBuilt(m *runtime.Machine, v any) (any, error) {
	n := runtime.Size(v)
	if err := m.Charge(n); err != nil {
		return nil, err
	}
	return v, m.ChargeValue(n, 0)
}

// chargeOf is the function of the budget called name that cannot panic (Size and the charges
// only compare and add numbers), or nil: a call compiled to closures calls it directly, with
// no recover (callGuarded) around it. __nums is not one of them: the total of a nil roll
// panics, so the closures call it through runtime.TotalsOf (fastCompiler.call). (A switch:
// no table is built at start-up.)
func chargeOf(name string) func(*runtime.Machine, any) (any, error) {
	switch name {
	case "__each":
		return chargeEach
	case "__lit":
		return chargeLit
	case "__built":
		return chargeBuilt
	}
	return nil
}

// budgetFunctions are the functions the patch below calls.
func budgetFunctions() []expr.Option {
	return []expr.Option{
		expr.Function("__each", func(a ...any) (any, error) { return chargeEach(a[0].(*runtime.Machine), a[1]) }),
		expr.Function("__nums", func(a ...any) (any, error) { return chargeNums(a[0].(*runtime.Machine), a[1]) }),
		expr.Function("__num", func(a ...any) (any, error) { return runtime.Totals(a[0]), nil }),
		// The sum or mean of huge numbers overflows to +Inf: an error, as for an operator.
		expr.Function("__finite", func(a ...any) (any, error) {
			if f, ok := a[1].(float64); ok {
				return runtime.Finite(f, a[0].(string))
			}
			return a[1], nil
		}),
		// max and min of an empty list have no value: expr-lang's nil printed nothing.
		expr.Function("__some", func(a ...any) (any, error) {
			if a[1] == nil {
				return nil, runtime.Errorf("%s of an empty list has no value", a[0].(string))
			}
			return a[1], nil
		}),
		expr.Function("__in", func(a ...any) (any, error) {
			// expr would dereference a pointer needle (a card) and then find no pointer
			// equal to it: in is core's.
			return core.In(a[0].(*runtime.Machine), a[1], a[2])
		}),
		expr.Function("__lit", func(a ...any) (any, error) { return chargeLit(a[0].(*runtime.Machine), a[1]) }),
		expr.Function("__uniq", func(a ...any) (any, error) { return a[0].(*runtime.Machine).Uniq(a[1]) }),
		expr.Function("__type", func(a ...any) (any, error) { return runtime.TypeValue(a[0]), nil }),
		expr.Function("__int", func(a ...any) (any, error) { return core.Int(a[0]) }),
		expr.Function("__float", func(a ...any) (any, error) { return core.Float(a[0]) }),
		expr.Function("__built", func(a ...any) (any, error) { return chargeBuilt(a[0].(*runtime.Machine), a[1]) }),
		expr.Function("__sized", func(a ...any) (any, error) {
			// flatten and join can build far more than their argument holds (a list of many
			// references to one long list or string): their result size is computed first.
			m := a[0].(*runtime.Machine)
			n, err := m.ExpandedSize(a[2].(string), a[1])
			if err != nil {
				return nil, err
			}
			return a[1], m.ChargeValue(n, 0)
		}),
		expr.Function("__join", func(a ...any) (any, error) {
			sep := ""
			if len(a) > 2 {
				s, ok := a[2].(string)
				if !ok {
					return nil, runtime.Errorf("join: the separator is a string, not %s", runtime.TypeName(a[2]))
				}
				sep = s
			}
			return a[0].(*runtime.Machine).Join(a[1], sep)
		}),
		expr.Function("__op", func(a ...any) (any, error) {
			return a[0].(*runtime.Machine).Binary(a[1].(string), a[2], a[3])
		}),
		expr.Function("__repeat", func(a ...any) (any, error) {
			return core.Repeat(a[0].(*runtime.Machine), a[1], a[2])
		}),
		expr.Function("__total", func(a ...any) (any, error) { return runtime.Totals(a[0]), nil }, new(func(*runtime.Roll) int)),
		expr.Function("__strcheck", func(a ...any) (any, error) {
			m := a[0].(*runtime.Machine)
			s, ok1 := a[2].(string)
			sep, ok2 := a[3].(string)
			if !ok1 || !ok2 {
				return a[2], nil // expr reports the wrong types
			}
			pieces := len(s) + 1
			if sep != "" {
				pieces = strings.Count(s, sep) + 1
			}
			n := pieces
			if a[1].(string) == "replace" {
				with, _ := a[4].(string)
				n = (len(s) + (pieces-1)*max(len(with)-len(sep), 0) + len(with)*boolInt(sep == "")) / 16
			}
			if err := m.Charge(len(s)/16 + 1); err != nil {
				return nil, err
			}
			if err := m.ChargeValue(n, 0); err != nil {
				return nil, err
			}
			return s, nil
		}),
		expr.Function("__keys", func(a ...any) (any, error) { return core.Keys(a[0].(*runtime.Machine), a[1]) }),
		expr.Function("__values", func(a ...any) (any, error) { return core.Values(a[0].(*runtime.Machine), a[1]) }),
		expr.Function("__topairs", func(a ...any) (any, error) { return core.Pairs(a[0].(*runtime.Machine), a[1]) }),
		expr.Function("__string", func(a ...any) (any, error) {
			s := runtime.Str(a[1])
			return s, a[0].(*runtime.Machine).ChargeValue(runtime.Size(s), runtime.Size(s))
		}),
		expr.Function("__tojson", func(a ...any) (any, error) {
			b, err := json.MarshalIndent(runtime.ToJSON(a[1]), "", "  ")
			if err != nil {
				return nil, err
			}
			s := string(b)
			return s, a[0].(*runtime.Machine).ChargeValue(runtime.Size(s), runtime.Size(s))
		}),
	}
}

// budgetPatch rewrites a checked expression so that its work and what it builds are charged:
// collection builtins walk their argument through __each, builtins that build a collection
// or a string give it through __built, and operators whose operand types are not known
// statically go through __op (a roll is its total; + on strings and lists is charged).
// The nodes it adds keep the nature of the node they replace, so the compiled code is the
// same otherwise.
type budgetPatch struct {
	// orig maps each node it adds to the node it stands for, so that the compiler's own
	// reading of the tree (static types, assignment targets) sees the expression as written.
	orig *origins
}

// Visit implements ast.Visitor: it wraps the work of one node in what charges the budget.
func (bp budgetPatch) Visit(node *ast.Node) {
	before := *node
	defer func() {
		if *node != before && bp.orig != nil {
			bp.orig.set(*node, before)
		}
	}()
	rt := func() ast.Node { return &ast.IdentifierNode{Value: "__rt"} }
	wrap := func(fn string, args ...ast.Node) *ast.CallNode {
		return &ast.CallNode{Callee: &ast.IdentifierNode{Value: fn}, Arguments: args}
	}
	switch n := (*node).(type) {
	case *ast.BuiltinNode:
		if n.Name == "repeat" && len(n.Arguments) == 2 {
			c := wrap("__repeat", rt(), n.Arguments[0], n.Arguments[1])
			c.SetNature(*n.Nature())
			c.SetLocation(n.Location())
			*node = c
			return
		}
		if n.Name == "uniq" && len(n.Arguments) == 1 {
			// expr's uniq compares with Go's unbounded comparison, its quadratic work free.
			c := wrap("__uniq", rt(), n.Arguments[0])
			c.SetNature(*n.Nature())
			c.SetLocation(n.Location())
			*node = c
			return
		}
		if (n.Name == "keys" || n.Name == "values" || n.Name == "toPairs") && len(n.Arguments) == 1 {
			// Go's map order is random: these list a map in the order of its keys, and
			// leave out a record's hidden kind.
			c := wrap("__"+strings.ToLower(n.Name), rt(), n.Arguments[0])
			c.SetNature(*n.Nature())
			c.SetLocation(n.Location())
			*node = c
			return
		}
		if (n.Name == "string" || n.Name == "toJSON") && len(n.Arguments) == 1 {
			// What they build is charged to memory_budget.
			c := wrap("__"+strings.ToLower(n.Name), rt(), n.Arguments[0])
			c.SetNature(*n.Nature())
			c.SetLocation(n.Location())
			*node = c
			return
		}
		if (n.Name == "type" || n.Name == "int" || n.Name == "float") && len(n.Arguments) == 1 {
			c := wrap("__"+n.Name, n.Arguments[0])
			c.SetNature(*n.Nature())
			c.SetLocation(n.Location())
			*node = c
			return
		}
		if (n.Name == "replace" && len(n.Arguments) == 3) || ((n.Name == "split" || n.Name == "splitAfter") && len(n.Arguments) == 2) {
			// Sized before they run: replace can multiply a string, split makes a string
			// per piece.
			args := append([]ast.Node{rt(), &ast.StringNode{Value: n.Name}}, n.Arguments...)
			c := wrap("__strcheck", args...)
			c.SetNature(*n.Arguments[0].Nature())
			c.SetLocation(n.Arguments[0].Location())
			n.Arguments[0] = c
		}
		if n.Name == "join" && (len(n.Arguments) == 1 || len(n.Arguments) == 2) {
			// Sized with its separator before anything is built.
			args := append([]ast.Node{rt()}, n.Arguments...)
			c := wrap("__join", args...)
			c.SetNature(*n.Nature())
			c.SetLocation(n.Location())
			*node = c
			return
		}
		if n.Name == "flatten" && len(n.Arguments) > 0 {
			c := wrap("__sized", rt(), n.Arguments[0], &ast.StringNode{Value: n.Name})
			c.SetNature(*n.Arguments[0].Nature())
			c.SetLocation(n.Arguments[0].Location())
			n.Arguments[0] = c
		}
		if iterated(n.Name) && len(n.Arguments) > 0 {
			fn := "__each"
			if numeric(n.Name) {
				fn = "__nums"
			}
			for i, arg := range n.Arguments {
				if i > 0 && !numeric(n.Name) {
					break
				}
				if cl, ok := arg.(*ast.PredicateNode); ok {
					if numeric(n.Name) && !isNumberType(cl.Node.Type()) {
						c := wrap("__num", cl.Node)
						c.SetNature(*cl.Node.Nature())
						cl.Node = c
					}
					continue
				}
				c := wrap(fn, rt(), arg)
				c.SetNature(*arg.Nature())
				c.SetLocation(arg.Location())
				n.Arguments[i] = c
			}
		}
		if (n.Name == "max" || n.Name == "min") && len(n.Arguments) == 1 {
			inner := *n
			c := wrap("__some", &ast.StringNode{Value: n.Name}, &inner)
			c.SetNature(*n.Nature())
			c.SetLocation(n.Location())
			*node = c
			return
		}
		if n.Name == "sum" || n.Name == "mean" || n.Name == "median" {
			inner := *n
			c := wrap("__finite", &ast.StringNode{Value: n.Name}, &inner)
			c.SetNature(*n.Nature())
			c.SetLocation(n.Location())
			*node = c
			return
		}
		if built(n.Name) {
			inner := *n
			c := wrap("__built", rt(), &inner)
			c.SetNature(*n.Nature())
			c.SetLocation(n.Location())
			*node = c
		}
	case *ast.ArrayNode, *ast.MapNode:
		// A list or map written in an expression is new material: a loop that builds one per
		// turn (v = [v], {a: v}) must meet the memory budget, not exhaust the machine.
		inner := *node
		c := wrap("__lit", rt(), inner)
		c.SetNature(*inner.Nature())
		c.SetLocation(inner.Location())
		*node = c
	case *ast.CallNode:
		// Lists joined with + (the operator overload) are charged like any other +.
		if id, ok := n.Callee.(*ast.IdentifierNode); ok && id.Value == "__concat" && len(n.Arguments) == 2 {
			c := wrap("__op", rt(), &ast.StringNode{Value: "+"}, n.Arguments[0], n.Arguments[1])
			c.SetNature(*n.Nature())
			c.SetLocation(n.Location())
			*node = c
		}
	case *ast.BinaryNode:
		switch n.Operator {
		case "+", "-", "*", "/", "%", "<", "<=", ">", ">=":
		case "in":
			// Looking for an element walks the list, charged per element. expr would
			// dereference a pointer needle (a card) and then find no pointer equal to it.
			if k := n.Right.Type().Kind(); k == reflect.Slice || k == reflect.Interface {
				c := wrap("__in", rt(), n.Left, n.Right)
				c.SetNature(*n.Nature())
				c.SetLocation(n.Location())
				*node = c
			}
			return
		case "==", "!=":
			// Lists, maps and records are compared by equal: bounded in depth, charged
			// per element. Numbers, strings and booleans keep expr's own comparison.
			if !collectionType(n.Left.Type()) && !collectionType(n.Right.Type()) {
				return
			}
			c := wrap("__op", rt(), &ast.StringNode{Value: n.Operator}, n.Left, n.Right)
			c.SetNature(*n.Nature())
			c.SetLocation(n.Location())
			*node = c
			return
		case "..":
			// A range is built element by element: its work is charged like a builtin's.
			inner := *n
			c := wrap("__built", rt(), &inner)
			c.SetNature(*n.Nature())
			c.SetLocation(n.Location())
			*node = c
			return
		default:
			return
		}
		l, r := n.Left.Type(), n.Right.Type()
		if isNumberType(l) && isNumberType(r) {
			return
		}
		if n.Operator != "+" && (l.Kind() == reflect.String && r.Kind() == reflect.String) {
			return
		}
		c := wrap("__op", rt(), &ast.StringNode{Value: n.Operator}, n.Left, n.Right)
		c.SetNature(*n.Nature())
		c.SetLocation(n.Location())
		*node = c
	}
}

// collectionType reports whether a value of static type t may be a list, a map or a record
// (or is of a type not known before it runs).
func collectionType(t reflect.Type) bool {
	if t == nil {
		return true
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map, reflect.Interface:
		return true
	}
	return false
}

func isNumberType(t reflect.Type) bool {
	if t == nil {
		return false
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Float64:
		return true
	}
	return false
}

// rollArgsAsTotals wraps the roll arguments of min, max, sum… in __total before the check,
// whose validation of those builtins knows numbers only.
func (pv *patcher) rollArgsAsTotals(n *ast.BuiltinNode) {
	if !numeric(n.Name) {
		return
	}
	for i, arg := range n.Arguments {
		if lit, ok := diceLiteralCall(arg); ok {
			// Only its total is read: rolled without recording (totalOnly).
			rollTotalOnly(lit)
			continue
		}
		roll := false
		switch a := arg.(type) {
		case *ast.CallNode:
			if id, ok := a.Callee.(*ast.IdentifierNode); ok {
				roll = id.Value == "__dice" || id.Value == "__rollf"
			}
		case *ast.IdentifierNode:
			t, ok := pv.sc.Local(a.Value)
			roll = ok && t.Kind == runtime.TRoll
		}
		if roll {
			n.Arguments[i] = &ast.CallNode{Callee: &ast.IdentifierNode{Value: "__total"}, Arguments: []ast.Node{arg}}
		}
	}
}

// globalReads finds, after the check, the globals an expression reads, so that a call frame
// holds only the globals its procedure reads (copied in once per pooled frame), not all of
// them: memory no longer grows as globals × depth, and reads stay plain map reads.
type globalReads struct {
	sc    Scope    // where the expression is compiled: its globals and locals
	orig  *origins // as budgetPatch.orig
	found []string
}

func (g *globalReads) collect(root ast.Node) {
	if g == nil {
		return
	}
	freeNames(root, func(name string) {
		if _, ok := g.sc.Global(name); !ok {
			return
		}
		if _, local := g.sc.Local(name); local {
			return
		}
		g.found = append(g.found, name)
	})
}

// freeNames calls f once with each name a checked tree reads from its environment, in the
// order first read: not the names the expression declares itself (`let x = …; …`), not
// callees, not the internal __ names the rewrites add.
func freeNames(root ast.Node, f func(string)) {
	// One walker, its sets small slices in itself (most expressions declare nothing, call
	// a few procedures and read one or two names): the maps and ast.Find's finders and
	// closures it used to make were a tenth of the allocations of checking a ruleset.
	// The walker itself is reused (freeWalks): a new one for each of a load's expressions
	// was 4% of the bytes checking the largest shipped ruleset allocates.
	w := freeWalks.Get().(*freeNamesWalk)
	w.root = root
	w.callees.list, w.lets.list, w.seen.list = w.calleeBuf[:0], w.letBuf[:0], w.seenBuf[:0]
	w.callees.m, w.lets.m, w.seen.m = nil, nil, nil
	w.ids = w.idBuf[:0]
	// One walk lists the callees, the names declared and the names in the order they are
	// visited; which names are read is told after it (a callee is visited before its call).
	ast.Walk(&w.root, w)
	for _, id := range w.ids {
		if w.callees.has(id) || w.lets.has(id.Value) || w.seen.has(id.Value) || strings.HasPrefix(id.Value, "__") {
			continue
		}
		w.seen.add(id.Value)
		f(id.Value)
	}
	// Nothing of this tree is kept by the spare walker.
	w.root = nil
	clear(w.calleeBuf[:])
	clear(w.letBuf[:])
	clear(w.seenBuf[:])
	clear(w.ids)
	if cap(w.ids) > len(w.idBuf) {
		w.ids = nil
	}
	freeWalks.Put(w)
}

// freeWalks are the walkers of freeNames not in use.
var freeWalks = sync.Pool{New: func() any { return new(freeNamesWalk) }}

// freeNamesWalk is freeNames' walk of a tree: it finds the callees, the names declared
// and the identifiers in the order visited.
type freeNamesWalk struct {
	root    ast.Node
	callees smallSet[ast.Node]
	lets    smallSet[string]
	seen    smallSet[string]
	ids     []*ast.IdentifierNode

	calleeBuf [8]ast.Node
	letBuf    [4]string
	seenBuf   [8]string
	idBuf     [16]*ast.IdentifierNode
}

// Visit implements ast.Visitor.
func (w *freeNamesWalk) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.IdentifierNode:
		w.ids = append(w.ids, n)
	case *ast.VariableDeclaratorNode:
		w.lets.add(n.Name)
	case *ast.CallNode:
		w.callees.add(n.Callee)
	}
}

// smallSet is a set searched in a slice while it is small, in a map past that.
type smallSet[K comparable] struct {
	list []K
	m    map[K]bool
}

func (s *smallSet[K]) add(k K) {
	if s.m != nil {
		s.m[k] = true
		return
	}
	s.list = append(s.list, k)
	if len(s.list) > 16 {
		s.m = make(map[K]bool, 2*len(s.list))
		for _, x := range s.list {
			s.m[x] = true
		}
	}
}

func (s *smallSet[K]) has(k K) bool {
	if s.m != nil {
		return s.m[k]
	}
	return slices.Contains(s.list, k)
}

// Reads lists the names a compiled expression reads from its environment, globals and
// locals (parameters, lets of its procedure, session variables) alike, in the order first
// read, from the compiler's own tree: a word inside a string, a name the expression declares
// itself and what it calls are not among them. It is nil for a literal.
func Reads(x *runtime.Expr) []string {
	switch {
	case x == nil || x.IsLit:
		return nil
	case x.Ident != "":
		return []string{x.Ident}
	}
	c, ok := x.Code.(*code)
	if !ok || c.tree == nil {
		return nil
	}
	var out []string
	freeNames(c.tree.Node, func(name string) { out = append(out, name) })
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
