package exprx_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/dsltest"
)

const recordRules = `
kind Perso {
  nom: string
  pv: int = 10
}
entity ariane: Perso { nom: "Ariane" }
entity brutus: Perso { nom: "Brutus" }
const ÉTATS = ["frais", "blessé", "hors de combat"]
`

// TestRecordWords: expr-lang calls a record a map ("mismatched types map and map", "cannot
// use int as type string in map key"); what records cannot do is said with their kind's
// name instead, and an index past a list's end as written (ÉTATS[-99] said -96).
func TestRecordWords(t *testing.T) {
	dsltest.CheckCases(t, recordRules, []dsltest.Case{
		{Name: "order", Src: `ariane < brutus`, Err: "Perso values have no order (<)"},
		{Name: "arithmetic", Src: `1 + ariane`, Err: "Perso values have no arithmetic (+)"},
		{Name: "an int as a field", Src: `1 in ariane`, Err: "cannot use int as a field name of Perso"},
		{Name: "an int as an index", Src: `ariane[1]`, Err: "cannot use int as a field name of Perso"},
		{Name: "sort", Src: `sort([ariane, brutus])`, Err: "Perso values have no order: sort cannot compare them"},
		{Name: "a field by name", Src: `"pv" in ariane`, Want: "true"},
		{Name: "a field by index", Src: `ariane["pv"]`, Want: "10"},
		{Name: "equal", Src: `ariane == brutus`, Want: "false"},
		{Name: "sorted by a field", Src: `map(sortBy([brutus, ariane], #.nom), #.nom)`, Want: `["Ariane", "Brutus"]`},
		{Name: "far before", Src: `ÉTATS[-99]`, Err: "index -99 out of range (the list has 3 elements)"},
		{Name: "just before", Src: `ÉTATS[-4]`, Err: "index -4 out of range (the list has 3 elements)"},
		{Name: "past the end", Src: `ÉTATS[3]`, Err: "index 3 out of range (the list has 3 elements)"},
		{Name: "last", Src: `ÉTATS[-1]`, Want: `"hors de combat"`},
	})
}

// TestRecordOrderAtLoad: in a rule, parameters of a record kind compared with < are a load
// error where the comparison is written.
func TestRecordOrderAtLoad(t *testing.T) {
	src := recordRules + "rule bas(p: Perso, q: Perso): bool { return p < q }\n"
	_, d := dsl.LoadSource("t.rules", []byte(src))
	if want := "t.rules:9:47: Perso values have no order (<)"; !strings.Contains(d.Error(), want) {
		t.Errorf("got %v, want %s", d, want)
	}
}
