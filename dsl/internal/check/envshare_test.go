package check_test

import (
	"testing"

	"rulesh/dsl"
)

// TestSameTextOtherTypes: an expression's text written again where its names have other
// types (a parameter of another kind, an int, a const) is checked
// against those types: the environments the compiler shares between expressions are
// shared only between the same names of the same types.
func TestSameTextOtherTypes(t *testing.T) {
	const src = `kind K { nom: string, pv: int }
kind L { nom: int }
const y = 1
rule a(x: K) {
  return x.nom + "!"
}
rule b(x: L) {
  return x.nom + "!"
}
rule c(x: int) {
  return x.nom + "!"
}
rule e(x: K) {
  return x.nom
}
rule f() {
  return y.nom
}
rule g(x: K) {
  return y.pv + x.pv
}
`
	const want = "8:16: invalid operation: + (mismatched types int and string) ()\n" +
		"11:12: type int has no field nom ()\n" +
		"17:12: type int has no field nom ()\n" +
		"20:12: type int has no field pv ()\n"
	_, diags := dsl.LoadSource("t.rules", []byte(src))
	if got := diagLines(diags); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
