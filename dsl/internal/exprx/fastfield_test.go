package exprx_test

import (
	"fmt"
	"testing"

	"rulesh/dsl/internal/check"
	"rulesh/dsl/internal/exprx"
	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
)

// fieldRules have entities of two kinds, one with a field that is not a string.
const fieldRules = `
ruleset "t"
kind Poste {
  nom: string
  rôle: string = ""
  rang: int = 1
}
kind Navire { nom: string }
entity p1: Poste { nom: "vigie" }
entity p2: Poste { nom: "canon", rôle: "appui" }
entity n1: Navire { nom: "brick" }
entity p3: Poste { nom: "cale", rôle: "soin", rang: 2 }
`

// The predicates over entities(kind), and those whose body compares a field of the element
// with a string (read from the record without the operator), against the VM: the same value,
// the same error at the same place, the same steps, the same failure under every step limit.
func TestFieldPredicatesMatchVM(t *testing.T) {
	files, sources, diags := syntax.ParseFiles(memFiles{"t.rules": []byte(fieldRules)}, "t.rules")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	prog := check.NewProgram(library(), sources, []string{"t.rules"})
	if diags := check.CheckFiles(prog, files); diags.HasErrors() {
		t.Fatal(diags)
	}
	world := map[string]string{"l": `[p1, 1, p2]`, "ms": `[{rôle: ""}, {rôle: 2}, {nom: "x"}, {rôle: "appui"}]`, "s": `"appui"`}
	types := map[string]*runtime.Type{"l": runtime.ListType, "ms": runtime.ListType, "s": runtime.StringType}
	values := map[string]*runtime.Expr{}
	for name, src := range world {
		vx := expr(src)
		if _, diags, cerr := exprx.NewCompiler(prog).Compile(vx, &scope{prog: prog, inProc: true}); diags != nil || cerr != nil {
			t.Fatalf("value %s: %v %v", src, diags, cerr)
		}
		values[name] = vx
	}
	var texts []string
	for _, coll := range []string{`entities("Poste")`, `entities("Navire")`, "ms", "l", `[p1, n1]`} {
		for _, body := range []string{`#.rôle == ""`, `#.rôle != ""`, `"appui" == #.rôle`, `"" != .rôle`, `.rôle == "soin"`,
			`#.rang == "1"`, `#.nom != "vigie"`, `#.absent == ""`, `#.rôle == s`, `#?.rôle == ""`} {
			for _, f := range []string{"filter(%s, %s)", "any(%s, %s)", "all(%s, %s)", "none(%s, %s)", "one(%s, %s)",
				"count(%s, %s)", "find(%s, %s)", "findIndex(%s, %s)", "findLast(%s, %s)", "findLastIndex(%s, %s)",
				"map(filter(%s, %s), .nom)", "len(filter(%s, %s))"} {
				texts = append(texts, fmt.Sprintf(f, coll, body))
			}
		}
		texts = append(texts, "map("+coll+", #)", "sum("+coll+", 1)", "count("+coll+")")
	}
	texts = append(texts, `filter(entities("Poste"), any(entities("Poste"), .rôle == "appui"))`,
		`map(filter(entities("Poste"), #.rôle != ""), filter(entities("Poste"), #.rôle == ""))`)
	compared := 0
	for _, text := range texts {
		x := expr(text)
		if _, diags, cerr := exprx.NewCompiler(prog).Compile(x, &scope{prog: prog, locals: types, inProc: true}); diags.HasErrors() || cerr != nil {
			continue // a field the checker knows no kind to have
		}
		compared++
		if x.Fast == nil {
			t.Errorf("%s is left to the VM", text)
			continue
		}
		matchesVMCounted(t, prog, values, x, text)
	}
	if compared < len(texts)*3/4 {
		t.Errorf("only %d of %d expressions compile", compared, len(texts))
	}
}
