package dsl

import (
	"fmt"
	"reflect"
	"sort"
)

// CarryOver copies what still fits from an old machine into this fresh one, after the rule
// files were edited and reloaded: option values, and entity fields whose entity, kind and
// field still exist with a compatible type. It returns one line per thing it could not keep
// and a summary of what the edit added and removed.
func (m *Machine) CarryOver(old *Machine) []string {
	var notes []string
	oldP, newP := old.prog, m.prog
	for _, o := range newP.Options {
		if oo := oldP.Option(o.Name); oo != nil {
			if v := old.globals[o.Name]; v != oo.Default {
				if err := m.SetOption(o.Name, v); err != nil {
					notes = append(notes, fmt.Sprintf("option %s reset to its default: %v", o.Name, err))
				}
			}
		}
	}
	for _, e := range newP.Entities {
		oe, ok := oldP.globals[e.Name].(*Entity)
		if !ok || oe.Kind == nil || e.Kind == nil {
			continue
		}
		if oe.Kind.Name != e.Kind.Name {
			notes = append(notes, fmt.Sprintf("entity %s is now a %s: it starts afresh", e.Name, e.Kind.Name))
			continue
		}
		oldRec, _ := old.globals[e.Name].(map[string]any)
		rec, _ := m.globals[e.Name].(map[string]any)
		for _, f := range e.Kind.Fields {
			v, had := oldRec[f.Name]
			if !had || oe.Kind.byName[f.Name] == nil {
				continue
			}
			if _, isRec := v.(map[string]any); isRec {
				// A reference to another record of the old state: point at the new one.
				if name := old.entityName(v); name != "" {
					if nv, ok := m.globals[name]; ok {
						rec[f.Name] = nv
					}
				}
				continue
			}
			cv, err := conform(v, f.Type)
			if err != nil {
				notes = append(notes, fmt.Sprintf("%s.%s reset to its default: %v", e.Name, f.Name, err))
				continue
			}
			rec[f.Name] = cv
		}
	}
	return append(notes, diffNames(oldP, newP)...)
}

func (m *Machine) entityName(rec any) string {
	r, ok := rec.(map[string]any)
	if !ok {
		return ""
	}
	for _, e := range m.prog.Entities {
		if g, ok := m.globals[e.Name].(map[string]any); ok && reflect.ValueOf(g).Pointer() == reflect.ValueOf(r).Pointer() {
			return e.Name
		}
	}
	return ""
}

// diffNames lists the top-level names the edit added and removed.
func diffNames(a, b *Program) []string {
	var out []string
	for _, n := range sortedKeys(b.globals) {
		if _, ok := a.globals[n]; !ok {
			out = append(out, fmt.Sprintf("+ %s %s", kindOfGlobal(b.globals[n]), n))
		}
	}
	for _, n := range sortedKeys(a.globals) {
		if _, ok := b.globals[n]; !ok {
			out = append(out, fmt.Sprintf("- %s %s", kindOfGlobal(a.globals[n]), n))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

func kindOfGlobal(g global) string {
	switch g := g.(type) {
	case *Option:
		return "option"
	case *Const:
		return "const"
	case *Kind:
		return "kind"
	case *Entity:
		return "entity"
	case *Proc:
		return g.Verb
	case *DieDecl:
		return "dice"
	case *DeckDecl:
		return "deck"
	case *PileDecl:
		return "pile"
	case *MapDecl:
		return "map"
	}
	return "name"
}

// Options returns the current value of every option, in declaration order.
func (m *Machine) Options() []OptionValue {
	out := make([]OptionValue, 0, len(m.prog.Options))
	for _, o := range m.prog.Options {
		out = append(out, OptionValue{o, m.globals[o.Name]})
	}
	return out
}

// OptionValue is an option with its current value.
type OptionValue struct {
	*Option
	Value any
}
