package exprx_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/parser"
	"rulesh/dsl"
	"rulesh/dsl/internal/exprx"
	"rulesh/dsl/internal/ruletest"
	"rulesh/dsl/internal/runtime"
)

// TestPipelineMatchesExpr: the checks patchAndCheck leaves out and the optimizer passes it
// skips change nothing. Every rule file of the repository (the shipped rulesets, and the
// files of the tests, refused ones included) is loaded through both pipelines; each
// expression's tree, every node's type, and the diagnostics must be the same.
func TestPipelineMatchesExpr(t *testing.T) {
	files := ruletest.RuleFiles(t, filepath.Join("..", "..", ".."))
	load := func(exact bool) []string {
		var out []string
		exprx.SetExprPipeline(exact, func(src string, tree *parser.Tree) { out = append(out, src+"\n"+dumpTree(tree.Node)) })
		defer exprx.SetExprPipeline(false, nil)
		for _, f := range files {
			prog, diags := dsl.Load(nil, f)
			var srcs dsl.Sources
			if prog != nil {
				srcs = prog.Sources()
			}
			out = append(out, f+": "+diags.Render(srcs))
		}
		return out
	}
	want, got := load(true), load(false)
	if len(want) != len(got) {
		t.Fatalf("expr's pipeline gave %d results, ours %d", len(want), len(got))
	}
	checked := 0
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("expr's pipeline:\n%s\nours:\n%s", want[i], got[i])
		}
		if strings.Contains(want[i], "\n") {
			checked++
		}
	}
	if checked < 1000 {
		t.Errorf("only %d expressions compared", checked)
	}
}

// dumpTree writes a tree's nodes in walk order, each with its Go type, what it holds and
// expr's type. (ast's String would JSON-encode the procedures held as constants, the whole
// program each time.)
func dumpTree(n ast.Node) string {
	d := &dumper{}
	ast.Walk(&n, d)
	return d.b.String()
}

type dumper struct{ b strings.Builder }

func (d *dumper) Visit(n *ast.Node) {
	var what any
	switch n := (*n).(type) {
	case *ast.IdentifierNode:
		what = n.Value
	case *ast.IntegerNode:
		what = n.Value
	case *ast.FloatNode:
		what = n.Value
	case *ast.StringNode:
		what = n.Value
	case *ast.BoolNode:
		what = n.Value
	case *ast.ConstantNode:
		what = fmt.Sprintf("%T", n.Value)
		if p, ok := n.Value.(*runtime.Proc); ok {
			what = "proc " + p.Name
		}
	case *ast.UnaryNode:
		what = n.Operator
	case *ast.BinaryNode:
		what = n.Operator
	case *ast.MemberNode:
		what = fmt.Sprint(n.Optional, n.Method)
	case *ast.BuiltinNode:
		what = n.Name
	case *ast.VariableDeclaratorNode:
		what = n.Name
	case *ast.PointerNode:
		what = n.Name
	}
	fmt.Fprintf(&d.b, "%T %v %v %v\n", *n, what, (*n).Type(), (*n).Nature().String())
}

// TestChecksAfterTheSecondChangeNothing: what lets patchAndCheck make two checks in a row
// where expr makes three. Every text the repository's rule files parse is checked four
// times in its configuration: from the second check on, the tree, its types and the error
// are the same each time. (The first may differ from the second: a call typed by the first
// is not checked again, nor are its arguments.)
func TestChecksAfterTheSecondChangeNothing(t *testing.T) {
	files := ruletest.RuleFiles(t, filepath.Join("..", "..", ".."))
	var texts, differ int
	exprx.SetOnParse(func(src string, cfg *conf.Config) {
		c := *cfg
		tree, err := parser.ParseWithConfig(src, &c)
		if err != nil {
			return
		}
		texts++
		var got [4]string
		var v checker.Checker
		for i := range got {
			_, err := v.Check(tree, &c)
			got[i] = fmt.Sprint(err) + "\n" + dumpTree(tree.Node)
		}
		if got[0] != got[1] {
			differ++
			if strings.HasPrefix(got[0], "<nil>\n") {
				t.Errorf("%q: a check without error was followed by\n%s\nafter\n%s", src, got[1], got[0])
			}
		}
		for i := 2; i < len(got); i++ {
			if got[i] != got[1] {
				t.Errorf("%q: check %d gave\n%s\ncheck 2 gave\n%s", src, i+1, got[i], got[1])
			}
		}
	})
	defer exprx.SetOnParse(nil)
	for _, f := range files {
		dsl.Load(nil, f)
	}
	t.Logf("%d texts checked, %d whose second check differs from the first", texts, differ)
	if texts < 1000 {
		t.Errorf("only %d texts checked", texts)
	}
}
