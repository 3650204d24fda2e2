package dice

import (
	"errors"
	"fmt"
	"maps"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Record dice are the narrative dice of Genesys and FFG's Star Wars: each face is a record
// of counts (`{s: 1, a: 1}`: a success and an advantage), and a roll of several of them
// adds the counts field by field, a missing field counting 0. Their sum has no number, so
// the notation takes them alone, added with + to other record dice, without modifiers; the
// exact odds of a sum are the convolution of the dice's joint distributions of counts
// (Joint), not a list of every face.

// Limits of the joint distribution of a sum of record dice.
const (
	// MaxJointOutcomes bounds the distinct vectors of counts a sum may reach.
	MaxJointOutcomes = 2_000_000
	// maxJointWork bounds the products of outcomes by faces the convolution makes.
	maxJointWork = 200_000_000
	// bigStepCost is what one step of the convolution on big numbers costs beyond its
	// words, in steps on words (measured: an allocation, a multiplication and an addition).
	bigStepCost = 8
)

// RecordFace is one face of a record die as declared: its fields in the order written.
type RecordFace struct {
	Fields []string
	Counts []int
}

// NewRecordDie declares a die whose faces are records of counts. A face may leave a field
// out (it counts 0); a field named twice on one face is an error.
func NewRecordDie(name string, faces []RecordFace) (*Die, error) {
	if len(faces) < 1 {
		return nil, fmt.Errorf("die %s has no face", name)
	}
	if len(faces) > MaxSides {
		return nil, fmt.Errorf("die %s has more than %d faces", name, MaxSides)
	}
	d := &Die{Name: name, Record: true, Faces: make([]Face, len(faces)), Counts: make([][]int, len(faces))}
	index := map[string]int{}
	for _, f := range faces {
		for _, n := range f.Fields {
			if _, ok := index[n]; !ok {
				index[n] = len(d.Fields)
				d.Fields = append(d.Fields, n)
			}
		}
	}
	for i, f := range faces {
		counts := make([]int, len(d.Fields))
		seen := map[string]bool{}
		for k, n := range f.Fields {
			if seen[n] {
				return nil, fmt.Errorf("face %d of die %s names %s twice", i+1, name, n)
			}
			seen[n] = true
			counts[index[n]] = f.Counts[k]
		}
		d.Counts[i] = counts
		d.Faces[i] = Face{Value: i + 1, Rec: RecordText(d.Fields, counts, false)}
	}
	return d, nil
}

// RecordText writes counts of fields as a record: `{s: 2, a: 1}`; without all, the fields
// at 0 are left out (a face reads `{a: 1}`, the blank face `{}`).
func RecordText(fields []string, counts []int, all bool) string {
	var b strings.Builder
	b.WriteByte('{')
	n := 0
	for i, f := range fields {
		if counts[i] == 0 && !all {
			continue
		}
		if n > 0 {
			b.WriteString(", ")
		}
		n++
		b.WriteString(f)
		b.WriteString(": ")
		b.WriteString(strconv.Itoa(counts[i]))
	}
	b.WriteByte('}')
	return b.String()
}

// ParseRecordText reads a record written as RecordText writes it (`{s: 1, a: 1}`, blanks
// optional): the fields and their counts; false when it is not one.
func ParseRecordText(s string) (map[string]int, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}' {
		return nil, false
	}
	out := map[string]int{}
	body := strings.TrimSpace(s[1 : len(s)-1])
	if body == "" {
		return out, true
	}
	for _, part := range strings.Split(body, ",") {
		name, val, ok := strings.Cut(part, ":")
		name = strings.TrimSpace(name)
		if !ok || !isName(name) {
			return nil, false
		}
		v, err := strconv.Atoi(strings.TrimSpace(val))
		if err != nil {
			return nil, false
		}
		if _, dup := out[name]; dup {
			return nil, false
		}
		out[name] = v
	}
	return out, true
}

// FaceOfRecord returns the index (1-based) of the first face of a record die whose counts
// are rec's (a field rec leaves out counts 0), or 0 when the die has none.
func (d *Die) FaceOfRecord(rec map[string]int) int {
	for name := range rec {
		if !slices.Contains(d.Fields, name) && rec[name] != 0 {
			return 0
		}
	}
	for i, counts := range d.Counts {
		same := true
		for j, f := range d.Fields {
			if counts[j] != rec[f] {
				same = false
				break
			}
		}
		if same {
			return i + 1
		}
	}
	return 0
}

// recordSum is a sum of record dice terms: the dice, the union of their fields, and the
// joint distribution, computed once when first asked.
type recordSum struct {
	terms  []*Dice
	fields []string
	// cols maps each term's die's fields to their column in fields.
	cols [][]int
	once sync.Once
	j    *Joint
	err  error
	// whole is the text of the sum this is a group of (productOfGroups), for its errors;
	// counted is set when the whole's records were counted already.
	whole   string
	counted bool
}

// recordTerms returns the terms of a sum of record dice, nil when n has no record die, or
// an error placed where a record die meets anything but + and another record die.
func recordTerms(n Node) ([]*Dice, error) {
	if !hasRecord(n) {
		return nil, nil
	}
	var terms []*Dice
	var walk func(Node) error
	walk = func(n Node) error {
		switch x := n.(type) {
		case *Dice:
			if !x.Die.Record {
				return &Error{x.At + 1, fmt.Sprintf("%s has numbers for faces and record dice have records: they do not add up (declare it with records of counts)", x.Text)}
			}
			if !reflect.ValueOf(x.Mods).IsZero() {
				// A group of one term ({2dability}kh1) carries its modifiers to the term.
				return &Error{x.At + 1, fmt.Sprintf("%s: %s has faces that are records of counts: it takes no modifier", x.Text, x.Die.Name)}
			}
			terms = append(terms, x)
			return nil
		case *Bin:
			if x.Op != '+' {
				return &Error{x.At + 1, fmt.Sprintf("record dice are added with + only, not %c: a record has no number (give faces of another field a negative meaning, and compare fields: r.s - r.f)", x.Op)}
			}
			if err := walk(x.L); err != nil {
				return err
			}
			return walk(x.R)
		case *Cmp:
			return &Error{x.At + 1, fmt.Sprintf("a roll of record dice has no order (%s): compare one of its fields, as r.s >= 1 in a rule", x.Op)}
		}
		return &Error{n.pos() + 1, fmt.Sprintf("record dice are added with + to other record dice only, not to %s", n)}
	}
	if err := walk(n); err != nil {
		return nil, err
	}
	return terms, nil
}

// hasRecord reports whether a record die appears anywhere in n.
func hasRecord(n Node) bool {
	switch x := n.(type) {
	case *Dice:
		return x.Die.Record
	case *Bin:
		return hasRecord(x.L) || hasRecord(x.R)
	case *Neg:
		return hasRecord(x.X)
	case *Cmp:
		return hasRecord(x.L) || hasRecord(x.R)
	case *Group:
		return slices.ContainsFunc(x.Items, hasRecord)
	case *Pool:
		return slices.ContainsFunc(x.Terms, func(t PoolTerm) bool { return t.Dice.Die.Record })
	case *Call:
		return slices.ContainsFunc(x.Args, hasRecord)
	}
	return false
}

func newRecordSum(terms []*Dice) *recordSum {
	s := &recordSum{terms: terms}
	index := map[string]int{}
	for _, t := range terms {
		cols := make([]int, len(t.Die.Fields))
		for i, f := range t.Die.Fields {
			c, ok := index[f]
			if !ok {
				c = len(s.fields)
				index[f] = c
				s.fields = append(s.fields, f)
			}
			cols[i] = c
		}
		s.cols = append(s.cols, cols)
	}
	return s
}

// IsRecord reports whether the expression is a sum of record dice: its roll is a record of
// counts (RollRecord), not a number.
func (e *Expr) IsRecord() bool { return e.rec != nil }

// RecordFields are the fields of a sum of record dice: the union of its dice's fields, in
// the order they are first met. Nil for other expressions.
func (e *Expr) RecordFields() []string {
	if e.rec == nil {
		return nil
	}
	return e.rec.fields
}

// RecordDice is how many dice a sum of record dice rolls.
func (e *Expr) RecordDice() int {
	n := 0
	if e.rec != nil {
		for _, t := range e.rec.terms {
			n += t.Count
		}
	}
	return n
}

// errNotRecord is RollRecord's error on another expression.
var errNotRecord = errors.New("not a sum of record dice")

// RollRecord rolls a sum of record dice from src, die by die in the order written (so that
// hand-given results name the faces in that order), and returns the counts, one per field of
// RecordFields, and the roll as a Result (Total 0; String shows the faces and the record).
func (e *Expr) RollRecord(src Source) ([]int, *Result, error) {
	s := e.rec
	if s == nil {
		return nil, nil, errNotRecord
	}
	counts := make([]int, len(s.fields))
	res := &Result{Expr: e.Src, Record: counts, Fields: s.fields}
	for ti, t := range s.terms {
		tr := TermRoll{Text: t.Text, Dice: make([]DieRoll, 0, t.Count)}
		for range t.Count {
			i, err := RollFace(src, t.Die)
			if err != nil {
				return nil, nil, err
			}
			for k, c := range t.Die.Counts[i-1] {
				counts[s.cols[ti][k]] += c
			}
			tr.Dice = append(tr.Dice, DieRoll{Face: t.Die.Faces[i-1], Value: i})
		}
		res.Terms = append(res.Terms, tr)
	}
	return counts, res, nil
}

// appendRecord shows a roll of record dice: each term with its faces, then the record of
// every field: `2dability [{s: 1}, {a: 2}] = {s: 1, a: 2}`.
func (r *Result) appendRecord(b []byte) []byte {
	for i := range r.Terms {
		if i > 0 {
			b = append(b, " + "...)
		}
		b = appendTerm(b, &r.Terms[i])
	}
	b = append(b, " = "...)
	return append(b, RecordText(r.Fields, r.Record, true)...)
}

// Joint is the distribution of a sum of record dice: its outcomes, vectors of counts (one per
// field of Fields, in lexicographic order), each with a weight out of Total; when the ways to
// roll the dice pass 2^62, the weights are BigCounts out of BigTotal (Counts is nil, Total 0).
type Joint struct {
	Fields    []string
	Vecs      [][]int
	Counts    []uint64
	Total     uint64
	BigCounts []*big.Int
	BigTotal  *big.Int
	cum       []uint64   // cum[i] is the sum of Counts[:i+1]
	bigCum    []*big.Int // the same, of BigCounts
}

// Joint returns the distribution of a sum of record dice, computed once (it is safe to ask
// from several goroutines).
func (e *Expr) Joint() (*Joint, error) {
	if e.rec == nil {
		return nil, errNotRecord
	}
	s := e.rec
	s.once.Do(func() { s.j, s.err = s.joint() })
	return s.j, s.err
}

// Draw picks an outcome by its weight, from rng: its index in Vecs.
func (j *Joint) Draw(rng *rand.Rand) int {
	if j.BigTotal == nil {
		i, _ := slices.BinarySearch(j.cum, rng.Uint64N(j.Total)+1)
		return min(i, len(j.Vecs)-1)
	}
	// A uniform number below BigTotal: random bits of its length, drawn again when over.
	n := j.BigTotal.BitLen()
	words := make([]big.Word, (n+bits.UintSize-1)/bits.UintSize)
	u := new(big.Int)
	for {
		for i := range words {
			words[i] = big.Word(rng.Uint64())
		}
		if extra := len(words)*bits.UintSize - n; extra > 0 {
			words[len(words)-1] &= big.Word(^uint(0) >> extra)
		}
		if u.SetBits(words); u.Cmp(j.BigTotal) < 0 {
			break
		}
	}
	i, _ := slices.BinarySearchFunc(j.bigCum, u, func(c, u *big.Int) int {
		if c.Cmp(u) <= 0 {
			return -1
		}
		return 1
	})
	return min(i, len(j.Vecs)-1)
}

// jointDice returns each die of the sum with its distinct faces, each field's lowest and
// highest count over the sum, and the number of ways to roll the dice.
func (s *recordSum) jointDice() (dies []dieFaces, lo, hi []int, total *big.Int) {
	nf := len(s.fields)
	lo, hi = make([]int, nf), make([]int, nf)
	total = big.NewInt(1)
	for ti, t := range s.terms {
		df := dieFaces{mins: make([]int, nf)}
		first := true
		vec := func(i int) []int {
			v := make([]int, nf)
			for k, c := range t.Die.Counts[i] {
				v[s.cols[ti][k]] = c
			}
			return v
		}
		for i := range t.Die.Counts {
			v := vec(i)
			for k := range nf {
				if first || v[k] < df.mins[k] {
					df.mins[k] = v[k]
				}
			}
			first = false
		}
		seen := map[string]int{}
		for i := range t.Die.Counts {
			v := vec(i)
			for k := range v {
				v[k] -= df.mins[k]
			}
			key := fmt.Sprint(v)
			if at, ok := seen[key]; ok {
				df.ws[at]++
				continue
			}
			seen[key] = len(df.offs)
			df.offs = append(df.offs, v)
			df.ws = append(df.ws, 1)
		}
		maxOff := make([]int, nf)
		for _, o := range df.offs {
			for k := range nf {
				maxOff[k] = max(maxOff[k], o[k])
			}
		}
		for k := range nf {
			lo[k] += t.Count * df.mins[k]
			hi[k] += t.Count * (df.mins[k] + maxOff[k])
		}
		sides := big.NewInt(int64(len(t.Die.Faces)))
		for range t.Count {
			total.Mul(total, sides)
			dies = append(dies, df)
		}
	}
	return dies, lo, hi, total
}

// dieFaces are a die's distinct faces, as offsets from its lowest count in each field of
// the sum, with how many faces show each.
type dieFaces struct {
	mins []int
	offs [][]int
	ws   []uint64
}

// joint convolves the dice one by one. An outcome is a vector of counts packed into one
// integer in mixed radix (each field's range over the whole sum known beforehand), so a
// partial sum is a map from packed vectors to weights, and adding a die adds the packed
// offsets of its distinct faces: the work is outcomes × distinct faces per die. Weights are
// words while the ways to roll the dice fit in 62 bits, big numbers past that.
func (s *recordSum) joint() (*Joint, error) {
	nf := len(s.fields)
	dies, lo, hi, total := s.jointDice()
	// Refuse before any convolution when the records cannot fit: the count of distinct
	// records is at most the product of each field's range, and exactly the product of the
	// supports of independent groups of fields, which supportBound counts when cheap.
	if !s.counted {
		if n, listed := s.supportBound(dies, lo, hi); n > MaxJointOutcomes {
			return nil, s.tooMany(listed)
		}
	}
	// Mixed radix: the first field most significant, so packed order is lexicographic.
	stride := make([]uint64, nf)
	size := uint64(1)
	for k := nf - 1; k >= 0; k-- {
		stride[k] = size
		hiW, loW := bits.Mul64(size, uint64(hi[k]-lo[k]+1))
		if hiW != 0 || loW > 1<<62 {
			return nil, fmt.Errorf("%s: its counts range too widely for exact odds", s.text())
		}
		size = loW
	}
	wide := total.BitLen() > 62
	var acc map[uint64]uint64
	var bigAcc map[uint64]*big.Int
	var err error
	if groups := s.termGroups(); len(groups) > 1 {
		acc, bigAcc, err = s.productOfGroups(groups, lo, stride, wide)
	} else {
		acc, bigAcc, err = s.convolve(dies, stride, wide)
	}
	if err != nil {
		return nil, err
	}
	var keys []uint64
	if wide {
		keys = slices.Collect(maps.Keys(bigAcc))
	} else {
		keys = slices.Collect(maps.Keys(acc))
	}
	slices.Sort(keys)
	j := &Joint{Fields: s.fields, Vecs: make([][]int, len(keys))}
	if wide {
		j.BigTotal, j.BigCounts, j.bigCum = total, make([]*big.Int, len(keys)), make([]*big.Int, len(keys))
	} else {
		j.Total, j.Counts, j.cum = total.Uint64(), make([]uint64, len(keys)), make([]uint64, len(keys))
	}
	flat := make([]int, len(keys)*nf)
	var run uint64
	bigRun := new(big.Int)
	for i, key := range keys {
		if wide {
			j.BigCounts[i] = bigAcc[key]
			bigRun.Add(bigRun, bigAcc[key])
			j.bigCum[i] = new(big.Int).Set(bigRun)
		} else {
			j.Counts[i] = acc[key]
			run += acc[key]
			j.cum[i] = run
		}
		v := flat[i*nf : (i+1)*nf : (i+1)*nf]
		for k := range nf {
			v[k] = lo[k] + int(key/stride[k])
			key %= stride[k]
		}
		j.Vecs[i] = v
	}
	return j, nil
}

// convolve adds the dice one by one to a map from packed vectors to weights (words, or big
// numbers when wide).
func (s *recordSum) convolve(dies []dieFaces, stride []uint64, wide bool) (acc map[uint64]uint64, bigAcc map[uint64]*big.Int, err error) {
	var sides big.Int
	acc = map[uint64]uint64{0: 1}
	if wide {
		bigAcc = map[uint64]*big.Int{0: big.NewInt(1)}
	}
	work := 0
	partial := big.NewInt(1) // a bound on the weights so far: the product of the faces
	var packed []uint64
	var prod big.Int
	for i, df := range dies {
		if i == 0 || !sameFaces(dies[i-1].offs, df.offs, dies[i-1].ws, df.ws) {
			packed = packed[:0]
			for _, o := range df.offs {
				var p uint64
				for k, c := range o {
					p += uint64(c) * stride[k]
				}
				packed = append(packed, p)
			}
		}
		n := len(acc)
		if wide {
			n = len(bigAcc)
		}
		// A step on big numbers allocates and multiplies words: it is charged as many steps on
		// words as it costs (bigStepCost for the allocation, one more per word of the weights).
		cost := 1
		if wide {
			var faces uint64
			for _, w := range df.ws {
				faces += w
			}
			partial.Mul(partial, sides.SetUint64(faces))
			cost = bigStepCost + len(partial.Bits())
		}
		if work += n * len(packed) * cost; work > maxJointWork {
			return nil, nil, fmt.Errorf("%s: the convolution of these dice needs more than %d steps: roll fewer dice, or sample the odds (rulesh sim)", s.text(), maxJointWork)
		}
		if wide {
			next := make(map[uint64]*big.Int, n*2)
			for key, w := range bigAcc {
				for f, p := range packed {
					c := next[key+p]
					if c == nil {
						c = new(big.Int)
						next[key+p] = c
					}
					c.Add(c, prod.Mul(w, sides.SetUint64(df.ws[f])))
				}
			}
			bigAcc = next
		} else {
			next := make(map[uint64]uint64, n*2)
			for key, w := range acc {
				for f, p := range packed {
					next[key+p] += w * df.ws[f]
				}
			}
			acc = next
		}
		if max(len(acc), len(bigAcc)) > MaxJointOutcomes {
			return nil, nil, s.tooMany(true)
		}
	}
	return acc, bigAcc, nil
}

// termGroups splits the terms by the groups of fields they count (fieldGroups): a group's
// dice share no field with another's, so their joint distributions are independent, and
// the whole is their product, computed from each group's convolution alone (20dability +
// 20ddifficulty: two of 861 records, not one of 741,321 grown die by die). Terms without a
// field are a group of their own.
func (s *recordSum) termGroups() [][]*Dice {
	find := s.fieldGroups()
	at := map[int]int{}
	var groups [][]*Dice
	for ti, t := range s.terms {
		g := -1
		if len(s.cols[ti]) > 0 {
			g = find(s.cols[ti][0])
		}
		i, ok := at[g]
		if !ok {
			i = len(groups)
			at[g] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], t)
	}
	return groups
}

// productOfGroups is the distribution of the whole sum as the product of its groups' own:
// each record of the whole is a record of each group, its weight the product of theirs.
func (s *recordSum) productOfGroups(groups [][]*Dice, lo []int, stride []uint64, wide bool) (map[uint64]uint64, map[uint64]*big.Int, error) {
	col := map[string]int{}
	for k, f := range s.fields {
		col[f] = k
	}
	parts := make([]*Joint, len(groups))
	offs := make([][]uint64, len(groups)) // each group's records, packed in the whole's radix
	for g, terms := range groups {
		sub := newRecordSum(terms)
		sub.whole, sub.counted = s.text(), true
		j, err := sub.joint()
		if err != nil {
			return nil, nil, err
		}
		parts[g] = j
		offs[g] = make([]uint64, len(j.Vecs))
		for i, v := range j.Vecs {
			for k, f := range j.Fields {
				offs[g][i] += uint64(v[k]-lo[col[f]]) * stride[col[f]]
			}
		}
	}
	acc, bigAcc := map[uint64]uint64{0: 1}, map[uint64]*big.Int{0: big.NewInt(1)}
	for g, j := range parts {
		if wide {
			next := make(map[uint64]*big.Int, len(bigAcc)*len(j.Vecs))
			for key, w := range bigAcc {
				for i, p := range offs[g] {
					c := j.bigCount(i)
					next[key+p] = c.Mul(c, w)
				}
			}
			bigAcc = next
		} else {
			next := make(map[uint64]uint64, len(acc)*len(j.Vecs))
			for key, w := range acc {
				for i, p := range offs[g] {
					next[key+p] = w * j.Counts[i]
				}
			}
			acc = next
		}
	}
	if wide {
		return nil, bigAcc, nil
	}
	return acc, nil, nil
}

// bigCount is the weight of outcome i as a new big number, whether the weights are words
// or big numbers.
func (j *Joint) bigCount(i int) *big.Int {
	if j.BigTotal == nil {
		return new(big.Int).SetUint64(j.Counts[i])
	}
	return new(big.Int).Set(j.BigCounts[i])
}

// sameFaces reports two dice with the same distinct faces and weights (the dice of one
// term): their packed offsets are computed once.
func sameFaces(a, b [][]int, wa, wb []uint64) bool {
	if len(a) != len(b) || !slices.Equal(wa, wb) {
		return false
	}
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

func (s *recordSum) text() string {
	if s.whole != "" {
		return s.whole
	}
	parts := make([]string, len(s.terms))
	for i, t := range s.terms {
		parts[i] = t.Text
	}
	return strings.Join(parts, " + ")
}

// supportWork bounds the steps supportBound spends listing the records a group of fields
// reaches (set insertions, without weights): past it, the group counts its fields' ranges.
const supportWork = 20_000_000

// supportBound returns a bound on the distinct records a sum of dice reaches, from
// MaxJointOutcomes+1 up meaning "too many". Fields that share no die are independent, so
// the records are the product of each group's; a group's are listed without their weights
// (a set of packed vectors, cheap next to the weighted convolution) when that stays within
// supportWork steps, and bounded by the product of its fields' ranges otherwise.
// listed is false when a group's range stood for its records.
func (s *recordSum) supportBound(dies []dieFaces, lo, hi []int) (n int, listed bool) {
	nf := len(s.fields)
	find := s.fieldGroups()
	bound, listed := 1, true
	for g := range nf {
		if find(g) != g {
			continue
		}
		var fields []int
		for k := range nf {
			if find(k) == g {
				fields = append(fields, k)
			}
		}
		n, ok := groupSupport(dies, fields, lo, hi)
		listed = listed && ok
		if n > MaxJointOutcomes || bound > MaxJointOutcomes/n {
			return MaxJointOutcomes + 1, listed
		}
		bound *= n
	}
	return bound, listed
}

// fieldGroups groups the fields of the sum, two fields of one die being in one group: it
// returns the function giving a field's group (the column of one of its fields).
func (s *recordSum) fieldGroups() func(int) int {
	group := make([]int, len(s.fields))
	for k := range group {
		group[k] = k
	}
	find := func(k int) int {
		for group[k] != k {
			group[k] = group[group[k]]
			k = group[k]
		}
		return k
	}
	for _, cols := range s.cols {
		for _, c := range cols[min(1, len(cols)):] {
			group[find(c)] = find(cols[0])
		}
	}
	return find
}

// groupSupport counts the distinct records of the fields of one group over the dice, or
// bounds them by the product of the fields' ranges (MaxJointOutcomes+1 past the limit).
func groupSupport(dies []dieFaces, fields []int, lo, hi []int) (n int, listed bool) {
	stride := make([]int, len(fields))
	size := 1
	for i := len(fields) - 1; i >= 0; i-- {
		stride[i] = size
		r := hi[fields[i]] - lo[fields[i]] + 1
		if size > MaxJointOutcomes/r {
			size = MaxJointOutcomes + 1
			break
		}
		size *= r
	}
	if size > MaxJointOutcomes {
		return size, false
	}
	// The set of reachable packed vectors, die by die: seen marks them, cur lists them.
	seen := make([]uint32, size)
	cur, next := []int{0}, []int(nil)
	work := 0
	for d, df := range dies {
		var packed []int
		for _, o := range df.offs {
			p := 0
			for i, k := range fields {
				p += o[k] * stride[i]
			}
			packed = append(packed, p)
		}
		slices.Sort(packed)
		if packed = slices.Compact(packed); len(packed) == 1 && packed[0] == 0 {
			continue // no face of this die shows a field of the group
		}
		if work += len(cur) * len(packed); work > supportWork {
			return size, false
		}
		next = next[:0]
		mark := uint32(d + 1)
		for _, c := range cur {
			for _, p := range packed {
				if seen[c+p] != mark {
					seen[c+p] = mark
					next = append(next, c+p)
				}
			}
		}
		cur, next = next, cur
	}
	return len(cur), true
}

// tooMany is the error of a sum of dice whose records are more than exact odds list, saying
// what to do instead; without listed, only the ranges of its fields were counted.
func (s *recordSum) tooMany(listed bool) error {
	if !listed {
		return fmt.Errorf("%s: its fields' ranges allow more than %d different records of counts, past what exact odds list: roll fewer dice, or sample the odds (rulesh sim)", s.text(), MaxJointOutcomes)
	}
	return fmt.Errorf("%s: more than %d different records of counts, past what exact odds list: roll fewer dice, or sample the odds (rulesh sim)", s.text(), MaxJointOutcomes)
}
