package runtime

// stmt is one compiled statement. exec runs it in a frame's variables; a return sets done.
type Stmt interface {
	exec(m *Machine, f *Frame) error
	pos() Pos
}

type StmtBase struct{ At Pos }

func (s StmtBase) pos() Pos { return s.At }

type LetStmt struct {
	StmtBase
	Name  string
	Type  *Type
	Value *Expr
}

type AssignStmt struct {
	StmtBase
	Local     string // a local variable, or
	Obj       *Expr  // the record whose field is set
	Field     string
	Key       *Expr // a map entry's computed key (m[k] = …)
	FieldType *Type
	Op        string
	Value     *Expr
	LocalType *Type
}

type IfStmt struct {
	StmtBase
	Conds  []*Expr
	Blocks [][]Stmt
	Else   []Stmt
}

type ForStmt struct {
	StmtBase
	Key, Val string
	Coll     *Expr
	Body     []Stmt
}

type WhileStmt struct {
	StmtBase
	Cond *Expr
	Body []Stmt
}

type ReturnStmt struct {
	StmtBase
	Value *Expr
}

type RequireStmt struct {
	StmtBase
	Cond    *Expr
	Msg     *Template
	MsgExpr *Expr
}

type EmitStmt struct {
	StmtBase
	Template *Template
	Value    *Expr
}

type ExprStmt struct {
	StmtBase
	Value *Expr
}
