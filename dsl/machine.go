package dsl

import (
	"fmt"
	"io"
	"slices"
	"sync/atomic"

	"rulesh/dsl/internal/peek"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
	"rulesh/stdlib/hex"
)

// Machine is one run of a Program: its options, entities, piles and dice, and the hooks
// through which the run talks to its caller (emit, trace, ask, interrupt). It reads the
// Program and never changes it, so several Machines may run one Program in several
// goroutines; a Machine itself is not safe for concurrent use.
//
// Its methods are the whole of what a user of the language may do with a run: what they
// return is the run's own state or a copy, never a part of the compiled Program.
type Machine struct {
	m    *runtime.Machine
	prog *Program
}

// NewMachine prepares a fresh state for a Program: options at their defaults unless
// overridden, every entity built from its declaration.
func NewMachine(p *Program, src dice.Source, overrides map[string]any) (*Machine, error) {
	m, err := runtime.NewMachine(p.p, src, overrides)
	if err != nil {
		return nil, err
	}
	out := &Machine{m, p}
	m.SetUnmadeDice(p.unmade)
	if p.own != nil || len(overrides) > 0 {
		if err := out.ownDice(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ownDice gives the machine the dice made from rules computed for its options.
func (m *Machine) ownDice() error {
	own, err := m.prog.ownDice(m.m.Options())
	if err != nil {
		return err
	}
	m.m.SetRuleDice(own)
	return nil
}

// Program is the program the machine runs.
func (m *Machine) Program() *Program { return m.prog }

// Call runs the action, rule or table of that name with positional arguments, as one
// top-level call: a failure rolls the state back. What it returns of a const is a copy.
// A record it returns that the run holds (an entity, a record in a field) is the run's
// own, as Global's are: see Global.
func (m *Machine) Call(name string, args ...any) (any, error) {
	m.m.ForgetFields() // the caller may have changed a record it was given (see Global)
	v, err := m.m.Call(name, args...)
	m.m.HandOut(v) // the result is the caller's
	return m.prog.p.Own(v), err
}

// Options lists every option with its value in force, in declaration order.
func (m *Machine) Options() []OptionValue {
	out := m.m.Options()
	for i := range out {
		out[i].Default = m.prog.p.Own(out[i].Default)
		out[i].Value = m.prog.p.Own(out[i].Value)
	}
	return out
}

// SetOption changes an option's value for this machine, converting numbers to its type.
// The dice made from rules are computed again for the new value; when they cannot be, the
// option keeps its value and the error says why.
func (m *Machine) SetOption(name string, v any) error {
	old, _ := m.m.Global(name)
	if err := m.m.SetOption(name, v); err != nil {
		return err
	}
	if !m.prog.hasRuleDice() {
		return nil
	}
	if err := m.ownDice(); err != nil {
		_ = m.m.SetOption(name, old)
		return fmt.Errorf("option %s = %s: %w", name, Repr(v), err)
	}
	return nil
}

// Global returns the value of a top-level name in this run: an option, a const, an entity.
// A const's list or map comes back as a copy, since it belongs to the Program. An entity is
// the run's own record: change it through the rules (an action), not from Go. A change
// made from Go is not undone with the run it was made in, and a run reads it only from its
// next Call or Session.Eval on, which forget the fields the machine read before.
func (m *Machine) Global(name string) (any, bool) {
	v, ok := m.m.Global(name)
	return m.prog.p.Own(v), ok
}

// Board is a read-only view of a declared hex map: it draws the board, it cannot change it.
type Board struct{ m *hex.Map }

// Render draws the board as text with the units given at their hexes.
func (b Board) Render(units []hex.Unit) string { return b.m.Render(units) }

// WriteSVG writes the board as an SVG picture with the units given at their hexes.
func (b Board) WriteSVG(w io.Writer, units []hex.Unit) error { return b.m.WriteSVG(w, units) }

// Map returns the hex map of that name ("" for the only one), to draw.
func (m *Machine) Map(name string) (Board, error) {
	b, err := m.m.Map(name)
	if err != nil {
		return Board{}, err
	}
	return Board{b}, nil
}

// Units lists the entities placed on the map of that name, where they stand in this run.
func (m *Machine) Units(name string) ([]hex.Unit, error) { return m.m.Units(name) }

// ShuffleDecks shuffles every declared deck afresh with the machine's dice.
func (m *Machine) ShuffleDecks() error { return m.m.ShuffleDecks() }

// Changed reports whether the run in progress (inside a Session.Trial, before it is undone)
// has changed the state: an analysis that treats runs as independent draws needs them not to.
func (m *Machine) Changed() bool { return m.m.Changed() }

// Steps is the work the current top-level call has done so far, in the units of
// Limits.MaxSteps: what an analysis reads to tell a costly run from a cheap one.
func (m *Machine) Steps() int { return m.m.Steps() }

// LimitReached names the limit the current top-level call (or the last one, once it is
// over) failed at: "max_steps", "max_loop_iterations", "max_call_depth" or "memory_budget";
// "" when it reached none. A run that fails at a limit may have spent all its work, which an
// analysis must not repeat tens of thousands of times.
func (m *Machine) LimitReached() string {
	if r := m.m.Reached(); r != runtime.Interrupted {
		return r
	}
	return ""
}

// Interrupted reports whether the interrupt flag (SetInterrupt) stopped the current
// top-level call (or the last one, once it is over).
func (m *Machine) Interrupted() bool { return m.m.Reached() == runtime.Interrupted }

// Limits are the bounds of this machine's runs (steps, depth, loops, memory).
func (m *Machine) Limits() Limits { return m.m.Limits }

// SetLimits changes the bounds of this machine's runs.
func (m *Machine) SetLimits(l Limits) {
	m.m.Limits = l
	m.m.LimitsChanged()
}

// Dice is the source of every random result: seeded, or hand-given.
func (m *Machine) Dice() dice.Source { return m.m.Dice }

// SetDice changes the source of random results (the REPL gives a reloaded machine the
// session's own).
func (m *Machine) SetDice(src dice.Source) { m.m.Dice = src }

// SetEmit sets what receives the narrative lines rules emit (nil: they are dropped).
func (m *Machine) SetEmit(emit func(line string)) { m.m.Emit = emit }

// SetEmitBytes sets what receives the lines rules emit as bytes, in place of SetEmit's
// receiver (nil: SetEmit's is used again). The bytes are the machine's own, valid only during
// the call and never to be changed: a receiver that counts lines, or keeps few distinct ones,
// makes a string only of a line it has not seen (string(line) as a map key makes none).
func (m *Machine) SetEmitBytes(emit func(line []byte)) { m.m.EmitBytes = emit }

// SetTrace sets what receives every roll, lookup and branch taken, with the call depth
// (nil: no trace).
func (m *Machine) SetTrace(trace func(depth int, line string)) { m.m.Trace = trace }

// SetAsk sets how a player is asked to choose among options shown as a numbered menu: it
// returns the index chosen, from 0. Without it, and with no answer given, choose applies
// the ruleset's policy.
func (m *Machine) SetAsk(ask func(prompt string, options []string) (int, error)) { m.m.Ask = ask }

// SetInterrupt sets a flag that, once raised (Ctrl-C in the REPL), stops the running call
// at its next statement.
func (m *Machine) SetInterrupt(flag *atomic.Bool) {
	m.m.Interrupt = flag
	m.m.LimitsChanged()
}

// SetRuleCache makes calls of declared rules answer from what they returned before for the
// same arguments (nil: no cache). Only for a machine that runs trials from one state.
func (m *Machine) SetRuleCache(c *RuleCache) { m.m.Rules = c }

// GivenCards lists the cards entered by hand that the next draws take, in order.
func (m *Machine) GivenCards() []string { return slices.Clone(m.m.GivenCards) }

// SetGivenCards replaces the cards entered by hand (nil: draws take the top of the pile).
func (m *Machine) SetGivenCards(cards []string) { m.m.GivenCards = slices.Clone(cards) }

// GivenChoices lists the players' answers entered by hand (an option's number in the menu,
// from 1, or its name) that the next choose calls take, in order.
func (m *Machine) GivenChoices() []string { return slices.Clone(m.m.GivenChoices) }

// SetGivenChoices replaces the answers entered by hand.
func (m *Machine) SetGivenChoices(choices []string) {
	m.m.GivenChoices = slices.Clone(choices)
}

// Mixed describes each roll since ClearMixed that took hand-given results and then, when
// they ran out, seeded ones.
func (m *Machine) Mixed() []string { return slices.Clone(m.m.Mixed) }

// ClearMixed forgets the notes Mixed gives (the REPL shows them after each input).
func (m *Machine) ClearMixed() { m.m.Mixed = nil }

// The tests of the packages under dsl reach the run-time machine through peek.
func init() { peek.Register(func(x any) *runtime.Machine { return x.(*Machine).m }) }
