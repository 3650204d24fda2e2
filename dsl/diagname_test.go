package dsl

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneDiagnosticType: a diagnostic has one type, defined in package syntax; the facade
// names it for the packages outside dsl, and no other package gives it a name of its own
// (check, runtime and the facade each had an alias).
func TestOneDiagnosticType(t *testing.T) {
	var found []string
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.Contains(path, "testdata") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				ts := s.(*ast.TypeSpec)
				if ts.Name.Name != "Diagnostic" && ts.Name.Name != "Diagnostics" {
					continue
				}
				kind := "type"
				if ts.Assign.IsValid() {
					kind = "alias"
				}
				found = append(found, f.Name.Name+"."+ts.Name.Name+" "+kind)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"syntax.Diagnostic type": true, "syntax.Diagnostics type": true, "dsl.Diagnostic alias": true, "dsl.Diagnostics alias": true}
	for _, f := range found {
		if !want[f] {
			t.Errorf("%s: a diagnostic is syntax.Diagnostic, named again only by the facade", f)
		}
		delete(want, f)
	}
	for w := range want {
		t.Errorf("missing %s", w)
	}
}
