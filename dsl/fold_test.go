package dsl

import (
	"strings"
	"testing"
)

// TestFoldOf: the shapes read as folds, the list and its shares, and the texts that are not
// folds (anything around the aggregate, #index, a reduce that does more than add).
func TestFoldOf(t *testing.T) {
	tests := []struct {
		src        string
		ok         bool
		list       string
		perElement bool
		share      string
	}{
		{"sum(map(1..10, attack()))", true, "1..10", false, "sum(map((1..10)[3:4], attack()))"},
		{" sum( map( 1..n , d(6) ) ) ", true, "1..n", false, " sum( map( (1..n)[0:1] , d(6) ) ) "},
		{"len(filter(map(1..10, d(6)), # >= 5))", true, "1..10", false, "len(filter(map((1..10)[0:1], d(6)), # >= 5))"},
		{"count(map(1..10, d(6)), # >= 5)", true, "1..10", false, "count(map((1..10)[0:1], d(6)), # >= 5)"},
		{"count(1..10, d(6) >= 5)", true, "1..10", false, "count((1..10)[0:1], d(6) >= 5)"},
		{"sum(1..10, d(6))", true, "1..10", false, "sum((1..10)[0:1], d(6))"},
		{"sum(map(1..6, d(#)))", true, "1..6", true, "sum(map((1..6)[0:1], d(#)))"},
		{"sum(map(unités, .force + d(6)))", true, "unités", true, "sum(map((unités)[0:1], .force + d(6)))"},
		{"sum(map(1..3, héros.force + d(6)))", true, "1..3", false, "sum(map((1..3)[0:1], héros.force + d(6)))"},
		{"sum(map(map(1..3, #), d(6) + #))", true, "1..3", true, "sum(map(map((1..3)[0:1], #), d(6) + #))"},
		{`sum(map(["a", "b"], d(6)))`, true, `["a", "b"]`, false, `sum(map((["a", "b"])[0:1], d(6)))`},
		{"reduce(1..10, #acc + d(6), 0)", true, "1..10", false, "reduce((1..10)[0:1], #acc + d(6), 0)"},
		{"reduce(1..10, #acc + d(6) * 2, 0)", true, "1..10", false, "reduce((1..10)[0:1], #acc + d(6) * 2, 0)"},
		{"reduce(1..4, #acc + d(#), 0)", true, "1..4", true, "reduce((1..4)[0:1], #acc + d(#), 0)"},
		{"sum(map(1..10, d(6))) + 1", false, "", false, ""},
		{"sum(map(1..10, d(6)), 2 * #)", true, "1..10", false, "sum(map((1..10)[0:1], d(6)), 2 * #)"},
		{"max(map(1..10, d(6)))", false, "", false, ""},
		{"sum(1..10)", false, "", false, ""},
		{"len(map(1..10, d(6)))", true, "1..10", false, "len(map((1..10)[0:1], d(6)))"},
		{"sum(map(1..4, #index * d(6)))", false, "", false, ""},
		{"reduce(1..10, #acc + d(6), 1)", false, "", false, ""},
		{"reduce(1..10, #acc + d(6) - 1, 0)", false, "", false, ""},
		{"reduce(1..10, #acc + d(6) > 3 ? 1 : 0, 0)", false, "", false, ""},
		{"reduce(1..10, #acc * 2 + d(6), 0)", false, "", false, ""},
		{"reduce(1..10, #acc + #acc, 0)", false, "", false, ""},
		{"sum(map(1..10, d(6))", false, "", false, ""},
		{"sum(map(1..10, d(6)))) + (x", false, "", false, ""},
		{"", false, "", false, ""},
	}
	for _, tc := range tests {
		f, ok := FoldOf(tc.src)
		if ok != tc.ok {
			t.Errorf("FoldOf(%q): %v, want %v", tc.src, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if f.List != tc.list || f.PerElement != tc.perElement {
			t.Errorf("FoldOf(%q): list %q per element %v, want %q %v", tc.src, f.List, f.PerElement, tc.list, tc.perElement)
		}
		i := 0
		if tc.src == "sum(map(1..10, attack()))" {
			i = 3
		}
		if got := f.Share(i); got != tc.share {
			t.Errorf("FoldOf(%q).Share(%d) = %q, want %q", tc.src, i, got, tc.share)
		}
	}
}

// FuzzFoldOf: no text makes FoldOf panic, and a fold's share holds its list in brackets.
func FuzzFoldOf(f *testing.F) {
	for _, s := range []string{"sum(map(1..10, attack()))", "count(1..10, d(6) >= 5)", "reduce(1..4, #acc + d(#), 0)",
		"len(filter(map([1, 2], d(6)), # >= 5))", `sum(map(["a", "b"], d(6)))`, "sum(map(", "reduce(1, #acc + , 0)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		fo, ok := FoldOf(src)
		if !ok {
			return
		}
		if share := fo.Share(2); !strings.Contains(share, "("+fo.List+")[2:3]") {
			t.Errorf("FoldOf(%q).Share(2) = %q, without its list %q", src, share, fo.List)
		}
	})
}
