package exprx_test

import (
	"path/filepath"
	"testing"

	"github.com/expr-lang/expr/conf"

	"rulesh/dsl"
	"rulesh/dsl/internal/exprx"
)

// TestQuickParseShipped: every text the shipped rulesets parse, which quickParse takes, gets
// the tree expr's parser builds, in the configuration it is parsed with; and quickParse
// takes most of them (else it would be code for nothing).
func TestQuickParseShipped(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "rulesets", "*", "*.rules"))
	if err != nil || len(files) == 0 {
		t.Fatal("no rulesets", err)
	}
	var texts, quick int
	exprx.SetOnParse(func(src string, cfg *conf.Config) {
		texts++
		took, diff := exprx.QuickParseDiff(src, cfg)
		if took {
			quick++
		}
		if diff != "" {
			t.Errorf("%q: %s", src, diff)
		}
	})
	defer exprx.SetOnParse(nil)
	for _, f := range files {
		if _, d := dsl.Load(nil, f); d.HasErrors() {
			t.Fatalf("%s: %v", f, d)
		}
		if _, d := dsl.Check(nil, f); d.HasErrors() {
			t.Fatalf("%s: %v", f, d)
		}
	}
	t.Logf("quickParse took %d of %d texts", quick, texts)
	if texts == 0 || quick*2 < texts {
		t.Errorf("quickParse took %d of %d texts, expected most", quick, texts)
	}
}
