package exprx

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/checker/nature"
	exprcompiler "github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/optimizer"
	"github.com/expr-lang/expr/parser"
	exprpatcher "github.com/expr-lang/expr/patcher"
	"github.com/expr-lang/expr/types"
	"github.com/expr-lang/expr/vm"

	"rulesh/dsl/internal/lib/core"
	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/cards"
	"rulesh/stdlib/dice"
	"rulesh/stdlib/hex"
)

// Scope is what only the checker knows about the names where an expression is compiled:
// the compiler asks, the checker answers.
type Scope interface {
	// Local returns the type of a local variable (a parameter, a let, a session variable)
	// visible here.
	Local(name string) (*runtime.Type, bool)
	// Global returns the type of a top-level name an expression may read here (in a const
	// only options, earlier consts, dice and maps).
	Global(name string) (*runtime.Type, bool)
	// InProc reports whether procedures may be called here (in a procedure or an input).
	InProc() bool
	// DefaultsNow makes a kind's field defaults ready for a record built while consts are
	// computed; it returns why it cannot, or "".
	DefaultsNow(k *runtime.Kind) string
	// Suggest returns a "did you mean" detail for an unknown name among the candidates, or
	// "" (the checker bounds the comparisons of a load).
	Suggest(name string, candidates func() []string) string
}

// Compiler compiles the expressions of one program with expr-lang. It keeps what
// expressions share: the configuration of functions (built on first use), expr's view of
// the program's types, and the map from the nodes its rewrites add to the nodes as written.
// A Compiler is not safe for concurrent use; the code it produces is.
type Compiler struct {
	// mu serialises the bytecode compiles of this compiler's code: the expressions'
	// configurations share caches that expr's compiler writes (see code.program). The code
	// holds it alone, not the compiler and its maps, once the program is checked.
	mu   *sync.Mutex
	prog *runtime.Program
	base *conf.Config
	// typeNatures caches natureOf.
	typeNatures map[*runtime.Type]nature.Nature
	// origins maps the nodes added after the check (budgetPatch, globalReads) to the nodes
	// they stand for; orig reads through them.
	origins origins
	// enumValues maps the string constants written Enum.value to their enum's type (keyed
	// by the node's pointer: an interface key is hashed and compared through its type).
	enumValues map[*ast.StringNode]*runtime.Type
	// tallies caches tallyType for the nodes of the expression being compiled.
	tallies map[ast.Node]*runtime.Type
	// spareOps are operator overloads free for the next expression (overloadsFor).
	spareOps []*overloads
	// overloadsFound memoises the overloads' search for a function (overloads.find).
	overloadsFound map[overloadKey]overloadFound
	// toks is rewriteLiterals' buffer of tokens.
	toks []lexer.Token
	// envs are the environments built so far by their key, typeIDs the types' numbers in
	// the keys, envFound and envKey envNature's buffers.
	envs     map[string]nature.Nature
	typeIDs  map[*runtime.Type]uint64
	envFound []envName
	envKey   []byte
	checkKey []byte // Compile's buffer for the key of checked
	qtoks    []qtok // quickParse's buffer of tokens
	// quickNodes are quickParse's slabs of nodes.
	quickNodes quickNodes
	// codes and configs hold the compiled expressions' code and configurations (finish,
	// exprConfig): they live as long as the program.
	codes   syntax.Slab[code]
	configs syntax.Slab[conf.Config]
	// fastCodes hold the expressions' closures' roots, side by side: a rule's statements,
	// run one after the other, read theirs from the same few cache lines.
	fastCodes syntax.Slab[fastCode]
	// spareScratch are the scratch sets free for the next Compile.
	spareScratch []*compileScratch
	// NoClosures, set by a check that only reads the diagnostics, leaves the expressions
	// compiled meanwhile to the VM, their bytecode built when first run (if ever): neither
	// the closures nor expr's compiler give a diagnostic for an expression the closures take.
	NoClosures bool
	// checked holds the expressions of procedures checked so far that another one written
	// the same, reading the same names of the same types, can take as they are (reuse).
	checked map[string]*checkedExpr
}

// checkedExpr is an expression as checked, for the same text compiled again with the same
// names: its tree (patched, read only from then on), configuration and globals read.
type checkedExpr struct {
	tree   *parser.Tree
	cfg    *conf.Config
	reads  []string
	budget *laterBudget
}

// NewCompiler returns a compiler for the expressions of p, calling the builtins of
// p.Library.
func NewCompiler(p *runtime.Program) *Compiler {
	return &Compiler{prog: p, mu: new(sync.Mutex)}
}

// memoScope is a Scope that remembers its answers about locals while one expression is
// compiled (no local is declared meanwhile): the checker's scope walks the blocks out to
// the procedure for each question, a map each, and the environment, the patches and the
// static types ask about the same few names again and again (3.6% of checking the largest
// shipped ruleset).
type memoScope struct {
	Scope
	locals []memoLocal
	buf    [8]memoLocal
}

// memoLocal is an answer of Scope.Local.
type memoLocal struct {
	name string
	t    *runtime.Type
	ok   bool
}

// Local implements Scope.
func (m *memoScope) Local(name string) (*runtime.Type, bool) {
	for i := range m.locals {
		if m.locals[i].name == name {
			return m.locals[i].t, m.locals[i].ok
		}
	}
	t, ok := m.Scope.Local(name)
	if m.locals == nil {
		m.locals = m.buf[:0]
	}
	if len(m.locals) < cap(m.buf) {
		m.locals = append(m.locals, memoLocal{name, t, ok})
	}
	return t, ok
}

// Unknown says what an Error names that the program lacks.
type Unknown int

// What an Error may name.
const (
	NotUnknown   Unknown = iota
	UnknownName          // a variable, a global or a function
	UnknownField         // a field of a record
)

// Error is an expression expr-lang refused, in the language's words.
type Error struct {
	// At is the rune offset in the compiled text (runtime.Expr.PosAt places it), or -1
	// when expr-lang gave no position (the start of the expression).
	At int
	// End is the rune offset just past the refused part, or 0 when expr-lang gave none.
	End int
	// Summary is the terse message; Detail, when set, a sentence that helps fix it.
	Summary string
	Detail  string
	// Unknown and Name tell an unknown name or field, for which the checker suggests one.
	Unknown Unknown
	Name    string
}

// Error implements error.
func (e *Error) Error() string { return e.Summary }

// Compile compiles x.Text as written in scope sc: dice and card literals are parsed once,
// calls of procedures, builtins and kinds are rewritten to receive the Machine, operators
// on rolls and lists are overloaded, and every walk or build charges the run's budget.
//
// It fails with diagnostics (bad literals, a call's arity, a procedure called where none
// may run; already placed in the file) or with an *Error from expr-lang's checker; the
// diagnostics of an expression that compiles are warnings only. On
// success it sets x.Origin, x.Code, x.Type (records kept, which expr sees as maps) and, for
// an expression that is a literal or a local's name, x.IsLit and x.Lit or x.Ident; it
// returns the globals the expression reads, in the order first read.
func (c *Compiler) Compile(x *runtime.Expr, sc Scope) ([]string, syntax.Diagnostics, *Error) {
	// The scope's memo, the patcher and the globals' finder are needed only while x
	// compiles (nothing keeps a pointer to them once it returns: the configuration's
	// visitors are dropped, the trees hold none): one set per compile under way (a kind's
	// defaults may compile meanwhile) is reused, instead of three allocations an
	// expression (a tenth of the bytes of checking the largest shipped ruleset).
	var s *compileScratch
	if n := len(c.spareScratch); n > 0 {
		s = c.spareScratch[n-1]
		c.spareScratch = c.spareScratch[:n-1]
	} else {
		s = new(compileScratch)
	}
	reads, diags, err := c.compile(x, sc, s)
	s.memo, s.pv, s.reads, s.visitors = memoScope{}, patcher{}, globalReads{}, [2]ast.Visitor{}
	c.spareScratch = append(c.spareScratch, s)
	return reads, diags, err
}

// compileScratch is what one Compile needs only while it runs.
type compileScratch struct {
	memo  memoScope
	pv    patcher
	reads globalReads
	// visitors backs the configuration's visitors (the patcher, the overloads).
	visitors [2]ast.Visitor
}

// compile is Compile of x in scope outer, with the scratch set s.
func (c *Compiler) compile(x *runtime.Expr, outer Scope, s *compileScratch) ([]string, syntax.Diagnostics, *Error) {
	if c.tallies != nil {
		clear(c.tallies)
	}
	s.memo.Scope = outer
	sc := &s.memo
	rewritten, origin, lits, cardLits, diags := c.rewriteLiterals(x, sc)
	if diags.HasErrors() {
		return nil, diags, nil
	}
	x.Origin = origin
	// The literals' warnings (a count of successes compared) come first, in text order.
	s.pv = patcher{c: c, x: x, sc: sc, lits: lits, cards: cardLits, warns: diags}
	pv := &s.pv
	env := c.envNature(sc, rewritten)
	// An expression of a procedure written as another one before it, reading the same names
	// of the same types (envNature's key), checks the same: expr's check of a tree reads only
	// the types of its names, and the patches only the program's declarations, the same all
	// through the procedures. Literals, warnings and calls of procedures (whose node holds the
	// call's position) are left out.
	var key []byte
	if len(diags) == 0 && origin == nil && lits == nil && cardLits == nil && sc.InProc() {
		key = append(append(append(c.checkKey[:0], rewritten...), 0), c.envKey...)
		c.checkKey = key
		// A tree left without the budget's patch (NoClosures) serves only compiles that
		// leave it too.
		if e, ok := c.checked[string(key)]; ok && (e.budget != nil) == c.NoClosures {
			return c.finish(x, e.tree, e.cfg, sc, e.reads, nil, e.budget)
		}
	}
	s.reads = globalReads{sc: sc, orig: &c.origins}
	reads := &s.reads
	cfg := c.exprConfig(env, pv, rewritten, &s.visitors)
	qtoks := c.qtoks // taken while in use: a kind's defaults may compile meanwhile
	c.qtoks = nil
	// A check for the diagnostics leaves the budget's patch to the first compile of the
	// tree, if any: it gives no diagnostic (its nodes keep the natures of those they wrap,
	// and the compiler's reads of the tree see through them).
	var later *laterBudget
	if c.NoClosures {
		later = &laterBudget{orig: &c.origins}
	}
	tree, err := safeCheck(rewritten, cfg, reads, &qtoks, &c.quickNodes, later == nil)
	c.qtoks = qtoks
	if len(cfg.Visitors) > 1 {
		c.spareOps = append(c.spareOps, cfg.Visitors[1].(*overloads)) // the check is done with them
	}
	for _, id := range pv.procRefs {
		p := pv.c.prog.Globals[id.Value].(*runtime.Proc)
		pv.fail(id, fmt.Sprintf("%s %s is not called here", p.Verb, p.Name),
			fmt.Sprintf("call it with %s(…); a procedure is a value only where a builtin calls it back (%s)", p.Name, strings.Join(callbackBuiltins(pv.c.prog.Library), ", ")))
	}
	for _, n := range pv.named {
		name, nameNode, _, _ := namedOf(n)
		pv.fail(nameNode, fmt.Sprintf("%s = … is not an argument of a procedure", name),
			"named arguments are for calls of actions, rules and tables by name; to compare, write ==")
	}
	if len(pv.diags) > 0 {
		// The patcher's own findings (arity) explain the failure better than expr's.
		return nil, pv.diags, nil
	}
	if err == nil && len(pv.unknown) > 0 {
		id := pv.unknown[0]
		err = &file.Error{Location: id.Location(), Message: "unknown name " + id.Value}
	}
	if err != nil {
		return nil, nil, compileError(err)
	}
	// expr's checker and patches are done with the configuration: the bytecode compiler reads
	// only its environment, functions and options, and the visitors hold the checker's scope.
	cfg.Visitors = nil
	if key != nil && len(pv.warns) == 0 && !pv.sited {
		if c.checked == nil {
			c.checked = map[string]*checkedExpr{}
		}
		c.checked[string(key)] = &checkedExpr{tree: tree, cfg: cfg, reads: reads.found, budget: later}
	}
	return c.finish(x, tree, cfg, sc, reads.found, pv.warns, later)
}

// laterBudget is the budget's patch of a checked tree not made yet (Compiler.NoClosures),
// shared by the codes of the expressions that share the tree. It is made, under the
// compiler's mutex, before the tree's bytecode is compiled (code.program); closures are
// never built from such a tree.
type laterBudget struct {
	orig *origins
	done bool
	err  error // a panic of the patch, as safeCheck would have reported it
}

// patch makes the budget's patch of tree unless it is made, and returns the patch's
// failure, if any; the caller holds the mutex.
func (l *laterBudget) patch(tree *parser.Tree) (err error) {
	if l == nil {
		return nil
	}
	if l.done {
		return l.err
	}
	l.done = true
	defer func() {
		if r := recover(); r != nil {
			l.err = fmt.Errorf("%v", r)
			err = l.err
		}
	}()
	ast.Walk(&tree.Node, budgetPatch{orig: l.orig})
	return nil
}

// finish completes Compile of x from its checked tree: the closures or the bytecode, the
// static type, and the shortcuts of a literal or a local's name.
func (c *Compiler) finish(x *runtime.Expr, tree *parser.Tree, cfg *conf.Config, sc Scope, reads []string, warns syntax.Diagnostics, later *laterBudget) ([]string, syntax.Diagnostics, *Error) {
	cd := c.codes.New()
	cd.tree, cd.cfg, cd.mu, cd.budget = tree, cfg, c.mu, later
	if !noFast && !c.NoClosures {
		if fc, names, field, sites, ok := compileFast(tree.Node, cfg, tree.Source, c.prog.Library, &c.fastCodes); ok {
			x.Fast, x.Names, x.FieldOf = fc, names, field
			c.prog.AddFieldSites(x, sites)
		}
	}
	if x.Fast == nil && !c.NoClosures {
		// The VM runs this expression: it is compiled now, and a failure of expr's compiler
		// is an error at load. The closures' expressions get their bytecode only if something
		// runs them on the VM (program compares the two), which checking never does.
		if _, err := cd.program(); err != nil {
			return nil, nil, compileError(err)
		}
	}
	x.Code = cd
	x.Type = c.staticType(tree.Node, sc)
	x.CallOf = procCalled(tree.Node)
	switch n := c.orig(tree.Node).(type) {
	case *ast.IntegerNode:
		x.IsLit, x.Lit = true, n.Value
	case *ast.FloatNode:
		x.IsLit, x.Lit = true, n.Value
	case *ast.StringNode:
		x.IsLit, x.Lit = true, n.Value
	case *ast.BoolNode:
		x.IsLit, x.Lit = true, n.Value
	case *ast.IdentifierNode:
		if _, local := sc.Local(n.Value); local {
			x.Ident = n.Value
		}
	}
	return reads, warns, nil
}

// noFast, set by tests, leaves every expression to the VM.
var noFast bool

// orig returns the node as written, before the run-time rewrites.
func (c *Compiler) orig(n ast.Node) ast.Node {
	for {
		o, ok := c.origins.get(n)
		if !ok {
			return n
		}
		n = o
	}
}

// origins maps the nodes the rewrites put in a tree after its check to the nodes they stand
// for. kinds tells which node types are keys, so that a look-up of any other node (most of
// them: names, members, literals) is answered without hashing an interface.
type origins struct {
	m     map[ast.Node]ast.Node
	kinds uint8
}

// originKind is the bit of n's node type in origins.kinds.
func originKind(n ast.Node) uint8 {
	switch n.(type) {
	case *ast.CallNode:
		return 1
	case *ast.BinaryNode:
		return 2
	}
	return 4
}

// set records that n stands for was.
func (o *origins) set(n, was ast.Node) {
	if o.m == nil {
		o.m = map[ast.Node]ast.Node{}
	}
	o.m[n] = was
	o.kinds |= originKind(n)
}

// get returns the node n stands for, if n was added.
func (o *origins) get(n ast.Node) (ast.Node, bool) {
	if o.kinds&originKind(n) == 0 {
		return nil, false
	}
	was, ok := o.m[n]
	return was, ok
}

// codeOf returns the compiled code of an expression, if it runs on the VM.
func codeOf(x *runtime.Expr) (*code, bool) {
	if x == nil || x.Code == nil {
		return nil, false
	}
	cd, ok := x.Code.(*code)
	return cd, ok
}

// Shape is what a statement needs to know of an expression as written: whether it is a
// call (a statement of its own) or something assignable, a name or a member.
type Shape struct {
	// Call is set for a call of a procedure, a builtin or a function.
	Call bool
	// Name is set for a bare name.
	Name string
	// Member is set for obj.field, obj?.field and obj[key].
	Member bool
	// Optional is set for obj?.field.
	Optional bool
	// Field is the field of obj.field or obj["field"]; Keyed is set instead for a key
	// computed when the expression runs.
	Field string
	Keyed bool
	// ObjType is the static type of obj (records kept).
	ObjType *runtime.Type
	// Root is the name a chain of members starts from (a in a.b["c"]), or "".
	Root string
}

// ShapeOf tells the shape of an expression compiled by c in scope sc. An expression that
// skips the VM (a literal, a local's name) has the zero Shape.
func (c *Compiler) ShapeOf(x *runtime.Expr, sc Scope) Shape {
	cd, ok := codeOf(x)
	if !ok {
		return Shape{}
	}
	var sh Shape
	switch n := c.orig(cd.tree.Node).(type) {
	case *ast.CallNode:
		sh.Call = true
	case *ast.IdentifierNode:
		sh.Name = n.Value
	case *ast.MemberNode:
		sh.Member, sh.Optional = true, n.Optional
		if prop, ok := n.Property.(*ast.StringNode); ok {
			sh.Field = prop.Value
		} else {
			sh.Keyed = true
		}
		sh.ObjType = c.staticType(n.Node, sc)
		sh.Root = c.root(n.Node)
	}
	return sh
}

// root returns the name a chain of members starts from, or "".
func (c *Compiler) root(n ast.Node) string {
	for {
		switch x := c.orig(n).(type) {
		case *ast.MemberNode:
			n = x.Node
		case *ast.IdentifierNode:
			return x.Value
		default:
			return ""
		}
	}
}

// natureOf memoises expr's view of a type. A record kind becomes a strict map whose fields
// are the natures of its field types; kinds may refer to themselves or to each other
// (`cible: Combattant` inside Combattant), so a kind's nature is cached as an empty shell
// first and its fields filled in afterwards, from a work list: the fields map is shared, a
// field of the same kind points back at it, and a long chain of kinds needs no recursion.
func (c *Compiler) natureOf(t *runtime.Type) nature.Nature {
	if c.typeNatures == nil {
		c.typeNatures = map[*runtime.Type]nature.Nature{}
	}
	n, pending := c.natureShell(t, nil)
	for len(pending) > 0 {
		k := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		fields := c.typeNatures[k.Type()].Fields
		for _, f := range k.Fields {
			fields[f.Name], pending = c.natureShell(f.Type, pending)
		}
	}
	return n
}

// natureShell returns the cached nature of t, or creates it; a new record nature has no
// fields yet, and its kind is added to pending.
func (c *Compiler) natureShell(t *runtime.Type, pending []*runtime.Kind) (nature.Nature, []*runtime.Kind) {
	key := t
	if t.Kind == runtime.TRecord {
		key = t.Record.Type()
	}
	if n, ok := c.typeNatures[key]; ok {
		return n, pending
	}
	if t.Kind != runtime.TRecord {
		n := exprType(t).Nature()
		c.typeNatures[key] = n
		return n, pending
	}
	n := types.Map{}.Nature()
	n.Fields = make(map[string]nature.Nature, len(t.Record.Fields))
	c.typeNatures[key] = n
	return n, append(pending, t.Record)
}

// machineNature is expr's view of the Machine, built on first use: reflecting over its type
// at package init cost every command, `rulesh roll 1d6` included.
var machineNature = &runtime.Lazy[nature.Nature]{Build: func() nature.Nature { return types.TypeOf(&runtime.Machine{}).Nature() }}

// envNature builds the expr type environment for an expression compiled in scope sc: the
// locals and globals its text names (a local hides a global). Looking names up one by one,
// instead of copying every visible name into each expression's environment, keeps checking
// linear in the number of declarations and of locals.
//
// Expressions that name the same names, of the same types, share one environment (expr
// only reads it): the map of a new one was the largest allocation of compiling an
// expression. The key is each name found with the type it resolves to here, in the order
// first met, so two texts share an environment only when they would have built equal ones.
func (c *Compiler) envNature(sc Scope, text string) nature.Nature {
	found := c.envFound[:0] // the buffer is taken while the scope is asked
	c.envFound = nil
	var seen map[string]bool // past a few names, instead of searching found
	envWords(text, func(name string) {
		if name == "__rt" {
			return
		}
		if seen != nil {
			if seen[name] {
				return
			}
		} else {
			for _, e := range found {
				if e.name == name {
					return
				}
			}
		}
		t, local := sc.Local(name)
		ok := local
		if !ok {
			t, ok = sc.Global(name)
		}
		if !ok {
			return
		}
		found = append(found, envName{name, t, local})
		if seen == nil && len(found) > 16 {
			seen = make(map[string]bool, 2*len(found))
			for _, e := range found {
				seen[e.name] = true
			}
		} else if seen != nil {
			seen[name] = true
		}
	})
	c.envFound = found
	key := c.envKey[:0]
	for _, e := range found {
		key = append(key, e.name...)
		id := 2 * c.typeID(e.t)
		if e.local {
			id++
		}
		key = binary.AppendUvarint(append(key, 0), id)
	}
	c.envKey = key
	if env, ok := c.envs[string(key)]; ok {
		return env
	}
	fields := make(map[string]nature.Nature, len(found)+1)
	fields["__rt"] = machineNature.Get()
	for _, e := range found {
		fields[e.name] = c.natureOf(e.t)
	}
	env := types.Map{}.Nature()
	env.Fields = fields
	if c.envs == nil {
		c.envs = map[string]nature.Nature{}
	}
	c.envs[string(key)] = env
	return env
}

// envName is a name an expression's text reads, with its type where it is compiled.
type envName struct {
	name  string
	t     *runtime.Type
	local bool // a local's, not a global's (the globals an expression reads are listed)
}

// typeID numbers the types natureOf tells apart: a record's kind by its type, any other
// type by itself.
func (c *Compiler) typeID(t *runtime.Type) uint64 {
	if t.Kind == runtime.TRecord {
		t = t.Record.Type()
	}
	id, ok := c.typeIDs[t]
	if !ok {
		if c.typeIDs == nil {
			c.typeIDs = map[*runtime.Type]uint64{}
		}
		id = uint64(len(c.typeIDs))
		c.typeIDs[t] = id
	}
	return id
}

// ForEachIdent calls f with every identifier-like word of an expression's text (words inside
// strings too: a spare name in the environment is harmless).
func ForEachIdent(text string, f func(string)) {
	// ASCII, nearly all of a text, by a table: unicode's tests of each rune were most of
	// the scan. Between words the bytes are skipped; a word is then read to its end.
	for i := 0; i < len(text); {
		if b := text[i]; b < utf8.RuneSelf {
			if asciiWord[b] != wordStart {
				i++
				continue
			}
		} else {
			r, size := utf8.DecodeRuneInString(text[i:])
			if !unicode.IsLetter(r) {
				i += size
				continue
			}
		}
		start := i
		i = wordEnd(text, i)
		f(text[start:i])
	}
}

// wordEnd returns the end of the word that starts at text[i]: letters, digits and _.
func wordEnd(text string, i int) int {
	if text[i] < utf8.RuneSelf {
		i++ // the first, a letter or _
	}
	for i < len(text) {
		if b := text[i]; b < utf8.RuneSelf {
			if asciiWord[b] == wordNone {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return i
		}
		i += size
	}
	return i
}

// envWords calls f with the words of an expression's text that may be names it reads:
// ForEachIdent's, less the words of its string literals and comments and the word right
// after a member's dot (x.field, x?.field: a field, never a name of the environment; `..`
// is a range, whose bound may be one). Each word asked of the scope costs its look-ups.
func envWords(text string, f func(string)) {
	for i := 0; i < len(text); {
		if b := text[i]; b < utf8.RuneSelf {
			switch {
			case b == '"' || b == '\'':
				i = quotedEnd(text, i)
				continue
			case b == '`':
				if k := strings.IndexByte(text[i+1:], '`'); k >= 0 {
					i += k + 2
				} else {
					i = len(text)
				}
				continue
			case b == '/' && i+1 < len(text) && (text[i+1] == '/' || text[i+1] == '*'):
				i = commentEnd(text, i)
				continue
			case b == '.' && i+1 < len(text) && text[i+1] < utf8.RuneSelf && asciiWord[text[i+1]] == wordStart && (i == 0 || text[i-1] != '.'):
				i = wordEnd(text, i+1)
				continue
			case asciiWord[b] != wordStart:
				i++
				continue
			}
		} else {
			r, size := utf8.DecodeRuneInString(text[i:])
			if !unicode.IsLetter(r) {
				i += size
				continue
			}
		}
		start := i
		i = wordEnd(text, i)
		f(text[start:i])
	}
}

// commentEnd returns the end of the comment that opens at text[i] with // or /*, as expr's
// lexer skips it: past the line's end or the closing */, or the text's end. (A multi-line
// expression holds the rule file's comments: a quote in one opens no string.)
func commentEnd(text string, i int) int {
	if text[i+1] == '/' {
		if k := strings.IndexByte(text[i+2:], '\n'); k >= 0 {
			return i + 2 + k + 1
		}
		return len(text)
	}
	if k := strings.Index(text[i+2:], "*/"); k >= 0 {
		return i + 2 + k + 2
	}
	return len(text)
}

// quotedEnd returns the end of the string literal that opens at text[i] with " or ':
// past its closing quote (a backslash escapes the byte after it, as in expr's lexer), or
// the text's end.
func quotedEnd(text string, i int) int {
	q := text[i]
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(text)
}

// What an ASCII byte is to ForEachIdent: a letter or _ may start a word, a digit only
// continue one (unicode.IsLetter and unicode.IsDigit of ASCII).
const (
	wordNone = iota
	wordStart
	wordDigit
)

// asciiWord is ForEachIdent's table of the ASCII bytes.
var asciiWord = [utf8.RuneSelf]uint8{
	'_': wordStart,
	'A': wordStart, 'B': wordStart, 'C': wordStart, 'D': wordStart, 'E': wordStart, 'F': wordStart, 'G': wordStart,
	'H': wordStart, 'I': wordStart, 'J': wordStart, 'K': wordStart, 'L': wordStart, 'M': wordStart, 'N': wordStart,
	'O': wordStart, 'P': wordStart, 'Q': wordStart, 'R': wordStart, 'S': wordStart, 'T': wordStart, 'U': wordStart,
	'V': wordStart, 'W': wordStart, 'X': wordStart, 'Y': wordStart, 'Z': wordStart,
	'a': wordStart, 'b': wordStart, 'c': wordStart, 'd': wordStart, 'e': wordStart, 'f': wordStart, 'g': wordStart,
	'h': wordStart, 'i': wordStart, 'j': wordStart, 'k': wordStart, 'l': wordStart, 'm': wordStart, 'n': wordStart,
	'o': wordStart, 'p': wordStart, 'q': wordStart, 'r': wordStart, 's': wordStart, 't': wordStart, 'u': wordStart,
	'v': wordStart, 'w': wordStart, 'x': wordStart, 'y': wordStart, 'z': wordStart,
	'0': wordDigit, '1': wordDigit, '2': wordDigit, '3': wordDigit, '4': wordDigit,
	'5': wordDigit, '6': wordDigit, '7': wordDigit, '8': wordDigit, '9': wordDigit,
}

// exprConfig returns a fresh expr configuration for one expression. The builtins and
// functions are set up once per compiler and shared: expr only reads them while compiling.
func (c *Compiler) exprConfig(env nature.Nature, pv *patcher, text string, vis *[2]ast.Visitor) *conf.Config {
	if c.base == nil {
		c.base = conf.CreateNew()
		for _, opt := range stdFuncOptions(c.prog.Library) {
			opt(c.base)
		}
		c.base.MaxNodes = syntax.MaxExprNodes // the nodes of one expression's syntax tree
		c.base.Visitors = nil
		for _, name := range disabledBuiltins {
			c.base.Disabled[name] = true
			delete(c.base.Builtins, name)
		}
		// expr's cache of natures (a type's methods and fields, read by reflection) is a
		// value of the configuration whose maps are made on first use: made now, they are
		// shared by every expression's copy, instead of each expression reflecting over the
		// same types again (rtype.Method builds each method's type: a third of checking a
		// ruleset). The cache is keyed by Go type alone; the bytecode compiles that use it
		// after the check are serialised by mu.
		hexNature := c.base.NtCache.FromType(reflect.TypeFor[hex.Hex]()) // makes the fields' map
		hexNature.NumMethods(&c.base.NtCache)                            // and the methods'
	}
	cfg := c.configs.New()
	*cfg = *c.base
	cfg.Env = env
	cfg.Strict = true
	// The visitors are the scratch's: Compile drops them once the check is done.
	vis[0] = pv
	cfg.Visitors = vis[:1]
	pv.env = &cfg.Env
	if !strings.ContainsAny(text, overloadedChars) {
		// No operator the overloads take: expr would check the whole tree once more
		// before a walk that changes nothing (a fifth of checking a ruleset).
		return cfg
	}
	cfg.Visitors = append(cfg.Visitors, c.overloadsFor(cfg))
	return cfg
}

// overloadsFor returns the operator overloads for an expression checked with cfg: spare
// ones pointed at its environment, or new ones. Compile gives them back once the
// expression is checked (a compile may start another, for a kind's defaults, hence a list).
func (c *Compiler) overloadsFor(cfg *conf.Config) *overloads {
	if n := len(c.spareOps); n > 0 {
		o := c.spareOps[n-1]
		c.spareOps = c.spareOps[:n-1]
		for _, p := range o.ops {
			p.Env, p.Functions, p.NtCache = &cfg.Env, cfg.Functions, &cfg.NtCache
		}
		return o
	}
	if c.overloadsFound == nil {
		c.overloadsFound = map[overloadKey]overloadFound{}
	}
	o := &overloads{ops: make([]*exprpatcher.OperatorOverloading, len(overloadedOps.Get())), found: c.overloadsFound}
	for i, op := range overloadedOps.Get() {
		o.ops[i] = &exprpatcher.OperatorOverloading{
			Operator: op.op, Overloads: op.fns, Env: &cfg.Env, Functions: cfg.Functions, NtCache: &cfg.NtCache,
		}
	}
	return o
}

// overloadedChars are the characters every operator of overloadedOps is written with: a text
// without any has no operator to overload (a patch adds none: only ?? is built).
const overloadedChars = "+-*/%^<>=!"

// overloads applies every operator overload in one walk. expr type-checks the whole
// expression before each visitor of a pass, so one visitor per operator cost a check per
// operator per pass: most of the compile time of a short expression.
type overloads struct {
	ops []*exprpatcher.OperatorOverloading
	// folded is set when a walk since Reset folded arithmetic on literals (foldFloat):
	// with the overloads' own ShouldRepeat, whether the walk changed the tree.
	folded bool
	// made are the calls the overloads put in place of operators, for checkOverloadArgs.
	made []*ast.CallNode
	// applied is set when a walk since Reset put a call in place of an operator.
	applied bool
	// found is the compiler's memo of find.
	found map[overloadKey]overloadFound
	// checkErr is the error of the check before the walk, if any (joinsUnknown).
	checkErr error
}

// joinsUnknown reports whether b is a list + a value whose type the checker does not know:
// of type any, or of no type at all when the check before the walk failed at b (the
// operands are checked before their operator, so a value that failed its own check, count(l,
// 0), has its error reported instead). nil (the literal) is known: it is no list, and expr
// refuses it at check.
func (o *overloads) joinsUnknown(b *ast.BinaryNode) bool {
	if b.Operator != "+" {
		return false
	}
	isList := func(n ast.Node) bool { t := n.Type(); return t != nil && t.Kind() == reflect.Slice }
	unknown := func(n ast.Node) bool {
		nt := n.Nature()
		if nt.Type != nil {
			return nt.Type.Kind() == reflect.Interface
		}
		var fe *file.Error
		return !nt.Nil && errors.As(o.checkErr, &fe) && fe.Location == b.Location()
	}
	return isList(b.Left) && unknown(b.Right) || unknown(b.Left) && isList(b.Right)
}

// overloadKey is a search for an overload of an operator: its operands' types.
type overloadKey struct {
	op   string
	l, r reflect.Type
}

// overloadFound is what FindSuitableOperatorOverload found: the call's type and function.
type overloadFound struct {
	ret reflect.Type
	fn  string
	ok  bool
}

// Visit implements ast.Visitor: expr's OperatorOverloading.Visit (v1.17.8) for the one
// overload of the node's operator (a node has one operator, so at most one applies),
// whose search is memoised (find). Float arithmetic on literals is folded first, as expr's
// optimizer would have done had the overload not made it a call (1.5 * 2 stays the literal
// 3.0). Calling each operator's Visit on every node, and its search through the
// overloads' reflected signatures for every operator, was a twentieth of checking the
// largest shipped ruleset.
func (o *overloads) Visit(node *ast.Node) {
	if foldFloat(node) {
		o.folded = true
		return
	}
	b, ok := (*node).(*ast.BinaryNode)
	if !ok {
		return
	}
	if o.joinsUnknown(b) {
		// A list + a value of no static type (a rule's `list` result, m["k"]): expr has no
		// `+` for lists, and the overload's signatures are lists on both sides, which an
		// int would fit if one side were `any`. Joined as lists are; the + this becomes
		// (the budget's __op) refuses a value that is not a list when it runs.
		call := &ast.CallNode{Callee: &ast.IdentifierNode{Value: "__concat"}, Arguments: []ast.Node{b.Left, b.Right}}
		call.SetType(listGoTypes()[0])
		ast.Patch(node, call)
		o.applied = true
		o.made = append(o.made, call)
		return
	}
	var p *exprpatcher.OperatorOverloading
	for _, q := range o.ops {
		if q.Operator == b.Operator {
			p = q
			break
		}
	}
	if p == nil {
		return
	}
	if f := o.find(p, b.Left.Type(), b.Right.Type()); f.ok {
		call := &ast.CallNode{Callee: &ast.IdentifierNode{Value: f.fn}, Arguments: []ast.Node{b.Left, b.Right}}
		call.SetType(f.ret)
		ast.Patch(node, call)
		o.applied = true
		o.made = append(o.made, call)
	}
}

// find is p.FindSuitableOperatorOverload(l, r), memoised. Its answer depends on the
// operand types, the functions (the compiler's, the same for every expression) and the
// environment only through the overloads' names, which no environment holds (names
// starting with __ are the compiler's): with one of them in the environment it is asked
// every time.
func (o *overloads) find(p *exprpatcher.OperatorOverloading, l, r reflect.Type) overloadFound {
	for _, fn := range p.Overloads {
		if _, inEnv := p.Env.Get(p.NtCache, fn); inEnv {
			ret, fn, ok := p.FindSuitableOperatorOverload(l, r)
			return overloadFound{ret, fn, ok}
		}
	}
	key := overloadKey{p.Operator, l, r}
	f, known := o.found[key]
	if !known {
		f.ret, f.fn, f.ok = p.FindSuitableOperatorOverload(l, r)
		o.found[key] = f
	}
	return f
}

// foldFloat replaces arithmetic on two number literals that the float overloads (numOps)
// would take by its value, when that value is finite; anything else (10 / 0, 1e308 * 10) is
// left to fail when it runs, at its operator.
func foldFloat(node *ast.Node) bool {
	b, ok := (*node).(*ast.BinaryNode)
	if !ok || !isFloatArith(b.Operator) {
		return false
	}
	x, xInt, okx := numberLit(b.Left)
	y, yInt, oky := numberLit(b.Right)
	if !okx || !oky || xInt && yInt && (b.Operator == "+" || b.Operator == "-" || b.Operator == "*") {
		return false // two ints: expr's own arithmetic and folding
	}
	v, err := runtime.RollArith(b.Operator, x, y)
	f, isFloat := v.(float64)
	if err != nil || !isFloat {
		return false
	}
	lit := &ast.FloatNode{Value: f}
	lit.SetLocation(b.Location())
	lit.SetNature(*b.Nature()) // a float, for the overloads of the operator above it

	ast.Patch(node, lit)
	return true
}

// numberLit reads a number literal, signed or not: its value, and whether it is an int.
func numberLit(n ast.Node) (any, bool, bool) {
	sign := 1
	if u, ok := n.(*ast.UnaryNode); ok && (u.Operator == "-" || u.Operator == "+") {
		if u.Operator == "-" {
			sign = -1
		}
		n = u.Node
	}
	switch x := n.(type) {
	case *ast.IntegerNode:
		return sign * x.Value, true, true
	case *ast.FloatNode:
		return float64(sign) * x.Value, false, true
	}
	return nil, false, false
}

// Reset starts a pass (expr's repeatable visitors).
func (o *overloads) Reset() {
	o.folded, o.applied = false, false
	o.checkErr = nil
}

// ShouldRepeat asks for another pass while any overload changed the tree.
func (o *overloads) ShouldRepeat() bool { return o.applied }

// safeCheck is the front half of expr.Compile with a configuration built by exprConfig:
// parse, patch (the visitors), type check, optimize, then the budget's patch; the bytecode is
// compileBytecode's. A panic inside expr on odd input becomes an error. toks is quickParse's
// buffer.
func safeCheck(src string, cfg *conf.Config, globals *globalReads, toks *[]qtok, nodes *quickNodes, budget bool) (tree *parser.Tree, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	if len(cfg.Visitors) > 1 {
		cfg.Visitors[1].(*overloads).made = nil
	}
	if exprPipeline {
		tree, err = checker.ParseCheck(src, cfg)
	} else {
		if onParse != nil {
			onParse(src, cfg)
		}
		var quick bool
		tree, *toks, quick = quickParse(src, cfg, *toks, nodes)
		if !quick {
			tree, err = parser.ParseWithConfig(src, cfg)
		}
		if err == nil {
			err = patchAndCheck(tree, cfg)
		}
	}
	if err == nil {
		var made []*ast.CallNode
		for _, v := range cfg.Visitors {
			switch v := v.(type) {
			case *patcher:
				made = append(made, v.made...)
			case *overloads:
				made = append(made, v.made...)
			}
		}
		err = checkOverloadArgs(tree, cfg, made)
	}
	if err != nil {
		return nil, err
	}
	if cfg.Optimize && (exprPipeline || len(cfg.ConstFns) > 0 || scanTree(tree).optimizable) {
		if err := optimizer.Optimize(&tree.Node, cfg); err != nil {
			var fe *file.Error
			if errors.As(err, &fe) {
				return nil, fe.Bind(tree.Source)
			}
			return nil, err
		}
	}
	globals.collect(tree.Node)
	if budget {
		ast.Walk(&tree.Node, budgetPatch{orig: globals.orig})
	}
	if onChecked != nil {
		onChecked(src, tree)
	}
	return tree, nil
}

// checkOverloadArgs checks the arguments of the calls the overloads made of operators.
// expr's checker takes such a call's type as the patch set it and does not look inside
// it again, so an error the checks before the patch found in an operand (1d6 + int(1, 2):
// an argument too many) would go unsaid, and the call would run or fail to compile. Each
// operand is checked on its own, as it was before the patch, unless it reads what only its
// place in the tree defines (#, a predicate's closure, a variable of let), whose check
// needs the whole tree; an operand that is itself such a call has its own turn.
func checkOverloadArgs(tree *parser.Tree, cfg *conf.Config, made []*ast.CallNode) error {
	if len(made) == 0 {
		return nil
	}
	isMade := make(map[ast.Node]bool, len(made))
	for _, call := range made {
		isMade[call] = true
	}
	lets := scoped{lets: map[string]bool{}}
	ast.Walk(&tree.Node, &lets)
	var v checker.Checker
	var inTree []ast.Node // operands checked with the whole tree
	for _, call := range made {
		for _, arg := range call.Arguments {
			if isMade[arg] {
				continue
			}
			if !lets.standalone(arg) {
				inTree = append(inTree, arg)
				continue
			}
			if _, err := v.Check(&parser.Tree{Node: arg, Source: tree.Source}, cfg); err != nil {
				return err
			}
		}
	}
	if len(inTree) > 0 {
		return checkInTree(tree, cfg, made, inTree)
	}
	return nil
}

// checkInTree checks operands that read what their place in the tree defines (#, a let's
// variable: map(xs, 1d6 + int(#, 2))) where they stand: the whole tree is checked again
// with the made calls' types cleared, so that the checker looks inside them as it does in
// any call, and the calls' types are put back after. Only an error found inside one of
// these operands is reported; the rest of the tree was checked already.
func checkInTree(tree *parser.Tree, cfg *conf.Config, made []*ast.CallNode, operands []ast.Node) error {
	at := map[file.Location]bool{}
	for _, op := range operands {
		ast.Find(op, func(n ast.Node) bool {
			at[n.Location()] = true
			return false
		})
	}
	for _, call := range made {
		delete(at, call.Location()) // the call itself: its signature is the overload's
	}
	saved := make([]nature.Nature, len(made))
	for i, call := range made {
		saved[i] = *call.Nature()
		call.SetType(anyGoType)
	}
	var v checker.Checker
	_, err := v.Check(tree, cfg)
	for i, call := range made {
		call.SetNature(saved[i])
	}
	var fe *file.Error
	if errors.As(err, &fe) && at[fe.Location] {
		return err
	}
	return nil
}

// anyGoType is the Go type of any: a call of this type is checked again by expr's checker.
var anyGoType = reflect.TypeFor[any]()

// scoped finds the nodes whose check depends on the tree around them: # (in a predicate),
// a predicate, a let, and the names the tree's lets bind.
type scoped struct {
	lets  map[string]bool
	found bool
}

// Visit implements ast.Visitor.
func (s *scoped) Visit(n *ast.Node) {
	switch x := (*n).(type) {
	case *ast.PointerNode, *ast.PredicateNode:
		s.found = true
	case *ast.VariableDeclaratorNode:
		s.found = true
		if s.lets != nil {
			s.lets[x.Name] = true
		}
	case *ast.IdentifierNode:
		if s.lets[x.Value] {
			s.found = true
		}
	}
}

// standalone reports whether n checks the same out of its tree (none of scoped's nodes).
func (s *scoped) standalone(n ast.Node) bool {
	in := scoped{lets: s.lets}
	if len(in.lets) == 0 {
		in.lets = nil
	}
	ast.Walk(&n, &in)
	return !in.found
}

// exprPipeline, set by tests, checks and optimizes every expression as expr's own
// checker.ParseCheck and optimizer.Optimize do, every pass run; onChecked, set by tests, is
// shown every tree checked. The differential test compares the two pipelines.
var (
	exprPipeline bool
	onChecked    func(src string, tree *parser.Tree)
	// onParse, set by tests, is shown every text parsed with its configuration.
	onParse func(src string, cfg *conf.Config)
)

// patchAndCheck is expr's checker.PatchAndCheck (v1.17.8) for the visitors exprConfig
// sets, the patcher first and then the operator overloads, without the type checks that
// repeat the check just before on the same tree. expr checks the whole tree before each
// visitor of each pass and once more at the end: with the overloads, three checks in a row
// separate the patcher's walk from the overloads' first walk, two each of their later
// walks, and one the last walk from the end; without them, two the patcher's walk from the
// end. A check only sets types and makes the int literals of calls' and builtins'
// arguments floats where the parameter is a float, and the one type it reads back is a
// call's: a call an earlier check (or a patch) typed other than any keeps its type, and its
// callee and arguments are not checked again. So after one check the tree and its types no
// longer change, and the next check walks the same nodes or fewer (the calls it typed
// become leaves), each giving what it gave: its errors are some of the check's before.
// (The floats are made after the arguments are checked: a call checked again, typed any
// or not typed, that takes a float would see other types in its arguments the next time.
// No function an expression can call does, nor an expr builtin checked by its signatures:
// TestNoCallRewritesAfterItsCheck.) Hence, of checks in a row, one without error is
// followed by checks without error, and from the second on each gives the same error (an
// error inside a call typed by the first is said by the first only): two checks are made,
// the second only after an error.
func patchAndCheck(tree *parser.Tree, cfg *conf.Config) error {
	var v checker.Checker
	// The first pass: the patcher walks a checked tree (the overloads wait for the second).
	// Its error is not read, and a name the check does not know gets no type whether the
	// check is strict or not (strictness only makes it an error): most such names are
	// procedures called, which the patcher resolves next, and an error costs its message
	// and its place in the source, bound at the end of the check.
	func() {
		cfg.Strict = false
		defer func() { cfg.Strict = true }() // a panic of expr's too (safeCheck)
		_, _ = v.Check(tree, cfg)
	}()
	ast.Walk(&tree.Node, cfg.Visitors[0])
	// inRow is expr's checks in a row: the error of the last.
	inRow := func() error {
		if _, err := v.Check(tree, cfg); err == nil {
			return nil
		}
		_, err := v.Check(tree, cfg)
		return err
	}
	if len(cfg.Visitors) < 2 {
		return inRow()
	}
	ops := cfg.Visitors[1].(*overloads)
	for {
		err := inRow()
		ops.Reset()
		ops.checkErr = err
		ast.Walk(&tree.Node, ops)
		if ops.ShouldRepeat() {
			continue
		}
		if !ops.folded {
			// expr's last check is of the tree the checks just before had.
			return err
		}
		_, err = v.Check(tree, cfg)
		return err
	}
}

// nodeKinds tells what kinds of nodes a tree holds.
type nodeKinds struct {
	// optimizable is set by a node expr's optimizer (v1.17.8) may rewrite (foldable): its
	// passes rewrite only builtins (filter(…)[0] is a builtin under a member, count(…) > n
	// a builtin under an operator), `in` (inArray, inRange), operators on literals and
	// array literals (fold), and calls only of constant functions, which the rules have
	// none of. Without such a node its dozen walks are skipped.
	optimizable bool
}

// scanTree walks a tree once to tell its nodeKinds.
func scanTree(tree *parser.Tree) nodeKinds {
	k := new(nodeKinds)
	ast.Walk(&tree.Node, k)
	return *k
}

// Visit implements ast.Visitor.
func (k *nodeKinds) Visit(n *ast.Node) {
	switch (*n).(type) {
	case *ast.BuiltinNode:
		k.optimizable = true
	case *ast.UnaryNode, *ast.BinaryNode, *ast.ArrayNode:
		k.optimizable = k.optimizable || foldable(*n)
	}
}

// foldable reports whether expr's optimizer may rewrite the unary, binary or array node n
// where it stands, whatever its builtins (a superset of what its fold, inArray and inRange
// passes match): a unary operator on a literal, `in`, an operator on two literals or a
// logical one on a bool literal, an array of literals. Anything else its passes leave as
// it is, and nothing they rewrite elsewhere can make it so.
func foldable(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.UnaryNode:
		return isLiteral(n.Node)
	case *ast.BinaryNode:
		switch n.Operator {
		case "in":
			return true
		case "and", "&&", "or", "||":
			_, l := n.Left.(*ast.BoolNode)
			_, r := n.Right.(*ast.BoolNode)
			if l || r {
				return true
			}
		}
		return isLiteral(n.Left) && isLiteral(n.Right)
	case *ast.ArrayNode:
		for _, e := range n.Nodes {
			if !isLiteral(e) {
				return false
			}
		}
		return len(n.Nodes) > 0
	}
	return false
}

// isLiteral reports whether n is a literal expr's fold reads: an int, float, string or
// bool.
func isLiteral(n ast.Node) bool {
	switch n.(type) {
	case *ast.IntegerNode, *ast.FloatNode, *ast.StringNode, *ast.BoolNode:
		return true
	}
	return false
}

// compileBytecode compiles a checked tree (safeCheck) to expr's bytecode.
func compileBytecode(tree *parser.Tree, cfg *conf.Config) (*vm.Program, error) {
	prog, err := exprcompiler.Compile(tree, cfg)
	return prog, plainCompileError(err)
}

// plainCompileError is an error of expr's compiler without the Go stack: it recovers its
// own panics and puts the stack in the message (a plain error, or a file.Error's message);
// a user is shown what failed, not the stack.
func plainCompileError(err error) error {
	var fe *file.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &fe):
		fe.Message = withoutStack(fe.Message)
		return err
	case strings.Contains(err.Error(), "\ngoroutine "):
		return errors.New(withoutStack(err.Error()))
	}
	return err
}

// withoutStack turns a message of expr's compiler that carries a recovered panic's Go stack
// into a plain one.
func withoutStack(msg string) string {
	head, _, cut := strings.Cut(msg, "\ngoroutine ")
	if !cut {
		return msg
	}
	return "internal error compiling this expression: " + strings.TrimSpace(head) + " (please report it with the rule that caused it)"
}

// structType is a struct type for expr's checker whose nature knows its fields: the natures
// types.TypeOf builds for structs have none, and reading a field of such a value (h.r of a
// hex parameter) crashed expr-lang's compiler (v1.17.8). Pointer types are not affected.
type structType struct{ t reflect.Type }

// Nature builds the nature through a cache, which records the struct's fields.
func (s structType) Nature() nature.Nature { return new(nature.Cache).FromType(s.t) }

// Equal is the same type, or any.
func (s structType) Equal(t types.Type) bool { return t == types.Any || t.String() == s.String() }

// String is the Go type's name, as expr writes types in its messages.
func (s structType) String() string { return s.t.String() }

// exprType is the expr-lang type used to check expressions against a type. Records are
// built by natureOf, which handles kinds that refer to themselves.
func exprType(t *runtime.Type) types.Type {
	switch t.Kind {
	case runtime.TInt:
		return types.Int
	case runtime.TFloat:
		return types.Float64
	case runtime.TBool:
		return types.Bool
	case runtime.TString, runtime.TEnum:
		return types.String
	case runtime.TList:
		return types.TypeOf([]any{})
	case runtime.TMap:
		return types.TypeOf(map[string]any{})
	case runtime.TRoll:
		return types.TypeOf(&runtime.Roll{})
	case runtime.TDie:
		return types.TypeOf(&dice.Die{})
	case runtime.TDice:
		return types.TypeOf(&dice.Code{})
	case runtime.TCard:
		return types.TypeOf(&cards.Card{})
	case runtime.TPile:
		return types.TypeOf(&cards.Pile{})
	case runtime.THex:
		return structType{reflect.TypeOf(hex.Hex{})}
	case runtime.TBoard:
		return types.TypeOf(&hex.Map{})
	}
	return types.Any
}

// staticType works out what the checker knows about an expression's type, keeping record
// kinds that expr itself sees only as maps.
func (c *Compiler) staticType(n ast.Node, sc Scope) *runtime.Type {
	n = c.orig(n)
	if t, ok := c.enumValue(n); ok {
		return t
	}
	switch n := n.(type) {
	case *ast.IdentifierNode:
		if t, ok := sc.Local(n.Value); ok {
			return t
		}
		switch g := c.prog.Globals[n.Value].(type) {
		case *runtime.Entity:
			if g.Kind != nil {
				return g.Kind.Type()
			}
		case *runtime.Enum:
			return g.ListType()
		}
	case *ast.MemberNode:
		t := c.staticType(n.Node, sc)
		if t.TypedMap() {
			return t.Elem
		}
		if prop, ok := n.Property.(*ast.StringNode); ok && t.Kind == runtime.TRecord {
			if f := t.Record.ByName[prop.Value]; f != nil {
				return f.Type
			}
		}
	case *ast.BinaryNode:
		if t := c.tallyType(n, sc); t != nil {
			return t
		}
	case *ast.CallNode:
		if t := c.tallyType(n, sc); t != nil {
			return t
		}
		if id, ok := n.Callee.(*ast.IdentifierNode); ok && id.Value == "__new" && len(n.Arguments) > 1 {
			if name, ok := n.Arguments[1].(*ast.StringNode); ok {
				if k, ok := c.prog.Globals[name.Value].(*runtime.Kind); ok {
					return &runtime.Type{Kind: runtime.TRecord, Record: k}
				}
			}
		}
		if id, ok := n.Callee.(*ast.IdentifierNode); ok && id.Value == "__call" && len(n.Arguments) > 1 {
			if k, ok := n.Arguments[1].(*ast.ConstantNode); ok {
				if p, ok := k.Value.(*runtime.Proc); ok && p.Result != nil {
					return p.Result
				}
			}
		}
	}
	return runtime.TypeFromReflect(n.Type())
}

// enumValue returns the enum type of a string constant written Enum.value.
func (c *Compiler) enumValue(n ast.Node) (*runtime.Type, bool) {
	s, ok := n.(*ast.StringNode)
	if !ok {
		return nil, false
	}
	t, ok := c.enumValues[s]
	return t, ok
}

// patcher rewrites calls of procedures and of state-aware builtins so they receive the
// running Machine, and checks their arity.
type patcher struct {
	c     *Compiler
	x     *runtime.Expr
	sc    Scope
	diags syntax.Diagnostics
	lits  map[string]*dice.Expr
	cards map[string]*cards.Card
	// unknown holds the names the first type check could not resolve. expr does not check
	// the arguments of a call a visitor made (an operator on a roll becomes one), so an
	// unknown name there would otherwise reach run time as nil.
	unknown []*ast.IdentifierNode
	// procRefs holds the names of procedures written as values: a builtin that calls a
	// procedure back takes them (procArgs); anywhere else they are refused.
	procRefs []*ast.IdentifierNode
	// named holds the named arguments (__named calls) no procedure call has taken yet.
	named []*ast.CallNode
	// warns are the warnings of an expression that compiles (a procedure named by a string).
	warns syntax.Diagnostics
	env   *nature.Nature
	// letFields holds the fields read of names that are no local: an expr `let`'s, whose
	// declarator is visited after its uses (tallyLetFields).
	letFields []*ast.MemberNode
	// sited is set once a call of a procedure holds its position in the file.
	sited bool
	// made are the calls put in place of operators (a card's `in`), for checkOverloadArgs.
	made []*ast.CallNode
}

func (pv *patcher) Visit(node *ast.Node) {
	if patchDiceLiteral(node, pv.lits) || patchCardLiteral(node, pv.cards) {
		return
	}
	switch n := (*node).(type) {
	case *ast.BuiltinNode:
		pv.positionalOnly(n.Arguments, n.Name)
		pv.rollArgsAsTotals(n)
		pv.recordSort(n)
		return
	case *ast.MemberNode:
		pv.tallyField(n)
		if id, ok := n.Node.(*ast.IdentifierNode); ok {
			if _, local := pv.sc.Local(id.Value); !local {
				pv.letFields = append(pv.letFields, n)
			}
		}
		pv.recordIndex(n)
		pv.enumValue(node, n)
		if *node == n {
			pv.mapDefault(node, n)
		}
		return
	case *ast.IdentifierNode:
		if _, known := pv.env.Fields[n.Value]; !known && n.Nature().Type == nil {
			if _, proc := pv.c.prog.Globals[n.Value].(*runtime.Proc); proc {
				pv.procRefs = append(pv.procRefs, n)
			} else {
				pv.unknown = append(pv.unknown, n)
			}
		}
		return
	case *ast.BinaryNode:
		pv.codeLiterals(n)
		pv.faceNames(n)
		pv.enumCompare(n)
		if !pv.tallyBinary(n) {
			pv.recordBinary(n)
		}
		pv.totalOnly(n)
		// expr dereferences a pointer needle (a card) before `in` and then finds no element
		// of the list's pointer type: membership of such values is ours.
		t := n.Left.Nature().Type
		if k, ok := n.Left.(*ast.ConstantNode); ok { // a card literal, patched just now
			t = reflect.TypeOf(k.Value)
		}
		if n.Operator == "in" && t != nil && t.Kind() == reflect.Pointer {
			c := &ast.CallNode{Callee: &ast.IdentifierNode{Value: "__in"}, Arguments: []ast.Node{&ast.IdentifierNode{Value: "__rt"}, n.Left, n.Right}}
			c.SetType(reflect.TypeFor[bool]())
			c.SetLocation(n.Location())
			ast.Patch(node, c)
			pv.made = append(pv.made, c)
		}
		return
	case *ast.VariableDeclaratorNode:
		// Walks are depth first: the uses of an expr `let` are seen before the declarator.
		pv.unknown = slices.DeleteFunc(pv.unknown, func(id *ast.IdentifierNode) bool { return id.Value == n.Name })
		pv.tallyLetFields(n)
	}
	call, ok := (*node).(*ast.CallNode)
	if !ok {
		return
	}
	id, ok := call.Callee.(*ast.IdentifierNode)
	if !ok {
		return
	}
	// A callee is resolved below or checked again by expr, which visits callees.
	pv.unknown = slices.DeleteFunc(pv.unknown, func(n *ast.IdentifierNode) bool { return n == id })
	pv.procRefs = slices.DeleteFunc(pv.procRefs, func(n *ast.IdentifierNode) bool { return n == id })
	if id.Value == namedFn {
		if !slices.Contains(pv.named, call) {
			pv.named = append(pv.named, call)
		}
		return
	}
	if _, local := pv.sc.Local(id.Value); local {
		pv.positionalOnly(call.Arguments, id.Value)
		return
	}
	if _, proc := pv.c.prog.Globals[id.Value].(*runtime.Proc); !proc && pv.positionalOnly(call.Arguments, id.Value) {
		return
	}
	if b, ok := pv.c.prog.Library.Builtins[id.Value]; ok {
		pv.procArgs(id.Value, b, call)
		pv.recordArgs(id.Value, b.Types, 1, call)
		args := append([]ast.Node{&ast.IdentifierNode{Value: "__rt"}}, call.Arguments...)
		ast.Patch(node, &ast.CallNode{Callee: &ast.IdentifierNode{Value: runtime.InternalName(id.Value)}, Arguments: args})
		return
	}
	if k, ok := pv.c.prog.Globals[id.Value].(*runtime.Kind); ok {
		// A kind's name builds a record: Figure({nom: "Archer"}) or Figure().
		if msg := pv.sc.DefaultsNow(k); msg != "" {
			pv.fail(call, msg, "declare the const after the names its defaults use")
			return
		}
		if len(call.Arguments) > 1 {
			pv.fail(call, fmt.Sprintf("%s takes one map of fields, got %d arguments", k.Name, len(call.Arguments)), "write "+k.Name+"({field: value, …})")
			return
		}
		args := []ast.Node{&ast.IdentifierNode{Value: "__rt"}, &ast.StringNode{Value: k.Name}}
		if len(call.Arguments) == 1 {
			if m, ok := call.Arguments[0].(*ast.MapNode); ok {
				for _, pair := range m.Pairs {
					key, ok := pair.(*ast.PairNode).Key.(*ast.StringNode)
					if ok && k.ByName[key.Value] == nil {
						pv.fail(pair, fmt.Sprintf("%s has no field %s", k.Name, key.Value), pv.sc.Suggest(key.Value, func() []string { return k.FieldNames() }))
					}
				}
			}
			args = append(args, call.Arguments[0])
		} else {
			args = append(args, &ast.MapNode{})
		}
		ast.Patch(node, &ast.CallNode{Callee: &ast.IdentifierNode{Value: "__new"}, Arguments: args})
		return
	}
	p, ok := pv.c.prog.Globals[id.Value].(*runtime.Proc)
	if !ok {
		if f, ok := core.Lookup(id.Value); ok {
			pv.recordArgs(id.Value, f.Types, 0, call)
		}
		return
	}
	if !pv.sc.InProc() {
		pv.fail(call, fmt.Sprintf("%s %s cannot be called here", p.Verb, p.Name), "procedures run only inside procedures and evaluations")
		return
	}
	given, ok := pv.procArgsByName(p, call)
	if !ok {
		return
	}
	for i, arg := range given {
		if _, skip := arg.(*ast.ConstantNode); skip {
			continue
		}
		t := p.Params[i].Type
		if t.Kind == runtime.TEnum {
			pv.enumArg(arg, t.Enum, "argument "+p.Params[i].Name+" of "+p.Name)
		}
		// A value whose type is known here and cannot be stored in the parameter would fail
		// at every run of the call: refuse it at load, at the argument.
		if got := pv.argType(arg); !runtime.Assignable(t, got) {
			detail := "declared at " + p.Params[i].Pos.String()
			switch {
			case t.Kind == runtime.TDie && got.Kind == runtime.TRoll:
				detail = "a dice literal rolls where it stands: declare the die (dice six = [1, 2, 3, 4, 5, 6]) and pass its name"
			case t.Kind == runtime.TDice && got.Kind == runtime.TRoll:
				detail = "a dice literal rolls where it stands; a code held as a value is written as a string: \"4D+2\""
			}
			pv.fail(arg, fmt.Sprintf("parameter %s of %s is %s, got %s", p.Params[i].Name, p.Name, t, got), detail)
		}
	}
	// The procedure and the call site travel as constants of the compiled program: nothing
	// is looked up or parsed when the call runs. The nodes of the call are made in one
	// allocation (they were a twentieth of the allocations of checking a ruleset).
	n := &procCallNodes{site: syntax.PosOf(pv.x.PosAt(call.Location().From))}
	pv.sited = true
	n.rt.Value, n.callee.Value = "__rt", "__call"
	n.proc.Value, n.at.Value = p, &n.site
	args := make([]ast.Node, 3, 3+len(given))
	args[0], args[1], args[2] = &n.rt, &n.proc, &n.at
	n.call.Callee, n.call.Arguments = &n.callee, append(args, given...)
	ast.Patch(node, &n.call)
}

// procCallNodes are the nodes of a call rewritten to __call(__rt, proc, site, args…).
type procCallNodes struct {
	call       ast.CallNode
	callee, rt ast.IdentifierNode
	proc, at   ast.ConstantNode
	site       syntax.Pos
}

// argType is what is known of an argument's type when its call is patched: expr has not
// typed the arguments of a call it could not resolve yet, so literals are read by their node.
func (pv *patcher) argType(n ast.Node) *runtime.Type {
	switch n := pv.c.orig(n).(type) {
	case *ast.StringNode:
		return runtime.StringType
	case *ast.IntegerNode:
		return runtime.IntType
	case *ast.FloatNode:
		return runtime.FloatType
	case *ast.BoolNode:
		return runtime.BoolType
	case *ast.CallNode:
		if id, ok := n.Callee.(*ast.IdentifierNode); ok && id.Value == "__dice" {
			return runtime.RollType // a dice literal, rolled where it stands
		}
	}
	return pv.c.staticType(n, pv.sc)
}

// namedFn is the call a named argument `name = value` is rewritten to (rewriteLiterals):
// __named("name", value).
const namedFn = "__named"

// namedOf reads a named argument: its name, the name's node and its value.
func namedOf(n ast.Node) (string, ast.Node, ast.Node, bool) {
	call, ok := n.(*ast.CallNode)
	if !ok || len(call.Arguments) != 2 {
		return "", nil, nil, false
	}
	id, ok := call.Callee.(*ast.IdentifierNode)
	name, ok2 := call.Arguments[0].(*ast.StringNode)
	if !ok || !ok2 || id.Value != namedFn {
		return "", nil, nil, false
	}
	return name.Value, name, call.Arguments[1], true
}

// isNamed reports whether n is a named argument.
func isNamed(n ast.Node) bool {
	_, _, _, ok := namedOf(n)
	return ok
}

// procArgsByName lines up a call's arguments with p's parameters: the positional ones
// first, then the named ones at their parameter's place; a parameter left out before a named
// one is given runtime.Skipped, so it takes its default when the call runs. It reports what
// does not fit (arity, an unknown name, a parameter given twice, a positional argument
// after a named one, a parameter without default left out) and returns false then.
func (pv *patcher) procArgsByName(p *runtime.Proc, call *ast.CallNode) ([]ast.Node, bool) {
	if n := slices.IndexFunc(call.Arguments, isNamed); n > len(p.Params) {
		pv.fail(call, fmt.Sprintf("%s takes at most %d arguments, got %d by position", p.Name, len(p.Params), n), "declared at "+p.Pos.String())
		return nil, false
	}
	var positional []ast.Node
	named := map[int]ast.Node{}
	seenNamed, ok := false, true
	for _, arg := range call.Arguments {
		name, nameNode, value, isNamed := namedOf(arg)
		if !isNamed {
			if seenNamed {
				pv.fail(arg, fmt.Sprintf("a positional argument of %s follows a named one", p.Name),
					"give the positional arguments first, or name this one too (parameter = value)")
				ok = false
			}
			positional = append(positional, arg)
			continue
		}
		seenNamed = true
		pv.named = slices.DeleteFunc(pv.named, func(n *ast.CallNode) bool { return n == arg })
		i := slices.IndexFunc(p.Params, func(par *runtime.Param) bool { return par.Name == name })
		switch {
		case i < 0:
			detail := pv.sc.Suggest(name, func() []string { return runtime.ParamNames(p.Params) })
			if detail == "" {
				detail = fmt.Sprintf("%s takes (%s)", p.Name, strings.Join(runtime.ParamNames(p.Params), ", "))
			}
			pv.fail(nameNode, fmt.Sprintf("%s has no parameter %s", p.Name, name), detail)
			ok = false
		case named[i] != nil:
			pv.fail(nameNode, fmt.Sprintf("parameter %s of %s is named twice", name, p.Name), "keep one of the two")
			ok = false
		case i < len(positional):
			pv.fail(nameNode, fmt.Sprintf("parameter %s of %s is given twice, by position and by name", name, p.Name),
				fmt.Sprintf("argument %d is already %s: drop one of the two", i+1, name))
			ok = false
		default:
			named[i] = value
		}
	}
	if len(named) == 0 && ok {
		if n := len(call.Arguments); n < p.MinArg || n > len(p.Params) {
			want := fmt.Sprint(len(p.Params))
			if p.MinArg < len(p.Params) {
				want = fmt.Sprintf("%d to %d", p.MinArg, len(p.Params))
			}
			noun := "arguments"
			if want == "1" {
				noun = "argument"
			}
			pv.fail(call, fmt.Sprintf("%s takes %s %s, got %d", p.Name, want, noun, n), "declared at "+p.Pos.String())
			return nil, false
		}
		return call.Arguments, true
	}
	if !ok {
		return nil, false
	}
	n := len(positional)
	for i := range named {
		n = max(n, i+1)
	}
	args := append([]ast.Node(nil), positional...)
	var missing []string
	for i, par := range p.Params {
		switch {
		case i < len(positional):
		case named[i] != nil:
			args = append(args, named[i])
		case par.Default == nil:
			missing = append(missing, par.Name)
		case i < n:
			skip := &ast.ConstantNode{Value: runtime.Skipped{}}
			skip.SetLocation(call.Location())
			args = append(args, skip)
		}
	}
	if len(missing) > 0 {
		noun := "parameter " + missing[0] + " has"
		if len(missing) > 1 {
			noun = "parameters " + strings.Join(missing, ", ") + " have"
		}
		pv.fail(call, fmt.Sprintf("%s: missing %s", p.Name, strings.Join(missing, ", ")),
			fmt.Sprintf("%s no default: give it by position or as %s = …", noun, missing[0]))
		return nil, false
	}
	return args, true
}

// positionalOnly refuses the named arguments of a call of something other than a procedure
// (a builtin, a function, a kind): its arguments have no names to match.
// It reports whether there were any.
func (pv *patcher) positionalOnly(args []ast.Node, callee string) bool {
	found := false
	for _, arg := range args {
		name, nameNode, _, ok := namedOf(arg)
		if !ok {
			continue
		}
		pv.named = slices.DeleteFunc(pv.named, func(n *ast.CallNode) bool { return n == arg })
		pv.fail(nameNode, fmt.Sprintf("%s takes no named arguments (%s = …)", callee, name),
			"named arguments are for actions, rules and tables; give "+callee+"'s arguments in order")
		found = true
	}
	return found
}

func (pv *patcher) fail(n ast.Node, summary, detail string) {
	pv.diags = append(pv.diags, &syntax.Diagnostic{Pos: syntax.PosOf(pv.x.PosAt(n.Location().From)), Summary: summary, Detail: detail})
}

// Call is a call an expression makes of a procedure or of a builtin of the program's
// library, as the checker needs it to keep rules from changing the state.
type Call struct {
	// Name is the procedure or builtin as written.
	Name string
	// Proc is the procedure called, nil for a builtin.
	Proc *runtime.Proc
	// Builtin is the builtin called, when Proc is nil.
	Builtin runtime.Builtin
	// At is the rune offset of the call in the compiled text (runtime.Expr.PosAt places it).
	At int
}

// Calls lists the calls of procedures and of library builtins an expression makes, in the
// order they are written; none for an expression that skips the VM.
func (c *Compiler) Calls(x *runtime.Expr) []Call {
	cd, ok := codeOf(x)
	if !ok {
		return nil
	}
	v := &callVisitor{lib: c.prog.Library}
	node := cd.tree.Node
	ast.Walk(&node, v)
	slices.SortStableFunc(v.calls, func(a, b Call) int { return a.At - b.At })
	return v.calls
}

type callVisitor struct {
	lib   *runtime.Library
	calls []Call
}

// Visit implements ast.Visitor.
func (v *callVisitor) Visit(n *ast.Node) {
	call, ok := (*n).(*ast.CallNode)
	if !ok {
		return
	}
	id, ok := call.Callee.(*ast.IdentifierNode)
	if !ok {
		return
	}
	at := call.Location().From
	if id.Value == "__call" && len(call.Arguments) > 1 {
		if k, ok := call.Arguments[1].(*ast.ConstantNode); ok {
			if p, ok := k.Value.(*runtime.Proc); ok {
				v.calls = append(v.calls, Call{Name: p.Name, Proc: p, At: at})
			}
		}
		return
	}
	if name, ok := strings.CutPrefix(id.Value, "__"); ok && v.lib != nil {
		if b, ok := v.lib.Builtins[name]; ok && runtime.InternalName(name) == id.Value {
			v.calls = append(v.calls, Call{Name: name, Builtin: b, At: at})
		}
	}
}

// Builds reports whether an expression, at its top, builds a new record or map: a kind's
// constructor `Kind({…})` or a map literal. A rule may change what it builds this way.
func (c *Compiler) Builds(x *runtime.Expr) bool {
	cd, ok := codeOf(x)
	if !ok {
		return false
	}
	switch n := c.orig(cd.tree.Node).(type) {
	case *ast.MapNode:
		return true
	case *ast.CallNode:
		id, ok := n.Callee.(*ast.IdentifierNode)
		return ok && id.Value == "__new"
	}
	return false
}

// warn adds a warning at node n.
func (pv *patcher) warn(n ast.Node, summary, detail string) {
	pv.warns = append(pv.warns, &syntax.Diagnostic{Severity: syntax.Warning, Pos: syntax.PosOf(pv.x.PosAt(n.Location().From)), Summary: summary, Detail: detail})
}

// procArgs resolves the procedures passed to builtin fn where it calls one back: a
// procedure's name becomes the procedure itself, a constant of the compiled code, once its
// parameters are checked against the call fn makes. A string literal naming a procedure (the
// older form) is resolved the same way, with a warning saying how to write it.
func (pv *patcher) procArgs(fn string, b runtime.Builtin, call *ast.CallNode) {
	for _, cb := range b.Callbacks {
		if !cb.Applies(len(call.Arguments)) {
			continue
		}
		if cb.Older != "" {
			pv.warn(call, fmt.Sprintf("%s with %d arguments is the older form", fn, len(call.Arguments)), cb.Older)
		}
		arg := &call.Arguments[cb.Arg]
		var p *runtime.Proc
		switch a := (*arg).(type) {
		case *ast.IdentifierNode:
			if !slices.Contains(pv.procRefs, a) {
				continue // a local or a global holding a procedure, or an unknown name
			}
			pv.procRefs = slices.DeleteFunc(pv.procRefs, func(n *ast.IdentifierNode) bool { return n == a })
			p = pv.c.prog.Globals[a.Value].(*runtime.Proc)
		case *ast.StringNode:
			if a.Value == "" {
				continue // no procedure: an optional callback left out
			}
			if p, _ = pv.c.prog.Globals[a.Value].(*runtime.Proc); p == nil {
				pv.fail(a, fmt.Sprintf("%s: no procedure %s", fn, a.Value), pv.sc.Suggest(a.Value, pv.procNames))
				continue
			}
			pv.warn(a, fmt.Sprintf("%s names a procedure by a string", fn), fmt.Sprintf("write %s without quotes: a procedure is a value, checked when the file loads", a.Value))
		default:
			continue
		}
		if !cb.Fits(p) {
			pv.fail(*arg, cb.Mismatch(fn, p), fmt.Sprintf("%s %s is declared at %s", p.Verb, p.Name, p.Pos))
			continue
		}
		if p.Verb == "action" {
			// A builtin may ask its procedure about hexes a unit never enters (a path search
			// tries many): only a rule, which cannot change the state, answers such questions.
			pv.fail(*arg, fmt.Sprintf("%s is an action: %s calls rules, which cannot change the state", p.Name, fn), fmt.Sprintf("declare it `rule %s(…)`", p.Name))
			continue
		}
		c := &ast.ConstantNode{Value: p}
		c.SetLocation((*arg).Location())
		*arg = c
	}
}

// callbackBuiltins lists the builtins that take a procedure, sorted.
func callbackBuiltins(lib *runtime.Library) []string {
	var out []string
	for name, b := range lib.Builtins {
		if len(b.Callbacks) > 0 {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// procNames lists the program's procedures (for a "did you mean").
func (pv *patcher) procNames() []string {
	var out []string
	for _, p := range pv.c.prog.Procs {
		out = append(out, p.Name)
	}
	return out
}

// BuiltKinds lists the kinds whose records an expression builds (Kind(…) calls); none for
// an expression that skips the VM.
func BuiltKinds(x *runtime.Expr) []string {
	cd, ok := codeOf(x)
	if !ok {
		return nil
	}
	v := &newVisitor{}
	node := cd.tree.Node
	ast.Walk(&node, v)
	return v.kinds
}

type newVisitor struct{ kinds []string }

// Visit implements ast.Visitor.
func (v *newVisitor) Visit(n *ast.Node) {
	if call, ok := (*n).(*ast.CallNode); ok && len(call.Arguments) > 1 {
		if id, ok := call.Callee.(*ast.IdentifierNode); ok && id.Value == "__new" {
			if name, ok := call.Arguments[1].(*ast.StringNode); ok {
				v.kinds = append(v.kinds, name.Value)
			}
		}
	}
}

// compileError puts an expr-lang compile error in the language's words, at its offset in
// the compiled text.
// codeOpRE matches expr's refusal of an operator between two dice codes.
var codeOpRE = &runtime.Lazy[*regexp.Regexp]{Build: func() *regexp.Regexp {
	return regexp.MustCompile(`^invalid operation: (<=|>=|<|>|\*\*|\*|/|%|\^) \(mismatched types (dice and \w+|\w+ and dice)\)`)
}}

func compileError(err error) *Error {
	var fe *file.Error
	e := &Error{At: -1}
	msg := err.Error()
	if errors.As(err, &fe) {
		e.At = fe.From
		if fe.To > fe.From {
			e.End = fe.To
		}
		// expr-lang ends some messages with a blank ("… to call any_face ").
		msg = strings.TrimSpace(syntax.PlainExprMessage(fe.Message))
	}
	msg = runtime.ForeignWords(msg)
	e.Summary = msg
	if m := badLiteralRE.Get().FindStringSubmatch(msg); m != nil {
		// expr points at the literal's last character and quotes strconv: say it plainly,
		// at the literal's start.
		if fe != nil {
			e.At = fe.From - utf8.RuneCountInString(m[1]) + 1
		}
		e.Summary = "the number " + m[1] + " is not a valid number"
		if m[2] == "value out of range" {
			e.Summary = "the number " + m[1] + " is too large"
			if !strings.ContainsAny(m[1], ".eE") {
				e.Detail = fmt.Sprintf("the largest whole number is %d", math.MaxInt)
			}
		}
	} else if m := badNumberRE.Get().FindStringSubmatch(msg); m != nil {
		// expr's lexer refuses digits glued to letters (3x, 3d) in its own words, at the
		// text's last character: say it plainly, at its start.
		if fe != nil {
			e.At = fe.From - utf8.RuneCountInString(m[1]) + 1
		}
		e.Summary = m[1] + " is not a number: a number cannot be followed by letters"
		if len(m[1]) > 1 && strings.ContainsAny(m[1][len(m[1])-1:], "dD") {
			e.Detail = `dice are written 3d6; a computed count or number of sides is written in notation: roll("3d(2*6)")`
		}
	} else if msg == `unexpected token "__dice"` {
		// A dice literal glued after a value: (4-2)d10 computes its count.
		e.Summary = "a dice literal cannot follow a value here"
		e.Detail = `a computed count or number of sides is written in notation: roll("(4-2)d10"), or roll(str(n) + "d10")`
	} else if name, ok := strings.CutPrefix(msg, "unknown name "); ok && slices.Contains(disabledBuiltins, name) {
		e.Summary = name + " is not available in rules"
		e.Detail = "a run depends only on its files, options, seed and hand-given results"
	} else if name, ok := strings.CutPrefix(msg, "unknown name "); ok {
		e.Summary = "unknown name " + name
		e.Unknown, e.Name = UnknownName, name
	} else if name, ok := strings.CutPrefix(msg, "unknown field "); ok {
		e.Summary = "unknown field " + name
		e.Unknown, e.Name = UnknownField, name
	} else if strings.HasPrefix(msg, "unknown func") {
		e.Summary = strings.Replace(msg, "func", "procedure or function", 1)
	} else if m := codeOpRE.Get().FindStringSubmatch(msg); m != nil {
		e.Detail = "a rule compares or scales their parts: c.count, c.sides, c.bonus"
		if m[1] == "*" || m[1] == "/" {
			e.Summary = "dice codes cannot be multiplied or divided (" + m[1] + ")"
		} else {
			e.Summary = "dice codes have no order (" + m[1] + ")"
		}
	}
	return e
}

// badNumberRE matches expr's lexer refusing a number glued to letters, capturing the text.
var badNumberRE = &runtime.Lazy[*regexp.Regexp]{Build: func() *regexp.Regexp {
	return regexp.MustCompile(`^bad number syntax: "(.*)"$`)
}}

// badLiteralRE matches expr's message for a number literal strconv refused, capturing the
// literal and strconv's reason. Compiled on first use.
var badLiteralRE = &runtime.Lazy[*regexp.Regexp]{Build: func() *regexp.Regexp {
	return regexp.MustCompile(`^invalid (?:integer|float) literal: strconv\.Parse\w+: parsing "(.*)": (.*)$`)
}}

// procCalled is the procedure n is one call of (__call(__rt, p, site, args…), the patch of a
// rule's call), or nil.
func procCalled(n ast.Node) *runtime.Proc {
	c, ok := n.(*ast.CallNode)
	if !ok || len(c.Arguments) < 3 || !isMachine(c.Arguments[0]) {
		return nil
	}
	if id, ok := c.Callee.(*ast.IdentifierNode); !ok || id.Value != "__call" {
		return nil
	}
	p, _ := constant[*runtime.Proc](c.Arguments[1])
	return p
}
