package runtime

import (
	"fmt"
	"maps"
	"math"
	"math/big"
	"strings"

	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/dice"
	"rulesh/stdlib/tables"
)

// Table is a lookup table. It is called like a procedure (its Proc gives it parameters,
// frames and arity checks): the first parameter is the row key; with `columns`, the first
// chooses the column and the second is the row key. Other parameters are inputs the rows'
// bounds and values may use. A table declared with `roll DICE` rolls its own key when
// called without one.
// The checker builds it; it is only read at run time.
type Table struct {
	Name string
	Pos  Pos
	Proc *Proc
	Roll *dice.Expr // the dice of `roll DICE`, or nil
	// Plus is what the roll adds to its dice, a whole number (roll 2d6 + stat - 1: the
	// expression + stat - 1), or nil.
	Plus *Expr
	// PlusExact says Plus reads only numbers, options, consts and the table's parameters:
	// TableDist adds it to the dice's distribution; other terms (dice, calls) leave the
	// odds to the analysis engine.
	PlusExact bool
	Key       int            // the row key's position among the parameters
	Ratio     bool           // the columns are odds (3:2), chosen by a ratio given at the call
	Ratios    []tables.Ratio // ratio tables: the columns, increasing
	Cols      []*Expr        // other column tables: each column's key
	Rows      []*TableRow
	Below     *Expr // ratio tables: odds under the first column
	Above     *Expr // ratio tables: odds over the last column (nil: the last column)
	// Index finds a row without walking the table, when every key is a constant (nil
	// otherwise).
	Index *RowIndex
}

// PlusText is what the roll adds to its dice as written: + stat - 1.
func (t *Table) PlusText() string {
	if t.Plus == nil {
		return ""
	}
	return strings.TrimPrefix(t.Plus.Text, "0 ")
}

// RollPlus is what a rolled table adds to its dice (plus, evaluated in env): a value that is
// not a whole number is an error.
func (m *Machine) RollPlus(plus *Expr, env map[string]any) (int, error) {
	return m.rollPlus(plus, &Frame{Vars: env})
}

// rollPlus is RollPlus in a frame.
func (m *Machine) rollPlus(plus *Expr, f *Frame) (int, error) {
	v, err := m.eval(plus, f)
	if err != nil {
		return 0, err
	}
	n, ok := Number(v)
	if !ok || n != math.Trunc(n) || math.Abs(n) > 1<<53 {
		return 0, &RuntimeError{Pos: plus.Pos, Msg: fmt.Sprintf("the roll adds %s, which must be a whole number, got %s", strings.TrimPrefix(plus.Text, "0 "), Repr(v))}
	}
	return int(n), nil
}

// TableRow is one row: a key (exact values, a band, or else) and its value.
type TableRow struct {
	Pos   Pos
	Exact []*Expr
	Band  *BandKey
	Else  bool
	Value *Expr
}

// BandKey is a row key that is a band, Lo .. Hi, either end open (excluded) or absent
// (unbounded). The bounds may be computed.
type BandKey struct {
	Lo, Hi         *Expr
	LoOpen, HiOpen bool
}

// Constant gives the band as stdlib/tables compares it when both bounds are number literals;
// ok is false when a bound is computed (or NaN), and the band is decided at the lookup.
func (b *BandKey) Constant() (tables.Band, bool) {
	var out tables.Band
	out.LoOpen, out.HiOpen = b.LoOpen, b.HiOpen
	for _, p := range []struct {
		e   *Expr
		dst **float64
	}{{b.Lo, &out.Lo}, {b.Hi, &out.Hi}} {
		if p.e == nil {
			continue
		}
		if !p.e.IsLit {
			return out, false
		}
		f, ok := Number(p.e.Lit)
		if !ok || math.IsNaN(f) {
			return out, false // decided when looked up, where NaN is an error
		}
		*p.dst = &f
	}
	return out, true
}

// Number is a number's value as a float, a roll standing for its total; ok is false for any
// other value.
func Number(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case float64:
		return x, true
	case *Roll:
		return float64(x.Total), true
	}
	return 0, false
}

// TableStmt is the body of a table's procedure: find the row, evaluate its value.
type TableStmt struct {
	StmtBase
	Table *Table
}

// KeyIndex is the position of the row key among the parameters: 1 when a column is chosen
// first, the last when the roll adds terms to its dice, else 0. Read by the checker, which
// passes the declaration: the one place this package reads the syntax tree.
func (t *Table) KeyIndex(ta *syntax.TableDecl) int {
	if t.Plus != nil && len(t.Proc.Params) > 0 {
		return len(t.Proc.Params) - 1 // roll 1d6 + m: the key comes after the parameters
	}
	for _, r := range ta.Rows {
		if r.Columns != nil && len(t.Proc.Params) > 1 {
			return 1
		}
	}
	return 0
}

func (s *TableStmt) exec(m *Machine, f *Frame) error {
	t := s.Table
	p := t.Proc
	col := -1
	key := f.local(p.Params[t.Key].Slot, p.Params[t.Key].Name)
	if t.Ratio || t.Cols != nil {
		key = f.local(p.Params[1].Slot, p.Params[1].Name)
		cv := f.local(p.Params[0].Slot, p.Params[0].Name)
		var err error
		if col, err = m.tableColumn(t, cv); err != nil {
			return err
		}
		if col < 0 {
			if t.Below == nil {
				return &RuntimeError{Pos: t.Pos, Msg: fmt.Sprintf("table %s: odds %s are below the first column %s", t.Name, Str(cv), t.Ratios[0])}
			}
			v, err := m.eval(t.Below, f)
			f.result, f.done = v, true
			m.trace(fmt.Sprintf("table %s: below the first column → %s", t.Name, m.short(v)))
			return err
		}
		if t.Above != nil {
			if odds, _ := Number(cv); tables.Over(t.Ratios, odds, 1) {
				v, err := m.eval(t.Above, f)
				f.result, f.done = v, true
				m.trace(fmt.Sprintf("table %s: above the last column → %s", t.Name, m.short(v)))
				return err
			}
		}
	}
	r, err := m.findRow(t, key, f)
	if err != nil {
		return err
	}
	if r != nil {
		v, err := m.eval(r.Value, f)
		if err != nil {
			return err
		}
		if col >= 0 {
			list, isList := v.([]any)
			if !isList || col >= len(list) {
				return &RuntimeError{Pos: r.Pos, Msg: fmt.Sprintf("table %s: row has no value for column %d", t.Name, col+1)}
			}
			v = list[col]
		}
		if m.Trace != nil {
			where := ""
			if col >= 0 {
				where = fmt.Sprintf(" column %d", col+1)
			}
			m.trace(fmt.Sprintf("table %s[%s]%s (line %d) → %s", t.Name, Str(key), where, r.Pos.Line, m.short(v)))
		}
		f.result, f.done = v, true
		return nil
	}
	return &RuntimeError{Pos: t.Pos, Msg: fmt.Sprintf("table %s has no row for %s", t.Name, Repr(key))}
}

// findRow returns the first row whose key matches, or nil. With constant keys the index
// answers at once; otherwise the rows are tried in order.
func (m *Machine) findRow(t *Table, key any, f *Frame) (*TableRow, error) {
	if k, ok := key.(float64); ok && math.IsNaN(k) {
		// NaN compares false both ways: every band would hold it.
		return nil, &RuntimeError{Pos: t.Pos, Msg: "table " + t.Name + ": the key is NaN, not a number"}
	}
	if t.Index != nil {
		// One step: a map lookup or a binary search.
		if err := m.chargeAt(t.Pos, 1); err != nil {
			return nil, err
		}
		if i := t.Index.lookup(key); i >= 0 {
			return t.Rows[i], nil
		}
		return nil, nil
	}
	for _, r := range t.Rows {
		if err := m.chargeAt(t.Pos, 1); err != nil {
			return nil, err
		}
		ok, err := m.rowMatches(r, key, f)
		if err != nil || ok {
			return r, err
		}
	}
	return nil, nil
}

func (m *Machine) tableColumn(t *Table, cv any) (int, error) {
	if t.Ratio {
		v, ok := Number(cv)
		if !ok {
			return 0, &RuntimeError{Pos: t.Pos, Msg: fmt.Sprintf("table %s: the odds must be a number, got %s", t.Name, Repr(cv))}
		}
		return tables.Column(t.Ratios, v, 1), nil
	}
	for i, c := range t.Cols {
		want, err := m.Eval(c, m.globals)
		if err != nil {
			return 0, err
		}
		if equalKeys(cv, want) {
			return i, nil
		}
	}
	return 0, &RuntimeError{Pos: t.Pos, Msg: fmt.Sprintf("table %s has no column %s", t.Name, Repr(cv))}
}

func (m *Machine) rowMatches(r *TableRow, key any, f *Frame) (bool, error) {
	if r.Else {
		return true, nil
	}
	if r.Band != nil {
		v, ok := Number(key)
		if !ok {
			return false, nil
		}
		var b tables.Band
		b.LoOpen, b.HiOpen = r.Band.LoOpen, r.Band.HiOpen
		for _, p := range []struct {
			e   *Expr
			dst **float64
		}{{r.Band.Lo, &b.Lo}, {r.Band.Hi, &b.Hi}} {
			if p.e == nil {
				continue
			}
			bv, err := m.eval(p.e, f)
			if err != nil {
				return false, err
			}
			n, ok := Number(bv)
			if !ok || math.IsNaN(n) {
				// NaN compares false both ways: a band with it would hold every key.
				return false, &RuntimeError{Pos: p.e.Pos, Msg: "a band's bound must be a number, got " + Repr(bv)}
			}
			*p.dst = &n
		}
		return b.Contains(v), nil
	}
	for _, x := range r.Exact {
		want, err := m.eval(x, f)
		if err != nil {
			return false, err
		}
		if equalKeys(key, want) {
			return true, nil
		}
	}
	return false, nil
}

func equalKeys(a, b any) bool {
	if r, ok := a.(*Roll); ok {
		if s := r.Symbol(); s != "" {
			a = s
		} else {
			a = r.Total
		}
	}
	x, xn := Number(a)
	y, yn := Number(b)
	if xn && yn {
		return x == y
	}
	return a == b
}

// TableDist is the distribution of a rolled table's results, row by row: what `rulesh prob
// -f FILE TABLE` shows. args are the parameters the roll's modifiers read (`prob 'coup(2)'`
// for roll 1d6 + m), in order; for a table with columns, the one argument is the column
// (`prob 'combats(1:1)'`: odds as a number or a ratio N:M, or a column's value). One-column
// rows need constant values; a two-dimensional row's list is evaluated for each roll, with
// the column and the roll as its parameters.
func (p *Program) TableDist(name string, args ...any) (*dice.Dist, error) {
	return p.TableDistSet(nil, name, args...)
}

// TableDistSet is TableDist with options set to other values than their defaults (what
// the roll adds may read them).
func (p *Program) TableDistSet(options map[string]any, name string, args ...any) (*dice.Dist, error) {
	return p.TableDistDice(options, nil, name, args...)
}

// TableDistDice is TableDistSet with the table's roll rolling the dice of own in place of
// the Program's (the dice made from rules computed for options).
func (p *Program) TableDistDice(options map[string]any, own map[*dice.Die]*dice.Die, name string, args ...any) (*dice.Dist, error) {
	pr := p.Proc(name)
	if pr == nil || pr.Table == nil {
		return nil, Errorf("%s is not a table", name)
	}
	t := pr.Table
	if t.Roll == nil {
		return nil, Errorf("table %s does not roll its own key", name)
	}
	if own != nil {
		if roll := t.Roll.WithDice(own); roll != t.Roll {
			c := *t
			c.Roll = roll
			t = &c
		}
	}
	if t.Ratio || t.Cols != nil {
		return p.columnDist(t, args)
	}
	inputs := 0 // the parameters before the key, which only a roll that adds terms reads
	if t.Plus != nil {
		inputs = t.Key
	}
	if len(args) > inputs {
		return nil, Errorf("table %s's roll reads %d parameters: its odds take %d arguments, not %d", name, inputs, inputs, len(args))
	}
	plus := 0
	if t.Plus != nil {
		if !t.PlusExact {
			return nil, Errorf("table %s adds %s to its dice: its odds are the analysis engine's (rulesh prob '%s()')", name, t.PlusText(), name)
		}
		m, err := NewMachine(p, nil, options)
		if err != nil {
			return nil, Errorf("table %s: %v", name, err)
		}
		env := maps.Clone(m.globals)
		for i, par := range pr.Params[:t.Key] {
			switch {
			case i < len(args):
				env[par.Name] = args[i]
			case par.Default != nil:
				if env[par.Name], err = m.Eval(par.Default, env); err != nil {
					return nil, Errorf("table %s: %v", name, err)
				}
			default:
				return nil, Errorf("table %s adds %s to its roll: give %s, as in %s(%s)", name, t.PlusText(), par.Name, name, strings.Join(ParamNames(pr.Params[:t.Key]), ", "))
			}
		}
		if plus, err = m.RollPlus(t.Plus, env); err != nil {
			return nil, Errorf("table %s: %v", name, err)
		}
	}
	return t.rowDist(plus, func(r *TableRow, _ any) (string, error) {
		if !r.Value.IsLit {
			return "", Errorf("table %s: row %s has a computed value; exact odds need constant rows", name, r.Pos)
		}
		return Str(r.Value.Lit), nil
	})
}

// rowDist rolls the table's dice, adds plus, and gathers the faces by the label value gives
// each face's row (the key is the number rolled, or the symbol).
func (t *Table) rowDist(plus int, value func(r *TableRow, key any) (string, error)) (*dice.Dist, error) {
	d, err := t.Roll.Distribution()
	if err != nil {
		// The table's roll is read from the rule file: its place there says more than a
		// column inside the notation.
		msg := err.Error()
		if de, ok := err.(*dice.Error); ok {
			msg = de.Msg
		}
		return nil, Errorf("%s: table %s: %s", t.Pos, t.Name, msg)
	}
	var labels []string
	index := map[string]int{}
	weights := map[int]*bigInt{}
	for i, w := range d.W {
		if w.Sign() == 0 {
			continue
		}
		v := d.Min + i
		var key any = v + plus
		if d.Syms != nil {
			key = d.Syms[v-1]
		}
		r, err := staticRow(t, key)
		if err != nil {
			return nil, Errorf("table %s: %v", t.Name, err)
		}
		label := "(no row)"
		if r != nil {
			if label, err = value(r, key); err != nil {
				return nil, err
			}
		}
		k, ok := index[label]
		if !ok {
			labels = append(labels, label)
			k = len(labels)
			index[label] = k
			weights[k] = newBig()
		}
		weights[k].Add(weights[k].Int, w)
	}
	out := &dice.Dist{Min: 1, Den: d.Den, Syms: labels}
	for k := 1; k <= len(labels); k++ {
		out.W = append(out.W, weights[k].Int)
	}
	return out, nil
}

// columnDist is TableDist for a table with columns: args is the column alone.
func (p *Program) columnDist(t *Table, args []any) (*dice.Dist, error) {
	example := ""
	if t.Ratio {
		example = t.Ratios[0].String()
	} else {
		example = t.Cols[0].Text
	}
	if len(args) != 1 {
		return nil, Errorf("table %s has columns: its odds take one argument, the column, as in %s(%s), not %d", t.Name, t.Name, example, len(args))
	}
	m, err := NewMachine(p, nil, nil)
	if err != nil {
		return nil, err
	}
	cv := args[0]
	col := -1
	if t.Ratio {
		if s, ok := cv.(string); ok {
			r, err := tables.ParseRatio(strings.Replace(s, "/", ":", 1))
			if err != nil {
				return nil, Errorf("table %s: the column is odds, a number or a ratio such as %s, got %s", t.Name, example, Repr(cv))
			}
			cv = r.Value()
		}
		odds, ok := Number(cv)
		if !ok {
			return nil, Errorf("table %s: the column is odds, a number or a ratio such as %s, got %s", t.Name, example, Repr(cv))
		}
		col = tables.Column(t.Ratios, odds, 1)
		var whole *Expr // below or above: one value for every roll
		switch {
		case col < 0 && t.Below == nil:
			return nil, Errorf("table %s: odds %s are below the first column %s", t.Name, Str(args[0]), t.Ratios[0])
		case col < 0:
			whole = t.Below
		case t.Above != nil && tables.Over(t.Ratios, odds, 1):
			whole = t.Above
		}
		if whole != nil {
			env := m.columnEnv(t, cv, nil)
			v, err := m.Eval(whole, env)
			if err != nil {
				return nil, Errorf("table %s: %v", t.Name, err)
			}
			return &dice.Dist{Min: 1, Den: big.NewInt(1), W: []*big.Int{big.NewInt(1)}, Syms: []string{Str(v)}}, nil
		}
	} else {
		var names []string
		for i, c := range t.Cols {
			want, err := m.Eval(c, m.globals)
			if err != nil {
				return nil, Errorf("table %s: column %s: %v", t.Name, c.Text, err)
			}
			names = append(names, Str(want))
			if col < 0 && equalKeys(cv, want) {
				col = i
			}
		}
		if col < 0 {
			return nil, Errorf("table %s has no column %s: its columns are %s", t.Name, Repr(cv), strings.Join(names, ", "))
		}
	}
	env := m.columnEnv(t, cv, nil) // one frame for every face: only the row key changes
	return t.rowDist(0, func(r *TableRow, key any) (string, error) {
		env[t.Proc.Params[1].Name] = key
		v, err := m.Eval(r.Value, env)
		if err != nil {
			return "", Errorf("table %s: %v", t.Name, err)
		}
		list, isList := v.([]any)
		if !isList || col >= len(list) {
			return "", Errorf("table %s: row %s has no value for column %d", t.Name, r.Pos, col+1)
		}
		return Str(list[col]), nil
	})
}

// columnEnv is the frame of a two-dimensional table's row: the globals, the column and the
// row key.
func (m *Machine) columnEnv(t *Table, col, key any) map[string]any {
	env := maps.Clone(m.globals)
	env[t.Proc.Params[0].Name] = col
	env[t.Proc.Params[1].Name] = key
	return env
}

// ParamNames lists parameters' names in order.
func ParamNames(ps []*Param) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}

// staticRow is findRow for constant rows, without a Machine.
func staticRow(t *Table, key any) (*TableRow, error) {
	if t.Index != nil {
		if i := t.Index.lookup(key); i >= 0 {
			return t.Rows[i], nil
		}
		return nil, nil
	}
	for _, r := range t.Rows {
		ok, err := staticMatch(r, key)
		if err != nil || ok {
			return r, err
		}
	}
	return nil, nil
}

func staticMatch(r *TableRow, key any) (bool, error) {
	if r.Else {
		return true, nil
	}
	if r.Band != nil {
		b, ok := r.Band.Constant()
		if !ok {
			return false, Errorf("row %s has computed bounds", r.Pos)
		}
		v, isNum := Number(key)
		return isNum && b.Contains(v), nil
	}
	for _, x := range r.Exact {
		if !x.IsLit {
			return false, Errorf("row %s has a computed key", r.Pos)
		}
		if equalKeys(key, x.Lit) {
			return true, nil
		}
	}
	return false, nil
}
