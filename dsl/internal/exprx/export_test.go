package exprx

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/parser"

	"rulesh/dsl/internal/runtime"
)

// Disassemble shows the VM program an expression was compiled to ("" when it skips the VM).
func Disassemble(x *runtime.Expr) string {
	cd, ok := codeOf(x)
	if !ok {
		return ""
	}
	prog, err := cd.program()
	if err != nil {
		return err.Error()
	}
	return prog.Disassemble()
}

// VMOnly is how many expressions were left to the VM since the process started.
func VMOnly() int64 { return vmOnly.Load() }

// SetNoFast leaves the expressions compiled from now on to the VM alone.
func SetNoFast(on bool) { noFast = on }

// HasBytecode reports whether an expression's VM program has been compiled yet.
func HasBytecode(x *runtime.Expr) bool {
	cd, ok := codeOf(x)
	if !ok {
		return false
	}
	cd.mu.Lock() // program writes prog under it
	defer cd.mu.Unlock()
	return cd.prog != nil
}

// SetExprPipeline checks every expression compiled from now on as expr's own ParseCheck and
// Optimize do, and shows each checked tree to f (nil: none).
func SetExprPipeline(on bool, f func(src string, tree *parser.Tree)) {
	exprPipeline, onChecked = on, f
}

// QuickParseDiff parses src with quickParse and with expr's parser under cfg. It reports
// whether quickParse took the text, and what differs when it did: an error of expr's, or
// the trees (dumped, locations included).
func QuickParseDiff(src string, cfg *conf.Config) (bool, string) {
	got, _, ok := quickParse(src, cfg, nil, new(quickNodes))
	if !ok {
		return false, ""
	}
	want, err := parser.ParseWithConfig(src, cfg)
	if err != nil {
		return true, "quickParse took a text expr refuses: " + err.Error()
	}
	if !reflect.DeepEqual(got, want) {
		return true, fmt.Sprintf("quickParse\n%s\nexpr\n%s", dumpLocated(got.Node), dumpLocated(want.Node))
	}
	return true, ""
}

// dumpLocated is ast.Dump with each node's location.
func dumpLocated(n ast.Node) string {
	var b strings.Builder
	var walk func(n ast.Node, depth int)
	walk = func(n ast.Node, depth int) {
		if n == nil {
			return
		}
		fmt.Fprintf(&b, "%s%T %v %s\n", strings.Repeat("  ", depth), n, n.Location(), n)
		v := reflect.ValueOf(n).Elem()
		for i := range v.NumField() {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			switch f := v.Field(i).Interface().(type) {
			case ast.Node:
				walk(f, depth+1)
			case []ast.Node:
				for _, c := range f {
					walk(c, depth+1)
				}
			}
		}
	}
	walk(n, 0)
	return b.String()
}

// SetOnParse shows every text parsed from now on, with its configuration, to f (nil: none).
func SetOnParse(f func(src string, cfg *conf.Config)) { onParse = f }
