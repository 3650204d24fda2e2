package check_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/peek"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// inputRules is the small program behind the input tests and FuzzInput: a deck for card
// literals, a map, a rule with a die-named parameter.
const inputRules = `
deck jeu standard
const BASE = 10
kind U {
  pv: int = BASE
  tags: []string
}
entity u: U { }
rule f(d6) {
  return d6>=3
}
rule g(x: int): int {
  let d20 = x
  return d20 + 1
}
action h() {
  let m = {"a]": 1}
  m["a]"] = 2
  m['b"['] = 3
  return m
}
`

func newInputSession(t testing.TB) *dsl.Session {
	t.Helper()
	prog, diags := dsl.LoadSource("t.rules", []byte(inputRules))
	if diags.HasErrors() {
		t.Fatalf("load: %v", diags)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	peek.Machine(m).Limits.MaxSteps = 10000
	return dsl.NewSession(m)
}

// TestReservedNames: names starting with __ belong to the implementation, in the REPL as in
// rule files.
func TestReservedNames(t *testing.T) {
	s := newInputSession(t)
	if _, err := s.Let("__x", "1"); err == nil || !strings.Contains(err.Error(), "reserved") {
		t.Errorf("let __x: %v", err)
	}
	if err := s.Exec("<input>", "for __i in 1..2 { }"); err == nil || !strings.Contains(err.Error(), "reserved") {
		t.Errorf("for __i: %v", err)
	}
	if _, err := s.Let("if", "1"); err == nil {
		t.Error("let if = 1 accepted")
	}
	if _, err := s.Let("f", "1"); err == nil || !strings.Contains(err.Error(), "f hides the rule") {
		t.Errorf("let f = 1 (a rule): %v", err)
	}
	// The session still works after the refusals.
	if v, err := s.Eval("<input>", "[g(2), f(4)]"); err != nil || runtime.Repr(v) != "[3, true]" {
		t.Errorf("[g(2), f(4)] = %v, %v", v, err)
	}
	// The machine and the rewritten literals are not reachable by name, nor through $env.
	for src, want := range map[string]string{
		"__rt":            "<input>:1:1: names starting with __ are reserved",
		"string(__rt)":    "<input>:1:8: names starting with __ are reserved",
		"__dice(__rt, 1)": "<input>:1:1: names starting with __ are reserved",
		"keys($env)":      "<input>:1:6: $ is not part of the language",
	} {
		_, err := s.Eval("<input>", src)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %s", src, err, want)
		}
	}
	if v, err := s.Eval("<input>", `"__rt $env"`); err != nil || v != "__rt $env" {
		t.Errorf("in a string: %v, %v", v, err)
	}
	for _, src := range []string{"rule f(__x) {\n  return 1\n}\n", "rule f() {\n  let __x = 1\n}\n", "const __x = 1\n",
		"rule f() {\n  return __rt\n}\n", "const x = $env\n", "rule f() {\n  emit \"{__rt}\"\n}\n"} {
		if _, diags := dsl.LoadSource("t.rules", []byte(src)); !diags.HasErrors() || !strings.Contains(diags.Error(), "reserved") && !strings.Contains(diags.Error(), "$") {
			t.Errorf("%q: %v", src, diags)
		}
	}
}

// TestDieNamedVariables: a parameter or local named like a die is that name in its scope,
// even with a comparison glued to it; outside, the die rolls.
func TestDieNamedVariables(t *testing.T) {
	s := newInputSession(t)
	for src, want := range map[string]any{"f(1)": false, "f(3)": true, "f(6)": true, "g(5)": 6} {
		v, err := s.Eval("<input>", src)
		if err != nil || v != want {
			t.Errorf("%s = %v, %v; want %v", src, v, err, want)
		}
	}
	if v, err := s.Eval("<input>", "d6>=1"); err != nil || v.(*runtime.Roll).Total != 1 {
		t.Errorf("d6>=1 outside the rule: %v, %v", v, err)
	}
	if err := s.Exec("<input>", "let d8 = 2"); err != nil {
		t.Fatal(err)
	}
	if v, err := s.Eval("<input>", "d8>=3"); err != nil || v != false {
		t.Errorf("d8>=3 with a session variable d8 = 2: %v, %v", v, err)
	}
	if v, err := s.Eval("<input>", "2d8>=1"); err != nil || v.(*runtime.Roll).Total != 2 {
		t.Errorf("2d8 is never a name: %v, %v", v, err)
	}
}

// TestAssignKeyWithBracketInString: the key of m["a]"] is the whole string.
func TestAssignKeyWithBracketInString(t *testing.T) {
	s := newInputSession(t)
	v, err := s.Eval("<input>", "h()")
	if err != nil {
		t.Fatal(err)
	}
	if got := runtime.Repr(v); got != runtime.Repr(map[string]any{"a]": 2, `b"[`: 3}) {
		t.Errorf("h() = %s", got)
	}
	if err := s.Exec("<input>", "let n = {}\nn[\"x]\"] = 1"); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Var("n"); runtime.Repr(v) != runtime.Repr(map[string]any{"x]": 1}) {
		t.Errorf("n = %s", runtime.Repr(v))
	}
}

// TestNestingLimit: unary operators, blocks and else-if chains count toward MaxNesting in
// rule files; a long flat expression stops at MaxExprTokens; ordinary code is untouched.
func TestNestingLimit(t *testing.T) {
	elseIfs := func(n int) string {
		var b strings.Builder
		b.WriteString("rule f(x) {\n  if x == 0 {\n    return 0\n  }")
		for i := 1; i < n; i++ {
			b.WriteString(" else if x == " + itoa(i) + " {\n    return " + itoa(i) + "\n  }")
		}
		b.WriteString("\n  return -1\n}\n")
		return b.String()
	}
	bad := map[string]string{
		"unary !":     "const x = " + strings.Repeat("!", 1_000_000) + "true\n",
		"unary -":     "const x = " + strings.Repeat("-", 400_000) + "1\n",
		"not":         "rule f(x) {\n  return " + strings.Repeat("not ", 70) + "x\n}\n",
		"mixed":       "const x = " + strings.Repeat("-(", 40) + "1" + strings.Repeat(")", 40) + "\n",
		"blocks":      "rule f(x) {\n" + strings.Repeat("if x {\n", 200_000) + strings.Repeat("}\n", 200_000) + "}\n",
		"for blocks":  "rule f(x) {\n" + strings.Repeat("for i in x {\n", 70) + strings.Repeat("}\n", 70) + "}\n",
		"else if":     elseIfs(100_000),
		"binary ops":  "const x = " + strings.Repeat("1+", 1_000_000) + "1\n",
		"continued":   "const x = " + strings.Repeat("1 ??\n", 30_000) + "1\n",
		"right assoc": "const x = " + strings.Repeat("2 ** ", 30_000) + "1\n",
		"hole unary":  "rule f() {\n  emit \"{" + strings.Repeat("!", 1_000_000) + "true}\"\n}\n",
		"hole parens": "rule f() {\n  emit \"{" + strings.Repeat("(", 100) + "1" + strings.Repeat(")", 100) + "}\"\n}\n",
		"hole long":   "rule f() {\n  emit \"{" + strings.Repeat("1+", 30_000) + "1}\"\n}\n",
	}
	for name, src := range bad {
		_, diags := dsl.LoadSource("t.rules", []byte(src))
		if !diags.HasErrors() || !strings.Contains(diags.Error(), "limit") {
			t.Errorf("%s: %.200v", name, diags)
		}
	}
	good := []string{
		"const x = " + strings.Repeat("!", 60) + "true\n",
		"const x = " + strings.Repeat("-1 - ", 1000) + "-1\n",
		"const x = !(!(!(!true)))\n",
		elseIfs(60),
		"rule f(x) {\n  return not x and not not x or !x\n}\n",
		"rule f(x) {\n  emit \"{-x} {!(x > 1)} {'}'}\"\n}\n",
	}
	for _, src := range good {
		if _, diags := dsl.LoadSource("t.rules", []byte(src)); diags.HasErrors() {
			t.Errorf("%.80q: %v", src, diags)
		}
	}
}

func itoa(i int) string { return strings.TrimSpace(runtime.Repr(i)) }

// TestIndexNamedLikeDie: d["a]"] indexes a variable d; the bracket in the string does not
// end a dice literal.
func TestIndexNamedLikeDie(t *testing.T) {
	s := newInputSession(t)
	if err := s.Exec("<input>", "let d = {\"a]\": 1}\nd[\"a]\"] = 5"); err != nil {
		t.Fatal(err)
	}
	if v, err := s.Eval("<input>", `d["a]"] + d['a]']`); err != nil || v != 10 {
		t.Errorf("d[\"a]\"] + d['a]'] = %v, %v", v, err)
	}
	if got := dsl.OpenBrackets(`d["a]"]`); got != 0 {
		t.Errorf("OpenBrackets = %d", got)
	}
}

// TestHolePositions: a limit reached inside a string's {hole} points into the hole.
func TestHolePositions(t *testing.T) {
	src := "rule f() {\n  emit \"a {" + strings.Repeat("!", 100) + "true}\"\n}\n"
	_, diags := dsl.LoadSource("t.rules", []byte(src))
	if want := "t.rules:2:76: nesting deeper than the limit of 64"; !strings.HasPrefix(diags.Error(), want) {
		t.Errorf("got %v, want %s", diags, want)
	}
	src = "rule f() {\n  emit \"a {`x`}\"\n}\n"
	_, diags = dsl.LoadSource("t.rules", []byte(src))
	if want := "t.rules:2:12: unexpected character \"`\""; !strings.HasPrefix(diags.Error(), want) {
		t.Errorf("got %v, want %s", diags, want)
	}
}

// TestExprErrorsInPlainTerms: expr-lang's token names do not reach the user.
func TestExprErrorsInPlainTerms(t *testing.T) {
	s := newInputSession(t)
	for src, want := range map[string]string{
		"1 +":  "<input>:1:3: unexpected end of input",
		"1 2":  `<input>:1:3: unexpected token "2"`,
		"g(,)": `<input>:1:3: unexpected token ","`,
		"(1))": `<input>:1:4: unexpected token ")"`,
	} {
		_, err := s.Eval("<input>", src)
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", src, err, want)
		}
	}
}
