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
				return nil, Errorf("%s: the position of a %s must be a hex or nil, got %s", e.Name, u.Kind.Name, Repr(at))
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
