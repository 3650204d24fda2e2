package syntax

import (
	"slices"
	"sync/atomic"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Rule files are read by hand where they can be: participle's reflection over the
// productions of procedures (Block, Stmt and its nine alternatives) was more than half of
// checking the largest shipped ruleset, and building a production's parser costs about a
// millisecond of every process that reads one, so every declaration and table row of the
// shipped rulesets is read here and the grammar only words errors (and reads shapes too
// rare to be worth a reader). The reader below follows the grammar's
// productions exactly as participle matches them (literals by their text, Ident, Dice and
// String by type, Pos at the first token of a production, EndPos at the token after it) and
// gives up at the first token it does not expect: the grammar then parses the declaration
// (or the file) again from its start, so text that does not read gets participle's own
// error, word for word. TestHandReaderMatchesGrammar compares the two on every rule file of
// the repository and on variants of them cut short.

// handDecls turns the hand reader on (tests turn it off to compare with the grammar).
var handDecls = true

// handFallbacks counts the declarations the hand reader left to the grammar (for tests).
var handFallbacks atomic.Int64

// parseFile parses a whole file, by hand when it can, after the checks of precheck; it
// returns where the file's names are (for the checks that read them after it:
// ParsedFile.Names), and the file's text, as a string. The file is scanned once, as the
// hand reader asks for its tokens: the scan counts the nesting (CheckNesting) as it hands
// them over, and the reader's window holds one declaration's tokens at a time, where the
// whole file's tokens (64 bytes each, a token for every six or seven bytes) were a sixth
// of the bytes a check allocated. The result is the one of scanning the whole file first:
// a nesting problem anywhere in the file is the file's diagnostic, a file with a token the
// grammar cannot read (TokBad) goes to the grammar whole, and from a declaration the hand
// reader does not read on, the rest of the file, scanned to its end, goes to the grammar.
// Only a file that does not read by hand is lexed again, by participle, for its own error.
func parseFile(name string, src []byte) (*File, []NameAt, string, *Diagnostic) {
	if d := CheckEncoding(name, src, "rule files must be saved as UTF-8"); d != nil {
		return nil, nil, "", d
	}
	text := string(src)
	start := lexer.Position{Filename: name, Line: 1, Column: 1}
	fs := &fileScan{s: scanner{src: text, pos: start, tolerant: true}, nest: nesting{start: start},
		names: make([]NameAt, 0, len(src)/16)} // a name for every 18 bytes in the shipped rulesets
	var f *File
	if handDecls {
		f = readFile(&tokenCursor{src: fs})
	}
	fs.drain(nil) // what the reader left: its nesting, its names
	if fs.bad != nil {
		return nil, nil, "", fs.bad
	}
	if f != nil && !fs.lexBad {
		return f, fs.names, text, nil
	}
	f, err := fileParser.get().ParseString(name, text)
	if err != nil {
		return nil, nil, "", parseError(name, src, err)
	}
	return f, fs.names, text, nil
}

// fileScan is the scan of a whole file, run as its tokens are asked for.
type fileScan struct {
	s    scanner
	nest nesting
	// bad is the nesting problem that ended the scan; lexBad is set by a TokBad token.
	bad    *Diagnostic
	lexBad bool
	// ended is set once EOF (or bad) is met; stopped once the hand reader was handed an
	// EOF of its own, at bad or at a TokBad: what it reads then is thrown away.
	ended, stopped bool
	// names are where the names scanned are.
	names []NameAt
}

// scan scans the file's next token into t and counts it by the nesting: EOF at the end of
// the file. It returns false past the end or at a nesting problem. (The token is written in
// place: it is 64 bytes, and the window holds it.)
func (fs *fileScan) scan(t *lexer.Token) bool {
	if fs.ended {
		return false
	}
	fs.s.scan(t) // tolerant: never an error
	if t.Type == lexer.EOF {
		fs.ended = true
		return true
	}
	if d := fs.nest.step(t); d != nil {
		fs.bad, fs.ended = d, true
		return false
	}
	switch t.Type {
	case TokBad:
		fs.lexBad = true
	case TokIdent:
		fs.names = append(fs.names, NameAt{int32(t.Pos.Offset), int32(len(t.Value)), int32(t.Pos.Line), int32(t.Pos.Column)})
	}
	return true
}

// drain scans the rest of the file, appending its tokens (EOF last) to toks, or only
// counting them when toks is nil.
func (fs *fileScan) drain(toks []lexer.Token) []lexer.Token {
	var t lexer.Token
	for fs.scan(&t) {
		if toks != nil {
			toks = append(toks, t)
		}
	}
	return toks
}

// tokenStream is what the readers take of a lexer: participle's PeekingLexer where the
// grammar calls them (Expr, Key and Row are participle.Parseable), the file's own tokens
// (tokenCursor) where the hand reader reads a file.
type tokenStream interface {
	Peek() *lexer.Token
	Next() *lexer.Token
}

// tokenCursor reads tokens, the last one EOF, as PeekingLexer would: from toks, or, with
// src, from the scan of a file, toks then being the window of the tokens scanned since the
// declaration being read began (readFile moves it on between declarations).
type tokenCursor struct {
	toks []lexer.Token
	i    int
	src  *fileScan
	// arena holds the tokens of the expressions read (Expr.Toks).
	arena tokenArena
}

// tokenArena hands out the token slices of expressions from shared chunks: appended one by
// one, each expression's slice grew from one token in several allocations (the most
// allocated of the parse but the file's own tokens).
type tokenArena struct{ buf []lexer.Token }

// next returns an empty slice to append an expression's tokens to, in the arena's room.
func (a *tokenArena) next() []lexer.Token {
	if cap(a.buf)-len(a.buf) < 16 {
		a.buf = make([]lexer.Token, 0, 512) // 32 KiB, the largest small allocation
	}
	return a.buf[len(a.buf):len(a.buf)]
}

// keep takes the tokens appended to a slice from next out of the arena's room (unless they
// outgrew it) and returns them, their capacity cut so that an append copies; nil for none.
func (a *tokenArena) keep(toks []lexer.Token) []lexer.Token {
	if len(toks) == 0 {
		return nil
	}
	if n := len(a.buf); n < cap(a.buf) && &a.buf[:n+1][n] == &toks[0] {
		a.buf = a.buf[:n+len(toks)]
	}
	return toks[:len(toks):len(toks)]
}

func (c *tokenCursor) Peek() *lexer.Token {
	if c.i == len(c.toks) {
		c.fill()
	}
	return &c.toks[c.i]
}

func (c *tokenCursor) Next() *lexer.Token {
	t := c.Peek()
	if t.Type != lexer.EOF {
		c.i++
	}
	return t
}

// fill appends the scan's next token to the window: an EOF of the cursor's own at the end
// of what the hand reader may read (a nesting problem, a TokBad token).
func (c *tokenCursor) fill() {
	n := len(c.toks)
	if n == cap(c.toks) {
		// Room for most declarations at once (32 KiB), doubled for a longer one.
		c.toks = slices.Grow(c.toks, max(512, n))
	}
	c.toks = c.toks[:n+1] // the slot is written whole below
	t := &c.toks[n]
	if c.src == nil || c.src.stopped || !c.src.scan(t) || t.Type == TokBad {
		if c.src != nil {
			c.src.stopped = true
		}
		*t = lexer.Token{Type: lexer.EOF, Pos: t.Pos}
	}
}

// settle drops the window's tokens already read: between declarations, where no reader
// holds one of them (the AST keeps copies: positions, values, Expr.Toks in the arena).
func (c *tokenCursor) settle() {
	if c.src != nil && c.i > 0 {
		n := copy(c.toks, c.toks[c.i:])
		c.toks, c.i = c.toks[:n], 0
	}
}

// rest returns the tokens from the window's i-th to the end of the file, EOF last, or nil
// when the hand reader's EOF was its own (a nesting problem or a TokBad token: parseFile
// then answers for the whole file).
func (c *tokenCursor) rest(i int) []lexer.Token {
	if c.src == nil {
		return c.toks[i:]
	}
	if c.src.stopped {
		return nil
	}
	toks := c.toks[i:]
	if n := len(toks); n > 0 && toks[n-1].Type == lexer.EOF {
		return toks
	}
	toks = c.src.drain(append(make([]lexer.Token, 0, len(toks)+256), toks...))
	if c.src.bad != nil || c.src.lexBad || len(toks) == 0 || toks[len(toks)-1].Type != lexer.EOF {
		return nil
	}
	return toks
}

// sliceLexer hands tokens, the last one EOF, to participle's Upgrade.
type sliceLexer struct{ tokenCursor }

func (l *sliceLexer) Next() (lexer.Token, error) { return *l.tokenCursor.Next(), nil }

// readFile reads `( Decl | Newline )*` from a file's tokens to its end, or returns nil.
// From the first declaration the hand reader does not read on, the rest of the file goes
// through participle's lexer (readDecls), the grammar reading that declaration.
func readFile(c *tokenCursor) *File {
	r := &procReader{lex: c}
	f := &File{}
	for {
		c.settle()
		t := c.Peek()
		switch {
		case t.EOF():
			return f
		case t.Type == TokNewline:
			c.Next()
			continue
		}
		at := c.i
		if form, ok := declForms()[t.Value]; ok && t.Type == TokIdent {
			d := &Decl{Pos: t.Pos}
			if form.read(r, d) {
				f.Decls = append(f.Decls, d)
				continue
			}
		}
		toks := c.rest(at)
		if toks == nil {
			return nil
		}
		lex, err := lexer.Upgrade(&sliceLexer{tokenCursor{toks: toks}})
		if err != nil {
			return nil
		}
		rest := readDecls(lex)
		if rest == nil {
			return nil
		}
		f.Decls = append(f.Decls, rest.Decls...)
		return f
	}
}

// readDecls reads `( Decl | Newline )*` to the end of the file, each declaration by hand
// or by the grammar, or returns nil.
func readDecls(lex *lexer.PeekingLexer) *File {
	f := &File{}
	for {
		t := lex.Peek()
		switch {
		case t.EOF():
			return f
		case t.Type == TokNewline:
			lex.Next()
			continue
		}
		d := &Decl{}
		if d.Parse(lex) != nil {
			return nil
		}
		f.Decls = append(f.Decls, d)
	}
}

// hand returns the parser of one declaration's production: read by r, or by the grammar
// from the same token when r gives up.
func hand[T any](read func(*procReader) *T, set func(*Decl, *T)) func(*lexer.PeekingLexer, *Decl) error {
	grammar := subParser(set)
	return func(lex *lexer.PeekingLexer, d *Decl) error {
		if handDecls {
			cp := lex.MakeCheckpoint()
			if v := read(&procReader{lex: lex}); v != nil {
				set(d, v)
				return nil
			}
			lex.LoadCheckpoint(cp)
			handFallbacks.Add(1)
		}
		return grammar(lex, d)
	}
}

// procReader reads declarations; every method returns nil (or false) where the text leaves
// the shapes it reads, and the caller gives up.
type procReader struct {
	lex tokenStream
	// The nodes a file's procedures are made of most, from slabs (they live as long as the
	// file's tree); spare is an expression tried and not read (a statement that is no
	// expression), for the next one.
	stmts   Slab[Stmt]
	simples Slab[SimpleStmt]
	exprs   Slab[Expr]
	spare   *Expr
}

// newExpr returns a new zero Expr.
func (r *procReader) newExpr() *Expr {
	if e := r.spare; e != nil {
		r.spare = nil
		return e
	}
	return r.exprs.New()
}

// spareExpr takes back e, which a read left unused.
func (r *procReader) spareExpr(e *Expr) {
	*e = Expr{}
	r.spare = e
}

// keyword consumes the declaration's keyword kw and returns its position.
func (r *procReader) keyword(kw string) (lexer.Position, bool) {
	t := r.lex.Peek()
	if t.Value != kw {
		return t.Pos, false
	}
	r.lex.Next()
	return t.Pos, true
}

// ident consumes an Ident token.
func (r *procReader) ident() (string, bool) {
	t := r.lex.Peek()
	if t.Type != TokIdent {
		return "", false
	}
	r.lex.Next()
	return t.Value, true
}

// str consumes a String token (its text as written, quotes included, as the grammar keeps it).
func (r *procReader) str() (string, bool) {
	t := r.lex.Peek()
	if t.Type != TokString {
		return "", false
	}
	r.lex.Next()
	return t.Value, true
}

// items reads `( ITEM | Newline | Comma )* "}"`, ITEM read by item when the token is a name.
func (r *procReader) items(item func() bool) bool {
	for {
		t := r.peek()
		switch {
		case t.Type == TokNewline || t.Type == TokComma:
			r.lex.Next()
		case t.Type == TokIdent || t.Type == TokDice:
			if !item() {
				return false
			}
		default:
			return r.take("}")
		}
	}
}

func (r *procReader) ruleset() *RulesetDecl {
	pos, ok := r.keyword("ruleset")
	d := &RulesetDecl{Pos: pos}
	if !ok {
		return nil
	}
	if d.Name, ok = r.str(); !ok {
		return nil
	}
	for r.peek().Type == TokIdent {
		p := &Prop{}
		p.Key, _ = r.ident()
		if p.Value, ok = r.str(); !ok {
			return nil
		}
		d.Props = append(d.Props, p)
	}
	return d
}

func (r *procReader) kind() *KindDecl {
	pos, ok := r.keyword("kind")
	d := &KindDecl{Pos: pos}
	if !ok {
		return nil
	}
	if d.Name, ok = r.ident(); !ok || !r.take("{") {
		return nil
	}
	ok = r.items(func() bool {
		f := &FieldDecl{Pos: r.peek().Pos}
		f.Name, _ = r.name()
		if !r.take(":") {
			return false
		}
		if f.Type = r.typeRef(); f.Type == nil {
			return false
		}
		if r.take("=") {
			if f.Default = r.expr(); f.Default == nil {
				return false
			}
		}
		d.Fields = append(d.Fields, f)
		return true
	})
	if !ok {
		return nil
	}
	return d
}

func (r *procReader) enum() *EnumDecl {
	pos, ok := r.keyword("enum")
	d := &EnumDecl{Pos: pos}
	if !ok {
		return nil
	}
	if d.Name, ok = r.ident(); !ok || !r.take("{") {
		return nil
	}
	ok = r.items(func() bool {
		v := &EnumValue{Pos: r.peek().Pos}
		v.Name, _ = r.name()
		d.Values = append(d.Values, v)
		return true
	})
	if !ok {
		return nil
	}
	return d
}

func (r *procReader) entity() *EntityDecl {
	pos, ok := r.keyword("entity")
	d := &EntityDecl{Pos: pos}
	if !ok {
		return nil
	}
	if d.Name, ok = r.name(); !ok || !r.take(":") {
		return nil
	}
	if d.Kind, ok = r.ident(); !ok || !r.take("{") {
		return nil
	}
	ok = r.items(func() bool {
		f := &FieldInit{Pos: r.peek().Pos}
		f.Name, _ = r.name()
		sep := r.peek()
		if sep.Value != ":" && sep.Value != "=" {
			return false
		}
		f.Sep = *sep
		r.lex.Next()
		if f.Value = r.expr(); f.Value == nil {
			return false
		}
		d.Fields = append(d.Fields, f)
		return true
	})
	if !ok {
		return nil
	}
	return d
}

func (r *procReader) table() *TableDecl {
	pos, ok := r.keyword("table")
	d := &TableDecl{Pos: pos}
	if !ok {
		return nil
	}
	if d.Name, ok = r.name(); !ok {
		return nil
	}
	if r.take("(") {
		if !r.is(")") {
			for {
				p := r.param()
				if p == nil {
					return nil
				}
				d.Params = append(d.Params, p)
				if r.peek().Type != TokComma {
					break
				}
				r.lex.Next()
			}
		}
		if !r.take(")") {
			return nil
		}
	}
	if r.take("roll") {
		if d.Roll = r.head(); d.Roll == nil {
			return nil
		}
	}
	if !r.take("{") {
		return nil
	}
	for {
		t := r.peek()
		switch {
		case t.EOF():
			return nil
		case t.Type == TokNewline:
			r.lex.Next()
			continue
		case t.Value == "}":
			r.lex.Next()
			return d
		}
		row := &Row{}
		if !row.read(r.lex) {
			return nil
		}
		d.Rows = append(d.Rows, row)
	}
}

func (r *procReader) peek() *lexer.Token { return r.lex.Peek() }

// is reports whether the next token is the literal s (participle compares a literal's text).
func (r *procReader) is(s string) bool { return r.lex.Peek().Value == s }

// take consumes the literal s, reporting whether it was there.
func (r *procReader) take(s string) bool {
	if r.lex.Peek().Value != s {
		return false
	}
	r.lex.Next()
	return true
}

// name consumes an Ident or Dice token (a name that may look like dice, d6).
func (r *procReader) name() (string, bool) {
	t := r.lex.Peek()
	if t.Type != TokIdent && t.Type != TokDice {
		return "", false
	}
	r.lex.Next()
	return t.Value, true
}

func (r *procReader) newlines() {
	for r.lex.Peek().Type == TokNewline {
		r.lex.Next()
	}
}

// expr reads an expression that must be there.
func (r *procReader) expr() *Expr {
	e := r.newExpr()
	if e.read(r.lex) != nil {
		r.spareExpr(e)
		return nil
	}
	return e
}

// head reads an if, for or while header.
func (r *procReader) head() *Head {
	h := &Head{}
	if h.read(r.lex) != nil {
		return nil
	}
	return h
}

func (r *procReader) proc() *ProcDecl {
	t := r.peek()
	p := &ProcDecl{Pos: t.Pos, Verb: t.Value}
	if p.Verb != "action" && p.Verb != "rule" {
		return nil
	}
	r.lex.Next()
	var ok bool
	if p.Name, ok = r.name(); !ok || !r.take("(") {
		return nil
	}
	if !r.is(")") {
		// ( Newline* Param ( Comma Newline* Param )* )? Newline* ")": newlines with no
		// parameter after them are left to the grammar.
		r.newlines()
		for {
			prm := r.param()
			if prm == nil {
				return nil
			}
			p.Params = append(p.Params, prm)
			if r.peek().Type != TokComma {
				break
			}
			r.lex.Next()
			r.newlines()
		}
		r.newlines()
	}
	if !r.take(")") {
		return nil
	}
	if r.take(":") {
		if p.Result = r.typeRef(); p.Result == nil {
			return nil
		}
	}
	if p.Body = r.block(); p.Body == nil {
		return nil
	}
	return p
}

func (r *procReader) param() *Param {
	prm := &Param{Pos: r.peek().Pos}
	var ok bool
	if prm.Name, ok = r.name(); !ok {
		return nil
	}
	if r.take(":") {
		if prm.Type = r.typeRef(); prm.Type == nil {
			return nil
		}
	}
	if r.take("=") {
		if prm.Default = r.expr(); prm.Default == nil {
			return nil
		}
	}
	return prm
}

func (r *procReader) typeRef() *TypeRef {
	t := &TypeRef{Pos: r.peek().Pos}
	if r.take("[") {
		if !r.take("]") {
			return nil
		}
		t.List = true
	}
	if n := r.peek(); n.Type == TokIdent {
		t.Name = n.Value
		r.lex.Next()
	} else {
		return nil
	}
	if r.take("[") {
		if t.Key = r.typeRef(); t.Key == nil || !r.take("]") {
			return nil
		}
		if t.Value = r.typeRef(); t.Value == nil {
			return nil
		}
	}
	return t
}

func (r *procReader) block() *Block {
	b := &Block{Pos: r.peek().Pos}
	if !r.take("{") {
		return nil
	}
	for {
		t := r.peek()
		if t.EOF() {
			return nil
		}
		if t.Type == TokNewline {
			r.lex.Next()
			continue
		}
		if t.Value == "}" {
			break
		}
		s := r.stmt()
		if s == nil {
			return nil
		}
		b.Stmts = append(b.Stmts, s)
	}
	r.lex.Next() // the closing brace, which the grammar matches without keeping (Close stays "")
	b.EndPos = r.peek().Pos
	return b
}

// stmt reads one statement: an expression or an assignment first (Expr gives way to the
// words that start the other statements), then those by their word.
func (r *procReader) stmt() *Stmt {
	t := r.peek()
	s := r.stmts.New()
	s.Pos = t.Pos
	target := r.newExpr()
	switch err := target.read(r.lex); {
	case err == nil:
		simple := r.simples.New()
		simple.Pos, simple.Target = t.Pos, target
		if op := r.peek().Value; op == "=" || op == "+=" || op == "-=" || op == "*=" {
			r.lex.Next()
			simple.Op = op
			if simple.Value = r.expr(); simple.Value == nil {
				return nil
			}
		}
		s.Simple = simple
		return s
	case err != participle.NextMatch:
		return nil
	}
	r.spareExpr(target)
	if t.Type != TokIdent {
		return nil
	}
	switch t.Value {
	case "let":
		r.lex.Next()
		l := &LetStmt{Pos: t.Pos}
		var ok bool
		if l.Name, ok = r.name(); !ok {
			return nil
		}
		if r.take(":") {
			if l.Type = r.typeRef(); l.Type == nil {
				return nil
			}
		}
		if !r.take("=") {
			return nil
		}
		if l.Value = r.expr(); l.Value == nil {
			return nil
		}
		s.Let = l
	case "if":
		if s.If = r.ifStmt(); s.If == nil {
			return nil
		}
	case "for":
		r.lex.Next()
		f := &ForStmt{Pos: t.Pos}
		var ok bool
		if f.Var, ok = r.name(); !ok {
			return nil
		}
		if r.peek().Type == TokComma {
			r.lex.Next()
			if f.Var2, ok = r.name(); !ok {
				return nil
			}
		}
		if !r.take("in") {
			return nil
		}
		if f.Coll = r.head(); f.Coll == nil {
			return nil
		}
		if f.Body = r.block(); f.Body == nil {
			return nil
		}
		s.For = f
	case "while":
		r.lex.Next()
		w := &WhileStmt{Pos: t.Pos}
		if w.Cond = r.head(); w.Cond == nil {
			return nil
		}
		if w.Body = r.block(); w.Body == nil {
			return nil
		}
		s.While = w
	case "return":
		r.lex.Next()
		ret := &ReturnStmt{Pos: t.Pos}
		v := r.newExpr()
		switch err := v.read(r.lex); {
		case err == nil:
			ret.Value = v
		case err != participle.NextMatch:
			return nil
		default:
			r.spareExpr(v)
		}
		s.Return = ret
	case "break":
		r.lex.Next()
		s.Break = &BreakStmt{Pos: t.Pos, Keyword: t.Value}
	case "continue":
		r.lex.Next()
		s.Continue = &ContinueStmt{Pos: t.Pos, Keyword: t.Value}
	case "require":
		r.lex.Next()
		q := &RequireStmt{Pos: t.Pos}
		if q.Cond = r.expr(); q.Cond == nil || !r.take("else") {
			return nil
		}
		if q.Message = r.expr(); q.Message == nil {
			return nil
		}
		s.Require = q
	case "emit":
		r.lex.Next()
		e := &EmitStmt{Pos: t.Pos}
		if e.Value = r.expr(); e.Value == nil {
			return nil
		}
		s.Emit = e
	default:
		return nil
	}
	return s
}

func (r *procReader) ifStmt() *IfStmt {
	t := r.peek()
	st := &IfStmt{Pos: t.Pos}
	if !r.take("if") {
		return nil
	}
	if st.Cond = r.head(); st.Cond == nil {
		return nil
	}
	if st.Then = r.block(); st.Then == nil {
		return nil
	}
	if r.take("else") {
		switch {
		case r.is("if"):
			if st.ElseIf = r.ifStmt(); st.ElseIf == nil {
				return nil
			}
		case r.is("{"):
			if st.Else = r.block(); st.Else == nil {
				return nil
			}
		default:
			return nil
		}
	}
	return st
}

func (r *procReader) include() *IncludeDecl {
	pos, ok := r.keyword("include")
	d := &IncludeDecl{Pos: pos}
	if !ok {
		return nil
	}
	if d.Path, ok = r.str(); !ok {
		return nil
	}
	return d
}

func (r *procReader) pile() *PileDecl {
	pos, ok := r.keyword("pile")
	d := &PileDecl{Pos: pos}
	if !ok {
		return nil
	}
	if d.Name, ok = r.name(); !ok {
		return nil
	}
	return d
}

// dice reads `"dice" NAME "=" ( "[" Newline* Face ( Comma Newline* Face )* Newline* "]" |
// DieCall )`.
func (r *procReader) dice() *DiceDecl {
	pos, ok := r.keyword("dice")
	d := &DiceDecl{Pos: pos}
	if !ok {
		return nil
	}
	if d.Name, ok = r.name(); !ok || !r.take("=") {
		return nil
	}
	if !r.take("[") {
		c := &DieCall{Pos: r.peek().Pos}
		if c.Name, ok = r.name(); !ok || !r.take("(") {
			return nil
		}
		if !r.is(")") {
			for {
				a := r.expr()
				if a == nil {
					return nil
				}
				c.Args = append(c.Args, a)
				if r.peek().Type != TokComma {
					break
				}
				r.lex.Next()
			}
		}
		if !r.take(")") {
			return nil
		}
		d.Rule = c
		return d
	}
	r.newlines()
	for {
		f := r.face()
		if f == nil {
			return nil
		}
		d.Faces = append(d.Faces, f)
		if r.peek().Type != TokComma {
			break
		}
		r.lex.Next()
		r.newlines()
	}
	r.newlines()
	if !r.take("]") {
		return nil
	}
	return d
}

// face reads `Counts | "-"? ( Number | Ident | Dice | String )`.
func (r *procReader) face() *Face {
	f := &Face{Pos: r.peek().Pos}
	if r.is("{") {
		f.Counts = r.counts()
		if f.Counts == nil {
			return nil
		}
		return f
	}
	f.Neg = r.take("-")
	switch t := r.peek(); t.Type {
	case TokNumber:
		f.Number = t.Value
	case TokIdent, TokDice, TokString:
		f.Name = t.Value
	default:
		return nil
	}
	r.lex.Next()
	return f
}

// counts reads `"{" Newline* ( Count ( Comma Newline* Count )* )? Newline* "}"`.
func (r *procReader) counts() *Counts {
	c := &Counts{Pos: r.peek().Pos}
	if !r.take("{") {
		return nil
	}
	r.newlines()
	if !r.is("}") {
		for {
			n := &Count{Pos: r.peek().Pos}
			var ok bool
			if n.Name, ok = r.name(); !ok || !r.take(":") {
				return nil
			}
			v := &CountValue{Pos: r.peek().Pos}
			v.Neg = r.take("-")
			switch t := r.peek(); t.Type {
			case TokNumber, TokIdent, TokDice, TokString:
				v.Text = t.Value
				r.lex.Next()
			default:
				return nil
			}
			n.Value = v
			c.Fields = append(c.Fields, n)
			if r.peek().Type != TokComma {
				break
			}
			r.lex.Next()
			r.newlines()
		}
	}
	r.newlines()
	if !r.take("}") {
		return nil
	}
	return c
}

// deck reads `"deck" NAME "standard"? ( "{" ( DeckLine | Newline )* "}" )?`.
func (r *procReader) deck() *DeckDecl {
	pos, ok := r.keyword("deck")
	d := &DeckDecl{Pos: pos}
	if !ok {
		return nil
	}
	if d.Name, ok = r.name(); !ok {
		return nil
	}
	d.Standard = r.take("standard")
	if !r.take("{") {
		return d
	}
	for {
		t := r.peek()
		switch {
		case t.Type == TokNewline:
			r.lex.Next()
			continue
		case t.Value == "}":
			r.lex.Next()
			return d
		}
		l := &DeckLine{Pos: t.Pos}
		switch t.Value {
		case "suit":
			r.lex.Next()
			s := &Suit{}
			if s.Symbol, ok = r.str(); !ok {
				return nil
			}
			if s.Name, ok = r.str(); !ok {
				return nil
			}
			if s.Colour, ok = r.ident(); !ok {
				return nil
			}
			s.Meaning, _ = r.str()
			l.Suit = s
		case "jokers":
			r.lex.Next()
			n := r.peek()
			if n.Type != TokNumber {
				return nil
			}
			l.Jokers = n.Value
			r.lex.Next()
		case "rank":
			r.lex.Next()
			k := &Rank{}
			n := r.peek()
			if n.Type != TokIdent && n.Type != TokNumber {
				return nil
			}
			k.Name = n.Value
			r.lex.Next()
			if v := r.peek(); v.Type == TokNumber {
				k.Value = v.Value
				r.lex.Next()
			} else {
				return nil
			}
			k.Figure = r.take("figure")
			l.Rank = k
		default:
			return nil
		}
		d.Lines = append(d.Lines, l)
	}
}

// mapDecl reads `"map" NAME "{" ( MapLine | Newline )* "}"`.
func (r *procReader) mapDecl() *MapDecl {
	pos, ok := r.keyword("map")
	d := &MapDecl{Pos: pos}
	if !ok {
		return nil
	}
	if d.Name, ok = r.name(); !ok || !r.take("{") {
		return nil
	}
	for {
		t := r.peek()
		switch {
		case t.Type == TokNewline:
			r.lex.Next()
			continue
		case t.Value == "}":
			r.lex.Next()
			return d
		}
		l := r.mapLine()
		if l == nil {
			return nil
		}
		d.Lines = append(d.Lines, l)
	}
}

// mapLine reads one line of a map; each form starts with its own word.
func (r *procReader) mapLine() *MapLine {
	t := r.peek()
	l := &MapLine{Pos: t.Pos}
	var ok bool
	switch t.Value {
	case "rows":
		r.lex.Next()
		if !r.take("{") {
			return nil
		}
		r.newlines()
		for {
			s := r.peek()
			if s.Type != TokString {
				break
			}
			l.Rows = append(l.Rows, &RowLine{Pos: s.Pos, Text: s.Value})
			r.lex.Next()
			r.newlines()
		}
		if len(l.Rows) == 0 || !r.take("}") {
			return nil
		}
	case "legend":
		r.lex.Next()
		for {
			g := &Legend{Pos: r.peek().Pos}
			if g.Char, ok = r.str(); !ok {
				return nil
			}
			if g.Terrain, ok = r.name(); !ok {
				return nil
			}
			l.Legend = append(l.Legend, g)
			if r.peek().Type != TokComma {
				break
			}
			r.lex.Next()
			r.newlines()
		}
	case "river", "stream", "bridge", "ford":
		r.lex.Next()
		e := &EdgeLine{Pos: t.Pos, Kind: t.Value}
		for {
			a := r.hex()
			if a == nil || !r.take("-") {
				return nil
			}
			b := r.hex()
			if b == nil {
				return nil
			}
			e.Edges = append(e.Edges, &Edge{A: a, B: b})
			if r.peek().Type != TokComma {
				break
			}
			r.lex.Next()
		}
		l.Edge = e
	case "road":
		r.lex.Next()
		for {
			h := r.hex()
			if h == nil {
				return nil
			}
			l.Road = append(l.Road, h)
			if r.peek().Type != TokComma {
				break
			}
			r.lex.Next()
		}
	case "height":
		r.lex.Next()
		for {
			h := &Height{H: r.hex()}
			if h.H == nil {
				return nil
			}
			h.Neg = r.take("-")
			v := r.peek()
			if v.Type != TokNumber {
				return nil
			}
			h.Value = v.Value
			r.lex.Next()
			l.Height = append(l.Height, h)
			if r.peek().Type != TokComma {
				break
			}
			r.lex.Next()
		}
	case "point":
		r.lex.Next()
		p := &Point{Pos: t.Pos}
		if p.Name, ok = r.name(); !ok {
			return nil
		}
		if p.H = r.hex(); p.H == nil {
			return nil
		}
		p.Label, _ = r.str()
		l.Point = p
	case "units":
		r.lex.Next()
		u := &Units{Pos: t.Pos}
		if u.Kind, ok = r.name(); !ok || !r.take("at") {
			return nil
		}
		if u.At = r.unitAccess(); u.At == nil {
			return nil
		}
		for _, opt := range []struct {
			word string
			to   **UnitAccess
		}{{"marker", &u.Marker}, {"label", &u.Label}, {"side", &u.Side}} {
			if r.take(opt.word) {
				if *opt.to = r.unitAccess(); *opt.to == nil {
					return nil
				}
			}
		}
		l.Units = u
	default:
		return nil
	}
	return l
}

// hex reads `"(" Number Comma Number ")"`.
func (r *procReader) hex() *Hex {
	h := &Hex{Pos: r.peek().Pos}
	if !r.take("(") {
		return nil
	}
	c := r.peek()
	if c.Type != TokNumber {
		return nil
	}
	h.Col = c.Value
	r.lex.Next()
	if r.peek().Type != TokComma {
		return nil
	}
	r.lex.Next()
	w := r.peek()
	if w.Type != TokNumber {
		return nil
	}
	h.Row = w.Value
	r.lex.Next()
	if !r.take(")") {
		return nil
	}
	return h
}

func (r *procReader) unitAccess() *UnitAccess {
	a := &UnitAccess{Pos: r.peek().Pos}
	var ok bool
	if a.Name, ok = r.name(); !ok {
		return nil
	}
	return a
}

// columns reads `"columns" ( "ratio" (?! Comma) )? Expr ( Comma Expr )*`.
func (r *procReader) columns() *Columns {
	pos, ok := r.keyword("columns")
	c := &Columns{Pos: pos}
	if !ok {
		return nil
	}
	if r.take("ratio") {
		if r.peek().Type == TokComma {
			return nil // ratio as the first column's value: the grammar's lookahead decides
		}
		c.Ratio = true
	}
	for {
		e := r.expr()
		if e == nil {
			return nil
		}
		c.Items = append(c.Items, e)
		if r.peek().Type != TokComma {
			return c
		}
		r.lex.Next()
	}
}
