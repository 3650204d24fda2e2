package runtime

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"sort"
	"strings"
	"sync/atomic"
	"unsafe"

	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/cards"
	"rulesh/stdlib/dice"
)

// Limits bound a run so that no rule can hang or exhaust memory.
type Limits struct {
	MaxSteps          int // statements, and work inside expressions (dice, rows, elements), of one top-level call
	MaxCallDepth      int // nested procedure calls
	MaxLoopIterations int // iterations of one loop
	// MemoryBudget bounds, per top-level call, what values grow by (an element or entry is
	// one unit, a string one unit per 16 bytes), and the size of any one value.
	MemoryBudget uint
}

// DefaultLimits are the limits a Machine starts with.
var DefaultLimits = Limits{MaxSteps: 10_000_000, MaxCallDepth: 200, MaxLoopIterations: 100_000, MemoryBudget: 1_000_000}

// Machine runs procedures of a Program against its own state. A Machine is not safe for
// concurrent use; run one per goroutine (they may share the Program).
type Machine struct {
	prog    *Program
	globals map[string]any
	version int // bumped when a global binding changes, so pooled frames refresh
	// iglobals are the values of the program's inlineGlobals at version iglobalsOf-1
	// (InlineGlobal).
	iglobals   []any
	iglobalsOf int
	// mutables are containers found not frozen lately, by their key's slot (CheckMutable).
	mutables [mutableSize]uintptr
	// keys are the sorted keys of the maps listed lately (keycache.go), nil until one is.
	keys *[keysCacheSize]keysEntry
	// Limits are read afresh by each top-level call; set during one, call LimitsChanged.
	Limits Limits
	// Dice gives every random result: seeded, or hand-given.
	Dice dice.Source
	// Emit receives narrative lines as rules emit them.
	Emit func(string)
	// EmitBytes, when set, receives the lines instead of Emit, in a buffer the machine
	// reuses: valid only during the call, never to be changed. A caller that reads few
	// distinct lines, or only counts them, makes no string of a line it already has.
	EmitBytes func(line []byte)

	// Interrupt, when set and raised (Ctrl-C in the REPL), stops the running call at its next
	// statement. Set during a call, it needs LimitsChanged.
	Interrupt *atomic.Bool
	// Trace, when set, receives every roll, lookup and branch taken, with the call depth.
	Trace func(depth int, line string)

	// Mixed describes each roll that took hand-given results and then, when they ran out,
	// seeded ones; the REPL shows and clears it after each input.
	Mixed []string
	// GivenCards are cards entered by hand: the next draws take them, in order.
	GivenCards []string
	// GivenChoices are players' answers entered by hand (an option's number in the menu, from
	// 1, or its name): the next choose calls take them, in order.
	GivenChoices []string
	// Ask, when set (the REPL at a terminal), asks a player to choose among options shown as
	// a numbered menu and returns the index chosen (from 0); without it, and with no answer
	// given, choose applies the ruleset's policy.
	Ask func(prompt string, options []string) (int, error)
	// Rules, when set, answers calls of declared rules from what they returned before (see
	// RuleCache: only for a machine that runs trials from one state).
	Rules *RuleCache
	emits int // lines emitted so far, for Rules
	// Decks are shuffled by the seeded source behind Dice, so hand-given die results are
	// never spent on shuffles; noSeed shuffles when there is none: fixed, so runs repeat.
	noSeed dice.Source

	allowances map[passage]int
	rollers    map[*dice.Expr]*dice.Roller
	// rolls are the rolls a run of a simulation made, given back when it ends
	// (ReleaseRolls), when the machine reuses them (ReuseRolls).
	rolls     rollArena
	recFields []string // every field of the rules' record dice (recdice.go), once read
	parsed    map[string]*dice.Expr
	// ownDice maps the dice made from rules, as the Program holds them (the faces of the
	// options' defaults), to this machine's, computed with its options; nil when they are
	// the Program's. rebound caches the notation rebound to them (ruledice.go).
	ownDice map[*dice.Die]*dice.Die
	rebound map[*dice.Expr]*dice.Expr
	// unmade names the dice made from rules not made yet, while the loader makes one.
	unmade  map[string]bool
	journal []undo
	// choicesBefore is the same for the hand-given answers to choose.
	choicesBefore *[]string
	argStack      []any // the arguments of calls made by Fast code (PushArg)
	// journaled and journaledFields index what the journal holds once it is long
	// (journaledOnce, fieldJournaled), indexOn says since when: the fields in a map of their
	// own, so that indexing a field write boxes nothing.
	journaled       map[any]struct{}
	journaledFields map[fieldID]struct{}
	indexOn         bool
	// recent remembers field writes journaled in this generation of the journal (jgen,
	// bumped when it is cleared), so that writing the same field again, the commonest write,
	// finds its undo without hashing the field's name (fieldJournaled).
	recent *[recentSize]recentField
	// recentPiles does the same for the piles whose cards the journal holds (SetCards): a
	// deal or a play changes two piles a card, each found here without a search of the
	// journal or a look-up of its index by an interface.
	recentPiles [recentPileSize]recentPile
	jgen        uint32
	steps       int
	mem         int // memory budget units spent by the current top-level call
	// stepEnd bounds the statements' inline step test (uint(steps) < stepEnd): MaxSteps+1
	// while nothing else is to check (no Interrupt flag, memory within budget), else 0, so
	// that every step goes through step, which checks everything and re-arms it (armSteps).
	// One compare instead of four on every statement.
	stepEnd    uint
	reached    string // the limit the current top-level call reached (Reached)
	depth      int
	peak       int   // the deepest frame of the call the rule cache measures (callCached)
	running    int   // VMs currently running (nested through calls)
	vms        []any // the engine's reusable state per nesting depth (Code.Run)
	fastStates []any // the same for Fast code (Fast.Eval)
	// free holds each procedure's frames not in use (by Proc.Index), a list through
	// Frame.next: popped and pushed back with two words written, where a slice's header is
	// three.
	free  []*Frame
	tbufs [][]byte // free buffers to render templates into (takeBuf)
	// textSlots and texts are the value each template that is an expression's value gave
	// last (value): by the template's slot, or for a template without one, in the map.
	textSlots []any
	texts     map[*Template]any
	// shortTexts are the short texts templates that are values gave lately, each boxed
	// once (value): a template whose text changes from one rendering to the next often
	// takes it from a few (a roll's total and a modifier). textCredits say, by template
	// slot, whether that template's texts are found there (see shortText).
	shortTexts  map[string]any
	textCredits []int8
	// writes counts the record fields written and the rollbacks, so that what is computed
	// from fields (the boards' unit indexes) knows when it is stale.
	writes uint64
	// fields remembers record fields read lately (FieldKept): see fieldcache.go.
	fields      *fieldTable
	unitIndexes map[*MapDecl]*unitIndex
	// entityLists are the lists entities(kind) gives (EntitiesOf).
	entityLists []entityList
	// lists are the last lists made at each place that makes them (ListOf), made at the
	// first.
	lists *listTable
}

// undo restores one thing a top-level call changed: a record field (m, key, old, had) or,
// through restore, a pile, an allowance or the hand-given cards. The journal keeps one
// undo per thing per top-level call (the value before the call's first change), so a long
// call's journal grows with what it touches, not with how often it writes.
type undo struct {
	m       map[string]any
	rec     unsafe.Pointer // m's identity, for fields
	key     string
	old     any
	had     bool
	restore func()
	id      any // what restore restores (a pile, a passage, givenID{}), for journaledOnce
}

// fieldID names a record field in the journal's index: the record's map and the field.
type fieldID struct {
	rec unsafe.Pointer
	key string
}

// givenID names the hand-given cards in the journal.
type givenID struct{}

// journalScan is the journal length up to which the journal is searched entry by entry;
// past it, an index of what is journaled answers.
const journalScan = 32

// index builds the journal's index, when the journal first passes journalScan.
func (m *Machine) index() {
	if m.indexOn {
		return
	}
	if m.journaled == nil {
		m.journaled = make(map[any]struct{}, journalScan)
		m.journaledFields = make(map[fieldID]struct{}, 2*journalScan)
	}
	m.indexOn = true
	for i := range m.journal {
		m.indexEntry(&m.journal[i])
	}
}

// indexEntry adds an entry to the journal's index.
func (m *Machine) indexEntry(u *undo) {
	if u.id != nil {
		m.journaled[u.id] = struct{}{}
	} else {
		m.journaledFields[fieldID{u.rec, u.key}] = struct{}{}
	}
}

// journaledOnce reports whether id (a pile, a passage or givenID{}) already has its undo in
// this top-level call's journal.
func (m *Machine) journaledOnce(id any) bool {
	if len(m.journal) <= journalScan {
		for i := range m.journal {
			if m.journal[i].id == id {
				return true
			}
		}
		return false
	}
	m.index()
	_, ok := m.journaled[id]
	return ok
}

// recentField is an entry of Machine.recent: a record's address and the name of a field
// whose undo the journal holds, when gen is the journal's generation. The address is kept as
// a number: while its generation lasts, the journal itself keeps the record alive, so the
// address names no other map.
type recentField struct {
	rec uintptr
	key string
	gen uint32
}

// recentSize is the number of entries of Machine.recent (a power of two): an Assaut of the
// naval rules journals about a hundred fields.
const recentSize = 256

// recentSlot is where (rec, key) goes in Machine.recent: a hash of the record's address and
// of the name's bytes' address (a field named in the rules is one string, always the same).
func recentSlot(rec unsafe.Pointer, key string) uint {
	return addrSlot(uintptr(rec), uint64(uintptr(unsafe.Pointer(unsafe.StringData(key)))), 8)
}

// fieldJournaled is journaledOnce for a record field, without boxing its name while the
// journal is short (a field write is the commonest change). A field written again since
// its undo was recorded is mostly found in m.recent, without a search.
func (m *Machine) fieldJournaled(rec unsafe.Pointer, key string) bool {
	if m.recent != nil {
		if e := &m.recent[recentSlot(rec, key)]; e.gen == m.jgen && e.rec == uintptr(rec) && e.key == key {
			return true
		}
	}
	found := false
	if len(m.journal) <= journalScan {
		for i := range m.journal {
			if u := &m.journal[i]; u.rec == rec && u.key == key {
				found = true
				break
			}
		}
	} else {
		m.index()
		_, found = m.journaledFields[fieldID{rec, key}]
	}
	if found {
		// Another statement writing the field names it with another string (the recent
		// slot hashes its address), or another field took the slot: found next time.
		m.rememberField(rec, key)
	}
	return found
}

// record adds an undo to the journal (the caller checked that it holds none for the thing).
func (m *Machine) record(u undo) {
	m.journal = append(m.journal, u)
	if m.indexOn {
		m.indexEntry(&m.journal[len(m.journal)-1])
	}
}

// rememberField notes in m.recent that the journal holds the undo of rec's field key.
func (m *Machine) rememberField(rec unsafe.Pointer, key string) {
	if m.recent == nil {
		m.recent = new([recentSize]recentField)
	}
	m.recent[recentSlot(rec, key)] = recentField{rec: uintptr(rec), key: key, gen: m.jgen}
}

// clearJournal forgets the journal once a top-level call has ended.
func (m *Machine) clearJournal() {
	clear(m.journal)
	m.journal = m.journal[:0]
	if m.jgen++; m.jgen == 0 {
		// The generations wrapped around: entries of generation 0 must not answer.
		if m.recent != nil {
			clear(m.recent[:])
		}
		clear(m.recentPiles[:])
		m.jgen = 1
	}
	if m.indexOn {
		clear(m.journaled)
		clear(m.journaledFields)
		m.indexOn = false
	}
}

// Frame is one procedure call's variables, or a REPL input's (the facade builds that one).
// Frames of a procedure are pooled by the Machine and reused from call to call.
type Frame struct {
	Vars map[string]any // the locals, the machine (__rt) and the globals the procedure reads
	// slots are the locals that have one (Proc.Locals names them); dirty marks those
	// written since the map last caught up (flush).
	slots []any
	names []string
	dirty uint64
	// typed marks the parameters whose slot still holds the value their call conformed to
	// their type, and the locals a typed let bound (setLocal clears a mark), for
	// ConformedArgs; proc is the procedure whose frame this is (nil: an input's).
	typed   uint64
	proc    *Proc
	version int
	result  any
	// resultBy is the return statement that gave result, where a result of the wrong type
	// is reported (a pointer: a return writes one word, not a position).
	resultBy *ReturnStmt
	// done ends the blocks that run: a return, or a break or continue (jump says which), which
	// the innermost loop takes back (Frame.takeJump). Run checks done alone.
	done bool
	jump jump
	// kept marks the fields of parameters the call has read once and keeps
	// (FieldSite.Keep), bit i for the value i past the slots' length, in their array
	// (makeFrame leaves room for Proc.keptFields there); every call starts with none. (Here,
	// beside done and jump, it makes the frame no bigger.)
	kept uint16
	// next is the frame after this one in the machine's free list of its procedure.
	next *Frame
	// fast is the state Fast code keeps for the evaluations in the frame (FastState).
	fast any
}

// maxKeptFields is how many fields of its parameters a call keeps at most (Frame.kept).
const maxKeptFields = 16

// Kept returns the value the call keeps for the field read k (FieldSite.Keep), if it read
// it already.
func (f *Frame) Kept(k int) (any, bool) {
	if f.kept>>(k-1)&1 == 0 {
		return nil, false
	}
	return f.slots[:cap(f.slots)][len(f.slots)+k-1], true
}

// Keep keeps v, what the call read of the field read k (FieldSite.Keep), for its next reads.
func (f *Frame) Keep(k int, v any) {
	f.slots[:cap(f.slots)][len(f.slots)+k-1] = v
	f.kept |= 1 << (k - 1)
}

// resultPos is where a result was returned: by, its return statement's position (none for
// a table's row).
func resultPos(by *ReturnStmt) Pos {
	if by == nil {
		return Pos{}
	}
	return by.At
}

// jump is what a break or continue asks of the loop around it.
type jump uint8

const (
	noJump jump = iota
	jumpBreak
	jumpContinue
)

// takeJump is called by a loop after its body ran: it clears a break or continue and
// reports whether the loop goes on (false after a break or a return).
func (f *Frame) takeJump() bool {
	if !f.done {
		return true
	}
	j := f.jump
	if j == noJump {
		return false // a return
	}
	f.done, f.jump = false, noJump
	return j == jumpContinue
}

// RuntimeError is a failure while running rules: a violated require, a limit, a bad value.
// Pos points at the statement or expression; Frames lists the calls that led there, the
// innermost first, one added as the error unwinds through each call (at most maxFrames).
type RuntimeError struct {
	Pos     Pos
	Msg     string
	Require bool
	Frames  []CallFrame
}

// Error gives the message after its position, file:line:col: message.
func (e *RuntimeError) Error() string {
	return e.Pos.String() + ": " + e.Msg
}

// Stack renders the frames, one line each: "in f called at file:line:col".
func (e *RuntimeError) Stack() []string {
	lines := make([]string, len(e.Frames))
	for i, f := range e.Frames {
		lines[i] = f.String()
	}
	return lines
}

// CallFrame is one procedure call a run-time error unwound through, as starlark's
// CallStack holds them: where the call was made, the procedure called, and the values of its
// parameters (in declaration order) when the error left it.
type CallFrame struct {
	Pos  Pos
	Proc string
	Args []any
}

// String is the frame as a call stack prints it.
func (f CallFrame) String() string { return "in " + f.Proc + " called at " + f.Pos.String() }

// maxFrames bounds the frames an error keeps: a runaway recursion stops at max_call_depth,
// and twenty calls say where it came from.
const maxFrames = 20

// callFrame records the call of p at `at` whose frame is f, for an error leaving it.
func callFrame(p *Proc, f *Frame, at Pos) CallFrame {
	args := make([]any, len(p.Params))
	for i, par := range p.Params {
		args[i] = f.local(par.Slot, par.Name)
	}
	return CallFrame{Pos: at, Proc: p.Name, Args: args}
}

// ConstEvaluator computes the values of options and consts at load, each against the options
// and consts bound before it. It has no dice source and no entities: a const that rolls
// fails with a message, and it cannot call procedures (the checker refuses such calls).
type ConstEvaluator struct{ m *Machine }

// NewConstEvaluator starts with no option or const bound.
func NewConstEvaluator(p *Program) *ConstEvaluator {
	m := &Machine{prog: p, Limits: DefaultLimits, fields: &noFields}
	m.InitGlobals()
	return &ConstEvaluator{m}
}

// Eval computes a constant expression, with a fresh budget.
func (e *ConstEvaluator) Eval(x *Expr) (any, error) {
	e.m.steps, e.m.mem = 0, 0
	e.m.armSteps()
	return e.m.Eval(x, e.m.globals)
}

// Bind makes a computed option or const visible to the expressions evaluated after it.
func (e *ConstEvaluator) Bind(name string, v any) { e.m.globals[name] = v }

// NewMachine prepares a fresh state: options at their defaults unless overridden, every
// entity built from its declaration.
func NewMachine(p *Program, src dice.Source, overrides map[string]any) (*Machine, error) {
	m := &Machine{prog: p, Limits: DefaultLimits, Dice: src, fields: &noFields}
	m.InitGlobals()
	m.free = make([]*Frame, len(p.Procs))
	for _, o := range p.Options {
		m.globals[o.Name] = o.Default
	}
	for _, name := range SortedKeys(overrides) {
		if err := m.SetOption(name, overrides[name]); err != nil {
			return nil, err
		}
	}
	for _, c := range p.Consts {
		m.globals[c.Name] = c.Value
	}
	// Records first, fields second: an entity may refer to one declared after it.
	for _, d := range p.DiceDecl {
		m.globals[d.Name] = d.Die
	}
	for _, d := range p.Decks {
		pile := &cards.Pile{Name: d.Name, Cards: append([]*cards.Card(nil), d.Deck.Cards...), Random: true}
		m.globals[d.Name] = pile
		if src != nil {
			if err := m.Shuffle(pile); err != nil {
				return nil, err
			}
		}
	}
	for _, p := range p.Piles {
		m.globals[p.Name] = &cards.Pile{Name: p.Name}
	}
	for _, d := range p.Maps {
		m.globals[d.Name] = d.Map
	}
	for _, e := range p.Enums {
		m.globals[e.Name] = e.List
	}
	m.clearJournal()
	for _, e := range p.Entities {
		rec, err := m.NewRecord(e.Kind, nil)
		if err != nil {
			return nil, err
		}
		m.globals[e.Name] = rec
	}
	for _, e := range p.Entities {
		if err := m.initFields(m.globals[e.Name].(map[string]any), e.Inits); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// InitGlobals makes the globals map, which is also the environment of expressions outside
// any procedure (consts, defaults, entity fields).
func (m *Machine) InitGlobals() {
	m.globals = map[string]any{"__rt": m}
}

// Proc returns the procedure of that name, or nil (libraries call rules back by name).
func (m *Machine) Proc(name string) *Proc { return m.prog.Proc(name) }

// Kind returns the kind of that name, or nil.
func (m *Machine) Kind(name string) *Kind {
	k, _ := m.prog.Globals[name].(*Kind)
	return k
}

// Thaw returns a value a rule may change: a copy of a frozen const's map or list, the value
// itself otherwise.
func (m *Machine) Thaw(v any) any { return m.prog.Thaw(v) }

// SetOption changes an option's value for this machine, converting numbers to its type.
func (m *Machine) SetOption(name string, v any) error {
	cv, err := m.prog.OptionValue(name, v)
	if err != nil {
		return err
	}
	m.globals[name] = cv
	m.version++
	return nil
}

// OptionValue checks a value given to option name (by --set, :set) as SetOption takes it,
// without a machine: the option must be declared, and the value conform to its type (a
// card option reads a card's text). It returns the value as the option holds it.
func (p *Program) OptionValue(name string, v any) (any, error) {
	o := p.Option(name)
	if o == nil {
		var names []string
		for _, o := range p.Options {
			names = append(names, o.Name)
		}
		msg := "unknown option " + name
		if s := syntax.DidYouMean(name, names); s != "" {
			msg += " (did you mean " + s + "?)"
		}
		return nil, NewError(msg)
	}
	if s, ok := v.(string); ok && o.Type.Kind == TCard {
		c, err := p.ParseCard(s)
		if err != nil {
			return nil, Errorf("option %s: %v", name, err)
		}
		v = c
	}
	cv, err := Conform(v, o.Type)
	if err != nil {
		return nil, Errorf("option %s: %v", name, err)
	}
	return cv, nil
}

// Global returns the current value of a top-level name (option, const or entity).
func (m *Machine) Global(name string) (any, bool) {
	v, ok := m.globals[name]
	return v, ok && name != "__rt"
}

// NewRecord builds a record of kind k: each field its default (or its type's zero value),
// then the given inits, each conformed to its field's type; values from consts are copied
// (Thaw). The builtin behind a kind's constructor, called by exprx.
func (m *Machine) NewRecord(k *Kind, inits []FieldInit) (map[string]any, error) {
	rec := make(map[string]any, len(k.Fields)+1)
	rec[KindKey] = k
	for _, f := range k.Fields {
		var v any
		if f.Default != nil {
			var err error
			if v, err = m.Eval(f.Default, m.globals); err != nil {
				return nil, err
			}
			if f.Type.Kind == TDice {
				// A code's default is written as a string ("4D+2"), read at load.
				if v, err = Conform(v, f.Type); err != nil {
					return nil, &RuntimeError{Pos: f.Default.Pos, Msg: "field " + f.Name + ": " + err.Error()}
				}
			}
		} else {
			v = zeroValue(f.Type)
		}
		rec[f.Name] = m.prog.Thaw(v)
	}
	return rec, m.initFields(rec, inits)
}

func (m *Machine) initFields(rec map[string]any, inits []FieldInit) error {
	for _, in := range inits {
		v, err := m.Eval(in.Value, m.globals)
		if err != nil {
			return err
		}
		if v, err = ConformField(v, in.Field.Type); err != nil {
			return &RuntimeError{Pos: in.Value.Pos, Msg: "field " + in.Field.Name + ": " + err.Error()}
		}
		// Another entity's initialiser may have read the field's default already: the
		// machine's table of fields read is written through (fieldcache.go).
		v = m.prog.Thaw(v)
		rec[in.Field.Name] = v
		m.wroteField(recordPtr(rec), in.Field.Name, v)
	}
	return nil
}

// ConformField is Conform for a value stored in a record's field: a hex field or a field of
// a kind, which start at nil, may be set back to nil (a unit off the board, an army that
// leaves its town).
func ConformField(v any, t *Type) (any, error) {
	if v == nil && (t.Kind == THex || t.Kind == TRecord) {
		return nil, nil
	}
	return Conform(v, t)
}

func zeroValue(t *Type) any {
	switch t.Kind {
	case TInt:
		return 0
	case TFloat:
		return 0.0
	case TBool:
		return false
	case TString:
		return ""
	case TList:
		return []any{}
	case TMap:
		return map[string]any{}
	case TPile:
		return &cards.Pile{Name: "pile"}
	case TEnum:
		if len(t.Enum.Values) > 0 {
			return t.Enum.Values[0]
		}
	}
	return nil
}

// Call runs a procedure by name with arguments, as a top-level call: on failure every change
// it made to the state is undone.
func (m *Machine) Call(name string, args ...any) (any, error) {
	p := m.prog.Proc(name)
	if p == nil {
		return nil, Errorf("unknown procedure %s", name)
	}
	return m.CallProc(p, args...)
}

// CallProc is Call for a procedure already looked up (no name lookup per call).
func (m *Machine) CallProc(p *Proc, args ...any) (any, error) {
	if len(args) < p.MinArg || len(args) > len(p.Params) {
		return nil, Errorf("%s takes %d to %d arguments, got %d", p.Name, p.MinArg, len(p.Params), len(args))
	}
	m.steps, m.mem, m.reached = 0, 0, ""
	m.armSteps()
	mark, depth := dice.Mark(m.Dice), m.depth
	v, err := m.CallAt(p, args, p.Pos)
	m.depth = depth
	m.releaseArgs()
	return m.finish(v, err, mark)
}

// A top-level call (CallProc, TopLevel, Trial) puts the call depth back as it found it: a
// call's frame gives it back on every return, but not when a panic, caught as an internal
// error by a builtin or the expression VM, unwinds through it.

// finish ends a top-level call: the journal is dropped on success and replayed backwards on
// failure, so a failed call leaves the state as it was.
func (m *Machine) finish(v any, err error, diceMark int) (any, error) {
	if err != nil {
		m.rollback()
		dice.Restore(m.Dice, diceMark)
		return nil, err
	}
	m.clearJournal()
	return v, nil
}

// TopLevel runs f as one unit: steps are counted afresh and a failure rolls the state back.
func (m *Machine) TopLevel(f func() (any, error)) (any, error) {
	m.steps, m.mem, m.reached = 0, 0, ""
	m.armSteps()
	mark, depth := dice.Mark(m.Dice), m.depth
	v, err := f()
	m.depth = depth
	m.releaseArgs()
	return m.finish(v, err, mark)
}

// Changed reports whether the current run has changed the state (its journal holds an
// undo): inside a Trial, whether what ran so far left anything to undo.
func (m *Machine) Changed() bool { return len(m.journal) != 0 }

// Trial runs f as one unit and then undoes every change it made, whether it failed or not,
// so that many trials (the branches of an enumeration, the runs of a sample) start from the
// same state. f reads what it needs before the state is undone: a returned record may be
// one the rollback restores.
func (m *Machine) Trial(f func() error) error {
	m.steps, m.mem, m.reached = 0, 0, ""
	m.armSteps()
	depth := m.depth
	err := f()
	m.depth = depth
	m.releaseArgs()
	m.rollback()
	return err
}

// rollback undoes what the journal holds, last change first, and forgets it.
func (m *Machine) rollback() {
	m.writes++
	for i := len(m.journal) - 1; i >= 0; i-- {
		u := m.journal[i]
		if u.restore != nil {
			u.restore()
		} else if u.had {
			u.m[u.key] = u.old
			m.wroteField(u.rec, u.key, u.old)
		} else {
			delete(u.m, u.key)
			m.wroteField(u.rec, u.key, nil)
			m.keysChanged(u.rec)
		}
	}
	m.clearJournal()
}

// setField writes a record field or a map entry that is not journaled yet, journaling the
// old value for rollback (old, had: what rec[key] held). Only setEntry calls it, after
// CheckMutable.
func (m *Machine) setField(rec map[string]any, ptr unsafe.Pointer, key string, v, old any, had bool) {
	m.record(undo{m: rec, rec: ptr, key: key, old: old, had: had})
	m.rememberField(ptr, key)
	rec[key] = v
	m.wroteField(ptr, key, v)
	if !had {
		m.keysChanged(ptr)
	}
	m.writes++
}

// recordPtr is the identity of a record's (or a map's) table, as the journal names it.
func recordPtr(rec map[string]any) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&rec))
}

// short names a value for a trace line: an entity by its name, other records by kind.
func (m *Machine) short(v any) string {
	if rec, ok := v.(map[string]any); ok {
		if name := m.entityName(rec); name != "" {
			return name
		}
		if k, ok := rec[KindKey].(*Kind); ok {
			return k.Name + "{…}"
		}
	}
	return Repr(v)
}

// Tracef writes a trace line at the current call depth, when tracing is on (libraries tell
// what they decided: a blocked line of fire).
func (m *Machine) Tracef(format string, args ...any) {
	if m.Trace != nil {
		m.Trace(m.depth, fmt.Sprintf(format, args...))
	}
}

func (m *Machine) trace(line string) {
	if m.Trace != nil {
		m.Trace(m.depth, line)
	}
}

func (m *Machine) step(at Pos) error {
	if err := m.chargeAt(at, 1); err != nil {
		return err
	}
	m.armSteps()
	return nil
}

// armSteps sets the bound of the inline step test (stepEnd) from the limits, the Interrupt
// flag and the memory spent, as they are now: the inline test then holds exactly when
// Charge's checks of one step would all pass.
func (m *Machine) armSteps() {
	m.stepEnd = 0
	if m.Interrupt == nil && m.Limits.MaxSteps >= 0 && m.mem <= int(m.Limits.MemoryBudget) {
		m.stepEnd = uint(m.Limits.MaxSteps) + 1
	}
}

// LimitsChanged tells the machine that Limits or Interrupt were set: the next statement's
// step checks them all (armSteps). A top-level call re-reads them as it starts.
func (m *Machine) LimitsChanged() { m.stepEnd = 0 }

// Skipped is the argument of a parameter a call leaves out before one it names
// (`f(a, c = 1)` skips b): the parameter takes its default, as the ones left out at the end.
type Skipped struct{}

// CallAt calls procedure p with args (missing or Skipped ones take their defaults, every
// one conformed to its parameter's type), at is the call's position for errors and the stack. Calls
// deeper than MaxCallDepth fail. exprx's __call and the hex library call it.
func (m *Machine) CallAt(p *Proc, args []any, at Pos) (any, error) {
	if m.Rules != nil {
		return m.callCached(p, args, func() (any, error) { return m.callAt(p, args, at) })
	}
	return m.callAt(p, args, at)
}

// callAt is CallAt without the rule cache.
func (m *Machine) callAt(p *Proc, args []any, at Pos) (any, error) {
	if err := m.enter(p, at); err != nil {
		return nil, err
	}
	if m.Trace != nil {
		parts := make([]string, 0, len(args))
		named := false // after a skipped argument, the others were given by name
		for i, a := range args {
			if _, skip := a.(Skipped); skip {
				named = true
			} else if named {
				parts = append(parts, p.Params[i].Name+" = "+m.short(a))
			} else {
				parts = append(parts, m.short(a))
			}
		}
		m.trace(fmt.Sprintf("→ %s(%s)", p.Name, strings.Join(parts, ", ")))
	}
	return m.run(p, m.getFrame(p), args, len(args), 0, &at)
}

// enter refuses a call of p past the call depth limit.
func (m *Machine) enter(p *Proc, at Pos) error {
	if m.depth >= m.Limits.MaxCallDepth {
		m.reached = "max_call_depth"
		return &RuntimeError{Pos: at, Msg: fmt.Sprintf("call depth limit reached (max_call_depth = %d) calling %s", m.Limits.MaxCallDepth, p.Name)}
	}
	return nil
}

// run runs the call of p in its frame f with the first n arguments: args, or when args is
// nil the values the caller wrote in the parameters' slots (Callee). Each argument is
// conformed to its parameter's type, but for those that known marks (bit i: argument i is
// already of its type, see ConformedArgs); the others take their defaults. Every return
// puts the depth and the frame back (no defer: it is the cost of a small rule's call).
func (m *Machine) run(p *Proc, f *Frame, args []any, n int, known uint64, at *Pos) (any, error) {
	m.depth++
	f.typed = 0
	for i, par := range p.Params {
		var v any
		if i < n {
			if args != nil {
				v = args[i]
			} else {
				v = f.slots[i]
			}
		}
		if _, skip := v.(Skipped); skip || i >= n {
			var err error
			if v, err = m.eval(par.Default, f); err != nil {
				m.leave(p, f)
				return nil, err
			}
		}
		if v == nil && par.Nullable {
			f.setLocal(par.Slot, par.Name, nil)
			continue
		}
		cv := v
		if known>>i&1 == 0 {
			var err error
			if cv, err = Conform(v, par.Type); err != nil {
				m.leave(p, f)
				return nil, m.paramError(p, par, at, err)
			}
		}
		f.setLocal(par.Slot, par.Name, cv)
		if p.argSlots && i < dirtyBits && keepsConformed(par.Type) {
			f.typed |= 1 << i
		}
	}
	return m.runBody(p, f, at)
}

// runBody runs the body of the call of p whose parameters are set in f, then conforms its
// result, and ends the call (leave) on every return.
func (m *Machine) runBody(p *Proc, f *Frame, at *Pos) (any, error) {
	var err error
	// The result and the statement that gave it: a body of one return keeps them here, not
	// in the frame.
	var v any
	var by *ReturnStmt
	if r := p.onlyReturn; r != nil {
		// A body of one return statement (a small rule): Run and the statement's exec,
		// inline, with the same step charged before it.
		if m.steps++; uint(m.steps) >= m.stepEnd {
			m.steps--
			err = m.step(r.At)
		}
		if err == nil {
			if x := r.Value; fastOf(x) {
				v, err = x.Fast.Eval(m, x, f)
			} else {
				v, err = m.evalOther(x, f)
			}
			by = r
		}
	} else {
		err = m.Run(p.Body, f)
		v, by = f.result, f.resultBy
	}
	if err != nil || m.Trace != nil || p.Result != nil && v != nil && !holdsType(v, p.Result) && !by.resultKnown(f) {
		return m.endCall(p, f, at, v, by, err)
	}
	m.leave(p, f)
	return v, nil
}

// endCall ends the call of p in frame f whose body ran (runBody) when there is more to do
// than to leave it: its failure, its trace, or its result v to conform (by is the return
// statement that gave it). It is out of line, so that runBody keeps its values in
// registers.
func (m *Machine) endCall(p *Proc, f *Frame, at *Pos, v any, by *ReturnStmt, err error) (any, error) {
	if err != nil {
		addFrame(err, callFrame(p, f, *at))
		m.leave(p, f)
		return nil, err
	}
	if m.Trace != nil && v != nil {
		m.Trace(m.depth-1, "← "+m.short(v))
	}
	if p.Result != nil && v != nil && !holdsType(v, p.Result) && !by.resultKnown(f) {
		cv, err := Conform(v, p.Result)
		if err != nil {
			m.leave(p, f)
			return nil, resultError(p, by, err, callFrame(p, f, *at))
		}
		v = cv
	}
	m.leave(p, f)
	return v, nil
}

// addFrame adds fr, the frame of the call an error unwinds through, to the error when it
// is a rule error with room for it (maxFrames).
func addFrame(err error, fr CallFrame) {
	var re *RuntimeError
	if errors.As(err, &re) && len(re.Frames) < maxFrames {
		re.Frames = append(re.Frames, fr)
	}
}

// resultError is the error of a call of p, in frame fr, whose result the return statement
// by gave and its type refused (err).
func resultError(p *Proc, by *ReturnStmt, err error, fr CallFrame) error {
	return &RuntimeError{Pos: resultPos(by), Msg: fmt.Sprintf("%s: result: %v", p.Name, err), Frames: []CallFrame{fr}}
}

// runSlots runs a call whose arguments the caller wrote in the slots of f (CallIn). When
// the call is within the depth limit and every parameter is tracked by the frame's masks
// (Proc.fewParams), it runs it here, in the same order of
// defaults, checks and errors, without the indirections run takes for a list of arguments
// or a parameter kept in the map. The dirty and typed masks end as run leaves them: every
// parameter dirty, typed those run marks; they are written to f before a default is
// evaluated (it may flush the locals for the VM, or pass a parameter on).
func (m *Machine) runSlots(p *Proc, f *Frame, n int, known uint64, at *Pos) (any, error) {
	if !p.fewParams || m.depth >= m.Limits.MaxCallDepth {
		return m.callIn(p, f, n, known, at)
	}
	// The commonest call: every argument given, none skipped. This loop only looks (it calls
	// nothing, so its values stay in registers) and notes the arguments to convert, which
	// are converted after it, in order: the first refused is the error, as in the general
	// loop. A skipped argument starts the call over on the general loop (slotArgs).
	params := p.Params
	if n == len(params) {
		if all := uint64(1)<<n - 1; known == all && !p.nullable {
			// Every argument of its type already (ConformedArgs), none nil in a nullable
			// parameter: each stays typed, as the loop below would leave it.
			m.depth++
			f.typed, f.dirty = all, f.dirty|all
			return m.runBody(p, f, at)
		}
		slots := f.slots[:n]
		var typed, conv uint64
		i := 0
		for ; i < n; i++ {
			v, par := slots[i], params[i]
			if known>>i&1 != 0 {
				// Of its type already (ConformedArgs): a nil one is in a nullable parameter.
				if v != nil || !par.Nullable {
					typed |= 1 << i
				}
				continue
			}
			if v == nil && par.Nullable {
				continue
			}
			if _, skip := v.(Skipped); skip {
				break
			}
			if !holdsType(v, par.Type) {
				conv |= 1 << i
			}
			typed |= p.keeps & (1 << i)
		}
		if i == n {
			m.depth++
			if conv != 0 {
				if err := m.convertArgs(p, f, conv, at); err != nil {
					return nil, err
				}
			}
			f.typed, f.dirty = typed, f.dirty|(1<<n-1)
			return m.runBody(p, f, at)
		}
	}
	return m.slotArgs(p, f, n, known, at)
}

// convertArgs conforms the arguments in f's slots that conv marks to their parameters'
// types, in order; the first refused ends the call (runSlots).
func (m *Machine) convertArgs(p *Proc, f *Frame, conv uint64, at *Pos) error {
	for ; conv != 0; conv &= conv - 1 {
		j := bits.TrailingZeros64(conv)
		cv, err := Conform(f.slots[j], p.Params[j].Type)
		if err != nil {
			m.leave(p, f)
			return m.paramError(p, p.Params[j], at, err)
		}
		f.slots[j] = cv
	}
	return nil
}

// slotArgs is runSlots for any call: defaults, conversions and errors.
func (m *Machine) slotArgs(p *Proc, f *Frame, n int, known uint64, at *Pos) (any, error) {
	m.depth++
	params := p.Params
	slots := f.slots[:len(params)]
	var typed uint64
	for i, par := range params {
		var v any
		if i < n {
			v = slots[i]
			if known>>i&1 != 0 {
				// Of its type already (ConformedArgs): a nil one is in a nullable parameter.
				if v != nil || !par.Nullable {
					typed |= 1 << i
				}
				continue
			}
		}
		if _, skip := v.(Skipped); skip || i >= n {
			f.typed, f.dirty = typed, f.dirty|(1<<i-1)
			var err error
			if v, err = m.eval(par.Default, f); err != nil {
				m.leave(p, f)
				return nil, err
			}
			slots[i] = v // the default, checked below
		}
		if v == nil && par.Nullable {
			slots[i] = nil
			continue
		}
		if !holdsType(v, par.Type) {
			cv, err := Conform(v, par.Type)
			if err != nil {
				m.leave(p, f)
				return nil, m.paramError(p, par, at, err)
			}
			slots[i] = cv
		}
		typed |= p.keeps & (1 << i)
	}
	f.typed, f.dirty = typed, f.dirty|(1<<len(params)-1)
	return m.runBody(p, f, at)
}

// holdsType reports, without a call of Conform, whether v is of the type t as it is, so
// that Conform would return it unchanged: the commonest parameters and results (any, int,
// float, bool, string, roll, a list as []any, a map of any entries, a card, a pile). Any
// other value or type is for Conform to check or convert. (With maps it is no longer
// inlined: measured, the calls it saves of Conform and endCall cost more.)
func holdsType(v any, t *Type) bool {
	switch t.Kind {
	case TAny:
		return true
	case TInt:
		_, ok := v.(int)
		return ok
	case TBool:
		_, ok := v.(bool)
		return ok
	case TString:
		_, ok := v.(string)
		return ok
	case TFloat:
		_, ok := v.(float64)
		return ok
	case TRoll:
		_, ok := v.(*Roll)
		return ok
	case TList:
		_, ok := v.([]any)
		return ok
	case TMap:
		// A map of any entries (a record too), as Conform takes it; a typed map's entries
		// are Conform's to check.
		_, ok := v.(map[string]any)
		return ok && t.Elem == nil
	case TCard:
		_, ok := v.(*cards.Card)
		return ok
	case TPile:
		_, ok := v.(*cards.Pile)
		return ok
	}
	return false
}

// paramError is the error of an argument refused by its parameter's type.
func (m *Machine) paramError(p *Proc, par *Param, at *Pos, err error) error {
	return &RuntimeError{Pos: *at, Msg: fmt.Sprintf("%s: parameter %s: %v", p.Name, par.Name, err)}
}

// leave ends a call of p whose frame is f.
func (m *Machine) leave(p *Proc, f *Frame) {
	m.depth--
	m.putFrame(p, f)
}

// getFrame reuses a variables map from the procedure's pool: calls do not build maps. A
// frame holds the locals and only the globals its procedure reads (Proc.uses), copied in
// when the frame is made and again when an option changes, so memory does not grow as
// globals × depth.
func (m *Machine) getFrame(p *Proc) *Frame {
	// The commonest case, a free frame of the globals' version, is small enough to be inlined
	// in the calls (Callee): the others are out of line (makeFrame).
	free := &m.free[p.Index]
	f := *free
	if f == nil || f.version != m.version {
		return m.makeFrame(p)
	}
	*free = f.next
	f.result, f.done, f.jump, f.kept = nil, false, noJump, 0
	return f
}

// makeFrame is getFrame for a procedure with no free frame, or whose free frame holds
// globals of an older version.
func (m *Machine) makeFrame(p *Proc) *Frame {
	free := &m.free[p.Index]
	f := *free
	if f != nil {
		*free = f.next
		m.copyUses(p, f)
	} else {
		f = &Frame{Vars: make(map[string]any, len(p.Uses)+len(p.Params)+8), proc: p}
		if p.Locals != nil {
			f.slots, f.names = make([]any, len(p.Locals), len(p.Locals)+p.keptFields), p.Locals
		}
		f.Vars["__rt"] = m
		m.copyUses(p, f)
	}
	f.result, f.done, f.jump, f.kept = nil, false, noJump, 0
	return f
}

func (m *Machine) copyUses(p *Proc, f *Frame) {
	for _, name := range p.Uses {
		f.Vars[name] = m.globals[name]
	}
	for i := p.GlobalFrom; i < len(p.Locals); i++ {
		f.slots[i] = m.globals[p.Locals[i]]
	}
	f.version = m.version
}

func (m *Machine) putFrame(p *Proc, f *Frame) {
	free := &m.free[p.Index]
	f.next = *free
	*free = f
}

// Run executes statements in frame f, a step each, until one fails or returns.
func (m *Machine) Run(body []Stmt, f *Frame) error {
	for _, s := range body {
		// The step charged inline while nothing can fail (Charge's checks, in one test);
		// else by step, which makes the error.
		if m.steps++; uint(m.steps) >= m.stepEnd {
			m.steps--
			if err := m.step(s.pos()); err != nil {
				return err
			}
		}
		if err := s.exec(m, f); err != nil {
			return err
		}
		if f.done {
			return nil
		}
	}
	return nil
}

// Eval runs one compiled expression in env, the variables of an input or of a const (no
// procedure's frame: see eval).
func (m *Machine) Eval(x *Expr, env map[string]any) (any, error) {
	return m.eval(x, &Frame{Vars: env})
}

// EvalIn is Eval in a frame of no call made by the caller, Frame{Vars: env}, which it may
// keep for the next evaluation (a session's trials): nothing is written into its map.
func (m *Machine) EvalIn(x *Expr, f *Frame) (any, error) { return m.eval(x, f) }

// Version counts the changes of the global bindings (an option set, a reload, the dice
// made again from rules): an environment filled from the globals holds while it is the same.
func (m *Machine) Version() int { return m.version }

// eval runs one compiled expression in a frame's variables, by its shortcut when it has one
// (see Expr), else by its Code on the VM of the current nesting depth. An expression compiled
// to closures (nearly all of them) is tested first: it goes from the statement to its
// closures without walking the other shortcuts. The hottest statements test it themselves
// and call the closures' Eval straight (fastOf).
func (m *Machine) eval(x *Expr, f *Frame) (any, error) {
	// A literal and a local's name have closures too, but their shortcuts are cheaper.
	if x.Fast == nil || x.IsLit || x.Ident != "" {
		return m.evalOther(x, f)
	}
	// The locals are read from their slots, so nothing is flushed.
	return x.Fast.Eval(m, x, f)
}

// fastOf is what eval runs x by when it runs its closures: the statements that test it
// themselves call x.Fast.Eval without the call of eval between (eval calls two functions, so
// it is never inlined).
func fastOf(x *Expr) bool { return x.Fast != nil && !x.IsLit && x.Ident == "" }

// growFastStates gives the closures a state for the current depth: m.running counts the VMs'
// levels too, so the states may lag by more than one.
func (m *Machine) growFastStates() {
	for len(m.fastStates) <= m.running {
		m.fastStates = append(m.fastStates, nil)
	}
}

// evalOther is eval for the expressions without closures, and for literals and names.
func (m *Machine) evalOther(x *Expr, f *Frame) (any, error) {
	if x.IsLit {
		return x.Lit, nil
	}
	if x.Ident != "" {
		return f.local(x.IdentSlot, x.Ident), nil
	}
	if x.RollOf != nil && x.RollPlus != nil {
		r, err := m.RollExpr(x.RollOf)
		if err != nil {
			return nil, err
		}
		n, err := m.rollPlus(x.RollPlus, f)
		if err != nil {
			return nil, err
		}
		return r.Total + n, nil
	}
	if x.RollOf != nil {
		return m.RollExpr(x.RollOf)
	}
	if x.Tmpl != nil {
		return x.Tmpl.value(m, f)
	}
	// (An expression with closures is run by eval.)
	// A VM is not re-entrant: an expression may call a procedure or a builtin that evaluates
	// more expressions, so each nesting level of running VMs gets its own.
	for len(m.vms) <= m.running {
		m.vms = append(m.vms, nil)
	}
	// Run keeps its VM in the slot before it runs: a nested evaluation may grow m.vms, and
	// the copy holds it.
	slot := &m.vms[m.running]
	if f.dirty != 0 {
		f.flush() // the VM reads the locals by name
	}
	m.running++
	v, err := x.Code.Run(slot, f.Vars, m.Limits.MemoryBudget)
	m.running--
	if err != nil {
		return nil, m.wrapError(x, err)
	}
	return finiteAt(x, v)
}

// finiteAt refuses, at the expression, a value that is an infinite float or NaN: what the
// operators' own checks (Finite) cannot see, such as the sum of a list of huge numbers.
func finiteAt(x *Expr, v any) (any, error) {
	// Finite is asked only about a bad number: it boxes the good ones again.
	if f, ok := v.(float64); ok && (math.IsInf(f, 0) || math.IsNaN(f)) {
		if _, err := Finite(f, "this expression"); err != nil {
			return nil, &RuntimeError{Pos: x.Pos, Msg: err.Error()}
		}
	}
	return v, nil
}

// wrapError keeps a rule error raised deeper (inside a called procedure) as it is, and places
// any other expression failure at its column in the rule file.
func (m *Machine) wrapError(x *Expr, err error) error {
	var re *RuntimeError
	if errors.As(err, &re) {
		return re
	}
	var ee *ExprError
	if errors.As(err, &ee) {
		msg := ee.Msg
		if ee.OutOfMemory {
			msg = fmt.Sprintf("memory limit reached (memory_budget = %d) in this expression", m.Limits.MemoryBudget)
		}
		return &RuntimeError{Pos: syntax.PosOf(x.PosAt(ee.At)), Msg: msg}
	}
	return &RuntimeError{Pos: x.Pos, Msg: MessageOf(err)}
}

func (s *LetStmt) exec(m *Machine, f *Frame) error {
	var v any
	var err error
	if x := s.Value; fastOf(x) {
		v, err = x.Fast.Eval(m, x, f)
	} else {
		v, err = m.evalOther(x, f)
	}
	if err != nil {
		return err
	}
	if s.Type != nil && !holdsType(v, s.Type) {
		if v, err = Conform(v, s.Type); err != nil {
			return &RuntimeError{Pos: s.At, Msg: s.Name + ": " + err.Error()}
		}
	}
	f.setLocal(s.Slot, s.Name, v)
	if s.Typed && v != nil {
		f.typed |= 1 << (s.Slot - 1)
	}
	return nil
}

func (s *AssignStmt) exec(m *Machine, f *Frame) error {
	var v any
	var err error
	if x := s.Value; fastOf(x) {
		v, err = x.Fast.Eval(m, x, f)
	} else {
		v, err = m.evalOther(x, f)
	}
	if err != nil {
		return err
	}
	if s.Local != "" {
		if s.Op != "=" {
			cur := f.local(s.LocalSlot, s.Local)
			if err := m.chargeAppend(s.Op, cur, v); err != nil {
				return &RuntimeError{Pos: s.At, Msg: err.Error()}
			}
			if v, err = arith(s.Op, cur, v); err != nil {
				return &RuntimeError{Pos: s.At, Msg: err.Error()}
			}
		}
		if s.LocalType != nil && !holdsType(v, s.LocalType) {
			if v, err = Conform(v, s.LocalType); err != nil {
				return &RuntimeError{Pos: s.At, Msg: s.Local + ": " + err.Error()}
			}
		}
		f.setLocal(s.LocalSlot, s.Local, v)
		return nil
	}
	o, err := m.eval(s.Obj, f)
	if err != nil {
		return err
	}
	rec, ok := o.(map[string]any)
	if !ok {
		what := "." + s.Field
		if s.Key != nil {
			what = "an entry"
		}
		return &RuntimeError{Pos: s.At, Msg: fmt.Sprintf("cannot set %s of %s (only records and maps are changed in place)", what, Repr(o))}
	}
	field := s.Field
	if s.Key != nil {
		k, err := m.eval(s.Key, f)
		if err != nil {
			return err
		}
		ks, isStr := k.(string)
		if !isStr {
			return &RuntimeError{Pos: s.Key.Pos, Msg: "a map key must be a string, got " + Repr(k)}
		}
		field = ks
	}
	// A string key, or a value of the key's enum, is checked without boxing it for Conform.
	if kt := s.KeyType; kt != nil && kt.Kind != TString && (kt.Kind != TEnum || !kt.Enum.Has(field)) {
		if _, err := Conform(field, s.KeyType); err != nil {
			return &RuntimeError{Pos: s.At, Msg: "key of map[" + s.KeyType.String() + "]" + s.FieldType.String() + ": " + err.Error()}
		}
	}
	if s.Op != "=" {
		cur, had := rec[field]
		if !had && s.KeyType != nil {
			cur = zeroValue(s.FieldType) // a missing entry of a typed map reads as its zero
		}
		if err := m.chargeAppend(s.Op, cur, v); err != nil {
			return &RuntimeError{Pos: s.At, Msg: err.Error()}
		}
		if v, err = arith(s.Op, cur, v); err != nil {
			return &RuntimeError{Pos: s.At, Msg: err.Error()}
		}
	}
	ft := s.FieldType
	// An entity, or a record in a parameter that still holds what its call conformed to the
	// assignment's kind, is of that kind: its kind is not read from its map again. A typed
	// map (KeyType) is no record: it has no kind to read.
	if s.KeyType == nil && (s.Key != nil || s.ObjKind == nil || !s.ObjEntity && (s.Obj.IdentSlot == 0 || s.Obj.Ident == "" || !f.holdsKind(s.Obj.IdentSlot, s.ObjKind))) {
		if k, ok := rec[KindKey].(*Kind); ok && (k != s.ObjKind || s.Key != nil) {
			fd := k.ByName[field]
			if fd == nil {
				return &RuntimeError{Pos: s.At, Msg: fmt.Sprintf("%s has no field %s", k.Name, field)}
			}
			ft = fd.Type
		}
	}
	if ft != nil && !holdsType(v, ft) {
		if v, err = ConformField(v, ft); err != nil {
			return &RuntimeError{Pos: s.At, Msg: "field " + field + ": " + err.Error()}
		}
	}
	return m.setEntry(rec, field, m.prog.Thaw(v), s.At)
}

// holdsKind reports whether the local in slot (plus one) is a parameter whose slot still
// holds what its call conformed to a record of kind k (Frame.typed): a record of that kind.
func (f *Frame) holdsKind(slot int, k *Kind) bool {
	i := uint(slot - 1)
	if i >= dirtyBits || f.typed>>i&1 == 0 || f.proc == nil || i >= uint(len(f.proc.Params)) {
		return false
	}
	t := f.proc.Params[i].Type
	return t.Kind == TRecord && t.Record == k
}

// setEntry is the one change in place of a value of the language: a field of a record or an
// entry of a map set by an assignment. A frozen value is refused (CheckMutable); a new entry
// is charged to the memory budget, since maps cannot grow without bound under max_steps
// alone; the old value is journaled, so a failed call rolls it back.
//
// A field this call wrote before, the commonest write, is only written: its undo is in the
// journal, the record was found mutable then (nothing freezes a value while rules run), and
// the entry is there (only a rollback removes one).
func (m *Machine) setEntry(rec map[string]any, key string, v any, at Pos) error {
	ptr := recordPtr(rec)
	if m.fieldJournaled(ptr, key) {
		rec[key] = v
		m.wroteField(ptr, key, v)
		m.writes++
		return nil
	}
	if err := m.CheckMutable(rec); err != nil {
		return &RuntimeError{Pos: at, Msg: err.Error()}
	}
	old, had := rec[key]
	if !had {
		if err := m.ChargeMem(1); err != nil {
			return &RuntimeError{Pos: at, Msg: err.Error()}
		}
	}
	m.setField(rec, ptr, key, v, old, had)
	return nil
}

// arith applies a compound assignment (+=, -=, *=) on numbers, or += on strings and lists.
// A roll added to a number counts as its total, as in `t = t + 1d6`.
func arith(op string, a, b any) (any, error) {
	if r, ok := b.(*Roll); ok {
		switch a.(type) {
		case int, float64:
			b = r.Total
		}
	}
	switch x := a.(type) {
	case int:
		switch y := b.(type) {
		case int:
			switch op {
			case "+=":
				return x + y, nil
			case "-=":
				return x - y, nil
			case "*=":
				return x * y, nil
			}
		case float64:
			return arith(op, float64(x), y)
		}
	case float64:
		var y float64
		switch b := b.(type) {
		case int:
			y = float64(b)
		case float64:
			y = b
		default:
			return nil, Errorf("cannot %s %s with %s", op, Repr(a), Repr(b))
		}
		switch op {
		case "+=":
			return x + y, nil
		case "-=":
			return x - y, nil
		case "*=":
			return x * y, nil
		}
	case string:
		if y, ok := b.(string); ok && op == "+=" {
			return x + y, nil
		}
	case []any:
		if op == "+=" {
			out := append(append([]any{}, x...), toList(b)...)
			return out, nil
		}
	case *dice.Code:
		sign := 1
		if op == "-=" {
			sign = -1
		} else if op != "+=" {
			break
		}
		switch y := b.(type) {
		case int:
			return x.Plus(sign * y), nil
		case *dice.Code:
			return x.Add(y, sign)
		case *Roll:
			return nil, Errorf("cannot %s %s with the roll %s: a dice literal alone is rolled; write c = c %s %s to add dice to a code", op, Repr(a), Repr(b), op[:1], y.result.Expr)
		}
	}
	return nil, Errorf("cannot %s %s with %s", op, Repr(a), Repr(b))
}

// toList is what += adds to a list: the elements of a list (a roll's faces and symbols
// included), or the one value.
func toList(v any) []any {
	if l, ok := ListOf(v); ok {
		return l
	}
	return []any{v}
}

func (s *IfStmt) exec(m *Machine, f *Frame) error {
	for i, c := range s.Conds {
		// truth, inline (it calls two functions, so it is never inlined).
		var v any
		var err error
		if fastOf(c) {
			v, err = c.Fast.Eval(m, c, f)
		} else {
			v, err = m.evalOther(c, f)
		}
		if err != nil {
			return err
		}
		ok, isBool := v.(bool)
		if !isBool {
			return notBool(c, v)
		}
		if ok {
			if m.Trace != nil {
				m.trace(fmt.Sprintf("if %s: yes (line %d)", c.Text, c.Pos.Line))
			}
			return m.Run(s.Blocks[i], f)
		}
	}
	if m.Trace != nil {
		m.trace(fmt.Sprintf("if %s: no (line %d)", s.Conds[len(s.Conds)-1].Text, s.At.Line))
	}
	if s.Else != nil {
		return m.Run(s.Else, f)
	}
	return nil
}

func (m *Machine) truth(c *Expr, f *Frame) (bool, error) {
	var v any
	var err error
	if fastOf(c) {
		v, err = c.Fast.Eval(m, c, f)
	} else {
		v, err = m.evalOther(c, f)
	}
	if err != nil {
		return false, err
	}
	b, ok := v.(bool)
	if !ok {
		return false, notBool(c, v)
	}
	return b, nil
}

// notBool is the error of a condition c whose value v is not a bool.
func notBool(c *Expr, v any) error {
	return &RuntimeError{Pos: c.Pos, Msg: "condition is " + Repr(v) + ", not true or false"}
}

func (s *ForStmt) exec(m *Machine, f *Frame) error {
	coll, err := m.eval(s.Coll, f)
	if err != nil {
		return err
	}
	turn := 0
	iter := func(k, v any) (bool, error) {
		if m.Rules != nil {
			if err := m.turn(f, s, coll, turn); err != nil {
				return false, err
			}
			turn++
		}
		if s.Key != "" {
			f.setLocal(s.KeySlot, s.Key, k)
		}
		f.setLocal(s.ValSlot, s.Val, v)
		if err := m.Run(s.Body, f); err != nil {
			return false, err
		}
		return f.takeJump(), nil
	}
	limit := func(n int) error {
		if n > m.Limits.MaxLoopIterations {
			m.reached = "max_loop_iterations"
			return &RuntimeError{Pos: s.At, Msg: fmt.Sprintf("loop over %d items exceeds the limit (max_loop_iterations = %d)", n, m.Limits.MaxLoopIterations)}
		}
		return nil
	}
	switch c := coll.(type) {
	case []any:
		if err := limit(len(c)); err != nil {
			return err
		}
		for i, v := range c {
			var k any // the index boxed only for a loop that names it
			if s.Key != "" {
				k = i
			}
			if ok, err := iter(k, v); !ok || err != nil {
				return err
			}
		}
		return nil
	case map[string]any:
		keys := make([]string, 0, len(c))
		for k := range c {
			if k != KindKey {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		if err := limit(len(keys)); err != nil {
			return err
		}
		for i, k := range keys {
			var key any
			if s.Key != "" {
				key = StringValue(&keys[i]) // boxed in the loop's own array of keys
			}
			if ok, err := iter(key, c[k]); !ok || err != nil {
				return err
			}
		}
		return nil
	case int:
		if err := limit(c); err != nil {
			return err
		}
		for i := 1; i <= c; i++ {
			var k any
			if s.Key != "" {
				k = i - 1
			}
			if ok, err := iter(k, i); !ok || err != nil {
				return err
			}
		}
		return nil
	}
	rv := reflect.ValueOf(coll)
	if rv.Kind() == reflect.Slice {
		if err := limit(rv.Len()); err != nil {
			return err
		}
		for i := 0; i < rv.Len(); i++ {
			var k any
			if s.Key != "" {
				k = i
			}
			if ok, err := iter(k, rv.Index(i).Interface()); !ok || err != nil {
				return err
			}
		}
		return nil
	}
	return &RuntimeError{Pos: s.Coll.Pos, Msg: "cannot loop over " + Repr(coll)}
}

func (s *WhileStmt) exec(m *Machine, f *Frame) error {
	for n := 0; ; n++ {
		if n >= m.Limits.MaxLoopIterations {
			m.reached = "max_loop_iterations"
			return &RuntimeError{Pos: s.At, Msg: fmt.Sprintf("while loop exceeds the limit (max_loop_iterations = %d)", m.Limits.MaxLoopIterations)}
		}
		if m.Rules != nil {
			if err := m.turn(f, s, nil, n); err != nil {
				return err
			}
		}
		ok, err := m.truth(s.Cond, f)
		if err != nil || !ok {
			return err
		}
		if err := m.Run(s.Body, f); err != nil || !f.takeJump() {
			return err
		}
		if err := m.step(s.At); err != nil {
			return err
		}
	}
}

func (s *ReturnStmt) exec(m *Machine, f *Frame) error {
	if x := s.Value; x != nil {
		var v any
		var err error
		if fastOf(x) {
			v, err = x.Fast.Eval(m, x, f)
		} else {
			v, err = m.evalOther(x, f)
		}
		if err != nil {
			return err
		}
		f.result, f.resultBy = v, s
	}
	f.done = true
	return nil
}

func (s *BreakStmt) exec(m *Machine, f *Frame) error {
	f.done, f.jump = true, jumpBreak
	return nil
}

func (s *ContinueStmt) exec(m *Machine, f *Frame) error {
	f.done, f.jump = true, jumpContinue
	return nil
}

func (s *RequireStmt) exec(m *Machine, f *Frame) error {
	// truth, inline.
	var v any
	var err error
	if c := s.Cond; fastOf(c) {
		v, err = c.Fast.Eval(m, c, f)
	} else {
		v, err = m.evalOther(c, f)
	}
	if err != nil {
		return err
	}
	if ok, isBool := v.(bool); ok {
		return nil
	} else if !isBool {
		return notBool(s.Cond, v)
	}
	var msg string
	if s.Msg != nil {
		msg, err = s.Msg.render(m, f)
	} else {
		var mv any
		mv, err = m.eval(s.MsgExpr, f)
		msg = Str(mv)
	}
	if err != nil {
		return err
	}
	return &RuntimeError{Pos: s.At, Msg: msg, Require: true}
}

func (s *EmitStmt) exec(m *Machine, f *Frame) error {
	if m.EmitBytes != nil || m.Emit == nil {
		return s.emitBytes(m, f) // without a receiver the line is rendered (its holes run) and dropped
	}
	var line string
	if s.Template != nil {
		var err error
		if line, err = s.Template.render(m, f); err != nil {
			return err
		}
	} else {
		v, err := m.eval(s.Value, f)
		if err != nil {
			return err
		}
		line = Str(v)
	}
	m.emits++
	m.Emit(line)
	return nil
}

// emitBytes is exec for a machine with EmitBytes, or with no receiver at all: the line is
// written into one of its buffers and handed over from there, no string made of it.
func (s *EmitStmt) emitBytes(m *Machine, f *Frame) error {
	buf := m.takeBuf()
	var err error
	if s.Template != nil {
		buf, err = s.Template.renderTo(m, f, buf)
	} else {
		var v any
		if v, err = m.eval(s.Value, f); err == nil {
			buf = AppendStr(buf, v)
		}
	}
	if err == nil {
		m.emits++
		if m.EmitBytes != nil {
			m.EmitBytes(buf)
		}
	}
	m.putBuf(buf)
	return err
}

func (s *ExprStmt) exec(m *Machine, f *Frame) error {
	if x := s.Value; fastOf(x) {
		_, err := x.Fast.Eval(m, x, f)
		return err
	}
	_, err := m.evalOther(s.Value, f)
	return err
}
