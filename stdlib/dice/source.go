// Package dice rolls dice: the sources of random results (seeded or hand-given), dice
// notation, rolling, and exact distributions. It knows nothing of any ruleset.
//
// Exact distributions are fractions with integer weights. Their cost is bounded by MaxWork,
// counted in estimated word operations (about a nanosecond each on the project's machine
// kind), and a computation over the bound stops with ErrTooMuchWork before doing the big
// part. What that allows, measured:
//
//   - sums of n dice (NdS, rerolls, clamps, explosions per die) by n-fold powers of the
//     one-die distribution, squaring from the top down, each convolution in uint64 when no
//     weight can overflow and by one math/big product (Kronecker substitution, Karatsuba)
//     beyond: up to about 1000d10 or 1500d6 (about a second); 2000d6 and 1111d100 are
//     refused at once;
//   - success counting with two outcomes per die (NdS>=T) by binomials directly, up to
//     MaxCount dice (10000d10>=7 in about 0.3 s); with failures (f) by powers as above, up
//     to about 2000d10>=8f1;
//   - keep/drop over hundreds of dice by order statistics, from the kept end when few dice
//     are kept and from the dropped end when few are dropped (keep.go): 300d6kh3 in 0.1 ms,
//     200d6dl1 in 10 ms, 200d6kh100 in about 0.1 s, 1000d6dh2 in about 1.5 s;
//   - MaxOutcomes bounds the support of any intermediate distribution, MaxExactSides the
//     sides of a die, and MaxPairs the products and quotients of two distributions.
package dice

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Source gives die results: Roll returns a face index in [1, sides].
type Source interface {
	Roll(sides int) (int, error)
}

// PCG is the default source: a seeded PCG from math/rand/v2, so a seed replays a session.
//
// Its state lives in the PCG itself, 64 bytes in all, so that the sources of two machines
// never share a cache line: every roll writes the state, and a simulation's workers each
// roll on their own (TestPCGOneCacheLine). A PCG is used by its pointer, never copied (rr
// draws from the src of the PCG it was made in).
type PCG struct {
	seed uint64
	src  rand.PCG
	rr   rand.Rand // draws from src
	_    [24]byte  // to 64 bytes
}

// NewPCG returns a seeded source.
func NewPCG(seed uint64) *PCG {
	p := &PCG{seed: seed}
	p.src.Seed(seed, seed^0x9e3779b97f4a7c15)
	p.rr = *rand.New(&p.src)
	return p
}

// Reseed starts the source again from seed, in place: it then gives what NewPCG(seed) would,
// and rollers that hold it (and use its fast paths) follow. A simulation reseeds one source
// per run rather than making a new one.
func (p *PCG) Reseed(seed uint64) {
	p.src.Seed(seed, seed^0x9e3779b97f4a7c15)
	p.seed = seed
}

// Seed returns the seed the source started from.
func (p *PCG) Seed() uint64 { return p.seed }

// Roll returns a uniform result in [1, sides].
func (p *PCG) Roll(sides int) (int, error) {
	if sides < 1 {
		return 0, fmt.Errorf("a die needs at least one side, got %d", sides)
	}
	return 1 + p.rr.IntN(sides), nil
}

// A JointSource draws a sum of record dice in one weighted draw among the outcomes of its
// joint distribution, returning the outcome's index: the exact odds' source, which thus
// branches once per record of counts, not once per face of each die. Other sources roll
// the dice one by one.
type JointSource interface {
	Joint(j *Joint) (int, error)
}

// Queue gives results entered by hand, in order: numbers, or face names for symbolic dice.
// When they run out it asks Next, or fails if Next is nil.
type Queue struct {
	items []string
	pos   int
	Next  Source
	// Shuffle, when set, is the seeded source for what is not a die (card shuffles), so
	// that hand-given results go to dice only.
	Shuffle Source
	// FromNext counts the results Next gave once the hand-given ones were used up, so that
	// the REPL can say when a roll went on with seeded dice.
	FromNext int
}

// next is Next, counted in FromNext.
func (q *Queue) next() Source {
	q.FromNext++
	return q.Next
}

// NewQueue returns a source that gives the listed results first.
func NewQueue(results []string, fallback Source) *Queue {
	return &Queue{items: append([]string(nil), results...), Next: fallback}
}

// NewIntQueue is NewQueue for numbers.
func NewIntQueue(results []int, fallback Source) *Queue {
	q := &Queue{Next: fallback}
	for _, r := range results {
		q.items = append(q.items, strconv.Itoa(r))
	}
	return q
}

// Push appends hand-given results (the REPL's :rolls).
func (q *Queue) Push(results ...string) { q.items = append(q.items, results...) }

// Clear drops the hand-given results not used yet (the REPL's :rolls clear).
func (q *Queue) Clear() { q.items = q.items[:q.pos] }

// Left returns how many hand-given results are not used yet.
func (q *Queue) Left() int { return len(q.items) - q.pos }

// Pending returns the hand-given results not used yet.
func (q *Queue) Pending() []string { return append([]string(nil), q.items[q.pos:]...) }

// Roll returns the next hand-given result for a die with faces 1..sides.
func (q *Queue) Roll(sides int) (int, error) {
	if q.pos < len(q.items) {
		tok := q.items[q.pos]
		v, err := strconv.Atoi(tok)
		if err != nil || v < 1 || v > sides {
			q.drop()
			return 0, fmt.Errorf("hand-given result %s does not fit a %d-sided die (it is discarded)", tok, sides)
		}
		q.pos++
		return v, nil
	}
	if q.Next != nil {
		return q.next().Roll(sides)
	}
	return 0, fmt.Errorf("no hand-given result left for a %d-sided die", sides)
}

// face returns the index (1-based) of the next hand-given result on a die, matching the
// result against the faces' labels (`-1` on dF, `fusil` on a symbolic die).
func (q *Queue) face(d *Die) (int, bool, error) {
	if q.pos >= len(q.items) {
		if q.Next != nil {
			return 0, false, nil
		}
		return 0, false, fmt.Errorf("no hand-given result left for %s", d.Name)
	}
	tok := q.items[q.pos]
	if d.Record {
		// A face of a record die is named by its place (from 1) or by its record.
		i := 0
		if v, err := strconv.Atoi(tok); err == nil && v >= 1 && v <= len(d.Faces) {
			i = v
		} else if rec, ok := ParseRecordText(tok); ok {
			i = d.FaceOfRecord(rec)
		}
		if i > 0 {
			q.pos++
			return i, true, nil
		}
	} else if d.Standard {
		v, err := strconv.Atoi(tok)
		if err != nil || v < 1 || v > len(d.Faces) {
			q.drop()
			return 0, false, fmt.Errorf("hand-given result %s does not fit %s (1 to %d; it is discarded)", tok, d.Name, len(d.Faces))
		}
		q.pos++
		return v, true, nil
	}
	for i, f := range d.Faces {
		if f.String() == tok {
			q.pos++
			return i + 1, true, nil
		}
	}
	q.drop()
	labels := make([]string, 0, len(d.Faces))
	for _, f := range d.Faces {
		// A face repeated (a die made from a rule repeats a value for its odds) is listed once.
		if l := f.String(); !slices.Contains(labels, l) {
			labels = append(labels, l)
		}
	}
	if d.Record {
		return 0, false, fmt.Errorf("hand-given result %s is not a face of %s (1 to %d, or one of %s; it is discarded)", tok, d.Name, len(d.Faces), strings.Join(uniqStrings(labels), ", "))
	}
	return 0, false, fmt.Errorf("hand-given result %s is not a face of %s (%s; it is discarded)", tok, d.Name, strings.Join(labels, ", "))
}

// drop removes the next hand-given result: one that fits no die is a typo, and keeping it
// would block every later roll.
func (q *Queue) drop() {
	q.items = append(q.items[:q.pos], q.items[q.pos+1:]...)
}

// RollFace rolls one die from any source and returns the face index (1-based).
func RollFace(src Source, d *Die) (int, error) {
	if q, ok := src.(*Queue); ok {
		i, ok, err := q.face(d)
		if err != nil || ok {
			return i, err
		}
		return RollFace(q.next(), d)
	}
	return src.Roll(len(d.Faces))
}

// RollPosition draws a position from 1 to n for what is not a die (an element of a list),
// what naming the draw in messages ("a list of 3"): a hand-given result must be a number
// from 1 to n, else it is discarded as a die's would be.
func RollPosition(src Source, n int, what string) (int, error) {
	if n < 1 {
		return 0, fmt.Errorf("nothing to draw from %s", what)
	}
	q, ok := src.(*Queue)
	if !ok {
		return src.Roll(n)
	}
	if q.pos >= len(q.items) {
		if q.Next != nil {
			return RollPosition(q.next(), n, what)
		}
		return 0, fmt.Errorf("no hand-given result left for a draw from %s", what)
	}
	tok := q.items[q.pos]
	v, err := strconv.Atoi(tok)
	if err != nil || v < 1 || v > n {
		q.drop()
		return 0, fmt.Errorf("hand-given result %s does not fit a draw from %s (1 to %d; it is discarded)", tok, what, n)
	}
	q.pos++
	return v, nil
}

// ShuffleSource returns the seeded source behind src for what is not a die roll (card
// shuffles): src itself when it is seeded, a Queue's Shuffle or the seeded source after its
// hand-given results; nil when there is none.
func ShuffleSource(src Source) Source {
	q, ok := src.(*Queue)
	if !ok {
		return src
	}
	if q.Shuffle != nil {
		return q.Shuffle
	}
	if q.Next != nil {
		return ShuffleSource(q.Next)
	}
	return nil
}

// Mark records how far a source has been consumed, so a failed call can give hand-given
// results back (other sources are not rewound).
func Mark(s Source) int {
	if q, ok := s.(*Queue); ok {
		return q.pos
	}
	return 0
}

// Restore returns a Queue to a Mark.
func Restore(s Source, mark int) {
	if q, ok := s.(*Queue); ok && mark <= len(q.items) {
		q.pos = mark
	}
}

// ParseList reads hand-given results written "7,3,5" or "7 3 5" (numbers, or face names; a
// face of a record die may be its record, `{s: 1, a: 1}`, whose commas and blanks it keeps).
func ParseList(s string) ([]string, error) {
	f, err := splitResults(s)
	if err != nil {
		return nil, err
	}
	for _, x := range f {
		if strings.HasPrefix(x, "{") {
			if _, ok := ParseRecordText(x); !ok {
				return nil, fmt.Errorf("bad die result %q: a record face is written {name: count, …}", x)
			}
			continue
		}
		if _, err := strconv.Atoi(x); err != nil && !isName(x) {
			return nil, fmt.Errorf("bad die result %q: give numbers or face names", x)
		}
	}
	if len(f) == 0 {
		return nil, fmt.Errorf("no result given")
	}
	return f, nil
}

// splitResults cuts a list of results at commas and blanks outside braces; each record
// keeps its text, normalised as RecordText writes it when it reads as one.
func splitResults(s string) ([]string, error) {
	var out []string
	start, depth := -1, 0
	flush := func(end int) {
		if start >= 0 {
			tok := s[start:end]
			if rec, ok := ParseRecordText(tok); ok {
				tok = normalRecord(rec, tok)
			}
			out = append(out, tok)
			start = -1
		}
	}
	for i, r := range s {
		switch {
		case r == '{':
			if depth == 0 {
				flush(i)
				start = i
			}
			depth++
		case r == '}':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("bad die result: a } without its {")
			}
			if depth == 0 {
				flush(i + 1)
			}
		case depth > 0:
		case r == ',' || r == ' ' || r == '\t':
			flush(i)
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if depth > 0 {
		return nil, fmt.Errorf("bad die result %q: a record face ends with }", s[start:])
	}
	flush(len(s))
	return out, nil
}

// normalRecord writes a record result in its fields' order as given, spaced as RecordText
// spaces it: `{s:1,a:1}` is `{s: 1, a: 1}`.
func normalRecord(rec map[string]int, tok string) string {
	body := strings.TrimSpace(tok[1 : len(tok)-1])
	var fields []string
	var counts []int
	if body != "" {
		for _, part := range strings.Split(body, ",") {
			name, _, _ := strings.Cut(part, ":")
			name = strings.TrimSpace(name)
			fields = append(fields, name)
			counts = append(counts, rec[name])
		}
	}
	return RecordText(fields, counts, true)
}

// uniqStrings keeps the first of each string, in order.
func uniqStrings(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func isName(s string) bool {
	for i, r := range s {
		if !isLetter(r) && !(i > 0 && isDigit(r)) {
			return false
		}
	}
	return s != ""
}
