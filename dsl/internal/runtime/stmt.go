package runtime

// Stmt is one compiled statement, built by the checker. exec runs it in a frame's variables;
// a return sets done. The interface is sealed: the statements are the types of this file.
type Stmt interface {
	exec(m *Machine, f *Frame) error
	pos() Pos
}

// StmtBase gives a statement its position, for errors and the step charged before it runs.
type StmtBase struct{ At Pos }

func (s StmtBase) pos() Pos { return s.At }

// LetStmt is `let Name[: Type] = Value`: a new local, conformed to Type when one is given.
type LetStmt struct {
	StmtBase
	Name  string
	Type  *Type
	Value *Expr
	Slot  int // Name's slot plus one (0: the frame's map)
	// Typed says that the value is of the local's slot type (Proc.slotTypes): the frame
	// marks it so once bound, as a parameter's conformed argument (Frame.ConformedArgs).
	Typed bool
}

// AssignStmt is `target op value` with op one of = += -= *=, the target a local or a record's
// field or a map's entry.
type AssignStmt struct {
	StmtBase
	Local     string // a local variable, or
	Obj       *Expr  // the record whose field is set
	Field     string
	Key       *Expr // a map entry's computed key (m[k] = …)
	FieldType *Type // the field's declared type, or a typed map's value type: the value must conform to it
	// ObjKind is the record kind the checker gave Obj when Field is that kind's field:
	// a record of that kind has the field, of type FieldType, without a look-up by name.
	ObjKind *Kind
	// ObjEntity says Obj is the name of an entity of kind ObjKind: its record is of that
	// kind, and its kind is not read from the record at each write.
	ObjEntity bool
	KeyType   *Type // a typed map's key type (an entry of one is set), else nil
	Op        string
	Value     *Expr
	LocalType *Type // the local's declared type (nil or any: not checked at run time)
	LocalSlot int   // Local's slot plus one (0: the frame's map)
}

// IfStmt is if / else if / else: Blocks[i] runs when Conds[i] is the first true one, Else when
// none is.
type IfStmt struct {
	StmtBase
	Conds  []*Expr
	Blocks [][]Stmt
	Else   []Stmt
}

// ForStmt is `for [Key,] Val in Coll`: over a list (Key the index), a map or record (Key the
// key, in sorted order) or a count n (1 to n), at most MaxLoopIterations times.
type ForStmt struct {
	StmtBase
	Key, Val         string
	KeySlot, ValSlot int // their slots plus one (0: the frame's map)
	Coll             *Expr
	Body             []Stmt
}

// WhileStmt is `while Cond`, its iterations counted against MaxLoopIterations.
type WhileStmt struct {
	StmtBase
	Cond *Expr
	Body []Stmt
}

// ReturnStmt ends the procedure, with Value's result when there is one (nil Value: none).
type ReturnStmt struct {
	StmtBase
	Value *Expr
	// FieldBy is the slot plus one whose typed mark (Frame.typed) proves that the value,
	// when not nil, is of its procedure's result type, with no check: the value reads a
	// field of that type of the record the slot holds (Expr.FieldOf). 0: none.
	FieldBy int
}

// resultKnown reports whether the value r returned in frame f is of its procedure's
// result type (FieldBy): r is nil for the result of a table's row.
func (r *ReturnStmt) resultKnown(f *Frame) bool {
	return r != nil && r.FieldBy > 0 && f.typed>>(r.FieldBy-1)&1 != 0
}

// BreakStmt leaves the innermost loop; ContinueStmt starts its next iteration. Both end the
// running blocks as a return does (Frame.done), with Frame.jump telling the loop which.
type BreakStmt struct{ StmtBase }

// ContinueStmt: see BreakStmt.
type ContinueStmt struct{ StmtBase }

// RequireStmt is `require Cond else message`: when Cond is false the call fails with the
// message, a template (Msg) or any other expression (MsgExpr, printed).
type RequireStmt struct {
	StmtBase
	Cond    *Expr
	Msg     *Template
	MsgExpr *Expr
}

// EmitStmt is `emit value`: a line handed to Machine.Emit, a template rendered or any other
// value printed.
type EmitStmt struct {
	StmtBase
	Template *Template
	Value    *Expr
}

// ExprStmt is an expression run for its effects (a call), its value dropped.
type ExprStmt struct {
	StmtBase
	Value *Expr
}
