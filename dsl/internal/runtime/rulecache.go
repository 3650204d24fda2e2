package runtime

import (
	"math"
	"unsafe"
)

// RuleCache remembers what declared rules returned for their arguments, for an analysis that
// runs one expression many times from the same state (the branches of an enumeration, the
// runs of a sample). A rule cannot change the state, so its result is fixed by its arguments
// and the state it reads; the cache is consulted and filled only while the current top-level
// call has changed nothing (its journal is empty), so that state is the one every run starts
// from. A result is kept only when the call drew no random value (Drawn did not move), emitted
// nothing and did not fail, and only for arguments that name their value exactly: numbers,
// strings, booleans and the ruleset's entities (whose identity lasts as long as the machine).
//
// Set it (Machine.Rules) only on a machine that runs nothing but such runs: between two
// top-level calls that keep their changes, the state moves and the entries go stale.
type RuleCache struct {
	// Drawn returns how many random values the machine's source has given so far.
	Drawn func() int
	// Hits and Misses count the calls answered from the cache and the calls that ran.
	Hits, Misses int
	// Spread, when set, is asked to answer each call the cache could keep but does not hold
	// (a declared rule, arguments named exactly, nothing changed yet), before it runs: key
	// names the call (comparable, equal for equal calls) and run runs it once, as many times
	// as Spread likes, each run leaving the steps and memory spent as it found them and
	// telling whether it was clean (no line emitted, no change left, no failure). An exact
	// analysis uses it to enumerate the call once into its outcomes and answer later calls as
	// one weighted draw among them. handled false lets the call run once as usual.
	// depth is the call depth the rule's own frame runs at (see Turn).
	Spread func(key any, depth int, run func() (v any, err error, clean bool)) (v any, err error, handled bool)
	// Turn, when set, is called at the start of each turn of a loop while nothing has been
	// changed (the journal is empty): depth is the call depth of the frame whose loop turns,
	// vars that frame's variables, loop the loop statement, coll what a for loop goes over
	// (nil for a while loop) and turn the turn, from 0. An exact analysis keys the run's state
	// there to merge the branches that reach the same one; an error it returns stops the run
	// with that error.
	Turn func(depth int, vars map[string]any, loop, coll any, turn int) error

	entries  map[ruleKey]ruleEntry
	reach    int // the reach of the runs of the call Spread answers (callCached)
	entities map[unsafe.Pointer]bool
}

// ruleEntry is what the cache holds of one call: its value when it was kept (plain; a call
// the Spread hook answers may have none), and the frames it ran deep on any branch, counting
// its own (callCached).
type ruleEntry struct {
	v     any
	plain bool
	reach int
}

// maxRuleArgs is the most arguments a cached call may have: the key is a fixed array.
const maxRuleArgs = 4

// ruleKey names one call: the procedure and its arguments.
type ruleKey struct {
	p    *Proc
	n    int
	args [maxRuleArgs]argKey
}

// argKey is one argument as a comparable value: a kind and its bits or text.
type argKey struct {
	kind byte
	bits uint64
	s    string
	ptr  unsafe.Pointer
}

// key returns the cache key of a call, and false when an argument cannot be named exactly.
func (c *RuleCache) key(m *Machine, p *Proc, args []any) (ruleKey, bool) {
	k := ruleKey{p: p, n: len(args)}
	if len(args) > maxRuleArgs {
		return k, false
	}
	for i, a := range args {
		switch v := a.(type) {
		case nil:
			k.args[i] = argKey{kind: 'n'}
		case int:
			k.args[i] = argKey{kind: 'i', bits: uint64(v)}
		case float64:
			k.args[i] = argKey{kind: 'f', bits: math.Float64bits(v)}
		case bool:
			k.args[i] = argKey{kind: 'b'}
			if v {
				k.args[i].bits = 1
			}
		case string:
			k.args[i] = argKey{kind: 's', s: v}
		case map[string]any:
			ptr := *(*unsafe.Pointer)(unsafe.Pointer(&v))
			if !c.entity(m, ptr) {
				return k, false
			}
			k.args[i] = argKey{kind: 'e', ptr: ptr}
		default:
			return k, false
		}
	}
	return k, true
}

// entity reports whether ptr is one of the ruleset's entities.
func (c *RuleCache) entity(m *Machine, ptr unsafe.Pointer) bool {
	if c.entities == nil {
		c.entities = map[unsafe.Pointer]bool{}
		for _, e := range m.prog.Entities {
			if rec, ok := m.globals[e.Name].(map[string]any); ok {
				c.entities[*(*unsafe.Pointer)(unsafe.Pointer(&rec))] = true
			}
		}
	}
	return c.entities[ptr]
}

// callCached answers a call of a declared rule from the cache, or runs it (call) and keeps
// its result when that is safe.
//
// A kept call also keeps its reach: how many frames deep, counting its own, it went on any
// branch (its calls answered from the cache counting theirs). Answering it from a caller at
// depth d would pass max_call_depth when d + reach does: it then runs instead, to fail where
// and how running it fails. The machine's peak, the deepest frame of the call being
// measured, is kept here only: with a cache every call of a procedure comes through here
// (Callee refuses the direct path).
func (m *Machine) callCached(p *Proc, args []any, call func() (any, error)) (any, error) {
	c := m.Rules
	m.peak = max(m.peak, m.depth+1)
	if p.Verb != "rule" || p.Table != nil || len(m.journal) != 0 || c.Drawn == nil {
		return call()
	}
	k, ok := c.key(m, p, args)
	if !ok {
		return call()
	}
	e, hit := c.entries[k]
	deep := hit && m.depth+e.reach > m.Limits.MaxCallDepth
	if hit && e.plain && !deep {
		c.Hits++
		m.peak = max(m.peak, m.depth+e.reach)
		return e.v, nil
	}
	c.Misses++
	if c.Spread != nil && !deep {
		// The runs' reach gathers in c.reach, not in a variable the closure would move to
		// the heap: a call inside a run puts it back as it found it.
		outer := c.reach
		c.reach = e.reach
		run := func() (any, error, bool) {
			steps, mem, emits := m.steps, m.mem, m.emits
			v, r, err := m.measured(call)
			c.reach = max(c.reach, r)
			clean := err == nil && m.emits == emits && len(m.journal) == 0
			m.steps, m.mem = steps, mem
			return v, err, clean
		}
		v, err, ok := c.Spread(k, m.depth+1, run)
		reach := c.reach
		c.reach = outer
		if ok {
			if !hit || reach > e.reach {
				e.reach = reach
				c.keep(k, e)
			}
			m.peak = max(m.peak, m.depth+reach)
			return v, err
		}
	}
	drawn, emits := c.Drawn(), m.emits
	v, reach, err := m.measured(call)
	if err != nil || c.Drawn() != drawn || m.emits != emits || len(m.journal) != 0 {
		return v, err
	}
	switch v.(type) {
	case nil, int, float64, bool, string:
	default:
		return v, err // a list or record could be changed by its caller
	}
	e.v, e.plain, e.reach = v, true, max(e.reach, reach)
	c.keep(k, e)
	return v, nil
}

// measured runs call and returns its value, its reach (the deepest frame it ran relative to
// the caller's depth) and its error.
func (m *Machine) measured(call func() (any, error)) (any, int, error) {
	peak := m.peak
	m.peak = m.depth + 1
	v, err := call()
	reach := m.peak - m.depth
	m.peak = max(peak, m.peak)
	return v, reach, err
}

// keep records the entry of a call.
func (c *RuleCache) keep(k ruleKey, e ruleEntry) {
	if c.entries == nil {
		c.entries = map[ruleKey]ruleEntry{}
	}
	c.entries[k] = e
}

// turn calls the cache's Turn hook at the start of a loop's turn, when one is set and the
// run has changed nothing.
func (m *Machine) turn(f *Frame, loop, coll any, n int) error {
	if c := m.Rules; c != nil && c.Turn != nil && len(m.journal) == 0 {
		if f.dirty != 0 {
			f.flush() // the hook reads every variable by name, the slots' too
		}
		return c.Turn(m.depth, f.Vars, loop, coll, n)
	}
	return nil
}
