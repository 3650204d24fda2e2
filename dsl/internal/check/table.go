package check

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"rulesh/dsl/internal/exprx"
	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/dice"
	"rulesh/stdlib/tables"
)

func (c *Compiler) tableDecl(ta *syntax.TableDecl) {
	t := &runtime.Table{Name: ta.Name, Pos: syntax.PosOf(ta.Pos)}
	p := &runtime.Proc{Name: ta.Name, Verb: "table", Pos: t.Pos, Index: len(c.prog.Procs)}
	if !c.declare(ta.Name, ta.Pos, p) {
		return
	}
	t.Proc = p
	p.Table = t
	c.prog.Procs = append(c.prog.Procs, p)
	c.prog.Tables = append(c.prog.Tables, t)
	c.tableASTs = append(c.tableASTs, ta)
}

// tableSignature reads a table's roll and parameters, once every procedure's parameters are
// known (a default may call a rule), and returns the scope its rows are compiled in; nil when
// the table is in error and its rows are not compiled.
func (c *Compiler) tableSignature(t *runtime.Table, ta *syntax.TableDecl) (*Scope, []*syntax.Param) {
	p := t.Proc
	var decls []*syntax.Param
	var plus []lexer.Token // the roll's terms after its dice: + stat - 1
	rollText := ""
	if ta.Roll != nil {
		first := ta.Roll.Toks[0]
		rollText, _ = c.exprText(&ta.Roll.Expr)
		if first.Type != syntax.TokDice {
			c.errorf(first.Pos, "table "+t.Name+" rolls "+rollText+", which does not start with dice",
				"a rolled table's roll is dice, then terms added or taken away: table "+t.Name+" roll 2d6 + stat")
			return nil, decls
		}
		if rest := ta.Roll.Toks[1:]; len(rest) > 0 {
			if rest[0].Type != syntax.TokOp || rest[0].Value != "+" && rest[0].Value != "-" {
				c.errorf(rest[0].Pos, "table "+t.Name+" rolls "+rollText+": after the dice, a roll adds or takes away terms",
					"write + or - after "+first.Value+": table "+t.Name+" roll "+first.Value+" + stat")
				return nil, decls
			}
			plus = rest
		}
		de, err := dice.Parse(first.Value, c.prog.Dice())
		if err != nil {
			at := first.Pos
			msg := err.Error()
			if e, ok := err.(*dice.Error); ok {
				msg = e.Msg
				at.Column += max(e.Col-1, 0) // Col counts runes of an ASCII-led literal
				at.Offset += max(e.Col-1, 0)
			}
			c.errorf(at, "table "+t.Name+": dice "+first.Value+": "+msg, exprx.DieHint(msg, c.prog.Dice()))
			return nil, decls
		}
		if de.IsRecord() {
			c.errorf(first.Pos, "table "+t.Name+" rolls "+first.Value+", record dice: a roll of them is a record, no key of a row",
				"roll the dice in a rule and give the table a field: table "+t.Name+"(n) { … }, called "+t.Name+"(r.s)")
			return nil, decls
		}
		t.Roll = de
	}
	sc := NewScope(ProcScope)
	sc.proc = p // a table is pure, its defaults too
	for _, a := range ta.Params {
		if !c.CheckName(a.Name, a.Pos) {
			continue
		}
		c.CheckShadow(a.Name, a.Pos)
		par := &runtime.Param{Name: a.Name, Pos: syntax.PosOf(a.Pos), Type: c.resolveType(a.Type)}
		if a.Default != nil {
			par.Default = pendingDefault // compiled by tableDefaults, after the rules' defaults
		} else {
			p.MinArg = len(p.Params) + 1
		}
		sc.Vars[a.Name] = par.Type
		p.Params = append(p.Params, par)
		decls = append(decls, a)
	}
	// addKey gives a rolled table the key parameter it does not declare: valeur.
	addKey := func() {
		p.Params = append(p.Params, &runtime.Param{Name: "valeur", Pos: t.Pos, Type: runtime.AnyType})
		sc.Vars["valeur"] = runtime.AnyType
	}
	if t.Roll != nil && plus != nil {
		c.rollPlus(t, ta, plus, sc)
		if t.Plus == nil {
			return nil, decls
		}
		// The parameters are the inputs of what the roll adds; the key comes after them.
		addKey()
	}
	t.Key = t.KeyIndex(ta)
	if t.Roll != nil {
		// The key parameter of a rolled table defaults to a roll of its dice.
		if len(p.Params) == 0 {
			addKey()
		}
		key := p.Params[t.Key]
		if key.Type != nil && key.Type.Kind != runtime.TAny && !runtime.Assignable(key.Type, runtime.IntType) {
			// The roll gives a number: a key of another type would refuse every roll.
			c.errorfSpan(ta.Pos, "table", fmt.Sprintf("table %s rolls %s for its key %s, which is %s", t.Name, rollText, key.Name, key.Type), "a rolled table's key is the number rolled: declare it int (or leave its type out)")
		}
		key.Default = &runtime.Expr{Pos: t.Pos, Text: rollText, RollOf: t.Roll, Type: runtime.RollType}
		if t.Plus != nil {
			key.Default.RollPlus, key.Default.Type = t.Plus, runtime.IntType
		}
		p.MinArg = min(p.MinArg, t.KeyIndex(ta))
	}
	if len(p.Params) == 0 {
		c.errorf(ta.Pos, "table "+t.Name+" has no key", "give it a parameter, table "+t.Name+"(valeur), or roll its key: table "+t.Name+" roll 3d6")
		return nil, decls
	}
	return sc, decls
}

// tableDefaults compiles a table's parameter defaults, once every rule's defaults are (a
// default may call a rule whose untyped parameter takes its own default's type); a default
// sees the parameters before it. decls are tableSignature's, one a parameter it kept.
func (c *Compiler) tableDefaults(t *runtime.Table, decls []*syntax.Param) {
	p := t.Proc
	sc := NewScope(ProcScope)
	sc.proc = p // a table is pure, its defaults too
	for i, par := range p.Params {
		if i < len(decls) && par.Default == pendingDefault {
			// `= nil` makes a record parameter nullable, as a rule's (nilDefault).
			par.Nullable = c.nilDefault(decls[i], par.Type)
			par.Default = c.compileExpr(decls[i].Default, sc, par.Type)
			if par.Default == nil {
				// In error (reported): a call without it is refused.
				p.MinArg = max(p.MinArg, i+1)
			}
		}
		sc.Vars[par.Name] = par.Type
	}
}

// tableRows compiles a table's rows once every signature is known (a row may call a table).
func (c *Compiler) tableRows(t *runtime.Table, ta *syntax.TableDecl, sc *Scope) {
	p := t.Proc
	c.keyEnum = nil
	if k := t.Key; k < len(p.Params) && p.Params[k].Type.Kind == runtime.TEnum {
		c.keyEnum = p.Params[k].Type.Enum
	}
	for _, r := range ta.Rows {
		switch {
		case r.Columns != nil:
			c.tableColumns(t, r.Columns, sc)
		case r.Key != nil:
			c.tableRow(t, r, sc)
		}
	}
	if (t.Ratio || t.Cols != nil) && t.Plus != nil {
		c.errorf(ta.Pos, "table "+t.Name+" has columns and adds to its roll", "a table with columns rolls its row key without modifiers")
	}
	if (t.Ratio || t.Cols != nil) && len(p.Params) < 2 {
		c.errorf(ta.Pos, "table "+t.Name+" has columns, so it needs two keys", "table "+t.Name+"(colonne, ligne)")
	}
	p.Body = []runtime.Stmt{&runtime.TableStmt{StmtBase: runtime.StmtBase{At: t.Pos}, Table: t}}
	c.checkTable(t)
	c.checkEnumTable(t, t.Key)
	t.Index = runtime.NewRowIndex(t.Rows)
}

// rollPlus compiles what a table's roll adds to its dice (the tokens from the sign on): any
// arithmetic of numbers, options, consts and the table's parameters, or dice and calls,
// whose odds are then the analysis engine's.
func (c *Compiler) rollPlus(t *runtime.Table, ta *syntax.TableDecl, toks []lexer.Token, sc *Scope) {
	src := c.source(toks[0].Pos.Filename)
	text := string(src[toks[0].Pos.Offset:ta.Roll.EndPos.Offset])
	// Compiled as 0 + stat - 1, the 0 two columns before the sign (always on the roll's line,
	// after `roll` and its dice), so positions in the text are the file's.
	start := toks[0].Pos
	start.Column, start.Offset = start.Column-2, start.Offset-2
	x := c.CompileText("0 "+text, start, sc, runtime.IntType)
	if x == nil {
		return
	}
	t.Plus = x
	t.PlusExact = true
	syntax.Scan(text, func(tok lexer.Token) bool {
		switch tok.Type {
		case syntax.TokNumber, syntax.TokOp:
		case syntax.TokPunct:
			t.PlusExact = tok.Value == "(" || tok.Value == ")"
		case syntax.TokIdent:
			_, param := sc.Vars[tok.Value]
			switch c.prog.Globals[tok.Value].(type) {
			case *runtime.Option, *runtime.Const:
			default:
				t.PlusExact = param
			}
		default:
			t.PlusExact = false
		}
		return t.PlusExact
	})
}

func (c *Compiler) tableColumns(t *runtime.Table, ca *syntax.Columns, sc *Scope) {
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

func (c *Compiler) tableRow(t *runtime.Table, r *syntax.Row, sc *Scope) {
	row := &runtime.TableRow{Pos: syntax.PosOf(r.Pos)}
	toks := r.Key.Toks
	if r.Value == nil {
		c.errorf(r.Pos, "this row has no value", "write key : value")
		return
	}
	row.Value = c.valueExpr(r.Value, sc, nil, nil) // a lone string with {…} is a template, as after return
	if len(toks) == 1 && toks[0].Type == syntax.TokIdent {
		switch toks[0].Value {
		case "else":
			row.Else = true
			t.Rows = append(t.Rows, row)
			return
		case "below", "above":
			at := &t.Below
			if toks[0].Value == "above" {
				at = &t.Above
			}
			switch {
			case !t.Ratio:
				c.errorf(r.Pos, toks[0].Value+" is for ratio columns", "declare them first: columns ratio 1:2, 1:1, 2:1")
			case *at != nil:
				c.errorf(r.Pos, "table "+t.Name+" has two "+toks[0].Value+" rows", "")
			}
			*at = row.Value
			return
		}
	}
	if len(toks) == 1 && toks[0].Value == "*" {
		row.Band = &runtime.BandKey{}
		t.Rows = append(t.Rows, row)
		return
	}
	src := c.source(r.Key.Pos.Filename)
	text := func(ts []lexer.Token) (*runtime.Expr, bool) {
		if len(ts) == 0 {
			return nil, true
		}
		first, last := ts[0], ts[len(ts)-1]
		s := string(src[first.Pos.Offset : last.Pos.Offset+len(last.Value)])
		// A bare name that means nothing here is a symbol: a face of a symbolic die. A
		// value of the key's enum is that value, even when a global has its name.
		if len(ts) == 1 && first.Type == syntax.TokIdent && c.keyEnum != nil && c.keyEnum.Has(s) {
			return &runtime.Expr{Pos: syntax.PosOf(first.Pos), Text: s, IsLit: true, Lit: s, Type: c.keyEnum.Type(), Start: first.Pos}, true
		}
		if len(ts) == 1 && first.Type == syntax.TokIdent {
			if _, local := sc.lookup(s); !local {
				if _, global := c.prog.Globals[s]; !global {
					return &runtime.Expr{Pos: syntax.PosOf(first.Pos), Text: s, IsLit: true, Lit: s, Type: runtime.StringType, Start: first.Pos}, true
				}
			}
		}
		x := c.CompileText(s, first.Pos, sc, nil)
		return x, x != nil
	}
	// A band: lo .. hi, with optional ( [ ) ] for open or closed ends.
	if at := topLevel(toks, ".."); at >= 0 {
		b := &runtime.BandKey{}
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
		b := &runtime.BandKey{}
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
func (c *Compiler) checkTable(t *runtime.Table) {
	type seen struct {
		band tables.Band
		row  *runtime.TableRow
	}
	var bands []seen
	// One-sided bands (< 3, <= 8…) are ladders where the first row wins: only two bounded
	// bands can overlap by mistake.
	var bounded []seen
	exact := map[string]*runtime.TableRow{}
	ncols := len(t.Cols) + len(t.Ratios)
	// The rolled key's range, when its distribution could be worked out: otherwise (too
	// large for exact odds, or symbols) nothing is said about reachability.
	var lo, hi int
	known := false
	if t.Roll != nil {
		if d, err := t.Roll.Distribution(); err == nil && d.Syms == nil {
			lo, hi, known = d.Min, d.Max(), true
		}
		// A number added shifts the range; anything else leaves it unknown.
		if t.Plus != nil {
			plus, ok := constPlus(t.Plus)
			lo, hi, known = lo+plus, hi+plus, known && ok
		}
	}
	reach := func(b tables.Band) bool { return bandMeetsRange(b, lo, hi) }
	for _, r := range t.Rows {
		if ncols > 0 && r.Value != nil && r.Value.Code != nil {
			if n, ok := listLen(r.Value); ok && n != ncols {
				c.Diags = append(c.Diags, &syntax.Diagnostic{Pos: r.Value.Pos, Summary: fmt.Sprintf("this row has %d values for %d columns", n, ncols)})
			}
		}
		for _, x := range r.Exact {
			if !x.IsLit {
				continue
			}
			key := runtime.Repr(x.Lit)
			if f, ok := runtime.Number(x.Lit); ok {
				key = strconv.FormatFloat(f, 'g', -1, 64)
			}
			if prev := exact[key]; prev != nil {
				c.Diags = append(c.Diags, &syntax.Diagnostic{Pos: x.Pos, Summary: "key " + runtime.Str(x.Lit) + " is already in row " + prev.Pos.String()})
			}
			exact[key] = r
			if f, ok := runtime.Number(x.Lit); ok && known && (f < float64(lo) || f > float64(hi)) {
				c.Diags = append(c.Diags, &syntax.Diagnostic{Severity: Warning, Pos: x.Pos, Summary: fmt.Sprintf("%s can never roll %s (it gives %d to %d)", t.Roll.Src, runtime.Str(x.Lit), lo, hi)})
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
			c.Diags = append(c.Diags, &syntax.Diagnostic{Severity: Warning, Pos: r.Pos, Summary: fmt.Sprintf("%s can never reach band %s (it gives %d to %d)", t.Roll.Src, b, lo, hi)})
		}
		bands = append(bands, seen{b, r})
	}
	list := make([]tables.Band, len(bounded))
	for i, s := range bounded {
		list[i] = s.band
	}
	overlapped := map[*runtime.TableRow]bool{}
	for _, p := range tables.Overlaps(list, func(i, j int) bool { return sharedBoundary(list[i], list[j]) }) {
		first, later := bounded[p[0]], bounded[p[1]]
		overlapped[later.row] = true
		c.Diags = append(c.Diags, &syntax.Diagnostic{Pos: later.row.Pos, Summary: fmt.Sprintf("band %s overlaps %s (row %s)", later.band, first.band, first.row.Pos)})
	}
	// The key is a whole number when the table rolls it or declares it int: a band sharing
	// a whole end with an earlier one then holds that value in name only.
	wholeKey := t.Roll != nil
	if t.Proc != nil && t.Key < len(t.Proc.Params) && t.Proc.Params[t.Key].Type != nil {
		wholeKey = wholeKey || t.Proc.Params[t.Key].Type.Kind == runtime.TInt
	}
	fractional := false // some band has a fractional bound: the keys are not whole numbers
	all := make([]tables.Band, len(bands))
	for i, s := range bands {
		all[i] = s.band
	}
	for i, s := range bands {
		fractional = fractional || s.band.Lo != nil && !isWhole(*s.band.Lo) || s.band.Hi != nil && !isWhole(*s.band.Hi)
		// The lints of a row against every row above it are for tables written by hand: a
		// generated table of thousands of bands gets the overlap and gap checks alone, which
		// are not quadratic.
		if overlapped[s.row] || len(bands) > maxLintedBands {
			continue
		}
		if covered(s.band, all[:i]) {
			c.Diags = append(c.Diags, &syntax.Diagnostic{Severity: Warning, Pos: s.row.Pos,
				Summary: fmt.Sprintf("no key reaches band %s: the rows above it hold all of it", s.band),
				Detail:  "the first row that matches wins; put the narrower band first"})
			continue
		}
		// 1 .. 6 then 6 .. 12: 6 goes to the first row (first wins), so the second starts at
		// 7 in fact; with whole keys that is a slip more often than a choice.
		b := s.band
		if b.Lo == nil || b.LoOpen || !isWhole(*b.Lo) {
			continue
		}
		for _, e := range bands[:i] {
			a := e.band
			if a.Hi != nil && !a.HiOpen && *a.Hi == *b.Lo && (a.Lo == nil || *a.Lo < *b.Lo) && (wholeKey || wholeBand(a) && wholeBand(b)) {
				c.Diags = append(c.Diags, &syntax.Diagnostic{Severity: Warning, Pos: s.row.Pos,
					Summary: fmt.Sprintf("band %s starts where %s (row %s) ends: %s goes to the first row", b, a, e.row.Pos, fmtNum(*b.Lo)),
					Detail:  fmt.Sprintf("start the band at %s, or write (%s .. if the first row is meant to keep %s", fmtNum(*b.Lo+1), fmtNum(*b.Lo), fmtNum(*b.Lo))})
				break
			}
		}
	}
	// Gaps between consecutive whole-number bands (1..3 then 5..6 leaves 4 out).
	withElse := hasElse(t)
	for i := 1; i < len(bands); i++ {
		a, b := bands[i-1].band, bands[i].band
		if a.Hi == nil || b.Lo == nil || withElse {
			continue
		}
		if isWhole(*a.Hi) && isWhole(*b.Lo) {
			// The whole numbers strictly between the two bands, an open end's bound included.
			first, last := *a.Hi+1, *b.Lo-1
			if a.HiOpen {
				first = *a.Hi
			}
			if b.LoOpen {
				last = *b.Lo
			}
			if known {
				first, last = math.Max(first, float64(lo)), math.Min(last, float64(hi))
			}
			if first <= last {
				if gaps := uncovered(first, last, t.Rows); gaps != "" {
					// A value the table's own dice can roll and no row holds fails at the
					// table's use: an error, where a gap in a looked-up key is a warning.
					sev := Warning
					if known {
						sev = syntax.Error
					}
					c.Diags = append(c.Diags, &syntax.Diagnostic{Severity: sev, Pos: bands[i].row.Pos,
						Summary: fmt.Sprintf("no row for %s between this band and the one before", gaps)})
					continue
				}
			}
		}
		// Between fractional bands (or whole ones in a table that has fractional bands, whose
		// keys are fractions) the gap is every number between them, not only whole ones.
		if !isWhole(*a.Hi) || !isWhole(*b.Lo) || fractional && !wholeKey {
			gap := tables.Band{Lo: a.Hi, LoOpen: !a.HiOpen, Hi: b.Lo, HiOpen: !b.LoOpen}
			empty := *gap.Lo > *gap.Hi || *gap.Lo == *gap.Hi && (gap.LoOpen || gap.HiOpen)
			if !empty && !covered(gap, rowBands(t.Rows)) && !(*gap.Lo == *gap.Hi && exactHolds(t.Rows, *gap.Lo)) {
				c.Diags = append(c.Diags, &syntax.Diagnostic{Severity: Warning, Pos: bands[i].row.Pos,
					Summary: fmt.Sprintf("no row between %s and %s", a, b)})
			}
		}
	}
}

// wholeBand reports whether a band's bounds are whole numbers.
func wholeBand(b tables.Band) bool {
	return (b.Lo == nil || isWhole(*b.Lo)) && (b.Hi == nil || isWhole(*b.Hi))
}

// rowBands are the constant bands of a table's rows.
func rowBands(rows []*runtime.TableRow) []tables.Band {
	var out []tables.Band
	for _, r := range rows {
		if r.Band == nil {
			continue
		}
		if b, ok := r.Band.Constant(); ok {
			out = append(out, b)
		}
	}
	return out
}

// exactHolds reports whether a row has the exact key v.
func exactHolds(rows []*runtime.TableRow, v float64) bool {
	for _, r := range rows {
		for _, x := range r.Exact {
			if f, ok := runtime.Number(x.Lit); x.IsLit && ok && f == v {
				return true
			}
		}
	}
	return false
}

// maxLintedBands is the most bands a table may have for its rows to be linted against every
// row above them (covered bands, shared ends).
const maxLintedBands = 2000

// covered reports whether the bands by hold every number of band x, as real numbers (a
// missing bound is infinite). It walks a frontier from x's low end: the point reached and
// whether that point itself still needs a band.
func covered(x tables.Band, by []tables.Band) bool {
	lo, hi := math.Inf(-1), math.Inf(1)
	loOpen, hiOpen := true, true
	if x.Lo != nil {
		lo, loOpen = *x.Lo, x.LoOpen
	}
	if x.Hi != nil {
		hi, hiOpen = *x.Hi, x.HiOpen
	}
	p, need := lo, !loOpen
	done := func() bool { return p > hi || p == hi && (!need || hiOpen) }
	for !done() {
		advanced := false
		for _, b := range by {
			blo, bhi := math.Inf(-1), math.Inf(1)
			bloOpen, bhiOpen := true, false
			if b.Lo != nil {
				blo, bloOpen = *b.Lo, b.LoOpen
			}
			if b.Hi != nil {
				bhi, bhiOpen = *b.Hi, b.HiOpen
			}
			if math.IsInf(bhi, 1) {
				bhiOpen = false // nothing lies beyond: the frontier is done
			}
			// b must hold the frontier (p itself when it is needed, else what follows it)…
			if blo > p || blo == p && bloOpen && need {
				continue
			}
			// …and carry it further.
			if bhi > p || bhi == p && need && !bhiOpen {
				p, need = bhi, bhiOpen
				advanced = true
			}
		}
		if !advanced {
			return false
		}
	}
	return true
}

// uncovered lists the whole numbers from first to last that no row of the table holds (an
// exact key or a constant band anywhere in it): "3", "4 to 5", "3, 5 to 7". Computed bounds
// are taken to hold nothing. The rows are walked as ranges, never value by value.
func uncovered(first, last float64, rows []*runtime.TableRow) string {
	type span struct{ lo, hi float64 }
	var held []span
	for _, r := range rows {
		for _, x := range r.Exact {
			if f, ok := runtime.Number(x.Lit); x.IsLit && ok && isWhole(f) {
				held = append(held, span{f, f})
			}
		}
		if r.Band == nil {
			continue
		}
		b, ok := r.Band.Constant()
		if !ok {
			continue
		}
		s := span{math.Inf(-1), math.Inf(1)}
		if b.Lo != nil {
			s.lo = math.Ceil(*b.Lo)
			if b.LoOpen && s.lo == *b.Lo {
				s.lo++
			}
		}
		if b.Hi != nil {
			s.hi = math.Floor(*b.Hi)
			if b.HiOpen && s.hi == *b.Hi {
				s.hi--
			}
		}
		if s.lo <= s.hi {
			held = append(held, s)
		}
	}
	slices.SortFunc(held, func(x, y span) int { return cmp.Compare(x.lo, y.lo) })
	var parts []string
	add := func(lo, hi float64) {
		switch {
		case len(parts) == 6:
			parts = append(parts, "…")
			return
		case len(parts) > 6:
			return
		case lo == hi:
			parts = append(parts, fmtNum(lo))
		default:
			parts = append(parts, fmtNum(lo)+" to "+fmtNum(hi))
		}
	}
	next := first // the first value not yet known to be held
	for _, s := range held {
		if s.hi < next {
			continue
		}
		if s.lo > last {
			break
		}
		if s.lo > next {
			add(next, s.lo-1)
		}
		next = s.hi + 1
		if next > last {
			break
		}
	}
	if next <= last {
		add(next, last)
	}
	return strings.Join(parts, ", ")
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

func hasElse(t *runtime.Table) bool {
	for _, r := range t.Rows {
		if r.Else {
			return true
		}
	}
	return false
}

func isWhole(f float64) bool { return f == math.Trunc(f) }

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func listLen(x *runtime.Expr) (int, bool) {
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

// constPlus is what a roll adds when it is a whole number written out (+ 1, - 2 + 1).
func constPlus(x *runtime.Expr) (int, bool) {
	sum, sign, ok := 0, 1, false
	for _, f := range strings.Fields(strings.NewReplacer("+", " + ", "-", " - ").Replace(x.Text)) {
		switch f {
		case "+":
		case "-":
			sign = -sign
		default:
			n, err := strconv.Atoi(f)
			if err != nil {
				return 0, false
			}
			sum, sign, ok = sum+sign*n, 1, true
		}
	}
	return sum, ok
}
