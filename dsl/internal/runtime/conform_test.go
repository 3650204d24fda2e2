package runtime

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestConformInt: a value given for an int says what is wrong with it: a fraction takes
// floor, ceil or round; a whole number too large for an int (9223372036854775808 given to
// --set or :set reads as a float) is out of the range of int, where rounding would not help.
func TestConformInt(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string // the value's repr, or the error
	}{
		{2.0, "2"},
		{float64(1 << 52), "4503599627370496"},
		{2.5, "expected an int, got 2.5 (use floor, ceil or round)"},
		{ParseValue("9223372036854775808"), "expected an int, got a number out of the range of int (-9223372036854775808 to 9223372036854775807)"},
		{ParseValue("-9223372036854775809"), "out of the range of int"},
		{1e300, "out of the range of int"},
		{float64(1 << 60), "not held exactly"},
		{ParseValue("-9223372036854775808"), "-9223372036854775808"},
		{math.Inf(1), "out of the range of int"},
	} {
		v, err := Conform(c.in, IntType)
		got := Repr(v)
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, c.want) || strings.Contains(got, "out of the range") && strings.Contains(got, "floor") {
			t.Errorf("Conform(%v, int) = %s, want %s", c.in, got, c.want)
		}
	}
}

// An int or a float that already has its type passes through Conform as it was given: every
// argument and result of a call goes through it, and boxing the number again allocated.
func TestConformKeepsNumbersBoxed(t *testing.T) {
	for _, c := range []struct {
		v any
		t *Type
	}{{1000, IntType}, {2.5, FloatType}} {
		if n := testing.AllocsPerRun(100, func() { _, _ = Conform(c.v, c.t) }); n != 0 {
			t.Errorf("Conform(%v) allocates %v times", c.v, n)
		}
	}
}

// TestHoldsTypeAgreesWithConform: the inline test that lets a call skip Conform answers yes
// only for a value that Conform returns as it is (the same value, not a converted copy),
// without an error, for every kind of type it answers for.
func TestHoldsTypeAgreesWithConform(t *testing.T) {
	values := []any{nil, 0, 3, -1, 2.0, 2.5, math.Inf(1), true, false, "", "x", []any{1}, []int{1},
		map[string]any{}, &Roll{Total: 4}, Skipped{}}
	kinds := []TypeKind{TAny, TInt, TFloat, TBool, TString, TList, TMap, TRoll}
	yes := 0
	for _, k := range kinds {
		typ := &Type{Kind: k}
		for i, v := range values {
			if !holdsType(v, typ) {
				continue
			}
			yes++
			got, err := Conform(v, typ)
			if err != nil || !identical(got, v) {
				t.Errorf("holdsType(values[%d], kind %d): yes, but Conform gives %T %v", i, k, got, err)
			}
		}
	}
	if yes < 12 {
		t.Errorf("holdsType answered yes %d times: the test checks too little", yes)
	}
}

// identical says whether a and b are the same value: of one type, and equal, or for a
// slice or map the same one.
func identical(a, b any) bool {
	if fmt.Sprintf("%T", a) != fmt.Sprintf("%T", b) {
		return false
	}
	ra, rb := reflect.ValueOf(a), reflect.ValueOf(b)
	if !ra.IsValid() || !rb.IsValid() {
		return ra.IsValid() == rb.IsValid()
	}
	switch ra.Kind() {
	case reflect.Slice, reflect.Map, reflect.Pointer:
		return ra.Pointer() == rb.Pointer()
	}
	return a == b || (ra.Kind() == reflect.Float64 && math.IsNaN(ra.Float()) && math.IsNaN(rb.Float()))
}
