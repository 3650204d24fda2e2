package dsl

import (
	"strings"
	"testing"
)

// Recursive kinds: a field of the record's own kind, and two kinds that refer to each other,
// check and run (they used to overflow the stack in check).
func TestRecursiveKinds(t *testing.T) {
	src := `
kind N { s: N, v: int = 3 }
kind A { b: B, nom: string = "a" }
kind B { a: A, nom: string = "b" }
entity x: N { v = 1 }
entity y: N { s = x, v = 2 }
action lier() { x.s = y }
rule loin(n: N): int { return n.s.s.s.v }
rule croisé(a: A): string { return a.b.a.b.nom }
rule vide(): any { return N().s }
`
	for _, c := range []struct{ expr, want string }{
		{"loin(y)", "1"},
		{"vide()", "nil"},
		{"croisé(A({b: B({a: A({b: B({nom: \"fond\"})})})}))", "fond"},
	} {
		v, _, err := run(t, src+"\nrule go(): any {\n lier()\n return "+c.expr+"\n}\n", "go()")
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		if got := Repr(v); got != c.want && Str(v) != c.want {
			t.Errorf("%s = %s, want %s", c.expr, got, c.want)
		}
	}
	_, diags := LoadSource("t.rules", []byte(src+"rule faux(n: N): int { return n.s.s.w }\n"))
	if !diags.HasErrors() || !strings.Contains(diags.Render(nil), "unknown field w") {
		t.Errorf("a wrong field deep in a recursive kind is not reported: %v", diags)
	}
}

// A default that builds a record of a kind whose defaults build it again is an error at
// check time, not an endless recursion at run time.
func TestEndlessDefaults(t *testing.T) {
	for _, src := range []string{
		"kind N { s: N = N() }\n",
		"kind A { b: B = B() }\nkind B { a: A = A({}) }\nentity e: A {}\n",
		"kind A { b: B = B() }\nkind B { c: C = C() }\nkind C { a: A = A() }\n",
	} {
		_, diags := LoadSource("t.rules", []byte(src))
		if !strings.Contains(diags.Render(nil), "endlessly") {
			t.Errorf("%q: no endless-default error: %v", src, diags)
		}
	}
	if _, diags := LoadSource("t.rules", []byte("kind A { b: B = B() }\nkind B { v: int = 1 }\n")); diags.HasErrors() {
		t.Errorf("a finite chain of defaults is rejected: %v", diags)
	}
}
