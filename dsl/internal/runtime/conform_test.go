package runtime

import (
	"fmt"
	"math"
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
// only for a value that Conform returns as it is, without an error, for every kind of type.
func TestHoldsTypeAgreesWithConform(t *testing.T) {
	values := []any{nil, 0, 3, -1, 2.0, 2.5, math.Inf(1), true, false, "", "x", []any{1}, map[string]any{}, Skipped{}}
	kinds := []TypeKind{TAny, TInt, TFloat, TBool, TString, TList, TMap, TRoll}
	yes := 0
	for _, k := range kinds {
		typ := &Type{Kind: k}
		for _, v := range values {
			if !holdsType(v, typ) {
				continue
			}
			yes++
			got, err := Conform(v, typ)
			if err != nil || Repr(got) != Repr(v) || typeName(got) != typeName(v) {
				t.Errorf("holdsType(%s, %s): yes, but Conform gives %s, %v", Repr(v), typ, Repr(got), err)
			}
		}
	}
	if yes < 10 {
		t.Errorf("holdsType answered yes %d times: the test checks too little", yes)
	}
}

func typeName(v any) string { return fmt.Sprintf("%T", v) }
