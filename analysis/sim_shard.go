package analysis

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Study names what a simulation ran: shards merge only when their studies are equal.
type Study struct {
	Expr    string   `json:"expr"`
	Runs    int64    `json:"runs"`
	Seed    uint64   `json:"seed"`
	Files   []string `json:"files"`
	Set     []string `json:"set"`
	Compare string   `json:"compare,omitempty"`
	Variant string   `json:"variant,omitempty"`
}

// equal reports whether two studies are the same.
func (s Study) equal(o Study) bool {
	return s.Expr == o.Expr && s.Runs == o.Runs && s.Seed == o.Seed && slices.Equal(s.Files, o.Files) &&
		slices.Equal(s.Set, o.Set) && s.Compare == o.Compare && s.Variant == o.Variant
}

// ShardRange returns the runs [first, last) of shard index (from 1) of n: consecutive
// slices, as equal as can be.
func ShardRange(runs int64, index, n int) (first, last int64) {
	return runs * int64(index-1) / int64(n), runs * int64(index) / int64(n)
}

// ParseShard reads "I/N" (1 ≤ I ≤ N).
func ParseShard(s string) (index, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	index, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || n > MaxRuns || index < 1 || index > n {
		return 0, 0, fmt.Errorf("--shard %q: want I/N with 1 ≤ I ≤ N, such as 2/8", s)
	}
	return index, n, nil
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
		A         map[string]int64 `json:"a"`
		B         map[string]int64 `json:"b,omitempty"`
		OverflowA bool             `json:"overflow_a,omitempty"`
		OverflowB bool             `json:"overflow_b,omitempty"`
	} `json:"emitted"`
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

// ReadShard reads a shard document.
func ReadShard(data []byte) (*Shard, error) {
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
	if sh.Paired != (sh.Compare != "" || sh.Variant != "") {
		return nil, fmt.Errorf("\"paired\" is %v but the study has %s", sh.Paired, map[bool]string{true: "a B side", false: "no B side (compare or variant)"}[!sh.Paired])
	}
	for _, m := range []map[string]int64{sh.Emitted.A, sh.Emitted.B} {
		for line, n := range m {
			if n < 1 || n > sh.Shard.Last-sh.Shard.First {
				return nil, fmt.Errorf("the line %q is counted %d times in a shard of %d runs", line, n, sh.Shard.Last-sh.Shard.First)
			}
		}
	}
	return &sh, nil
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

// MergeShards checks that shards are the slices 1..n of one study, each once, and returns
// the study and the tally of all its runs: exactly the counts one machine would have made.
// names are the shards' file names, for messages.
func MergeShards(names []string, shards []*Shard) (Study, *Tally, error) {
	if len(shards) == 0 {
		return Study{}, nil, fmt.Errorf("no shard given")
	}
	first := shards[0]
	n := first.Shard.Of
	seen := make([]string, n+1)
	t := NewTally()
	t.Paired = first.Paired
	for i, sh := range shards {
		if !sh.Study.equal(first.Study) || sh.Paired != first.Paired {
			return Study{}, nil, fmt.Errorf("%s is a shard of another study than %s: %s", names[i], names[0], diffStudy(first.Study, sh.Study))
		}
		if sh.Shard.Of != n {
			return Study{}, nil, fmt.Errorf("%s is shard %d/%d, %s is of %d shards: the runs were sliced differently", names[i], sh.Shard.Index, sh.Shard.Of, names[0], n)
		}
		idx := sh.Shard.Index
		if idx < 1 || idx > n {
			return Study{}, nil, fmt.Errorf("%s: shard index %d is not within 1..%d", names[i], idx, n)
		}
		if seen[idx] != "" {
			return Study{}, nil, fmt.Errorf("shard %d/%d is given twice (%s and %s): its runs would be counted twice", idx, n, seen[idx], names[i])
		}
		seen[idx] = names[i]
		lo, hi := ShardRange(sh.Runs, idx, n)
		if sh.Shard.First != lo || sh.Shard.Last != hi {
			return Study{}, nil, fmt.Errorf("%s: shard %d/%d should hold runs [%d, %d), not [%d, %d)", names[i], idx, n, lo, hi, sh.Shard.First, sh.Shard.Last)
		}
		part := NewTally()
		part.Paired = sh.Paired
		for _, o := range sh.Outcomes {
			k, ok := ParseKind(o.Kind)
			if !ok {
				return Study{}, nil, fmt.Errorf("%s: outcome %q has an unknown kind %q", names[i], o.Text, o.Kind)
			}
			out := RunOutcome{Text: o.Text, Kind: k, Value: o.Value}
			switch k {
			case KindNumber:
				f, err := strconv.ParseFloat(string(o.Value), 64)
				if err != nil {
					return Study{}, nil, fmt.Errorf("%s: outcome %q is not a number", names[i], o.Text)
				}
				out.Num = f
			case KindBool:
				if o.Text == "true" {
					out.Num = 1
				}
			}
			part.Outcomes[o.Text] = out
		}
		var runs int64
		for _, p := range sh.Pairs {
			if _, ok := part.Outcomes[p.A]; !ok {
				return Study{}, nil, fmt.Errorf("%s: a count of an outcome %q not listed", names[i], p.A)
			}
			if _, ok := part.Outcomes[p.B]; sh.Paired && !ok {
				return Study{}, nil, fmt.Errorf("%s: a count of an outcome %q not listed", names[i], p.B)
			}
			if p.Count < 0 {
				return Study{}, nil, fmt.Errorf("%s: a negative count", names[i])
			}
			part.Pairs[Pair{p.A, p.B}] += p.Count
			runs += p.Count
		}
		if runs != hi-lo {
			return Study{}, nil, fmt.Errorf("%s: its counts add up to %d runs, not the %d of shard %d/%d", names[i], runs, hi-lo, idx, n)
		}
		part.Runs = runs
		part.Emitted[0] = sh.Emitted.A
		if sh.Emitted.B != nil {
			part.Emitted[1] = sh.Emitted.B
		}
		part.Overflow = [2]bool{sh.Emitted.OverflowA, sh.Emitted.OverflowB}
		t.Merge(part)
	}
	var missing []string
	for i := 1; i <= n; i++ {
		if seen[i] == "" {
			missing = append(missing, fmt.Sprintf("%d/%d", i, n))
		}
	}
	if len(missing) > 0 {
		return Study{}, nil, fmt.Errorf("shard %s missing: the merge needs all %d shards", strings.Join(missing, ", "), n)
	}
	return first.Study, t, nil
}

// diffStudy says how two studies differ.
func diffStudy(a, b Study) string {
	switch {
	case a.Expr != b.Expr:
		return fmt.Sprintf("expression %q, not %q", b.Expr, a.Expr)
	case a.Seed != b.Seed:
		return fmt.Sprintf("seed %d, not %d", b.Seed, a.Seed)
	case a.Runs != b.Runs:
		return fmt.Sprintf("%d runs, not %d", b.Runs, a.Runs)
	case !slices.Equal(a.Files, b.Files):
		return fmt.Sprintf("files %v, not %v", b.Files, a.Files)
	case !slices.Equal(a.Set, b.Set):
		return fmt.Sprintf("options %v, not %v", b.Set, a.Set)
	}
	return fmt.Sprintf("comparison %q/%q, not %q/%q", b.Compare, b.Variant, a.Compare, a.Variant)
}
