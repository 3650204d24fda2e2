package check

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"rulesh/dsl/internal/exprx"
	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/dice"
)

// Compiler checks parsed rule files into one runtime.Program: it holds the program being
// built, the expression compiler, and every diagnostic found so far (Diags). One Compiler
// serves one load, from one goroutine.
type Compiler struct {
	prog *runtime.Program
	// exprs compiles expressions: expr-lang is reached only through it.
	exprs     *exprx.Compiler
	tableASTs []*syntax.TableDecl
	// constEval computes options and consts at load; it holds those computed so far, so
	// each one costs its own expression, not a copy of all the others.
	constEval *runtime.ConstEvaluator
	// constPass is set while options and consts are computed: a const that builds a record
	// needs its kind's defaults compiled first (defaultsNow).
	constPass bool
	kindASTs  map[*runtime.Kind]*syntax.KindDecl
	defaults  map[*runtime.Kind]int // defaultsNow's progress: 1 compiling, 2 done
	suggested int                   // names compared by suggest so far
	// keyEnum is the enum of the key of the table whose rows are being compiled, or nil.
	keyEnum *runtime.Enum
	// unitLines are the maps' `units` lines, resolved after the procedures' signatures.
	unitLines []pendingUnits
	// refusedNames are the top-level names declared but refused as names (reserved words).
	refusedNames map[string]bool
	Diags        syntax.Diagnostics
	// funcs are the stdlib functions visible in expressions, by name.
	funcs map[string]bool
	// uses collects the globals read by the procedure (or REPL input) being compiled.
	Uses map[string]bool
	// extra holds the text of inputs compiled after loading (REPL lines), which must not be
	// written into the shared Program.
	Extra Sources
	// owned are the locals of the rule being compiled that hold records it built (pure.go).
	owned []*ownLocal
	// dieCalls are the dice made from rules, checked once the procedures are (ruledice.go).
	dieCalls []pendingDie
	// procLocals are the lets and loop variables of the procedure being checked, for
	// checkLocalsNotRead.
	procLocals []procLocal
	// diagsOnly is set when only the diagnostics are read (DiagnoseFiles): the procedures'
	// expressions get no closures and their frames no slots.
	diagsOnly bool
	// texts are the parsed files' sources as strings (syntax.ParsedFile.Text), by name.
	texts map[string]string
	// exprSlab holds the program's expressions (compileText).
	exprSlab   syntax.Slab[runtime.Expr]
	exprScopes syntax.Slab[exprScope] // exprScopeOf's
}

// noteReads records the globals an expression reads where its frame will need them: in the
// procedure being compiled, or in the REPL input. An expression of a procedure compiled with
// nowhere to record them would read nil at run time: that is a bug, reported loudly.
func (c *Compiler) noteReads(x *runtime.Expr, names []string, sc *Scope) bool {
	x.Globals = names
	if len(names) == 0 || sc.mode != modeProc {
		return true
	}
	if c.Uses == nil {
		c.errorf(x.Start, "internal error: globals read where no frame records them", "")
		return false
	}
	for _, n := range names {
		c.Uses[n] = true
	}
	return true
}

// nameAfter returns the position of the name that follows a keyword at p (`rule NAME(`): a
// declaration's problems with its name are placed at the name. p when the text is not there.
func (c *Compiler) nameAfter(p lexer.Position, keyword, name string) lexer.Position {
	src := c.source(p.Filename)
	i := p.Offset + len(keyword)
	if p.Offset < 0 || i > len(src) || string(src[p.Offset:i]) != keyword {
		return p
	}
	q := p
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if !strings.HasPrefix(string(src[i:min(len(src), i+len(name))]), name) {
		return p
	}
	q.Column += i - p.Offset // the keyword and blanks are ASCII: one column a byte
	q.Offset = i
	return q
}

// source returns the text of a file or input being compiled.
func (c *Compiler) source(name string) []byte {
	if b, ok := c.Extra[name]; ok {
		return b
	}
	return c.prog.Sources[name]
}

// NewCompiler starts checking into p, with an expression compiler for its library. The
// package's entry points (checkapi.go) and tests call it.
func NewCompiler(p *runtime.Program) *Compiler {
	return &Compiler{prog: p, exprs: exprx.NewCompiler(p), funcs: exprx.FuncNames(p.Library), kindASTs: map[*runtime.Kind]*syntax.KindDecl{}, defaults: map[*runtime.Kind]int{}}
}

func (c *Compiler) errorf(p lexer.Position, summary, detail string) {
	c.Diags = append(c.Diags, &syntax.Diagnostic{Severity: Error, Pos: syntax.PosOf(p), Summary: summary, Detail: detail})
}

// errorfSpan reports an error on text written at p: the diagnostic's range covers it.
func (c *Compiler) errorfSpan(p lexer.Position, text, summary, detail string) {
	c.errorf(p, summary, detail)
	d := c.Diags[len(c.Diags)-1]
	d.End = syntax.After(d.Pos, text)
}

// exprErrorf reports an error on a whole expression.
func (c *Compiler) exprErrorf(x *runtime.Expr, summary, detail string) {
	c.errorfSpan(x.Start, strings.TrimRight(x.Text, " \t\n"), summary, detail)
}

func (c *Compiler) warnf(p lexer.Position, summary, detail string) {
	c.Diags = append(c.Diags, &syntax.Diagnostic{Severity: Warning, Pos: syntax.PosOf(p), Summary: summary, Detail: detail})
}

// reservedWords are the words no name may take, sorted (IsReservedWord searches them): a
// slice the compiler lays out, where a map would be built at every start of the program.
var reservedWords = []string{
	"action", "and", "break", "const", "contains", "continue", "deck", "dice", "else", "emit",
	"endsWith", "entity", "enum", "false", "for", "if", "in", "include", "kind", "let", "map",
	"matches", "nil", "not", "option", "or", "pile", "require", "return", "rule", "ruleset",
	"startsWith", "table", "true", "while",
}

// IsReservedWord reports whether w is one of the reserved words.
func IsReservedWord(w string) bool {
	_, ok := slices.BinarySearch(reservedWords, w)
	return ok
}

// declare binds a top-level name, reporting a duplicate or a clash with a builtin. A name
// refused as a name is kept in refusedNames, so that its uses do not each say it is unknown.
func (c *Compiler) declare(name string, p lexer.Position, g runtime.Global) bool {
	if !c.CheckName(name, p) {
		if c.refusedNames == nil {
			c.refusedNames = map[string]bool{}
		}
		c.refusedNames[name] = true
		return false
	}
	if prev, ok := c.prog.Globals[name]; ok {
		c.errorf(p, fmt.Sprintf("%s is already declared", name), "first declared at "+prev.DeclPos().String())
		return false
	}
	if c.funcs[name] {
		c.errorf(p, fmt.Sprintf("%s is a builtin function", name), "choose another name")
		return false
	}
	c.prog.Globals[name] = g
	return true
}

func (c *Compiler) CheckName(name string, p lexer.Position) bool {
	if !runtime.IsIdent(name) {
		c.errorf(p, fmt.Sprintf("%s is not a valid name", name), "names are letters, digits and _, starting with a letter")
		return false
	}
	if strings.HasPrefix(name, "__") {
		c.errorf(p, "names starting with __ are reserved", "")
		return false
	}
	if IsReservedWord(name) {
		c.errorf(p, fmt.Sprintf("%s is a reserved word", name), "")
		return false
	}
	return true
}

func (c *Compiler) Program(files []syntax.ParsedFile) {
	var kinds []*syntax.KindDecl
	var procs []*syntax.ProcDecl
	var procObjs []*runtime.Proc
	var entities []*syntax.EntityDecl
	for _, f := range files {
		if f.Text != "" {
			if c.texts == nil {
				c.texts = make(map[string]string, len(files))
			}
			c.texts[f.Name] = f.Text
		}
	}
	// Pass 1: names, so declarations may refer to each other in any order.
	for _, f := range files {
		for _, d := range f.AST.Decls {
			switch {
			case d.Ruleset != nil:
				c.ruleset(d.Ruleset)
			case d.Kind != nil:
				k := &runtime.Kind{Name: d.Kind.Name, Pos: syntax.PosOf(d.Kind.Pos), ByName: map[string]*runtime.Field{}}
				if c.declare(k.Name, d.Kind.Pos, k) {
					kinds = append(kinds, d.Kind)
					c.prog.Kinds = append(c.prog.Kinds, k)
				}
			case d.Enum != nil:
				c.enumDecl(d.Enum)
			case d.Dice != nil:
				c.dieDecl(d.Dice)
			case d.Table != nil:
				c.tableDecl(d.Table)
			case d.Deck != nil:
				c.deckDecl(d.Deck)
			case d.Pile != nil:
				c.pileDecl(d.Pile)
			case d.Map != nil:
				c.mapDecl(d.Map)
			case d.Proc != nil:
				p := &runtime.Proc{Name: d.Proc.Name, Verb: d.Proc.Verb, Pos: syntax.PosOf(d.Proc.Pos), Index: len(c.prog.Procs)}
				if c.declare(p.Name, c.nameAfter(d.Proc.Pos, d.Proc.Verb, d.Proc.Name), p) {
					procs = append(procs, d.Proc)
					procObjs = append(procObjs, p)
					c.prog.Procs = append(c.prog.Procs, p)
				}
			}
		}
	}
	c.recordFieldTypos(files)
	for _, k := range kinds {
		c.kindFields(k)
		c.kindASTs[c.prog.Globals[k.Name].(*runtime.Kind)] = k
	}
	c.constPass = true
	// Pass 2: options and consts in the order a reader meets them, an included file's where
	// its include stands (a const may use earlier ones), then entities in file order.
	for _, d := range readingOrder(files) {
		switch {
		case d.Option != nil:
			c.option(d.Option)
		case d.Const != nil:
			c.constant(d.Const)
		}
	}
	for _, f := range files {
		for _, d := range f.AST.Decls {
			switch {
			case d.Entity != nil:
				e := &runtime.Entity{Name: d.Entity.Name, Pos: syntax.PosOf(d.Entity.Pos)}
				if c.declare(e.Name, d.Entity.Pos, e) {
					entities = append(entities, d.Entity)
					c.prog.Entities = append(c.prog.Entities, e)
				}
			}
		}
	}
	c.constPass = false
	for _, k := range kinds {
		c.kindDefaults(k)
	}
	c.checkDefaultCycles()
	for i, e := range entities {
		if k, ok := c.prog.Globals[e.Kind].(*runtime.Kind); ok {
			c.prog.Entities[i].Kind = k
		}
	}
	for i, e := range entities {
		c.entity(c.prog.Entities[i], e)
	}
	uses := map[*runtime.Proc]map[string]bool{}
	usesOf := func(p *runtime.Proc) map[string]bool {
		if uses[p] == nil {
			uses[p] = map[string]bool{}
		}
		return uses[p]
	}
	// Signatures before any default or row: a default may call a rule or a table declared
	// after it, and must see how many arguments it takes.
	paramDecls := make([][]*syntax.Param, len(procs))
	for i, p := range procs {
		paramDecls[i] = c.procParams(procObjs[i], p)
	}
	tableScopes := make([]*Scope, len(c.tableASTs))
	tableDecls := make([][]*syntax.Param, len(c.tableASTs))
	for i, ta := range c.tableASTs {
		c.Uses = usesOf(c.prog.Tables[i].Proc)
		tableScopes[i], tableDecls[i] = c.tableSignature(c.prog.Tables[i], ta)
	}
	for _, i := range c.defaultsOrder(procObjs, paramDecls) {
		c.Uses = usesOf(procObjs[i])
		c.procDefaults(procObjs[i], paramDecls[i])
	}
	for i := range c.tableASTs {
		c.Uses = usesOf(c.prog.Tables[i].Proc)
		c.tableDefaults(c.prog.Tables[i], tableDecls[i])
	}
	c.mapUnits()
	for i, ta := range c.tableASTs {
		if tableScopes[i] != nil {
			c.Uses = usesOf(c.prog.Tables[i].Proc)
			c.tableRows(c.prog.Tables[i], ta, tableScopes[i])
		}
	}
	for i, p := range procs {
		c.Uses = usesOf(procObjs[i])
		c.procBody(procObjs[i], p)
	}
	c.Uses = nil
	c.ruleDice()
	for p, set := range uses {
		p.Uses = runtime.SortedKeys(set)
	}
	// The frames' slots, once every procedure knows the globals it reads (those stay in
	// the map). A program checked for its diagnostics keeps every local in the map.
	if !c.diagsOnly {
		runtime.ResolveSlots(c.prog)
		c.exprs.InlineRules()
	}
	c.deceivingText(files)
}

func (c *Compiler) dieDecl(d *syntax.DiceDecl) {
	decl := &runtime.DieDecl{Name: d.Name, Pos: syntax.PosOf(d.Pos)}
	if !c.declare(d.Name, d.Pos, decl) {
		return
	}
	if d.Rule != nil {
		c.ruleDieDecl(decl, d)
		return
	}
	if len(d.Faces) > 0 && d.Faces[0].Counts != nil {
		if decl.Die = c.recordDie(d); decl.Die != nil {
			c.prog.DiceDecl = append(c.prog.DiceDecl, decl)
		}
		return
	}
	var faces []dice.Face
	for _, f := range d.Faces {
		switch {
		case f.Counts != nil:
			c.errorf(f.Pos, fmt.Sprintf("face %d of die %s is a record of counts, and its first face is not", len(faces)+1, d.Name), "a die's faces are all numbers, all names or all records of counts ({s: 1})")
			return
		case f.Number != "":
			v, ok := c.declInt(f.Number, f.Neg, f.Pos, "the face")
			if !ok {
				return
			}
			faces = append(faces, dice.Face{Value: v})
		default:
			name := f.Name
			if s, ok := syntax.Unquote(name); ok && (name[0] == '"' || name[0] == '\'') {
				name = s
			}
			faces = append(faces, dice.Face{Sym: name})
		}
	}
	die, err := dice.NewDie(d.Name, faces)
	if err != nil {
		c.errorf(d.Pos, err.Error(), "")
		return
	}
	decl.Die = die
	c.prog.DiceDecl = append(c.prog.DiceDecl, decl)
}

func (c *Compiler) ruleset(r *syntax.RulesetDecl) {
	if c.prog.Name != "" {
		c.errorf(r.Pos, "a second ruleset header", "a load has one ruleset header")
		return
	}
	c.prog.Name, _ = syntax.Unquote(r.Name)
	for _, p := range r.Props {
		v, _ := syntax.Unquote(p.Value)
		c.prog.Props[p.Key] = v
	}
}

func (c *Compiler) resolveType(t *syntax.TypeRef) *runtime.Type {
	if t == nil {
		return runtime.AnyType
	}
	var base *runtime.Type
	if bt, ok := runtime.BuiltinType(t.Name); ok {
		base = bt
	} else if k, ok := c.prog.Globals[t.Name].(*runtime.Kind); ok {
		base = &runtime.Type{Kind: runtime.TRecord, Record: k}
	} else if e, ok := c.prog.Globals[t.Name].(*runtime.Enum); ok {
		base = e.Type()
	} else {
		detail := c.suggest(t.Name, func() []string {
			names := append([]string{"int", "float", "bool", "string", "list", "map", "any"}, kindNames(c.prog)...)
			for _, e := range c.prog.Enums {
				names = append(names, e.Name)
			}
			return names
		})
		c.errorfSpan(t.Pos, t.Name, "unknown type "+t.Name, detail)
		return runtime.AnyType
	}
	if t.Key != nil {
		base = c.mapType(t, base)
	}
	if t.List {
		return &runtime.Type{Kind: runtime.TList, Elem: base}
	}
	return base
}

// mapType resolves map[K]V: K a string or an enum (keys are strings at run time), V any type.
func (c *Compiler) mapType(t *syntax.TypeRef, base *runtime.Type) *runtime.Type {
	if base.Kind != runtime.TMap || t.Name != "map" {
		c.errorfSpan(t.Pos, t.Name, t.Name+" takes no key type", "only map is written with one: map["+typeText(t.Key)+"]"+typeText(t.Value))
		return base
	}
	key, val := c.resolveType(t.Key), c.resolveType(t.Value)
	if key.Kind != runtime.TString && key.Kind != runtime.TEnum && key.Kind != runtime.TAny {
		c.errorfSpan(t.Key.Pos, typeText(t.Key), "a map's key is a string or an enum, not "+key.String(), "write map[string]"+val.String()+", or declare an enum of the keys")
		return base
	}
	if key.Kind == runtime.TAny {
		return base // an unknown key type, already reported
	}
	return &runtime.Type{Kind: runtime.TMap, Key: key, Elem: val}
}

// typeText writes a type as written in the source.
func typeText(t *syntax.TypeRef) string {
	s := t.Name
	if t.List {
		s = "[]" + s
	}
	if t.Key != nil {
		s += "[" + typeText(t.Key) + "]" + typeText(t.Value)
	}
	return s
}

func (c *Compiler) kindFields(ka *syntax.KindDecl) {
	k := c.prog.Globals[ka.Name].(*runtime.Kind)
	for _, fa := range ka.Fields {
		if !c.CheckName(fa.Name, fa.Pos) {
			continue
		}
		if prev := k.ByName[fa.Name]; prev != nil {
			c.errorf(fa.Pos, fmt.Sprintf("field %s is declared twice in %s", fa.Name, k.Name), "first declared at "+prev.Pos.String())
			continue
		}
		f := &runtime.Field{Name: runtime.FieldKey(fa.Name), Pos: syntax.PosOf(fa.Pos), Type: c.resolveType(fa.Type)}
		k.Fields = append(k.Fields, f)
		k.ByName[f.Name] = f
	}
}

func (c *Compiler) kindDefaults(ka *syntax.KindDecl) {
	k := c.prog.Globals[ka.Name].(*runtime.Kind)
	for _, fa := range ka.Fields {
		f := k.ByName[fa.Name]
		if f == nil || fa.Default == nil || f.Default != nil {
			continue
		}
		f.Default = c.compileExpr(fa.Default, globalScope, f.Type)
	}
}

// defaultsNow compiles a kind's field defaults ahead of the other kinds' when a const
// builds one of its records (const héros = Combattant()): the const is computed at once and
// must get the defaults, not zero values. It returns why it cannot, or "".
func (c *Compiler) defaultsNow(k *runtime.Kind) string {
	ka := c.kindASTs[k]
	if !c.constPass || ka == nil || c.defaults[k] == 2 {
		return ""
	}
	if c.defaults[k] == 1 {
		return "field defaults build records endlessly through " + k.Name
	}
	c.defaults[k] = 1
	mark := len(c.Diags)
	c.kindDefaults(ka)
	if c.Diags[mark:].HasErrors() {
		// Said again, in place, when the defaults are compiled with the other kinds'.
		c.Diags = c.Diags[:mark]
		for _, f := range k.Fields {
			f.Default = nil
		}
		c.defaults[k] = 0
		return fmt.Sprintf("the defaults of %s cannot be computed here", k.Name)
	}
	c.defaults[k] = 2
	return ""
}

// checkDefaultCycles rejects field defaults that build records endlessly: kind N { s: N =
// N() } would make every N build another N. A field of its own kind is fine without a
// default (it starts as nil). Each cycle is reported once, where it closes.
func (c *Compiler) checkDefaultCycles() {
	done := map[*runtime.Kind]bool{}
	onPath := map[*runtime.Kind]int{} // kind -> index in path + 1
	var path []string                 // Kind.field steps from the first kind visited
	var visit func(k *runtime.Kind) bool
	visit = func(k *runtime.Kind) bool {
		if done[k] {
			return true
		}
		onPath[k] = len(path) + 1
		defer func() { delete(onPath, k); done[k] = true }()
		for _, f := range k.Fields {
			for _, name := range exprx.BuiltKinds(f.Default) {
				next, ok := c.prog.Globals[name].(*runtime.Kind)
				if !ok {
					continue
				}
				path = append(path, k.Name+"."+f.Name)
				if at := onPath[next]; at > 0 {
					cycle := strings.Join(path[at-1:], " → ") + " → " + next.Name
					c.Diags = append(c.Diags, &syntax.Diagnostic{Pos: f.Default.Pos,
						Summary: "field defaults build records endlessly: " + cycle,
						Detail:  "leave the field without a default (it starts as nil) and set it once the record is made"})
					path = path[:len(path)-1]
					return false
				}
				ok = visit(next)
				path = path[:len(path)-1]
				if !ok {
					return false
				}
			}
		}
		return true
	}
	for _, k := range c.prog.Kinds {
		visit(k)
	}
}

// readingOrder lists the declarations of the files as a reader meets them: each file's in
// order, an included file's in place of its include (once, where first met). The files
// come each before its includes (syntax.ParseFiles), so a const declared in an included
// file and used below the include would otherwise be met after its use.
func readingOrder(files []syntax.ParsedFile) []*syntax.Decl {
	byName := make(map[string]*syntax.File, len(files))
	for _, f := range files {
		byName[f.Name] = f.AST
	}
	seen := map[string]bool{}
	var out []*syntax.Decl
	var visit func(name string)
	visit = func(name string) {
		f := byName[name]
		if f == nil || seen[name] {
			return
		}
		seen[name] = true
		for _, d := range f.Decls {
			if d.Include == nil {
				out = append(out, d)
				continue
			}
			if path, ok := syntax.Unquote(d.Include.Path); ok {
				visit(filepath.Clean(filepath.Join(filepath.Dir(name), path)))
			}
		}
	}
	for _, f := range files {
		visit(f.Name)
	}
	return out
}

func (c *Compiler) option(o *syntax.OptionDecl) {
	valueAST, doc := splitDoc(o.Value, c.source(o.Value.Pos.Filename))
	opt := &runtime.Option{Name: o.Name, Pos: syntax.PosOf(o.Pos), Doc: doc}
	if !c.declare(o.Name, o.Pos, opt) {
		return
	}
	c.prog.Options = append(c.prog.Options, opt)
	e := c.compileExpr(valueAST, constScope, nil)
	opt.Default, opt.Type = c.constValue(e, o.Pos)
	c.consts().Bind(opt.Name, opt.Default)
}

func (c *Compiler) constant(k *syntax.ConstDecl) {
	cst := &runtime.Const{Name: k.Name, Pos: syntax.PosOf(k.Pos)}
	if !c.declare(k.Name, k.Pos, cst) {
		return
	}
	c.prog.Consts = append(c.prog.Consts, cst)
	e := c.compileExpr(k.Value, constScope, nil)
	cst.Value, cst.Type = c.constValue(e, k.Pos)
	c.consts().Bind(cst.Name, cst.Value)
}

// constValue evaluates an option's or const's expression once, at load, against the options'
// defaults and earlier consts.
func (c *Compiler) constValue(e *runtime.Expr, p lexer.Position) (any, *runtime.Type) {
	if e == nil {
		return nil, runtime.AnyType
	}
	v, err := c.consts().Eval(e)
	if err != nil {
		c.Diags = append(c.Diags, &syntax.Diagnostic{Pos: syntax.PosOf(p), Summary: "cannot compute the value: " + err.Error()})
		return nil, runtime.AnyType
	}
	t := e.Type
	if t.Kind == runtime.TAny || t.Kind == runtime.TMap {
		t = runtime.TypeFromReflect(reflect.TypeOf(v))
	}
	return v, t
}

func (c *Compiler) consts() *runtime.ConstEvaluator {
	if c.constEval == nil {
		c.constEval = runtime.NewConstEvaluator(c.prog)
	}
	return c.constEval
}

// splitDoc separates the trailing doc string of an option (`option malus = 3 "doc"`). The
// value ends where the doc string starts, blanks before it left out: its last token may be
// a bracket opening a group (["a"], {a: 1}), whose end is not among the tokens of depth 0.
func splitDoc(e *syntax.Expr, src []byte) (*syntax.Expr, string) {
	n := len(e.Toks)
	if n < 2 || e.Toks[n-1].Type != syntax.TokString || e.Toks[n-2].Type == syntax.TokOp {
		return e, ""
	}
	doc, _ := syntax.Unquote(e.Toks[n-1].Value)
	cut := *e
	cut.Toks = e.Toks[:n-1]
	cut.EndPos = e.Toks[n-1].Pos
	for cut.EndPos.Offset > e.Pos.Offset && cut.EndPos.Offset <= len(src) && (src[cut.EndPos.Offset-1] == ' ' || src[cut.EndPos.Offset-1] == '\t') {
		cut.EndPos.Offset--
		cut.EndPos.Column--
	}
	return &cut, doc
}

func (c *Compiler) entity(e *runtime.Entity, ea *syntax.EntityDecl) {
	k := e.Kind
	if k == nil {
		c.errorf(ea.Pos, "unknown kind "+ea.Kind, c.suggest(ea.Kind, func() []string { return kindNames(c.prog) }))
		return
	}
	seen := map[string]bool{}
	for _, fi := range ea.Fields {
		f := k.ByName[fi.Name]
		if f == nil {
			c.errorfSpan(fi.Pos, fi.Name, fmt.Sprintf("%s has no field %s", k.Name, fi.Name), c.suggest(fi.Name, func() []string { return k.FieldNames() }))
			continue
		}
		if seen[fi.Name] {
			c.errorfSpan(fi.Pos, fi.Name, fmt.Sprintf("field %s is set twice", fi.Name), "")
			continue
		}
		seen[fi.Name] = true
		if fi.OldSep() {
			text, _ := c.exprText(fi.Value)
			field := fi.Name + ": " + shorten(strings.TrimSpace(text), 40)
			c.warnf(fi.Sep.Pos, fmt.Sprintf("field %s is set with =, the older form", fi.Name),
				fmt.Sprintf("write %s, as in the constructor %s({%s}); rulesh fmt -w rewrites the file", field, k.Name, field))
		}
		e.Inits = append(e.Inits, runtime.FieldInit{Field: f, Value: c.compileExprAs(fi.Value, entityScope(e), f.Type, &place{field: f.Name})})
	}
}

func kindNames(p *runtime.Program) []string {
	var out []string
	for _, k := range p.Kinds {
		out = append(out, k.Name)
	}
	return out
}

// maxSuggestions bounds the names one load compares for "did you mean": a file of many
// unknown names among many declarations must not cost their product.
const maxSuggestions = 500_000

// suggest is didYouMeanDetail within the load's budget of comparisons; cands is called only
// while the budget lasts.
func (c *Compiler) suggest(name string, cands func() []string) string {
	if c.suggested >= maxSuggestions {
		return ""
	}
	list := cands()
	c.suggested += len(list)
	return didYouMeanDetail(name, list)
}

func didYouMeanDetail(name string, cands []string) string {
	if s := syntax.DidYouMean(name, cands); s != "" {
		return "did you mean " + s + "?"
	}
	return ""
}

// procParams reads a procedure's parameters and result as declared, without their defaults:
// what a call anywhere must know of it (how many arguments, of which types). It returns the
// declaration of each parameter it kept, for procDefaults.
func (c *Compiler) procParams(p *runtime.Proc, pa *syntax.ProcDecl) []*syntax.Param {
	var decls []*syntax.Param
	seen := map[string]bool{}
	for _, a := range pa.Params {
		if !c.CheckName(a.Name, a.Pos) {
			continue
		}
		if seen[a.Name] {
			c.errorfSpan(a.Pos, a.Name, fmt.Sprintf("parameter %s is declared twice", a.Name), "")
			continue
		}
		seen[a.Name] = true
		c.CheckShadow(a.Name, a.Pos)
		if a.Default == nil && len(p.Params) > 0 && p.Params[len(p.Params)-1].Default != nil {
			c.errorfSpan(a.Pos, a.Name, fmt.Sprintf("parameter %s has no default but follows one that has", a.Name), "put parameters with defaults last")
		}
		par := &runtime.Param{Name: a.Name, Pos: syntax.PosOf(a.Pos), Type: c.resolveType(a.Type)}
		if a.Default != nil {
			// Marked until procDefaults compiles it: the parameter may be left out.
			par.Default = pendingDefault
		} else {
			p.MinArg = len(p.Params) + 1
		}
		p.Params = append(p.Params, par)
		decls = append(decls, a)
	}
	if pa.Result != nil {
		p.Result = c.resolveType(pa.Result)
	}
	return decls
}

// defaultsOrder is the order in which the procedures' defaults are compiled (indexes into
// procs): declaration order, except that the procedures a default names come before it. A
// parameter without a type takes its default's type, which a call in another default must
// see (rule a(x = b("s")) before rule b(y = 3)); procedures that name each other in their
// defaults keep declaration order.
func (c *Compiler) defaultsOrder(procs []*runtime.Proc, decls [][]*syntax.Param) []int {
	order := make([]int, 0, len(procs))
	// Only a procedure with an untyped parameter that has a default need come earlier.
	index := map[*runtime.Proc]int{}
	for i, p := range procs {
		for _, a := range decls[i] {
			if a.Type == nil && a.Default != nil {
				index[p] = i
				break
			}
		}
	}
	if len(index) == 0 {
		for i := range procs {
			order = append(order, i)
		}
		return order
	}
	state := make([]uint8, len(procs)) // 1: being ordered, 2: ordered
	var visit func(i int)
	visit = func(i int) {
		if state[i] != 0 {
			return
		}
		state[i] = 1
		for _, a := range decls[i] {
			if a.Default == nil {
				continue
			}
			text, _ := c.exprText(a.Default)
			exprx.ForEachIdent(text, func(word string) {
				if q, ok := c.prog.Globals[word].(*runtime.Proc); ok {
					if j, ok := index[q]; ok {
						visit(j)
					}
				}
			})
		}
		state[i] = 2
		order = append(order, i)
	}
	for i := range procs {
		visit(i)
	}
	return order
}

// pendingDefault stands for a default procParams has seen and procDefaults not yet compiled.
var pendingDefault = &runtime.Expr{}

// procDefaults compiles a procedure's parameter defaults, once every signature is known; a
// default sees the parameters before it. A parameter without a declared type takes its
// default's.
func (c *Compiler) procDefaults(p *runtime.Proc, decls []*syntax.Param) {
	sc := NewScope(ProcScope)
	sc.proc = p // a rule's defaults are as pure as its body
	for i, par := range p.Params {
		a := decls[i]
		if par.Default == pendingDefault {
			par.Nullable = c.nilDefault(a, par.Type)
			par.Default = c.compileExpr(a.Default, sc, par.Type)
			if a.Type == nil && par.Default != nil {
				par.Type = par.Default.Type
			}
			if par.Default == nil {
				// In error (reported): a call without it is refused as before.
				p.MinArg = max(p.MinArg, i+1)
			}
		}
		sc.Vars[par.Name] = par.Type
	}
}

// nilDefault says whether a parameter's default is `nil`, which makes a record parameter
// nullable. Of any other declared type, nil would fail at every call that leaves the
// parameter out: that is an error here.
func (c *Compiler) nilDefault(a *syntax.Param, t *runtime.Type) bool {
	tok := a.Default.Single()
	if tok == nil || tok.Type != syntax.TokIdent || tok.Value != "nil" {
		return false
	}
	if t == nil || t.Kind == runtime.TRecord || t.Kind == runtime.TAny {
		return true
	}
	zero := map[runtime.TypeKind]string{runtime.TInt: "0", runtime.TFloat: "0.0", runtime.TBool: "false",
		runtime.TString: `""`, runtime.TList: "[]", runtime.TMap: "{}"}[t.Kind]
	article := "a "
	if strings.ContainsRune("aeiou", rune(t.String()[0])) {
		article = "an "
	}
	fix := "give it " + article + t.String() + " default"
	if zero != "" {
		fix += " such as " + zero
	}
	c.errorfSpan(tok.Pos, "nil", fmt.Sprintf("parameter %s: %s cannot be nil", a.Name, t),
		"only a parameter of a kind (a record) may default to nil, and it then accepts nil; "+fix+", or declare it any")
	return false
}

// checkShadow forbids a local that hides an option, const, kind or procedure: a rule reading
// `malus` must mean the option. Locals may hide entities, dice and piles, which scenarios
// name freely (a scenario's `cible` must not break a ruleset's parameter `cible`).
func (c *Compiler) CheckShadow(name string, p lexer.Position) {
	switch g := c.prog.Globals[name].(type) {
	case *runtime.Option, *runtime.Const, *runtime.Kind, *runtime.Enum, *runtime.Proc:
		c.errorf(p, fmt.Sprintf("%s hides the %s declared at %s", name, runtime.KindOfGlobal(g), g.DeclPos()), "rename the local")
	}
}

// procLocal is a let or a loop variable of a procedure, where it is declared.
type procLocal struct {
	name string
	pos  lexer.Position
}

// checkLocalsNotRead refuses a let or a loop variable named as a global the same procedure
// (or statements typed at the REPL: what names which) reads (an entity, a die, a deck, a pile, a map: CheckShadow refuses the others). A frame
// holds the globals its procedure reads under their names, so the local would take the
// global's place: the global read before the let, after its block, or in a later call would
// give the local's last value. A local named so in a procedure that never reads the global
// is fine (an entity a scenario adds does not break the rules' own `let t`).
func (c *Compiler) checkLocalsNotRead(what string) {
	for _, l := range c.procLocals {
		if !c.Uses[l.name] {
			continue
		}
		g := c.prog.Globals[l.name]
		if g == nil {
			continue
		}
		c.errorf(l.pos, fmt.Sprintf("%s hides the %s declared at %s, which this %s also reads", l.name, runtime.KindOfGlobal(g), g.DeclPos(), what),
			"rename the local")
	}
}

func (c *Compiler) procBody(p *runtime.Proc, pa *syntax.ProcDecl) {
	sc := NewScope(ProcScope)
	for _, par := range p.Params {
		sc.Vars[par.Name] = par.Type
	}
	sc.proc = p
	// A procedure's body runs only when a machine calls it, never at load: for a check that
	// reads only the diagnostics, its expressions need no closures (they would run on the VM).
	c.exprs.NoClosures = c.diagsOnly
	c.procLocals = c.procLocals[:0]
	p.Body = c.block(pa.Body, sc)
	c.exprs.NoClosures = false
	c.checkLocalsNotRead("procedure")
	c.checkOwned(p)
}

// Scope is the static view of the names visible at a point: the locals of enclosing blocks
// (Vars, a name to its static type) and what the globals part may hold there (a procedure's
// globals, or in a const only options and earlier consts).
type Scope struct {
	parent *Scope
	Vars   map[string]*runtime.Type
	proc   *runtime.Proc
	// mode limits what the globals part holds: in a const only options and earlier consts.
	mode scopeMode
	// entity being initialised, which may not be read by its own fields.
	self *runtime.Entity
	// own holds the locals of this block that keep a record a rule built (pure.go).
	own map[string]*ownLocal
	// loop marks the scope of a for or while body, where break and continue may stand.
	loop bool
}

// exprScopeOf returns sc as the expression compiler asks it, from a slab: an exprScope
// boxed for each expression was an allocation of its own. (Not kept in sc: the top
// scopes are shared by every compiler.)
func (c *Compiler) exprScopeOf(sc *Scope) *exprScope {
	s := c.exprScopes.New()
	s.c, s.sc = c, sc
	return s
}

// inLoop reports whether a statement in sc stands inside a loop's body.
func (sc *Scope) inLoop() bool {
	for s := sc; s != nil; s = s.parent {
		if s.loop {
			return true
		}
	}
	return false
}

type scopeMode int

const (
	modeProc scopeMode = iota
	modeConst
	modeEntity
)

// globalScope is where field defaults, consts and option values are checked (constScope
// names the same one); ProcScope is the root of the scopes of procedures, tables and
// inputs, each opened with NewScope.
var (
	globalScope = &Scope{Vars: map[string]*runtime.Type{}, mode: modeConst}
	constScope  = globalScope
	ProcScope   = &Scope{Vars: map[string]*runtime.Type{}, mode: modeProc}
)

func entityScope(e *runtime.Entity) *Scope {
	return &Scope{Vars: map[string]*runtime.Type{}, mode: modeEntity, self: e}
}

// NewScope opens a block's scope under parent, in its mode, procedure and entity.
func NewScope(parent *Scope) *Scope {
	return &Scope{parent: parent, Vars: map[string]*runtime.Type{}, mode: parent.mode, proc: parent.proc, self: parent.self}
}

func (s *Scope) lookup(name string) (*runtime.Type, bool) {
	for ; s != nil; s = s.parent {
		if t, ok := s.Vars[name]; ok {
			return t, true
		}
	}
	return nil, false
}

func (s *Scope) names() []string {
	var out []string
	for ; s != nil; s = s.parent {
		// Sorted within each scope: "did you mean" keeps the first of the closest names, so
		// the order of a map walk would make the suggestion change from one load to the next.
		from := len(out)
		for n := range s.Vars {
			out = append(out, n)
		}
		slices.Sort(out[from:])
	}
	return out
}

// globalType returns the type of one top-level name as a scope mode sees it: in a const
// only options, consts, dice and maps; in a procedure everything. Looking names up one by
// one (instead of copying every global into each expression's environment) keeps checking
// linear in the number of declarations.
func (c *Compiler) globalType(name string, mode scopeMode) (*runtime.Type, bool) {
	switch g := c.prog.Globals[name].(type) {
	case *runtime.Option:
		if g.Type != nil {
			return g.Type, true
		}
	case *runtime.Const:
		if g.Type != nil {
			return g.Type, true
		}
	case *runtime.Entity:
		if mode != modeConst && g.Kind != nil {
			return g.Kind.Type(), true
		}
	case *runtime.DieDecl:
		return runtime.DieType, true
	case *runtime.DeckDecl, *runtime.PileDecl:
		if mode != modeConst {
			return runtime.PileType, true
		}
	case *runtime.MapDecl:
		return runtime.MapTType, true
	case *runtime.Enum:
		return g.ListType(), true
	}
	return nil, false
}

// exprScope answers the expression compiler's questions about the names where an
// expression is compiled (exprx.Scope).
type exprScope struct {
	c  *Compiler
	sc *Scope
}

// Local implements exprx.Scope.
func (s exprScope) Local(name string) (*runtime.Type, bool) { return s.sc.lookup(name) }

// Global implements exprx.Scope: the entity being initialised is not visible to its fields.
func (s exprScope) Global(name string) (*runtime.Type, bool) {
	if s.sc.self != nil && name == s.sc.self.Name {
		return nil, false
	}
	return s.c.globalType(name, s.sc.mode)
}

// InProc implements exprx.Scope.
func (s exprScope) InProc() bool { return s.sc.mode == modeProc }

// DefaultsNow implements exprx.Scope.
func (s exprScope) DefaultsNow(k *runtime.Kind) string { return s.c.defaultsNow(k) }

// Suggest implements exprx.Scope.
func (s exprScope) Suggest(name string, cands func() []string) string {
	return s.c.suggest(name, cands)
}

// exprText returns the source text of an expression as written.
func (c *Compiler) exprText(e *syntax.Expr) (string, lexer.Position) {
	if _, extra := c.Extra[e.Pos.Filename]; !extra {
		if text, ok := c.texts[e.Pos.Filename]; ok {
			// Cut from the file's text, as the tokens are: no copy for each expression.
			return text[e.Pos.Offset:e.EndPos.Offset], e.Pos
		}
	}
	src := c.source(e.Pos.Filename)
	return string(src[e.Pos.Offset:e.EndPos.Offset]), e.Pos
}

func (c *Compiler) compileExpr(e *syntax.Expr, sc *Scope, want *runtime.Type) *runtime.Expr {
	return c.compileExprAs(e, sc, want, nil)
}

// compileExprAs is compileExpr for a value stored in a named place (a return, a field): a
// type that does not fit is reported in the place's words.
func (c *Compiler) compileExprAs(e *syntax.Expr, sc *Scope, want *runtime.Type, at *place) *runtime.Expr {
	text, start := c.exprText(e)
	return c.compileText(text, start, sc, want, at)
}

// compileText compiles expression source that starts at position start of a rule file.
func (c *Compiler) CompileText(text string, start lexer.Position, sc *Scope, want *runtime.Type) *runtime.Expr {
	return c.compileText(text, start, sc, want, nil)
}

func (c *Compiler) compileText(text string, start lexer.Position, sc *Scope, want *runtime.Type, at *place) *runtime.Expr {
	x := c.exprSlab.New()
	x.Pos, x.Text, x.Start = syntax.PosOf(start), text, start
	if at, msg := syntax.ReservedUse(text); at >= 0 {
		c.errorf(x.PosAt(at), msg, "")
		return nil
	}
	if strings.Contains(text, "{") {
		c.literalHoles(x, sc)
	}
	if c.trivial(x, sc) {
		c.checkWantAs(x, want, at)
		return x
	}
	reads, diags, err := c.exprs.Compile(x, c.exprScopeOf(sc))
	c.Diags = append(c.Diags, diags...)
	if diags.HasErrors() {
		return nil
	}
	if err != nil {
		c.exprError(x, err, sc)
		return nil
	}
	if !c.noteReads(x, reads, sc) {
		return nil
	}
	if p := pureProc(sc); p != nil {
		c.checkPureCalls(p, x)
	}
	c.checkWantAs(x, want, at)
	return x
}

// place names where a value is stored, so that a type mismatch says which declaration it
// breaks rather than only the two types.
type place struct {
	// proc is the procedure whose value a return gives; field the field an entity sets.
	proc  *runtime.Proc
	field string
}

// mismatch words the value x, shown as got, stored where want is declared.
func (c *Compiler) mismatch(x *runtime.Expr, want *runtime.Type, got string, at *place) string {
	switch {
	case at != nil && at.proc != nil:
		// A return of a call names the callee: "c returns int, band gives string".
		// The value is read as the callee's when it starts with the call and has its type.
		text := strings.TrimSpace(x.Text)
		for _, call := range c.exprs.Calls(x) {
			if call.Proc != nil && call.Proc.Result != nil && strings.HasPrefix(text, call.Name+"(") &&
				call.Proc.Result.String() == x.Type.String() {
				return fmt.Sprintf("%s returns %s, %s gives %s", at.proc.Name, want, call.Name, got)
			}
		}
		return fmt.Sprintf("%s returns %s, got %s", at.proc.Name, want, got)
	case at != nil && at.field != "":
		return fmt.Sprintf("field %s is %s, got %s", at.field, want, got)
	}
	return fmt.Sprintf("expected %s, got %s", want, got)
}

// checkWantAs reports an expression whose static type cannot be stored where want is
// declared, including a literal fraction for an int, naming the place it is stored in (nil:
// anywhere else).
func (c *Compiler) checkWantAs(x *runtime.Expr, want *runtime.Type, at *place) {
	if want == nil {
		return
	}
	if !runtime.Assignable(want, x.Type) {
		detail := ""
		if want.Kind == runtime.TDice {
			detail = "a dice literal rolls where it stands; a code held as a value is written as a string: \"4D+2\""
		}
		c.exprErrorf(x, c.mismatch(x, want, x.Type.String(), at), detail)
		return
	}
	if f, ok := x.Lit.(float64); ok && x.IsLit && want.Kind == runtime.TInt && f != float64(int(f)) {
		c.exprErrorf(x, c.mismatch(x, want, runtime.FormatFloat(f), at), "")
	}
	c.checkEnumLit(x, want)
	c.checkCodeLit(x, want)
	c.checkMapLit(x, want)
}

// checkCodeLit reads a string literal stored where a dice code is declared (a field's
// default, an entity's field, an argument, a let, a return): a typo is a load error.
func (c *Compiler) checkCodeLit(x *runtime.Expr, want *runtime.Type) {
	s, ok := x.Lit.(string)
	if !ok || !x.IsLit || want.Kind != runtime.TDice {
		return
	}
	if _, err := dice.ParseCode(s); err != nil {
		c.exprErrorf(x, err.Error(), "")
	}
}

// checkMapLit checks a map literal stored where a typed map is declared: each key written
// must be a value of an enum key type, each value's static type assignable to the value type.
func (c *Compiler) checkMapLit(x *runtime.Expr, want *runtime.Type) {
	if !want.TypedMap() {
		return
	}
	entries, ok := c.exprs.MapLiteral(x)
	if !ok {
		return
	}
	for _, e := range entries {
		if want.Key.Kind == runtime.TEnum && !want.Key.Enum.Has(e.Key) {
			summary, detail := runtime.EnumProblem(want.Key.Enum, e.Key)
			c.errorfSpan(x.PosAt(e.KeyAt), e.Key, "key of "+want.String()+": "+summary, detail)
		}
		if !runtime.Assignable(want.Elem, e.Value) {
			c.errorf(x.PosAt(e.ValueAt), fmt.Sprintf("entry %s: expected %s, got %s", e.Key, want.Elem, e.Value), "")
		}
	}
}

// trivial handles the commonest expressions without expr: a number, a plain string, true,
// false, or the name of a local. Loads are faster and so are runs.
func (c *Compiler) trivial(x *runtime.Expr, sc *Scope) bool {
	t := strings.TrimSpace(x.Text)
	if t == "" {
		return false
	}
	switch {
	case t == "true" || t == "false":
		x.IsLit, x.Lit, x.Type = true, t == "true", runtime.BoolType
		return true
	case len(t) < 18 && strings.Trim(t, "0123456789") == "":
		n, _ := strconv.Atoi(t)
		x.IsLit, x.Lit, x.Type = true, n, runtime.IntType
		return true
	case len(t) >= 2 && t[0] == '"' && !strings.ContainsAny(t[1:len(t)-1], `"\`) && strings.HasSuffix(t[1:], `"`):
		x.IsLit, x.Lit, x.Type = true, t[1:len(t)-1], runtime.StringType
		return true
	case runtime.IsIdent(t) && !IsReservedWord(t):
		if typ, ok := sc.lookup(t); ok {
			x.Ident, x.Type = t, typ
			return true
		}
	}
	return false
}

// exprError turns an expression the compiler refused into a diagnostic at the right file
// position, with a suggestion for an unknown name or field.
func (c *Compiler) exprError(x *runtime.Expr, err *exprx.Error, sc *Scope) {
	if err.Unknown == exprx.UnknownName && c.refusedNames[err.Name] {
		return // its declaration's error says why
	}
	pos := x.Start
	if err.At >= 0 {
		pos = x.PosAt(err.At)
	}
	d := &syntax.Diagnostic{Pos: syntax.PosOf(pos), Summary: err.Summary, Detail: err.Detail}
	switch {
	case err.At >= 0 && err.End > err.At:
		end := x.PosAt(err.End - 1)
		end.Column++
		d.End = syntax.PosOf(end)
	case err.At >= 0 && err.Name != "":
		d.End = syntax.After(d.Pos, err.Name)
	}
	switch err.Unknown {
	case exprx.UnknownName:
		d.Detail = c.suggest(err.Name, func() []string { return append(sc.names(), c.prog.Names()...) })
	case exprx.UnknownField:
		d.Detail = c.suggest(err.Name, func() []string {
			var fields []string
			for _, k := range c.prog.Kinds {
				fields = append(fields, k.FieldNames()...)
			}
			return fields
		})
	}
	c.Diags = append(c.Diags, d)
}

// shorten cuts text longer than n runes, with an ellipsis.
func shorten(text string, n int) string {
	if r := []rune(text); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return text
}

// ReservedWords lists the words no name may take, sorted (editors complete and highlight
// them as keywords).
func ReservedWords() []string { return slices.Clone(reservedWords) }
