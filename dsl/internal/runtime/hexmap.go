package runtime

import (
	"sort"
	"strings"

	"rulesh/stdlib/hex"
)

// MapDecl is a hex board declared with `map NAME { … }`.
type MapDecl struct {
	Name  string
	Pos   Pos
	Map   *hex.Map
	Units []*MapUnits // the `units` lines: which entities are drawn, and how
}

// DeclPos is where the board is declared.
func (d *MapDecl) DeclPos() Pos { return d.Pos }

// hexType is the static type of a hex; MapTType, of a board (the checker types a map's
// global with it).
var (
	hexType  = &Type{Kind: THex}
	MapTType = &Type{Kind: TBoard}
)

// MapUnits is a `units` line of a map: the entities of Kind are drawn on the board where At
// puts them, shown by Marker and Label, told apart by Side.
type MapUnits struct {
	Kind              *Kind
	Pos               Pos
	At, Marker, Label UnitPart
	Side              UnitPart // the unit's side (its colour and mark); unset: no side
}

// UnitPart reads one thing about a unit: a field of its kind, or a rule called with the unit.
// Both empty: the default (the entity's name for a label, the label's first letter for a
// marker).
type UnitPart struct {
	Field string
	Rule  *Proc
}

func (m *Machine) unitPart(p UnitPart, rec map[string]any) (any, error) {
	switch {
	case p.Rule != nil:
		return m.Call(p.Rule.Name, rec)
	case p.Field != "":
		return rec[p.Field], nil
	}
	return nil, nil
}

// Units returns the units the map named name (the first one when name is empty) declares
// with its `units` lines, in the order of those lines and of the entities' declarations.
// A unit whose position is nil or off the board is not on it.
func (m *Machine) Units(name string) ([]hex.Unit, error) {
	d, err := m.mapDecl(name)
	if err != nil {
		return nil, err
	}
	var out []hex.Unit
	for _, u := range d.Units {
		for _, e := range m.prog.Entities {
			if e.Kind != u.Kind {
				continue
			}
			rec, ok := m.globals[e.Name].(map[string]any)
			if !ok {
				continue
			}
			at, err := m.unitPart(u.At, rec)
			if err != nil {
				return nil, Errorf("%s: %w", e.Name, err)
			}
			if at == nil {
				continue // off the board
			}
			h, ok := at.(hex.Hex)
			if !ok {
				return nil, Errorf("%s: the position of %s must be a hex or nil, got %s", e.Name, WithArticle(u.Kind.Name), Repr(at))
			}
			if !d.Map.In(h) {
				continue
			}
			unit := hex.Unit{At: h}
			for _, f := range []struct {
				part UnitPart
				to   *string
			}{{u.Label, &unit.Label}, {u.Marker, &unit.Marker}, {u.Side, &unit.Side}} {
				v, err := m.unitPart(f.part, rec)
				if err != nil {
					return nil, Errorf("%s: %w", e.Name, err)
				}
				if v != nil {
					str, ok := v.(string)
					if !ok {
						return nil, Errorf("%s: a marker, label or side must be a string, got %s", e.Name, Repr(v))
					}
					*f.to = str
				}
			}
			if unit.Label == "" {
				unit.Label = e.Name
			}
			if unit.Marker == "" {
				r := []rune(unit.Label)
				unit.Marker = strings.ToUpper(string(r[0]))
			}
			out = append(out, unit)
		}
	}
	return out, nil
}

func (m *Machine) mapDecl(name string) (*MapDecl, error) {
	var names []string
	for _, d := range m.prog.Maps {
		if name == "" || d.Name == name {
			return d, nil
		}
		names = append(names, d.Name)
	}
	sort.Strings(names)
	if name == "" {
		return nil, Errorf("no map is declared")
	}
	return nil, Errorf("no map %s (maps: %s)", name, strings.Join(names, ", "))
}

// Map returns a declared board by name (the first one when name is empty).
func (m *Machine) Map(name string) (*hex.Map, error) {
	d, err := m.mapDecl(name)
	if err != nil {
		return nil, err
	}
	return d.Map, nil
}

// unitIndex says which entities a map's `units` lines put on each hex, for units_at: built
// from the positions when first asked and kept while no field has been written since
// (Machine.writes), so a path search asking "who is here?" at every step reads a map instead
// of walking every unit.
type unitIndex struct {
	writes uint64
	at     map[hex.Hex][]unitAt
}

// unitAt is one entity of the index, with the `units` line that placed it.
type unitAt struct {
	line *MapUnits
	rec  map[string]any
}

// UnitsAt returns the entities that the `units` lines of board b place on hex h, in the
// order of those lines and of the entities' declarations (that of entities("Kind")); with
// kind not empty, only the entities of that kind. A unit is at h when its position is h,
// on the board or off it. Positions given by fields are read from an index kept while no
// field changes; positions given by rules are asked of every unit, every call.
func (m *Machine) UnitsAt(b *hex.Map, h hex.Hex, kind string) ([]any, error) {
	d, k, err := m.unitLines("units_at", b, kind)
	if err != nil {
		return nil, err
	}
	var out []any
	for _, u := range d.Units {
		if k != nil && u.Kind != k {
			continue
		}
		if u.At.Rule != nil {
			if err := m.Charge(len(m.prog.Entities)); err != nil {
				return nil, err
			}
			for _, e := range m.prog.Entities {
				rec, ok := m.globals[e.Name].(map[string]any)
				if !ok || e.Kind != u.Kind {
					continue
				}
				// A call inside the running one (CallAt), not a top-level Call: that would
				// forget the running call's journal.
				at, err := m.CallAt(u.At.Rule, []any{rec}, u.At.Rule.Pos)
				if err != nil {
					return nil, err
				}
				if p, ok := at.(hex.Hex); ok && p == h {
					out = append(out, rec)
				}
			}
			continue
		}
		for _, e := range m.unitIndex(d)[h] {
			if e.line == u {
				out = append(out, e.rec)
			}
		}
	}
	if err := m.Charge(len(out) + 1); err != nil {
		return nil, err
	}
	return out, m.ChargeMem(len(out))
}

// unitLines finds the declared map of board b and, with kind not empty, the kind of one of
// its `units` lines, for the builtin fn.
func (m *Machine) unitLines(fn string, b *hex.Map, kind string) (*MapDecl, *Kind, error) {
	var d *MapDecl
	for _, md := range m.prog.Maps {
		if md.Map == b {
			d = md
			break
		}
	}
	if d == nil {
		return nil, nil, Errorf("%s: this board is not a declared map", fn)
	}
	if kind == "" {
		return d, nil, nil
	}
	var k *Kind
	for _, u := range d.Units {
		if u.Kind.Name == kind {
			k = u.Kind
		}
	}
	if k == nil {
		var kinds []string
		for _, u := range d.Units {
			kinds = append(kinds, u.Kind.Name)
		}
		if len(kinds) == 0 {
			return nil, nil, Errorf("%s: the map %s has no units line", fn, d.Name)
		}
		return nil, nil, Errorf("%s: the map %s has no units line of %s (units of %s)", fn, d.Name, kind, strings.Join(kinds, ", "))
	}
	return d, k, nil
}

// UnitsWithin returns the entities that the `units` lines of board b place within distance
// r of hex h (h itself included), in the order of those lines and of the entities'
// declarations, as UnitsAt; with kind not empty, only the entities of that kind. The
// positions are read in Go, each unit's once, rather than by a rule's filter over every
// unit: "who is within r" (a command radius, a range) costs a walk of the units, not a run
// of a predicate for each.
func (m *Machine) UnitsWithin(b *hex.Map, h hex.Hex, r int, kind string) ([]any, error) {
	d, k, err := m.unitLines("units_within", b, kind)
	if err != nil {
		return nil, err
	}
	if err := m.Charge(len(m.prog.Entities) + 1); err != nil {
		return nil, err
	}
	var out []any
	for _, u := range d.Units {
		if k != nil && u.Kind != k {
			continue
		}
		for _, e := range m.prog.Entities {
			rec, ok := m.globals[e.Name].(map[string]any)
			if !ok || e.Kind != u.Kind {
				continue
			}
			var at any
			if u.At.Rule != nil {
				if at, err = m.CallAt(u.At.Rule, []any{rec}, u.At.Rule.Pos); err != nil {
					return nil, err
				}
			} else {
				at = rec[u.At.Field]
			}
			if p, ok := at.(hex.Hex); ok && hex.Distance(p, h) <= r {
				out = append(out, rec)
			}
		}
	}
	if err := m.Charge(len(out)); err != nil {
		return nil, err
	}
	return out, m.ChargeMem(len(out))
}

// unitIndex returns the index of the units of d whose position is a field, rebuilt when a
// field has been written since it was built.
func (m *Machine) unitIndex(d *MapDecl) map[hex.Hex][]unitAt {
	ix := m.unitIndexes[d]
	if ix != nil && ix.writes == m.writes {
		return ix.at
	}
	if ix == nil {
		if m.unitIndexes == nil {
			m.unitIndexes = map[*MapDecl]*unitIndex{}
		}
		ix = &unitIndex{at: map[hex.Hex][]unitAt{}}
		m.unitIndexes[d] = ix
	}
	clear(ix.at)
	ix.writes = m.writes
	for _, u := range d.Units {
		if u.At.Rule != nil {
			continue
		}
		for _, e := range m.prog.Entities {
			if e.Kind != u.Kind {
				continue
			}
			rec, ok := m.globals[e.Name].(map[string]any)
			if !ok {
				continue
			}
			if p, ok := rec[u.At.Field].(hex.Hex); ok {
				ix.at[p] = append(ix.at[p], unitAt{u, rec})
			}
		}
	}
	return ix.at
}
