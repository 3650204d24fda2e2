package dsl

import (
	"strings"
	"testing"
)

// A list joins with + a value the checker has no type for: a rule's `list` or `any` result,
// a map's entry. The checker refused these ("mismatched types any and list") although both
// sides are lists when the rule runs; a side that is not a list fails when it runs, at the
// operator, as `any + any` does. An int with a list is still refused at check.
func TestListJoinsUntypedValue(t *testing.T) {
	const rules = `
rule ls(): list { return [1, 2] }
rule n(): any { return 3 }
rule m(): map { return {k: [1]} }
const LL = [3]
rule dans_une_règle(): list { return ls() + LL + [4] }
`
	s := sessionOf(t, rules)
	for src, want := range map[string]string{
		"ls() + [1]":        "[1, 2, 1]",
		"[0] + ls()":        "[0, 1, 2]",
		"ls() + LL":         "[1, 2, 3]",
		"LL + ls()":         "[3, 1, 2]",
		`m()["k"] + [5]`:    "[1, 5]",
		"dans_une_règle()":  "[1, 2, 3, 4]",
		"len(ls() + ls())":  "4",
		"(ls() + [9])[2]":   "9",
		"ls() + [1] == LL":  "false",
		"[] + ls() + [] ":   "[1, 2]",
		"ls() + map(LL, #)": "[1, 2, 3]",
	} {
		v, err := s.Eval("<input>", src)
		if err != nil || Repr(v) != want {
			t.Errorf("%s = %v, %v; want %s", src, v, err, want)
		}
	}
	for src, want := range map[string]string{
		"n() + [1]":          "<input>:1:5: cannot apply + to int and list",
		"[1] + n()":          "<input>:1:5: cannot apply + to list and int",
		"1 + [1]":            "<input>:1:3: invalid operation: + (mismatched types int and list)",
		"ls() + [int(1, 2)]": "<input>:1:9: invalid number of arguments (expected 1, got 2)",
	} {
		_, err := s.Eval("<input>", src)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", src, err, want)
		}
	}
}

// A list + nil (the literal) is refused at check, as before lists joined values of no
// static type: nil is no list, whatever runs.
func TestListJoinNilRefusedAtCheck(t *testing.T) {
	for _, src := range []string{
		"rule f(): list { return [1] + nil }",
		"rule f(l: list): list { return nil + l }",
	} {
		_, diags := LoadSource("t.rules", []byte(src))
		if !diags.HasErrors() || !strings.Contains(diags.Error(), "mismatched types") {
			t.Errorf("%s: diagnostics %v, want a check error (mismatched types)", src, diags)
		}
	}
}

// An operand whose type is unknown because its own check failed (2 * []) is no value of
// unknown type: its error is the one reported, as before lists joined such values, not the
// predicate's that the join would make of it.
func TestListJoinFailedOperandReported(t *testing.T) {
	s := sessionOf(t, "rule ls(): list { return [1, 2] }\n")
	for src, want := range map[string]string{
		`filter([1, 2], 2 * [] + ["a"])`: "<input>:1:18: invalid operation: * (mismatched types int and list)",
		`filter([1, 2], [1] + -"a")`:     "<input>:1:22: invalid operation: - (mismatched type string)",
		`filter([1, 2], 2 * [] + ls())`:  "<input>:1:18: invalid operation: * (mismatched types int and list)",
		`count([1, 2], 0) + []`:          "<input>:1:15: predicate should return boolean (got int)",
		`{a: 1}[count([1, 2], 0) + []]`:  "<input>:1:22: predicate should return boolean (got int)",
		`1 + (count([1, 2], 0) + [])`:    "<input>:1:20: predicate should return boolean (got int)",
		`[] + map(1, #)`:                 "<input>:1:10: builtin map takes only array (got int)",
	} {
		_, err := s.Eval("<input>", src)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", src, err, want)
		}
	}
}
