package runtime

import (
	"fmt"
	"sort"
	"strings"

	"rulesh/stdlib/hex"
)

// MapDecl is a hex board declared with `map NAME { … }`.
type MapDecl struct {
	Name string
	Pos  Pos
	Map  *hex.Map
}

// DeclPos is where the board is declared.
func (d *MapDecl) DeclPos() Pos { return d.Pos }

// hexType is the static type of a hex; MapTType, of a board (the checker types a map's
// global with it).
var (
	hexType  = &Type{Kind: THex}
	MapTType = &Type{Kind: TBoard}
)

// Units returns, for drawing a board, the entities that stand on a hex (a field of type hex
// named position) keyed by hex, with their names.
func (m *Machine) Units() map[hex.Hex]string {
	out := map[hex.Hex]string{}
	for _, e := range m.prog.Entities {
		rec, ok := m.globals[e.Name].(map[string]any)
		if !ok {
			continue
		}
		h, ok := rec["position"].(hex.Hex)
		if !ok {
			continue
		}
		name := e.Name
		if n, ok := rec["nom"].(string); ok && n != "" {
			name = n
		} else if n, ok := rec["name"].(string); ok && n != "" {
			name = n
		}
		out[h] = strings.ToUpper(name[:1]) + name[1:]
	}
	return out
}

// Map returns a declared board by name (the first one when name is empty).
func (m *Machine) Map(name string) (*hex.Map, error) {
	var names []string
	for _, d := range m.prog.Maps {
		if name == "" || d.Name == name {
			return d.Map, nil
		}
		names = append(names, d.Name)
	}
	sort.Strings(names)
	if name == "" {
		return nil, fmt.Errorf("no map is declared")
	}
	return nil, fmt.Errorf("no map %s (maps: %s)", name, strings.Join(names, ", "))
}
