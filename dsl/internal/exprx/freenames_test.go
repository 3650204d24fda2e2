package exprx

import (
	"slices"
	"strings"
	"testing"

	"github.com/expr-lang/expr/parser"
)

// TestFreeNamesWalkerReused: freeNames reuses its walker, and a walk keeps nothing of the
// one before: names seen, declared or called there (past the sets' slices too, in their
// maps) are read again in the next tree.
func TestFreeNamesWalkerReused(t *testing.T) {
	var many []string
	for c := 'a'; c <= 'u'; c++ {
		many = append(many, string(c)+"x")
	}
	names := func(src string) []string {
		tree, err := parser.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		freeNames(tree.Node, func(n string) { out = append(out, n) })
		return out
	}
	for range 2 {
		if got := names(strings.Join(many, " + ")); !slices.Equal(got, many) {
			t.Fatalf("got %v, want %v", got, many)
		}
		if got := names("let fx = 1; f(ax) + fx"); !slices.Equal(got, []string{"ax"}) {
			t.Fatalf("got %v, want [ax]", got)
		}
		if got := names("fx + ax + f(1) + bx"); !slices.Equal(got, []string{"fx", "ax", "bx"}) {
			t.Fatalf("got %v, want [fx ax bx]", got)
		}
	}
}
