package dsl

import (
	"bytes"
	"strings"
	"testing"
)

// TestTableLintBounded: the lints of a row against every row above it (a band the rows above
// hold whole) are quadratic, and made checking a generated table of 100,000 bands run for
// minutes. A hand-sized table gets them; one past 2,000 bands gets the overlap and gap checks
// alone.
func TestTableLintBounded(t *testing.T) {
	for _, c := range []struct {
		n    int
		want bool
	}{{10, true}, {2001, false}} {
		src := genBands(c.n)
		src = bytes.Replace(src, []byte("{\n"), []byte("{\n  < 100000 : -1\n"), 1) // holds every band below it
		_, diags := LoadSource("bands.rules", src)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		got := strings.Contains(diags.Error(), "no key reaches band")
		if got != c.want {
			t.Errorf("%d bands under one that holds them: warned %v, want %v (%v)", c.n, got, c.want, diags)
		}
	}
}
