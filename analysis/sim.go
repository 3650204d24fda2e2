package analysis

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// MaxRuns bounds the runs of one simulation.
const MaxRuns = 1_000_000_000

// QuantileLevels are the quantiles a simulation reports of numeric outcomes: 5%, 25%, the
// median, 75% and 95%.
var QuantileLevels = []float64{0.05, 0.25, 0.5, 0.75, 0.95}

// MaxEmittedLines bounds the distinct emitted lines a side of a simulation counts: past it
// (a line that prints a running total, a state line per run over millions of runs) the lines
// are no longer counted, and the summary says so. The bound applies to the union of every
// worker's and shard's lines, so whether it is passed does not depend on how the runs were
// spread.
const MaxEmittedLines = 200_000

// maxEmittedLines is MaxEmittedLines, lowered by tests.
var maxEmittedLines = MaxEmittedLines

// reuseRolls is whether the runs of a simulation make their rolls in those of the runs
// before (dsl.Session.ReuseRolls); the tests compare with and without.
var reuseRolls = true

// runChunk is how many consecutive runs a worker takes at once.
const runChunk = 64

// RunSeed is the seed of run i of a simulation seeded with seed: splitmix64 of the i-th
// step of its sequence, so every run has a seed of its own whatever worker or machine runs
// it, and neighbouring runs are unrelated.
func RunSeed(seed uint64, i int64) uint64 {
	return splitmix(seed + uint64(i)*0x9e3779b97f4a7c15)
}

// Variant is one set of rules a simulation runs: a loaded program and its option values.
type Variant struct {
	Prog      *dsl.Program
	Overrides map[string]any
	// Bind gives names the expression uses a value (a sweep's free name), as a REPL `let`.
	Bind map[string]any
}

// SimConfig describes a simulation: Expr run Runs times on A (and, paired seed for seed, on
// B when B is set), run i from the start state with the seed RunSeed(Seed, i).
type SimConfig struct {
	Expr string
	A    Variant
	B    *Variant
	Runs int64
	Seed uint64
	// First and Last bound the slice of runs done, [First, Last) (a shard); Last 0 means
	// every run.
	First, Last int64
	// Workers run in parallel; 0 means runtime.GOMAXPROCS.
	Workers int
	// Done, when set, counts the runs finished, for a progress bar.
	Done *atomic.Int64
	// Progress, when set, is called with the number of runs finished so far each time a
	// worker finishes a chunk of them, one call at a time, from the worker's goroutine: a
	// single-threaded host (WebAssembly), where no other goroutine would get to read Done
	// while the runs go on, reports progress from here.
	Progress func(done int64)
	// LimitRuns is how many runs may fail at a limit of the machine before the simulation
	// stops with an *ErrLimitRuns (0: DefaultLimitRuns; negative: any number, each counted
	// as its outcome).
	LimitRuns int
	// Interrupt, when set and raised, stops the simulation at the next step of a run with
	// an *ErrInterrupted.
	Interrupt *atomic.Bool
}

// Kind orders outcomes: numbers, then booleans, then other values, then failures.
type Kind int

// The kinds of outcomes, in their order.
const (
	KindNumber Kind = iota
	KindBool
	KindValue
	KindError
)

var kindNames = []string{"number", "bool", "value", "error"}

// String names a kind as shard files write it.
func (k Kind) String() string { return kindNames[k] }

// ParseKind reads a kind's name.
func ParseKind(s string) (Kind, bool) {
	i := slices.Index(kindNames, s)
	return Kind(max(i, 0)), i >= 0
}

// RunOutcome is one distinct result of a simulated run: the value returned, or a failure.
type RunOutcome struct {
	Text  string          // dsl.Repr of the value, or "error: MESSAGE"
	Kind  Kind            //
	Num   float64         // a number's value, 0 or 1 for false and true
	Value json.RawMessage // the value as JSON writes it (dsl.ToJSON), the text for a failure
}

// CompareRunOutcomes orders outcomes: numbers ascending, then false before true, then other
// values (an enum's in declaration order) by their text, then failures by their text.
func CompareRunOutcomes(a, b RunOutcome) int {
	return compareRanked(a.Kind, a.Num, a.Text, b.Kind, b.Num, b.Text)
}

// compareRanked is the order of outcomes prob and sim share: by kind, then numbers and
// booleans (false 0, true 1) by value, then by text.
func compareRanked(ka Kind, na float64, ta string, kb Kind, nb float64, tb string) int {
	if ka != kb {
		return cmp.Compare(ka, kb)
	}
	// Values of an enum carry their place in its declaration as their number (0 for other
	// values), so that they come in the order the GM declared.
	if ka == KindNumber || ka == KindBool || ka == KindValue {
		if c := cmp.Compare(na, nb); c != 0 {
			return c
		}
	}
	if ka == KindValue {
		if c, ok := compareCounts(ta, tb); ok {
			return c
		}
	}
	return cmp.Compare(ta, tb)
}

// compareCounts orders two records of whole numbers with the same fields (rolls of record
// dice, `{s: 2, a: 10}`) by their counts, field after field as written: by text, 10 would
// come before 2.
func compareCounts(ta, tb string) (int, bool) {
	if !strings.HasPrefix(ta, "{") || !strings.HasPrefix(tb, "{") {
		return 0, false
	}
	fa, fb := strings.Split(ta[1:len(ta)-1], ", "), strings.Split(tb[1:len(tb)-1], ", ")
	if len(fa) != len(fb) {
		return 0, false
	}
	for i := range fa {
		na, va, ok1 := strings.Cut(fa[i], ": ")
		nb, vb, ok2 := strings.Cut(fb[i], ": ")
		x, err1 := strconv.Atoi(va)
		y, err2 := strconv.Atoi(vb)
		if !ok1 || !ok2 || na != nb || err1 != nil || err2 != nil {
			return 0, false
		}
		if c := cmp.Compare(x, y); c != 0 {
			return c, true
		}
	}
	return 0, true
}

// outcomeOf classifies what a run gave, without its JSON value (see rawJSON). A roll
// counts as its total, or as its face when it is one die of symbols.
func outcomeOf(v any, err error) RunOutcome {
	if r, ok := v.(*dsl.Roll); ok && err == nil {
		if sym := r.Symbol(); sym != "" {
			return RunOutcome{Text: sym, Kind: KindValue}
		}
		v = r.Total
	}
	if err != nil {
		return RunOutcome{Text: "error: " + errMessage(err), Kind: KindError}
	}
	switch x := v.(type) {
	case int:
		return RunOutcome{Text: strconv.Itoa(x), Kind: KindNumber, Num: float64(x)}
	case float64:
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			// The exact shortest text, so that distinct numbers stay distinct and a shard
			// file gives back the very number; a whole float keeps its ".0" as Repr does.
			t := strconv.FormatFloat(x, 'g', -1, 64)
			if !strings.ContainsAny(t, ".eIN") {
				t += ".0"
			}
			return RunOutcome{Text: t, Kind: KindNumber, Num: x}
		}
	case bool:
		o := RunOutcome{Text: strconv.FormatBool(x), Kind: KindBool}
		if x {
			o.Num = 1
		}
		return o
	}
	return RunOutcome{Text: dsl.Repr(v), Kind: KindValue}
}

// rawJSON is v as JSON writes it (dsl.ToJSON, with <, > and & as they are), kept as
// bytes so that a shard file gives back exactly what one machine prints.
func rawJSON(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		b.Reset()
		enc.Encode(fmt.Sprint(v))
	}
	return json.RawMessage(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// Pair is what a run gave on A and on B (B is "" without a comparison), by outcome text.
type Pair struct{ A, B string }

// Tally holds the exact counts of a simulation, or of a slice of it: how many runs gave each
// pair of outcomes, and how many runs emitted each line on each side. Counts are integers
// and merge by addition, so the summaries made from them are the same however the runs were
// spread over workers and machines.
type Tally struct {
	Runs     int64
	Paired   bool                  // B ran beside A
	Outcomes map[string]RunOutcome // by text
	Pairs    map[Pair]int64
	Emitted  [2]map[string]int64 // runs that emitted each line, on A and on B
	// Overflow is set on a side whose distinct lines passed MaxEmittedLines: its Emitted is
	// then empty.
	Overflow [2]bool
	// Failure is the failure of the first run on A, with its position and call stack, when
	// it failed; nil otherwise, and in a tally read back from shard files.
	Failure error
	_       [56]byte // to a multiple of 64 bytes (see worker)
}

// NewTally returns an empty tally.
func NewTally() *Tally {
	return &Tally{Outcomes: map[string]RunOutcome{}, Pairs: map[Pair]int64{},
		Emitted: [2]map[string]int64{{}, {}}}
}

// Merge adds o's counts to t.
func (t *Tally) Merge(o *Tally) {
	t.Runs += o.Runs
	t.Paired = t.Paired || o.Paired
	for k, v := range o.Outcomes {
		if _, ok := t.Outcomes[k]; !ok {
			t.Outcomes[k] = v
		}
	}
	for k, n := range o.Pairs {
		t.Pairs[k] += n
	}
	for side := range t.Emitted {
		t.Overflow[side] = t.Overflow[side] || o.Overflow[side]
		if !t.Overflow[side] {
			for k, n := range o.Emitted[side] {
				t.Emitted[side][k] += n
			}
		}
		t.checkOverflow(side)
	}
}

// checkOverflow drops a side's lines once they are too many.
func (t *Tally) checkOverflow(side int) {
	if len(t.Emitted[side]) > maxEmittedLines {
		t.Overflow[side] = true
	}
	if t.Overflow[side] && len(t.Emitted[side]) > 0 {
		t.Emitted[side] = map[string]int64{}
	}
}

// worker is one goroutine's machines and what it counted.
//
// A worker, its sides and its tally are written at every run. Each is a multiple of 64
// bytes (TestRunStateLayout), so that the allocator, whose size classes of such sizes start
// every object on a 64-byte boundary, never puts two workers' state on one cache line:
// sharing lines so, a run of `d(6) + d(6)` on two workers cost two and a half times what it
// costs on one.
type worker struct {
	sides  []*sideRun
	tally  *Tally
	limits *simLimits
	runs   atomic.Int64 // the runs it started (simLimits.runs)
	_      [80]byte     // to a multiple of 64 bytes
}

// countLines writes into t the runs that emitted each line, as the worker's sides counted
// them, once its runs are done: straight into the total, not into the worker's tally and
// then again into the total (a line is hashed once less; the total overflows as merging
// the worker's lines would have made it overflow).
func (w *worker) countLines(t *Tally) {
	for i, r := range w.sides {
		t.Overflow[i] = t.Overflow[i] || r.overflow
		if !t.Overflow[i] {
			for _, k := range r.lines {
				if k.runs > 0 {
					t.Emitted[i][k.line] += k.runs
				}
			}
		}
		t.checkOverflow(i)
	}
}

// simLimits counts, over every worker, the runs that reached a limit of the machine, and
// stops them all at the last one allowed (see DefaultLimitRuns).
type simLimits struct {
	max int64 // negative: any number
	// workers count the runs, each its own: one count for all of them moved its cache line
	// between the cores at every run (about 80 ns a run on two workers).
	workers  []*worker
	hits     atomic.Int64
	stop     atomic.Bool // every worker leaves at its next run
	mu       sync.Mutex
	first    *ErrLimitRuns // the hit of the lowest run, once there is one
	firstRun int64
}

// see notes run's side i, which gave err having reached limit ("" for none), and returns
// the error that stops the simulation.
func (l *simLimits) see(run int64, side int, r *sideRun) error {
	m := r.s.M
	if m.Interrupted() {
		l.stop.Store(true)
		return &ErrInterrupted{Runs: l.runs()}
	}
	limit := m.LimitReached()
	if r.err == nil || limit == "" || l.max < 0 {
		return nil
	}
	n := l.hits.Add(1)
	l.mu.Lock()
	if l.first == nil || run < l.firstRun {
		l.first, l.firstRun = &ErrLimitRuns{Limit: limit, Err: r.err}, run
		if side > 0 {
			l.first.Side = "B"
		}
	}
	l.mu.Unlock()
	if n < max(l.max, 1) {
		return nil
	}
	l.stop.Store(true)
	return errLimitStop
}

// runs is how many runs the workers have started.
func (l *simLimits) runs() int64 {
	var n int64
	for _, w := range l.workers {
		n += w.runs.Load()
	}
	return n
}

// errLimitStop is what a worker stopped by simLimits returns; Simulate replaces it with
// simLimits' own error.
var errLimitStop = errors.New("too many runs reached a limit")

// err is the error a simulation stopped by too many runs at a limit returns.
func (l *simLimits) err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := *l.first
	e.Hits, e.Runs = int(l.hits.Load()), l.runs()
	return &e
}

// sideRun is one variant on one worker: its session, compiled expression and the lines
// emitted during the current run.
type sideRun struct {
	known map[string]RunOutcome // the worker's outcomes so far
	s     *dsl.Session
	c     *dsl.Compiled
	// names holds the distinct lines emitted so far (at most maxEmittedLines), by their
	// index in lines, so that a line emitted again in a later run is not made a string
	// again (most runs repeat lines). One look-up counts a line: each knownLine keeps the
	// number of runs that emitted it and the last of them (stamp, the current run's
	// number), so the line is not hashed a second time into the tally after the run.
	names map[string]int32
	lines []knownLine
	// last is the index in lines of the line emitted last (-1 before any): the line that
	// followed it the time before (knownLine.next) is compared first, as runs mostly emit
	// their lines in the same order, and a line found so is not hashed.
	last  int32
	stamp uint64
	// overflow is set once a run emitted a line past the bound on distinct lines: from
	// then on this side's lines are not counted (the tally's Overflow).
	overflow bool
	out      RunOutcome
	ranks    map[string]int // an enum result's values in declaration order (EnumRanks)
	err      error          // the current run's failure, nil when it succeeded
	watch    failWatch      // the first runs, failing the same way over and over
	_        [40]byte       // to a multiple of 64 bytes (see worker)
}

func newSideRun(v Variant, expr string) (*sideRun, error) {
	m, err := dsl.NewMachine(v.Prog, dice.NewPCG(0), v.Overrides)
	if err != nil {
		return nil, err
	}
	r := &sideRun{s: dsl.NewSession(m), names: map[string]int32{}, last: -1}
	// A run's value is read as it ends (outcomeOf, its JSON when new), never kept: the next
	// run may make its rolls in this one's.
	r.s.ReuseRolls(reuseRolls)
	m.SetEmitBytes(func(b []byte) {
		if r.overflow {
			return
		}
		i := int32(-1)
		if r.last >= 0 {
			if n := r.lines[r.last].next; n >= 0 && r.lines[n].line == string(b) {
				i = n
			}
		}
		if i < 0 {
			var ok bool
			i, ok = r.names[string(b)] // the bytes are not copied to be looked up
			if !ok {
				if len(r.lines) >= maxEmittedLines {
					// A line past the bound: the side's lines are no longer counted. A
					// line emitted while the expression is set up (stamp 0) is in no run.
					r.overflow = r.stamp > 0
					return
				}
				i = int32(len(r.lines))
				line := string(b)
				r.names[line] = i
				r.lines = append(r.lines, knownLine{line: line, next: -1})
			}
			if r.last >= 0 {
				r.lines[r.last].next = i
			}
		}
		r.last = i
		// Once per run: a stamp of 0 (set up, before the runs) counts nothing.
		if k := &r.lines[i]; k.stamp != r.stamp {
			k.stamp = r.stamp
			k.runs++
		}
	})
	if err := bind(r.s, v.Bind); err != nil {
		return nil, err
	}
	if r.c, err = r.s.Compile("<sim>", expr); err != nil {
		return nil, err
	}
	r.ranks = r.c.EnumRanks()
	return r, nil
}

// knownLine is a line of sideRun.names, the number of runs that emitted it, and the number
// of the last of them.
type knownLine struct {
	line  string
	runs  int64
	stamp uint64
	next  int32 // the index of the line emitted after it the last time, or -1
}

// run does one run on this side and keeps its outcome; its lines are counted as they are
// emitted.
func (r *sideRun) run(seed uint64) error {
	r.stamp++
	return r.s.FreshTrial(r.c, seed, func(v any, err error) error {
		r.out = outcomeOf(v, err)
		if r.out.Kind == KindValue && r.ranks != nil {
			r.out.Num = float64(r.ranks[r.out.Text])
		}
		r.err = err
		if _, ok := r.known[r.out.Text]; !ok {
			// A new outcome: its JSON value, read before the state is undone.
			switch {
			case r.out.Kind == KindError:
				r.out.Value = rawJSON(r.out.Text)
			case r.out.Kind == KindNumber:
				r.out.Value = json.RawMessage(r.out.Text)
			default:
				if roll, ok := v.(*dsl.Roll); ok {
					v = roll.Symbol()
				}
				r.out.Value = rawJSON(dsl.ToJSON(v))
				if dsl.IsTally(v) {
					r.out.Value = rawJSON(r.out.Text) // a roll of record dice is keyed by its text
				}
			}
			r.known[r.out.Text] = r.out
		}
		return nil
	})
}

// CheckSim compiles the expression on a machine of each variant, so that a mistake in the
// expression, the files or the options is reported before any run. The error is
// dsl.Diagnostics for the expression, named "<sim>"; B's errors say "in B".
func CheckSim(cfg SimConfig) error {
	if _, err := newSideRun(cfg.A, cfg.Expr); err != nil {
		return err
	}
	if cfg.B != nil {
		if _, err := newSideRun(*cfg.B, cfg.Expr); err != nil {
			return fmt.Errorf("in B: %w", err)
		}
	}
	return nil
}

// Simulate does the runs [First, Last) of a simulation on Workers goroutines, each with a
// machine per variant that every run starts afresh on (dsl.Session.FreshTrial: the state
// undone after each run, the source reseeded and the decks redealt before it), and returns
// their exact counts. Run i gives what `eval --seed RunSeed(Seed, i)` gives on a new machine.
// A run that fails counts as the outcome "error: MESSAGE", unless the first runs of a side
// all fail the same way: an *ErrEveryRunFails (see FailFastRuns).
func Simulate(cfg SimConfig) (*Tally, error) {
	if cfg.Runs < 1 || cfg.Runs > MaxRuns {
		return nil, fmt.Errorf("runs must be between 1 and %d", MaxRuns)
	}
	first, last := cfg.First, cfg.Last
	if last == 0 {
		last = cfg.Runs
	}
	if first < 0 || last > cfg.Runs || first > last {
		return nil, fmt.Errorf("runs [%d, %d) are not within the %d runs", first, last, cfg.Runs)
	}
	n := cfg.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	n = int(min(int64(n), max(1, (last-first+runChunk-1)/runChunk)))
	workers := make([]*worker, n)
	limits := &simLimits{max: int64(cfg.LimitRuns)}
	if limits.max == 0 {
		limits.max = DefaultLimitRuns
	}
	for i := range workers {
		w := &worker{tally: NewTally(), limits: limits}
		for _, v := range append([]Variant{cfg.A}, variants(cfg.B)...) {
			r, err := newSideRun(v, cfg.Expr)
			if err != nil {
				return nil, err
			}
			r.known = w.tally.Outcomes
			r.s.M.SetInterrupt(cfg.Interrupt)
			w.sides = append(w.sides, r)
		}
		workers[i] = w
	}
	limits.workers = workers
	// The first runs, one after the other on the first worker: when they all fail the same
	// way the others would too, and a run may cost its whole step budget (an endless loop
	// that rolls dice). Which runs they are does not depend on the workers.
	w0 := workers[0]
	var failure error
	pre := min(first+FailFastRuns, last)
	for run := first; run < pre; run++ {
		if err := w0.run(run, RunSeed(cfg.Seed, run), true); err != nil {
			if err == errLimitStop {
				err = limits.err()
			}
			return nil, err
		}
		if run == first {
			failure = w0.sides[0].err
		}
	}
	var progressMu sync.Mutex
	var finished int64
	advance := func(k int64) {
		if cfg.Done != nil {
			cfg.Done.Add(k)
		}
		if cfg.Progress != nil {
			progressMu.Lock()
			finished += k
			cfg.Progress(finished)
			progressMu.Unlock()
		}
	}
	advance(pre - first)
	var next atomic.Int64
	next.Store(pre)
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				lo := next.Add(runChunk) - runChunk
				if lo >= last || limits.stop.Load() {
					return
				}
				hi := min(lo+runChunk, last)
				for run := lo; run < hi; run++ {
					if limits.stop.Load() {
						return
					}
					if err := w.run(run, RunSeed(cfg.Seed, run), false); err != nil {
						errs[i] = err
						return
					}
				}
				advance(hi - lo)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err == errLimitStop {
			return nil, limits.err()
		}
	}
	for _, err := range errs {
		var stop *ErrInterrupted
		if errors.As(err, &stop) {
			return nil, err
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	t := NewTally()
	t.Paired = cfg.B != nil
	for _, w := range workers {
		w.countLines(t)
		t.Merge(w.tally)
	}
	t.Failure = failure
	return t, nil
}

func variants(b *Variant) []Variant {
	if b == nil {
		return nil
	}
	return []Variant{*b}
}

// run does run number run with the given seed on every side and counts it. With watch, a
// side whose first runs have all failed the same way stops the simulation (an
// *ErrEveryRunFails); on any run, too many runs at a limit stop it (errLimitStop), and so
// does an interruption.
func (w *worker) run(run int64, seed uint64, watch bool) error {
	var p Pair
	w.runs.Add(1)
	for i, r := range w.sides {
		if err := r.run(seed); err != nil {
			return err
		}
		if watch {
			m := r.s.M
			if err := r.watch.see(r.err, m.Steps(), m.Limits().MaxSteps, false); err != nil {
				if i > 0 {
					err.(*ErrEveryRunFails).Side = "B"
				}
				return err
			}
		}
		if err := w.limits.see(run, i, r); err != nil {
			return err
		}
		if i == 0 {
			p.A = r.out.Text
		} else {
			p.B = r.out.Text
		}
	}
	w.tally.Pairs[p]++
	w.tally.Runs++
	return nil
}
