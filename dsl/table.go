package dsl

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"rulesh/dsl/syntax"
	"rulesh/stdlib/dice"
	"rulesh/stdlib/tables"
)

// Table is a lookup table. It is called like a procedure (its Proc gives it parameters,
// frames and arity checks): the first parameter is the row key; with `columns`, the first
// chooses the column and the second is the row key. Other parameters are inputs the rows'
// bounds and values may use. A table declared with `roll DICE` rolls its own key when
// called without one.
type Table struct {
	Name   string
	Pos    Pos
	Proc   *Proc
	Roll   *dice.Expr
	Ratio  bool
	Ratios []tables.Ratio
	Cols   []*Expr
	Rows   []*TableRow
	Below  *Expr // ratio tables: odds under the first column
	// index finds a row without walking the table, when every key is a constant.
	Index *RowIndex
}

// TableRow is one row: a key (exact values, a band, or else) and its value.
type TableRow struct {
	Pos   Pos
	Exact []*Expr
	Band  *BandKey
	Else  bool
	Value *Expr
}

type BandKey struct {
	Lo, Hi         *Expr
	LoOpen, HiOpen bool
}

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

// tableStmt is the body of a table's procedure: find the row, evaluate its value.
type TableStmt struct {
	StmtBase
	t *Table
}

func (c *compiler) tableDecl(ta *syntax.TableDecl) {
	t := &Table{Name: ta.Name, Pos: syntax.PosOf(ta.Pos)}
	p := &Proc{Name: ta.Name, Verb: "table", Pos: t.Pos, Index: len(c.prog.Procs)}
	if !c.declare(ta.Name, ta.Pos, p) {
		return
	}
	t.Proc = p
	p.Table = t
	c.prog.Procs = append(c.prog.Procs, p)
	c.prog.Tables = append(c.prog.Tables, t)
	c.tableASTs = append(c.tableASTs, ta)
}

// tableBody compiles a table's rows once every global is declared.
func (c *compiler) tableBody(t *Table, ta *syntax.TableDecl) {
	p := t.Proc
	if ta.Roll != "" {
		de, err := dice.Parse(ta.Roll, c.prog.Dice())
		if err != nil {
			c.errorf(ta.Pos, "table "+t.Name+": dice "+ta.Roll+": "+err.Error(), "")
			return
		}
		t.Roll = de
	}
	sc := NewScope(ProcScope)
	for _, a := range ta.Params {
		if !c.CheckName(a.Name, a.Pos) {
			continue
		}
		c.CheckShadow(a.Name, a.Pos)
		par := &Param{Name: a.Name, Pos: syntax.PosOf(a.Pos), Type: c.resolveType(a.Type)}
		if a.Default != nil {
			par.Default = c.compileExpr(a.Default, sc, par.Type)
		}
		if par.Default == nil {
			p.MinArg = len(p.Params) + 1
		}
		sc.Vars[a.Name] = par.Type
		p.Params = append(p.Params, par)
	}
	if t.Roll != nil {
		// The key parameter of a rolled table defaults to a roll of its dice.
		if len(p.Params) == 0 {
			p.Params = append(p.Params, &Param{Name: "valeur", Pos: t.Pos, Type: AnyType})
			sc.Vars["valeur"] = AnyType
		}
		key := p.Params[t.KeyIndex(ta)]
		key.Default = &Expr{Pos: t.Pos, Text: ta.Roll, RollOf: t.Roll, Type: rollType}
		p.MinArg = min(p.MinArg, t.KeyIndex(ta))
	}
	if len(p.Params) == 0 {
		c.errorf(ta.Pos, "table "+t.Name+" has no key", "give it a parameter, table "+t.Name+"(valeur), or roll its key: table "+t.Name+" roll 3d6")
		return
	}
	sc.proc = p
	for _, r := range ta.Rows {
		switch {
		case r.Columns != nil:
			c.tableColumns(t, r.Columns, sc)
		case r.Key != nil:
			c.tableRow(t, r, sc)
		}
	}
	if (t.Ratio || t.Cols != nil) && len(p.Params) < 2 {
		c.errorf(ta.Pos, "table "+t.Name+" has columns, so it needs two keys", "table "+t.Name+"(colonne, ligne)")
	}
	p.Body = []Stmt{&TableStmt{StmtBase{t.Pos}, t}}
	c.checkTable(t)
	t.Index = newRowIndex(t.Rows)
}

// keyIndex is the position of the row key among the parameters.
func (t *Table) KeyIndex(ta *syntax.TableDecl) int {
	for _, r := range ta.Rows {
		if r.Columns != nil && len(t.Proc.Params) > 1 {
			return 1
		}
	}
	return 0
}

func (c *compiler) tableColumns(t *Table, ca *syntax.Columns, sc *scope) {
	if t.Ratio || t.Cols != nil {
		c.errorf(ca.Pos, "columns are declared twice", "")
		return
	}
	t.Ratio = ca.Ratio
	for _, item := range ca.Items {
		if ca.Ratio {
			text, _ := c.exprText(item)
			r, err := tables.ParseRatio(text)
			if err != nil {
				c.errorf(item.Pos, err.Error(), "ratio columns are written 1:3, 1:2, 1:1, 3:2 …")
				continue
			}
			if n := len(t.Ratios); n > 0 && r.Value() <= t.Ratios[n-1].Value() {
				c.errorf(item.Pos, "ratio columns must increase: "+r.String()+" comes after "+t.Ratios[n-1].String(), "")
			}
			t.Ratios = append(t.Ratios, r)
			continue
		}
		if x := c.compileExpr(item, sc, nil); x != nil {
			t.Cols = append(t.Cols, x)
		}
	}
}

func (c *compiler) tableRow(t *Table, r *syntax.Row, sc *scope) {
	row := &TableRow{Pos: syntax.PosOf(r.Pos)}
	toks := r.Key.Toks
	if r.Value == nil {
		c.errorf(r.Pos, "this row has no value", "write key : value")
		return
	}
	row.Value = c.compileExpr(r.Value, sc, nil)
	if len(toks) == 1 && toks[0].Type == syntax.TokIdent {
		switch toks[0].Value {
		case "else":
			row.Else = true
			t.Rows = append(t.Rows, row)
			return
		case "below":
			if !t.Ratio {
				c.errorf(r.Pos, "below is for ratio columns", "")
			}
			t.Below = row.Value
			return
		}
	}
	if len(toks) == 1 && toks[0].Value == "*" {
		row.Band = &BandKey{}
		t.Rows = append(t.Rows, row)
		return
	}
	src := c.source(r.Key.Pos.Filename)
	text := func(ts []lexer.Token) (*Expr, bool) {
		if len(ts) == 0 {
			return nil, true
		}
		first, last := ts[0], ts[len(ts)-1]
		s := string(src[first.Pos.Offset : last.Pos.Offset+len(last.Value)])
		// A bare name that means nothing here is a symbol: a face of a symbolic die.
		if len(ts) == 1 && first.Type == syntax.TokIdent {
			if _, local := sc.lookup(s); !local {
				if _, global := c.prog.Globals[s]; !global {
					return &Expr{Pos: syntax.PosOf(first.Pos), Text: s, IsLit: true, Lit: s, Type: StringType, Start: first.Pos}, true
				}
			}
		}
		x := c.CompileText(s, first.Pos, sc, nil)
		return x, x != nil
	}
	// A band: lo .. hi, with optional ( [ ) ] for open or closed ends.
	if at := topLevel(toks, ".."); at >= 0 {
		b := &BandKey{}
		lo, hi := toks[:at], toks[at+1:]
		if len(lo) > 0 && (lo[0].Value == "(" || lo[0].Value == "[") && len(hi) > 0 &&
			(hi[len(hi)-1].Value == ")" || hi[len(hi)-1].Value == "]") && spans(toks) {
			b.LoOpen = lo[0].Value == "("
			b.HiOpen = hi[len(hi)-1].Value == ")"
			lo, hi = lo[1:], hi[:len(hi)-1]
		}
		var ok1, ok2 bool
		b.Lo, ok1 = text(lo)
		b.Hi, ok2 = text(hi)
		if !ok1 || !ok2 {
			return
		}
		if b.Lo == nil && b.Hi == nil {
			c.errorf(r.Pos, "a band needs at least one bound", "")
			return
		}
		row.Band = b
		t.Rows = append(t.Rows, row)
		return
	}
	// One-sided: < 3, <= 3, > 3, >= 3.
	if op := toks[0].Value; toks[0].Type == syntax.TokOp && (op == "<" || op == "<=" || op == ">" || op == ">=") {
		x, ok := text(toks[1:])
		if !ok || x == nil {
			return
		}
		b := &BandKey{}
		switch op {
		case "<":
			b.Hi, b.HiOpen = x, true
		case "<=":
			b.Hi = x
		case ">":
			b.Lo, b.LoOpen = x, true
		case ">=":
			b.Lo = x
		}
		row.Band = b
		t.Rows = append(t.Rows, row)
		return
	}
	for _, part := range splitTop(toks) {
		x, ok := text(part)
		if !ok {
			return
		}
		if x != nil {
			row.Exact = append(row.Exact, x)
		}
	}
	t.Rows = append(t.Rows, row)
}

// topLevel finds a token at bracket depth 0 (ignoring the brackets of an interval).
func topLevel(toks []lexer.Token, val string) int {
	depth := 0
	for i, t := range toks {
		depth += syntax.BracketDelta(t)
		if t.Value == val && t.Type == syntax.TokOp && (depth == 0 || depth == 1 && spans(toks)) {
			return i
		}
	}
	return -1
}

// spans reports whether the first bracket of toks closes at its last token.
func spans(toks []lexer.Token) bool {
	if len(toks) < 2 || toks[0].Type != syntax.TokPunct {
		return false
	}
	depth := 0
	for i, t := range toks {
		depth += syntax.BracketDelta(t)
		if depth == 0 {
			return i == len(toks)-1
		}
	}
	return false
}

func splitTop(toks []lexer.Token) [][]lexer.Token {
	var out [][]lexer.Token
	depth, start := 0, 0
	for i, t := range toks {
		depth += syntax.BracketDelta(t)
		if t.Type == syntax.TokComma && depth == 0 {
			out = append(out, toks[start:i])
			start = i + 1
		}
	}
	return append(out, toks[start:])
}

// checkTable reports overlapping bands, gaps between whole-number bands, duplicate keys,
// rows a rolled table can never reach, and two-dimensional rows of the wrong width.
func (c *compiler) checkTable(t *Table) {
	type seen struct {
		band tables.Band
		row  *TableRow
	}
	var bands []seen
	// One-sided bands (< 3, <= 8…) are ladders where the first row wins: only two bounded
	// bands can overlap by mistake.
	var bounded []seen
	exact := map[string]*TableRow{}
	ncols := len(t.Cols) + len(t.Ratios)
	// The rolled key's range, when its distribution could be worked out: otherwise (too
	// large for exact odds, or symbols) nothing is said about reachability.
	var lo, hi int
	known := false
	if t.Roll != nil {
		if d, err := t.Roll.Distribution(); err == nil && d.Syms == nil {
			lo, hi, known = d.Min, d.Max(), true
		}
	}
	reach := func(b tables.Band) bool { return bandMeetsRange(b, lo, hi) }
	for _, r := range t.Rows {
		if ncols > 0 && r.Value != nil && r.Value.Prog != nil {
			if n, ok := listLen(r.Value); ok && n != ncols {
				c.Diags = append(c.Diags, &Diagnostic{Pos: r.Value.Pos, Summary: fmt.Sprintf("this row has %d values for %d columns", n, ncols)})
			}
		}
		for _, x := range r.Exact {
			if !x.IsLit {
				continue
			}
			key := Repr(x.Lit)
			if f, ok := Number(x.Lit); ok {
				key = strconv.FormatFloat(f, 'g', -1, 64)
			}
			if prev := exact[key]; prev != nil {
				c.Diags = append(c.Diags, &Diagnostic{Pos: x.Pos, Summary: "key " + Str(x.Lit) + " is already in row " + prev.Pos.String()})
			}
			exact[key] = r
			if f, ok := Number(x.Lit); ok && known && (f < float64(lo) || f > float64(hi)) {
				c.Diags = append(c.Diags, &Diagnostic{Severity: Warning, Pos: x.Pos, Summary: fmt.Sprintf("%s can never roll %s (it gives %d to %d)", t.Roll.Src, Str(x.Lit), lo, hi)})
			}
		}
		if r.Band == nil {
			continue
		}
		b, ok := r.Band.Constant()
		if !ok || (b.Lo == nil && b.Hi == nil) {
			continue
		}
		if b.Lo != nil && b.Hi != nil {
			bounded = append(bounded, seen{b, r})
		}
		if known && !reach(b) {
			c.Diags = append(c.Diags, &Diagnostic{Severity: Warning, Pos: r.Pos, Summary: fmt.Sprintf("%s can never reach band %s (it gives %d to %d)", t.Roll.Src, b, lo, hi)})
		}
		bands = append(bands, seen{b, r})
	}
	list := make([]tables.Band, len(bounded))
	for i, s := range bounded {
		list[i] = s.band
	}
	for _, p := range tables.Overlaps(list, func(i, j int) bool { return sharedBoundary(list[i], list[j]) }) {
		first, later := bounded[p[0]], bounded[p[1]]
		c.Diags = append(c.Diags, &Diagnostic{Pos: later.row.Pos, Summary: fmt.Sprintf("band %s overlaps %s (row %s)", later.band, first.band, first.row.Pos)})
	}
	// Gaps between consecutive whole-number bands (1..3 then 5..6 leaves 4 out).
	withElse := hasElse(t)
	for i := 1; i < len(bands); i++ {
		a, b := bands[i-1].band, bands[i].band
		if a.Hi == nil || b.Lo == nil || withElse {
			continue
		}
		if isWhole(*a.Hi) && isWhole(*b.Lo) && !a.HiOpen && !b.LoOpen && *b.Lo-*a.Hi > 1 {
			c.Diags = append(c.Diags, &Diagnostic{Severity: Warning, Pos: bands[i].row.Pos,
				Summary: fmt.Sprintf("no row for %s to %s between this band and the one before", fmtNum(*a.Hi+1), fmtNum(*b.Lo-1))})
		}
		if !isWhole(*a.Hi) || !isWhole(*b.Lo) {
			if *b.Lo > *a.Hi || *b.Lo == *a.Hi && a.HiOpen && b.LoOpen {
				c.Diags = append(c.Diags, &Diagnostic{Severity: Warning, Pos: bands[i].row.Pos,
					Summary: fmt.Sprintf("no row between %s and %s", a, b)})
			}
		}
	}
}

// bandMeetsRange reports whether a band holds a whole number from lo to hi, without
// walking the range (a d100000 would make that a long loop per row).
func bandMeetsRange(b tables.Band, lo, hi int) bool {
	first := float64(lo)
	if b.Lo != nil {
		first = math.Max(first, math.Ceil(*b.Lo))
		if b.LoOpen && first == *b.Lo {
			first++
		}
	}
	last := float64(hi)
	if b.Hi != nil {
		last = math.Min(last, math.Floor(*b.Hi))
		if b.HiOpen && last == *b.Hi {
			last--
		}
	}
	return first <= last
}

// sharedBoundary: bare bands that only share an end (1 .. 1.5 then 1.5 .. 2.5) are the seeds'
// usual way to write bands; the value on the boundary goes to the first (lower) row.
func sharedBoundary(a, b tables.Band) bool {
	return a.Hi != nil && b.Lo != nil && *a.Hi == *b.Lo && (a.Lo == nil || *a.Lo < *b.Lo)
}

func hasElse(t *Table) bool {
	for _, r := range t.Rows {
		if r.Else {
			return true
		}
	}
	return false
}

func isWhole(f float64) bool { return f == math.Trunc(f) }

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func listLen(x *Expr) (int, bool) {
	t := strings.TrimSpace(x.Text)
	if !strings.HasPrefix(t, "[") || !strings.HasSuffix(t, "]") {
		return 0, false
	}
	n, depth := 0, 0
	syntax.Scan(t, func(tok lexer.Token) bool {
		d := syntax.BracketDelta(tok)
		depth += d
		switch {
		case d > 0 && depth == 1:
			n = 1
		case tok.Type == syntax.TokComma && depth == 1:
			n++
		}
		return true
	})
	return n, true
}

func (s *TableStmt) exec(m *Machine, f *Frame) error {
	t := s.t
	p := t.Proc
	col := -1
	key := f.Vars[p.Params[0].Name]
	if t.Ratio || t.Cols != nil {
		key = f.Vars[p.Params[1].Name]
		cv := f.Vars[p.Params[0].Name]
		var err error
		if col, err = m.tableColumn(t, cv); err != nil {
			return err
		}
		if col < 0 {
			if t.Below == nil {
				return &RuntimeError{Pos: t.Pos, Msg: fmt.Sprintf("table %s: odds %s are below the first column %s", t.Name, Str(cv), t.Ratios[0])}
			}
			v, err := m.Eval(t.Below, f.Vars)
			f.result, f.done = v, true
			m.trace(fmt.Sprintf("table %s: below the first column → %s", t.Name, m.short(v)))
			return err
		}
	}
	r, err := m.findRow(t, key, f)
	if err != nil {
		return err
	}
	if r != nil {
		v, err := m.Eval(r.Value, f.Vars)
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
		want, err := m.Eval(c, m.Globals)
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
			bv, err := m.Eval(p.e, f.Vars)
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
		want, err := m.Eval(x, f.Vars)
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

// TableDist is the distribution of a rolled table's results, row by row, when its keys and
// values are constants: what `rulesh prob -f FILE TABLE` shows.
func (p *Program) TableDist(name string) (*dice.Dist, error) {
	pr := p.Proc(name)
	if pr == nil || pr.Table == nil {
		return nil, fmt.Errorf("%s is not a table", name)
	}
	t := pr.Table
	if t.Roll == nil {
		return nil, fmt.Errorf("table %s does not roll its own key", name)
	}
	d, err := t.Roll.Distribution()
	if err != nil {
		// The table's roll is read from the rule file: its place there says more than a
		// column inside the notation.
		msg := err.Error()
		if de, ok := err.(*dice.Error); ok {
			msg = de.Msg
		}
		return nil, fmt.Errorf("%s: table %s: %s", t.Pos, name, msg)
	}
	var labels []string
	index := map[string]int{}
	weights := map[int]*bigInt{}
	for i, w := range d.W {
		if w.Sign() == 0 {
			continue
		}
		v := d.Min + i
		var key any = v
		if d.Syms != nil {
			key = d.Syms[v-1]
		}
		label := ""
		found := false
		r, err := staticRow(t, key)
		if err != nil {
			return nil, fmt.Errorf("table %s: %v", name, err)
		}
		if r != nil {
			if !r.Value.IsLit {
				return nil, fmt.Errorf("table %s: row %s has a computed value; exact odds need constant rows", name, r.Pos)
			}
			label, found = Str(r.Value.Lit), true
		}
		if !found {
			label = "(no row)"
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
			return false, fmt.Errorf("row %s has computed bounds", r.Pos)
		}
		v, isNum := Number(key)
		return isNum && b.Contains(v), nil
	}
	for _, x := range r.Exact {
		if !x.IsLit {
			return false, fmt.Errorf("row %s has a computed key", r.Pos)
		}
		if equalKeys(key, x.Lit) {
			return true, nil
		}
	}
	return false, nil
}
