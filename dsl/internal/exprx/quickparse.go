package exprx

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/parser/operator"

	"rulesh/dsl/internal/syntax"
)

// quickParse builds the tree expr's parser (v1.17.8) builds for src, for the common part
// of its syntax: names, members (a.b, a[i]), calls of functions and of builtins, predicates
// (filter(l, # > 1), sortBy(l, .f)), int and float literals in decimal, strings without
// escapes, true, false, nil, arrays, maps, parentheses, the unary operators ! - +, the
// binary operators of arithmetic, comparison, && and ||, .. and in, and c ? a : b. It reports false for anything
// else, and for any text expr would refuse: the caller then asks expr's parser, so expr's
// syntax and errors stay exactly as they are. expr's parser spent most of its time on
// allocations per call and per token (its lexer's ring, a token's error, the parser): a
// fifth of checking the largest shipped ruleset (TestQuickParseShipped and FuzzQuickParse
// compare the trees with expr's).
//
// Each function below follows the expr function of the same name, in the same order, with
// the same nodes and locations.
//
// The commonest nodes come from slabs, shared by the expressions of a compiler.
func quickParse(src string, cfg *conf.Config, toks []qtok, slabs *quickNodes) (*parser.Tree, []qtok, bool) {
	toks, ok := quickLex(src, toks[:0])
	if !ok {
		return nil, toks, false
	}
	p := quickParser{toks: toks, cfg: cfg, ok: true, slabs: slabs}
	node := p.parseSequenceExpression()
	if !p.ok || p.cur().kind != qEOF {
		return nil, toks, false
	}
	maxNodes := uint(conf.DefaultMaxNodes)
	if cfg != nil {
		maxNodes = cfg.MaxNodes
	}
	if maxNodes > 0 && p.nodes > maxNodes {
		return nil, toks, false
	}
	return &parser.Tree{Node: node, Source: file.NewSource(src)}, toks, true
}

// The kinds of quickLex's tokens: expr's lexer.Kind, short.
const (
	qIdent = iota
	qNumber
	qString
	qOp
	qBracket
	qEOF
)

// qtok is a token of expr's lexer: its kind, value and rune offsets.
type qtok struct {
	kind  int
	value string
	loc   file.Location
}

// quickLex splits src into the tokens expr's lexer makes of it, or reports false for a
// character or token outside quickParse's part of the syntax (or that expr refuses).
func quickLex(src string, toks []qtok) ([]qtok, bool) {
	if !utf8.ValidString(src) {
		return toks, false // expr reads a stray byte as U+FFFD
	}
	runes := 0 // the rune offset of i
	emit := func(kind int, value string, from int) {
		toks = append(toks, qtok{kind: kind, value: value, loc: file.Location{From: from, To: runes}})
	}
	for i := 0; i < len(src); {
		c := src[i]
		from := runes
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
			i++
			runes++
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(src[i:])
			switch {
			case unicode.IsSpace(r):
				i += size
				runes++
			case unicode.IsLetter(r):
				n := identLen(src[i:])
				word := src[i : i+n]
				i += n
				runes += utf8.RuneCountInString(word)
				emit(qIdent, word, from)
			default:
				return toks, false
			}
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			if (c == 'b' || c == 'B') && i+1 < len(src) && (src[i+1] == '"' || src[i+1] == '\'') {
				return toks, false // bytes
			}
			n := identLen(src[i:])
			word := src[i : i+n]
			kind := qIdent
			if word == "in" {
				kind = qOp
			} else if operatorWord(word) {
				return toks, false
			}
			i += n
			runes += utf8.RuneCountInString(word)
			emit(kind, word, from)
		case c >= '0' && c <= '9':
			n := numberLen(src[i:])
			if n == 0 {
				return toks, false
			}
			i += n
			runes += n
			emit(qNumber, src[i-n:i], from)
		case c == '"' || c == '\'':
			end := strings.IndexByte(src[i+1:], c)
			if end < 0 {
				return toks, false
			}
			value := src[i+1 : i+1+end]
			if strings.ContainsAny(value, "\\\n\r") {
				return toks, false // escapes, and newlines expr refuses or normalises
			}
			i += end + 2
			runes += utf8.RuneCountInString(value) + 2
			emit(qString, value, from)
		case c == '(' || c == ')' || c == '[' || c == ']' || c == '{' || c == '}':
			i++
			runes++
			emit(qBracket, src[i-1:i], from)
		default:
			n := opLen2(src[i:])
			if n == 0 {
				return toks, false
			}
			i += n
			runes += n
			emit(qOp, src[i-n:i], from)
		}
	}
	toks = append(toks, qtok{kind: qEOF, loc: file.Location{From: max(runes-1, 0), To: runes}})
	return toks, true
}

// identLen is the length of the name that starts s: letters, digits, _ and $, as expr's
// utils.IsAlphaNumeric.
func identLen(s string) int {
	n := 0
	for n < len(s) {
		c := s[n]
		if c < utf8.RuneSelf {
			if c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
				n++
				continue
			}
			break
		}
		r, size := utf8.DecodeRuneInString(s[n:])
		if !alphaNumeric(r) {
			break
		}
		n += size
	}
	return n
}

// alphaNumeric is expr's utils.IsAlphaNumeric.
func alphaNumeric(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// operatorWord reports whether expr's lexer makes an operator of the word w (or may, for
// if and else).
func operatorWord(w string) bool {
	switch w {
	case "not", "in", "or", "and", "matches", "contains", "startsWith", "endsWith", "let", "if", "else":
		return true
	}
	return false
}

// numberLen is the length of the decimal int or float literal (12, 1.5, 1.) that starts s,
// or 0 for one written otherwise (0x1F, 1_000, 1e3) or followed by a letter or digit.
func numberLen(s string) int {
	n := 0
	for n < len(s) && syntax.IsDigit(s[n]) {
		n++
	}
	if n < len(s) && s[n] == '.' && (n+1 == len(s) || s[n+1] != '.') {
		n++ // a fraction, unless .. follows (1..3)
		for n < len(s) && syntax.IsDigit(s[n]) {
			n++
		}
	}
	if n < len(s) {
		if r, _ := utf8.DecodeRuneInString(s[n:]); alphaNumeric(r) {
			return 0
		}
	}
	return n
}

// opLen2 is the length of the operator or comma that starts s among those quickParse
// takes, as expr's lexer cuts them, or 0.
func opLen2(s string) int {
	two := ""
	if len(s) > 1 {
		two = s[:2]
	}
	switch two {
	case "==", "!=", "<=", ">=", "&&", "||", "..":
		return 2
	}
	switch s[0] {
	case '&', '=', '*', '<', '>', '!':
		if len(s) > 1 && strings.IndexByte("&=*", s[1]) >= 0 {
			return 0 // &=, **, *=, !*, … (the lexer's other pairs)
		}
		if s[0] == '&' || s[0] == '=' {
			return 0
		}
		return 1
	case ',', '%', '+', '-':
		return 1
	case '/':
		if len(s) > 1 && (s[1] == '/' || s[1] == '*') {
			return 0 // a comment
		}
		return 1
	case '.':
		if len(s) > 1 && syntax.IsDigit(s[1]) {
			return 0 // .5
		}
		return 1
	case '#':
		if len(s) > 1 {
			if r, _ := utf8.DecodeRuneInString(s[1:]); r == '#' || alphaNumeric(r) {
				return 0 // ##, and #name, a name the lexer reads on in its own way
			}
		}
		return 1
	case '?':
		if len(s) > 1 && (s[1] == '.' || s[1] == '?') {
			return 0
		}
		return 1
	case ':':
		if len(s) > 1 && s[1] == ':' {
			return 0
		}
		return 1
	}
	return 0
}

// quickParser is expr's parser.Parser over quickLex's tokens; ok is cleared, and parsing
// stops, at the first thing outside quickParse's syntax or that expr refuses.
type quickParser struct {
	toks  []qtok
	i     int
	cfg   *conf.Config
	nodes uint // the nodes created, as expr's checkNodeLimit counts them
	depth int  // predicates open
	ok    bool
	slabs *quickNodes
}

// quickNodes are the slabs of the nodes quickParse makes most (names, strings, members,
// calls, integers: nine in ten of a ruleset's). The trees live as long as their program.
type quickNodes struct {
	idents  syntax.Slab[ast.IdentifierNode]
	strings syntax.Slab[ast.StringNode]
	members syntax.Slab[ast.MemberNode]
	calls   syntax.Slab[ast.CallNode]
	ints    syntax.Slab[ast.IntegerNode]
}

// ident returns a new name node.
func (p *quickParser) ident(name string) *ast.IdentifierNode {
	n := p.slabs.idents.New()
	n.Value = name
	return n
}

// str returns a new string node.
func (p *quickParser) str(v string) *ast.StringNode {
	n := p.slabs.strings.New()
	n.Value = v
	return n
}

// member returns a new member node.
func (p *quickParser) member(of, property ast.Node) *ast.MemberNode {
	n := p.slabs.members.New()
	n.Node, n.Property = of, property
	return n
}

func (p *quickParser) cur() *qtok { return &p.toks[p.i] }

// is reports whether the current token has kind and value.
func (p *quickParser) is(kind int, value string) bool {
	t := &p.toks[p.i]
	return t.kind == kind && t.value == value
}

// next moves to the next token; past the end expr fails (unexpected end of expression).
func (p *quickParser) next() {
	if p.toks[p.i].kind == qEOF {
		p.ok = false
		return
	}
	p.i++
}

func (p *quickParser) expect(kind int, value string) {
	if p.is(kind, value) {
		p.next()
		return
	}
	p.ok = false
}

// node is expr's createNode.
func (p *quickParser) node(n ast.Node, loc file.Location) ast.Node {
	p.nodes++
	n.SetLocation(loc)
	return n
}

func (p *quickParser) parseSequenceExpression() ast.Node {
	node := p.parseExpression(0)
	if p.is(qOp, ";") {
		p.ok = false
	}
	return node
}

func (p *quickParser) parseExpression(precedence int) ast.Node {
	if !p.ok {
		return nil
	}
	nodeLeft := p.parsePrimary()
	opToken := *p.cur()
	for opToken.kind == qOp && p.ok {
		op, ok := operator.Binary[opToken.value]
		if !ok || op.Precedence < precedence {
			break
		}
		p.next()
		if operator.IsComparison(opToken.value) {
			nodeLeft = p.parseComparison(nodeLeft, opToken, op.Precedence)
		} else {
			var nodeRight ast.Node
			if op.Associativity == operator.Left {
				nodeRight = p.parseExpression(op.Precedence + 1)
			} else {
				nodeRight = p.parseExpression(op.Precedence)
			}
			nodeLeft = p.node(&ast.BinaryNode{Operator: opToken.value, Left: nodeLeft, Right: nodeRight}, opToken.loc)
		}
		opToken = *p.cur()
	}
	if precedence == 0 {
		nodeLeft = p.parseConditional(nodeLeft)
	}
	return nodeLeft
}

func (p *quickParser) parseComparison(left ast.Node, token qtok, precedence int) ast.Node {
	var rootNode ast.Node
	for {
		comparator := p.parseExpression(precedence + 1)
		cmpNode := p.node(&ast.BinaryNode{Operator: token.value, Left: left, Right: comparator}, token.loc)
		if rootNode == nil {
			rootNode = cmpNode
		} else {
			rootNode = p.node(&ast.BinaryNode{Operator: "&&", Left: rootNode, Right: cmpNode}, token.loc)
		}
		left = comparator
		token = *p.cur()
		if !(token.kind == qOp && operator.IsComparison(token.value) && p.ok) {
			break
		}
		p.next()
	}
	return rootNode
}

func (p *quickParser) parseConditional(node ast.Node) ast.Node {
	for p.is(qOp, "?") && p.ok {
		p.next()
		if p.is(qOp, ":") {
			p.ok = false // c ?: b
			return nil
		}
		expr1 := p.parseExpression(0)
		p.expect(qOp, ":")
		expr2 := p.parseExpression(0)
		node = p.node(&ast.ConditionalNode{Ternary: true, Cond: node, Exp1: expr1, Exp2: expr2}, p.cur().loc)
	}
	return node
}

func (p *quickParser) parsePrimary() ast.Node {
	token := *p.cur()
	if token.kind == qOp {
		if op, ok := operator.Unary[token.value]; ok {
			p.next()
			expr := p.parseExpression(op.Precedence)
			node := p.node(&ast.UnaryNode{Operator: token.value, Node: expr}, token.loc)
			return p.parsePostfixExpression(node)
		}
	}
	if token.kind == qBracket && token.value == "(" {
		p.next()
		expr := p.parseSequenceExpression()
		p.expect(qBracket, ")")
		return p.parsePostfixExpression(expr)
	}
	if p.depth > 0 && token.kind == qOp && (token.value == "#" || token.value == ".") {
		name := ""
		if token.value == "#" {
			p.next()
			if p.cur().kind == qIdent {
				name = p.cur().value
				p.next()
			}
		}
		node := p.node(&ast.PointerNode{Name: name}, token.loc)
		return p.parsePostfixExpression(node)
	}
	return p.parseSecondary()
}

func (p *quickParser) parseSecondary() ast.Node {
	var node ast.Node
	token := *p.cur()
	switch token.kind {
	case qIdent:
		p.next()
		switch token.value {
		case "true":
			return p.node(&ast.BoolNode{Value: true}, token.loc)
		case "false":
			return p.node(&ast.BoolNode{Value: false}, token.loc)
		case "nil":
			return p.node(&ast.NilNode{}, token.loc)
		}
		if p.is(qBracket, "(") {
			node = p.parseCall(token)
		} else {
			node = p.node(p.ident(token.value), token.loc)
		}
	case qNumber:
		p.next()
		if strings.IndexByte(token.value, '.') >= 0 {
			f, err := strconv.ParseFloat(token.value, 64)
			if err != nil {
				p.ok = false
				return nil
			}
			return p.node(&ast.FloatNode{Value: f}, token.loc)
		}
		n, err := strconv.ParseInt(token.value, 10, 64)
		if err != nil {
			p.ok = false
			return nil
		}
		i := p.slabs.ints.New()
		i.Value = int(n)
		return p.node(i, token.loc)
	case qString:
		p.next()
		node = p.node(p.str(token.value), token.loc)
	case qBracket:
		switch token.value {
		case "[":
			node = p.parseArrayExpression(token)
		case "{":
			node = p.parseMapExpression(token)
		default:
			p.ok = false
			return nil
		}
	default:
		p.ok = false
		return nil
	}
	return p.parsePostfixExpression(node)
}

// The arguments of a builtin with a predicate (expr's parser's predicates).
const (
	argExpr      = 1
	argPredicate = 2
	argOptional  = 1 << 7
)

// predicateArgs returns the arguments of the builtin name if it takes a predicate, or nil.
func predicateArgs(name string) []int {
	switch name {
	case "all", "none", "any", "one", "filter", "map", "find", "findIndex", "findLast", "findLastIndex", "groupBy":
		return []int{argExpr, argPredicate}
	case "count", "sum":
		return []int{argExpr, argPredicate | argOptional}
	case "sortBy", "reduce":
		return []int{argExpr, argPredicate, argExpr | argOptional}
	}
	return nil
}

func (p *quickParser) parseCall(token qtok) ast.Node {
	isOverridden := p.cfg != nil && p.cfg.IsOverridden(token.value)
	if args := predicateArgs(token.value); args != nil && !isOverridden {
		p.expect(qBracket, "(")
		arguments := []ast.Node{}
		for i, arg := range args {
			if p.is(qBracket, ")") {
				if arg&argOptional == argOptional {
					break
				}
				p.ok = false // expected at least … arguments
				return nil
			}
			if i > 0 {
				p.expect(qOp, ",")
			}
			var node ast.Node
			switch {
			case arg&argExpr == argExpr:
				node = p.parseExpression(0)
			case arg&argPredicate == argPredicate:
				node = p.parsePredicate()
			}
			arguments = append(arguments, node)
		}
		if p.is(qOp, ",") {
			p.next()
		}
		p.expect(qBracket, ")")
		return p.node(&ast.BuiltinNode{Name: token.value, Arguments: arguments}, token.loc)
	}
	if _, ok := builtin.Index[token.value]; ok && (p.cfg == nil || !p.cfg.Disabled[token.value]) && !isOverridden {
		args := p.parseArguments()
		return p.node(&ast.BuiltinNode{Name: token.value, Arguments: args}, token.loc)
	}
	callee := p.node(p.ident(token.value), token.loc)
	args := p.parseArguments()
	call := p.slabs.calls.New()
	call.Callee, call.Arguments = callee, args
	return p.node(call, token.loc)
}

func (p *quickParser) parsePredicate() ast.Node {
	startToken := *p.cur()
	withBrackets := false
	if p.is(qBracket, "{") {
		p.next()
		withBrackets = true
	}
	p.depth++
	var node ast.Node
	if withBrackets {
		node = p.parseSequenceExpression()
	} else {
		node = p.parseExpression(0)
		if p.is(qOp, ";") {
			p.ok = false
		}
	}
	p.depth--
	if withBrackets {
		p.expect(qBracket, "}")
	}
	return p.node(&ast.PredicateNode{Node: node}, startToken.loc)
}

func (p *quickParser) parseArguments() []ast.Node {
	arguments := []ast.Node{}
	p.expect(qBracket, "(")
	for !p.is(qBracket, ")") && p.ok {
		if len(arguments) > 0 {
			p.expect(qOp, ",")
		}
		if p.is(qBracket, ")") {
			break
		}
		arguments = append(arguments, p.parseExpression(0))
	}
	p.expect(qBracket, ")")
	return arguments
}

func (p *quickParser) parseArrayExpression(token qtok) ast.Node {
	nodes := make([]ast.Node, 0)
	p.expect(qBracket, "[")
	for !p.is(qBracket, "]") && p.ok {
		if len(nodes) > 0 {
			p.expect(qOp, ",")
			if p.is(qBracket, "]") {
				break
			}
		}
		nodes = append(nodes, p.parseExpression(0))
	}
	p.expect(qBracket, "]")
	return p.node(&ast.ArrayNode{Nodes: nodes}, token.loc)
}

func (p *quickParser) parseMapExpression(token qtok) ast.Node {
	p.expect(qBracket, "{")
	nodes := make([]ast.Node, 0)
	for !p.is(qBracket, "}") && p.ok {
		if len(nodes) > 0 {
			p.expect(qOp, ",")
			if p.is(qBracket, "}") {
				break
			}
			if p.is(qOp, ",") {
				p.ok = false
				return nil
			}
		}
		var key ast.Node
		switch t := *p.cur(); {
		case t.kind == qNumber || t.kind == qString || t.kind == qIdent:
			key = p.node(&ast.StringNode{Value: t.value}, t.loc)
			p.next()
		case t.kind == qBracket && t.value == "(":
			key = p.parseExpression(0)
		default:
			p.ok = false
			return nil
		}
		p.expect(qOp, ":")
		node := p.parseExpression(0)
		nodes = append(nodes, p.node(&ast.PairNode{Key: key, Value: node}, token.loc))
	}
	p.expect(qBracket, "}")
	return p.node(&ast.MapNode{Pairs: nodes}, token.loc)
}

func (p *quickParser) parsePostfixExpression(node ast.Node) ast.Node {
	for p.ok {
		postfixToken := *p.cur()
		switch {
		case postfixToken.kind == qOp && postfixToken.value == ".":
			p.next()
			propertyToken := *p.cur()
			p.next()
			if propertyToken.kind != qIdent {
				p.ok = false // expr takes some operators as names (a.not); 1.5 is no name
				return nil
			}
			property := p.node(p.str(propertyToken.value), propertyToken.loc)
			member := p.node(p.member(node, property), propertyToken.loc)
			if p.is(qBracket, "(") {
				p.ok = false // a method call
				return nil
			}
			node = member
		case postfixToken.kind == qBracket && postfixToken.value == "[":
			p.next()
			if p.is(qOp, ":") {
				p.ok = false // a slice
				return nil
			}
			from := p.parseExpression(0)
			if p.is(qOp, ":") {
				p.ok = false
				return nil
			}
			node = p.node(p.member(node, from), postfixToken.loc)
			p.expect(qBracket, "]")
		default:
			return node
		}
	}
	return node
}
