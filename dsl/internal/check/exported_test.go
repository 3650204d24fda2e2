package check_test

import (
	"testing"

	"rulesh/dsl/internal/check"
	"rulesh/dsl/internal/libtest"
)

// The results of NewCompiler and NewScope have exported types, so a caller can name them
// (hold one in a field, pass one to a function of its own).
func TestConstructorsReturnNamedTypes(t *testing.T) {
	var c *check.Compiler = check.NewCompiler(check.NewProgram(libtest.Library(), nil, nil))
	if c == nil || len(c.Diags) != 0 {
		t.Fatalf("a new compiler: %v", c)
	}
	var sc *check.Scope = check.NewScope(check.ProcScope)
	if sc.Vars == nil || len(sc.Vars) != 0 {
		t.Fatalf("a new scope has variables %v", sc.Vars)
	}
}
