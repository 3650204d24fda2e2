package check

import (
	"github.com/alecthomas/participle/v2/lexer"

	"rulesh/dsl/internal/exprx"
	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
)

// NewProgram is an empty program to check files into: the text of the files read (for
// diagnostics), their names, and the library of builtins rules may call.
func NewProgram(lib *runtime.Library, sources syntax.Sources, files []string) *runtime.Program {
	return &runtime.Program{Library: lib, Props: map[string]string{}, Sources: sources, Files: files, Globals: map[string]runtime.Global{}, Equal: exprx.Equal}
}

// CheckFiles resolves and checks parsed rule files, and compiles every declaration and
// expression into prog. The diagnostics hold warnings even when checking succeeds; on an
// error prog is incomplete and must not run.
func CheckFiles(prog *runtime.Program, files []syntax.ParsedFile) syntax.Diagnostics {
	c := NewCompiler(prog)
	c.Program(files)
	return c.Diags
}

// DiagnoseFiles is CheckFiles for a caller that reads only the diagnostics (and prog's
// declarations): they are the same, but the procedures' expressions are compiled for expr's
// VM only, their bytecode left until they first run, and their frames get no slots. prog
// still runs, more slowly.
func DiagnoseFiles(prog *runtime.Program, files []syntax.ParsedFile) syntax.Diagnostics {
	c := NewCompiler(prog)
	c.diagsOnly = true
	c.Program(files)
	return c.Diags
}

// CheckExpr compiles one expression typed by a user against a loaded program, with the
// session's variables (vars) in scope. The program is not changed: the input's text is kept
// by the compiled expression only.
func CheckExpr(prog *runtime.Program, name, src string, vars map[string]*runtime.Type) (*runtime.Expr, syntax.Diagnostics) {
	return CheckExprAt(prog, lexer.Position{Filename: name, Line: 1, Column: 1}, src, vars)
}

// CheckExprAt is CheckExpr for an expression that starts at column start.Column of line
// start.Line of its input (the value of a `let` typed at the REPL): positions count from
// there, so that they point into the line as typed.
func CheckExprAt(prog *runtime.Program, start lexer.Position, src string, vars map[string]*runtime.Type) (*runtime.Expr, syntax.Diagnostics) {
	c := inputCompiler(prog, start.Filename, src)
	x := c.CompileText(src, start, inputScope(vars), nil)
	return x, c.Diags
}

// CheckStatements compiles statements typed by a user (an assignment, a let, a loop…) with
// the session's variables in scope. It returns the compiled statements, every variable in
// scope afterwards with its type (those given and those the statements declare), and the
// globals they read (which their frame must hold).
func CheckStatements(prog *runtime.Program, name, src string, stmts []*syntax.Stmt, vars map[string]*runtime.Type) ([]runtime.Stmt, map[string]*runtime.Type, []string, syntax.Diagnostics) {
	c := inputCompiler(prog, name, src)
	sc := inputScope(vars)
	var body []runtime.Stmt
	for _, st := range stmts {
		if x := c.Stmt(st, sc); x != nil {
			body = append(body, x)
		}
	}
	c.checkLocalsNotRead("input") // the input's frame holds the globals it reads too
	return body, sc.Vars, runtime.SortedKeys(c.Uses), c.Diags
}

// CheckBinding reports why name cannot name a session variable: a reserved word, a __
// prefix, or a name of the program it would hide for every later input. at is where the
// name stands in the input.
func CheckBinding(prog *runtime.Program, name string, at lexer.Position) syntax.Diagnostics {
	c := NewCompiler(prog)
	if c.CheckName(name, at) {
		c.CheckShadow(name, at)
	}
	return c.Diags
}

// inputCompiler compiles an input without writing into the shared program.
func inputCompiler(prog *runtime.Program, name, src string) *Compiler {
	c := NewCompiler(prog)
	c.Extra = syntax.Sources{name: []byte(src)}
	c.Uses = map[string]bool{}
	return c
}

// inputScope is the scope of an input: the session's variables, as a procedure's locals.
func inputScope(vars map[string]*runtime.Type) *Scope {
	sc := NewScope(ProcScope)
	for n, t := range vars {
		sc.Vars[n] = t
	}
	return sc
}
