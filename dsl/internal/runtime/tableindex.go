package runtime

import (
	"math"
	"sort"

	"rulesh/stdlib/tables"
)

// RowIndex finds a table's row without walking the rows, for tables whose keys are all
// constants: exact keys in a map, and bands by binary search when they come in increasing
// order. The answer is always the first matching row in file order, as a walk would give:
// on a shared boundary (1 .. 1.5 then 1.5 .. 2.5) the earlier, lower band wins.
type RowIndex struct {
	Exact   map[any]int // a normalised key -> the first row holding it
	Bands   []tables.Band
	BandRow []int // row of each band
	Sorted  bool  // bands rise in both ends: binary search applies
	ElseRow int   // the first else row, or -1
}

// NewRowIndex indexes constant rows; it returns nil when a key or bound is computed (those
// tables are walked, evaluating each row's key).
func NewRowIndex(rows []*TableRow) *RowIndex {
	ix := &RowIndex{Exact: map[any]int{}, ElseRow: -1, Sorted: true}
	for i, r := range rows {
		switch {
		case r.Else:
			if ix.ElseRow < 0 {
				ix.ElseRow = i
			}
		case r.Band != nil:
			b, ok := r.Band.Constant()
			if !ok {
				return nil
			}
			if n := len(ix.Bands); n > 0 && !(lowerKeyLE(ix.Bands[n-1], b) && upperKeyLE(ix.Bands[n-1], b)) {
				ix.Sorted = false
			}
			ix.Bands = append(ix.Bands, b)
			ix.BandRow = append(ix.BandRow, i)
		default:
			for _, x := range r.Exact {
				if !x.IsLit {
					return nil
				}
				k, ok := IndexKey(x.Lit)
				if !ok {
					return nil
				}
				if _, seen := ix.Exact[k]; !seen {
					ix.Exact[k] = i
				}
			}
		}
	}
	return ix
}

// lookup returns the first row matching key, or -1.
func (ix *RowIndex) lookup(key any) int {
	best := ix.ElseRow
	better := func(i int) {
		if i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	// A table of bands alone (a distance's band) has no exact key to look up: the key is not
	// normalised for nothing (IndexKey boxes a number, an allocation for each lookup).
	if len(ix.Exact) > 0 {
		if k, ok := IndexKey(key); ok {
			if i, ok := ix.Exact[k]; ok {
				better(i)
			}
		}
	}
	v, isNum := Number(key)
	if !isNum || len(ix.Bands) == 0 {
		return best
	}
	if ix.Sorted {
		// The first band whose upper end admits v is the only one that may hold it: the
		// ones before end below v, the ones after start no lower than it.
		j := sort.Search(len(ix.Bands), func(j int) bool { return admitsBelow(ix.Bands[j], v) })
		if j < len(ix.Bands) && ix.Bands[j].Contains(v) {
			better(ix.BandRow[j])
		}
		return best
	}
	for j, b := range ix.Bands {
		if b.Contains(v) {
			better(ix.BandRow[j])
			break
		}
	}
	return best
}

// IndexKey normalises a key as equalKeys compares them: a roll by its symbol or total, every
// number as a float64; strings and booleans as they are. Other values are never equal to a
// constant key.
func IndexKey(v any) (any, bool) {
	if r, ok := v.(*Roll); ok {
		if s := r.Symbol(); s != "" {
			return s, true
		}
		return float64(r.Total), true
	}
	if f, ok := Number(v); ok {
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
