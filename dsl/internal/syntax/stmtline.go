package syntax

import (
	"github.com/alecthomas/participle/v2/lexer"
)

var stmtParser lazyParser[StmtLine]

// StmtLine is one statement typed at the REPL (an assignment, a loop, an emit…).
type StmtLine struct {
	Stmts []*Stmt `parser:"Newline* ( @@ Newline* )+"`
}

// IsStatement reports whether src reads as a statement rather than a bare expression: an
// assignment, or one starting with a statement keyword.
func IsStatement(src string) bool {
	depth := 0
	first := true
	stmt := false
	Scan(src, func(t lexer.Token) bool {
		if first {
			first = false
			if t.Type == TokIdent && statementWords(t.Value) {
				stmt = true
				return false
			}
		}
		depth += BracketDelta(t)
		if depth == 0 && t.Type == TokOp && (t.Value == "=" || t.Value == "+=" || t.Value == "-=" || t.Value == "*=") {
			stmt = true
			return false
		}
		return true
	})
	return stmt
}

// ParseStatements parses statements typed at the REPL.
func ParseStatements(name, src string) (*StmtLine, *Diagnostic) {
	ast, err := stmtParser.get().ParseString(name, src)
	if err != nil {
		return nil, parseDiag(name, err)
	}
	return ast, nil
}
