package runtime

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"

	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/cards"
	"rulesh/stdlib/dice"
	"rulesh/stdlib/hex"
)

// TypeKind is the shape of a value as far as the checker knows it.
type TypeKind int

// The types a field, parameter or local can be declared with.
const (
	TAny TypeKind = iota
	TInt
	TFloat
	TBool
	TString
	TList
	TMap
	TRecord
	TRoll
	TDie
	TCard
	TPile
	THex
	TBoard
	TEnum
	TDice // a dice code held as a value (*dice.Code)
)

// Type is a static type: a base kind, plus the record kind, list element or map key and value
// where they apply.
type Type struct {
	Kind   TypeKind
	Record *Kind // for TRecord
	Enum   *Enum // for TEnum
	Elem   *Type // for TList, when known; for TMap, the value type of a typed map
	Key    *Type // for TMap, the key type of a typed map (string or an enum); nil for map
}

// TypedMap reports whether t is a typed map, map[K]V, whose missing keys read as V's zero.
func (t *Type) TypedMap() bool { return t.Kind == TMap && t.Elem != nil }

// The static types of the built-in type names, shared by the checker and the facade (a Type
// is not changed once built).
var (
	AnyType    = &Type{Kind: TAny}
	IntType    = &Type{Kind: TInt}
	FloatType  = &Type{Kind: TFloat}
	BoolType   = &Type{Kind: TBool}
	StringType = &Type{Kind: TString}
	ListType   = &Type{Kind: TList}
	mapType    = &Type{Kind: TMap}
	DieType    = &Type{Kind: TDie}
	DiceType   = &Type{Kind: TDice}
)

// BuiltinType returns the type of a type name rules write (int, number, card…). (A switch:
// a map is built at every start of the program.)
func BuiltinType(name string) (*Type, bool) {
	switch name {
	case "any":
		return AnyType, true
	case "int":
		return IntType, true
	case "float":
		return FloatType, true
	case "number":
		return FloatType, true
	case "bool":
		return BoolType, true
	case "string":
		return StringType, true
	case "list":
		return ListType, true
	case "map":
		return mapType, true
	case "roll":
		return RollType, true
	case "die":
		return DieType, true
	case "dice":
		return DiceType, true
	case "card":
		return cardType, true
	case "pile":
		return PileType, true
	case "hex":
		return hexType, true
	case "board":
		return MapTType, true
	}
	return nil, false
}

// String names the type as rules write it.
func (t *Type) String() string {
	switch t.Kind {
	case TInt:
		return "int"
	case TFloat:
		return "float"
	case TBool:
		return "bool"
	case TString:
		return "string"
	case TList:
		if t.Elem != nil {
			return "[]" + t.Elem.String()
		}
		return "list"
	case TMap:
		if t.TypedMap() {
			return "map[" + t.Key.String() + "]" + t.Elem.String()
		}
		return "map"
	case TRecord:
		if t.Record.Tally {
			// A roll of record dice: its fields, as its type is their union.
			return "record {" + strings.Join(t.Record.FieldNames(), ", ") + "}"
		}
		return t.Record.Name
	case TRoll:
		return "roll"
	case TDie:
		return "die"
	case TDice:
		return "dice"
	case TCard:
		return "card"
	case TPile:
		return "pile"
	case THex:
		return "hex"
	case TBoard:
		return "board"
	case TEnum:
		return t.Enum.Name
	}
	return "any"
}

// TypeFromReflect turns expr's idea of a result type back into ours (records are lost: a map).
func TypeFromReflect(rt reflect.Type) *Type {
	if rt == nil {
		return AnyType
	}
	// The kind first: our seven types are six pointers and a struct, and comparing every
	// type with all seven (interface comparisons) was most of this function's cost.
	switch rt.Kind() {
	case reflect.Pointer:
		switch rt {
		case reflect.TypeFor[*Roll]():
			return RollType
		case reflect.TypeFor[*dice.Die]():
			return DieType
		case reflect.TypeFor[*dice.Code]():
			return DiceType
		case reflect.TypeFor[*cards.Card]():
			return cardType
		case reflect.TypeFor[*cards.Pile]():
			return PileType
		case reflect.TypeFor[*hex.Map]():
			return MapTType
		}
	case reflect.Struct:
		if rt == reflect.TypeFor[hex.Hex]() {
			return hexType
		}
	case reflect.Int, reflect.Int64, reflect.Int32:
		return IntType
	case reflect.Float64, reflect.Float32:
		return FloatType
	case reflect.Bool:
		return BoolType
	case reflect.String:
		return StringType
	case reflect.Slice:
		return ListType
	case reflect.Map:
		return mapType
	}
	return AnyType
}

// Assignable reports whether a value of static type from may be stored where to is declared.
// Unknown (any) types pass: the run-time conform check catches them.
func Assignable(to, from *Type) bool {
	if to.Kind == TAny || from.Kind == TAny {
		return true
	}
	switch to.Kind {
	case TFloat:
		return from.Kind == TFloat || from.Kind == TInt || from.Kind == TRoll
	case TInt:
		// A whole float converts (checked at run time); a roll counts as its total.
		return from.Kind == TInt || from.Kind == TFloat || from.Kind == TRoll
	case TRecord:
		return from.Kind == TMap || (from.Kind == TRecord && from.Record == to.Record)
	case TMap:
		if to.TypedMap() && from.TypedMap() {
			return Assignable(to.Key, from.Key) && Assignable(to.Elem, from.Elem)
		}
		return from.Kind == TMap || to.Elem == nil && from.Kind == TRecord
	case TEnum:
		// A string is checked when it is stored (a literal at load, see CheckEnumValue).
		return from.Kind == TString || (from.Kind == TEnum && from.Enum == to.Enum)
	case TString:
		return from.Kind == TString || from.Kind == TEnum
	case TDice:
		// A string is read as a code when it is stored (a literal at load, see check.checkWantAs).
		return from.Kind == TDice || from.Kind == TString
	}
	return to.Kind == from.Kind
}

// Conform checks a run-time value against a declared type and converts numbers where it is
// lossless (an int into a float field, a whole float into an int field).
func Conform(v any, t *Type) (any, error) {
	switch t.Kind {
	case TAny:
		return v, nil
	case TInt:
		switch x := v.(type) {
		case int:
			return v, nil // v, not x: an int past 255 boxed again is an allocation
		case *Roll:
			if x.Symbol() != "" {
				return nil, Errorf("expected an int, got the face %s of %s (a face has a name, not a number)", x.Symbol(), x.result.Expr)
			}
			return x.Total, nil
		case float64:
			switch {
			case x != math.Trunc(x):
				return nil, Errorf("expected an int, got %s (use floor, ceil or round)", Repr(v))
			case math.Abs(x) < 1<<53:
				return int(x), nil
			case x >= math.MaxInt64 || x <= math.MinInt64:
				// A whole number written too large for an int reads as a float (--set
				// n=9223372036854775808), its digits lost: the message says what it is
				// without showing a float's rounding of them. (-2^63 written is an int.)
				return nil, Errorf("expected an int, got a number out of the range of int (%d to %d)", math.MinInt64, math.MaxInt64)
			}
			return nil, Errorf("expected an int, got %s (a whole number this large is not held exactly as a float)", Repr(v))
		}
	case TFloat:
		switch x := v.(type) {
		case *Roll:
			if x.Symbol() != "" {
				return nil, Errorf("expected a float, got the face %s of %s (a face has a name, not a number)", x.Symbol(), x.result.Expr)
			}
			return float64(x.Total), nil
		case int:
			return float64(x), nil
		case float64:
			return v, nil
		}
	case TBool:
		if _, ok := v.(bool); ok {
			return v, nil
		}
	case TString:
		if _, ok := v.(string); ok {
			return v, nil
		}
	case TList:
		if _, ok := v.([]any); ok {
			return v, nil
		}
		if v != nil && reflect.TypeOf(v).Kind() == reflect.Slice {
			return v, nil
		}
	case TMap:
		if m, ok := v.(map[string]any); ok {
			if !t.TypedMap() {
				return v, nil
			}
			return conformEntries(m, t)
		}
	case TRoll:
		if _, ok := v.(*Roll); ok {
			return v, nil
		}
	case TDie:
		if _, ok := v.(*dice.Die); ok {
			return v, nil
		}
	case TDice:
		switch x := v.(type) {
		case *dice.Code:
			return v, nil
		case dice.Code:
			return &x, nil
		case string:
			return dice.ParseCode(x)
		case *Roll:
			return nil, Errorf("expected dice, got the roll %s (a code held as a value is written as a string: \"4D+2\")", Repr(x))
		}
	case TCard:
		if _, ok := v.(*cards.Card); ok {
			return v, nil
		}
	case TPile:
		if _, ok := v.(*cards.Pile); ok {
			return v, nil
		}
	case THex:
		if _, ok := v.(hex.Hex); ok {
			return v, nil
		}
		if s, ok := v.(string); ok {
			return hex.ParseHex(s)
		}
	case TBoard:
		if _, ok := v.(*hex.Map); ok {
			return v, nil
		}
	case TEnum:
		if s, ok := v.(string); ok && t.Enum.Has(s) {
			return v, nil
		}
		return nil, EnumError(t.Enum, v)
	case TRecord:
		if m, ok := v.(map[string]any); ok {
			if k, _ := m[KindKey].(*Kind); k == t.Record {
				return v, nil
			}
		}
		return nil, Errorf("expected %s, got %s", WithArticle(t.Record.Name), Repr(v))
	}
	return nil, Errorf("expected %s, got %s", t, Repr(v))
}

// EnumError says that v is not a value of enum e, naming the values (and the closest one).
func EnumError(e *Enum, v any) error {
	s, isString := v.(string)
	if !isString {
		return Errorf("expected %s, got %s", e.Name, Repr(v))
	}
	summary, detail := EnumProblem(e, s)
	return NewError(summary + " (" + detail + ")")
}

// EnumProblem words a string that is not a value of e: a terse summary and a detail that
// suggests the closest value and lists them all.
func EnumProblem(e *Enum, s string) (summary, detail string) {
	summary = fmt.Sprintf("%s is not a value of %s", Repr(s), e.Name)
	detail = e.Name + " is " + strings.Join(e.Values, ", ")
	if near := syntax.DidYouMean(s, e.Values); near != "" {
		detail = "did you mean " + near + "? " + detail
	}
	return summary, detail
}

// conformEntries checks every entry of m against the typed map t: each key a value of t's key
// type, each value conforming to its value type. The map is copied only when a value changes
// (an int stored in a map[string]float, or in a map of such maps), so a map that conforms is
// kept as it is.
func conformEntries(m map[string]any, t *Type) (any, error) {
	if _, isRecord := m[KindKey].(*Kind); isRecord {
		return nil, Errorf("expected %s, got %s", t, Repr(m))
	}
	var out map[string]any
	for k, v := range m {
		if t.Key.Kind == TEnum && !t.Key.Enum.Has(k) {
			return nil, firstBadEntry(m, t)
		}
		cv, err := Conform(v, t.Elem)
		if err != nil {
			return nil, firstBadEntry(m, t)
		}
		if out == nil && !sameValue(cv, v) {
			out = make(map[string]any, len(m))
			for k2, v2 := range m {
				out[k2] = v2
			}
		}
		if out != nil {
			out[k] = cv
		}
	}
	if out != nil {
		return out, nil
	}
	return m, nil
}

// firstBadEntry says what is wrong with the first bad entry of m in key order, so that the
// same map gives the same error on every run (the check itself walks in map order, without
// sorting the keys of maps that conform).
func firstBadEntry(m map[string]any, t *Type) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if t.Key.Kind == TEnum && !t.Key.Enum.Has(k) {
			return Errorf("key %w", EnumError(t.Key.Enum, k))
		}
		if _, err := Conform(m[k], t.Elem); err != nil {
			return Errorf("entry %s: %w", Repr(k), err)
		}
	}
	return nil
}

// sameValue reports whether Conform kept a value as it was: a conversion makes a value of
// another Go type (an int stored in a map[string]float, a string in a map[string]dice), a
// typed map a new map; lists are only checked.
func sameValue(a, b any) bool {
	if ma, ok := a.(map[string]any); ok {
		mb, ok := b.(map[string]any)
		return ok && reflect.ValueOf(ma).Pointer() == reflect.ValueOf(mb).Pointer()
	}
	return reflect.TypeOf(a) == reflect.TypeOf(b)
}

// ZeroValue is what a field of type t holds when declared without a default, and what a
// typed map of values of type t reads for a missing key: 0, 0.0, false, "", [], {}, an empty
// pile, an enum's first value; nil for the others.
func ZeroValue(t *Type) any { return zeroValue(t) }
