package runtime

import (
	"rulesh/stdlib/cards"
	"rulesh/stdlib/dice"
)

// Program is a loaded and checked ruleset, the compiled form. The checker fills its exported
// fields; after loading it is only read, so one Program may serve many Machines at once (each
// Machine holds its own state).
type Program struct {
	// Library holds the builtins the program was checked against.
	Library *Library
	// inlineGlobals are the globals the inlined bodies read, by their index
	// (InlineGlobalIndex): each machine keeps their values (Machine.InlineGlobal).
	inlineGlobals []string
	// Name is the ruleset's name, from its header.
	Name    string
	Props   map[string]string // ruleset header fields: version, source, ...
	Sources Sources
	Files   []string // every file read, the first one given first
	// The declarations of each sort, in the order they were read: Procs[i].Index is i.
	Options  []*Option
	Consts   []*Const
	Kinds    []*Kind
	Enums    []*Enum
	Entities []*Entity
	Procs    []*Proc
	DiceDecl []*DieDecl
	Tables   []*Table
	Decks    []*DeckDecl
	Piles    []*PileDecl
	Maps     []*MapDecl

	// RuleFaces gives the faces of the dice made from rules, by name, when they are known
	// before checking (the loader checks such rules twice: first to compute the faces, then
	// with them, so that notation parsed at load sees them).
	RuleFaces map[string][]dice.Face
	// Globals maps every top-level name to its declaration.
	Globals map[string]Global
	// templates counts the procedures' templates that are an expression's value, each
	// given its slot (numberTemplates).
	templates int32
	// fieldSites are the reads of a field of a frame's name in each expression, kept until
	// ResolveSlots has read them (keepFields), then dropped (sitesDone): an Expr does not
	// carry them, as few of its reads ever keep anything.
	fieldSites map[*Expr][]*FieldSite
	sitesDone  bool
	// Equal is == on values other than lists, maps and records (numbers of any Go type,
	// strings, lists of other element types…), as the expression engine compares them; set
	// by the checker. Machine.Equal walks lists, maps and records itself.
	Equal   func(a, b any) bool
	dice    map[string]*dice.Die
	stdDeck *cards.Deck
	// frozen holds the maps and lists of consts and option defaults (see freeze.go).
	frozen map[uintptr]string
}

// AddFieldSites notes the reads of a field of a frame's name that the closures of x make,
// for ResolveSlots (a rule's call may keep what they read, FieldSite.Keep). Once the
// program's slots are resolved it notes nothing: the expressions compiled later (inputs)
// belong to no procedure, and the program is shared by the machines that compile them.
func (p *Program) AddFieldSites(x *Expr, sites []*FieldSite) {
	if p.sitesDone || len(sites) == 0 {
		return
	}
	if p.fieldSites == nil {
		p.fieldSites = map[*Expr][]*FieldSite{}
	}
	p.fieldSites[x] = sites
}

// Global is anything a top-level name can denote: a declaration, which knows where it is.
type Global interface{ DeclPos() Pos }

// Option is a tunable of the ruleset, overridable per run (`--set`, `:set`).
type Option struct {
	Name    string
	Doc     string
	Pos     Pos
	Default any
	Type    *Type
}

// Const is a named value fixed at load.
type Const struct {
	Name  string
	Pos   Pos
	Value any
	Type  *Type
}

// Kind is a record type: named, typed fields with defaults.
type Kind struct {
	Name   string
	Pos    Pos
	Fields []*Field
	ByName map[string]*Field
	// Tally marks the nameless kind of a roll of record dice (TallyKind).
	Tally bool
	self  *Type
}

// FieldNames lists the kind's fields in declaration order (did-you-mean, completion).
func (k *Kind) FieldNames() []string {
	out := make([]string, len(k.Fields))
	for i, f := range k.Fields {
		out[i] = f.Name
	}
	return out
}

// Field is one field of a kind.
type Field struct {
	Name    string
	Pos     Pos
	Type    *Type
	Default *Expr // nil: the type's zero value
}

// Entity is a named record declared in a rule or scenario file; every Machine starts with a
// fresh copy.
type Entity struct {
	Name  string
	Pos   Pos
	Kind  *Kind
	Inits []FieldInit
}

// FieldInit is a field given a value where a record is built (an entity's declaration, a
// kind's constructor): Value is checked against Field's type.
type FieldInit struct {
	Field *Field
	Value *Expr
}

// Proc is an `action` or `rule`: a procedure with parameters, a body and maybe a result.
type Proc struct {
	Name   string
	Verb   string // action or rule as declared, table for a table's lookup; a rule or table cannot change the state (checked at load)
	Pos    Pos
	Params []*Param
	Result *Type // nil: returns nothing
	Body   []Stmt
	Index  int      // its place in Program.Procs: the Machine pools its frames there
	MinArg int      // how many arguments a call must give (the parameters before the first default)
	Table  *Table   // set when the procedure is a table's lookup
	Uses   []string // the globals its expressions read: its frames hold these
	// Locals names its frames' slots, the parameters first (see ResolveSlots); nil: all its
	// variables live in the frame's map. The slots from GlobalFrom on hold globals of Uses
	// that no local of the procedure hides, copied in with the map's (Machine.copyUses), so
	// that closures read them without hashing their names.
	Locals     []string
	GlobalFrom int
	// argSlots says that parameter i lives in slot i, for every parameter: a caller can
	// then write the arguments straight into a frame (Machine.Callee).
	argSlots bool
	// fewParams says that every parameter's slot is tracked by the frames' masks (at most
	// dirtyBits parameters): CallIn then runs the call by runSlots. keeps marks the
	// parameters of a type that a conformed value keeps (keepsConformed), bit i for
	// parameter i; nullable says that some parameter is Nullable.
	fewParams bool
	keeps     uint64
	nullable  bool
	// keptFields is how many fields of its parameters a call keeps once read (keepFields).
	keptFields int
	// slotTypes are the types its slots' values are known to have while the frame marks
	// them typed (Frame.typed): each parameter's, and a local's that only lets of a call
	// of a procedure with a record result bind (nil for the others); nil when no local is
	// such (the parameters' types are their declarations').
	slotTypes []*Type
	// onlyReturn is the body's statement when the body is one return statement with a
	// value (set with the slots, see ResolveSlots): a call runs it without Run.
	onlyReturn *ReturnStmt
	// Inline, when set, is that return's expression compiled to run inside its caller's
	// evaluation (exprx's, see inline.go), set once at load.
	Inline any
}

// Param is one parameter; a parameter with a default may be left out by callers.
type Param struct {
	Name    string
	Pos     Pos
	Type    *Type
	Default *Expr
	// Nullable says the parameter accepts nil besides its type: a record parameter whose
	// default is `= nil`.
	Nullable bool
	// Slot is the parameter's slot plus one (0: the frame's map).
	Slot int
}

// DieDecl is a custom die declared with `dice NAME = [faces]`, or made from a rule with
// `dice NAME = RULE(ARGS)`: then Rule is the procedure called and Call the call's text, and
// Die's faces are the rule's outcomes with the options' defaults, each repeated in
// proportion to its exact probability (computed when the rules load, see dsl.Load).
type DieDecl struct {
	Name string
	Pos  Pos
	Die  *dice.Die
	Rule *Proc
	Call string
}

// Dice returns the declared custom dice by name (for the dice notation's d[NAME]).
func (p *Program) Dice() map[string]*dice.Die {
	if p.dice == nil {
		p.dice = map[string]*dice.Die{}
		for _, d := range p.DiceDecl {
			p.dice[d.Name] = d.Die
		}
	}
	return p.dice
}

// DeclPos is where the die is declared.
func (d *DieDecl) DeclPos() Pos { return d.Pos }

// DeclPos is where the option is declared.
func (o *Option) DeclPos() Pos { return o.Pos }

// DeclPos is where the const is declared.
func (c *Const) DeclPos() Pos { return c.Pos }

// DeclPos is where the kind is declared.
func (k *Kind) DeclPos() Pos { return k.Pos }

// DeclPos is where the entity is declared.
func (e *Entity) DeclPos() Pos { return e.Pos }

// DeclPos is where the procedure is declared.
func (p *Proc) DeclPos() Pos { return p.Pos }

// Type returns the one static Type of records of this kind.
func (k *Kind) Type() *Type {
	if k.self == nil {
		k.self = &Type{Kind: TRecord, Record: k}
	}
	return k.self
}

// Enum is a closed set of names declared with `enum NAME { a, b, c }`. Its values are
// strings at run time (a value prints, compares and keys a map as its name); the enum's
// name, read in an expression, is the list of its values in declaration order.
type Enum struct {
	Name   string
	Pos    Pos
	Values []string
	// Index gives each value's place in Values.
	Index map[string]int
	// List is Values as the list value the enum's name reads as (frozen).
	List []any
	self *Type
	list *Type
}

// DeclPos is where the enum is declared.
func (e *Enum) DeclPos() Pos { return e.Pos }

// Type returns the one static Type of the enum's values.
func (e *Enum) Type() *Type {
	if e.self == nil {
		e.self = &Type{Kind: TEnum, Enum: e}
	}
	return e.self
}

// ListType returns the static type of the enum's name in an expression: a list of its values.
func (e *Enum) ListType() *Type {
	if e.list == nil {
		e.list = &Type{Kind: TList, Elem: e.Type()}
	}
	return e.list
}

// Has reports whether v is one of the enum's values.
func (e *Enum) Has(v string) bool {
	_, ok := e.Index[v]
	return ok
}

// Field returns the named field, or nil.
func (k *Kind) Field(name string) *Field { return k.ByName[name] }

// Proc returns the procedure of that name, or nil.
func (p *Program) Proc(name string) *Proc {
	if pr, ok := p.Globals[name].(*Proc); ok {
		return pr
	}
	return nil
}

// Option returns the option of that name, or nil.
func (p *Program) Option(name string) *Option {
	if o, ok := p.Globals[name].(*Option); ok {
		return o
	}
	return nil
}

// Names lists every top-level name (for completion and did-you-mean).
func (p *Program) Names() []string { return SortedKeys(p.Globals) }
