package core

import (
	"math"
	"reflect"
	"slices"
	"strings"

	"rulesh/dsl/internal/runtime"
)

// Same is same(a, b): whether two records are one. One record is one map: two records with
// equal fields are still two. Anything but two records is an error.
func Same(a, b any) (bool, error) {
	x, okx := a.(map[string]any)
	y, oky := b.(map[string]any)
	_, kx := x[runtime.KindKey]
	_, ky := y[runtime.KindKey]
	if !okx || !oky || !kx || !ky {
		return false, runtime.Errorf("same compares two records, not %s and %s", runtime.Repr(a), runtime.Repr(b))
	}
	return reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(y).UnsafePointer(), nil
}

// In is `needle in coll`: a key of a map (keys are strings), or an element of a list equal
// to needle (Machine.Equal, bounded in depth). A roll, looked for or listed, is its total as
// in ==, unless it is symbolic (its faces are names). Nothing (nil) holds nothing. Each
// element looked at costs a step.
func In(m *runtime.Machine, needle, coll any) (bool, error) {
	switch list := coll.(type) {
	case nil:
		return false, nil
	case map[string]any:
		key, ok := needle.(string)
		if !ok {
			return false, runtime.Errorf("in: a map's keys are strings, not %s", runtime.TypeName(needle))
		}
		_, has := list[key]
		return has, nil
	}
	if r, ok := needle.(*runtime.Roll); ok && r.Symbols == nil {
		needle = r.Total
	}
	// The lists a rule builds are []any, and a few builtins give []string or []int: they are
	// walked without reflect (an element read by reflect is boxed again, an allocation).
	switch list := coll.(type) {
	case []any:
		if err := m.Charge(len(list)); err != nil {
			return false, err
		}
		for _, e := range list {
			if eq, err := inEqual(m, needle, e); eq || err != nil {
				return eq, err
			}
		}
		return false, nil
	case []string:
		if s, ok := needle.(string); ok {
			if err := m.Charge(len(list)); err != nil {
				return false, err
			}
			return slices.Contains(list, s), nil
		}
	case []int:
		if n, ok := needle.(int); ok {
			if err := m.Charge(len(list)); err != nil {
				return false, err
			}
			return slices.Contains(list, n), nil
		}
	}
	v := reflect.ValueOf(coll)
	if v.Kind() != reflect.Slice {
		return false, runtime.Errorf("in needs a list or a map, not %s", runtime.TypeName(coll))
	}
	if err := m.Charge(v.Len()); err != nil {
		return false, err
	}
	for i := range v.Len() {
		if eq, err := inEqual(m, needle, v.Index(i).Interface()); eq || err != nil {
			return eq, err
		}
	}
	return false, nil
}

// inEqual is needle == e for in, a plain roll listed being its total. Two strings, two ints
// or two booleans are compared here: Machine.Equal gives the same answer for them (they are
// neither lists nor maps), after building its table of collections met.
func inEqual(m *runtime.Machine, needle, e any) (bool, error) {
	switch x := needle.(type) {
	case string:
		if y, ok := e.(string); ok {
			return x == y, nil
		}
	case int:
		if y, ok := e.(int); ok {
			return x == y, nil
		}
	case bool:
		if y, ok := e.(bool); ok {
			return x == y, nil
		}
	}
	if r, ok := e.(*runtime.Roll); ok && r.Symbols == nil {
		e = r.Total
	}
	return m.Equal(needle, e)
}

// Keys is keys(v): a map's keys in their order (Go's map order is random), a record's
// hidden kind left out. Each entry costs a step. The machine keeps the list for the next
// keys of the same map (Machine.KeptKeys), while the map's keys stay the same.
func Keys(m *runtime.Machine, v any) ([]any, error) {
	mp, ok := v.(map[string]any)
	if !ok {
		return sortedEntries(m, v, nil) // its error
	}
	if err := m.Charge(len(mp)); err != nil {
		return nil, err
	}
	if keys, ok := m.KeptKeys(mp); ok {
		return keys, nil
	}
	// The keys are sorted in the list itself: no list of strings beside it (keys are
	// unique, so the order is sortedEntries' order). Their boxes are one array of this
	// call's, not one allocation a key.
	out := make([]any, len(mp))
	boxes := make([]string, len(mp))
	n := 0
	for k := range mp {
		if k != runtime.KindKey {
			boxes[n] = k
			out[n] = runtime.StringValue(&boxes[n])
			n++
		}
	}
	out = out[:n:n]
	slices.SortFunc(out, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
	m.KeepKeys(mp, out)
	return out, nil
}

// Values is values(v): a map's values in the order of their keys, as Keys.
func Values(m *runtime.Machine, v any) ([]any, error) {
	return sortedEntries(m, v, func(_ string, e any) any { return e })
}

// Pairs is toPairs(v): a map's entries as [key, value] lists in the order of their keys,
// as Keys.
func Pairs(m *runtime.Machine, v any) ([]any, error) {
	return sortedEntries(m, v, func(k string, e any) any { return []any{k, e} })
}

// sortedEntries lists a map's entries in the order of their keys (a record's hidden kind
// left out), each made by f; each entry costs a step.
func sortedEntries(m *runtime.Machine, v any, f func(string, any) any) ([]any, error) {
	mp, ok := v.(map[string]any)
	if !ok {
		return nil, runtime.Errorf("expected a map or a record, got %s", runtime.TypeName(v))
	}
	if err := m.Charge(len(mp)); err != nil {
		return nil, err
	}
	keys := runtime.SortedKeys(mp)
	out := make([]any, 0, len(keys))
	for _, k := range keys {
		if k != runtime.KindKey {
			out = append(out, f(k, mp[k]))
		}
	}
	return out, nil
}

// Concat is x + y on two lists: a new list, x's elements then y's; neither is changed.
func Concat(x, y []any) []any {
	return append(append(make([]any, 0, len(x)+len(y)), x...), y...)
}

// Repeat is repeat(s, n): s n times over. A negative count is an error; what it builds is
// charged to the memory budget first, so a huge count fails before it is built.
func Repeat(m *runtime.Machine, s, n any) (string, error) {
	str, ok := s.(string)
	count, ok2 := n.(int)
	if !ok || !ok2 {
		return "", runtime.Errorf("repeat takes a string and an int, got %s and %s", runtime.TypeName(s), runtime.TypeName(n))
	}
	if count < 0 {
		return "", runtime.Errorf("repeat %d times: the count cannot be negative", count)
	}
	if count > 0 && len(str) > math.MaxInt/16/count {
		return "", m.MemLimitError()
	}
	if err := m.ChargeMem(len(str)*count/16 + 1); err != nil {
		return "", err
	}
	return strings.Repeat(str, count), nil
}

// NewRecord is a record built in an expression, Kind{field: value, …}: the kind's defaults,
// then the fields given, in the order of their names, each conformed to its field's type
// (runtime.ConformField: an int into a float field, a map into a typed map, nil into a hex
// or record field) and thawed (a const's value is copied,
// so changing the record changes no const). A field the kind lacks is an error; the record
// is new material, charged to the memory budget.
func NewRecord(m *runtime.Machine, kind string, fields map[string]any) (map[string]any, error) {
	k := m.Kind(kind)
	rec, err := m.NewRecord(k, nil)
	if err != nil {
		return nil, err
	}
	if err := m.ChargeMem(len(rec)); err != nil {
		return nil, err
	}
	for _, name := range runtime.SortedKeys(fields) {
		f := k.ByName[name]
		if f == nil {
			return nil, runtime.Errorf("%s has no field %s", k.Name, name)
		}
		v, err := runtime.ConformField(fields[name], f.Type)
		if err != nil {
			return nil, runtime.Errorf("%s.%s: %v", k.Name, name, err)
		}
		rec[name] = m.Thaw(v)
	}
	return rec, nil
}
