package dsl

import (
	"fmt"
	"testing"

	"rulesh/stdlib/dice"
)

// TestListsShareNothing: lists written as [] or joined with a literal (x + [e]) are values
// of their own: growing one (+=, + […]) never shows in another, within a call or across
// calls, whichever list the closures reuse for [].
func TestListsShareNothing(t *testing.T) {
	src := `rule f(): any {
  let a = []
  let b = []
  a += [1]
  let c = a + [2]
  a = a + [3, 4]
  let out = []
  for i in 1..3 {
    let e = []
    e += [i]
    e = e + [i * 10]
    out = out + [e]
  }
  return [a, b, c, out, [] + [5], b]
}
`
	prog, d := LoadSource("t.rules", []byte(src))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	const want = "[[1 3 4] [] [1 2] [[1 10] [2 20] [3 30]] [5] []]"
	for i := range 3 {
		v, err := m.Call("f")
		if got := fmt.Sprint(v); err != nil || got != want {
			t.Fatalf("call %d: %s %v, want %s", i, got, err, want)
		}
	}
}
