package dsl_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/dsltest"
)

// TestPrecedence checks each row of the precedence table in docs/LANGUAGE.md (Expressions):
// every expression here reads one way under the documented binding and another way (or not
// at all) under the next row's, so a change of expr-lang's parser or of the language's own
// literal forms shows here.
func TestPrecedence(t *testing.T) {
	for _, tc := range []struct {
		row, expr string
		rolls     []int
		want      string // the value's Repr, or "error: " and a part of the message
	}{
		// Literals: a dice term is one operand, its glued modifiers with it; a percentage too.
		{"dice literal", "2 * 2d6", []int{3, 4}, "14"},
		{"glued modifiers", "4d6>=5 * 10", []int{5, 6, 1, 5}, "30"},
		{"spaced comparison", "2d6 >= 7", []int{3, 4}, "true"},
		{"percentage", "2 * 40%", nil, "0.8"},
		{"card literal", "Q♣.value + 1", nil, "13"},
		// Postfix: member, index, call before any operator.
		{"index before unary minus", "-[1, 2][1]", nil, "-2"},
		{"member before **", "[2, 3][1] ** 2", nil, "9.0"},
		// ?? binds tighter than **, and mixes with no other operator after it.
		{"?? before **", "2 ** nil ?? 3", nil, "8.0"},
		{"?? before *", "2 * nil ?? 3", nil, "6"},
		{"?? then +", "nil ?? 1 + 2", nil, "error: cannot be mixed"},
		// ** and ^: right-associative, tighter than unary minus.
		{"** right-assoc", "2 ** 3 ** 2", nil, "512.0"},
		{"^ is **", "2 ^ 3 ^ 2", nil, "512.0"},
		{"** before unary minus", "-2 ** 2", nil, "-4.0"},
		// Unary - and +, then * / %.
		{"unary minus before *", "-2 * 3", nil, "-6"},
		{"* / % left-assoc", "12 / 2 * 3", nil, "18.0"},
		{"% left-assoc", "17 % 5 * 2", nil, "4"},
		// not and ! take an operand up to * / %: `not a == b` is (not a) == b.
		{"not before ==", "not 1 == 2", nil, "error: not (mismatched type int)"},
		{"?? before not", "!nil ?? true", nil, "false"},
		{"?? before unary minus", "-nil ?? 3", nil, "-3"},
		{"not after ==", "not (1 == 2)", nil, "true"},
		// + and -, left-assoc, tighter than ...
		{"- left-assoc", "10 - 3 - 2", nil, "5"},
		{"* before +", "1 + 2 * 3", nil, "7"},
		{"+ before ..", "len(1..2 + 1)", nil, "3"},
		// .. before the comparisons and in.
		{".. before ==", "1..3 == [1, 2, 3]", nil, "true"},
		{".. before in", "3 in 1..2 + 1", nil, "true"},
		// Comparisons: < <= > >= chain, == != are left-assoc.
		{"comparisons chain", "1 < 2 < 3", nil, "true"},
		{"chain is and", "3 > 2 > 2", nil, "false"},
		{"== left-assoc", "1 == 1 == true", nil, "true"},
		{"in with ==", "2 in [2] == true", nil, "true"},
		{"not in", "4 not in [1, 2]", nil, "true"},
		// and before or.
		{"comparison before and", "1 < 2 and 2 < 3", nil, "true"},
		{"and before or", "true or false and false", nil, "true"},
		{"&& before ||", "true || false && false", nil, "true"},
		// ? : below or, right-assoc.
		{"or before ?:", "false or true ? 1 : 2", nil, "1"},
		{"?: right-assoc", "false ? 1 : true ? 2 : 3", nil, "2"},
		// | (pipe) below every binary operator.
		{"+ before |", "[1, 2] + [3] | len()", nil, "3"},
	} {
		t.Run(tc.row, func(t *testing.T) {
			v, _, err := dsltest.Run(t, "", tc.expr, tc.rolls...)
			if want, ok := strings.CutPrefix(tc.want, "error: "); ok {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("%s = %v, %v; want an error with %q", tc.expr, dsl.Repr(v), err, want)
				}
				return
			}
			if err != nil || dsl.Repr(v) != tc.want {
				t.Fatalf("%s = %v, %v; want %s", tc.expr, dsl.Repr(v), err, tc.want)
			}
		})
	}
}
