package dsl

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rulesh/dsl/internal/ruletest"
	"rulesh/stdlib/dice"
)

// FuzzLoad feeds arbitrary bytes to the parser and checker: whatever the input, loading must
// return a program or diagnostics, never panic or hang. Seeds: every rule file in the repo.
func FuzzLoad(f *testing.F) {
	for _, pattern := range []string{"check/testdata/diag/*.rules", "../rulesets/*/*.rules"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil && len(b) < 20000 {
				f.Add(b)
			}
		}
	}
	f.Add([]byte(unitRules))
	f.Add([]byte("rule f() {\n  emit \"{1 + }\"\n}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		prog, diags := LoadSource("fuzz.rules", src)
		if prog == nil && !diags.HasErrors() {
			t.Fatal("no program and no error")
		}
		_ = diags.Render(Sources{"fuzz.rules": src})
		if prog == nil {
			return
		}
		m, err := NewMachine(prog, dice.NewPCG(1), nil)
		if err != nil {
			return
		}
		l := m.Limits()
		l.MaxSteps = 10000
		m.SetLimits(l)
		for _, p := range prog.p.Procs {
			if p.MinArg == 0 {
				_, _ = m.m.CallProc(p)
			}
		}
	})
}

// unitRules is shared with the other packages' tests.
const unitRules = ruletest.UnitRules

// issueInputs are the inputs that crashed or ran away in issue 11, as REPL/eval text. The
// deep chains are just past the limit: the fuzzer slows to a crawl on large seeds, and the
// unit tests try the full sizes.
var issueInputs = []string{
	`"`, `'`, "1d6\xff", "1d6 \xff\xfe", "Q♣\xff", "Q♣ \xffx",
	strings.Repeat("!", 100) + "true", strings.Repeat("-", 100) + "1", strings.Repeat("- ", 100) + "1",
	strings.Repeat("not ", 100) + "true", strings.Repeat("(", 100), strings.Repeat("-(", 40) + "1",
	"let __x = 1", `m["a]"] = 2`, "// (", "1 // (\n2", "f(3)", "d6>=3", "h()",
	"for __i in 1..3 { }", "__rt", "keys($env)", "let d6 = 2\nd6>=3", "\"{\" + '}'", "emit \"{1 + }\"",
}

// leaks are texts that must never reach a user: Go's own words.
var leaks = []string{"panic", "goroutine", "runtime error", "interface {}", "*dsl."}

// FuzzInput feeds arbitrary text to a session on a small program, as the REPL and `eval`
// do: Eval, Exec and Let must answer with a value or an error in the language's terms.
func FuzzInput(f *testing.F) {
	for _, s := range issueInputs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		s := newInputSession(t)
		check := func(what string, err error) {
			if err == nil {
				return
			}
			for _, l := range leaks {
				if strings.Contains(err.Error(), l) {
					t.Fatalf("%s(%q): %v", what, src, err)
				}
			}
		}
		_, err := s.Eval("<input>", src)
		check("Eval", err)
		check("Exec", s.Exec("<input>", src))
		if name, rest, ok := strings.Cut(strings.TrimPrefix(src, "let "), "="); ok && strings.HasPrefix(src, "let ") {
			_, err := s.Let(strings.TrimSpace(name), rest)
			check("Let", err)
		}
	})
}

// FuzzFormat: formatting refuses exactly what check refuses, is idempotent, and does not
// change what check says (the same number of errors) about a file, nor its outline (the
// names and kinds of its declarations).
func FuzzFormat(f *testing.F) {
	for _, pattern := range []string{"check/testdata/diag/*.rules", "../rulesets/*/*.rules"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil && len(b) < 20000 {
				f.Add(b)
			}
		}
	}
	f.Add([]byte(inputRules))
	for _, s := range issueInputs {
		f.Add([]byte("rule f(x) {\n  return " + s + "\n}\n"))
	}
	f.Add([]byte("rule f(x) {\n" + strings.Repeat("if x {", 100) + strings.Repeat("}", 100) + "\n}\n"))
	f.Add([]byte("const x = \"a\\\n  \"\n"))
	f.Add([]byte("const x = 1\u00a0\n"))
	f.Add([]byte("rule    hit( h:Hero ) : bool {\n  return d(6)+h.bonus>=5 && 3d6>=12 && x - -1 > 40%\n}\n"))
	f.Add([]byte("const x = [4d6kh3,2d6!r<3, d%,{4d10+5d6}k2, 1d[a]ro=b, Q♣, 1..6, a?b:c, a ?: b, a??b]\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		out, err := Format("f.rules", src)
		_, before := LoadSource("f.rules", src)
		if err != nil {
			if !before.HasErrors() {
				t.Fatalf("fmt refuses a file check accepts: %v", err)
			}
			return
		}
		again, err := Format("f.rules", out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %v\n%q\n%q", err, out, again)
		}
		_, after := LoadSource("f.rules", out)
		if errorCount(before) != errorCount(after) {
			t.Fatalf("check differs after fmt:\nbefore: %v\nafter: %v\n%q", before, after, out)
		}
		if !before.HasErrors() {
			if a, b := outlineNames(t, src), outlineNames(t, out); a != b {
				t.Fatalf("outline differs after fmt:\nbefore: %s\nafter:  %s\n%q", a, b, out)
			}
		}
	})
}

// outlineNames is the outline of src as one line of sorts and names.
func outlineNames(t *testing.T, src []byte) string {
	syms, _, err := Outline("f.rules", src)
	if err != nil {
		t.Fatalf("outline: %v", err)
	}
	var b strings.Builder
	for _, s := range syms {
		b.WriteString(s.Sort + " " + s.Name + "; ")
	}
	return b.String()
}

// TestFormatKeepsShippedOutlines: every shipped rule file, formatted, has the same outline
// and the same diagnostics.
func TestFormatKeepsShippedOutlines(t *testing.T) {
	files, _ := filepath.Glob("../rulesets/*/*.rules")
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Format(file, src)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if a, b := outlineNames(t, src), outlineNames(t, out); a != b {
			t.Errorf("%s: outline differs after fmt", file)
		}
	}
}

func errorCount(ds Diagnostics) int {
	n := 0
	for _, d := range ds {
		if d.Severity == Error {
			n++
		}
	}
	return n
}
