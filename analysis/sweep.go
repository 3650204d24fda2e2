package analysis

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// MaxSweepValues bounds the values of one sweep: each is a whole answer of its own.
const MaxSweepValues = 50

// Sweep is a name and the values it takes in turn, one answer per value: an option of the
// rules (set as --set would), or a free name of the expression (bound to each value as a
// REPL `let` would, before the expression is compiled).
type Sweep struct {
	Name   string
	Values []any // int or float64, in the order given
	// Option is set when Name is an option of the rules (Resolve).
	Option bool
	// Parts, for a grid (Grid), are the two sweeps crossed: Values[i] is then the pair of
	// their value indexes, [2]int.
	Parts []Sweep
}

// MaxGridValues bounds the answers of a grid of two sweeps.
const MaxGridValues = 200

// Grid is the sweep over every pair of a value of a and a value of b, a's values the slower:
// --sweep stat=1..4 --sweep momentum=0,6 answers for stat=1 momentum=0, stat=1 momentum=6,
// stat=2 momentum=0… Its errors are sentences for the user.
func Grid(a, b Sweep) (Sweep, error) {
	if a.Name == b.Name {
		return Sweep{}, fmt.Errorf("%s is swept twice: give its values in one --sweep", a.Name)
	}
	if n := len(a.Values) * len(b.Values); n > MaxGridValues {
		return Sweep{}, fmt.Errorf("%s × %s: %d answers, more than %d, the limit of a grid", a.Name, b.Name, n, MaxGridValues)
	}
	g := Sweep{Name: a.Name + " × " + b.Name, Parts: []Sweep{a, b}}
	for i := range a.Values {
		for j := range b.Values {
			g.Values = append(g.Values, [2]int{i, j})
		}
	}
	return g, nil
}

// Label names value i as a column heads it: NAME=VALUE, or for a grid NAME=VALUE NAME=VALUE.
func (s Sweep) Label(i int) string {
	if s.Parts == nil {
		return s.Name + "=" + s.Text(i)
	}
	ij := s.Values[i].([2]int)
	return s.Parts[0].Label(ij[0]) + " " + s.Parts[1].Label(ij[1])
}

// Cell returns, for a grid, the values of its two sweeps at value i (nil otherwise).
func (s Sweep) Cell(i int) []any {
	if s.Parts == nil {
		return nil
	}
	ij := s.Values[i].([2]int)
	return []any{s.Parts[0].Values[ij[0]], s.Parts[1].Values[ij[1]]}
}

// ParseSweep reads NAME=A..B (every whole number from A to B, both in, A ≤ B) or
// NAME=a,b,c (numbers, in that order), of at most MaxSweepValues values. Its errors are
// sentences for the user.
func ParseSweep(s string) (Sweep, error) {
	name, spec, ok := strings.Cut(s, "=")
	name, spec = strings.TrimSpace(name), strings.TrimSpace(spec)
	if !ok || name == "" {
		return Sweep{}, fmt.Errorf("%q: want NAME=A..B or NAME=a,b,c", s)
	}
	if names, call := dsl.WrittenNames(name); len(names) != 1 || names[0] != name || call {
		return Sweep{}, fmt.Errorf("%q: %q is not a name", s, name)
	}
	sw := Sweep{Name: name}
	if from, to, ok := strings.Cut(spec, ".."); ok {
		a, errA := strconv.ParseInt(strings.TrimSpace(from), 10, 64)
		b, errB := strconv.ParseInt(strings.TrimSpace(to), 10, 64)
		if errA != nil || errB != nil {
			return Sweep{}, fmt.Errorf("%q: a range A..B runs over whole numbers (write a list a,b,c for others)", s)
		}
		if a > b {
			return Sweep{}, fmt.Errorf("%q: the range is empty (%d is above %d)", s, a, b)
		}
		if b-a >= MaxSweepValues || b-a < 0 {
			return Sweep{}, fmt.Errorf("%q: more than %d values, the limit of a sweep", s, MaxSweepValues)
		}
		for k := int64(0); k <= b-a; k++ { // v <= b would never fail at b = MaxInt64
			sw.Values = append(sw.Values, int(a+k))
		}
		return sw, nil
	}
	if spec == "" {
		return Sweep{}, fmt.Errorf("%q: no values (want NAME=A..B or NAME=a,b,c)", s)
	}
	parts := strings.Split(spec, ",")
	if len(parts) > MaxSweepValues {
		return Sweep{}, fmt.Errorf("%q: %d values, more than %d, the limit of a sweep", s, len(parts), MaxSweepValues)
	}
	seen := map[string]bool{}
	for _, p := range parts {
		p = strings.TrimSpace(p)
		v, ok := sweepNumber(p)
		if !ok {
			return Sweep{}, fmt.Errorf("%q: %q is not a number", s, p)
		}
		key := fmt.Sprint(v)
		if seen[key] {
			return Sweep{}, fmt.Errorf("%q: %s is given twice", s, p)
		}
		seen[key] = true
		sw.Values = append(sw.Values, v)
	}
	return sw, nil
}

// sweepNumber reads a whole number as an int, any other finite number as a float64.
func sweepNumber(s string) (any, bool) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil && i >= math.MinInt32 && i <= math.MaxInt32 {
		return int(i), true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || strings.ContainsAny(s, "xXpP_") {
		return nil, false
	}
	return f, true
}

// Text writes value i as the user reads it.
func (s Sweep) Text(i int) string { return sweepLiteral(s.Values[i]) }

// sweepLiteral writes a value as an expression of the language.
func sweepLiteral(v any) string {
	switch x := v.(type) {
	case int:
		return strconv.Itoa(x)
	case float64:
		t := strconv.FormatFloat(x, 'f', -1, 64)
		if !strings.Contains(t, ".") {
			t += ".0"
		}
		return t
	}
	return fmt.Sprint(v)
}

// ErrSweepName is the error of Resolve: the name is neither an option of the rules nor a
// name the expression uses that may be bound.
type ErrSweepName struct{ Msg string }

// Error is the message.
func (e *ErrSweepName) Error() string { return e.Msg }

// Resolve says whether the sweep's name is an option of prog (nil: no rule files) or a name
// of expr to bind, and checks that it can be bound (*ErrSweepName otherwise). A name is the
// expression's when the compiler finds that the expression reads it: a word inside a string
// ("n" != "") is not one.
func (s *Sweep) Resolve(prog *dsl.Program, expr string) error {
	for i := range s.Parts {
		if err := s.Parts[i].Resolve(prog, expr); err != nil {
			return err
		}
	}
	if s.Parts != nil {
		return nil
	}
	if prog != nil {
		if _, ok := prog.Option(s.Name); ok {
			s.Option = true
			return nil
		}
	} else {
		var diags dsl.Diagnostics
		if prog, diags = dsl.LoadSource("<empty>", nil); prog == nil {
			return diags
		}
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(0), nil)
	if err != nil {
		return err
	}
	sess := dsl.NewSession(m)
	// Bound first: a name of the rules (a procedure, a const) cannot be, and saying so is
	// clearer than saying the expression does not read it as a free name.
	if _, err := sess.Let(s.Name, sweepLiteral(s.Values[0])); err != nil {
		var diags dsl.Diagnostics
		if errors.As(err, &diags) && len(diags) > 0 {
			return &ErrSweepName{fmt.Sprintf("--sweep %s: %s", s.Name, diags[0].Summary)}
		}
		return &ErrSweepName{fmt.Sprintf("--sweep %s: %v", s.Name, err)}
	}
	var names []string
	if c, err := sess.Compile(ProbName, expr); err == nil {
		names = c.Names()
	} else {
		// The expression's own mistake, which answering it reports in full, unless the
		// name is not even written in it.
		names, _ = dsl.WrittenNames(expr)
	}
	if !slices.Contains(names, s.Name) {
		return &ErrSweepName{fmt.Sprintf("--sweep %s: %s is not an option of the rules nor a name in the expression", s.Name, s.Name)}
	}
	return nil
}

// set gives the sweep's value i to overrides (an option) or binds (a name), copied.
func (s Sweep) set(overrides, binds map[string]any, i int) (map[string]any, map[string]any) {
	if s.Parts != nil {
		ij := s.Values[i].([2]int)
		o, b := s.Parts[0].set(overrides, binds, ij[0])
		return s.Parts[1].set(o, b, ij[1])
	}
	o, b := cloneMap(overrides), cloneMap(binds)
	if s.Option {
		o[s.Name] = s.Values[i]
	} else {
		b[s.Name] = s.Values[i]
	}
	return o, b
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Question returns q with the sweep's value i.
func (s Sweep) Question(q Question, i int) Question {
	q.Overrides, q.Bind = s.set(q.Overrides, q.Bind, i)
	return q
}

// Variant returns v with the sweep's value i.
func (s Sweep) Variant(v Variant, i int) Variant {
	v.Overrides, v.Bind = s.set(v.Overrides, v.Bind, i)
	return v
}

// ProbSweep answers q once per value of the sweep, in its order: each answer is Prob's
// (exact, or sampled on its own when over the budget, with the same seed for every value).
func ProbSweep(q Question, s Sweep, opt ProbOptions) ([]*Dist, error) {
	out := make([]*Dist, len(s.Values))
	say := opt.Note
	for i := range s.Values {
		o := opt
		if say != nil {
			o.Note = func(msg string) { say(fmt.Sprintf("%s: %s", s.Label(i), msg)) }
		}
		d, err := Prob(s.Question(q, i), o)
		if err != nil {
			return nil, err
		}
		out[i] = d
	}
	return out, nil
}

// SimSweep runs the simulation cfg once per value of the sweep, every value with the same
// seeds run for run (paired: run i draws from the same generator whatever the value).
func SimSweep(cfg SimConfig, s Sweep) ([]*Tally, error) {
	out := make([]*Tally, len(s.Values))
	for i := range s.Values {
		c := cfg
		c.A = s.Variant(cfg.A, i)
		t, err := Simulate(c)
		if err != nil {
			return nil, err
		}
		out[i] = t
	}
	return out, nil
}

// UnionOutcomes lists every outcome of the answers once, sorted as an answer's are.
func UnionOutcomes(ds []*Dist) []Outcome {
	seen := map[string]bool{}
	u := &Dist{}
	for _, d := range ds {
		for _, o := range d.Outcomes {
			if !seen[o.Key] {
				seen[o.Key] = true
				o.Fraction, o.P, o.Count, o.Lo, o.Hi = nil, 0, 0, 0, 0
				u.Outcomes = append(u.Outcomes, o)
			}
		}
	}
	u.finish()
	return u.Outcomes
}

// bind gives each name its value in the session, in the order of the names.
func bind(s *dsl.Session, names map[string]any) error {
	for _, name := range slices.Sorted(maps.Keys(names)) {
		if _, err := s.Let(name, sweepLiteral(names[name])); err != nil {
			return err
		}
	}
	return nil
}
