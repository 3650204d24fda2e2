package dsl

import (
	"math"
	"sort"

	"rulesh/stdlib/tables"
)

// rowIndex finds a table's row without walking the rows, for tables whose keys are all
// constants: exact keys in a map, and bands by binary search when they come in increasing
// order. The answer is always the first matching row in file order, as a walk would give:
// on a shared boundary (1 .. 1.5 then 1.5 .. 2.5) the earlier, lower band wins.
type rowIndex struct {
	exact   map[any]int // a normalised key -> the first row holding it
	bands   []tables.Band
	bandRow []int // row of each band
	sorted  bool  // bands rise in both ends: binary search applies
	elseRow int   // the first else row, or -1
}

// newRowIndex indexes constant rows; it returns nil when a key or bound is computed (those
// tables are walked, evaluating each row's key).
func newRowIndex(rows []*TableRow) *rowIndex {
	ix := &rowIndex{exact: map[any]int{}, elseRow: -1, sorted: true}
	for i, r := range rows {
		switch {
		case r.Else:
			if ix.elseRow < 0 {
				ix.elseRow = i
			}
		case r.Band != nil:
			b, ok := r.Band.constant()
			if !ok {
				return nil
			}
			if n := len(ix.bands); n > 0 && !(lowerKeyLE(ix.bands[n-1], b) && upperKeyLE(ix.bands[n-1], b)) {
				ix.sorted = false
			}
			ix.bands = append(ix.bands, b)
			ix.bandRow = append(ix.bandRow, i)
		default:
			for _, x := range r.Exact {
				if !x.isLit {
					return nil
				}
				k, ok := indexKey(x.lit)
				if !ok {
					return nil
				}
				if _, seen := ix.exact[k]; !seen {
					ix.exact[k] = i
				}
			}
		}
	}
	return ix
}

// lookup returns the first row matching key, or -1.
func (ix *rowIndex) lookup(key any) int {
	best := ix.elseRow
	better := func(i int) {
		if i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	if k, ok := indexKey(key); ok {
		if i, ok := ix.exact[k]; ok {
			better(i)
		}
	}
	v, isNum := number(key)
	if !isNum || len(ix.bands) == 0 {
		return best
	}
	if ix.sorted {
		// The first band whose upper end admits v is the only one that may hold it: the
		// ones before end below v, the ones after start no lower than it.
		j := sort.Search(len(ix.bands), func(j int) bool { return admitsBelow(ix.bands[j], v) })
		if j < len(ix.bands) && ix.bands[j].Contains(v) {
			better(ix.bandRow[j])
		}
		return best
	}
	for j, b := range ix.bands {
		if b.Contains(v) {
			better(ix.bandRow[j])
			break
		}
	}
	return best
}

// indexKey normalises a key as equalKeys compares them: a roll by its symbol or total, every
// number as a float64; strings and booleans as they are. Other values are never equal to a
// constant key.
func indexKey(v any) (any, bool) {
	if r, ok := v.(*Roll); ok {
		if s := r.Symbol(); s != "" {
			return s, true
		}
		return float64(r.Total), true
	}
	if f, ok := number(v); ok {
		return f, true
	}
	switch v.(type) {
	case string, bool:
		return v, true
	}
	return nil, false
}

// admitsBelow reports whether v is not above the band's upper end.
func admitsBelow(b tables.Band, v float64) bool {
	return b.Hi == nil || v < *b.Hi || v == *b.Hi && !b.HiOpen
}

// lowerKeyLE: a's lower end is not above b's (a missing bound is -∞; open is above closed).
func lowerKeyLE(a, b tables.Band) bool {
	al, bl := math.Inf(-1), math.Inf(-1)
	if a.Lo != nil {
		al = *a.Lo
	}
	if b.Lo != nil {
		bl = *b.Lo
	}
	return al < bl || al == bl && (!a.LoOpen || b.LoOpen || a.Lo == nil)
}

// upperKeyLE: a's upper end is not above b's (a missing bound is +∞; open is below closed).
func upperKeyLE(a, b tables.Band) bool {
	ah, bh := math.Inf(1), math.Inf(1)
	if a.Hi != nil {
		ah = *a.Hi
	}
	if b.Hi != nil {
		bh = *b.Hi
	}
	return ah < bh || ah == bh && (a.HiOpen || !b.HiOpen || b.Hi == nil)
}
