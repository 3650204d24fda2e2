// Package tables holds the generic pieces of lookup tables: numeric bands with explicit
// boundary rules, and odds-ratio columns rounded down. It knows nothing of any ruleset.
package tables

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Band is a numeric interval. A nil bound is open-ended; LoOpen/HiOpen exclude the bound.
type Band struct {
	Lo, Hi         *float64
	LoOpen, HiOpen bool
}

// Contains reports whether v lies in the band.
func (b Band) Contains(v float64) bool {
	if b.Lo != nil && (v < *b.Lo || b.LoOpen && v == *b.Lo) {
		return false
	}
	if b.Hi != nil && (v > *b.Hi || b.HiOpen && v == *b.Hi) {
		return false
	}
	return true
}

func (b Band) String() string {
	var s strings.Builder
	if b.LoOpen || b.Lo == nil {
		s.WriteString("(")
	} else {
		s.WriteString("[")
	}
	if b.Lo != nil {
		s.WriteString(fmtNum(*b.Lo))
	}
	s.WriteString(" .. ")
	if b.Hi != nil {
		s.WriteString(fmtNum(*b.Hi))
	}
	if b.HiOpen || b.Hi == nil {
		s.WriteString(")")
	} else {
		s.WriteString("]")
	}
	return s.String()
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// Overlap reports whether two bands share a value.
func Overlap(a, b Band) bool {
	lo := func(x Band) (float64, bool) {
		if x.Lo == nil {
			return math.Inf(-1), false
		}
		return *x.Lo, x.LoOpen
	}
	hi := func(x Band) (float64, bool) {
		if x.Hi == nil {
			return math.Inf(1), false
		}
		return *x.Hi, x.HiOpen
	}
	alo, aloOpen := lo(a)
	ahi, ahiOpen := hi(a)
	blo, bloOpen := lo(b)
	bhi, bhiOpen := hi(b)
	// a ends before b starts?
	if ahi < blo || ahi == blo && (ahiOpen || bloOpen) {
		return false
	}
	if bhi < alo || bhi == alo && (bhiOpen || aloOpen) {
		return false
	}
	return true
}

// Ratio is an odds column such as 3:2.
type Ratio struct{ Num, Den int }

func (r Ratio) String() string { return fmt.Sprintf("%d:%d", r.Num, r.Den) }

// Value is the ratio as a number.
func (r Ratio) Value() float64 { return float64(r.Num) / float64(r.Den) }

// ParseRatio reads "3:2".
func ParseRatio(s string) (Ratio, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), ":")
	n, err1 := strconv.Atoi(strings.TrimSpace(a))
	d, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n <= 0 || d <= 0 {
		return Ratio{}, fmt.Errorf("%q is not a ratio such as 3:2", s)
	}
	return Ratio{n, d}, nil
}

// Column rounds the odds a/b down to the nearest column (columns in increasing order). It
// returns -1 when the odds are below the first column; odds above the last use the last.
// The comparison is exact on whole numbers: a·den ≥ num·b.
func Column(cols []Ratio, a, b float64) int {
	if b <= 0 {
		if a > 0 {
			return len(cols) - 1
		}
		return -1
	}
	best := -1
	for i, c := range cols {
		lhs, rhs := a*float64(c.Den), b*float64(c.Num)
		if lhs >= rhs || math.Abs(lhs-rhs) <= 1e-9*math.Max(math.Abs(lhs), math.Abs(rhs)) {
			best = i
		}
	}
	return best
}

// Over reports whether the odds a:b are over the last column (strictly: the last column's own
// odds are not over it), for a ratio table's `above` row.
func Over(cols []Ratio, a, b float64) bool {
	if len(cols) == 0 {
		return false
	}
	if b <= 0 {
		return a > 0
	}
	c := cols[len(cols)-1]
	lhs, rhs := a*float64(c.Den), b*float64(c.Num)
	return lhs > rhs && math.Abs(lhs-rhs) > 1e-9*math.Max(math.Abs(lhs), math.Abs(rhs))
}

// Overlaps finds bands that overlap an earlier one, for bands with both bounds. allowed(i, j),
// with i < j, excuses a pair (a shared boundary the caller's rule assigns to one band). It
// returns pairs {i, j}, i < j, at most one per band, in O(n log n) for tables without
// overlaps: bands are swept by lower bound while the one reaching highest so far is kept, so
// a band is compared with that one (and, when the pair is excused, with a few before it).
func Overlaps(bands []Band, allowed func(i, j int) bool) [][2]int {
	order := make([]int, len(bands))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := bands[order[a]], bands[order[b]]
		if *x.Lo != *y.Lo {
			return *x.Lo < *y.Lo
		}
		return !x.LoOpen && y.LoOpen
	})
	// reach[k] is the band reaching highest among order[:k+1].
	reach := make([]int, len(order))
	higher := func(a, b Band) bool { // a's upper end is above b's
		return *a.Hi > *b.Hi || *a.Hi == *b.Hi && !a.HiOpen && b.HiOpen
	}
	var out [][2]int
	pair := func(a, b int) ([2]int, bool) {
		if a > b {
			a, b = b, a
		}
		return [2]int{a, b}, Overlap(bands[a], bands[b]) && !allowed(a, b)
	}
	const scan = 64 // excused neighbours looked past before giving up on a band
	for k, i := range order {
		reach[k] = i
		if k == 0 {
			continue
		}
		if higher(bands[reach[k-1]], bands[i]) {
			reach[k] = reach[k-1]
		}
		top := reach[k-1]
		if !Overlap(bands[top], bands[i]) {
			continue
		}
		if p, bad := pair(top, i); bad {
			out = append(out, p)
			continue
		}
		// The highest band only touches this one where the caller allows it: another band
		// ending at the same point may not be allowed.
		for j := k - 1; j >= 0 && k-j <= scan && Overlap(bands[reach[j]], bands[i]); j-- {
			if p, bad := pair(order[j], i); bad {
				out = append(out, p)
				break
			}
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a][1] != out[b][1] {
			return out[a][1] < out[b][1]
		}
		return out[a][0] < out[b][0]
	})
	return out
}
