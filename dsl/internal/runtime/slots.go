package runtime

import (
	"math"
	"math/bits"
)

// Slots: the locals and parameters of a procedure live in a slice, each at an index fixed
// at load (ResolveSlots), as starlark-go's resolver gives a function's locals indices, so a
// running rule reads and writes them without hashing a name. A statement or an operand that
// reads a local carries its slot plus one (0: read the name in the frame's map, as the
// REPL's inputs, the tables and the names left out below do).
//
// Expressions compiled to closures (Fast) read the slots too (NameRef). The expression VM,
// for what the closures do not handle, reads names from the frame's map: a local written
// since the last VM run is marked dirty and copied into the map (flush) before the VM runs,
// so a loop that never needs the VM writes no map at all.

// dirtyBits is how many slots the dirty mask tracks; a slot past it is written through to
// the map at once.
const dirtyBits = 64

// noSlots, set by tests, leaves every variable in the map: the slots' differential test
// compares the two.
var noSlots bool

// local reads a local: its slot, or its name in the map.
func (f *Frame) local(slot int, name string) any {
	// One comparison, the bounds' check: a name of the map (slot 0) wraps around.
	if i := uint(slot - 1); i < uint(len(f.slots)) {
		return f.slots[i]
	}
	return f.Vars[name]
}

// setLocal binds a local: its slot (the map catches up at the next flush), or its name in
// the map.
func (f *Frame) setLocal(slot int, name string, v any) {
	if slot == 0 {
		f.Vars[name] = v
		return
	}
	f.slots[slot-1] = v
	if slot <= dirtyBits {
		f.dirty |= 1 << (slot - 1)
		f.typed &^= 1 << (slot - 1)
	} else {
		f.Vars[name] = v
	}
}

// flush copies the locals written since the last flush into the map, for the VM.
func (f *Frame) flush() {
	for d := f.dirty; d != 0; d &= d - 1 {
		i := bits.TrailingZeros64(d)
		f.Vars[f.names[i]] = f.slots[i]
	}
	f.dirty = 0
}

// ResolveSlots gives each local and parameter of the program's procedures a slot, and marks
// every statement and expression that reads or binds one. It runs once, when the
// program is checked, after every procedure knows the globals it reads.
//
// A name that is also a global (a local may hide an entity, a die or a pile) keeps living in
// the map: before its local is bound, the map holds the global, and the frame must read
// that. The globals a procedure reads and binds nowhere get slots of their own after its
// locals (Proc.GlobalFrom), which copyUses fills as it fills the map. Tables keep the map:
// their expressions are also evaluated away from a frame (the distributions of rolled
// tables). A procedure with an expression that another procedure (or a table) also holds
// keeps the map too, since a slot means one procedure's frame.
func ResolveSlots(prog *Program) {
	sites := prog.fieldSites
	prog.fieldSites, prog.sitesDone = nil, true
	numberTemplates(prog)
	for _, p := range prog.Procs {
		if r, ok := onlyStmt(p.Body).(*ReturnStmt); ok && r.Value != nil {
			p.onlyReturn = r
		}
	}
	if noSlots {
		return
	}
	exprs := make([][]*Expr, len(prog.Procs))
	owners := map[*Expr]int{}
	for i, p := range prog.Procs {
		collect := func(x *Expr) { exprs[i] = append(exprs[i], x) }
		for _, par := range p.Params {
			walkExpr(par.Default, collect)
		}
		walkBody(p.Body, collect)
		for _, x := range exprs[i] {
			owners[x]++
		}
	}
procs:
	for i, p := range prog.Procs {
		if p.Table != nil && p.Locals == nil {
			tableSlots(p)
			continue
		}
		if p.Table != nil || p.Verb == "table" || p.Locals != nil {
			continue
		}
		for _, x := range exprs[i] {
			if owners[x] > 1 {
				continue procs
			}
		}
		resolveProc(prog, p, sites)
	}
}

// tableSlots gives the parameters of a table's procedure their slots, so that a lookup is
// called as a rule is (Machine.Callee), when none of the table's expressions reads a
// parameter: its lookup (TableStmt) reads the key from its slot, and its expressions, which
// keep the map (see ResolveSlots), read none. (An expression on the VM would find them
// there anyway: the slots are flushed into the map before it runs.)
func tableSlots(p *Proc) {
	if len(p.Params) == 0 || len(p.Params) > dirtyBits {
		return
	}
	reads := false
	param := func(name string) bool {
		for _, par := range p.Params {
			if par.Name == name {
				return true
			}
		}
		return false
	}
	check := func(x *Expr) {
		if x.Ident != "" && param(x.Ident) {
			reads = true
		}
		for _, n := range x.Names {
			reads = reads || param(n.Name)
		}
	}
	for _, par := range p.Params {
		walkExpr(par.Default, check)
	}
	t := p.Table
	walkExpr(t.Plus, check)
	walkExpr(t.Below, check)
	walkExpr(t.Above, check)
	for _, c := range t.Cols {
		walkExpr(c, check)
	}
	for _, r := range t.Rows {
		for _, x := range r.Exact {
			walkExpr(x, check)
		}
		if r.Band != nil {
			walkExpr(r.Band.Lo, check)
			walkExpr(r.Band.Hi, check)
		}
		walkExpr(r.Value, check)
	}
	if reads {
		return
	}
	p.Locals = ParamNames(p.Params)
	p.GlobalFrom = len(p.Locals)
	for i, par := range p.Params {
		par.Slot = i + 1
		if par.Type != nil && keepsConformed(par.Type) {
			p.keeps |= 1 << i
		}
		p.nullable = p.nullable || par.Nullable
	}
	p.argSlots, p.fewParams = true, true
}

// onlyStmt is the statement of a body of one statement, else nil.
func onlyStmt(body []Stmt) Stmt {
	if len(body) != 1 {
		return nil
	}
	return body[0]
}

// numberTemplates gives each template of the program's procedures that is an expression's
// value (let, return, =) its slot among them, where a machine keeps the text it last made of
// it (Template.value).
func numberTemplates(prog *Program) {
	number := func(x *Expr) {
		if t := x.Tmpl; t != nil && t.slot == 0 && prog.templates < math.MaxInt32 {
			prog.templates++
			t.slot = prog.templates
		}
	}
	for _, p := range prog.Procs {
		for _, par := range p.Params {
			walkExpr(par.Default, number)
		}
		walkBody(p.Body, number)
	}
}

// resolveProc gives p's locals their slots.
func resolveProc(prog *Program, p *Proc, sites map[*Expr][]*FieldSite) {
	r := &resolver{global: prog.Globals, uses: map[string]bool{}, index: map[string]int{}, bound: map[string]bool{}}
	for _, u := range p.Uses {
		r.uses[u] = true
	}
	// The parameters first, then the locals in the order they are bound.
	for _, par := range p.Params {
		r.bind(par.Name)
	}
	r.bindBody(p.Body)
	// The globals it reads and never binds get the slots after the locals: a name also bound
	// as a local reads the global from the map until the local is bound, so it stays there.
	p.GlobalFrom = len(r.names)
	for _, u := range p.Uses {
		if !r.bound[u] && u != "__rt" {
			r.names = append(r.names, u)
			r.index[u] = len(r.names)
		}
	}
	if len(r.names) == 0 {
		return
	}
	p.Locals = r.names
	p.argSlots = true
	for i, par := range p.Params {
		par.Slot = r.slot(par.Name)
		p.argSlots = p.argSlots && par.Slot == i+1
		walkExpr(par.Default, r.expr)
		if i < dirtyBits && par.Type != nil && keepsConformed(par.Type) {
			p.keeps |= 1 << i
		}
		p.nullable = p.nullable || par.Nullable
	}
	p.fewParams = p.argSlots && len(p.Params) <= dirtyBits
	r.body(p.Body)
	typeSlots(p)
	fieldResults(p)
	keepFields(p, sites)
}

// keepFields lets a call of the rule p keep what it read of a parameter's field, for the
// field's other reads in the call (FieldSite.Keep): arme_de reads f.arme five times. A rule
// changes no state and calls no action, so while the parameter's slot holds the same record
// nothing can write the field; the slot holds it for the whole call when no statement of p
// binds the parameter's name again and p sets no field at all (of a copy of its own).
// Keeping a value costs more than one read saves: only a field that two reads or more of
// p read gets a place in the frame (the messages of requires, read when one fails, do not
// count), each of the first maxKeptFields by parameter and name.
func keepFields(p *Proc, siteOf map[*Expr][]*FieldSite) {
	if p.Verb != "rule" || p.Table != nil {
		return
	}
	// Most rules read fewer than two fields of anything: they are done without a map.
	n := 0
	count := func(x *Expr) { n += len(siteOf[x]) }
	for _, par := range p.Params {
		walkExpr(par.Default, count)
	}
	walkBody(p.Body, count)
	if n < 2 {
		return
	}
	rebound := map[string]bool{}
	messages := map[*Expr]bool{}
	mark := func(x *Expr) { messages[x] = true }
	ok := true
	walkStmts(p.Body, func(s Stmt) {
		switch s := s.(type) {
		case *RequireStmt:
			walkTemplate(s.Msg, mark)
			walkExpr(s.MsgExpr, mark)
		case *AssignStmt:
			ok = ok && s.Obj == nil
			rebound[s.Local] = true
		case *LetStmt:
			rebound[s.Name] = true
		case *ForStmt:
			rebound[s.Key], rebound[s.Val] = true, true
		}
	})
	if !ok {
		return
	}
	type field struct {
		slot int
		name string
	}
	sites := map[field][]*FieldSite{}
	var order []field
	reads := func(x *Expr) {
		for _, site := range siteOf[x] {
			slot := site.Obj.Slot
			if slot < 1 || slot > len(p.Params) || p.Params[slot-1].Name != site.Obj.Name || rebound[site.Obj.Name] {
				continue
			}
			k := field{slot, site.Field}
			if sites[k] == nil {
				order = append(order, k)
			}
			sites[k] = append(sites[k], site)
		}
	}
	for _, par := range p.Params {
		walkExpr(par.Default, reads)
	}
	walkBody(p.Body, func(x *Expr) {
		if !messages[x] {
			reads(x)
		}
	})
	kept := 0
	for _, k := range order {
		if len(sites[k]) < 2 || kept == maxKeptFields {
			continue
		}
		kept++
		for _, site := range sites[k] {
			site.Keep = kept
		}
	}
	p.keptFields = kept
}

// fieldResults marks the return statements of p whose value is a field of p's record result
// type read from a record in a slot of a known kind (ReturnStmt.FieldBy): return f.arme,
// f a parameter of kind Figurine, whose field arme is an Arme. A record's fields hold
// values of their types (every write conforms them, ConformField), or nil.
func fieldResults(p *Proc) {
	if p.Result == nil || p.Result.Kind != TRecord {
		return
	}
	walkStmts(p.Body, func(s Stmt) {
		if s, ok := s.(*ReturnStmt); ok && s.Value != nil && fieldOfType(p, s.Value.FieldOf, p.Result) {
			s.FieldBy = s.Value.FieldOf.Obj.Slot
		}
	})
}

// walkStmts calls fn with every statement of body, each before the statements of the
// blocks it holds (an if's, a loop's), in the order they are written.
func walkStmts(body []Stmt, fn func(Stmt)) {
	for _, s := range body {
		fn(s)
		switch s := s.(type) {
		case *ForStmt:
			walkStmts(s.Body, fn)
		case *IfStmt:
			for _, b := range s.Blocks {
				walkStmts(b, fn)
			}
			walkStmts(s.Else, fn)
		case *WhileStmt:
			walkStmts(s.Body, fn)
		}
	}
}

// fieldOfType reports whether fr, a field read in a frame of p, gives a value of type t or
// nil whenever the slot of its name is marked typed (Frame.typed): the slot's type is a
// record kind whose field is of t (the same record kind, or a type sameType accepts), and
// whose default is of its type as it is (defaultConformed).
func fieldOfType(p *Proc, fr *FieldRead, t *Type) bool {
	if fr == nil || fr.Obj == nil {
		return false
	}
	k := slotType(p, fr.Obj.Slot)
	if k == nil || k.Kind != TRecord || k.Record == nil {
		return false
	}
	fd := k.Record.ByName[fr.Field]
	return fd != nil && fd.Type != nil && keepsConformed(fd.Type) && sameType(fd.Type, t) && defaultConformed(fd)
}

// defaultConformed reports whether a record's field, at its default, holds a value of its
// type as Conform would leave it: NewRecord stores a default as it is computed (an int in a
// float field, an option's string in an enum field, a map in a record field), so only a
// literal default that conforms unchanged, or none (the type's zero value), is known.
func defaultConformed(fd *Field) bool {
	x := fd.Default
	if x == nil {
		return true
	}
	if !x.IsLit {
		return false
	}
	cv, err := ConformField(x.Lit, fd.Type)
	return err == nil && sameValue(cv, x.Lit)
}

// slotType is the type of the value of p's slot (plus one) while it is marked typed: the
// local's (Proc.slotTypes) or the parameter's, nil when the slot is never marked.
func slotType(p *Proc, slot int) *Type {
	s := uint(slot - 1) // a name of the map (slot 0) wraps around
	switch {
	case s >= dirtyBits:
		return nil
	case s < uint(len(p.slotTypes)):
		return p.slotTypes[s]
	case s < uint(len(p.Params)):
		return p.Params[s].Type
	}
	return nil
}

// typeSlots gives p's slots their types (Proc.slotTypes) when some local's every binding is
// a let of one call of a procedure with a record result, the same kind each time (let arme
// = arme_de(f)): its value is a record of that kind, or nil. A local bound otherwise (a
// loop's variable, a let of anything else) has none; a local assigned to loses its mark when
// it is written (setLocal). Without such a local the parameters' types are read from their
// declarations (nil slotTypes).
func typeSlots(p *Proc) {
	// The lets of a record-returning call, and the slots something else binds (a loop's
	// variables; a parameter's is bound by its call).
	var lets []*LetStmt
	var other []int
	walkStmts(p.Body, func(s Stmt) {
		switch s := s.(type) {
		case *LetStmt:
			if s.Slot > 0 {
				if letType(s) != nil {
					lets = append(lets, s)
				} else {
					other = append(other, s.Slot)
				}
			}
		case *ForStmt:
			other = append(other, s.KeySlot, s.ValSlot)
		}
	})
	if len(lets) == 0 {
		return
	}
	// A slot is typed when its lets agree on the kind and nothing else binds it.
	kinds := make([]*Type, len(p.Locals))
	mixed := make([]bool, len(p.Locals))
	for _, par := range p.Params {
		if par.Slot > 0 {
			mixed[par.Slot-1] = true
		}
	}
	for _, slot := range other {
		if slot > 0 {
			mixed[slot-1] = true
		}
	}
	for _, s := range lets {
		i, t := s.Slot-1, letType(s)
		if k := kinds[i]; k != nil && !sameType(k, t) {
			mixed[i] = true
		}
		kinds[i] = t
	}
	types := make([]*Type, len(p.Locals))
	for _, par := range p.Params {
		if par.Slot > 0 {
			types[par.Slot-1] = par.Type
		}
	}
	for _, s := range lets {
		if i := s.Slot - 1; !mixed[i] && s.Slot <= dirtyBits {
			types[i], s.Typed = kinds[i], true
		}
	}
	p.slotTypes = types
}

// letType is the type a let's value is known to have: the record result of the procedure
// it is one call of, else nil.
func letType(s *LetStmt) *Type {
	if s.Type != nil || s.Value == nil || s.Value.CallOf == nil {
		return nil
	}
	if t := s.Value.CallOf.Result; t != nil && t.Kind == TRecord {
		return t
	}
	return nil
}

type resolver struct {
	global map[string]Global
	uses   map[string]bool
	names  []string
	index  map[string]int  // name -> slot + 1
	bound  map[string]bool // every name the procedure binds, slot or not (nil: not kept)
}

// bind gives name a slot unless it must stay in the map.
func (r *resolver) bind(name string) {
	if r.bound != nil {
		r.bound[name] = true
	}
	if name == "" || r.index[name] > 0 || r.uses[name] || name == "__rt" {
		return
	}
	if _, g := r.global[name]; g {
		return
	}
	r.names = append(r.names, name)
	r.index[name] = len(r.names)
}

// slot is name's slot plus one, or 0 (the map).
func (r *resolver) slot(name string) int {
	if name == "" {
		return 0
	}
	return r.index[name]
}

func (r *resolver) bindBody(body []Stmt) {
	for _, s := range body {
		switch s := s.(type) {
		case *LetStmt:
			r.bind(s.Name)
		case *ForStmt:
			r.bind(s.Key)
			r.bind(s.Val)
			r.bindBody(s.Body)
		case *IfStmt:
			for _, b := range s.Blocks {
				r.bindBody(b)
			}
			r.bindBody(s.Else)
		case *WhileStmt:
			r.bindBody(s.Body)
		}
	}
}

// walkBody calls fn on every expression of body, nested blocks and template holes included.
func walkBody(body []Stmt, fn func(*Expr)) {
	for _, s := range body {
		switch s := s.(type) {
		case *LetStmt:
			walkExpr(s.Value, fn)
		case *AssignStmt:
			walkExpr(s.Value, fn)
			walkExpr(s.Obj, fn)
			walkExpr(s.Key, fn)
		case *IfStmt:
			for _, c := range s.Conds {
				walkExpr(c, fn)
			}
			for _, b := range s.Blocks {
				walkBody(b, fn)
			}
			walkBody(s.Else, fn)
		case *ForStmt:
			walkExpr(s.Coll, fn)
			walkBody(s.Body, fn)
		case *WhileStmt:
			walkExpr(s.Cond, fn)
			walkBody(s.Body, fn)
		case *ReturnStmt:
			walkExpr(s.Value, fn)
		case *RequireStmt:
			walkExpr(s.Cond, fn)
			walkTemplate(s.Msg, fn)
			walkExpr(s.MsgExpr, fn)
		case *EmitStmt:
			walkTemplate(s.Template, fn)
			walkExpr(s.Value, fn)
		case *ExprStmt:
			walkExpr(s.Value, fn)
		}
	}
}

func walkTemplate(t *Template, fn func(*Expr)) {
	if t == nil {
		return
	}
	for _, p := range t.Parts {
		walkExpr(p.Expr, fn)
	}
}

func walkExpr(x *Expr, fn func(*Expr)) {
	if x == nil {
		return
	}
	fn(x)
	walkExpr(x.RollPlus, fn)
	walkTemplate(x.Tmpl, fn)
}

// body marks the statements of body that bind locals, and resolves their expressions.
func (r *resolver) body(body []Stmt) {
	walkBody(body, r.expr)
	var mark func([]Stmt)
	mark = func(body []Stmt) {
		for _, s := range body {
			switch s := s.(type) {
			case *LetStmt:
				s.Slot = r.slot(s.Name)
			case *AssignStmt:
				s.LocalSlot = r.slot(s.Local)
			case *ForStmt:
				s.KeySlot, s.ValSlot = r.slot(s.Key), r.slot(s.Val)
				mark(s.Body)
			case *IfStmt:
				for _, b := range s.Blocks {
					mark(b)
				}
				mark(s.Else)
			case *WhileStmt:
				mark(s.Body)
			}
		}
	}
	mark(body)
}

// expr resolves the names x reads without the VM: a lone name and the names of its Fast
// code. (Nested expressions are walked by walkExpr.)
func (r *resolver) expr(x *Expr) {
	if x == nil {
		return
	}
	x.IdentSlot = r.slot(x.Ident)
	for _, n := range x.Names {
		n.Slot = r.slot(n.Name)
	}
}

// EvalSlots evaluates x as a procedure's statement does: the names of locals read from
// slots holding values (all written since the map last caught up), the others from env. It
// resolves x's names against locals first, so x must belong to no procedure. The
// differential tests compare it with Eval, which reads every name from the map.
func (m *Machine) EvalSlots(x *Expr, locals []string, values []any, env map[string]any) (any, error) {
	r := &resolver{index: map[string]int{}}
	for _, n := range locals {
		r.bind(n)
	}
	if len(r.names) != len(values) {
		return nil, Errorf("EvalSlots: %d values for the locals %v", len(values), r.names)
	}
	walkExpr(x, r.expr)
	f := &Frame{Vars: env, slots: values, names: r.names}
	for i := range values {
		if i < dirtyBits {
			f.dirty |= 1 << i
		} else {
			env[r.names[i]] = values[i]
		}
	}
	return m.eval(x, f)
}
