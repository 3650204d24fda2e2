package analysis

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// MaxShardSize bounds the bytes of one shard document: `sim --shard` refuses to print a
// longer one and `sim --merge` to read it. A shard holds at most MaxEmittedLines distinct
// lines a side, so only lines of some hundred bytes each come near it.
const MaxShardSize = 64 << 20

// Study names what a simulation ran: shards merge only when their studies are equal.
type Study struct {
	Expr    string   `json:"expr"`
	Runs    int64    `json:"runs"`
	Seed    uint64   `json:"seed"`
	Files   []string `json:"files"`
	Set     []string `json:"set"`
	Compare string   `json:"compare,omitempty"`
	Variant string   `json:"variant,omitempty"`
	// SHA256 is the hash of every rule file read (the includes too), by its path as
	// given: shards of files whose contents differ do not merge.
	SHA256 map[string]string `json:"sha256"`
}

// equal reports whether two studies are the same.
func (s Study) equal(o Study) bool {
	return s.Expr == o.Expr && s.Runs == o.Runs && s.Seed == o.Seed && slices.Equal(s.Files, o.Files) &&
		slices.Equal(s.Set, o.Set) && s.Compare == o.Compare && s.Variant == o.Variant &&
		maps.Equal(s.SHA256, o.SHA256)
}

// HashSources returns the SHA-256 in hex of every file of srcs (a program's sources: the
// files given and their includes), by the path the loader read it at, with forward slashes
// so that shards run on different systems compare.
func HashSources(srcs map[string][]byte) map[string]string {
	out := make(map[string]string, len(srcs))
	for name, b := range srcs {
		sum := sha256Sum(b)
		out[filepath.ToSlash(name)] = hex.EncodeToString(sum[:])
	}
	return out
}

// ShardRange returns the runs [first, last) of shard index (from 1) of n: consecutive
// slices, as equal as can be.
func ShardRange(runs int64, index, n int) (first, last int64) {
	return runs * int64(index-1) / int64(n), runs * int64(index) / int64(n)
}

// ParseShard reads "I/N" (1 ≤ I ≤ N ≤ MaxRuns, both written in decimal digits alone).
func ParseShard(s string) (index, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	index, ok1 := digits(a)
	n, ok2 := digits(b)
	if !ok || !ok1 || !ok2 || n < 1 || n > MaxRuns || index < 1 || index > n {
		return 0, 0, fmt.Errorf("--shard %q: want I/N with 1 ≤ I ≤ N, such as 2/8", s)
	}
	return index, n, nil
}

// digits reads a whole number of at most 10 decimal digits (no sign, no space).
func digits(s string) (int, bool) {
	if s == "" || len(s) > 10 || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// CheckShard refuses more shards than runs: a shard without runs is a slicing mistake.
func CheckShard(runs int64, n int) error {
	if int64(n) > runs {
		return fmt.Errorf("%d shards of %d runs: a shard would do no run; use at most %d shards", n, runs, runs)
	}
	return nil
}

// Shard is the document `sim --shard` prints: the study, which slice of it, and the exact
// counts of that slice.
type Shard struct {
	Shard struct {
		Index int   `json:"index"`
		Of    int   `json:"of"`
		First int64 `json:"first"`
		Last  int64 `json:"last"`
	} `json:"shard"`
	Study
	Paired   bool `json:"paired"`
	Outcomes []struct {
		Text  string          `json:"text"`
		Kind  string          `json:"kind"`
		Value json.RawMessage `json:"value"`
	} `json:"outcomes"`
	Pairs []struct {
		A     string `json:"a"`
		B     string `json:"b,omitempty"`
		Count int64  `json:"count"`
	} `json:"pairs"`
	Emitted struct {
		A         lineCounts `json:"a"`
		B         lineCounts `json:"b,omitempty"`
		OverflowA bool       `json:"overflow_a,omitempty"`
		OverflowB bool       `json:"overflow_b,omitempty"`
	} `json:"emitted"`
	part *Tally // the counts, checked (ReadShard)
}

// lineCounts is a side's emitted lines in a shard document, read with a bound: a side that
// passed MaxEmittedLines holds none, so a document with more is refused as it is decoded,
// before a map of millions of lines is built (a 64 MiB file holds some six million).
type lineCounts map[string]int64

// UnmarshalJSON reads an object of line counts, each line once, at most MaxEmittedLines.
func (m *lineCounts) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		*m = nil
		return nil
	}
	if tok != json.Delim('{') {
		return fmt.Errorf("the lines emitted are not an object of counts")
	}
	out := lineCounts{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		line, _ := tok.(string)
		var n int64
		if err := dec.Decode(&n); err != nil {
			return fmt.Errorf("the line %q is not counted by a whole number", clip(line))
		}
		if _, dup := out[line]; dup {
			return fmt.Errorf("the line %q is counted twice", clip(line))
		}
		if len(out) >= maxEmittedLines {
			return fmt.Errorf("more than %d distinct lines emitted on a side (sim --shard writes none past that)", maxEmittedLines)
		}
		out[line] = n
	}
	*m = out
	return nil
}

// NewShard writes a slice's tally as a shard document.
func NewShard(st Study, index, n int, t *Tally) *Shard {
	sh := &Shard{Study: st, Paired: t.Paired}
	sh.Shard.Index, sh.Shard.Of = index, n
	sh.Shard.First, sh.Shard.Last = ShardRange(st.Runs, index, n)
	var outs []RunOutcome
	for _, o := range t.Outcomes {
		outs = append(outs, o)
	}
	slices.SortFunc(outs, CompareRunOutcomes)
	for _, o := range outs {
		sh.Outcomes = append(sh.Outcomes, struct {
			Text  string          `json:"text"`
			Kind  string          `json:"kind"`
			Value json.RawMessage `json:"value"`
		}{o.Text, o.Kind.String(), o.Value})
	}
	var pairs []Pair
	for p := range t.Pairs {
		pairs = append(pairs, p)
	}
	slices.SortFunc(pairs, func(a, b Pair) int {
		if c := strings.Compare(a.A, b.A); c != 0 {
			return c
		}
		return strings.Compare(a.B, b.B)
	})
	for _, p := range pairs {
		sh.Pairs = append(sh.Pairs, struct {
			A     string `json:"a"`
			B     string `json:"b,omitempty"`
			Count int64  `json:"count"`
		}{p.A, p.B, t.Pairs[p]})
	}
	sh.Emitted.A = t.Emitted[0]
	sh.Emitted.OverflowA, sh.Emitted.OverflowB = t.Overflow[0], t.Overflow[1]
	if t.Paired {
		sh.Emitted.B = t.Emitted[1]
	}
	return sh
}

// ReadShard reads a shard document (at most MaxShardSize bytes: the caller reads no more)
// and checks everything it can alone: the slice is the one its index names, the counts add
// up to its runs exactly, and every count and outcome is one sim --shard could have written.
// Nothing is allocated by a number read from the document: it only grows as it is read.
func ReadShard(data []byte) (*Shard, error) {
	if len(data) > MaxShardSize {
		return nil, fmt.Errorf("a shard is at most %d MiB, this is %d bytes", MaxShardSize>>20, len(data))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var sh Shard
	if err := dec.Decode(&sh); err != nil {
		return nil, fmt.Errorf("not a shard of rulesh sim --shard: %s", jsonProblem(data, err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("not a shard of rulesh sim --shard: more after the document (at byte %d)", dec.InputOffset())
	}
	if sh.Shard.Of < 1 || sh.Expr == "" {
		return nil, fmt.Errorf("not a shard of rulesh sim --shard (no shard index or expression)")
	}
	// Bounds of what sim --shard writes: a hand-edited file must not make the merge
	// allocate without end or divide by no runs.
	if sh.Shard.Of > MaxRuns || sh.Shard.Index < 1 || sh.Shard.Index > sh.Shard.Of {
		return nil, fmt.Errorf("shard %d/%d: want I/N with 1 ≤ I ≤ N ≤ %d", sh.Shard.Index, sh.Shard.Of, MaxRuns)
	}
	if sh.Runs < 1 || sh.Runs > MaxRuns {
		return nil, fmt.Errorf("%d runs: a study has between 1 and %d", sh.Runs, MaxRuns)
	}
	if err := CheckShard(sh.Runs, sh.Shard.Of); err != nil {
		return nil, err
	}
	idx, n := sh.Shard.Index, sh.Shard.Of
	if lo, hi := ShardRange(sh.Runs, idx, n); sh.Shard.First != lo || sh.Shard.Last != hi {
		return nil, fmt.Errorf("shard %d/%d of %d runs should hold runs [%d, %d), not [%d, %d)", idx, n, sh.Runs, lo, hi, sh.Shard.First, sh.Shard.Last)
	}
	if sh.Paired != (sh.Compare != "" || sh.Variant != "") {
		return nil, fmt.Errorf("\"paired\" is %v but the study has %s", sh.Paired, map[bool]string{true: "a B side", false: "no B side (compare or variant)"}[!sh.Paired])
	}
	for name, h := range sh.SHA256 {
		if name == "" || len(h) != 2*sha256Size || strings.Trim(h, "0123456789abcdef") != "" {
			return nil, fmt.Errorf("\"sha256\" of %q is %q, not a SHA-256 in hex", clip(name), clip(h))
		}
	}
	read := sh.Files
	if sh.Variant != "" {
		read = append(slices.Clip(read), sh.Variant)
	}
	for _, f := range read {
		if _, ok := sh.SHA256[filepath.ToSlash(filepath.Clean(f))]; !ok {
			return nil, fmt.Errorf("no \"sha256\" of the rule file %s: a shard of an older rulesh? run the shards again", f)
		}
	}
	runs := sh.Shard.Last - sh.Shard.First
	if !sh.Paired && (len(sh.Emitted.B) > 0 || sh.Emitted.OverflowB) {
		return nil, fmt.Errorf("lines emitted on a B side, in a study without one")
	}
	for _, m := range []map[string]int64{sh.Emitted.A, sh.Emitted.B} {
		for line, k := range m {
			if k < 1 || k > runs {
				return nil, fmt.Errorf("the line %q is counted %d times in a shard of %d runs", clip(line), k, runs)
			}
		}
	}
	part, err := sh.counts()
	if err != nil {
		return nil, err
	}
	sh.part = part
	return &sh, nil
}

// counts checks the outcomes and counts of a shard and returns them as a tally. Each count
// is at least 1 and at most the runs not yet counted, so their int64 sum cannot overflow.
func (sh *Shard) counts() (*Tally, error) {
	want := sh.Shard.Last - sh.Shard.First
	part := NewTally()
	part.Paired = sh.Paired
	for _, o := range sh.Outcomes {
		k, ok := ParseKind(o.Kind)
		if !ok {
			return nil, fmt.Errorf("outcome %q has an unknown kind %q", clip(o.Text), clip(o.Kind))
		}
		if _, dup := part.Outcomes[o.Text]; dup {
			return nil, fmt.Errorf("outcome %q is listed twice", clip(o.Text))
		}
		out := RunOutcome{Text: o.Text, Kind: k, Value: o.Value}
		switch k {
		case KindNumber:
			// sim writes a number's value as its text: the very number, whatever prints it.
			f, err := strconv.ParseFloat(o.Text, 64)
			if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || string(o.Value) != o.Text {
				return nil, fmt.Errorf("outcome %q is not a number written as its value", clip(o.Text))
			}
			out.Num = f
		case KindBool:
			if (o.Text != "true" && o.Text != "false") || string(o.Value) != o.Text {
				return nil, fmt.Errorf("outcome %q is not true or false written as its value", clip(o.Text))
			}
			if o.Text == "true" {
				out.Num = 1
			}
		case KindError:
			if !strings.HasPrefix(o.Text, "error: ") || !bytes.Equal(o.Value, rawJSON(o.Text)) {
				return nil, fmt.Errorf("outcome %q is not a failure written as sim writes one", clip(o.Text))
			}
		default:
			if len(o.Value) == 0 {
				return nil, fmt.Errorf("outcome %q has no value", clip(o.Text))
			}
		}
		part.Outcomes[o.Text] = out
	}
	used := map[string]bool{}
	for _, p := range sh.Pairs {
		if _, ok := part.Outcomes[p.A]; !ok {
			return nil, fmt.Errorf("a count of an outcome %q not listed", clip(p.A))
		}
		if _, ok := part.Outcomes[p.B]; sh.Paired && !ok {
			return nil, fmt.Errorf("a count of an outcome %q not listed", clip(p.B))
		}
		if !sh.Paired && p.B != "" {
			return nil, fmt.Errorf("a count of a B outcome %q, in a study without a B side", clip(p.B))
		}
		pair := Pair{p.A, p.B}
		if _, dup := part.Pairs[pair]; dup {
			return nil, fmt.Errorf("the outcomes %q and %q are counted twice", clip(p.A), clip(p.B))
		}
		if p.Count < 1 {
			return nil, fmt.Errorf("a count of %d (of %q): counts are at least 1", p.Count, clip(p.A))
		}
		if p.Count > want-part.Runs {
			return nil, fmt.Errorf("its counts add up to more than the %d runs of shard %d/%d", want, sh.Shard.Index, sh.Shard.Of)
		}
		part.Pairs[pair] = p.Count
		part.Runs += p.Count
		used[p.A], used[p.B] = true, true
	}
	if part.Runs != want {
		return nil, fmt.Errorf("its counts add up to %d runs, not the %d of shard %d/%d", part.Runs, want, sh.Shard.Index, sh.Shard.Of)
	}
	for _, o := range sh.Outcomes {
		if !used[o.Text] {
			return nil, fmt.Errorf("outcome %q is listed but never counted", clip(o.Text))
		}
	}
	part.Emitted[0] = sh.Emitted.A
	if part.Emitted[0] == nil {
		part.Emitted[0] = map[string]int64{}
	}
	if sh.Emitted.B != nil {
		part.Emitted[1] = sh.Emitted.B
	}
	part.Overflow = [2]bool{sh.Emitted.OverflowA, sh.Emitted.OverflowB}
	return part, nil
}

// jsonProblem says what is wrong with a document in words, with the byte where it is.
func jsonProblem(data []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return "the file is empty"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Sprintf("the document stops short (after %d bytes)", len(data))
	case errors.As(err, &syn):
		return fmt.Sprintf("not JSON at byte %d: %s", syn.Offset, strings.TrimPrefix(syn.Error(), "json: "))
	case errors.As(err, &typ):
		where := "the document"
		if typ.Field != "" {
			where = "\"" + typ.Field + "\""
		}
		return fmt.Sprintf("%s is a JSON %s, not what a shard holds there (at byte %d)", where, typ.Value, typ.Offset)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// Merger adds shards one at a time (a merge holds one shard document at once, not all of
// them) and checks that they are the slices 1..N of one study, each once: their tally is then
// exactly the counts one machine would have made. Every error names the shard's file.
type Merger struct {
	study     Study
	paired    bool
	n         int
	firstName string
	seen      map[int]string // the file of each shard index added
	tally     *Tally
}

// Add checks sh, read from the file name, against the shards added before, and adds its
// counts. A shard not made by ReadShard is checked as ReadShard checks it.
func (m *Merger) Add(name string, sh *Shard) error {
	part := sh.part
	if part == nil {
		var err error
		if part, err = sh.counts(); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
	}
	if m.tally == nil {
		m.study, m.paired, m.n, m.firstName = sh.Study, sh.Paired, sh.Shard.Of, name
		m.seen = map[int]string{}
		m.tally = NewTally()
		m.tally.Paired = sh.Paired
	}
	if !sh.Study.equal(m.study) || sh.Paired != m.paired {
		return fmt.Errorf("%s is a shard of another study than %s: %s", name, m.firstName, diffStudy(m.study, sh.Study))
	}
	idx := sh.Shard.Index
	if sh.Shard.Of != m.n {
		return fmt.Errorf("%s is shard %d/%d, %s is of %d shards: the runs were sliced differently", name, idx, sh.Shard.Of, m.firstName, m.n)
	}
	if idx < 1 || idx > m.n {
		return fmt.Errorf("%s: shard index %d is not within 1..%d", name, idx, m.n)
	}
	if prev, ok := m.seen[idx]; ok {
		return fmt.Errorf("shard %d/%d is given twice (%s and %s): its runs would be counted twice", idx, m.n, prev, name)
	}
	if lo, hi := ShardRange(sh.Runs, idx, m.n); sh.Shard.First != lo || sh.Shard.Last != hi || part.Runs != hi-lo {
		return fmt.Errorf("%s: shard %d/%d should hold the %d runs [%d, %d)", name, idx, m.n, hi-lo, lo, hi)
	}
	for text, o := range part.Outcomes {
		if prev, ok := m.tally.Outcomes[text]; ok && (prev.Kind != o.Kind || !bytes.Equal(prev.Value, o.Value)) {
			return fmt.Errorf("%s: outcome %q is a %s written %s, an earlier shard has a %s written %s", name, clip(text), o.Kind, clip(o.Value), prev.Kind, clip(prev.Value))
		}
	}
	m.seen[idx] = name
	// The slices are disjoint and add up to at most MaxRuns: the sums cannot overflow.
	m.tally.Merge(part)
	return nil
}

// Result checks that every shard 1..N was added and returns the study and the tally of all
// its runs.
func (m *Merger) Result() (Study, *Tally, error) {
	if m.tally == nil {
		return Study{}, nil, fmt.Errorf("no shard given")
	}
	if len(m.seen) < m.n {
		// The first few missing: as many are looked at as were seen, and ten more.
		var missing []string
		for i := 1; i <= m.n && len(missing) < 10; i++ {
			if _, ok := m.seen[i]; !ok {
				missing = append(missing, fmt.Sprintf("%d/%d", i, m.n))
			}
		}
		if k := m.n - len(m.seen); k > len(missing) {
			missing = append(missing, fmt.Sprintf("… (%d in all)", k))
		}
		return Study{}, nil, fmt.Errorf("shard %s missing: the merge needs all %d shards of the study in %s", strings.Join(missing, ", "), m.n, m.firstName)
	}
	if m.tally.Runs != m.study.Runs {
		return Study{}, nil, fmt.Errorf("the shards hold %d runs, not the %d of the study in %s", m.tally.Runs, m.study.Runs, m.firstName)
	}
	return m.study, m.tally, nil
}

// MergeShards merges shards read from the files names (see Merger).
func MergeShards(names []string, shards []*Shard) (Study, *Tally, error) {
	var m Merger
	for i, sh := range shards {
		if err := m.Add(names[i], sh); err != nil {
			return Study{}, nil, err
		}
	}
	return m.Result()
}

// diffStudy says how two studies differ.
func diffStudy(a, b Study) string {
	switch {
	case a.Expr != b.Expr:
		return fmt.Sprintf("expression %q, not %q", clip(b.Expr), clip(a.Expr))
	case a.Seed != b.Seed:
		return fmt.Sprintf("seed %d, not %d", b.Seed, a.Seed)
	case a.Runs != b.Runs:
		return fmt.Sprintf("%d runs, not %d", b.Runs, a.Runs)
	case !slices.Equal(a.Files, b.Files):
		return fmt.Sprintf("files %v, not %v", clip(fmt.Sprint(b.Files)), clip(fmt.Sprint(a.Files)))
	case !slices.Equal(a.Set, b.Set):
		return fmt.Sprintf("options %v, not %v", clip(fmt.Sprint(b.Set)), clip(fmt.Sprint(a.Set)))
	case !maps.Equal(a.SHA256, b.SHA256):
		return diffHashes(a.SHA256, b.SHA256)
	}
	return fmt.Sprintf("comparison %q/%q, not %q/%q", clip(b.Compare), clip(b.Variant), clip(a.Compare), clip(a.Variant))
}

// diffHashes names the first rule file (in the order of paths) whose contents differ.
func diffHashes(a, b map[string]string) string {
	names := slices.Sorted(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	for _, k := range names {
		ha, oka := a[k]
		hb, okb := b[k]
		switch {
		case !oka:
			return fmt.Sprintf("it read the rule file %s, which the other did not", k)
		case !okb:
			return fmt.Sprintf("it did not read the rule file %s", k)
		case ha != hb:
			return fmt.Sprintf("the rule file %s differs (sha256 %.12s…, not %.12s…)", k, hb, ha)
		}
	}
	return "the same rule files"
}

// clip is a text of a shard document quoted in a message: cut to its first 60 characters,
// so that a hostile file's megabyte of text does not become a megabyte of message.
type clip string

// Format writes the text cut, quoted for %q.
func (c clip) Format(f fmt.State, verb rune) {
	s, k := string(c), 0
	for i := range s {
		if k == 60 {
			s = s[:i] + "…"
			break
		}
		k++
	}
	if verb == 'q' {
		s = strconv.Quote(s)
	}
	io.WriteString(f, s)
}
