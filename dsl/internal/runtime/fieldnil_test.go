package runtime_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// TestRecordFieldBackToNil: a field of a kind starts at nil and may be set back to nil, by
// assignment or in a constructor, as a hex field may; other types still refuse nil.
func TestRecordFieldBackToNil(t *testing.T) {
	src := "ruleset \"n\"\nkind V {\n  nom: string\n}\nkind A {\n  ville: V\n  n: int\n}\nentity v: V { nom: \"Bourg\" }\nentity a: A { ville: v }\n"
	prog, d := dsl.LoadSource("n.rules", []byte(src))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := dsl.NewSession(m)
	for _, c := range []struct{ src, want, err string }{
		{"a.ville.nom", `"Bourg"`, ""},
		{"a.ville = nil", "", ""},
		{"a.ville == nil", "true", ""},
		{"A({ville: nil}).ville == nil", "true", ""},
		{"A({ville: v}).ville.nom", `"Bourg"`, ""},
		{"a.ville = v", "", ""},
		{"a.ville.nom", `"Bourg"`, ""},
		{"a.n = nil", "", "field n: expected"},
		{`a.ville = "Bourg"`, "", "field ville is V, got string"},
		{`a.ville = [1, "Bourg"][1]`, "", "field ville: expected a V"},
		{"A({n: nil})", "", "A.n: expected"},
	} {
		var v any
		var err error
		if strings.Contains(c.src, " = ") {
			err = s.Exec("<e>", c.src)
		} else {
			v, err = s.Eval("<e>", c.src)
		}
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one containing %q", c.src, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		if c.want != "" && runtime.Repr(v) != c.want {
			t.Errorf("%s = %s, want %s", c.src, runtime.Repr(v), c.want)
		}
	}
}
