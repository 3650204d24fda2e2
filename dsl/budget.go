package dsl

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	exprruntime "github.com/expr-lang/expr/vm/runtime"
)

// The run-time budget, and the rewrites of checked expressions that make expr-lang's work
// charge it. Every statement costs a step (Machine.step); so does every unit of work done
// inside one expression: a die rolled, a table row looked at, a hex produced, a card moved,
// an element walked by a collection builtin (map, filter, sum, in…) or put in a range. The
// memory budget counts, per top-level call, what values add (list elements and map entries
// one unit each, strings one unit per 16 bytes) and caps the size of any one value. Steps are
// checked in one place (charge), which also answers an interruption (Ctrl-C); memory in
// another (chargeValue, chargeMem). Messages leaving expr-lang are put in the language's
// words here too (goTypeWords).

// limitError is a limit reached inside an expression: placed at the expression by wrapError.
type limitError struct{ msg string }

// Error implements error.
func (e *limitError) Error() string { return e.msg }

func (m *Machine) stepLimitError() error {
	return &limitError{fmt.Sprintf("step limit reached (max_steps = %d): is there an endless loop?", m.Limits.MaxSteps)}
}

// charge spends n steps of the budget; it fails when the budget is spent or the run was
// interrupted.
func (m *Machine) Charge(n int) error {
	m.Steps += n
	if m.Interrupt != nil && m.Interrupt.Load() {
		m.Interrupt.Store(false)
		return &limitError{"interrupted"}
	}
	if m.Steps > m.Limits.MaxSteps || m.Steps < 0 {
		return m.stepLimitError()
	}
	// What was added to memory without a check of its own (cards moved) is checked here.
	if m.Mem > int(m.Limits.MemoryBudget) {
		return m.MemLimitError()
	}
	return nil
}

// chargeAt is charge for work done by a statement rather than inside an expression.
func (m *Machine) chargeAt(at Pos, n int) error {
	if err := m.Charge(n); err != nil {
		return &RuntimeError{Pos: at, Msg: err.Error()}
	}
	return nil
}

// chargeValue checks a value about to be built, of size units, and charges what it adds:
// no single value may exceed the budget, and what a call adds is counted across the call.
// Joining a long value to a short one adds the short one (s = s + "x" in a loop is linear),
// joining two long ones doubles (s = s + s fails at once).
func (m *Machine) ChargeValue(size, added int) error {
	if size > int(m.Limits.MemoryBudget) || size < 0 {
		return m.MemLimitError()
	}
	return m.ChargeMem(added)
}

// copyUnit is how many units of memory a step of work copies: joining two strings or two
// lists copies both, so appending to a long value in a loop is quadratic work that the step
// budget must see (a statement's step costs about as much as copying 16 list elements,
// allocation and collection included).
const copyUnit = 16

// chargeJoin charges joining values of sizes a and b (strings or lists): the copy costs
// steps, the result must fit the budget, and it adds the shorter side.
func (m *Machine) chargeJoin(a, b int) error {
	if err := m.Charge((a + b) / copyUnit); err != nil {
		return err
	}
	return m.ChargeValue(a+b, min(a, b))
}

// chargeAppend charges `cur op= v` when it joins a string or a list; a number built by +=
// adds nothing to memory.
func (m *Machine) chargeAppend(op string, cur, v any) error {
	if op != "+=" {
		return nil
	}
	switch cur.(type) {
	case string, []any:
		return m.chargeJoin(Size(cur), Size(v))
	}
	return nil
}

// expandedSize is the size of what flatten or join will build from v, computed before
// building it; each element looked at costs a step.
func (m *Machine) ExpandedSize(fn string, v any) (int, error) {
	list, ok := v.([]any)
	if !ok {
		return Size(v), nil
	}
	if err := m.Charge(len(list)); err != nil {
		return 0, err
	}
	n := 0
	for _, e := range list {
		switch x := e.(type) {
		case string:
			n += Size(x)
		case []any:
			if fn == "flatten" {
				k, err := m.ExpandedSize(fn, x)
				if err != nil {
					return 0, err
				}
				n += k
			} else {
				n++
			}
		default:
			n++
		}
		if n > int(m.Limits.MemoryBudget) {
			return 0, m.MemLimitError()
		}
	}
	return n, nil
}

// chargeMem spends n units of the memory budget of the current top-level call.
func (m *Machine) ChargeMem(n int) error {
	m.Mem += n
	if m.Mem > int(m.Limits.MemoryBudget) || m.Mem < 0 || n > int(m.Limits.MemoryBudget) {
		return m.MemLimitError()
	}
	return nil
}

func (m *Machine) MemLimitError() error {
	return &limitError{fmt.Sprintf("memory limit reached (memory_budget = %d): a value grows too large", m.Limits.MemoryBudget)}
}

// size is what a value costs the memory budget: its own elements, not what they refer to
// (they were charged when built).
func Size(v any) int {
	switch x := v.(type) {
	case string:
		return len(x)/16 + 1
	case []any:
		return len(x) + 1
	case map[string]any:
		return len(x) + 1
	case nil, bool, int, float64:
		return 1
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Map, reflect.Array:
		return rv.Len() + 1
	case reflect.String:
		return rv.Len()/16 + 1
	}
	return 1
}

// iterated are expr-lang's builtins that walk their first argument: each element they walk
// costs a step.
var iterated = map[string]bool{
	"all": true, "none": true, "any": true, "one": true, "filter": true, "map": true,
	"count": true, "sum": true, "find": true, "findIndex": true, "findLast": true,
	"findLastIndex": true, "groupBy": true, "sortBy": true, "reduce": true,
	"max": true, "min": true, "mean": true, "median": true, "join": true, "sort": true,
	"reverse": true, "uniq": true, "flatten": true, "concat": true, "keys": true,
	"values": true, "toPairs": true, "fromPairs": true, "take": true, "indexOf": true,
	"lastIndexOf": true, "toJSON": true,
}

// numeric are the builtins that take numbers (or add or compare their elements): a roll
// there is its total.
var numeric = map[string]bool{"sum": true, "max": true, "min": true, "mean": true, "median": true, "int": true, "float": true, "abs": true}

// built are the builtins whose result is a new collection or string, charged to memory.
var built = map[string]bool{
	"filter": true, "map": true, "groupBy": true, "sortBy": true, "sort": true,
	"reverse": true, "uniq": true, "flatten": true, "concat": true, "keys": true,
	"values": true, "toPairs": true, "fromPairs": true, "take": true, "join": true,
	"split": true, "splitAfter": true, "replace": true, "upper": true, "lower": true,
	"trim": true, "trimPrefix": true, "trimSuffix": true, "toJSON": true, "fromJSON": true,
	"toBase64": true, "fromBase64": true,
}

// disabledBuiltins are expr-lang builtins a rule must not reach: they read the clock or the
// host's time zones, so a run would no longer be a function of its inputs.
var disabledBuiltins = []string{"now", "date", "duration", "timezone"}

// budgetFunctions are the functions the patch below calls.
func budgetFunctions() []expr.Option {
	return []expr.Option{
		expr.Function("__each", func(a ...any) (any, error) {
			m := a[0].(*Machine)
			if err := m.Charge(Size(a[1])); err != nil {
				return nil, err
			}
			return a[1], nil
		}),
		expr.Function("__nums", func(a ...any) (any, error) {
			m := a[0].(*Machine)
			if err := m.Charge(Size(a[1])); err != nil {
				return nil, err
			}
			return Totals(a[1]), nil
		}),
		expr.Function("__num", func(a ...any) (any, error) { return Totals(a[0]), nil }),
		expr.Function("__in", func(a ...any) (any, error) {
			m := a[0].(*Machine)
			switch list := a[2].(type) {
			case nil:
				return false, nil
			case map[string]any:
				key, ok := a[1].(string)
				if !ok {
					return nil, fmt.Errorf("in: a map's keys are strings, not %s", TypeName(a[1]))
				}
				_, has := list[key]
				return has, nil
			}
			v := reflect.ValueOf(a[2])
			if v.Kind() != reflect.Slice {
				return nil, fmt.Errorf("in needs a list or a map, not %s", TypeName(a[2]))
			}
			if err := m.Charge(v.Len()); err != nil {
				return nil, err
			}
			for i := range v.Len() {
				eq, err := m.Equal(a[1], v.Index(i).Interface())
				if eq || err != nil {
					return eq, err
				}
			}
			return false, nil
		}),
		expr.Function("__lit", func(a ...any) (any, error) {
			return a[1], a[0].(*Machine).ChargeMem(Size(a[1]))
		}),
		expr.Function("__uniq", func(a ...any) (any, error) { return a[0].(*Machine).Uniq(a[1]) }),
		expr.Function("__type", func(a ...any) (any, error) { return TypeName(a[0]), nil }),
		expr.Function("__int", func(a ...any) (any, error) { return toWhole(a[0]) }),
		expr.Function("__built", func(a ...any) (any, error) {
			// A builtin's result (a range, map, filter…): no single value may pass the
			// budget, and the work of building it costs steps. It does not count as growth:
			// most are walked and dropped (the range of a for loop), and what a rule keeps
			// grows by + or +=, which are counted.
			m := a[0].(*Machine)
			n := Size(a[1])
			if err := m.Charge(n); err != nil {
				return nil, err
			}
			return a[1], m.ChargeValue(n, 0)
		}),
		expr.Function("__sized", func(a ...any) (any, error) {
			// flatten and join can build far more than their argument holds (a list of many
			// references to one long list or string): their result size is computed first.
			m := a[0].(*Machine)
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
					return nil, fmt.Errorf("join: the separator is a string, not %s", TypeName(a[2]))
				}
				sep = s
			}
			return a[0].(*Machine).Join(a[1], sep)
		}),
		expr.Function("__op", func(a ...any) (any, error) {
			return a[0].(*Machine).Binary(a[1].(string), a[2], a[3])
		}),
		expr.Function("__repeat", func(a ...any) (any, error) {
			m := a[0].(*Machine)
			s, ok := a[1].(string)
			n, ok2 := a[2].(int)
			if !ok || !ok2 {
				return nil, fmt.Errorf("repeat takes a string and an int, got %s and %s", TypeName(a[1]), TypeName(a[2]))
			}
			if n < 0 {
				return nil, fmt.Errorf("repeat %d times: the count cannot be negative", n)
			}
			if n > 0 && len(s) > math.MaxInt/16/n {
				return nil, m.MemLimitError()
			}
			if err := m.ChargeMem(len(s)*n/16 + 1); err != nil {
				return nil, err
			}
			return strings.Repeat(s, n), nil
		}),
		expr.Function("__total", func(a ...any) (any, error) { return Totals(a[0]), nil }, new(func(*Roll) int)),
		expr.Function("__strcheck", func(a ...any) (any, error) {
			m := a[0].(*Machine)
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
		expr.Function("__keys", func(a ...any) (any, error) {
			return sortedEntries(a[0], a[1], func(k string, _ any) any { return k })
		}),
		expr.Function("__values", func(a ...any) (any, error) {
			return sortedEntries(a[0], a[1], func(_ string, v any) any { return v })
		}),
		expr.Function("__topairs", func(a ...any) (any, error) {
			return sortedEntries(a[0], a[1], func(k string, v any) any { return []any{k, v} })
		}),
		expr.Function("__string", func(a ...any) (any, error) {
			s := Str(a[1])
			return s, a[0].(*Machine).ChargeValue(Size(s), Size(s))
		}),
		expr.Function("__tojson", func(a ...any) (any, error) {
			b, err := json.MarshalIndent(ToJSON(a[1]), "", "  ")
			if err != nil {
				return nil, err
			}
			s := string(b)
			return s, a[0].(*Machine).ChargeValue(Size(s), Size(s))
		}),
	}
}

// totals replaces rolls by their totals, in a list or alone.
func Totals(v any) any {
	switch x := v.(type) {
	case *Roll:
		return x.Total
	case []any:
		for i, e := range x {
			if _, ok := e.(*Roll); ok {
				out := make([]any, len(x))
				copy(out, x[:i])
				for j := i; j < len(x); j++ {
					out[j] = Totals(x[j])
				}
				return out
			}
		}
	}
	return v
}

// binary applies an operator whose operand types the checker could not tell: a roll is its
// total, + joins strings and lists (charged to memory), and a mismatch is said in the
// language's words.
func (m *Machine) Binary(op string, a, b any) (any, error) {
	if r, ok := a.(*Roll); ok {
		a = r.Total
	}
	if r, ok := b.(*Roll); ok {
		b = r.Total
	}
	_, an := Number(a)
	_, bn := Number(b)
	if an && bn {
		return RollArith(op, a, b)
	}
	if op == "==" || op == "!=" {
		eq, err := m.Equal(a, b)
		return eq == (op == "=="), err
	}
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			switch op {
			case "+":
				if err := m.chargeJoin(Size(x), Size(y)); err != nil {
					return nil, err
				}
				return x + y, nil
			}
			if v, ok := compare(op, x, y); ok {
				return v, nil
			}
		}
	case []any:
		if y, ok := b.([]any); ok && op == "+" {
			if err := m.chargeJoin(len(x), len(y)); err != nil {
				return nil, err
			}
			return append(append(make([]any, 0, len(x)+len(y)), x...), y...), nil
		}
	}
	return nil, fmt.Errorf("cannot apply %s to %s and %s", op, TypeName(a), TypeName(b))
}

// typeName names a value's type in the language's words.
func TypeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case int:
		return "int"
	case float64:
		return "float"
	case bool:
		return "bool"
	case string:
		return "string"
	case []any:
		return "list"
	case map[string]any:
		if k, ok := x[KindKey].(*Kind); ok {
			return k.Name
		}
		return "map"
	case *Roll:
		return "roll"
	}
	return GoTypeWords(reflect.TypeOf(v).String())
}

// goNames translates the Go type names expr-lang's messages use into the language's own.
var goNames = strings.NewReplacer(
	"map[string]interface {}", "map",
	"map[interface {}][]interface {}", "map",
	"map[string]any", "map",
	"[]interface {}", "list",
	"[]any", "list",
	"[]int", "list",
	"[]float64", "list",
	"[]string", "list",
	"*dsl.Roll", "roll",
	"dsl.Roll", "roll",
	"*dsl.Machine", "machine",
	"*cards.Card", "card",
	"cards.Card", "card",
	"*cards.Pile", "pile",
	"cards.Pile", "pile",
	"hex.Hex", "hex",
	"*hex.Map", "board",
	"hex.Map", "board",
	"*dice.Die", "die",
	"dice.Die", "die",
	"*dice.Expr", "dice",
	"vm.groupBy", "map",
	"interface {}", "any",
	// fmt's and encoding/json's words for nil and for the value being read.
	"%!s(<nil>)", "nil",
	"%!v(<nil>)", "nil",
	"<nil>", "nil",
	"json: cannot unmarshal", "fromJSON: cannot read",
	"into Go value of type", "as a",
	"float64", "float",
	"runtime error: ", "",
	"reflect.Value.Slice: slice index out of bounds", "index out of range",
	"reflect: ", "",
)

var (
	conversionRE = regexp.MustCompile(`interface conversion: (?:interface \{\}|any) is ([^,]+), not (\S+)`)
	internalRE   = regexp.MustCompile(`\b__[a-z_]+`)
)

// goTypeWords rewrites a message so that no Go type name nor internal function name reaches
// a user.
func GoTypeWords(msg string) string {
	if strings.Contains(msg, `"`) {
		// Quoted text is the rule's own (int("float64 x")): only the words around it are
		// translated.
		parts := quotedRE.Split(msg, -1)
		quoted := quotedRE.FindAllString(msg, -1)
		var b strings.Builder
		for i, part := range parts {
			b.WriteString(goWords(part))
			if i < len(quoted) {
				b.WriteString(quoted[i])
			}
		}
		return b.String()
	}
	return goWords(msg)
}

// quotedRE matches a Go-quoted string inside a message.
var quotedRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

func goWords(msg string) string {
	msg = conversionRE.ReplaceAllString(msg, "expected $2, got $1")
	msg = goNames.Replace(msg)
	if strings.Contains(msg, "__") {
		msg = internalRE.ReplaceAllStringFunc(msg, publicName)
	}
	return strings.ReplaceAll(msg, "integer divide by zero", "division by zero")
}

// publicNames maps internal function names to the names rules use. It is built on first use,
// after every file's init has registered its functions; reaching rtFuncs through a function
// set by init keeps it out of rtFuncs' own initialisation.
var (
	publicOnce  sync.Once
	publicMap   map[string]string
	runtimeFunc func() map[string]RtFunc
)

func init() { runtimeFunc = func() map[string]RtFunc { return RtFuncs } }

func publicNames() map[string]string {
	publicOnce.Do(func() {
		publicMap = map[string]string{}
		for name, f := range runtimeFunc() {
			publicMap[f.Internal] = name
		}
	})
	return publicMap
}

// publicName gives the name a rule uses for an internal function (__rollf is roll).
func publicName(internal string) string {
	if name, ok := publicNames()[internal]; ok {
		return name
	}
	switch internal {
	case "__call":
		return "the procedure"
	case "__dice", "__total":
		return "the dice"
	case "__new":
		return "the record"
	}
	return strings.TrimLeft(internal, "_")
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
	orig map[ast.Node]ast.Node
}

// Visit implements ast.Visitor: it wraps the work of one node in what charges the budget.
func (bp budgetPatch) Visit(node *ast.Node) {
	before := *node
	defer func() {
		if *node != before && bp.orig != nil {
			bp.orig[*node] = before
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
		if (n.Name == "type" || n.Name == "int") && len(n.Arguments) == 1 {
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
		if iterated[n.Name] && len(n.Arguments) > 0 {
			fn := "__each"
			if numeric[n.Name] {
				fn = "__nums"
			}
			for i, arg := range n.Arguments {
				if i > 0 && !numeric[n.Name] {
					break
				}
				if cl, ok := arg.(*ast.PredicateNode); ok {
					if numeric[n.Name] && !isNumberType(cl.Node.Type()) {
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
		if built[n.Name] {
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
	if !numeric[n.Name] {
		return
	}
	for i, arg := range n.Arguments {
		roll := false
		switch a := arg.(type) {
		case *ast.CallNode:
			if id, ok := a.Callee.(*ast.IdentifierNode); ok {
				roll = id.Value == "__dice" || id.Value == "__rollf"
			}
		case *ast.IdentifierNode:
			t, ok := pv.sc.lookup(a.Value)
			roll = ok && t.Kind == TRoll
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
	global func(string) bool // whether a name is a global visible where the expression is compiled
	sc     *scope
	orig   map[ast.Node]ast.Node // as budgetPatch.orig
	found  []string
}

func (g *globalReads) collect(root ast.Node) {
	if g == nil {
		return
	}
	// Names an expression declares itself (`let x = …; …`) and callees are not globals.
	skip := map[ast.Node]bool{}
	lets := map[string]bool{}
	ast.Find(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.VariableDeclaratorNode:
			lets[n.Name] = true
		case *ast.CallNode:
			skip[n.Callee] = true
		}
		return false
	})
	seen := map[string]bool{}
	ast.Find(root, func(n ast.Node) bool {
		id, ok := n.(*ast.IdentifierNode)
		if !ok || skip[id] || lets[id.Value] || seen[id.Value] || strings.HasPrefix(id.Value, "__") {
			return false
		}
		if !g.global(id.Value) {
			return false
		}
		if _, local := g.sc.lookup(id.Value); local {
			return false
		}
		seen[id.Value] = true
		g.found = append(g.found, id.Value)
		return false
	})
}

// sortedEntries lists a map's entries in the order of their keys (a record's hidden kind
// left out), each made by f; each entry costs a step.
func sortedEntries(rt, v any, f func(string, any) any) (any, error) {
	mp, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("expected a map or a record, got %s", TypeName(v))
	}
	if err := rt.(*Machine).Charge(len(mp)); err != nil {
		return nil, err
	}
	keys := SortedKeys(mp)
	out := make([]any, 0, len(keys))
	for _, k := range keys {
		if k != KindKey {
			out = append(out, f(k, mp[k]))
		}
	}
	return out, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// toWhole is int(x): a fraction is cut toward zero, a string read, a roll taken as its
// total. Go would wrap a fraction beyond the whole numbers into any value: that is an error.
func toWhole(v any) (any, error) {
	switch x := v.(type) {
	case int:
		return x, nil
	case float64:
		if math.IsNaN(x) || x >= math.MaxInt64 || x < math.MinInt64 {
			return nil, fmt.Errorf("int(%s): beyond the whole numbers (%d to %d)", FormatFloat(x), math.MinInt64, math.MaxInt64)
		}
		return int(x), nil
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			return nil, fmt.Errorf("int(%q): not a whole number", x)
		}
		return n, nil
	case *Roll:
		return x.Total, nil
	}
	return nil, fmt.Errorf("int takes a number or a string, not %s", TypeName(v))
}

// maxCompareDepth bounds how deep == looks into nested lists, maps and records: Go's own
// comparison recurses without limit and a value nested a million deep (built in a loop)
// overflowed the stack.
const maxCompareDepth = 10000

// equalPair is two collections met while comparing: met again, they are taken as equal
// (a record that holds itself equals another that holds itself), as Go's comparison does.
type equalPair struct{ a, b uintptr }

// equal is == on any two values: lists, maps and records element by element (a step per
// element), to a depth of maxCompareDepth; anything else as expr-lang compares it.
func (m *Machine) Equal(a, b any) (bool, error) {
	return m.equalAt(a, b, 0, map[equalPair]bool{})
}

func (m *Machine) equalAt(a, b any, depth int, seen map[equalPair]bool) (bool, error) {
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok {
			break
		}
		if len(x) != len(y) {
			return false, nil
		}
		if len(x) == 0 {
			return true, nil
		}
		pair := equalPair{uintptr(unsafe.Pointer(&x[0])), uintptr(unsafe.Pointer(&y[0]))}
		if pair.a == pair.b || seen[pair] {
			return true, nil
		}
		if err := m.enterCompare(depth, len(x)); err != nil {
			return false, err
		}
		seen[pair] = true
		for i := range x {
			if eq, err := m.equalAt(x[i], y[i], depth+1, seen); !eq || err != nil {
				return false, err
			}
		}
		return true, nil
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			break
		}
		if len(x) != len(y) {
			return false, nil
		}
		pair := equalPair{reflect.ValueOf(x).Pointer(), reflect.ValueOf(y).Pointer()}
		if pair.a == pair.b || seen[pair] {
			return true, nil
		}
		if err := m.enterCompare(depth, len(x)); err != nil {
			return false, err
		}
		seen[pair] = true
		for k, xv := range x {
			yv, has := y[k]
			if !has {
				return false, nil
			}
			if xk, ok := xv.(*Kind); ok && k == KindKey {
				if yk, ok := yv.(*Kind); !ok || xk != yk {
					return false, nil
				}
				continue
			}
			if eq, err := m.equalAt(xv, yv, depth+1, seen); !eq || err != nil {
				return false, err
			}
		}
		return true, nil
	}
	return exprruntime.Equal(a, b), nil
}

// enterCompare charges the n elements of a collection about to be compared, and refuses to
// go deeper than maxCompareDepth.
func (m *Machine) enterCompare(depth, n int) error {
	if depth >= maxCompareDepth {
		return fmt.Errorf("cannot compare values nested more than %d deep", maxCompareDepth)
	}
	return m.Charge(n)
}

// uniq is expr-lang's uniq with == as equal compares. Numbers, strings and booleans are
// found by hashing (1 and 1.0 are one value); other values are compared with each kept one
// of their own, a step per comparison.
func (m *Machine) Uniq(v any) (any, error) {
	list := reflect.ValueOf(v)
	if list.Kind() != reflect.Slice && list.Kind() != reflect.Array {
		return nil, fmt.Errorf("uniq needs a list, not %s", TypeName(v))
	}
	out := []any{}
	seen := map[any]bool{}
	var others []any
next:
	for i := range list.Len() {
		e := list.Index(i).Interface()
		if err := m.Charge(1); err != nil {
			return nil, err
		}
		if key, ok := hashKey(e); ok {
			if !seen[key] {
				seen[key] = true
				out = append(out, e)
			}
			continue
		}
		if err := m.Charge(len(others)); err != nil {
			return nil, err
		}
		for _, kept := range others {
			eq, err := m.Equal(e, kept)
			if err != nil {
				return nil, err
			}
			if eq {
				continue next
			}
		}
		others = append(others, e)
		out = append(out, e)
	}
	return out, nil
}

// hashKey is a map key that is equal for values == finds equal, for numbers, strings and
// booleans.
func hashKey(v any) (any, bool) {
	switch x := v.(type) {
	case int:
		// As == compares: by value as a fraction wherever the fraction is exact.
		if f := float64(x); f < 1<<63 && int(f) == x {
			return f, true
		}
		return x, true
	case float64:
		if math.IsNaN(x) { // NaN equals nothing, itself included
			return nil, false
		}
		return x, true
	case string, bool:
		return x, true
	}
	return nil, false
}

// join is expr-lang's join(list, sep), its result sized and charged before it is built: a
// long separator between many elements would build far more than the list holds.
func (m *Machine) Join(v any, sep string) (any, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("join takes a list of strings, not %s", TypeName(v))
	}
	if err := m.Charge(len(list)); err != nil {
		return nil, err
	}
	total := 0
	for i, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("join takes a list of strings: element %d is %s", i+1, TypeName(e))
		}
		total += len(s)
		if i > 0 {
			total += len(sep)
		}
		if total > int(m.Limits.MemoryBudget)*16 {
			return nil, m.MemLimitError()
		}
	}
	if err := m.ChargeValue(total/16+1, total/16+1); err != nil {
		return nil, err
	}
	var b strings.Builder
	b.Grow(total)
	for i, e := range list {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(e.(string))
	}
	return b.String(), nil
}
