package analysis

import (
	"errors"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// MaxMergeStates bounds the distinct states a merged enumeration of one call keeps over all
// its turns, whatever the budget: 30 d6 summed in a loop keep 4,500, 100 of them 25,000; a loop
// whose states do not merge is given up once its next generation would pass the bound, after
// about a second at most.
const MaxMergeStates = 100_000

// errMerge stops a run at a loop's turn whose state was keyed (merger): the branch goes on
// from there once per distinct state.
var errMerge = errors.New("merged")

// merger follows the runs of one call enumerated on its own (enumerateMerged): at each turn
// of a loop of the call's own frame, after the turns its prefix already passed, it keys the
// state and stops the run.
type merger struct {
	depth int // the call depth of the call's own frame
	after int // turns of that frame the current prefix passed: the run goes through them
	seen  int // turns seen in the current run
	emits int // lines emitted when the run started
	stack []loopAt
	key   string // the key of the state where the run stopped
}

// loopAt is a loop of the frame and its turn, enclosing or before the current point.
type loopAt struct {
	loop any
	coll string
	turn int
}

// node is a state reached at a loop's turn: the draws of one branch that reaches it (to
// replay it), the turns passed, and the summed probability of every branch that reaches it.
type node struct {
	faces, sides []int
	dists        []*spread
	after        int
	w            *big.Rat
}

// turnHook is the rule cache's Turn hook.
func (r *runner) turnHook(depth int, vars map[string]any, loop, coll any, turn int) error {
	m := r.merge
	if m == nil || depth != m.depth {
		return nil
	}
	// The loops seen: a loop's turn ends what ran inside it; a new loop goes on top.
	i := slices.IndexFunc(m.stack, func(l loopAt) bool { return l.loop == loop })
	if i >= 0 {
		m.stack = m.stack[:i+1]
		if m.stack[i].turn >= 0 { // -1 marks a collection not keyed: it stays so
			m.stack[i].turn = turn
		}
	} else {
		var b strings.Builder
		if !r.encode(&b, coll) {
			b.Reset()
			b.WriteString("\x00?") // a collection not keyed: the stack says so, never merged below
			m.stack = append(m.stack, loopAt{loop: loop, coll: b.String(), turn: -1})
			return nil
		}
		m.stack = append(m.stack, loopAt{loop: loop, coll: b.String(), turn: turn})
	}
	m.seen++
	r.turns++
	if m.seen <= m.after || r.emitted != m.emits {
		return nil
	}
	var b strings.Builder
	for _, l := range m.stack {
		if l.turn < 0 {
			return nil
		}
		b.WriteString(strconv.FormatUint(uint64(reflect.ValueOf(l.loop).Pointer()), 16))
		b.WriteByte('@')
		b.WriteString(strconv.Itoa(l.turn))
		b.WriteString(l.coll)
		b.WriteByte(';')
	}
	names := make([]string, 0, len(vars))
	for k := range vars {
		if !strings.HasPrefix(k, "__") {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	for _, k := range names {
		b.WriteString(k)
		b.WriteByte('=')
		if !r.encode(&b, vars[k]) {
			return nil
		}
		b.WriteByte(';')
	}
	m.key = b.String()
	r.keyed++
	return errMerge
}

// encode writes a value so that equal texts mean values a rule cannot tell apart: scalars
// with their type, lists and records by content (keys sorted, a record's kind by identity),
// the ruleset's entities by identity. It returns false for anything else.
func (r *runner) encode(b *strings.Builder, v any) bool {
	switch x := v.(type) {
	case nil:
		b.WriteString("n")
	case int:
		b.WriteString("i" + strconv.Itoa(x))
	case float64:
		if math.IsNaN(x) {
			return false
		}
		b.WriteString("f" + strconv.FormatFloat(x, 'g', -1, 64))
	case bool:
		b.WriteString("b" + strconv.FormatBool(x))
	case string:
		b.WriteString("s" + strconv.Quote(x))
	case []any:
		b.WriteString("[")
		for _, e := range x {
			if !r.encode(b, e) {
				return false
			}
			b.WriteByte(',')
		}
		b.WriteString("]")
	case map[string]any:
		ptr := reflect.ValueOf(x).Pointer()
		if r.entity(ptr) {
			b.WriteString("e" + strconv.FormatUint(uint64(ptr), 16))
			return true
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteString("{")
		for _, k := range keys {
			b.WriteString(strconv.Quote(k) + ":")
			e := x[k]
			if t := reflect.ValueOf(e); t.Kind() == reflect.Pointer {
				// A record's kind, or another value known by identity only.
				b.WriteString("p" + strconv.FormatUint(uint64(t.Pointer()), 16))
			} else if !r.encode(b, e) {
				return false
			}
			b.WriteByte(',')
		}
		b.WriteString("}")
	default:
		// A typed list (a range 1..n is a []int): as a list of its elements, which a rule
		// cannot tell from the same elements in a []any.
		rv := reflect.ValueOf(v)
		if rv.Kind() != reflect.Slice {
			return false
		}
		b.WriteString("[")
		for i := range rv.Len() {
			if !r.encode(b, rv.Index(i).Interface()) {
				return false
			}
			b.WriteByte(',')
		}
		b.WriteString("]")
	}
	return true
}

// entity reports whether a map is one of the ruleset's entities.
func (r *runner) entity(ptr uintptr) bool {
	if r.entities == nil {
		r.entities = map[uintptr]bool{}
		if r.q.Prog != nil {
			for _, name := range r.q.Prog.Entities() {
				if v, ok := r.sess.M.Global(name); ok {
					if rec, ok := v.(map[string]any); ok {
						r.entities[reflect.ValueOf(rec).Pointer()] = true
					}
				}
			}
		}
	}
	return r.entities[ptr]
}

// enumerateMerged enumerates a call's tree (enumerateCall) up to budget runs, merging the
// branches that reach the same state at a turn of one of the call's own loops: the runs go
// generation by generation, each run replaying the draws of one state and stopping at the
// next turn keyed, the states reached with equal keys becoming one whose probability is
// their sum. done is false when it passed the budget, else d is the distribution (nil when
// the call cannot be reused).
func (r *runner) enumerateMerged(run func() (any, error, bool), depth int, budget int64) (d *spread, done bool) {
	s := r.src
	outer := r.merge
	m := &merger{depth: depth}
	r.merge = m
	defer func() { r.merge = outer }()
	sums := map[any]*big.Rat{}
	var vals []any
	gen := []*node{{w: big.NewRat(1, 1)}}
	var n int64
	states := int64(0) // distinct states of every generation so far
	maxStates := min(budget, MaxMergeStates)
	for len(gen) > 0 {
		next := map[string]*node{}
		var order []string
		start := n
		for _, nd := range gen {
			floor := len(nd.faces)
			s.faces = append(s.faces[:0], nd.faces...)
			s.sides = append(s.sides[:0], nd.sides...)
			s.dists = append(s.dists[:0], nd.dists...)
			for {
				if n >= budget {
					return nil, false
				}
				n++
				s.start()
				m.after, m.seen, m.stack, m.emits = nd.after, 0, m.stack[:0], r.emitted
				v, err, clean := run()
				if s.broken || s.pos < floor {
					return nil, true
				}
				r.nested++
				// The replayed draws count too: they are the work of a merged enumeration.
				r.draws += int64(s.pos)
				if r.draws > r.limit*DrawsPerLeaf {
					r.over = true
					return nil, true
				}
				w := new(big.Rat).Mul(nd.w, s.weightFrom(floor))
				switch {
				case errors.Is(err, errMerge):
					if c, ok := next[m.key]; ok {
						c.w.Add(c.w, w)
					} else {
						p := min(s.pos, len(s.faces))
						next[m.key] = &node{faces: slices.Clone(s.faces[:p]), sides: slices.Clone(s.sides[:p]),
							dists: slices.Clone(s.dists[:p]), after: m.seen, w: w}
						order = append(order, m.key)
					}
				case err != nil || !clean || !plainValue(v):
					return nil, true
				default:
					if sum, ok := sums[v]; ok {
						sum.Add(sum, w)
					} else {
						sums[v] = w
						vals = append(vals, v)
					}
				}
				if !s.nextFrom(floor) {
					break
				}
			}
		}
		// The next generation costs about as many runs per state as this one, and the one
		// after grows as this one did: a loop whose states do not merge (t = t * 7 + d(6))
		// grows by its faces each turn, and is given up two generations before it would pass
		// the budget, not after.
		// The states are bounded too, whatever the budget of runs: a loop whose states barely
		// merge (t = t * 5 + d(6)) grows as its plain tree does, each state costing a replay,
		// and under a raised budget (--budget 1e8) it ran for minutes before it was given up.
		if len(order) > 0 {
			runs := float64(len(order)) * float64(n-start) / float64(len(gen))
			growth := float64(len(order)) / float64(len(gen))
			states += int64(len(order))
			if float64(n)+runs*(1+growth) > float64(budget) {
				return nil, false
			}
			if float64(states)+float64(len(order))*growth > float64(maxStates) {
				r.unmerged = max(r.unmerged, states)
				return nil, false
			}
		}
		gen = gen[:0]
		for _, k := range order {
			gen = append(gen, next[k])
		}
	}
	return spreadOf(vals, sums), true
}
