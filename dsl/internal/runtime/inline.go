package runtime

import "slices"

// Inlined calls. A rule whose body is one return statement (noires(p), rôle_de(p), a
// filter of the entities), or a few lets and a return, is most of the calls a simulation
// makes, and its call costs several times its body: a frame taken and given back, the
// arguments written into it, the limits, the closures' state set up again. exprx compiles
// such a body a second time, to run inside its caller's evaluation (Proc.Inline): its
// parameters and lets read from registers of that evaluation, its globals from the machine. A call site runs
// it when the machine lets it (InlineOK) and its arguments are of their parameters' types,
// with the same limits, steps, conversions and errors as the call.

// InlineShape returns the statements of p's body when they are lets followed by a return
// statement with a value, the body exprx inlines: the lets (none for a body of one return,
// Proc.onlyReturn) and the return; a nil return for any other body.
func (p *Proc) InlineShape() ([]*LetStmt, *ReturnStmt) {
	if len(p.Body) == 0 {
		return nil, nil
	}
	ret, ok := p.Body[len(p.Body)-1].(*ReturnStmt)
	if !ok || ret.Value == nil {
		return nil, nil
	}
	lets := make([]*LetStmt, len(p.Body)-1)
	for i, st := range p.Body[:len(p.Body)-1] {
		if lets[i], ok = st.(*LetStmt); !ok {
			return nil, nil
		}
	}
	return lets, ret
}

// InlineGlobalIndex is the index of a global an inlined body reads, for InlineGlobal. It
// is called while the program loads, never once it runs.
func (p *Program) InlineGlobalIndex(name string) int {
	if i := slices.Index(p.inlineGlobals, name); i >= 0 {
		return i
	}
	p.inlineGlobals = append(p.inlineGlobals, name)
	return len(p.inlineGlobals) - 1
}

// InlineGlobal returns the value of the global of index i (InlineGlobalIndex), nil when
// there is none, as a frame of a procedure that reads it holds it: the machine's copies are
// made again whenever the globals change, as the frames' are (copyUses). That is whenever
// the version changes: an option set, a reload, dice made from rules again; the globals
// written as the machine is made (and a ConstEvaluator's, which runs no procedure) are
// written before any call.
func (m *Machine) InlineGlobal(i int) any {
	if m.iglobalsOf != m.version+1 || i >= len(m.iglobals) {
		m.copyInlineGlobals()
	}
	return m.iglobals[i]
}

func (m *Machine) copyInlineGlobals() {
	names := m.prog.inlineGlobals
	if len(m.iglobals) != len(names) {
		m.iglobals = make([]any, len(names))
	}
	for i, name := range names {
		m.iglobals[i] = m.globals[name]
	}
	m.iglobalsOf = m.version + 1
}

// InlineOK says whether a call may run inlined (p.Inline) now: no trace or rule cache to
// tell it to, the depth and the steps short of their limits. The call's arguments are then
// checked by the caller (IsRecordOf, ConformArg), and the call entered (EnterInlined).
// Otherwise the call is made (CallAt), which does what the limits ask.
func (m *Machine) InlineOK() bool {
	return m.Trace == nil && m.Rules == nil && m.depth < m.Limits.MaxCallDepth && uint(m.steps+1) < m.stepEnd
}

// EnterInlined enters an inlined call: its depth and the step of its return statement are
// counted, as runBody counts them. LeftInlined, or LeaveInline, leaves it.
func (m *Machine) EnterInlined() {
	m.steps++
	m.depth++
}

// LeftInlined leaves an inlined call whose result needs nothing more (see LeaveInline).
func (m *Machine) LeftInlined() { m.depth-- }

// InlineStep counts the step of the next statement of an inlined body after its first (see
// EnterInlined), as Run counts it: its error, at the statement, is the step limit's.
func (m *Machine) InlineStep(at Pos) error {
	if m.steps++; uint(m.steps) >= m.stepEnd {
		m.steps--
		return m.step(at)
	}
	return nil
}

// InlineLet is what the let statement st of an inlined body binds, its expression having
// given v or failed with err, as LetStmt.exec and its expression's evaluation make it: the
// failure placed in the expression, an infinite float refused, the value conformed to the
// let's type.
func (m *Machine) InlineLet(st *LetStmt, v any, err error) (any, error) {
	if v, err = m.evaluated(st.Value, v, err); err != nil {
		return nil, err
	}
	if st.Type != nil && !holdsType(v, st.Type) {
		if v, err = Conform(v, st.Type); err != nil {
			return nil, &RuntimeError{Pos: st.At, Msg: st.Name + ": " + err.Error()}
		}
	}
	return v, nil
}

// IsRecordOf says whether v is a record of kind k, its kind read through the machine's
// table of fields (Conform's test, without hashing the kind's key).
func (m *Machine) IsRecordOf(v any, k *Kind) bool {
	rec, ok := v.(map[string]any)
	if !ok {
		return false
	}
	kv, ok := m.FieldKept(rec, KindKey, kindHash)
	if !ok {
		kv = m.ReadField(rec, KindKey, kindHash)
	}
	return kv == k
}

// kindHash is the field hash of KindKey (FieldHash).
var kindHash = FieldHash(KindKey)

// ConformArg conforms an argument of an inlined call to its parameter par, as the call
// would (Conform, or nil in a nullable parameter); v itself and false when the call must
// refuse it (a Skipped argument too: the call gives it its default).
func (m *Machine) ConformArg(v any, par *Param) (any, bool) {
	if v == nil && par.Nullable {
		return nil, true
	}
	if _, skip := v.(Skipped); skip {
		return v, false
	}
	cv, err := Conform(v, par.Type)
	if err != nil {
		return v, false
	}
	return cv, true
}

// LeaveInline ends the inlined call of p that EnterInlined entered, whose body gave v or
// failed with err, as runBody and endCall end a call: the failure placed in the expression
// of ret, the body's return statement, with the call's frame added, an infinite float
// refused, the result conformed to its type. at is the call's position.
func (m *Machine) LeaveInline(p *Proc, ret *ReturnStmt, args []any, v any, err error, at *Pos) (any, error) {
	m.depth--
	if v, err = m.evaluated(ret.Value, v, err); err != nil {
		addFrame(err, inlineFrame(p, args, *at))
		return nil, err
	}
	if p.Result != nil && v != nil && !holdsType(v, p.Result) {
		cv, err := Conform(v, p.Result)
		if err != nil {
			return nil, resultError(p, ret, err, inlineFrame(p, args, *at))
		}
		v = cv
	}
	return v, nil
}

// evaluated is what the evaluation of x that gave v or failed with err gives, as Fast code's
// Eval makes it: the failure placed in x (ExprFailure), an infinite float refused (FiniteAt).
func (m *Machine) evaluated(x *Expr, v any, err error) (any, error) {
	if err != nil {
		return nil, m.wrapError(x, err)
	}
	if _, ok := v.(float64); ok {
		return finiteAt(x, v)
	}
	return v, nil
}

// inlineFrame is the frame an error names for an inlined call of p with args, converted to
// their parameters' types as callFrame reads them from a call's slots.
func inlineFrame(p *Proc, args []any, at Pos) CallFrame {
	return CallFrame{Pos: at, Proc: p.Name, Args: append([]any(nil), args...)}
}
