package dsl

import "testing"

// TestCommentInsideExpression: a rule file's comment inside a multi-line expression, with a
// quote in it, hid the names after it from the expression's environment ("unknown name g"
// since the environment skipped strings' words; d16074c checked the file).
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
`
	if _, d := LoadSource("c.rules", []byte(src)); d.HasErrors() {
		t.Errorf("diagnostics: %v", d)
	}
}
