package syntax

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFormatShippedRules: formatting every shipped rule file is idempotent, keeps it loading,
// and the files are already in canonical form.
func TestFormatShippedRules(t *testing.T) {
	files, _ := filepath.Glob("../../../rulesets/*/*.rules")
	if len(files) == 0 {
		t.Fatal("no rule files")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		once, err := Format(f, src)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		twice, _ := Format(f, once)
		if string(once) != string(twice) {
			t.Errorf("%s: formatting is not idempotent", f)
		}
		if string(once) != string(src) {
			t.Errorf("%s is not in canonical form (rulesh fmt -w %s)", f, f)
		}
	}
}

func TestFormatReindents(t *testing.T) {
	src := "rule f(x) {\n      let y = x +\n 1\n\n\n  if y > 2 {\nemit \"{y}\"   \n        }\n return y\n}\n"
	want := "rule f(x) {\n  let y = x +\n    1\n\n  if y > 2 {\n    emit \"{y}\"\n  }\n  return y\n}\n"
	got, err := Format("t.rules", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if _, err := Format("bad.rules", []byte("rule f( {")); err == nil {
		t.Error("a file that does not parse is not formatted")
	}
}

// TestFormatRefusesWhatLoadRefuses: fmt runs the checks Load makes before parsing (text,
// nesting) and refuses with the same diagnostic; deep blocks used to overflow the stack.
func TestFormatRefusesWhatLoadRefuses(t *testing.T) {
	for name, src := range map[string]string{
		"deep blocks":  "rule f(x) {\n" + strings.Repeat("if x {", 200_000) + strings.Repeat("}", 200_000) + "\n}\n",
		"deep unary":   "const x = " + strings.Repeat("!", 1_000_000) + "true\n",
		"not UTF-8":    "const x = \"\xff\"\n",
		"NUL":          "const x = 1\x00\n",
		"syntax":       "rule f( {\n",
		"long":         "const x = " + strings.Repeat("1+", 30_000) + "1\n",
		"unterminated": "const x = \"a\\\n\"\n",
	} {
		_, err := Format("t.rules", []byte(src))
		_, diags := checkSource("t.rules", []byte(src))
		if err == nil || !diags.HasErrors() || err.Error() != diags.Error() {
			t.Errorf("%s: fmt says %.200v, check says %.200v", name, err, diags)
		}
	}
}

// TestFormatKeepsOtherSpaces: only the blanks the lexer skips are trimmed, so formatting
// cannot make a rejected file valid.
func TestFormatKeepsOtherSpaces(t *testing.T) {
	src := "const x = 1\u00a0\n"
	if _, err := Format("t.rules", []byte(src)); err == nil {
		t.Error("a no-break space after code was trimmed away")
	}
	got, err := Format("t.rules", []byte("const x = 1 // é\u00a0\n"))
	if err != nil || string(got) != "const x = 1 // é\u00a0\n" {
		t.Errorf("%q, %v", got, err)
	}
}

// TestFormatRecordFields: fmt rewrites an entity's fields from the older name = value to
// name: value, keeping values aligned in a column, and changes nothing else: a `=` in a
// value, a comparison, a const, a kind's default and a comment stay as written.
func TestFormatRecordFields(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"entity a: K { nom = \"A\", pv = 5 }\n", "entity a: K { nom: \"A\", pv: 5 }\n"},
		{"entity a: K { nom=\"A\",pv =5, x= 1 }\n", "entity a: K { nom: \"A\", pv: 5, x: 1 }\n"},
		{"entity a: K {\n  nom        = \"A\"\n  potentiels = {a: 1}\n}\n", "entity a: K {\n  nom:        \"A\"\n  potentiels: {a: 1}\n}\n"},
		{"entity a: K { ok = 1 == 2, nom: \"x = y\" } // pv = 3\n", "entity a: K { ok: 1 == 2, nom: \"x = y\" } // pv = 3\n"},
		{"kind K { pv: int = 3 }\nconst c = 1\nentity a: K { pv = c }\n", "kind K { pv: int = 3 }\nconst c = 1\nentity a: K { pv: c }\n"},
		{"entity a: K { d6\t=\t2 }\r\n", "entity a: K { d6: 2 }\n"},
	} {
		got, err := Format("t.rules", []byte(c.src))
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		if string(got) != c.want {
			t.Errorf("%q:\ngot  %q\nwant %q", c.src, got, c.want)
		}
	}
}
