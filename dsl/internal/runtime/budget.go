package runtime

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unsafe"
)

// The run-time budget, and the rewrites of checked expressions that make expr-lang's work
// charge it. Every statement costs a step (Machine.step); so does every unit of work done
// inside one expression: a die rolled, a table row looked at, a hex produced, a card moved,
// an element walked by a collection builtin (map, filter, sum, in…) or put in a range. The
// memory budget counts, per top-level call, what values add (list elements and map entries
// one unit each, strings one unit per 16 bytes) and caps the size of any one value. Steps are
// checked in one place (Charge), which also answers an interruption (Ctrl-C); memory in
// another (ChargeValue, ChargeMem). Messages leaving expr-lang and Go's panics are put in
// the language's words here too (ForeignWords); the runtime's own errors are LangErrors. The rewrites themselves are exprx's; the methods exported
// here are what its wrappers and the libraries call.

// LangError is a failure the runtime or a library raises itself (a limit reached, a bad
// argument, a missing table row), worded for the rule's author: inside an expression it is
// placed at the expression by wrapError and its text reaches the user as it is. Only text
// the language does not write, expr-lang's own messages and the panics of Go, is put in the
// language's words, by ForeignWords.
type LangError struct {
	Msg string
	Err error // an error it wraps, or nil
}

// Error implements error.
func (e *LangError) Error() string { return e.Msg }

// Unwrap gives the wrapped error, or nil.
func (e *LangError) Unwrap() error { return e.Err }

// Errorf formats a LangError as fmt.Errorf does, %w included.
func Errorf(format string, a ...any) error {
	err := fmt.Errorf(format, a...)
	return &LangError{Msg: err.Error(), Err: errors.Unwrap(err)}
}

// NewError is a LangError with the message msg.
func NewError(msg string) error { return &LangError{Msg: msg} }

// MessageOf is the text of an error met inside an expression or a builtin: a LangError's as
// it is, anything else (expr-lang's words, a Go panic) by ForeignWords.
func MessageOf(err error) string {
	if le, ok := err.(*LangError); ok {
		return le.Msg
	}
	return ForeignWords(err.Error())
}

func (m *Machine) stepLimitError() error {
	m.reached = "max_steps"
	return &LangError{Msg: fmt.Sprintf("step limit reached (max_steps = %d): an endless loop, or more work than one call may do (split it into several calls)", m.Limits.MaxSteps)}
}

// Charge spends n steps of the budget; it fails when the budget is spent or the run was
// interrupted.
func (m *Machine) Charge(n int) error {
	m.steps += n
	if m.Interrupt != nil && m.Interrupt.Load() {
		m.Interrupt.Store(false)
		m.reached = Interrupted
		return &LangError{Msg: "interrupted"}
	}
	if m.steps > m.Limits.MaxSteps || m.steps < 0 {
		return m.stepLimitError()
	}
	// A budget a refused ChargeMem spent stays spent: every later step reports it too.
	if m.mem > int(m.Limits.MemoryBudget) {
		return m.MemLimitError()
	}
	return nil
}

// Interrupted is what Reached says of a call stopped by its Interrupt flag.
const Interrupted = "interrupt"

// Reached names the limit the current top-level call (or the last one, once it is over)
// reached: "max_steps", "max_loop_iterations", "max_call_depth" or "memory_budget", or
// Interrupted when its Interrupt flag stopped it; "" when it reached none. The analyses use
// it to tell a run that failed at a limit, and so may have spent all its work, from one that
// failed of itself.
func (m *Machine) Reached() string { return m.reached }

// Steps is the work done by the current top-level call (or the last one, once it is over),
// in the units of max_steps: the analyses use it to tell a run that spent the budget.
func (m *Machine) Steps() int { return m.steps }

// chargeAt is charge for work done by a statement rather than inside an expression.
func (m *Machine) chargeAt(at Pos, n int) error {
	if err := m.Charge(n); err != nil {
		return &RuntimeError{Pos: at, Msg: err.Error()}
	}
	return nil
}

// ChargeValue checks a value about to be built, of size units, and charges what it adds:
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

// ExpandedSize is the size of what flatten or join will build from v, computed before
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

// ChargeMem spends n units of the memory budget of the current top-level call.
func (m *Machine) ChargeMem(n int) error {
	m.mem += n
	if m.mem > int(m.Limits.MemoryBudget) || m.mem < 0 || n > int(m.Limits.MemoryBudget) {
		m.stepEnd = 0 // the next statement's step sees the budget spent
		return m.MemLimitError()
	}
	return nil
}

// MemLimitError is the error of a memory budget spent, naming the option that sets it.
func (m *Machine) MemLimitError() error {
	m.reached = "memory_budget"
	return &LangError{Msg: fmt.Sprintf("memory limit reached (memory_budget = %d): a value grows too large", m.Limits.MemoryBudget)}
}

// Size is what a value costs the memory budget: its own elements, not what they refer to
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

// Totals replaces rolls by their totals, in a list or alone.
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

// TotalsOf is Totals that says, instead of panicking, that it met a nil roll, whose total
// Totals cannot read (false): the same values, computed in the same order.
func TotalsOf(v any) (any, bool) {
	switch x := v.(type) {
	case *Roll:
		if x == nil {
			return nil, false
		}
		return x.Total, true
	case []any:
		for i, e := range x {
			if _, ok := e.(*Roll); ok {
				out := make([]any, len(x))
				copy(out, x[:i])
				for j := i; j < len(x); j++ {
					t, ok := TotalsOf(x[j])
					if !ok {
						return nil, false
					}
					out[j] = t
				}
				return out, true
			}
		}
	}
	return v, true
}

// Binary applies an operator whose operand types the checker could not tell: a roll is its
// total, + joins strings and lists (charged to memory), and a mismatch is said in the
// language's words.
func (m *Machine) Binary(op string, a, b any) (any, error) {
	// Two ints or two strings, the commonest operands whose types the checker did not know
	// (fields of records read as any): what RollArith and Equal give them, without their
	// checks for rolls, faces, lists and maps.
	switch x := a.(type) {
	case int:
		if y, ok := b.(int); ok {
			if v, ok := intArith(op, x, y); ok {
				return v, nil
			}
		}
	case string:
		if y, ok := b.(string); ok && (op == "==" || op == "!=") {
			return (x == y) == (op == "=="), nil
		}
	}
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
	}
	if x, ok := ListOf(a); ok && op == "+" {
		if y, ok := ListOf(b); ok {
			return m.JoinLists(x, y)
		}
	}
	return nil, Errorf("cannot apply %s to %s and %s", op, TypeName(a), TypeName(b))
}

// JoinLists is x + y on two lists, charged to memory: a new list, sharing nothing with
// either (a list written into a field must not be one a rule later changes in place).
func (m *Machine) JoinLists(x, y []any) ([]any, error) {
	if err := m.chargeJoin(len(x), len(y)); err != nil {
		return nil, err
	}
	return append(append(make([]any, 0, len(x)+len(y)), x...), y...), nil
}

// ChargeJoin charges joining two lists of lengths a and b as JoinLists does, for a caller
// that makes the joined list itself.
func (m *Machine) ChargeJoin(a, b int) error { return m.chargeJoin(a, b) }

// ListOf reads v as a list: a list value, or a roll's faces ([]int) or symbols ([]string),
// which are lists to a rule whatever Go type holds them. The typed ones are copied.
func ListOf(v any) ([]any, bool) {
	switch x := v.(type) {
	case []any:
		return x, true
	case []int:
		out := make([]any, len(x))
		for i, n := range x {
			out[i] = n
		}
		return out, true
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out, true
	}
	return nil, false
}

// TypeValue is TypeName boxed for a rule: the names of the built-in types are constants,
// which Go boxes without allocating (type(x) == "list" is asked on every call of some
// rules); a kind's name is boxed as TypeName gives it.
func TypeValue(v any) any {
	switch v.(type) {
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
	case *Roll:
		return "roll"
	}
	return TypeName(v)
}

// TypeName names a value's type in the language's words.
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
			if k.Tally {
				return "record"
			}
			return k.Name
		}
		return "map"
	case *Roll:
		return "roll"
	}
	return ForeignWords(reflect.TypeOf(v).String())
}

// goNames translates the Go type names expr-lang's messages use into the language's own.
var goNames = &Lazy[*strings.Replacer]{Build: func() *strings.Replacer {
	return strings.NewReplacer(
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
		"*runtime.Roll", "roll",
		"runtime.Roll", "roll",
		"*runtime.Machine", "machine",
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
		"*dice.Code", "dice",
		"dice.Code", "dice",
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
}}

// conversionRE matches Go's message for a failed type assertion; internalRE matches the name
// of an internal function (__rollf). Both are compiled on first use, as every package-level
// pattern is, so that start-up pays for none.
var (
	conversionRE = &Lazy[*regexp.Regexp]{Build: func() *regexp.Regexp {
		return regexp.MustCompile(`interface conversion: (?:interface \{\}|any) is ([^,]+), not (\S+)`)
	}}
	internalRE = &Lazy[*regexp.Regexp]{Build: func() *regexp.Regexp { return regexp.MustCompile(`\b__[a-z_]+`) }}
)

// ForeignWords rewrites text the language did not write, so that no Go type name nor
// internal function name reaches a user: expr-lang's own messages ("invalid operation: …
// (mismatched types …)", which name the internal functions the patches call, __rollf), Go's
// panics inside a builtin given a value the checker could not see ("interface conversion: …",
// "integer divide by zero"), and the Go type of a value no language type names. It is the one
// place that maps them; the runtime's and the libraries' own errors are LangErrors, worded
// for the user, and are never rewritten (MessageOf).
func ForeignWords(msg string) string {
	if strings.Contains(msg, `"`) {
		// Quoted text is the rule's own (int("float64 x")): only the words around it are
		// translated.
		parts := quotedRE.Get().Split(msg, -1)
		quoted := quotedRE.Get().FindAllString(msg, -1)
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
var quotedRE = &Lazy[*regexp.Regexp]{Build: func() *regexp.Regexp { return regexp.MustCompile(`"(?:[^"\\]|\\.)*"`) }}

// indexRE matches expr-lang's word for an index past a list's end. It reports a negative
// index after adding the length (ÉTATS[-99] on 3 elements said -96).
var indexRE = &Lazy[*regexp.Regexp]{Build: func() *regexp.Regexp {
	return regexp.MustCompile(`index out of range: (-?\d+) \(array length is (\d+)\)`)
}}

// indexWords gives back the index as written and the list's length.
func indexWords(m string) string {
	sub := indexRE.Get().FindStringSubmatch(m)
	i, err1 := strconv.Atoi(sub[1])
	n, err2 := strconv.Atoi(sub[2])
	if err1 != nil || err2 != nil {
		return m
	}
	if i < 0 {
		i -= n // only a negative index had the length added
	}
	elems := "elements"
	if n == 1 {
		elems = "element"
	}
	return fmt.Sprintf("index %d out of range (the list has %d %s)", i, n, elems)
}

func goWords(msg string) string {
	if strings.Contains(msg, "array length") {
		msg = indexRE.Get().ReplaceAllStringFunc(msg, indexWords)
	}
	msg = conversionRE.Get().ReplaceAllString(msg, "expected $2, got $1")
	msg = goNames.Get().Replace(msg)
	if strings.Contains(msg, "__") {
		msg = internalRE.Get().ReplaceAllStringFunc(msg, publicName)
	}
	return strings.ReplaceAll(msg, "integer divide by zero", "division by zero")
}

// publicName gives the name a rule uses for an internal function (__rollf is roll).
func publicName(internal string) string {
	switch internal {
	case "__call":
		return "the procedure"
	case "__dice", "__dicetotal", "__total":
		return "the dice"
	case "__new":
		return "the record"
	}
	return strings.TrimLeft(internal, "_")
}

// maxCompareDepth bounds how deep == looks into nested lists, maps and records: Go's own
// comparison recurses without limit and a value nested a million deep (built in a loop)
// overflowed the stack.
const maxCompareDepth = 10000

// equalPair is two collections met while comparing: met again, they are taken as equal
// (a record that holds itself equals another that holds itself), as Go's comparison does.
type equalPair struct{ a, b uintptr }

// Equal is == on any two values: lists, maps and records element by element (a step per
// element), to a depth of maxCompareDepth; anything else as expressions compare it
// (Program.Equal).
func (m *Machine) Equal(a, b any) (bool, error) {
	switch a.(type) {
	case []any, map[string]any:
		// Only a list or a map walks its elements and remembers the pairs it compared;
		// making the map of them costs a random seed, at every == of two names.
		return m.equalAt(a, b, 0, map[equalPair]bool{})
	}
	return m.equalAt(a, b, 0, nil)
}

// equalScalar is equalAt's comparison of a value that is no list or map.
func (m *Machine) equalScalar(a, b any) bool {
	if m.prog.Equal != nil {
		return m.prog.Equal(a, b)
	}
	return reflect.DeepEqual(a, b)
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
	return m.equalScalar(a, b), nil
}

// enterCompare charges the n elements of a collection about to be compared, and refuses to
// go deeper than maxCompareDepth.
func (m *Machine) enterCompare(depth, n int) error {
	if depth >= maxCompareDepth {
		return Errorf("cannot compare values nested more than %d deep", maxCompareDepth)
	}
	return m.Charge(n)
}

// Uniq is expr-lang's uniq with == as equal compares. Numbers, strings and booleans are
// found by hashing (1 and 1.0 are one value); other values are compared with each kept one
// of their own, a step per comparison.
func (m *Machine) Uniq(v any) (any, error) {
	list := reflect.ValueOf(v)
	if list.Kind() != reflect.Slice && list.Kind() != reflect.Array {
		return nil, Errorf("uniq needs a list, not %s", TypeName(v))
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

// Join is expr-lang's join(list, sep), its result sized and charged before it is built: a
// long separator between many elements would build far more than the list holds.
func (m *Machine) Join(v any, sep string) (any, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, Errorf("join takes a list of strings, not %s", TypeName(v))
	}
	if err := m.Charge(len(list)); err != nil {
		return nil, err
	}
	total := 0
	for i, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, Errorf("join takes a list of strings: element %d is %s", i+1, TypeName(e))
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
