package dsl

import "testing"

// TestCommentInsideExpression: a comment inside an expression (a rule file's, in a
// multi-line one; expr's /* */), with a quote in it, hid the names after it from the
// expression's environment ("unknown name g" since the environment skipped strings' words;
// d16074c checked the file).
func TestCommentInsideExpression(t *testing.T) {
	src := `
const g = 3
rule r(): int {
  return max(1, // it's the floor
    g)
}
rule s(): int {
  return max(1, // a "quote
    g)
}
rule t(): int { return max(1, /* "x */ g /* " */) }
`
	if _, d := LoadSource("c.rules", []byte(src)); d.HasErrors() {
		t.Errorf("diagnostics: %v", d)
	}
}
