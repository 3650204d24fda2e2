package main

import (
	"bytes"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"rulesh/dsl"
)

// parsersAtInit is dsl.ParsersBuilt() when TestMain starts: after the initialisation of
// every package the command imports, before any test has parsed anything.
var parsersAtInit = -1

// TestNoParserAtInit: the initialisation of the command's packages builds no participle
// parser (building them all took most of the start-up of `rulesh roll 1d6`). A file the hand
// reader reads builds none (it reads every declaration of the shipped rulesets); the first
// one it hands to the grammar (one that does not parse) builds the productions it needs. The second half shows that the count is live,
// so zero means none.
func TestNoParserAtInit(t *testing.T) {
	if parsersAtInit != 0 {
		t.Fatalf("%d participle parsers were built at package initialisation, want 0: build them on first use (syntax.lazyParser)", parsersAtInit)
	}
	if _, d := dsl.LoadSource("t.rules", []byte("kind K {\n")); d == nil {
		t.Fatal("an unclosed kind loads")
	}
	if dsl.ParsersBuilt() == 0 {
		t.Fatal("parsing a file built no parser: the count does not count")
	}
}

// TestParsersBuiltLazily: every participle parser of the module is built through
// buildParser (called by lazyParser on first use), which counts it, so that TestNoParserAtInit sees
// every one. A participle.MustBuild anywhere else (a package variable, an init) fails here.
func TestParsersBuiltLazily(t *testing.T) {
	moduleSources(t, func(fset *token.FileSet, rel string, f *ast.File) {
		name := "" // what the file calls participle
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "github.com/alecthomas/participle/v2" {
				name = "participle"
				if imp.Name != nil {
					name = imp.Name.Name
				}
			}
		}
		if name == "" {
			return
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Name.Name == "buildParser" && filepath.ToSlash(rel) == "dsl/internal/syntax/grammar.go" {
				continue
			}
			ast.Inspect(decl, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == name && (sel.Sel.Name == "MustBuild" || sel.Sel.Name == "Build") {
					t.Errorf("%s: participle.%s outside buildParser: build parsers with syntax.lazyParser, on first use", fset.Position(sel.Pos()), sel.Sel.Name)
				}
				return true
			})
		}
	})
}

// TestNoRegexpAtInit: no package-level variable of the module is initialised by compiling a
// regular expression (one with Unicode classes took most of a package's initialisation,
// paid by every command): regexps are compiled on first use (runtime.Lazy).
func TestNoRegexpAtInit(t *testing.T) {
	packageVarValues(t, func(fset *token.FileSet, v ast.Expr) {
		call, ok := v.(*ast.CallExpr)
		if !ok {
			return
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return
		}
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == "regexp" {
			t.Errorf("%s: regexp.%s at package initialisation: compile it on first use (runtime.Lazy)", fset.Position(call.Pos()), sel.Sel.Name)
		}
	})
}

// TestNoTablesAtInit: no package-level variable of the module is a map literal, nor set by
// sync.OnceValue, OnceValues or OnceFunc, or strings.NewReplacer: each is built by its
// package's initialisation at every start of every command (the maps of words and the
// closures of the packages took a fifth of the instructions of `rulesh roll 1d6`). A set of
// words is a switch; a table is built on first use (runtime.Lazy, a sync.Once), which the
// compiler lays out without an init.
func TestNoTablesAtInit(t *testing.T) {
	packageVarValues(t, func(fset *token.FileSet, v ast.Expr) {
		if lit, ok := v.(*ast.CompositeLit); ok {
			if _, isMap := lit.Type.(*ast.MapType); isMap && len(lit.Elts) > 0 {
				t.Errorf("%s: a map literal at package initialisation: a switch, or built on first use", fset.Position(v.Pos()))
			}
			return
		}
		call, ok := v.(*ast.CallExpr)
		if !ok {
			return
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			if ix, isIndex := call.Fun.(*ast.IndexExpr); isIndex {
				sel, ok = ix.X.(*ast.SelectorExpr)
			}
			if !ok {
				return
			}
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok {
			return
		}
		switch x.Name + "." + sel.Sel.Name {
		case "sync.OnceValue", "sync.OnceValues", "sync.OnceFunc", "strings.NewReplacer":
			t.Errorf("%s: %s.%s at package initialisation: build it on first use (runtime.Lazy, a sync.Once)", fset.Position(call.Pos()), x.Name, sel.Sel.Name)
		}
	})
}

// packageVarValues calls check with every value a package-level var of the module's
// sources is initialised with.
func packageVarValues(t *testing.T, check func(fset *token.FileSet, v ast.Expr)) {
	t.Helper()
	moduleSources(t, func(fset *token.FileSet, rel string, f *ast.File) {
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.VAR {
				continue
			}
			for _, spec := range gen.Specs {
				for _, v := range spec.(*ast.ValueSpec).Values {
					check(fset, v)
				}
			}
		}
	})
}

// TestUnlinkedPackages: the command does not link packages whose initialisation (and the
// pages it touches) every command would pay at start-up for a feature that can do without
// them. Each line says what the package cost and what does its work instead.
func TestUnlinkedPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	linked := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		linked[p] = true
	}
	for _, c := range []struct{ pkg, why string }{
		{"crypto/sha256", "the FIPS module's initialisation and pages; shard files hash with analysis.sha256Sum"},
		{"net/url", "net/netip's initialisation, which starts the runtime's cleanup goroutines; the language server reads file URIs with lsp.uriPath"},
		{"net/netip", "its initialisation calls unique.Make, which starts the runtime's cleanup goroutines"},
	} {
		if linked[c.pkg] {
			t.Errorf("rulesh links %s: %s", c.pkg, c.why)
		}
	}
	if !linked["rulesh/dsl"] {
		t.Fatalf("go list printed no rulesh/dsl: the list is not the command's")
	}
}

// TestRunFlushes: the binary's entry buffers standard output and flushes it at exit, keeps a
// message on standard error after the output printed before it, and reports output it could
// not write.
func TestRunFlushes(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"roll", "--seed", "1", "-n", "3", "1d6"}, strings.NewReader(""), &out, &errOut); code != 0 || strings.Count(out.String(), "\n") != 3 {
		t.Errorf("roll -n 3: exit %d, output %q, stderr %q", code, out.String(), errOut.String())
	}
	// One stream for both, as on a terminal: a piped script's result, then the error of its
	// next input said at the end of the session, in that order.
	var both bytes.Buffer
	code := run([]string{"repl", "--seed", "1"}, strings.NewReader("1 + 1\n:rolls 4\n"), &both, &both)
	if got := both.String(); code != 0 || !strings.HasPrefix(got, "2\n") || !strings.Contains(got, "4") {
		t.Errorf("repl: exit %d, output %q", code, got)
	}
	errOut.Reset()
	if code := run([]string{"roll", "--seed", "1", "1d6"}, strings.NewReader(""), failingWriter{}, &errOut); code != 1 || !strings.Contains(errOut.String(), "disk full") {
		t.Errorf("an output that cannot be written: exit %d, stderr %q", code, errOut.String())
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// moduleSources calls check with every Go source file of the module that is not a test,
// parsed, and its path from the module's root (folders starting with "." and testdata left
// out).
func moduleSources(t *testing.T, check func(fset *token.FileSet, rel string, f *ast.File)) {
	t.Helper()
	root, _ := filepath.Abs("../..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		check(fset, rel, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
