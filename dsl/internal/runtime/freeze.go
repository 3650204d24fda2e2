package runtime

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"unsafe"

	"rulesh/stdlib/cards"
)

// Consts and option defaults are computed once, at load, and shared by every Machine of the
// Program: their maps, records and lists are frozen. A rule that writes into one fails with
// an error naming the const (instead of changing it for every later run and every other
// Machine), and a record field initialised from one gets its own copy.
//
// The frozen state is a side table keyed by each value's identity (the address of its map
// or of its list's elements), not a flag on the value as in starlark-go: the language's
// lists and maps are plain []any and map[string]any, the types expr-lang indexes, walks and
// type-checks, and a record is a map[string]any too (its kind is a hidden entry shared by
// every record of the kind), so no value has room for a flag. Looking a value up in the
// table is the flag: Frozen reads it, and CheckMutable, which every change in place calls
// first, refuses a frozen value. The package doc says why the values cannot be the runtime's
// own frozen types.

// Freeze records every map and list reachable from the consts' values and the options'
// defaults, with the name of the declaration that holds it. The facade calls it once, after
// checking and before the Program is shared.
func (p *Program) Freeze() {
	p.frozen = map[uintptr]string{}
	for _, o := range p.Options {
		p.freezeValue(o.Default, "option "+o.Name)
	}
	for _, c := range p.Consts {
		p.freezeValue(c.Value, "const "+c.Name)
	}
	for _, e := range p.Enums {
		p.freezeValue(e.List, "enum "+e.Name)
	}
}

func (p *Program) freezeValue(v any, owner string) {
	key, ok := containerKey(v)
	if !ok {
		return
	}
	if _, seen := p.frozen[key]; seen {
		return
	}
	p.frozen[key] = owner
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			p.freezeValue(e, owner)
		}
	case []any:
		for _, e := range x {
			p.freezeValue(e, owner)
		}
	}
}

// containerKey identifies a map or a non-empty list by the memory it shares.
func containerKey(v any) (uintptr, bool) {
	switch x := v.(type) {
	case map[string]any:
		return uintptr(recordPtr(x)), true
	case []any:
		if len(x) > 0 {
			return uintptr(unsafe.Pointer(unsafe.SliceData(x))), true
		}
	}
	return 0, false
}

// Frozen reports whether v is a frozen map, record or list, and names the declaration that
// holds it ("const base"). An empty list is never frozen: it has nothing to change in place,
// and every list that grows is a new one.
func (p *Program) Frozen(v any) (owner string, ok bool) {
	if len(p.frozen) == 0 {
		return "", false
	}
	key, isContainer := containerKey(v)
	if !isContainer {
		return "", false
	}
	owner, ok = p.frozen[key]
	return owner, ok
}

// CheckMutable is the check that every change of a map, a record or a list in place makes
// first, as starlark-go's checkMutable is for its values: nil for a value of the run, and for
// a frozen value the error naming the declaration that holds it. The language changes values
// in place in one place, setEntry (an assignment to a field or an entry); a builtin that
// would change a list or a map it is given must call it too (none does today: they build
// new values).
//
// A machine remembers the containers it found not frozen lately (mutables): the frozen
// values are fixed once the program is frozen and live as long as it does, so a container
// found not frozen then is never frozen, and neither is one made later at its address.
func (m *Machine) CheckMutable(v any) error {
	key, isContainer := containerKey(v)
	if !isContainer {
		return nil
	}
	slot := &m.mutables[mutableSlot(key)]
	if *slot == key {
		return nil
	}
	owner, frozen := m.prog.frozen[key]
	if !frozen {
		if m.prog.frozen != nil {
			*slot = key // only once the program is frozen (Freeze)
		}
		return nil
	}
	return &LangError{Msg: fmt.Sprintf("cannot change a value of %s: it is fixed for every run", owner)}
}

// mutableBits is the log2 of mutableSize.
const mutableBits = 6

// mutableSize is the number of containers a machine remembers as not frozen (CheckMutable).
const mutableSize = 1 << mutableBits

// mutableSlot is the slot of the container at key (its address) in a machine's mutables.
func mutableSlot(key uintptr) uint { return addrSlot(key, 0, mutableBits) }

// Thaw returns v with its frozen maps and lists copied, so a record initialised from a const
// owns what it holds. Lists are walked (they cannot hold themselves); maps that are not
// frozen belong to the run and are kept as they are. Any other value is v: that test is
// inlined where values are assigned, most of them numbers and strings.
func (p *Program) Thaw(v any) any {
	switch v.(type) {
	case map[string]any, []any:
		return p.thaw(v)
	}
	return v
}

func (p *Program) thaw(v any) any {
	if len(p.frozen) == 0 {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		if _, ok := p.frozen[reflect.ValueOf(x).Pointer()]; !ok {
			return v
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = p.Thaw(e)
		}
		return out
	case []any:
		var out []any
		for i, e := range x {
			t := p.Thaw(e)
			if out == nil && !sameContainer(t, e) {
				out = append(make([]any, 0, len(x)), x[:i]...)
			}
			if out != nil {
				out = append(out, t)
			}
		}
		if out != nil {
			return out
		}
	}
	return v
}

func sameContainer(a, b any) bool {
	ka, okA := containerKey(a)
	kb, okB := containerKey(b)
	return okA == okB && ka == kb
}

// Own returns v with every frozen map and list in it copied, and every card (the deck's
// cards belong to the Program), for Go code outside the language, which may change what it
// is given and is not held back by frozenError: unlike Thaw, it copies frozen lists too, and
// it reaches frozen values and cards inside the run's own lists and maps (copying those that
// hold one). A value holding none of them comes back as it is. A pile is the run's own and
// is not copied: its cards stay the deck's.
func (p *Program) Own(v any) any {
	switch v.(type) {
	case int, bool, string, float64, nil:
		return v
	}
	out, _ := p.own(v, map[uintptr]bool{})
	return out
}

// own is Own; changed reports a copy. seen holds the run's maps being walked, which may hold
// themselves.
func (p *Program) own(v any, seen map[uintptr]bool) (out any, changed bool) {
	if c, ok := v.(*cards.Card); ok {
		// A deck's cards are the Program's, shared by every machine's piles.
		cp := *c
		return &cp, true
	}
	key, ok := containerKey(v)
	if !ok {
		return v, false
	}
	if _, frozen := p.frozen[key]; frozen {
		return deepCopy(v), true
	}
	switch x := v.(type) {
	case map[string]any:
		if seen[key] {
			return v, false
		}
		seen[key] = true
		var cp map[string]any
		for k, e := range x {
			if o, ch := p.own(e, seen); ch {
				if cp == nil {
					cp = maps.Clone(x)
				}
				cp[k] = o
			}
		}
		if cp != nil {
			return cp, true
		}
	case []any:
		var cp []any
		for i, e := range x {
			if o, ch := p.own(e, seen); ch {
				if cp == nil {
					cp = slices.Clone(x)
				}
				cp[i] = o
			}
		}
		if cp != nil {
			return cp, true
		}
	}
	return v, false
}

// deepCopy copies a frozen value's maps and lists (a frozen value, built at load, holds no
// cycle); a record keeps its kind.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}
