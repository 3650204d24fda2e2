package runtime

import (
	"errors"
	"fmt"
	goruntime "runtime"
	"strings"
	"sync/atomic"
)

// Fast code: an expression compiled by exprx to Go closures over the checked syntax tree,
// run without the expression VM. It reads the locals from the frame's slots and the other
// names from its map (NameRef), so no local is copied into the map for it, and calls
// procedures and builtins with arguments on the machine's argument stack. exprx compiles
// to it only the expressions whose every node it handles, with the VM's semantics (values,
// errors and their offsets); any other expression runs on the VM (Code).

// Fast is an expression compiled to closures.
type Fast interface {
	// Eval evaluates x, the expression whose code this is, in frame f, as the machine's
	// eval does: it takes its state for the current nesting depth (EnterFast, LeaveFast),
	// places a failure at its column (ExprFailure) and refuses an infinite result
	// (FiniteAt). The statements call it straight, without a layer of the machine between.
	Eval(m *Machine, x *Expr, f *Frame) (any, error)
}

// EnterFast gives Fast code its reusable state for the current nesting depth, as for
// Code.Run, with the memory budget it bounds what it builds by, and enters the next depth:
// an expression may call a procedure or a builtin that evaluates more expressions. The
// caller gives the depth back to LeaveFast.
func (m *Machine) EnterFast() (state *any, budget uint, depth int) {
	d := m.running
	if d >= len(m.fastStates) {
		m.growFastStates()
	}
	m.running = d + 1
	return &m.fastStates[d], m.Limits.MemoryBudget, d
}

// LeaveFast ends the evaluation that EnterFast began at depth d.
func (m *Machine) LeaveFast(d int) { m.running = d }

// FastState returns where Fast code keeps its reusable state for the evaluations in frame f,
// a procedure's call, instead of taking the state of a nesting depth (EnterFast): the
// expressions of a call are evaluated one after the other, never one inside another (a call
// in an expression runs in its own frame), so one state serves them all, and the frame is
// its machine's own (pooled, never run by another machine). It is nil for a frame of no
// call (an input's, a const's, a record's defaults), whose evaluations may nest.
func (f *Frame) FastState() *any {
	if f.proc == nil {
		return nil
	}
	return &f.fast
}

// MemoryBudget is the memory budget of the machine's limits, which Fast code bounds what
// an evaluation builds by (0: expr's default).
func (m *Machine) MemoryBudget() uint { return m.Limits.MemoryBudget }

// ExprFailure is the error of Fast code that failed evaluating x: a rule error raised
// deeper as it is, any other failure placed at its column in the rule file.
func (m *Machine) ExprFailure(x *Expr, err error) error { return m.wrapError(x, err) }

// FiniteAt refuses, at x, a result that is an infinite float or NaN (what finiteAt does for
// the machine's eval): Fast code calls it for a float result only.
func FiniteAt(x *Expr, v any) (any, error) { return finiteAt(x, v) }

// NameRef is a name an expression reads: Slot is the local's slot plus one, set when the
// program's slots are resolved (0: the frame's map).
type NameRef struct {
	Name string
	Slot int
}

// Read returns the value of the name r in the frame: its slot, or its entry in the map (nil
// when absent, as the VM reads a missing name).
func (f *Frame) Read(r *NameRef) any {
	// One comparison: a name of the map (slot 0) wraps around.
	if i := uint(r.Slot - 1); i < uint(len(f.slots)) {
		return f.slots[i]
	}
	return f.Vars[r.Name]
}

// ArgBase returns the top of the machine's argument stack, where a call pushes its
// arguments (PushArg) and from which it reads them (ArgsFrom); a call made while they are
// read (a builtin running rules) takes its own stretch above them.
func (m *Machine) ArgBase() int { return len(m.argStack) }

// PushArg pushes an argument on the machine's argument stack.
func (m *Machine) PushArg(v any) {
	if len(m.argStack) == cap(m.argStack) {
		m.growArgs()
	}
	m.argStack = append(m.argStack, v)
}

// growArgs doubles the argument stack's room, from 4 (64 bytes): sizes whose objects the
// allocator starts on a cache line. Grown by append from 16 or 32 bytes, the stack sat next
// to whatever else was allocated there, and each builtin call writes it: two machines of a
// simulation shared a cache line so. A machine that pushes nothing has none (releaseArgs
// clears its whole room at the end of each top-level call).
func (m *Machine) growArgs() {
	grown := make([]any, len(m.argStack), max(4, 2*cap(m.argStack)))
	copy(grown, m.argStack)
	m.argStack = grown
}

// ArgsFrom returns the arguments pushed since base, capped so that appending copies them.
func (m *Machine) ArgsFrom(base int) []any {
	return m.argStack[base:len(m.argStack):len(m.argStack)]
}

// PopArgs drops the arguments pushed since base. It leaves them in the stack's array, where
// the next pushes overwrite them: clearing them on every call costs more than the call's
// other bookkeeping (with the collector's write barriers), and the values they hold are
// released when the top-level call ends (releaseArgs).
func (m *Machine) PopArgs(base int) {
	m.argStack = m.argStack[:base]
}

// releaseArgs clears what the argument stack's array still holds past its top, so that a
// machine kept between top-level calls keeps no value of the last one alive.
func (m *Machine) releaseArgs() {
	clear(m.argStack[len(m.argStack):cap(m.argStack)])
}

// Callee returns a frame for a call of p with n arguments that the caller writes straight
// into the parameters' slots (SetArg), as it evaluates them, then runs with CallIn: no list
// of arguments is built. It returns nil when the call must go through CallAt with its
// arguments as a list: a parameter of p lives in the frame's map, or the machine traces the
// calls or caches rules (both read the arguments as a list).
func (m *Machine) Callee(p *Proc, n int) *Frame {
	if !p.argSlots || n > len(p.Params) || m.Trace != nil || m.Rules != nil {
		return nil
	}
	// getFrame's common case, here rather than a call further.
	free := &m.free[p.Index]
	f := *free
	if f == nil || f.version != m.version {
		return m.makeFrame(p)
	}
	*free = f.next
	f.result, f.done, f.jump, f.kept = nil, false, noJump, 0
	return f
}

// SetArg writes the i-th argument of the call prepared in f (Callee), as it was given:
// CallIn conforms it to its parameter's type.
func (f *Frame) SetArg(i int, v any) { f.slots[i] = v }

// CallIn runs the call of p prepared in f (Callee) whose first n arguments are set, as
// CallAt runs a call with n arguments: the same limits, defaults, conversions and errors.
// known marks the arguments that need no conversion (bit i for argument i, see
// ConformedArgs): their check is skipped. at is the call's position (a pointer: the call
// site's, which the call passes on without copying it).
func (m *Machine) CallIn(p *Proc, f *Frame, n int, known uint64, at *Pos) (any, error) {
	// One call, so that CallIn is inlined in the call closures: runSlots tests the limit and
	// the procedure's parameters first.
	return m.runSlots(p, f, n, known, at)
}

// callIn is CallIn past the call depth limit, or for a procedure with a parameter the
// frame's masks do not track (runSlots).
func (m *Machine) callIn(p *Proc, f *Frame, n int, known uint64, at *Pos) (any, error) {
	if m.depth >= m.Limits.MaxCallDepth {
		m.putFrame(p, f)
		return nil, m.enter(p, *at)
	}
	return m.run(p, f, nil, n, known, at)
}

// ArgNames are the arguments of one call site that are a bare name or a field of one
// (ConformedArgs), with what ConformedArgs decided of them once, for the procedure the call
// is made from: which may need no check, and the caller's slots they read.
type ArgNames struct {
	names  []*NameRef
	fields []*FieldRead
	marks  atomic.Pointer[argMarks]
}

// argMarks is what ConformedArgs decides of a call site's arguments for calls made from
// caller: argument args[j].i needs no check when the caller's slot args[j].slot is typed
// (and, for a field, when its value is not nil). It is never changed once made (the
// machines of a sim share it).
type argMarks struct {
	caller *Proc
	args   []argMark
}

// argMark is one argument that may need no check: argument i, whose bit in the callee's
// marks is arg, when slot (a bit too) is typed in the caller's frame.
type argMark struct {
	slot, arg uint64
	i         uint8
	field     bool
}

// NewArgNames holds the arguments of a call that are a bare name (names[i]) or read a field
// of one (fields[i]), nil for the others (either list may be nil), for ConformedArgs.
func NewArgNames(names []*NameRef, fields []*FieldRead) *ArgNames {
	return &ArgNames{names: names, fields: fields}
}

// ConformedArgs marks the arguments of a call of p that need no check against p's
// parameters (bit i for argument i, as CallIn takes them, in the callee's frame): names[i],
// when not nil, is the name argument i reads in f, and it needs no check when it is a
// parameter of f's procedure whose slot still holds what its own call conformed to a type
// that is p's parameter's (the same record kind above all, whose check reads the record's
// kind from its map), or a local a let of a call bound to a record of that kind
// (Proc.slotTypes). A nil record of a nullable parameter, or a value written since, is
// checked as any argument. fields[i] is a field argument i reads of such a name: a record
// of the slot's kind holds a value of the field's type or nil (fieldOfType), and one that
// is not nil needs no check.
// The arguments are read in f after they were all evaluated: evaluating one writes no local
// of f, so the marks are those each had when it was read.
// What does not change from call to call (the slots, the types) is decided at the site's
// first call from f's procedure (argMarks): a call tests only the typed marks.
func (f *Frame) ConformedArgs(a *ArgNames, p *Proc, callee *Frame) uint64 {
	mk := a.marks.Load()
	if mk == nil || mk.caller != f.proc {
		mk = a.decide(f.proc, p)
		a.marks.Store(mk)
	}
	var known uint64
	for _, k := range mk.args {
		if f.typed&k.slot != 0 && (!k.field || callee.slots[k.i] != nil) {
			known |= k.arg
		}
	}
	return known
}

// decide finds, for calls of p made from caller, the arguments that need no check when
// the caller's slot their name reads is typed (ConformedArgs).
func (a *ArgNames) decide(caller *Proc, p *Proc) *argMarks {
	mk := &argMarks{caller: caller}
	if caller == nil {
		return mk // an input's frame: no slot is typed
	}
	for i := range max(len(a.names), len(a.fields)) {
		if i >= len(p.Params) || i >= dirtyBits {
			break
		}
		want := p.Params[i].Type
		if i < len(a.names) && a.names[i] != nil {
			// A name in no slot (a global) is never marked: nil == nil types must not mark it.
			slot := a.names[i].Slot
			if t := slotType(caller, slot); slot > 0 && (t == want || t != nil && sameType(t, want)) {
				mk.args = append(mk.args, argMark{slot: 1 << (slot - 1), arg: 1 << i, i: uint8(i)})
			}
		} else if i < len(a.fields) && fieldOfType(caller, a.fields[i], want) {
			mk.args = append(mk.args, argMark{slot: 1 << (a.fields[i].Obj.Slot - 1), arg: 1 << i, i: uint8(i), field: true})
		}
	}
	return mk
}

// keepsConformed says whether a value conformed to t stays conformed to it whatever is done
// to it afterwards: not a typed map, whose entries may be given values of other types.
func keepsConformed(t *Type) bool { return t.Kind != TMap }

// sameType says whether a value conformed to a is conformed to b, for the types that keep
// it (keepsConformed): the same type, or the same record kind.
func sameType(a, b *Type) bool {
	if a == b {
		return true
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case TRecord:
		return a.Record == b.Record
	case TEnum:
		return a.Enum == b.Enum
	case TInt, TFloat, TBool, TString, TList, TRoll, TDie, TDice, TCard, TPile, THex, TBoard, TAny:
		return true
	}
	return false
}

// DropCallee gives back the frame of a call prepared with Callee that does not run (one of
// its arguments failed).
func (m *Machine) DropCallee(p *Proc, f *Frame) { m.putFrame(p, f) }

// RunBuiltin calls b, on both paths that call builtins (the VM's and the closures'). A
// panic of the builtin is its error, not a crash: an argument of a type the checker could
// not see (a string parameter given an any) says which types were expected, as the VM says
// it; any other panic of Go's runtime (an index out of range, a nil map: a case the builtin
// does not handle) is said in the language's words, never in Go's.
func RunBuiltin(b *Builtin, m *Machine, args []any) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(error)
			var te *goruntime.TypeAssertionError
			var re goruntime.Error
			switch {
			case !ok:
				e = fmt.Errorf("%v", r) // a panic's text is Go's: MessageOf rewrites it
			case errors.As(e, &te):
			case errors.As(e, &re):
				e = unhandledArgs(args)
			}
			v, err = nil, e
		}
	}()
	return b.Fn(m, args)
}

// unhandledArgs is the error of a builtin that failed on arguments it does not handle.
func unhandledArgs(args []any) error {
	shown := make([]string, len(args))
	for i, a := range args {
		shown[i] = Repr(a)
	}
	return fmt.Errorf("this function does not handle the arguments (%s): an internal error, please report it", strings.Join(shown, ", "))
}
