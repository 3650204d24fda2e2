package exprx

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	exprruntime "github.com/expr-lang/expr/vm/runtime"

	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/cards"
)

// The closure compiler: an expression's checked and patched syntax tree (the one expr's
// compiler turns into bytecode) becomes a tree of Go closures, each node's evaluation a
// direct call of its children's. It follows expr's compiler (compiler/compiler.go) and VM
// (vm/vm.go) node by node: the same helpers of vm/runtime, the same dereferences of
// pointers held in interfaces, the same checks, and a failure reported as the VM reports it,
// with the message and the rune offset of the instruction that failed (the node that emitted
// it). Locals are read from the frame's slots, the other names from its map, and
// procedures, builtins and the language's operators are called directly, their arguments on
// the machine's stack. A node it does not handle leaves the whole expression to the VM.

// fastState is what one running evaluation keeps: its machine and frame, and the memory
// its literals and ranges took (the VM's memory budget, counted per evaluation).
type fastState struct {
	m      *runtime.Machine
	f      *runtime.Frame
	mem    uint
	budget uint
	// items are the elements of the predicates' loops being run (# and #index), the
	// innermost last.
	items []predItem
	// vars are the expression's own variables (let … ; …), by index.
	vars []any
	// scratch holds the elements filters keep, until their lists are made.
	scratch []any
	// sorting holds the elements sortBy sorts with their keys, until their list is made.
	sorting []sortPair
	// params are the registers of the inlined call running (compileInline), if any: its
	// parameters' values, then its lets'. A call inside an inlined body puts its caller's
	// back after it.
	params [maxInlineRegs]any
}

// maxInlineParams is the most parameters of a rule whose body is inlined (compileInline),
// maxInlineRegs the most parameters and lets.
const (
	maxInlineParams = 2
	maxInlineRegs   = 4
)

// sortPair is an element of a list sortBy sorts, with the key it is sorted by.
type sortPair struct{ item, key any }

// predItem is one loop of a predicate builtin: what it walks, the index of the element
// (read only when # is: an element of a map cannot be read), the accumulator.
type predItem struct {
	it    items
	index int
	acc   any
}

// fn evaluates one node.
type fn func(s *fastState) (any, error)

// fastCode is an expression compiled to closures.
type fastCode struct {
	root fn
	vars int // how many variables the expression declares
}

// Eval implements runtime.Fast.
func (c *fastCode) Eval(m *runtime.Machine, x *runtime.Expr, f *runtime.Frame) (any, error) {
	state := f.FastState()
	if state == nil {
		return c.evalAtDepth(m, x, f)
	}
	// A call's frame keeps its own state: no depth is entered. The frame is one machine's
	// (its pool of frames), and the state the frame's: m and f are set once.
	s, _ := (*state).(*fastState)
	if s == nil {
		s = &fastState{m: m, f: f}
		*state = s
	}
	budget := m.MemoryBudget()
	if budget == 0 {
		budget = conf.DefaultMemoryBudget
	}
	s.mem, s.budget = 0, budget
	// The predicates pop what they push (without a defer): only a panic through them could
	// have left something, which is dropped here.
	s.items, s.scratch, s.sorting = s.items[:0], s.scratch[:0], s.sorting[:0]
	var v any
	var err error
	if c.vars == 0 {
		v, err = c.root(s)
	} else {
		if c.vars > len(s.vars) {
			s.vars = make([]any, c.vars)
		}
		v, err = c.root(s)
		clear(s.vars[:c.vars])
	}
	// The predicates' loops popped their items, even on failure.
	if err != nil {
		return nil, m.ExprFailure(x, err)
	}
	// FiniteAt is asked only about a float (the check is out of line).
	if _, ok := v.(float64); ok {
		return runtime.FiniteAt(x, v)
	}
	return v, nil
}

// evalAtDepth is Eval in a frame of no call (FastState), whose evaluations may nest: it
// takes the state of the current nesting depth.
func (c *fastCode) evalAtDepth(m *runtime.Machine, x *runtime.Expr, f *runtime.Frame) (any, error) {
	state, budget, d := m.EnterFast()
	s, _ := (*state).(*fastState)
	if s == nil {
		// A state belongs to one machine (its depth's slot): m is set once.
		s = &fastState{m: m}
		*state = s
	}
	if budget == 0 {
		budget = conf.DefaultMemoryBudget
	}
	s.f, s.mem, s.budget = f, 0, budget
	s.items, s.scratch, s.sorting = s.items[:0], s.scratch[:0], s.sorting[:0]
	// The frame stays in the state until the next evaluation at this depth: frames are the
	// machine's own (pooled), so keeping one alive holds nothing more.
	var v any
	var err error
	if c.vars == 0 {
		v, err = c.root(s)
	} else {
		if c.vars > len(s.vars) {
			s.vars = make([]any, c.vars)
		}
		v, err = c.root(s)
		clear(s.vars[:c.vars])
	}
	m.LeaveFast(d)
	if err != nil {
		return nil, m.ExprFailure(x, err)
	}
	if _, ok := v.(float64); ok {
		return runtime.FiniteAt(x, v)
	}
	return v, nil
}

// vmOnly counts the expressions left to the VM since the process started (the tests
// require none in the shipped rulesets).
var vmOnly atomic.Int64

// fastCompiler compiles one expression.
type fastCompiler struct {
	cfg    *conf.Config
	src    file.Source
	lib    *runtime.Library
	names  map[string]*runtime.NameRef
	chains int // ChainNodes around the node compiled
	// parents are the nodes being compiled, the innermost last (a ChainNode asks for its
	// parent's operator).
	parents []ast.Node
	// scopes are the expression's variables visible here, the innermost last; vars counts
	// them all.
	scopes []fastVar
	vars   int
	// sites are the reads of a field of a frame's name compiled so far (member).
	sites []*runtime.FieldSite
	// inline, when set, says the expression is of a rule's body compiled to run in its
	// callers' evaluations (compileInline). (The closures keep the compiler: what only some
	// compiles need is behind a pointer.)
	inline *inlineScope
	// first, while member compiles sortBy(…)[0], is that sortBy (see firstSort).
	first *firstSort
}

// inlineScope is what an expression of a rule's inlined body is compiled with: the names
// read from registers (fastState.params: the rule's parameters, then its lets), any other
// name being a global, read from the machine (prog's InlineGlobalIndex); nothing is read from
// the frame, which is the caller's.
type inlineScope struct {
	regs []string
	prog *runtime.Program
}

// firstSort is a sortBy indexed by [0], which gives its first element itself (sortFirst):
// the sortBy, the index's location and that of the charge of the list (__built).
type firstSort struct {
	node      *ast.BuiltinNode
	at, built file.Location
}

type fastVar struct {
	name  string
	index int
}

// compileFast compiles a checked tree to closures, its fastCode taken from codes; false when
// some node is not handled.
func compileFast(node ast.Node, cfg *conf.Config, src file.Source, lib *runtime.Library, codes *syntax.Slab[fastCode]) (*fastCode, []*runtime.NameRef, *runtime.FieldRead, []*runtime.FieldSite, bool) {
	c := &fastCompiler{cfg: cfg, src: src, lib: lib, names: map[string]*runtime.NameRef{}}
	root, ok := c.compile(node)
	if !ok {
		vmOnly.Add(1)
		return nil, nil, nil, nil, false
	}
	field := c.fieldRead(node)
	refs := make([]*runtime.NameRef, 0, len(c.names))
	for _, name := range runtime.SortedKeys(c.names) {
		refs = append(refs, c.names[name])
	}
	// The closures keep c for its source (their errors' snippets): what only compiling
	// needed, the expression's expr configuration first, is let go.
	sites := c.sites
	c.cfg, c.lib, c.names, c.parents, c.scopes, c.sites = nil, nil, nil, nil, nil, nil
	fc := codes.New()
	fc.root, fc.vars = root, c.vars
	return fc, refs, field, sites, true
}

// inlineBody is a rule's body compiled to run in its callers' evaluations (Proc.Inline):
// its lets, each bound to the register after the last, then the return's value (root).
type inlineBody struct {
	lets   []inlineLet
	root   fn
	ret    *runtime.ReturnStmt
	result resultCheck
}

// inlineLet is one let statement of an inlined body: its value, compiled, and its register.
type inlineLet struct {
	value fn
	st    *runtime.LetStmt
	reg   int
}

// run runs the body, its first statement's step counted (EnterInlined): each let's step,
// value and binding as the let statement makes them (InlineLet), then the return's step and
// value.
func (b *inlineBody) run(s *fastState) (any, error) {
	m := s.m
	for i := range b.lets {
		l := &b.lets[i]
		if i > 0 {
			if err := m.InlineStep(l.st.At); err != nil {
				return nil, err
			}
		}
		v, err := l.value(s)
		if v, err = m.InlineLet(l.st, v, err); err != nil {
			return nil, err
		}
		s.params[l.reg] = v
	}
	if err := m.InlineStep(b.ret.At); err != nil {
		return nil, err
	}
	return b.root(s)
}

// resultCheck is the check of an inlined body's result: its kind, when the result is of a
// type a value is checked against by its Go type alone (a list, an int, a string, a bool, any
// type, or no result), else resultSlow.
type resultCheck runtime.TypeKind

const resultSlow = resultCheck(255)

// resultOf is the check of a result of type t (nil: none).
func resultOf(t *runtime.Type) resultCheck {
	if t == nil {
		return resultCheck(runtime.TAny)
	}
	switch t.Kind {
	case runtime.TAny, runtime.TList, runtime.TInt, runtime.TString, runtime.TBool:
		return resultCheck(t.Kind)
	}
	return resultSlow
}

// holds says whether v needs nothing more to be the result: of the result's type and no
// float (LeaveInline refuses an infinite one, and conforms the others).
func (r resultCheck) holds(v any) bool {
	switch runtime.TypeKind(r) {
	case runtime.TAny:
		_, isFloat := v.(float64)
		return !isFloat
	case runtime.TList:
		_, ok := v.([]any)
		return ok || v == nil
	case runtime.TInt:
		_, ok := v.(int)
		return ok || v == nil
	case runtime.TString:
		_, ok := v.(string)
		return ok || v == nil
	case runtime.TBool:
		_, ok := v.(bool)
		return ok || v == nil
	}
	return false
}

// compileInline compiles the checked tree of one expression of a rule's body to run inside
// the evaluation of each call's caller (see runtime/inline.go), the names of regs read from
// the registers of their index (the parameters, then the lets bound before); false when
// some node is not handled, or the expression declares variables of its own (they would
// take the caller's).
func compileInline(x *runtime.Expr, prog *runtime.Program, regs []string) (fn, bool) {
	switch {
	case x.IsLit:
		return constFn(x.Lit), true
	case x.Ident != "":
		// A local's name alone (the machine reads its slot): a parameter or a let.
		if i := slices.Index(regs, x.Ident); i >= 0 {
			return func(s *fastState) (any, error) { return s.params[i], nil }, true
		}
		return nil, false
	}
	cd, ok := x.Code.(*code)
	if !ok || cd.tree == nil || x.Fast == nil {
		return nil, false
	}
	c := &fastCompiler{cfg: cd.cfg, src: cd.tree.Source, lib: prog.Library, names: map[string]*runtime.NameRef{},
		inline: &inlineScope{regs: regs, prog: prog}}
	root, ok := c.compile(cd.tree.Node)
	if !ok || c.vars > 0 {
		return nil, false
	}
	c.cfg, c.lib, c.names, c.parents, c.scopes, c.sites, c.inline = nil, nil, nil, nil, nil, nil, nil
	return root, true
}

// fieldRead is n as a read of a field of a name the frame holds (f.arme, compiled by member
// to a read of the name's slot and of the record's entry), or nil for any other node.
func (c *fastCompiler) fieldRead(n ast.Node) *runtime.FieldRead {
	mn, ok := n.(*ast.MemberNode)
	if !ok || mn.Optional {
		return nil
	}
	name, ok := mn.Property.(*ast.StringNode)
	if !ok {
		return nil
	}
	if ok, _, _ := checker.MethodIndex(&c.cfg.NtCache, c.cfg.Env, mn); ok {
		return nil
	}
	if ok, _, _ := checker.FieldIndex(&c.cfg.NtCache, c.cfg.Env, mn); ok {
		return nil
	}
	if ref := c.bareName(mn.Node); ref != nil {
		return &runtime.FieldRead{Obj: ref, Field: name.Value}
	}
	return nil
}

// fail is the error the VM gives when an instruction at loc panics with r.
func (c *fastCompiler) fail(loc file.Location, r any) error {
	fe := &file.Error{Location: loc, Message: fmt.Sprintf("%v", r)}
	if err, ok := r.(error); ok {
		fe.Wrap(err)
	}
	return exprError(fe.Bind(c.src))
}

// exprError puts a VM error in the language's words, at its offset.
func exprError(fe *file.Error) error {
	// A function's error is fe.Prev, its text fe.Message: the language's own errors keep
	// theirs, expr's and Go's are put in the language's words.
	msg := runtime.ForeignWords(fe.Message)
	if fe.Prev != nil {
		msg = runtime.MessageOf(fe.Prev)
	}
	return &runtime.ExprError{At: fe.From, Msg: msg, OutOfMemory: msg == "memory budget exceeded", Err: fe}
}

// guard runs f, a step that may panic as the VM's instruction at loc would, and turns the
// panic into the VM's error.
func (c *fastCompiler) guard(loc file.Location, f func() any) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, c.fail(loc, r)
		}
	}()
	return f(), nil
}

// grow charges n to the evaluation's memory, as the VM's memGrow.
func (c *fastCompiler) grow(s *fastState, loc file.Location, n uint) error {
	s.mem += n
	if s.mem >= s.budget {
		return c.fail(loc, "memory budget exceeded")
	}
	return nil
}

// needsDeref is the compiler's derefInNeeded: a value of a pointer or interface type is
// dereferenced before an operator reads it.
func needsDeref(n ast.Node) bool {
	if n.Nature().Nil {
		return false
	}
	t := n.Type()
	if t == nil {
		return true // an unknown type is an interface
	}
	switch t.Kind() {
	case reflect.Ptr, reflect.Interface:
		return true
	}
	return false
}

// deref is expr's deref.Interface: pointers are followed to their values.
func deref(v any) any {
	switch v.(type) {
	case nil, int, float64, string, bool, map[string]any, []any, []int, []string:
		return v
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Ptr || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return nil
		}
		rv = rv.Elem()
	}
	return rv.Interface()
}

// compileDeref compiles n, dereferenced when the compiler would (derefInNeeded).
func (c *fastCompiler) compileDeref(n ast.Node) (fn, bool) {
	f, ok := c.compile(n)
	if !ok || !needsDeref(n) {
		return f, ok
	}
	return derefFn(f), true
}

// derefFn is f with its value dereferenced, as the VM's OpDeref does.
func derefFn(f fn) fn {
	return func(s *fastState) (any, error) {
		v, err := f(s)
		if err != nil {
			return nil, err
		}
		return deref(v), nil
	}
}

func (c *fastCompiler) compile(node ast.Node) (fn, bool) {
	c.parents = append(c.parents, node)
	defer func() { c.parents = c.parents[:len(c.parents)-1] }()
	switch n := node.(type) {
	case *ast.NilNode:
		return func(*fastState) (any, error) { return nil, nil }, true
	case *ast.IntegerNode:
		var v any
		switch n.Type().Kind() {
		case reflect.Int:
			v = n.Value
		case reflect.Float64:
			v = float64(n.Value)
		case reflect.Interface:
			v = n.Value
		default:
			return nil, false
		}
		return constFn(v), true
	case *ast.FloatNode:
		if t := n.Type(); t != nil && t.Kind() == reflect.Float32 {
			return nil, false
		}
		return constFn(n.Value), true
	case *ast.BoolNode:
		return constFn(n.Value), true
	case *ast.StringNode:
		return constFn(n.Value), true
	case *ast.ConstantNode:
		return constFn(n.Value), true
	case *ast.IdentifierNode:
		return c.identifier(n)
	case *ast.UnaryNode:
		return c.unary(n)
	case *ast.BinaryNode:
		return c.binary(n)
	case *ast.ChainNode:
		return c.chain(n)
	case *ast.MemberNode:
		return c.member(n)
	case *ast.CallNode:
		return c.call(n)
	case *ast.BuiltinNode:
		return c.builtin(n)
	case *ast.ConditionalNode:
		return c.conditional(n)
	case *ast.ArrayNode:
		return c.array(n)
	case *ast.MapNode:
		return c.mapNode(n)
	case *ast.PredicateNode:
		return c.compile(n.Node)
	case *ast.PointerNode:
		return c.pointer(n)
	case *ast.SliceNode:
		return c.slice(n)
	case *ast.VariableDeclaratorNode:
		return c.declare(n)
	case *ast.SequenceNode:
		return c.sequence(n)
	}
	return nil, false
}

func constFn(v any) fn {
	return func(*fastState) (any, error) { return v, nil }
}

// declare is `let name = value; expr`.
func (c *fastCompiler) declare(n *ast.VariableDeclaratorNode) (fn, bool) {
	val, ok := c.compile(n.Value)
	if !ok {
		return nil, false
	}
	index := c.vars
	c.vars++
	c.scopes = append(c.scopes, fastVar{n.Name, index})
	body, ok := c.compile(n.Expr)
	c.scopes = c.scopes[:len(c.scopes)-1]
	if !ok {
		return nil, false
	}
	return func(s *fastState) (any, error) {
		v, err := val(s)
		if err != nil {
			return nil, err
		}
		s.vars[index] = v
		return body(s)
	}, true
}

// sequence is a; b: the last value.
func (c *fastCompiler) sequence(n *ast.SequenceNode) (fn, bool) {
	parts, ok := c.compileAll(n.Nodes)
	if !ok || len(parts) == 0 {
		return nil, false
	}
	return func(s *fastState) (v any, err error) {
		for _, p := range parts {
			if v, err = p(s); err != nil {
				return nil, err
			}
		}
		return v, nil
	}, true
}

func (c *fastCompiler) identifier(n *ast.IdentifierNode) (fn, bool) {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if v := c.scopes[i]; v.name == n.Value {
			return func(s *fastState) (any, error) { return s.vars[v.index], nil }, true
		}
	}
	switch {
	case n.Value == "__rt":
		return func(s *fastState) (any, error) { return s.m, nil }, true
	case strings.HasPrefix(n.Value, "$"):
		return nil, false // $env, or a name the VM scopes
	case c.inline != nil:
		if i := slices.Index(c.inline.regs, n.Value); i >= 0 {
			return func(s *fastState) (any, error) { return s.params[i], nil }, true
		}
		i := c.inline.prog.InlineGlobalIndex(n.Value)
		return func(s *fastState) (any, error) { return s.m.InlineGlobal(i), nil }, true
	}
	ref := c.nameRef(n.Value)
	return func(s *fastState) (any, error) { return s.f.Read(ref), nil }, true
}

// nameRef is the reference of a name the frame holds, one per name of the expression.
func (c *fastCompiler) nameRef(name string) *runtime.NameRef {
	ref := c.names[name]
	if ref == nil {
		ref = &runtime.NameRef{Name: name}
		c.names[name] = ref
	}
	return ref
}

// frameIdent is the name n reads from the frame (a local or a global: what identifier
// compiles to a frame read), or false when n is no such name (the machine, a variable of
// the expression, not a name).
func (c *fastCompiler) frameIdent(n ast.Node) (string, bool) {
	id, ok := n.(*ast.IdentifierNode)
	if !ok || c.inline != nil || id.Value == "__rt" || strings.HasPrefix(id.Value, "$") {
		return "", false
	}
	for _, v := range c.scopes {
		if v.name == id.Value {
			return "", false
		}
	}
	return id.Value, true
}

// frameName returns the reference of n when n is a name the frame holds, or nil.
func (c *fastCompiler) frameName(n ast.Node) *runtime.NameRef {
	if name, ok := c.frameIdent(n); ok {
		return c.nameRef(name)
	}
	return nil
}

func (c *fastCompiler) unary(n *ast.UnaryNode) (fn, bool) {
	x, ok := c.compileDeref(n.Node)
	if !ok {
		return nil, false
	}
	loc := n.Location()
	switch n.Operator {
	case "!", "not":
		return func(s *fastState) (any, error) {
			v, err := x(s)
			if err != nil {
				return nil, err
			}
			if b, ok := v.(bool); ok {
				return !b, nil
			}
			return c.guard(loc, func() any { return !v.(bool) })
		}, true
	case "+":
		return x, true
	case "-":
		return func(s *fastState) (any, error) {
			v, err := x(s)
			if err != nil {
				return nil, err
			}
			switch v := v.(type) {
			case int:
				return runtime.Int(-v), nil
			case float64:
				return -v, nil
			}
			return c.guard(loc, func() any { return exprruntime.Negate(v) })
		}, true
	}
	return nil, false
}

// binaryOps returns, for the operators whose two operands are both evaluated and
// dereferenced, the one of the VM's helpers it is given to, or nil. (A switch: a map of them
// was built at every start of the program.)
func binaryOps(op string) func(a, b any) any {
	switch op {
	case "<":
		return func(a, b any) any { return exprruntime.Less(a, b) }
	case ">":
		return func(a, b any) any { return exprruntime.More(a, b) }
	case "<=":
		return func(a, b any) any { return exprruntime.LessOrEqual(a, b) }
	case ">=":
		return func(a, b any) any { return exprruntime.MoreOrEqual(a, b) }
	case "+":
		return exprruntime.Add
	case "-":
		return exprruntime.Subtract
	case "*":
		return exprruntime.Multiply
	case "/":
		return func(a, b any) any { return exprruntime.Divide(a, b) }
	case "%":
		return func(a, b any) any { return exprruntime.Modulo(a, b) }
	case "**":
		return func(a, b any) any { return exprruntime.Exponent(a, b) }
	case "^":
		return func(a, b any) any { return exprruntime.Exponent(a, b) }
	case "in":
		return func(a, b any) any { return exprruntime.In(a, b) }
	case "contains":
		return func(a, b any) any {
			if exprruntime.IsNil(a) || exprruntime.IsNil(b) {
				return false
			}
			return strings.Contains(a.(string), b.(string))
		}
	case "startsWith":
		return func(a, b any) any {
			if exprruntime.IsNil(a) || exprruntime.IsNil(b) {
				return false
			}
			return strings.HasPrefix(a.(string), b.(string))
		}
	case "endsWith":
		return func(a, b any) any {
			if exprruntime.IsNil(a) || exprruntime.IsNil(b) {
				return false
			}
			return strings.HasSuffix(a.(string), b.(string))
		}
	case "matches":
		return func(a, b any) any {
			if exprruntime.IsNil(a) || exprruntime.IsNil(b) {
				return false
			}
			var match bool
			var err error
			if s, ok := a.(string); ok {
				match, err = regexp.MatchString(b.(string), s)
			} else {
				match, err = regexp.Match(b.(string), a.([]byte))
			}
			if err != nil {
				panic(err)
			}
			return match
		}
	}
	return nil
}

// intOp is an operator on two ints the VM's helpers compute as Go does (wrapping).
func intOp(op string) func(a, b int) any {
	switch op {
	case "<":
		return func(a, b int) any { return a < b }
	case ">":
		return func(a, b int) any { return a > b }
	case "<=":
		return func(a, b int) any { return a <= b }
	case ">=":
		return func(a, b int) any { return a >= b }
	case "+":
		return func(a, b int) any { return runtime.Int(a + b) }
	case "-":
		return func(a, b int) any { return runtime.Int(a - b) }
	case "*":
		return func(a, b int) any { return runtime.Int(a * b) }
	}
	return nil
}

func (c *fastCompiler) binary(n *ast.BinaryNode) (fn, bool) {
	loc := n.Location()
	switch n.Operator {
	case "==", "!=":
		return c.equal(n)
	case "and", "&&", "or", "||":
		if !c.cfg.ShortCircuit {
			return nil, false
		}
		l, ok1 := c.compileDeref(n.Left)
		r, ok2 := c.compileDeref(n.Right)
		if !ok1 || !ok2 {
			return nil, false
		}
		// The VM jumps on the left operand (which must be a bool) and leaves the right one
		// as the result, whatever it is.
		stop := n.Operator == "or" || n.Operator == "||"
		return func(s *fastState) (any, error) {
			v, err := l(s)
			if err != nil {
				return nil, err
			}
			b, ok := v.(bool)
			if !ok {
				return c.guard(loc, func() any { return v.(bool) })
			}
			if b == stop {
				return b, nil
			}
			return r(s)
		}, true
	case "??":
		l, ok1 := c.compileDeref(n.Left)
		r, ok2 := c.compileDeref(n.Right)
		if !ok1 || !ok2 {
			return nil, false
		}
		return func(s *fastState) (any, error) {
			v, err := l(s)
			if err != nil || !exprruntime.IsNil(v) {
				return v, err
			}
			return r(s)
		}, true
	case "..":
		l, ok1 := c.compileDeref(n.Left)
		r, ok2 := c.compileDeref(n.Right)
		if !ok1 || !ok2 {
			return nil, false
		}
		return func(s *fastState) (any, error) {
			a, err := l(s)
			if err != nil {
				return nil, err
			}
			b, err := r(s)
			if err != nil {
				return nil, err
			}
			lo, ok1 := a.(int)
			hi, ok2 := b.(int)
			if !ok1 || !ok2 {
				v, err := c.guard(loc, func() any { return [2]int{exprruntime.ToInt(a), exprruntime.ToInt(b)} })
				if err != nil {
					return nil, err
				}
				lo, hi = v.([2]int)[0], v.([2]int)[1]
			}
			if size := hi - lo + 1; size > 0 {
				if err := c.grow(s, loc, uint(size)); err != nil {
					return nil, err
				}
			}
			return exprruntime.MakeRange(lo, hi), nil
		}, true
	case "matches":
		if str, ok := n.Right.(*ast.StringNode); ok {
			re, err := regexp.Compile(str.Value)
			if err != nil {
				return nil, false
			}
			l, ok := c.compileDeref(n.Left)
			if !ok {
				return nil, false
			}
			return func(s *fastState) (any, error) {
				a, err := l(s)
				if err != nil {
					return nil, err
				}
				return c.guard(loc, func() any {
					if exprruntime.IsNil(a) {
						return false
					}
					if s, ok := a.(string); ok {
						return re.MatchString(s)
					}
					return re.Match(a.([]byte))
				})
			}, true
		}
	}
	op := binaryOps(n.Operator)
	if op == nil {
		return nil, false
	}
	l, ok1 := c.compileDeref(n.Left)
	r, ok2 := c.compileDeref(n.Right)
	if !ok1 || !ok2 {
		return nil, false
	}
	if iop := intOp(n.Operator); iop != nil {
		return func(s *fastState) (any, error) {
			a, err := l(s)
			if err != nil {
				return nil, err
			}
			b, err := r(s)
			if err != nil {
				return nil, err
			}
			if x, ok := a.(int); ok {
				if y, ok := b.(int); ok {
					return iop(x, y), nil
				}
			}
			return c.guard2(loc, op, a, b)
		}, true
	}
	return func(s *fastState) (any, error) {
		a, err := l(s)
		if err != nil {
			return nil, err
		}
		b, err := r(s)
		if err != nil {
			return nil, err
		}
		return c.guard2(loc, op, a, b)
	}, true
}

// equal is the compiler's equalBinaryNode: ints or strings of simple types compared as
// such (a value of another type there fails as the VM's assertion does), anything else by
// Equal; != negates.
func (c *fastCompiler) equal(n *ast.BinaryNode) (fn, bool) {
	l, ok1 := c.compile(n.Left)
	r, ok2 := c.compile(n.Right)
	if !ok1 || !ok2 {
		return nil, false
	}
	dl, dr := needsDeref(n.Left), needsDeref(n.Right)
	loc := n.Location()
	neg := n.Operator == "!="
	lk, rk := kindOf(n.Left.Type()), kindOf(n.Right.Type())
	simple := simpleType(n.Left) && simpleType(n.Right)
	var eq func(a, b any) any
	switch {
	case lk == rk && lk == reflect.Int && simple:
		eq = func(a, b any) any { return a.(int) == b.(int) }
	case lk == rk && lk == reflect.String && simple:
		eq = func(a, b any) any { return a.(string) == b.(string) }
	default:
		eq = func(a, b any) any { return exprruntime.Equal(a, b) }
	}
	return func(s *fastState) (any, error) {
		a, err := l(s)
		if err != nil {
			return nil, err
		}
		b, err := r(s)
		if err != nil {
			return nil, err
		}
		if dl && dr {
			// Two cards: the VM compares the dereferenced structs (DeepEqual), which
			// differ when a field they show differs and match when every field does.
			if x, ok := a.(*cards.Card); ok && x != nil {
				if y, ok := b.(*cards.Card); ok && y != nil {
					if eq, sure := sameCard(x, y); sure {
						return eq != neg, nil
					}
				}
			}
		}
		if dl {
			a = deref(a)
		}
		if dr {
			b = deref(b)
		}
		var v bool
		switch x := a.(type) {
		case int:
			if y, ok := b.(int); ok {
				v = x == y
				return v != neg, nil
			}
		case string:
			if y, ok := b.(string); ok {
				v = x == y
				return v != neg, nil
			}
		}
		res, err := c.guard2(loc, eq, a, b)
		if err != nil {
			return nil, err
		}
		return res.(bool) != neg, nil
	}, true
}

// sameCard is DeepEqual of two cards when it can tell without copying them: the same
// fields (the deck's pointer too), or an exported field that differs; sure is false when only
// the decks may differ, deeply compared.
func sameCard(x, y *cards.Card) (eq, sure bool) {
	if x == y {
		return true, true
	}
	// Two cards of one deck differ in value or suit most often: told before every field
	// is compared (any(hand, # == c) compares c with each card of the hand).
	if x.Value != y.Value || x.Symbol != y.Symbol {
		return false, true
	}
	if *x == *y {
		return true, true
	}
	if x.RankName != y.RankName || x.Value != y.Value || x.Symbol != y.Symbol || x.SuitName != y.SuitName ||
		x.Colour != y.Colour || x.Meaning != y.Meaning || x.Black != y.Black || x.Red != y.Red ||
		x.Figure != y.Figure || x.Joker != y.Joker {
		return false, true
	}
	return false, false
}

// kindOf is the compiler's kind: Invalid for no type.
func kindOf(t reflect.Type) reflect.Kind {
	if t == nil {
		return reflect.Invalid
	}
	return t.Kind()
}

// simpleType is the compiler's isSimpleType: a type of no package.
func simpleType(n ast.Node) bool {
	t := n.Type()
	return t != nil && t.PkgPath() == ""
}

// errShort is returned by an optional member whose object is nil inside a chain: the chain
// gives nil.
var errShort = errors.New("short")

func (c *fastCompiler) chain(n *ast.ChainNode) (fn, bool) {
	c.chains++
	x, ok := c.compile(n.Node)
	c.chains--
	if !ok {
		return nil, false
	}
	// Under ?? the value is left as it is (?? tests it for nil), elsewhere a nil of any
	// type becomes nil.
	coalesce := false
	if len(c.parents) > 1 {
		if b, ok := c.parents[len(c.parents)-2].(*ast.BinaryNode); ok && b.Operator == "??" {
			coalesce = true
		}
	}
	return func(s *fastState) (any, error) {
		v, err := x(s)
		if err == errShort {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if !coalesce && exprruntime.IsNil(v) {
			return nil, nil
		}
		return v, nil
	}, true
}

func (c *fastCompiler) member(n *ast.MemberNode) (fn, bool) {
	env := c.cfg.Env
	cache := &c.cfg.NtCache
	if ok, _, _ := checker.MethodIndex(cache, env, n); ok {
		return nil, false
	}
	if ok, index, name := checker.FieldIndex(cache, env, n); ok {
		return c.structField(n, index, name)
	}
	if b, built := sortByFirst(n); b != nil {
		// sortBy(…)[0]: the first element, without the list (sortFirst).
		// Another sortBy(…)[0] may be inside (its list, its key), and this one's mark stays
		// set for the sortBy itself after it.
		outer := c.first
		c.first = &firstSort{node: b, at: n.Location(), built: built.Location()}
		f, ok := c.compile(b)
		c.first = outer
		return f, ok
	}
	obj, ok := c.compile(n.Node)
	if !ok {
		return nil, false
	}
	optional := n.Optional && c.chains > 0
	loc := n.Location()
	// The property is dereferenced unless it is a key of the map's own key type.
	derefProp := true
	if t := n.Node.Type(); t != nil && t.Kind() == reflect.Map {
		if pt := n.Property.Type(); pt != nil && pt.AssignableTo(t.Key()) {
			derefProp = false
		}
	}
	if name, ok := n.Property.(*ast.StringNode); ok {
		// A record's field by its name, the commonest read of all (attaquant.nom): the map
		// is read here, other values by byName; a field of a name the frame holds is read
		// from the frame here too.
		key := runtime.FieldKey(name.Value)
		read := c.byName(loc, key)
		if ptr, ok := n.Node.(*ast.PointerNode); ok && ptr.Name == "" && !n.Optional {
			return c.elementKey(ptr.Location(), key, read), true
		}
		if ref := c.frameName(n.Node); ref != nil && !optional {
			// A rule's call may keep what its first read of the field gave (FieldSite.Keep,
			// set at load): that read is out of line (keptField), so that the others, most
			// of them, cost what they did. The closure holds the site, the site the name.
			// A record's field is read through the machine's table of the fields read
			// lately (Machine.FieldKept), its hash taken here.
			site := &runtime.FieldSite{Obj: ref, Field: key}
			c.sites = append(c.sites, site)
			kh := runtime.FieldHash(key)
			return func(s *fastState) (any, error) {
				if site.Keep != 0 {
					return keptField(s.f, site, read)
				}
				o := s.f.Read(site.Obj)
				if mp, ok := o.(map[string]any); ok {
					if v, ok := s.m.FieldKept(mp, site.Field, kh); ok {
						return v, nil
					}
					return s.m.ReadField(mp, site.Field, kh), nil
				}
				return read(o)
			}, true
		}
		kh := runtime.FieldHash(key)
		return func(s *fastState) (any, error) {
			o, err := obj(s)
			if err != nil {
				return nil, err
			}
			if optional && exprruntime.IsNil(o) {
				return nil, errShort
			}
			if mp, ok := o.(map[string]any); ok {
				if v, ok := s.m.FieldKept(mp, key, kh); ok {
					return v, nil
				}
				return s.m.ReadField(mp, key, kh), nil
			}
			return read(o)
		}, true
	}
	var prop fn
	if derefProp {
		prop, ok = c.compileDeref(n.Property)
	} else {
		prop, ok = c.compile(n.Property)
	}
	if !ok {
		return nil, false
	}
	return func(s *fastState) (any, error) {
		o, err := obj(s)
		if err != nil {
			return nil, err
		}
		if optional && exprruntime.IsNil(o) {
			return nil, errShort
		}
		k, err := prop(s)
		if err != nil {
			return nil, err
		}
		switch o := o.(type) {
		case map[string]any:
			if key, ok := k.(string); ok {
				if v, ok := s.m.EntryKept(o, key); ok {
					return v, nil
				}
				return s.m.ReadField(o, key, runtime.FieldHash(key)), nil
			}
		case []any:
			if i, ok := k.(int); ok {
				if i < 0 {
					i += len(o)
				}
				if i >= 0 && i < len(o) {
					return o[i], nil
				}
			}
		}
		return c.guard2(loc, exprruntime.Fetch, o, k)
	}, true
}

// sortByFirst returns the sortBy of n when n is sortBy(…)[0], as the budget's patch leaves
// it: __built(__rt, sortBy(…))[0], with that __built; nil for any other node.
func sortByFirst(n *ast.MemberNode) (*ast.BuiltinNode, *ast.CallNode) {
	if n.Optional {
		return nil, nil
	}
	if i, ok := n.Property.(*ast.IntegerNode); !ok || i.Value != 0 {
		return nil, nil
	}
	built, ok := n.Node.(*ast.CallNode)
	if !ok || len(built.Arguments) != 2 || !isMachine(built.Arguments[0]) {
		return nil, nil
	}
	if id, ok := built.Callee.(*ast.IdentifierNode); !ok || id.Value != "__built" {
		return nil, nil
	}
	if b, ok := built.Arguments[1].(*ast.BuiltinNode); ok && b.Name == "sortBy" {
		return b, built
	}
	return nil, nil
}

// keptField reads the field of a name the frame holds that its call keeps once read
// (runtime.FieldSite.Keep): what the call kept, or the record's entry, kept for the next
// reads. A value that is not a record is read by read, and not kept.
//
//go:noinline
func keptField(f *runtime.Frame, site *runtime.FieldSite, read func(o any) (any, error)) (any, error) {
	if v, ok := f.Kept(site.Keep); ok {
		return v, nil
	}
	o := f.Read(site.Obj)
	if mp, ok := o.(map[string]any); ok {
		v := mp[site.Field]
		f.Keep(site.Keep, v)
		return v, nil
	}
	return read(o)
}

// byName reads the property key of an object as Fetch does, a record's, a card's and a
// pile's fields without reflect.
func (c *fastCompiler) byName(loc file.Location, key string) func(o any) (any, error) {
	card, pile := cardField(key), pileField(key)
	return func(o any) (any, error) {
		switch o := o.(type) {
		case map[string]any:
			return o[key], nil
		case *cards.Card:
			if o != nil && card != nil {
				return card(o), nil
			}
		case *cards.Pile:
			if o != nil && pile != nil {
				return pile(o), nil
			}
		}
		return c.guard2(loc, exprruntime.Fetch, o, key)
	}
}

// cardsFn reads a pile's cards (p.cards) without putting the slice in an interface, which
// is an allocation each time: ok is true with the cards when the object is a pile, else the
// member's value is v, read as member reads it.
type cardsFn func(s *fastState) (cs []*cards.Card, ok bool, v any, err error)

// pileCards compiles n when it is a member named "cards" of an object whose type the
// checker does not know (a record's field holding a pile), or returns nil: predicates walk
// and len counts these slices in every hand the rules look at.
func (c *fastCompiler) pileCards(n ast.Node) cardsFn {
	m, ok := n.(*ast.MemberNode)
	if !ok || m.Optional {
		return nil
	}
	name, ok := m.Property.(*ast.StringNode)
	if !ok || tagged[cards.Pile](name.Value) != "Cards" {
		return nil
	}
	if ok, _, _ := checker.MethodIndex(&c.cfg.NtCache, c.cfg.Env, m); ok {
		return nil
	}
	loc := m.Location()
	read := c.byName(loc, name.Value)
	if ok, index, fname := checker.FieldIndex(&c.cfg.NtCache, c.cfg.Env, m); ok {
		// A pile the checker knows (a kind's field, a declared pile): the field by its
		// index, as structField reads it, unless it is part of a longer chain of fields.
		if len(index) != 1 || index[0] != pileCardsIndex() {
			return nil
		}
		if ok, _, _ := checker.FieldIndex(&c.cfg.NtCache, c.cfg.Env, m.Node); ok {
			return nil
		}
		field := &exprruntime.Field{Index: index, Path: []string{fname}}
		read = func(o any) (any, error) { return c.fetchField(loc, o, field) }
	}
	c.parents = append(c.parents, n)
	obj, ok := c.compile(m.Node)
	c.parents = c.parents[:len(c.parents)-1]
	if !ok {
		return nil
	}
	return func(s *fastState) ([]*cards.Card, bool, any, error) {
		o, err := obj(s)
		if err != nil {
			return nil, false, nil, err
		}
		if p, ok := o.(*cards.Pile); ok && p != nil {
			return p.Cards, true, nil, nil
		}
		v, err := read(o)
		return nil, false, v, err
	}
}

// structField reads a struct's field by its index, as the compiler's OpFetchField: a chain
// of such fields (h.a.b) is one read, placed at its innermost member.
func (c *fastCompiler) structField(n *ast.MemberNode, index []int, name string) (fn, bool) {
	env := c.cfg.Env
	cache := &c.cfg.NtCache
	path := []string{name}
	base := n.Node
	for !n.Optional {
		if _, isIdent := base.(*ast.IdentifierNode); isIdent {
			if ok, _, _ := checker.FieldIndex(cache, env, base); ok {
				return nil, false // a field of the environment: not ours (a map)
			}
		}
		member, isMember := base.(*ast.MemberNode)
		if !isMember {
			break
		}
		ok, memberIndex, name := checker.FieldIndex(cache, env, member)
		if !ok {
			break
		}
		index = append(memberIndex, index...)
		path = append([]string{name}, path...)
		n = member
		base = member.Node
	}
	obj, ok := c.compile(base)
	if !ok {
		return nil, false
	}
	optional := n.Optional && c.chains > 0
	loc := n.Location()
	field := &exprruntime.Field{Index: index, Path: path}
	get := structGetter(index)
	if ptr, ok := base.(*ast.PointerNode); ok && ptr.Name == "" && !n.Optional && get != nil {
		if card := cardFields()[index[0]]; card != nil {
			return c.elementCardField(ptr.Location(), loc, card, get, field), true
		}
	}
	return func(s *fastState) (any, error) {
		o, err := obj(s)
		if err != nil {
			return nil, err
		}
		if optional && exprruntime.IsNil(o) {
			return nil, errShort
		}
		if get != nil {
			if v, ok := get(o); ok {
				return v, nil
			}
		}
		return c.fetchField(loc, o, field)
	}, true
}

// cardFields and pileFields read a card's and a pile's fields by their index in the struct,
// what FetchField reads through reflect: the fields of the cards a hand is walked for.
// rollFields read a roll's fields the same way: r.total, r.highest and r.faces, read by rules
// after each roll. (Reflect's Interface allocates even for the small ints Go boxes for free.)
// pileCardsIndex is the index of a pile's cards in its struct. All are built on first use,
// by the first member compiled: reflecting at package init cost every command.
func cardFields() map[int]func(*cards.Card) any   { return structFields().card }
func pileFields() map[int]func(*cards.Pile) any   { return structFields().pile }
func rollFields() map[int]func(*runtime.Roll) any { return structFields().roll }
func pileCardsIndex() int                         { return structFields().pileCards }

type fieldGetters struct {
	card      map[int]func(*cards.Card) any
	pile      map[int]func(*cards.Pile) any
	roll      map[int]func(*runtime.Roll) any
	pileCards int
}

var (
	fieldsOnce sync.Once
	fields     fieldGetters
)

func structFields() *fieldGetters {
	fieldsOnce.Do(func() { fields = buildFieldGetters() })
	return &fields
}

func buildFieldGetters() fieldGetters {
	ct, pt, rt := reflect.TypeFor[cards.Card](), reflect.TypeFor[cards.Pile](), reflect.TypeFor[runtime.Roll]()
	at := func(t reflect.Type, name string) int {
		f, _ := t.FieldByName(name)
		return f.Index[0]
	}
	return fieldGetters{
		card: map[int]func(*cards.Card) any{
			at(ct, "RankName"): func(c *cards.Card) any { return c.RankName },
			at(ct, "Value"):    func(c *cards.Card) any { return c.Value },
			at(ct, "Symbol"):   func(c *cards.Card) any { return c.Symbol },
			at(ct, "SuitName"): func(c *cards.Card) any { return c.SuitName },
			at(ct, "Colour"):   func(c *cards.Card) any { return c.Colour },
			at(ct, "Meaning"):  func(c *cards.Card) any { return c.Meaning },
			at(ct, "Black"):    func(c *cards.Card) any { return c.Black },
			at(ct, "Red"):      func(c *cards.Card) any { return c.Red },
			at(ct, "Figure"):   func(c *cards.Card) any { return c.Figure },
			at(ct, "Joker"):    func(c *cards.Card) any { return c.Joker },
		},
		pile: map[int]func(*cards.Pile) any{
			at(pt, "Name"):  func(p *cards.Pile) any { return p.Name },
			at(pt, "Cards"): func(p *cards.Pile) any { return p.Cards },
		},
		roll: map[int]func(*runtime.Roll) any{
			at(rt, "Total"):   func(r *runtime.Roll) any { return r.Total },
			at(rt, "Faces"):   func(r *runtime.Roll) any { return r.Faces },
			at(rt, "All"):     func(r *runtime.Roll) any { return r.All },
			at(rt, "Dropped"): func(r *runtime.Roll) any { return r.Dropped },
			at(rt, "Symbols"): func(r *runtime.Roll) any { return r.Symbols },
			at(rt, "Highest"): func(r *runtime.Roll) any { return r.Highest },
			at(rt, "Lowest"):  func(r *runtime.Roll) any { return r.Lowest },
			at(rt, "Bool"):    func(r *runtime.Roll) any { return r.Bool },
		},
		pileCards: at(pt, "Cards"),
	}
}

// cardField and pileField return the getter of the field Fetch finds by that name (its expr
// tag) in a card or a pile, or nil (a method, another name: Fetch's).
func cardField(name string) func(*cards.Card) any {
	f, ok := reflect.TypeFor[cards.Card]().FieldByName(tagged[cards.Card](name))
	if !ok {
		return nil
	}
	return cardFields()[f.Index[0]]
}

func pileField(name string) func(*cards.Pile) any {
	f, ok := reflect.TypeFor[cards.Pile]().FieldByName(tagged[cards.Pile](name))
	if !ok {
		return nil
	}
	return pileFields()[f.Index[0]]
}

// tagged is the Go name of T's field whose expr tag is name, or "" (a card's or a pile's:
// the fields are read once, not at every member compiled).
func tagged[T cards.Card | cards.Pile](name string) string {
	var zero T
	if _, card := any(zero).(cards.Card); card {
		return cardTags.Get()[name]
	}
	return pileTags.Get()[name]
}

// cardTags and pileTags map the expr tags of a card's and a pile's fields to the fields'
// Go names.
var (
	cardTags = &runtime.Lazy[map[string]string]{Build: fieldTags[cards.Card]}
	pileTags = &runtime.Lazy[map[string]string]{Build: fieldTags[cards.Pile]}
)

// fieldTags maps the expr tags of T's fields to their Go names, the first field of a tag
// kept ("-" and untagged fields left out).
func fieldTags[T any]() map[string]string {
	t := reflect.TypeFor[T]()
	tags := map[string]string{}
	for i := range t.NumField() {
		f := t.Field(i)
		if tag := f.Tag.Get("expr"); tag != "-" && tag != "" {
			if _, dup := tags[tag]; !dup {
				tags[tag] = f.Name
			}
		}
	}
	return tags
}

// structGetter returns, for a field at one index, what reads it without reflect from a
// card, a pile or a roll (false for any other value, left to FetchField), or nil.
func structGetter(index []int) func(any) (any, bool) {
	if len(index) != 1 {
		return nil
	}
	card, pile, roll := cardFields()[index[0]], pileFields()[index[0]], rollFields()[index[0]]
	return func(o any) (any, bool) {
		switch o := o.(type) {
		case *runtime.Roll:
			if o != nil && roll != nil {
				return roll(o), true
			}
		case *cards.Card:
			if o != nil && card != nil {
				return card(o), true
			}
		case *cards.Pile:
			if o != nil && pile != nil {
				return pile(o), true
			}
		}
		return nil, false
	}
}

// fetchField is FetchField, its panic the VM's error.
func (c *fastCompiler) fetchField(loc file.Location, o any, field *exprruntime.Field) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, c.fail(loc, r)
		}
	}()
	return exprruntime.FetchField(o, field), nil
}

// guard2 is guard for a helper of two operands (no closure to build on each call).
func (c *fastCompiler) guard2(loc file.Location, op func(a, b any) any, a, b any) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, c.fail(loc, r)
		}
	}()
	return op(a, b), nil
}

func (c *fastCompiler) slice(n *ast.SliceNode) (fn, bool) {
	arr, ok := c.compile(n.Node)
	if !ok {
		return nil, false
	}
	var to, from fn
	if n.To != nil {
		if to, ok = c.compileDeref(n.To); !ok {
			return nil, false
		}
	}
	if n.From != nil {
		if from, ok = c.compileDeref(n.From); !ok {
			return nil, false
		}
	}
	loc := n.Location()
	return func(s *fastState) (any, error) {
		a, err := arr(s)
		if err != nil {
			return nil, err
		}
		var hi, lo any = nil, 0
		if to != nil {
			if hi, err = to(s); err != nil {
				return nil, err
			}
		} else {
			v, err := c.guard(loc, func() any { return exprruntime.Len(a) })
			if err != nil {
				return nil, err
			}
			hi = v
		}
		if from != nil {
			if lo, err = from(s); err != nil {
				return nil, err
			}
		}
		if v, ok := sliceList(a, lo, hi); ok {
			return v, nil
		}
		return c.guard(loc, func() any { return exprruntime.Slice(a, lo, hi) })
	}, true
}

func (c *fastCompiler) conditional(n *ast.ConditionalNode) (fn, bool) {
	cond, ok1 := c.compileDeref(n.Cond)
	a, ok2 := c.compile(n.Exp1)
	b, ok3 := c.compile(n.Exp2)
	if !ok1 || !ok2 || !ok3 {
		return nil, false
	}
	loc := n.Location()
	return func(s *fastState) (any, error) {
		v, err := cond(s)
		if err != nil {
			return nil, err
		}
		t, ok := v.(bool)
		if !ok {
			return c.guard(loc, func() any { return v.(bool) })
		}
		if t {
			return a(s)
		}
		return b(s)
	}, true
}

func (c *fastCompiler) array(n *ast.ArrayNode) (fn, bool) {
	elems, ok := c.compileAll(n.Nodes)
	if !ok {
		return nil, false
	}
	loc := n.Location()
	if len(elems) == 0 {
		// [] (p.joué = [] at each Ronde) is the one boxed empty list a filter gives: nothing
		// can be written into it in place, and an empty list is never told by its memory.
		return func(s *fastState) (any, error) {
			if err := c.grow(s, loc, 0); err != nil {
				return nil, err
			}
			return emptyList, nil
		}, true
	}
	site := runtime.NewListSite()
	return func(s *fastState) (any, error) {
		// The VM evaluates the elements before it charges them. They wait on the scratch
		// stack (a filter inside one takes its own stretch above them).
		base := len(s.scratch)
		for _, e := range elems {
			v, err := e(s)
			if err != nil {
				dropScratch(s, base)
				return nil, err
			}
			s.scratch = append(s.scratch, v)
		}
		if err := c.grow(s, loc, uint(len(elems))); err != nil {
			dropScratch(s, base)
			return nil, err
		}
		list := s.m.ListOf(site, s.scratch[base:])
		dropScratch(s, base)
		return list, nil
	}, true
}

// literalList reads n as a list written in the expression, __lit(__rt, [e1, e2, …]) (the
// budget's patch charges it), or gives nil.
func literalList(n ast.Node) (*ast.CallNode, *ast.ArrayNode) {
	call, ok := n.(*ast.CallNode)
	if !ok || len(call.Arguments) != 2 || !isMachine(call.Arguments[0]) {
		return nil, nil
	}
	if id, ok := call.Callee.(*ast.IdentifierNode); !ok || id.Value != "__lit" {
		return nil, nil
	}
	arr, _ := call.Arguments[1].(*ast.ArrayNode)
	return call, arr
}

// joinLiteral is `l + [e1, e2, …]` (a rule's p.joué = p.joué + [c]): when l is a list, the
// result is made at once from l and the elements, without the literal's own list (two
// allocations: its elements and its box). The elements are evaluated, then the literal
// charged (the closures' growth, then __lit's), then the join, as the literal and __op do;
// an l of another type gets the literal and __op's answer.
func (c *fastCompiler) joinLiteral(loc file.Location, l fn, lit *ast.CallNode, arr *ast.ArrayNode) fn {
	elems, ok := c.compileAll(arr.Nodes)
	if !ok {
		return nil
	}
	arrLoc, litLoc := arr.Location(), lit.Location()
	return func(s *fastState) (any, error) {
		a, err := l(s)
		if err != nil {
			return nil, err
		}
		// The elements wait on the scratch stack (a filter inside one takes its own
		// stretch above them).
		base := len(s.scratch)
		for _, e := range elems {
			v, err := e(s)
			if err != nil {
				dropScratch(s, base)
				return nil, err
			}
			s.scratch = append(s.scratch, v)
		}
		if err := c.grow(s, arrLoc, uint(len(elems))); err != nil {
			dropScratch(s, base)
			return nil, err
		}
		// chargeLit's charge: the size of a list of len(elems) elements.
		if err := s.m.ChargeMem(len(elems) + 1); err != nil {
			dropScratch(s, base)
			return nil, c.fail(litLoc, err)
		}
		var v any
		if x, ok := a.([]any); ok {
			// JoinLists' charge, then its list, made here in one allocation.
			if err = s.m.ChargeJoin(len(x), len(elems)); err == nil {
				var out []any
				out, v = runtime.MakeList(len(x) + len(elems))
				copy(out[copy(out, x):], s.scratch[base:])
			}
		} else {
			v, err = s.m.Binary("+", a, append(make([]any, 0, len(elems)), s.scratch[base:]...))
		}
		dropScratch(s, base)
		if err != nil {
			return nil, c.fail(loc, err)
		}
		return v, nil
	}
}

func (c *fastCompiler) mapNode(n *ast.MapNode) (fn, bool) {
	keys := make([]fn, len(n.Pairs))
	vals := make([]fn, len(n.Pairs))
	for i, p := range n.Pairs {
		pair, ok := p.(*ast.PairNode)
		if !ok {
			return nil, false
		}
		var ok1, ok2 bool
		if str, isStr := pair.Key.(*ast.StringNode); isStr {
			// A written key is the field's own copy of its name (FieldKey): records built
			// from {…} and the reads of their fields then compare pointers.
			keys[i], ok1 = constFn(runtime.FieldKey(str.Value)), true
		} else {
			keys[i], ok1 = c.compile(pair.Key)
		}
		vals[i], ok2 = c.compile(pair.Value)
		if !ok1 || !ok2 {
			return nil, false
		}
	}
	loc := n.Location()
	return func(s *fastState) (any, error) {
		// The VM evaluates every pair, then charges them, then builds the map from the last
		// pair to the first (so the first of two equal keys wins), a key that is no string
		// failing there: the map is built as the pairs come, a key kept when already set.
		out := make(map[string]any, len(keys))
		var bad any
		badKey := false
		for i := range keys {
			k, err := keys[i](s)
			if err != nil {
				return nil, err
			}
			v, err := vals[i](s)
			if err != nil {
				return nil, err
			}
			ks, ok := k.(string)
			if !ok {
				// The VM fails at the last such key (it builds from the end).
				bad, badKey = k, true
				continue
			}
			if _, seen := out[ks]; !seen {
				out[ks] = v
			}
		}
		if err := c.grow(s, loc, uint(len(keys))); err != nil {
			return nil, err
		}
		if badKey {
			return c.guard(loc, func() any { return bad.(string) })
		}
		return out, nil
	}, true
}

func (c *fastCompiler) compileAll(nodes []ast.Node) ([]fn, bool) {
	out := make([]fn, len(nodes))
	for i, n := range nodes {
		f, ok := c.compile(n)
		if !ok {
			return nil, false
		}
		out[i] = f
	}
	return out, true
}

// call compiles a call of a function of the configuration: a procedure (__call), a
// builtin of the library, an operator of the language (__op), or any other function.
//
// It is never inlined: a build with a profile would inline it into compile, whose size
// then denies the closures made here the inlining of the small functions they call
// (Callee's frame, SetArg, ArgsFrom), which a call of a rule pays on every run.
//
//go:noinline
func (c *fastCompiler) call(n *ast.CallNode) (fn, bool) {
	id, ok := n.Callee.(*ast.IdentifierNode)
	if !ok {
		return nil, false
	}
	f := c.cfg.Functions[id.Value]
	if f == nil || f.Func == nil {
		return nil, false
	}
	args, derefed, ok := c.callArgs(n)
	if !ok {
		return nil, false
	}
	loc := n.Location()
	switch {
	case id.Value == "__in" && len(args) == 3 && isMachine(n.Arguments[0]):
		if in := c.inKeys(n, args); in != nil {
			return in, true
		}
	case id.Value == "__call" && len(args) >= 3 && isMachine(n.Arguments[0]):
		p, ok1 := constant[*runtime.Proc](n.Arguments[1])
		site, ok2 := constant[*syntax.Pos](n.Arguments[2])
		if !ok1 || !ok2 {
			break
		}
		rest := args[3:]
		// The arguments that are a bare name (a parameter of the caller, passed on) may need
		// no check of their type: ConformedArgs tells when the call runs.
		// So may those that read a field of a name (f.arme).
		var names []*runtime.NameRef
		var fields []*runtime.FieldRead
		for i, arg := range n.Arguments[3:] {
			if i >= 64 || derefed[3+i] {
				continue
			}
			if ref := c.bareName(arg); ref != nil {
				if names == nil {
					names = make([]*runtime.NameRef, len(rest))
				}
				names[i] = ref
			} else if fr := c.fieldRead(arg); fr != nil {
				if fields == nil {
					fields = make([]*runtime.FieldRead, len(rest))
				}
				fields[i] = fr
			}
		}
		// The closure holds one pointer: it loads what it needs from it, not every captured
		// value at its start.
		cs := &procCall{c: c, p: p, site: site, rest: rest, loc: loc}
		if names != nil || fields != nil {
			cs.names = runtime.NewArgNames(names, fields)
		}
		if len(rest) == len(p.Params) && len(rest) <= maxInlineParams && !skips(n.Arguments[3:]) {
			cs.checks, cs.nested = argChecks(p), c.inline != nil
		}
		return func(s *fastState) (any, error) {
			if body, ok := cs.p.Inline.(*inlineBody); ok && cs.checks != nil {
				return cs.inline(s, body)
			}
			m := s.m
			if f := m.Callee(cs.p, len(cs.rest)); f != nil {
				// The arguments go straight into the callee's slots.
				for i, a := range cs.rest {
					v, err := a(s)
					if err != nil {
						m.DropCallee(cs.p, f)
						return nil, err
					}
					f.SetArg(i, v)
				}
				var known uint64
				if cs.names != nil {
					known = s.f.ConformedArgs(cs.names, cs.p, f)
				}
				v, err := m.CallIn(cs.p, f, len(cs.rest), known, cs.site)
				if err != nil {
					return nil, cs.c.fail(cs.loc, err)
				}
				return v, nil
			}
			return cs.listed(s)
		}, true
	case id.Value == "__op" && len(args) == 4 && isMachine(n.Arguments[0]):
		op, ok := n.Arguments[1].(*ast.StringNode)
		if !ok {
			break
		}
		l, r := args[2], args[3]
		if lit, arr := literalList(n.Arguments[3]); arr != nil && op.Value == "+" && !derefed[3] {
			if join := c.joinLiteral(loc, l, lit, arr); join != nil {
				return join, true
			}
		}
		equality := op.Value == "==" || op.Value == "!="
		return func(s *fastState) (any, error) {
			a, err := l(s)
			if err != nil {
				return nil, err
			}
			b, err := r(s)
			if err != nil {
				return nil, err
			}
			if equality {
				if eq, ok := equalNil(a, b); ok {
					return eq == (op.Value == "=="), nil
				}
			}
			v, err := s.m.Binary(op.Value, a, b)
			if err != nil {
				return nil, c.fail(loc, err)
			}
			return v, nil
		}, true
	case id.Value == "__nums" && len(args) == 2 && isMachine(n.Arguments[0]):
		// __nums charges a step per element and reads the totals of rolls: called as the
		// configuration's function is, without its recover, but for a nil roll, whose
		// total the function panics reading: that one goes to the guarded call.
		arg, call := args[1], f.Func
		return func(s *fastState) (any, error) {
			v, err := arg(s)
			if err != nil {
				return nil, err
			}
			m := s.m
			// The totals first (they change nothing the rules see), then the charge.
			if t, ok := runtime.TotalsOf(v); ok {
				if err := m.Charge(runtime.Size(v)); err != nil {
					return nil, c.fail(loc, err)
				}
				return t, nil
			}
			return c.callGuarded2(m, loc, call, m, v)
		}, true
	case id.Value == "str" && len(args) == 1:
		// str(c) of a card (a key of combat.réserve_par[str(c)]): its text, boxed once
		// when its deck was built (Card.Text); str of a string is the string itself. Any other value goes to
		// the function, as every call of it did.
		arg, call := args[0], f.Func
		return func(s *fastState) (any, error) {
			v, err := arg(s)
			if err != nil {
				return nil, err
			}
			switch x := v.(type) {
			case string:
				return v, nil
			case *cards.Card:
				if x != nil {
					return x.Text(), nil
				}
			}
			m := s.m
			base := m.ArgBase()
			m.PushArg(v)
			v, err = c.callGuarded(loc, call, m.ArgsFrom(base))
			m.PopArgs(base)
			return v, err
		}, true
	case len(args) == 2 && isMachine(n.Arguments[0]) && chargeOf(id.Value) != nil:
		// A charge of the budget (__each, __nums, __lit, __built): called as the configuration's
		// function is, but with no recover, since it cannot panic.
		charge, arg := chargeOf(id.Value), args[1]
		return func(s *fastState) (any, error) {
			v, err := arg(s)
			if err != nil {
				return nil, err
			}
			if v, err = charge(s.m, v); err != nil {
				return nil, c.fail(loc, err)
			}
			return v, nil
		}, true
	case len(args) >= 1 && isMachine(n.Arguments[0]) && c.lib != nil:
		name, ok := strings.CutPrefix(id.Value, "__")
		b, known := c.lib.Builtins[name]
		if !ok || !known || runtime.InternalName(name) != id.Value {
			break
		}
		rest := args[1:]
		return func(s *fastState) (any, error) {
			m := s.m
			base, err := pushArgs(s, rest)
			if err != nil {
				return nil, err
			}
			v, err := runtime.RunBuiltin(&b, m, m.ArgsFrom(base))
			m.PopArgs(base)
			if err != nil {
				return nil, c.fail(loc, err)
			}
			return v, nil
		}, true
	}
	call := f.Func
	if quick := c.quickCall(n, id.Value, args, call, loc); quick != nil {
		return quick, true
	}
	return func(s *fastState) (any, error) {
		m := s.m
		base, err := pushArgs(s, args)
		if err != nil {
			return nil, err
		}
		v, err := c.callGuarded(loc, call, m.ArgsFrom(base))
		m.PopArgs(base)
		return v, err
	}, true
}

// callArgs compiles the arguments of the call n. A callee typed as a function has its
// parameters' types: a pointer given for a value is dereferenced, and derefed says which
// were. (The calls added after the check have no type.)
func (c *fastCompiler) callArgs(n *ast.CallNode) (args []fn, derefed []bool, ok bool) {
	ft := n.Callee.Type()
	typed := ft.Kind() == reflect.Func
	args = make([]fn, len(n.Arguments))
	derefed = make([]bool, len(n.Arguments))
	for i, arg := range n.Arguments {
		a, ok := c.compile(arg)
		if !ok {
			return nil, nil, false
		}
		var in reflect.Type
		switch {
		case !typed:
		case ft.IsVariadic() && i >= ft.NumIn()-1:
			in = ft.In(ft.NumIn() - 1).Elem()
		case i < ft.NumIn():
			in = ft.In(i)
		default:
			return nil, nil, false
		}
		if in != nil && derefParam(in, arg) {
			a, derefed[i] = derefFn(a), true
		}
		args[i] = a
	}
	return args, derefed, true
}

// callGuarded calls a function of the configuration as the VM does: its error, or a panic
// inside it, is the call's failure.
func (c *fastCompiler) callGuarded(loc file.Location, f func(...any) (any, error), args []any) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, c.fail(loc, r)
		}
	}()
	v, err = f(args...)
	if err != nil {
		return nil, c.fail(loc, err)
	}
	return v, nil
}

// callGuarded2 is callGuarded of two values, passed on the machine's argument stack.
func (c *fastCompiler) callGuarded2(m *runtime.Machine, loc file.Location, call func(...any) (any, error), a, b any) (any, error) {
	base := m.ArgBase()
	m.PushArg(a)
	m.PushArg(b)
	v, err := c.callGuarded(loc, call, m.ArgsFrom(base))
	m.PopArgs(base)
	return v, err
}

// derefParam is the compiler's derefParam: a pointer given where the function takes a value.
func derefParam(in reflect.Type, param ast.Node) bool {
	if param.Nature().Nil {
		return false
	}
	t := param.Type()
	if t == nil || in == nil || t.AssignableTo(in) {
		return false
	}
	return in.Kind() != reflect.Ptr && t.Kind() == reflect.Ptr
}

// builtin compiles a call of one of expr's builtins that takes no predicate.
func (c *fastCompiler) builtin(n *ast.BuiltinNode) (fn, bool) {
	if pred := c.predicate(n); pred != nil {
		return pred, true
	}
	id, ok := builtin.Index[n.Name]
	if !ok {
		return nil, false
	}
	f := builtin.Builtins[id]
	if f.Predicate {
		return nil, false
	}
	args := make([]fn, len(n.Arguments))
	derefFirst := false
	for i, arg := range n.Arguments {
		a, ok := c.compile(arg)
		if !ok {
			return nil, false
		}
		t := arg.Type()
		if (t.Kind() == reflect.Ptr || arg.Nature().IsUnknown(&c.cfg.NtCache)) && (f.Deref == nil || f.Deref(i, t)) {
			derefFirst = derefFirst || i == 0
			a = derefFn(a)
		}
		args[i] = a
	}
	loc := n.Location()
	switch {
	case f.Fast != nil:
		if len(args) != 1 {
			return nil, false
		}
		fast, arg := f.Fast, args[0]
		if pc := c.pileCards(n.Arguments[0]); pc != nil && n.Name == "len" {
			// len(p.cards), the size of a hand, without boxing the slice.
			needs := derefFirst
			return func(s *fastState) (any, error) {
				cs, ok, v, err := pc(s)
				if err != nil {
					return nil, err
				}
				if ok {
					return len(cs), nil
				}
				if needs {
					v = deref(v)
				}
				return c.guard(loc, func() any { return fast(v) })
			}, true
		}
		if n.Name == "len" {
			return func(s *fastState) (any, error) {
				v, err := arg(s)
				if err != nil {
					return nil, err
				}
				if l, ok := length(v); ok {
					return l, nil
				}
				return c.guard(loc, func() any { return fast(v) })
			}, true
		}
		return func(s *fastState) (any, error) {
			v, err := arg(s)
			if err != nil {
				return nil, err
			}
			return c.guard(loc, func() any { return fast(v) })
		}, true
	case f.Safe != nil:
		safe := f.Safe
		if n.Name == "concat" {
			return c.concat(loc, safe, args), true
		}
		return func(s *fastState) (any, error) {
			base, err := pushArgs(s, args)
			if err != nil {
				return nil, err
			}
			defer s.m.PopArgs(base)
			return c.runSafe(s, loc, safe, s.m.ArgsFrom(base))
		}, true
	case f.Func != nil:
		call := f.Func
		if n.Name == "max" || n.Name == "min" {
			return c.minMax(loc, n.Name == "max", call, args), true
		}
		return func(s *fastState) (any, error) {
			base, err := pushArgs(s, args)
			if err != nil {
				return nil, err
			}
			v, err := c.callGuarded(loc, call, s.m.ArgsFrom(base))
			s.m.PopArgs(base)
			return v, err
		}, true
	}
	return nil, false
}

// pushArgs evaluates arguments onto the machine's argument stack, from the base it
// returns (none is left there on failure). expr's builtins, like the VM's (whose arguments
// are a stretch of one buffer), read their arguments and keep none of them as a slice.
func pushArgs(s *fastState, args []fn) (int, error) {
	m := s.m
	base := m.ArgBase()
	for _, a := range args {
		v, err := a(s)
		if err != nil {
			m.PopArgs(base)
			return base, err
		}
		m.PushArg(v)
	}
	return base, nil
}

// bareName returns the reference of an argument that is a name read from the frame, as
// compiling the argument made it, or nil.
func (c *fastCompiler) bareName(n ast.Node) *runtime.NameRef {
	if name, ok := c.frameIdent(n); ok {
		return c.names[name]
	}
	return nil
}

// procCall is a call of a procedure compiled to a closure (fastCompiler.call): what the
// closure reads.
type procCall struct {
	c     *fastCompiler
	p     *runtime.Proc
	site  *syntax.Pos
	rest  []fn              // the arguments
	names *runtime.ArgNames // the arguments that are a bare name, or nil
	loc   file.Location
	// checks are how the call, inlined, checks each argument against its parameter's
	// type (argChecks); nil: the call is never inlined.
	checks []argCheck
	// nested says the call is in an inlined body, which reads its own parameters after
	// the call: the call puts them back. (Any other code reads no parameters.)
	nested bool
}

// listed makes the call with its arguments as a list (CallAt), when the machine cannot take
// them in the callee's slots (Callee).
func (cs *procCall) listed(s *fastState) (any, error) {
	m := s.m
	base, err := pushArgs(s, cs.rest)
	if err != nil {
		return nil, err
	}
	v, err := m.CallAt(cs.p, m.ArgsFrom(base), *cs.site)
	m.PopArgs(base)
	if err != nil {
		return nil, cs.c.fail(cs.loc, err)
	}
	return v, nil
}

// inline makes the call of a rule whose body is compiled to run here (Proc.Inline): the
// arguments evaluated are the body's parameters (fastState.params), the body runs in this
// evaluation's state with a memory budget of its own, as its own evaluation would have it.
// When the machine says the call must be made (InlineOK), or an argument is not of its
// parameter's type, it is made (CallAt), with the arguments evaluated. (At most two
// parameters, each its own variable: a loop and an array cost more than the rest.)
func (cs *procCall) inline(s *fastState, body *inlineBody) (any, error) {
	var a0, a1 any
	var err error
	n := len(cs.rest)
	if n > 0 {
		if a0, err = cs.rest[0](s); err != nil {
			return nil, err
		}
		if n > 1 {
			if a1, err = cs.rest[1](s); err != nil {
				return nil, err
			}
		}
	}
	m := s.m
	if !m.InlineOK() {
		return cs.made(s, a0, a1)
	}
	if n > 0 {
		var ok bool
		if a0, ok = cs.checks[0].hold(m, a0); !ok {
			return cs.made(s, a0, a1)
		}
		if n > 1 {
			if a1, ok = cs.checks[1].hold(m, a1); !ok {
				return cs.made(s, a0, a1)
			}
		}
	}
	var regs [maxInlineRegs]any
	if cs.nested {
		regs = s.params
	}
	mem := s.mem
	s.params[0], s.params[1], s.mem = a0, a1, 0
	m.EnterInlined()
	var v any
	if body.lets == nil {
		v, err = body.root(s)
	} else {
		v, err = body.run(s)
	}
	s.mem = mem
	if cs.nested {
		s.params = regs
	}
	if err == nil && body.result.holds(v) {
		m.LeftInlined()
		return v, nil
	}
	args := [maxInlineParams]any{a0, a1}
	if v, err = m.LeaveInline(cs.p, body.ret, args[:n], v, err, cs.site); err != nil {
		return nil, cs.c.fail(cs.loc, err)
	}
	return v, nil
}

// made makes the call that inline does not run, with its arguments evaluated.
func (cs *procCall) made(s *fastState, a0, a1 any) (any, error) {
	m := s.m
	base := m.ArgBase()
	if n := len(cs.rest); n > 0 {
		m.PushArg(a0)
		if n > 1 {
			m.PushArg(a1)
		}
	}
	v, err := m.CallAt(cs.p, m.ArgsFrom(base), *cs.site)
	m.PopArgs(base)
	if err != nil {
		return nil, cs.c.fail(cs.loc, err)
	}
	return v, nil
}

// argCheck is how an inlined call checks one argument against its parameter's type.
type argCheck struct {
	kind runtime.TypeKind
	par  *runtime.Param
}

// argChecks are the checks of the arguments of a call of p, all given.
func argChecks(p *runtime.Proc) []argCheck {
	checks := make([]argCheck, len(p.Params))
	for i, par := range p.Params {
		checks[i] = argCheck{kind: par.Type.Kind, par: par}
	}
	return checks
}

// skips says whether some argument is left out before one given by name.
func skips(args []ast.Node) bool {
	for _, a := range args {
		if _, ok := constant[runtime.Skipped](a); ok {
			return true
		}
	}
	return false
}

// hold says whether v is of the parameter's type, as the call's checks say, converting it
// as the call converts it; false when the call must refuse it (the call then does).
func (ch *argCheck) hold(m *runtime.Machine, v any) (any, bool) {
	var ok bool
	switch ch.kind {
	case runtime.TAny:
		ok = true
	case runtime.TRecord:
		ok = m.IsRecordOf(v, ch.par.Type.Record)
	case runtime.TInt:
		_, ok = v.(int)
	case runtime.TString:
		_, ok = v.(string)
	case runtime.TList:
		_, ok = v.([]any)
	case runtime.TCard:
		_, ok = v.(*cards.Card)
	}
	if ok {
		return v, true
	}
	return m.ConformArg(v, ch.par)
}

// isMachine reports whether n is the machine argument the patches put first.
func isMachine(n ast.Node) bool {
	id, ok := n.(*ast.IdentifierNode)
	return ok && id.Value == "__rt"
}

// constant reads a constant the patches put in the tree (a procedure, a call site).
func constant[T any](n ast.Node) (T, bool) {
	var zero T
	c, ok := n.(*ast.ConstantNode)
	if !ok {
		return zero, false
	}
	v, ok := c.Value.(T)
	return v, ok
}

// equalNil is == of a record or map and nil (f.arme != nil), as Machine.Equal answers it
// without its walk: a map that is not nil is not nil. ok is false for any other pair.
func equalNil(a, b any) (eq, ok bool) {
	if b == nil {
		a, b = b, a
	}
	if a != nil {
		return false, false
	}
	if mp, isMap := b.(map[string]any); isMap && mp != nil {
		return false, true
	}
	return false, false
}

// InlineRules compiles, for each rule of the program whose body is lets and a return
// statement (Proc.InlineShape), with at most maxInlineParams parameters and maxInlineRegs
// parameters and lets, those expressions again to run inside its callers' evaluations
// (Proc.Inline, see runtime/inline.go), when their closures can. Only rules: they cannot change the state, so
// nothing of a call but its frame is left out. Called once the program is checked and its
// slots resolved.
func (c *Compiler) InlineRules() {
	if noFast || c.NoClosures {
		return
	}
	for _, p := range c.prog.Procs {
		if p.Verb != "rule" || p.Table != nil || len(p.Params) > maxInlineParams {
			continue
		}
		lets, ret := p.InlineShape()
		if ret == nil || len(p.Params)+len(lets) > maxInlineRegs {
			continue
		}
		regs := make([]string, len(p.Params), len(p.Params)+len(lets))
		for i, par := range p.Params {
			regs[i] = par.Name
		}
		body := &inlineBody{ret: ret, result: resultOf(p.Result)}
		ok := true
		for _, st := range lets {
			var l inlineLet
			if l.value, ok = compileInline(st.Value, c.prog, regs); !ok {
				break
			}
			l.st, l.reg = st, len(regs)
			body.lets = append(body.lets, l)
			regs = append(regs, st.Name)
		}
		if ok {
			body.root, ok = compileInline(ret.Value, c.prog, regs)
		}
		if ok {
			p.Inline = body
		}
	}
}
