package runtime_test

import (
	"strings"
	"testing"

	"rulesh/dsl/internal/runtime"
)

// TestFieldWriteThroughParameter: a field written through a parameter of the record's kind
// (whose kind the write does not read again) is conformed to the field's type, and refused,
// as a field of an entity is.
func TestFieldWriteThroughParameter(t *testing.T) {
	s := session(t, `kind V {
  nom: string
}
kind A {
  ville: V
  n: int
  f: float
}
entity v: V { nom: "Bourg" }
entity a: A { ville: v }
action pose_n(x: A, val: any) {
  x.n = val
}
action pose_f(x: A, val: any) {
  x.f = val
}
action pose_ville(x: A, val: any) {
  x.ville = val
}
`)
	for _, c := range []struct{ src, check, want, err string }{
		{"pose_n(a, 3.0)", "a.n", "3", ""},
		{"pose_f(a, 2)", "a.f", "2.0", ""},
		{"pose_ville(a, nil)", "a.ville == nil", "true", ""},
		{"pose_ville(a, v)", "a.ville.nom", `"Bourg"`, ""},
		{`pose_n(a, "x")`, "a.n", "3", `t.rules:12:3: field n: expected int, got "x"`},
		{"pose_n(a, 2.5)", "a.n", "3", "field n: expected an int, got 2.5"},
		{`pose_ville(a, "Bourg")`, "a.ville.nom", `"Bourg"`, "field ville: expected a V"},
	} {
		_, err := s.Eval("<e>", c.src)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one containing %q", c.src, err, c.err)
			}
		} else if err != nil {
			t.Errorf("%s: %v", c.src, err)
		}
		v, err := s.Eval("<e>", c.check)
		if err != nil || runtime.Repr(v) != c.want {
			t.Errorf("after %s: %s = %s, %v; want %s", c.src, c.check, runtime.Repr(v), err, c.want)
		}
	}
}
