package check_test

import (
	"fmt"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/runtime"
)

// Recursive kinds: a field of the record's own kind, and two kinds that refer to each other,
// check and run (they used to overflow the stack in check).
func TestRecursiveKinds(t *testing.T) {
	src := `
kind N { s: N, v: int = 3 }
kind A { b: B, nom: string = "a" }
kind B { a: A, nom: string = "b" }
entity x: N { v: 1 }
entity y: N { s: x, v: 2 }
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
		v, _, err := run(t, src+"\naction go(): any {\n lier()\n return "+c.expr+"\n}\n", "go()")
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		if got := runtime.Repr(v); got != c.want && runtime.Str(v) != c.want {
			t.Errorf("%s = %s, want %s", c.expr, got, c.want)
		}
	}
	_, diags := dsl.LoadSource("t.rules", []byte(src+"rule faux(n: N): int { return n.s.s.w }\n"))
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
		_, diags := dsl.LoadSource("t.rules", []byte(src))
		if !strings.Contains(diags.Render(nil), "endlessly") {
			t.Errorf("%q: no endless-default error: %v", src, diags)
		}
	}
	if _, diags := dsl.LoadSource("t.rules", []byte("kind A { b: B = B() }\nkind B { v: int = 1 }\n")); diags.HasErrors() {
		t.Errorf("a finite chain of defaults is rejected: %v", diags)
	}
}

// Whole numbers of declarations that overflow are positioned errors, and decks and maps are
// bounded before they are built (jokers 100000000 used to exhaust memory).
func TestDeclarationNumbers(t *testing.T) {
	big := "99999999999999999999"
	for _, c := range []struct{ src, want string }{
		{"const a = " + big, "1:11: the number " + big + " is too large"},
		{"option a = 9223372036854775808", "1:12: the number 9223372036854775808 is too large"},
		{"kind K { v: int = " + big + " }", "1:19: the number " + big + " is too large"},
		{"dice g = [1, " + big + "]", "1:14: the face " + big + " is too large"},
		{"dice g = [1, -" + big + "]", "the face " + big + " is too large"},
		{"table t(x) {\n  " + big + " : 1\n}", "2:3: the number " + big + " is too large"},
		{"table t(x) {\n  (1 .. " + big + "] : 1\n}", "2:9: the number " + big + " is too large"},
		{"table t roll 1d" + big + " {\n 1 : 1\n}", "is too large"},
		{"deck j {\n jokers " + big + "\n}", "2:2: the joker count " + big + " is too large"},
		{"deck j {\n jokers 1.5\n}", "2:2: the joker count 1.5 is not a whole number"},
		{"deck j {\n rank J " + big + "\n}", "2:2: the value " + big + " is too large"},
		{"deck j {\n jokers 100000000\n}", "over the limit of 1000 cards per deck"},
		{"map m {\n rows { \". .\" }\n legend \".\" plaine\n road (" + big + ", 1)\n}", "4:7: the column " + big + " is too large"},
		{"map m {\n rows { \". .\" }\n legend \".\" plaine\n height (1, 1) -" + big + "\n}", "4:9: the height " + big + " is too large"},
		{"map m {\n rows {\n" + strings.Repeat("\""+strings.Repeat(".", 400)+"\"\n", 300) + "}\n legend \".\" plaine\n}", "over the limit of 100000 hexes per map"},
	} {
		_, diags := dsl.LoadSource("t.rules", []byte(c.src+"\n"))
		if got := diags.Render(nil); !strings.Contains(got, c.want) {
			t.Errorf("%.60q:\n got %s\nwant %s", c.src, got, c.want)
		}
	}
}

// A rolled table whose odds cannot be worked out (too large, or symbols) gets no "can never
// reach" warning: it used to compare every row with the range 0 to 0. A gap its dice can
// roll is an error.
func TestTableReachability(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string // warnings expected, in order; none when empty
	}{
		{"table t roll 500d100000 {\n <= 10 : 1\n 5 : 2\n else : 3\n}\n", nil},
		{"table t roll 1d[a,b] {\n a : 1\n b : 2\n 3 : 3\n}\n", nil},
		{"table t roll 2d6 {\n (1 .. 2) : 1\n [2 .. 2] : 2\n (2 .. 12) : 3\n (12 .. 13] : 4\n 13 : 5\n}\n",
			[]string{"2:2: warning: 2d6 can never reach band (1 .. 2)", "5:2: warning: 2d6 can never reach band (12 .. 13]", "5:2: no row for 12 between this band and the one before", "6:2: warning: 2d6 can never roll 13"}},
		{"table t roll 1d100000 {\n (99999.5 .. 100000.5) : 1\n (100000.5 .. 100001] : 2\n else : 3\n}\n",
			[]string{"3:2: warning: 1d100000 can never reach band (100000.5 .. 100001]"}},
	} {
		_, diags := dsl.LoadSource("t.rules", []byte(c.src))
		var got []string
		for _, d := range diags {
			got = append(got, d.Error())
		}
		if len(got) != len(c.want) {
			t.Errorf("%q: got %q, want %q", c.src, got, c.want)
			continue
		}
		for i := range got {
			if !strings.Contains(got[i], c.want[i]) {
				t.Errorf("%q: got %q, want %q", c.src, got[i], c.want[i])
			}
		}
	}
}

// A const that builds a record gets the kind's defaults (it used to get zero values: the
// defaults were compiled after the consts).
func TestConstRecordDefaults(t *testing.T) {
	v, _, err := run(t, "kind N { v: int = BASE, m: M = M() }\nkind M { w: int = 2 }\nconst BASE = 3\nconst z = N()\n", "z.v * 10 + z.m.w")
	if err != nil || runtime.Repr(v) != "32" {
		t.Errorf("z.v * 10 + z.m.w = %v, %v; want 32", v, err)
	}
	for src, want := range map[string]string{
		"kind N { v: int = BASE }\nconst z = N()\nconst BASE = 3\n":     "2:11: the defaults of N cannot be computed here",
		"kind A { b: B = B() }\nkind B { a: A = A() }\nconst z = A()\n": "field defaults build records endlessly",
	} {
		_, diags := dsl.LoadSource("t.rules", []byte(src))
		if !strings.Contains(diags.Render(nil), want) {
			t.Errorf("%q: got %s, want %s", src, diags.Render(nil), want)
		}
	}
}

// A long chain of kinds, each holding the next, checks and runs.
func TestKindChain(t *testing.T) {
	var b strings.Builder
	n := 3000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "kind K%d { n: K%d = K%d(), v: int = %d }\n", i, i+1, i+1, i)
	}
	fmt.Fprintf(&b, "kind K%d { v: int = -1 }\nentity e: K0 {}\n", n)
	v, _, err := run(t, b.String(), "e.n.n.n.v")
	if err != nil || runtime.Repr(v) != "3" {
		t.Errorf("e.n.n.n.v = %v, %v", v, err)
	}
}

// A parameter's default may call a table or a rule declared after it: every signature is
// read before any default is compiled (a default calling a table was refused as "tb takes
// 0 arguments", the table's parameters not read yet). A default that calls with too many
// arguments is still refused, and defaults see the parameters before them.
func TestDefaultsCallLaterDeclarations(t *testing.T) {
	src := `
rule f(s: string = tb(2)): string { return s }
rule g(n: int = h(), m: int = n + 1): int { return n * 10 + m }
rule r(x = jet(3)): int { return x }
table tb(x) {
  1 .. 3 : "bas"
  else   : "haut"
}
table jet roll 1d6 {
  1 .. 6 : 7
}
rule h(): int { return 4 }
`
	for _, c := range []struct{ expr, want string }{
		{"f()", "bas"},
		{"g()", "45"},
		{"g(1)", "12"},
		{"r()", "7"},
	} {
		v, _, err := run(t, src+"\naction go(): any {\n return "+c.expr+"\n}\n", "go()")
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		if got := runtime.Str(v); got != c.want {
			t.Errorf("%s = %s, want %s", c.expr, got, c.want)
		}
	}
	_, diags := dsl.LoadSource("t.rules", []byte("rule f(s: string = tb(2, 3)): string { return s }\ntable tb(x) {\n  else : \"a\"\n}\n"))
	if !strings.Contains(diags.Render(nil), "tb takes 1 argument") {
		t.Errorf("a default calling a table with too many arguments is not refused: %v", diags)
	}
}

// A default that calls a rule declared after it checks the call against the type that rule's
// untyped parameter takes from its own default, as when the rule comes first: the wrong
// argument is refused at check, not when the default runs ("b: parameter y: expected int").
func TestDefaultCallsLaterUntypedParameter(t *testing.T) {
	for _, src := range []string{
		"rule a(x = b(\"s\")): int { return x }\nrule b(y = 3): int { return y * 2 }\n",
		"rule b(y = 3): int { return y * 2 }\nrule a(x = b(\"s\")): int { return x }\n",
		"rule a(x = c()): int { return x }\nrule c(z = b(\"s\")): int { return z }\nrule b(y = 3): int { return y * 2 }\n",
		// A table's default too (it was compiled before every rule's).
		"table t(n: int, k = b(\"s\")) {\n  else : 1\n}\nrule b(y = 3): int { return y * 2 }\n",
		"rule b(y = 3): int { return y * 2 }\ntable t(n: int, k = b(\"s\")) {\n  else : 1\n}\n",
	} {
		_, diags := dsl.LoadSource("t.rules", []byte(src))
		if !strings.Contains(diags.Render(nil), "parameter y of b is int, got string") {
			t.Errorf("%s: diagnostics %v, want the call refused at check", src, diags)
		}
	}
	// Defaults that call each other in a cycle still check (in declaration order).
	if _, diags := dsl.LoadSource("t.rules", []byte("rule a(x = b()): int { return x }\nrule b(y = a()): int { return y }\n")); diags.HasErrors() {
		t.Errorf("cycle: %v", diags)
	}
}
