package dsl

import (
	"fmt"
	"maps"

	"github.com/alecthomas/participle/v2/lexer"

	"rulesh/dsl/internal/check"
	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/dice"
)

// Session holds what an interactive user or `eval` adds on top of a Program: local bindings
// that persist between inputs.
type Session struct {
	// M is the machine inputs run on. A reload makes a new Session on a new machine and
	// carries the old one's state over (CarryOver).
	M     *Machine
	vars  map[string]any
	types map[string]*runtime.Type
	// inputs holds the text of the last input under each name ("<input>", "<eval>"), for
	// rendering its diagnostics: the session keeps it, never the shared Program.
	inputs Sources
	// spare is the frame of the last trial, its environment filled for that expression:
	// the next trial of the same expression on globals of the same version runs in it as it
	// is (simulations run one trial after another), another one clears and fills it again;
	// nil while a trial holds it, and dropped when the session's variables change.
	spare *trialFrame
	// reuseRolls: each FreshTrial makes its rolls in those of the one before (ReuseRolls).
	reuseRolls bool
}

// trialFrame is a trial's frame, with the expression and the version of the machine's
// globals (runtime.Machine.Version) its environment was filled for.
type trialFrame struct {
	f       *runtime.Frame
	c       *Compiled
	version int
}

// NewSession starts a session on a machine.
func NewSession(m *Machine) *Session {
	return &Session{M: m, vars: map[string]any{}, types: map[string]*runtime.Type{}, inputs: Sources{}}
}

// Eval compiles and runs one expression typed by the user (it may call procedures). The
// name is used in positions ("<eval>"). Compile problems come back as Diagnostics; run-time
// failures as *RuntimeError, with the state rolled back.
func (s *Session) Eval(name, src string) (any, error) {
	s.M.m.ForgetFields() // Go code may have changed a record it was given (see Machine.Global)
	v, err := s.eval(name, src)
	return s.own(v), err
}

// eval is Eval handing out the value as the run holds it (a let keeps a const as the const,
// frozen, as a let in a rule file does).
func (s *Session) eval(name, src string) (any, error) {
	c, err := s.Compile(name, src)
	if err != nil {
		return nil, err
	}
	return s.run(c)
}

// run runs a compiled input at the top level.
func (s *Session) run(c *Compiled) (any, error) {
	return s.M.m.TopLevel(func() (any, error) { return s.M.m.Eval(c.x, s.env(c.x.Globals)) })
}

// own copies what a value holds of the Program's frozen consts, so that the Go code it is
// handed to cannot change them for every machine, and has the machine forget the lists it
// kept to give again (the value may be one).
func (s *Session) own(v any) any {
	s.M.m.HandOut(v)
	return s.M.prog.p.Own(v)
}

// Compiled is an expression checked and compiled once for a session, to run many times.
type Compiled struct{ x *runtime.Expr }

// Compile checks and compiles src as Eval would, without running it.
func (s *Session) Compile(name, src string) (*Compiled, error) {
	s.inputs[name] = []byte(src)
	if diags := checkInput(name, src); diags != nil {
		return nil, diags
	}
	x, diags := check.CheckExpr(s.M.prog.p, name, src, s.types)
	if diags.HasErrors() {
		return nil, diags
	}
	return &Compiled{x}, nil
}

// Trial runs a compiled expression and then undoes every change it made to the state,
// success or failure (runtime.Machine.Trial): see is given the value, or the run's error,
// before the state is undone. Each trial starts from the state the session had.
func (s *Session) Trial(c *Compiled, see func(v any, err error) error) error {
	return s.M.m.Trial(func() error {
		t := s.trialFrame(c)
		v, err := s.M.m.EvalIn(c.x, t.f)
		s.spare = t
		return see(s.own(v), err)
	})
}

// FreshTrial is Trial from the start state a new machine seeded with seed would have: the
// machine's source (which must be a *dice.PCG) is reseeded and every deck redealt and
// shuffled afresh inside the trial, so a run of it gives exactly what NewMachine with
// dice.NewPCG(seed) followed by Eval would, without building a machine per run. The state
// before the call (entities, options, piles other than decks) must be the machine's start
// state: FreshTrial undoes its own changes but does not reset earlier ones.
func (s *Session) FreshTrial(c *Compiled, seed uint64, see func(v any, err error) error) error {
	pcg, ok := s.M.m.Dice.(*dice.PCG)
	if !ok {
		return fmt.Errorf("a fresh trial needs a seeded dice source")
	}
	pcg.Reseed(seed)
	return s.M.m.Trial(func() error {
		if err := s.M.m.Redeal(); err != nil {
			return see(nil, err)
		}
		t := s.trialFrame(c)
		v, err := s.M.m.EvalIn(c.x, t.f)
		s.spare = t
		stop := see(s.own(v), err)
		if s.reuseRolls {
			if err != nil {
				s.M.m.KeepRolls()
			} else {
				s.M.m.ReleaseRolls()
			}
		}
		return stop
	})
}

// ReuseRolls makes each FreshTrial that succeeds give back the rolls it made, for the next
// one to make its own in (on), or not (off, the default): a simulation's runs then allocate
// no roll. The value see is given, and every roll in it, lasts only until see returns; the
// rolls of a failed run are kept for good, since its error may name them.
func (s *Session) ReuseRolls(on bool) {
	s.reuseRolls = on
	s.M.m.ReuseRolls(on)
}

// Let evaluates src and binds the result to name for later inputs. The name follows the
// rules of a let in a rule file: no reserved word, no __ prefix, no hiding a procedure,
// const, option or kind (a session variable would hide it for every later input).
func (s *Session) Let(name, src string) (any, error) {
	if diags := check.CheckBinding(s.M.prog.p, name, lexer.Position{Filename: "<input>"}); diags.HasErrors() {
		return nil, diags
	}
	s.inputs["<input>"] = []byte(src)
	if d := syntax.CheckEncoding("<input>", []byte(src), "inputs must be UTF-8 text"); d != nil {
		return nil, Diagnostics{d}
	}
	return s.bind(name, src, lexer.Position{Filename: "<input>", Line: 1, Column: 1})
}

// LetLine is Let for a `let NAME = EXPR` typed as line: nameCol and srcCol are the columns
// (in characters, from 1) where the name and the expression start on its first line.
// Diagnostics point into the line as typed, name included.
func (s *Session) LetLine(line, name string, nameCol int, src string, srcCol int) (any, error) {
	s.inputs["<input>"] = []byte(line)
	if err := CheckEncoding("<input>", line); err != nil {
		return nil, err
	}
	if diags := check.CheckBinding(s.M.prog.p, name, lexer.Position{Filename: "<input>", Line: 1, Column: nameCol}); diags.HasErrors() {
		return nil, diags
	}
	return s.bind(name, src, lexer.Position{Filename: "<input>", Line: 1, Column: srcCol})
}

// bind evaluates src, which starts at start, and binds the result to name.
func (s *Session) bind(name, src string, start lexer.Position) (any, error) {
	if d := syntax.CheckNesting(src, start, true); d != nil {
		return nil, Diagnostics{d}
	}
	x, diags := check.CheckExprAt(s.M.prog.p, start, src, s.types)
	if diags.HasErrors() {
		return nil, diags
	}
	v, err := s.run(&Compiled{x})
	if err != nil {
		return nil, err
	}
	s.vars[name] = v
	s.types[name] = typeFromValue(v)
	s.spare = nil // its environment holds the variables as they were
	return s.own(v), nil
}

func typeFromValue(v any) *runtime.Type {
	if m, ok := v.(map[string]any); ok {
		if k, ok := m[runtime.KindKey].(*runtime.Kind); ok {
			return &runtime.Type{Kind: runtime.TRecord, Record: k}
		}
	}
	if v == nil {
		return runtime.AnyType
	}
	switch v.(type) {
	case int:
		return runtime.IntType
	case float64:
		return runtime.FloatType
	case bool:
		return runtime.BoolType
	case string:
		return runtime.StringType
	case []any:
		return runtime.ListType
	}
	return runtime.AnyType
}

// CheckEncoding reports text that is not UTF-8 or holds a NUL byte, with its position: the
// REPL checks every input with it, meta commands included.
func CheckEncoding(name, src string) error {
	if d := syntax.CheckEncoding(name, []byte(src), "inputs must be UTF-8 text"); d != nil {
		return Diagnostics{d}
	}
	return nil
}

// checkInput validates text typed by a user before any parser reads it, as rule files are:
// at most MaxLoadSize bytes, UTF-8 without NUL, nesting within MaxNesting, at most
// MaxExprTokens tokens, and only characters and strings the language's lexer accepts.
func checkInput(name, src string) Diagnostics {
	if len(src) > syntax.MaxLoadSize {
		// An input holds no more than one load of rule files may: checking a 15 MB name
		// took seconds.
		return Diagnostics{&syntax.Diagnostic{Pos: syntax.Pos{File: name}, Summary: fmt.Sprintf("input longer than the limit of %d MiB", syntax.MaxLoadSize>>20)}}
	}
	if d := syntax.CheckEncoding(name, []byte(src), "inputs must be UTF-8 text"); d != nil {
		return Diagnostics{d}
	}
	if d := syntax.CheckNesting(src, lexer.Position{Filename: name, Line: 1, Column: 1}, true); d != nil {
		return Diagnostics{d}
	}
	return nil
}

// CheckInput validates an input as Eval and Exec do before any parser reads it: UTF-8
// without NUL, nesting within MaxNesting, at most MaxExprTokens tokens, characters the
// lexer accepts. Its scan stops at the first problem, so the REPL runs it before anything
// that reads the whole input: a line of millions of tokens is refused at once.
func CheckInput(name, src string) error {
	if d := checkInput(name, src); d != nil {
		return d
	}
	return nil
}

// trialFrame is the frame a trial of c runs in: the last trial's when no other trial holds
// it, as it is when it was filled for c on globals of the machine's current version (an
// expression's evaluation writes nothing into its environment), else cleared and filled.
func (s *Session) trialFrame(c *Compiled) *trialFrame {
	t := s.spare
	if t == nil {
		return &trialFrame{f: &runtime.Frame{Vars: s.env(c.x.Globals)}, c: c, version: s.M.m.Version()}
	}
	s.spare = nil
	if t.c != c || t.version != s.M.m.Version() {
		clear(t.f.Vars)
		s.fill(t.f.Vars, c.x.Globals)
		t.c, t.version = c, s.M.m.Version()
	}
	return t
}

// env is the environment of one input: the session's variables and the globals it reads.
func (s *Session) env(globals []string) map[string]any {
	return s.fill(make(map[string]any, len(s.vars)+len(globals)+1), globals)
}

// fill binds in env the machine, the globals of the input and the session's variables.
func (s *Session) fill(env map[string]any, globals []string) map[string]any {
	env["__rt"] = s.M.m
	for _, g := range globals {
		env[g], _ = s.M.m.Global(g)
	}
	for k, v := range s.vars {
		env[k] = v
	}
	return env
}

// Sources returns the text of the rule files and of the session's last input under each
// name, for rendering diagnostics and run-time errors.
func (s *Session) Sources() Sources {
	out := s.M.prog.Sources()
	maps.Copy(out, s.inputs)
	return out
}

// Var returns a session variable.
func (s *Session) Var(name string) (any, bool) {
	v, ok := s.vars[name]
	return s.own(v), ok
}

// Vars lists the session variables, sorted.
func (s *Session) Vars() []string { return runtime.SortedKeys(s.vars) }

// Fields lists a record's fields in declaration order (for completion), or nil.
func Fields(v any) []string {
	rec, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	if k, ok := rec[runtime.KindKey].(*runtime.Kind); ok {
		return k.FieldNames()
	}
	var out []string
	for _, n := range runtime.SortedKeys(rec) {
		if n != runtime.KindKey {
			out = append(out, n)
		}
	}
	return out
}

// IsStatement reports whether src reads as a statement rather than a bare expression.
func IsStatement(src string) bool { return syntax.IsStatement(src) }

// Exec runs statements typed by the user: `unit.pv -= 2`, `let x = 3`, `for f in … { … }`.
// Locals declared with let stay as session variables. Like a call, a failure rolls back.
func (s *Session) Exec(name, src string) error {
	s.inputs[name] = []byte(src)
	if diags := checkInput(name, src); diags != nil {
		return diags
	}
	ast, d := syntax.ParseStatements(name, src)
	if d != nil {
		return Diagnostics{d}
	}
	body, vars, uses, diags := check.CheckStatements(s.M.prog.p, name, src, ast.Stmts, s.types)
	if diags.HasErrors() {
		return diags
	}
	env := s.env(uses)
	f := &runtime.Frame{Vars: env}
	_, err := s.M.m.TopLevel(func() (any, error) { return nil, s.M.m.Run(body, f) })
	if err != nil {
		return err
	}
	s.spare = nil // its environment holds the variables as they were
	for n, t := range vars {
		s.vars[n] = env[n]
		s.types[n] = t
	}
	for n := range s.vars {
		if _, local := vars[n]; !local {
			s.vars[n] = env[n] // an assignment to an existing session variable
		}
	}
	return nil
}

// CarryOver copies what still fits from an old session into this fresh one, after the rule
// files were edited and reloaded (or a file was added): option values, entity fields, the
// cards of every deck and pile, pass allowances and the session variables (`let`), with
// entities, piles and cards pointing into the new state. It returns one line per thing it had
// to reset, saying why, then the names the edit added and removed; and what it kept.
//
// The fresh machine should be made with a throwaway dice source and given the run's source
// before CarryOver: a reload then consumes no dice of the run, unless a deck is new or was
// edited and is shuffled afresh.
func (s *Session) CarryOver(old *Session) ([]string, runtime.Kept) {
	vars, notes, kept := runtime.CarryOver(old.M.m, s.M.m, old.vars)
	notes = append(notes, s.M.carriedRuleDice()...)
	for name, v := range vars {
		s.vars[name] = v
		s.types[name] = typeFromValue(v)
	}
	s.spare = nil
	return notes, kept
}

// carriedRuleDice makes the dice made from rules again for the option values a reload
// carried over (they were set on the fresh machine without them, which kept the defaults'
// faces). When the edited rules cannot make them with those values, the options go back to
// their defaults, each said in a note.
func (m *Machine) carriedRuleDice() []string {
	if !m.prog.hasRuleDice() {
		return nil
	}
	err := m.ownDice()
	if err == nil {
		return nil
	}
	var notes []string
	for _, o := range m.m.Options() {
		if Repr(o.Value) != Repr(o.Default) {
			_ = m.m.SetOption(o.Name, o.Default)
			notes = append(notes, fmt.Sprintf("option %s reset to its default: %v", o.Name, err))
		}
	}
	if err := m.ownDice(); err != nil {
		notes = append(notes, err.Error())
	}
	return notes
}
