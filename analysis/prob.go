package analysis

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"slices"
	"strings"
	"sync/atomic"

	"rulesh/dsl"
)

// DefaultBudget is how many leaves of the tree of draws an exact answer may enumerate
// unless told otherwise (--budget): about a second of a small procedure.
const DefaultBudget = 1_000_000

// MaxBudget bounds the budget of leaves (--budget): a small procedure enumerates about a
// hundred thousand leaves a second, so this is tens of minutes at most, never hours. A
// larger ProbOptions.Budget counts as MaxBudget.
const MaxBudget = 100_000_000

// DrawsPerLeaf bounds the work of an enumeration besides its leaves: at most this many draws
// per leaf of the budget in all. A loop that rolls until a result makes paths ever deeper,
// each leaf costing more than the last; the bound stops it as the budget of leaves would.
const DrawsPerLeaf = 8

// DefaultProbes is how many random runs estimate the size of the tree before enumerating it.
const DefaultProbes = 200

// MaxSamples bounds --samples.
const MaxSamples = 100_000_000

// ProbName is the name an expression of Prob is compiled under, in its diagnostics.
const ProbName = "<prob>"

// Question is what Prob answers: the odds of one expression on a fresh state of the rules.
type Question struct {
	Prog      *dsl.Program   // nil: no rule files
	Overrides map[string]any // option values (--set)
	// Bind gives names the expression uses a value (a sweep's free name), as a REPL `let`.
	Bind map[string]any
	Expr string
	// Emits makes the lines a run emits part of its outcome.
	Emits bool
	// Seed seeds the machine's setup (the decks' first order) and the samples.
	Seed uint64
	// Shuffle shuffles every deck at the start of each run, so that the decks' order is part
	// of the odds as in a fresh game (a 52-card deck is 51 draws: such odds are sampled).
	// Without it the decks keep the order Seed gave them.
	Shuffle bool
	// Interrupt, when set and raised (Ctrl-C in the REPL), stops the analysis at the next
	// step of its run with an *ErrInterrupted.
	Interrupt *atomic.Bool
}

// ProbOptions steer how Prob answers.
type ProbOptions struct {
	Budget  int64 // the most leaves enumerated (0: DefaultBudget; at most MaxBudget)
	Samples int64 // runs when sampling (0: SamplesFor(0.005))
	Exact   bool  // refuse to sample: an error instead
	Probes  int   // random runs of the estimate (0: DefaultProbes)
	// LimitRuns is how many runs may fail at a limit of the machine before the analysis
	// stops (0: DefaultLimitRuns; negative: any number, each counted as its outcome).
	LimitRuns int
	// Note, when set, is told why the answer is sampled rather than exact.
	Note func(string)
	// MaxOutcomes, when set, stops the analysis with an *ErrTooManyOutcomes as soon as its
	// runs have given more distinct outcomes than this (a die made from a rule has at most
	// so many faces: enumerating a million of them only to refuse them cost seconds).
	MaxOutcomes int
}

func (o *ProbOptions) defaults() {
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	o.Budget = min(o.Budget, MaxBudget)
	if o.Samples <= 0 {
		o.Samples = SamplesFor(0.005)
	}
	o.Samples = min(o.Samples, MaxSamples)
	if o.Probes <= 0 {
		o.Probes = DefaultProbes
	}
	if o.LimitRuns == 0 {
		o.LimitRuns = DefaultLimitRuns
	}
}

// Outcome is one outcome of a distribution: a returned value (or a failure), with the lines
// emitted when they were asked for.
type Outcome struct {
	Key   string // what tells outcomes apart: the value's text, the failure, the lines
	Value any    // the value as JSON writes it (dsl.ToJSON); nil for a failure or nothing
	Text  string // the value as a rule writes it (dsl.Repr), or "error: MESSAGE"
	Err   string // the message of a failed run, "" otherwise
	// Failure is the first error of a failed run's outcome, with its position and call stack
	// (a *dsl.RuntimeError for a failure of the rules); nil otherwise.
	Failure error
	Emitted []string // the lines emitted (with Question.Emits)
	Number  float64  // the value, when it is a number
	IsNum   bool
	// Fraction is the exact probability (an exact answer), nil when sampled.
	Fraction *big.Rat
	P        float64 // the probability, or the frequency of a sample
	Count    int64   // how many samples gave it (sampled)
	Lo, Hi   float64 // its 95% Wilson interval (sampled; equal to P when exact)
	// rank is a value's place in its enum's declaration (from 1), 0 for what is not one.
	rank int
}

// Dist is Prob's answer.
type Dist struct {
	Expr     string
	Exact    bool
	Leaves   int64   // the leaves enumerated (exact)
	Samples  int64   // the runs sampled (not exact)
	Estimate float64 // the estimated leaves of the tree of draws
	Outcomes []Outcome
	// Numeric is set when every outcome is a number: Mean and Stddev are then theirs.
	Numeric      bool
	Mean, Stddev float64
	// MeanLo and MeanHi bound the mean with 95% confidence when it is sampled (the normal
	// interval of a mean, Z95 standard errors each side); both equal Mean when exact.
	MeanLo, MeanHi float64
	// CacheHits and CacheMisses count the calls of rules answered from the rule cache and
	// those that ran.
	CacheHits, CacheMisses int

	mean *big.Rat // the exact mean (exact and numeric)
	per  []int32  // the outcome of each sample, in the order of Outcomes (paired comparisons)
}

// ErrTooManyOutcomes is Prob's refusal when its runs gave more distinct outcomes than
// ProbOptions.MaxOutcomes.
type ErrTooManyOutcomes struct {
	Max int
}

func (e *ErrTooManyOutcomes) Error() string {
	return fmt.Sprintf("more than %d different outcomes", e.Max)
}

// ErrTooBig is the error of an exact answer (ProbOptions.Exact) whose tree of draws is over
// the budget.
type ErrTooBig struct {
	Estimate float64 // the estimated leaves
	Budget   int64
	Overran  bool // the enumeration passed the budget (the estimate was low)
	// Unmerged, when not 0, is how many distinct states a call's loop reached before its
	// merged enumeration was given up (past MaxMergeStates: they hardly merge).
	Unmerged int64
}

// Error says how many branches the odds would need, and what to do.
func (e *ErrTooBig) Error() string {
	raise := "raise --budget or leave out --exact to sample"
	if e.Budget >= MaxBudget {
		raise = "the budget is at its most (--budget " + fmt.Sprint(MaxBudget) + "): leave out --exact to sample"
	}
	if e.Overran {
		return fmt.Sprintf("exact odds need more than the budget of %d branches of the dice, or of their draws (estimated %s branches before starting; dice that explode and loops that roll until a result make the tree unbounded)%s; %s", e.Budget, approx(e.Estimate), e.unmerged(), raise)
	}
	return fmt.Sprintf("exact odds need %s branches of the dice, over the budget of %d%s; %s (dice that explode and loops that roll until a result make the tree unbounded)", about(e.Estimate), e.Budget, e.unmerged(), raise)
}

// unmerged says that merging a loop's equal states was tried and given up, or "".
func (e *ErrTooBig) unmerged() string {
	if e.Unmerged == 0 {
		return ""
	}
	return fmt.Sprintf(" (merging the equal states of a loop was given up after %d distinct states: they grow each turn past the bound of %d)", e.Unmerged, MaxMergeStates)
}

// about writes an estimated count of leaves for people, "about N" or, when the product of
// the sides overflowed, "more than 1e308" (the REPL said "about +Inf").
func about(f float64) string {
	if math.IsInf(f, 1) {
		return "more than 1e308"
	}
	return "about " + approx(f)
}

// approx writes a count of leaves for people.
func approx(f float64) string {
	if math.IsInf(f, 1) {
		return "more than 1e308"
	}
	if f < 1e6 {
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprintf("%.2g", f)
}

// runner runs one question's expression, trial after trial, on a machine of its own.
type runner struct {
	q     Question
	src   *pathSource
	sess  *dsl.Session
	c     *dsl.Compiled
	cache *dsl.RuleCache
	lines []string
	index map[string]int32
	ranks map[string]int // an enum result's values in declaration order (EnumRanks)
	outs  []Outcome
	err   error // the last run's failure, nil when it succeeded
	// watch looks at the first runs of each kind (random runs, leaves of an enumeration)
	// failing the same way over and over.
	watch, watchLeaves failWatch

	// reuse turns on the reuse of rule calls (spreadCall), spreads holding each call's
	// distribution; reused counts the calls answered so.
	reuse   bool
	spreads map[any]*spread
	reused  int
	// The work of the current exact attempt: the leaves of the tree, the leaves enumerated
	// for reused calls on their own, all their draws, and the budget they share (over is set
	// when a call's enumeration passed it).
	leaves, nested, draws, limit int64
	over                         bool
	probes                       int // random runs of an estimate (ProbOptions.Probes)
	// merge follows the call being enumerated on its own (merge.go); entities holds the
	// ruleset's entities by identity, emitted counts the lines emitted.
	merge    *merger
	entities map[uintptr]bool
	emitted  int
	turns    int        // turns of loops seen by a merger
	keyed    int        // turns whose state a merger keyed (the others cannot merge)
	limits   limitWatch // every run, and those that reached a limit
	maxOuts  int        // ProbOptions.MaxOutcomes

	// changed is set when a run changed the state before it was undone; peakSteps is the
	// most steps a run took and peakLimit set when one reached a limit (convolve asks).
	changed   bool
	peakSteps int
	peakLimit bool
	// share is set on the runner of a fold's share: it is not folded again.
	share bool
	// unmerged is the most states a merged enumeration kept before it was given up because
	// they passed MaxMergeStates (0: none was).
	unmerged int64
}

// newRunner prepares a machine for q. A compile error is the session's (dsl.Diagnostics).
func newRunner(q Question) (*runner, error) {
	prog := q.Prog
	if prog == nil {
		var diags dsl.Diagnostics
		if prog, diags = dsl.LoadSource("<empty>", nil); prog == nil {
			return nil, diags
		}
	}
	src := newPathSource(q.Seed)
	m, err := dsl.NewMachine(prog, src, q.Overrides)
	if err != nil {
		return nil, err
	}
	src.mode = pathMode
	r := &runner{q: q, src: src, sess: dsl.NewSession(m), index: map[string]int32{}}
	m.SetAsk(nil) // choose follows the ruleset's policy
	m.SetInterrupt(q.Interrupt)
	m.SetEmitBytes(func(line []byte) {
		r.emitted++
		if q.Emits {
			r.lines = append(r.lines, string(line))
		}
	})
	r.cache = &dsl.RuleCache{Drawn: src.drawn, Spread: r.spreadCall, Turn: r.turnHook}
	r.spreads = map[any]*spread{}
	m.SetRuleCache(r.cache)
	if err := bind(r.sess, q.Bind); err != nil {
		return nil, err
	}
	if r.c, err = r.sess.Compile(ProbName, q.Expr); err != nil {
		return nil, err
	}
	r.ranks = r.c.EnumRanks()
	return r, nil
}

// run runs the expression once from the start state and returns its outcome's index.
func (r *runner) run() int32 {
	r.src.start()
	r.lines = r.lines[:0]
	idx := int32(-1)
	var shuffleErr error
	if r.q.Shuffle {
		// Journaled before the trial, undone by its rollback with the rest.
		shuffleErr = r.sess.M.ShuffleDecks()
	}
	r.sess.Trial(r.c, func(v any, err error) error {
		if shuffleErr != nil {
			v, err = nil, shuffleErr
		}
		if roll, ok := v.(*dsl.Roll); ok && err == nil {
			v = rollValue(roll)
		}
		r.err = err
		if r.sess.M.Changed() {
			r.changed = true
		}
		var key, text, msg string
		if err != nil {
			msg = errMessage(err)
			text = "error: " + msg
			key = "\x00" + msg
		} else {
			text = dsl.Repr(v)
			key = text
		}
		if r.q.Emits {
			key += "\x00\x00" + strings.Join(r.lines, "\x00")
		}
		i, ok := r.index[key]
		if !ok {
			o := Outcome{Key: key, Text: text, Err: msg, Failure: err, rank: r.ranks[text]}
			if err == nil {
				o.Value = dsl.ToJSON(v)
				if dsl.IsTally(v) {
					o.Value = text // a roll of record dice is keyed by its text
				}
				o.Number, o.IsNum = number(o.Value)
			}
			if r.q.Emits {
				o.Emitted = append([]string{}, r.lines...)
			}
			i = int32(len(r.outs))
			r.outs = append(r.outs, o)
			r.index[key] = i
		}
		idx = i
		return nil
	})
	return idx
}

// watched runs the expression once, as run, and stops the analysis when its first runs have
// all failed the same way (an *ErrEveryRunFails), when too many runs reached a limit (an
// *ErrLimitRuns), or when it was interrupted (an *ErrInterrupted). ordered is set for the
// leaves of an enumeration (see failWatch.see).
func (r *runner) watched(ordered bool) (int32, error) {
	i := r.run()
	w := &r.watch
	if ordered {
		w = &r.watchLeaves
	}
	m := r.sess.M
	r.peakSteps = max(r.peakSteps, m.Steps())
	if m.LimitReached() != "" {
		r.peakLimit = true
	}
	if err := w.see(r.err, m.Steps(), m.Limits().MaxSteps, ordered); err != nil {
		return i, err
	}
	if r.maxOuts > 0 && len(r.outs) > r.maxOuts {
		return i, &ErrTooManyOutcomes{Max: r.maxOuts}
	}
	return i, r.limits.see(r.err, m.LimitReached(), m.Interrupted())
}

// rollValue is what a returned roll counts as in the odds: the name of a single symbolic
// die's face, else its total (its dice are how it was reached, not another outcome).
func rollValue(r *dsl.Roll) any {
	if sym := r.Symbol(); sym != "" {
		return sym
	}
	return r.Total
}

// errMessage is a failed run's message, without its position.
func errMessage(err error) string {
	var re *dsl.RuntimeError
	if errors.As(err, &re) {
		return re.Msg
	}
	return err.Error()
}

// number returns a JSON value as a number, if it is one.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	}
	return 0, false
}

// estimate returns Knuth's estimate of the leaves of the tree of draws: over random runs,
// the mean of the product of the sides of the draws each made (each product is an unbiased
// estimate of the number of leaves).
// Its first runs all failing the same way stop it with an *ErrEveryRunFails.
func (r *runner) estimate(probes int) (float64, error) {
	r.src.mode = randomMode
	defer func() { r.src.mode = pathMode }()
	sum := 0.0
	for i := range probes {
		r.src.reseed(r.q.Seed^0x5eed, int64(i))
		if _, err := r.watched(false); err != nil {
			return 0, err
		}
		sum += r.src.prod
	}
	return sum / float64(probes), nil
}

// weights accumulates exact probabilities: per outcome, how many leaves had each
// denominator (the product of the sides of their draws), in big numbers only beyond 64 bits.
type weights struct {
	small []map[uint64]uint64
	big   []*big.Rat
}

func (w *weights) add(i int32, num, den uint64, fits bool, s *pathSource) {
	for int(i) >= len(w.small) {
		w.small = append(w.small, map[uint64]uint64{})
		w.big = append(w.big, nil)
	}
	if fits {
		if sum, carry := bits.Add64(w.small[i][den], num, 0); carry == 0 {
			w.small[i][den] = sum
			return
		}
	}
	if w.big[i] == nil {
		w.big[i] = new(big.Rat)
	}
	w.big[i].Add(w.big[i], s.bigWeight())
}

func (w *weights) rat(i int) *big.Rat {
	sum := new(big.Rat)
	if i >= len(w.small) {
		return sum
	}
	dens := make([]uint64, 0, len(w.small[i]))
	for d := range w.small[i] {
		dens = append(dens, d)
	}
	slices.Sort(dens)
	var t big.Rat
	for _, d := range dens {
		t.SetFrac(new(big.Int).SetUint64(w.small[i][d]), new(big.Int).SetUint64(d))
		sum.Add(sum, &t)
	}
	if w.big[i] != nil {
		sum.Add(sum, w.big[i])
	}
	return sum
}

// enumerate visits every leaf of the tree of draws, each run from the start state. It
// returns false when the tree has more than budget leaves, or its leaves drew more than
// DrawsPerLeaf × budget values in all.
func (r *runner) enumerate(budget int64) (*Dist, bool, error) {
	s := r.src
	s.faces, s.sides, s.dists = s.faces[:0], s.sides[:0], s.dists[:0]
	var w weights
	r.leaves, r.draws, r.limit, r.over = 0, 0, budget, false
	for {
		i, err := r.watched(true)
		if err != nil {
			return nil, false, err
		}
		if r.over {
			return nil, false, nil
		}
		if s.broken {
			return nil, false, errDrawSides
		}
		r.leaves++
		r.draws += int64(s.pos)
		if r.draws > budget*DrawsPerLeaf {
			// Before its weight: the product of millions of sides is quadratic work.
			return nil, false, nil
		}
		num, den, fits := s.weight()
		w.add(i, num, den, fits, s)
		if !s.next() {
			break
		}
		if r.leaves+r.nested >= budget {
			return nil, false, nil
		}
	}
	leaves := r.leaves + r.nested
	d := &Dist{Expr: r.q.Expr, Exact: true, Leaves: leaves}
	for i := range r.outs {
		f := w.rat(i)
		if f.Sign() == 0 {
			continue
		}
		o := r.outs[i]
		o.Fraction = f
		o.P, _ = f.Float64()
		o.Lo, o.Hi = o.P, o.P
		d.Outcomes = append(d.Outcomes, o)
	}
	d.finish()
	if d.Numeric {
		d.Mean, d.Stddev, d.mean = exactMoments(d.Outcomes)
		d.MeanLo, d.MeanHi = d.Mean, d.Mean
	}
	return d, true, nil
}

// exactMoments computes the mean and standard deviation of numeric outcomes from their
// fractions, rounding once at the end.
func exactMoments(outs []Outcome) (mean, stddev float64, exact *big.Rat) {
	var m, m2, x, t big.Rat
	for _, o := range outs {
		if x.SetFloat64(o.Number) == nil {
			return 0, 0, nil
		}
		t.Mul(o.Fraction, &x)
		m.Add(&m, &t)
		t.Mul(&t, &x)
		m2.Add(&m2, &t)
	}
	mean, _ = m.Float64()
	t.Mul(&m, &m)
	m2.Sub(&m2, &t)
	v, _ := m2.Float64()
	return mean, math.Sqrt(max(0, v)), &m
}

// sample runs n samples, sample i drawing from a generator seeded by the seed and i. Its
// first runs all failing the same way stop it with an *ErrEveryRunFails.
func (r *runner) sample(n int64) (*Dist, error) {
	r.src.mode = randomMode
	defer func() { r.src.mode = pathMode }()
	per := make([]int32, n)
	for i := range n {
		r.src.reseed(r.q.Seed, i)
		var err error
		if per[i], err = r.watched(false); err != nil {
			return nil, err
		}
	}
	counts := make([]int64, len(r.outs))
	for _, i := range per {
		counts[i]++
	}
	d := &Dist{Expr: r.q.Expr, Samples: n}
	remap := make([]int32, len(r.outs))
	for i := range r.outs {
		remap[i] = -1
		if counts[i] == 0 {
			continue
		}
		o := r.outs[i]
		o.Count = counts[i]
		o.P = float64(counts[i]) / float64(n)
		o.Lo, o.Hi = Wilson(counts[i], n)
		remap[i] = int32(len(d.Outcomes))
		d.Outcomes = append(d.Outcomes, o)
	}
	order := d.finish()
	for i, j := range remap {
		if j >= 0 {
			remap[i] = order[j]
		}
	}
	for k, i := range per {
		per[k] = remap[i]
	}
	d.per = per
	if d.Numeric {
		half := Z95 * d.Stddev / math.Sqrt(float64(n))
		d.MeanLo, d.MeanHi = d.Mean-half, d.Mean+half
	}
	return d, nil
}

// finish sorts the outcomes and computes the moments; it returns the new place of each
// outcome.
func (d *Dist) finish() []int32 {
	idx := make([]int, len(d.Outcomes))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return compareOutcomes(&d.Outcomes[a], &d.Outcomes[b]) })
	sorted := make([]Outcome, len(idx))
	order := make([]int32, len(idx))
	for to, from := range idx {
		sorted[to] = d.Outcomes[from]
		order[from] = int32(to)
	}
	d.Outcomes = sorted
	d.Numeric = len(sorted) > 0
	var m Moments
	for _, o := range sorted {
		if !o.IsNum {
			d.Numeric = false
			break
		}
		m.Add(o.Number, o.P)
	}
	if d.Numeric {
		d.Mean, d.Stddev = m.Mean, m.Stddev()
	}
	return order
}

// rank is an outcome's kind in the shared order (compareRanked), with its number: a
// boolean counts 0 or 1.
func rank(o *Outcome) (Kind, float64) {
	switch {
	case o.Err != "":
		return KindError, 0
	case o.IsNum:
		return KindNumber, o.Number
	}
	if b, ok := o.Value.(bool); ok {
		if b {
			return KindBool, 1
		}
		return KindBool, 0
	}
	return KindValue, float64(o.rank)
}

// compareOutcomes orders outcomes as sim does (compareRanked); ties by emitted lines.
func compareOutcomes(a, b *Outcome) int {
	ka, na := rank(a)
	kb, nb := rank(b)
	if c := compareRanked(ka, na, a.Text, kb, nb, b.Text); c != 0 {
		return c
	}
	return slices.Compare(a.Emitted, b.Emitted)
}

// Prob answers q: exactly, by enumerating every branch of the draws the expression makes
// (dice, pick and shuffle positions, card shuffles; choices follow the ruleset's policy, as
// no one is asked), each branch a trial from the same start state weighted by the product of
// 1/sides of its draws, when Knuth's estimate of the branches is within the budget; by
// sampling otherwise (Note says why), or an *ErrTooBig with opt.Exact. An enumeration that
// passes the budget (the estimate was low) stops and samples. A run that fails is an outcome,
// unless the first runs all fail the same way: an *ErrEveryRunFails (see FailFastRuns).
func Prob(q Question, opt ProbOptions) (*Dist, error) {
	opt.defaults()
	r, err := newRunner(q)
	if err != nil {
		return nil, err
	}
	r.limits.max = opt.LimitRuns
	r.maxOuts = opt.MaxOutcomes
	d, tooBig, err := r.exact(opt)
	if err != nil {
		return nil, err
	}
	if d == nil {
		if d, err = r.fallBack(opt, tooBig); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// exact enumerates the tree of draws when it is within the budget; it returns nil and why
// not when it is not. A tree over the budget is tried again with reuse of rule calls
// (exactReuse) before it is refused.
func (r *runner) exact(opt ProbOptions) (*Dist, *ErrTooBig, error) {
	// A small tree is done before the estimate would be.
	d, ok, err := r.enumerate(min(int64(opt.Probes), opt.Budget))
	if err != nil {
		return nil, nil, err
	}
	est := 0.0
	if !ok {
		if est, err = r.estimate(opt.Probes); err != nil {
			return nil, nil, err
		}
		// A fold of independent shares is their convolution, whatever its tree's size.
		if !r.share {
			if d, err = r.convolve(opt); err != nil || d != nil {
				return d, nil, err
			}
		}
		why := &ErrTooBig{Estimate: est, Budget: opt.Budget}
		reused := false
		if est <= float64(opt.Budget) {
			if est > DefaultBudget {
				// Only a raised budget gets here, where the plain tree costs seconds per
				// million branches: reuse and merging may answer at a fraction of that
				// (sum_loop(10) under --budget 1e8: 1,469 runs, not 6e7), so they go first.
				tried := *why
				if d, est, err = r.exactReuse(opt, &tried); err != nil {
					return nil, nil, err
				}
				if d != nil {
					d.Estimate = est
					d.CacheHits, d.CacheMisses = r.cache.Hits, r.cache.Misses
					return d, nil, nil
				}
				reused, est, why.Unmerged = true, why.Estimate, tried.Unmerged
				note(opt, fmt.Sprintf("enumerating about %s branches of the dice, a few seconds per million", approx(est)))
			}
			if d, ok, err = r.enumerate(opt.Budget); err != nil {
				return nil, nil, err
			}
			why.Overran = true
		}
		if !ok && reused {
			return nil, why, nil
		}
		if !ok {
			if d, est, err = r.exactReuse(opt, why); err != nil || d == nil {
				return nil, why, err
			}
		}
	} else {
		est = float64(d.Leaves)
	}
	d.Estimate = est
	d.CacheHits, d.CacheMisses = r.cache.Hits, r.cache.Misses
	return d, nil, nil
}

// exactReuse enumerates a tree the budget refused again, each call of a rule that can be
// reused (spreadCall) being one weighted draw among its outcomes: the tree then branches on
// what the calls return, not on every die they roll, and a call enumerated once serves every
// later call with the same arguments. It returns nil when no call was reused or the smaller
// tree is still over the budget (why then holds the reused tree's estimate), else the answer
// and the estimate it started from.
func (r *runner) exactReuse(opt ProbOptions, why *ErrTooBig) (*Dist, float64, error) {
	r.reuse, r.probes = true, opt.Probes
	defer func() { r.reuse = false }()
	r.leaves, r.nested, r.draws, r.limit, r.over = 0, 0, 0, opt.Budget, false
	est, err := r.estimate(opt.Probes)
	why.Unmerged = r.unmerged
	if err != nil || r.reused == 0 {
		return nil, 0, err
	}
	// A call whose enumeration passed the budget ran draw by draw in the random runs after
	// it (its own reused calls still weighted draws): the estimate is then that tree's.
	// The estimated tree within half of what the calls enumerated on their own left, as
	// for a call (enumerateCall): a plain tree the budget refused is often one whose
	// estimate runs low, and an overrun spends the budget.
	over := r.over || 2*est+float64(r.nested) > float64(opt.Budget)
	est += float64(r.nested)
	if over {
		*why = ErrTooBig{Estimate: min(est, why.Estimate), Budget: opt.Budget, Unmerged: r.unmerged}
		return nil, 0, nil
	}
	d, ok, err := r.enumerate(opt.Budget)
	if err != nil {
		return nil, 0, err
	}
	if !ok {
		*why = ErrTooBig{Estimate: est, Budget: opt.Budget, Overran: true, Unmerged: r.unmerged}
		return nil, 0, nil
	}
	return d, est, nil
}

// fallBack samples in place of an exact answer the budget refused, saying so, or refuses
// with opt.Exact.
func (r *runner) fallBack(opt ProbOptions, why *ErrTooBig) (*Dist, error) {
	if opt.Exact {
		return nil, why
	}
	if why != nil {
		if why.Overran {
			note(opt, fmt.Sprintf("more than the budget of %d branches of the dice, or of their draws (estimated %s branches; dice that explode and loops that roll until a result make the tree unbounded; --budget raises it)%s: sampling %d runs instead", opt.Budget, approx(why.Estimate), why.unmerged(), opt.Samples))
		} else {
			note(opt, fmt.Sprintf("%s branches of the dice, over the budget of %d (--budget)%s: sampling %d runs instead", about(why.Estimate), opt.Budget, why.unmerged(), opt.Samples))
		}
	}
	d, err := r.sample(opt.Samples)
	if err != nil {
		return nil, err
	}
	if why != nil {
		d.Estimate = why.Estimate
	}
	d.CacheHits, d.CacheMisses = r.cache.Hits, r.cache.Misses
	return d, nil
}

func note(opt ProbOptions, s string) {
	if opt.Note != nil {
		opt.Note(s)
	}
}
