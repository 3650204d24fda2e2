package exprx_test

import (
	"fmt"
	"testing"

	"rulesh/dsl/internal/exprx"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/cards"
	stddice "rulesh/stdlib/dice"
)

// TestPileCardsMatchVM: a pile's cards read through a name whose type the checker does not
// know (a record's field, p.cards), which the predicates and len take as their slice
// without boxing it, give what the VM gives, for a pile with cards, an empty one, and what
// is not a pile (a map with a key "cards", a record, nil, a number).
func TestPileCardsMatchVM(t *testing.T) {
	prog := load(t)
	m, err := runtime.NewMachine(prog, stddice.NewIntQueue([]int{1, 2, 3}, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	card := func(text string) *cards.Card {
		v, err := m.Eval(compiled(t, prog, text), map[string]any{"__rt": m})
		if err != nil {
			t.Fatal(err)
		}
		return v.(*cards.Card)
	}
	hand := &cards.Pile{Name: "main", Cards: []*cards.Card{card("Q♣"), card("2♥"), card("A♠")}}
	worlds := []any{
		hand,
		&cards.Pile{Name: "vide"},
		map[string]any{"cards": []any{1, 2}, "main": hand},
		map[string]any{"main": &cards.Pile{Name: "vide"}},
		map[string]any{},
		nil,
		3,
	}
	texts := []string{"len(p.cards)", "len(p.main.cards)", "filter(p.cards, #.black)", "map(p.cards, #.value)",
		"any(p.cards, #.value > 10)", "all(p.main.cards, #.value > 1)", "count(p.cards, #.red)", "sum(p.cards, #.value)",
		"sortBy(p.cards, #.value)", "find(p.cards, #.figure)", "findLastIndex(p.main.cards, #.black)",
		"reduce(p.cards, #acc + #.value, 0)", "map(p.cards, #index)", "filter(p.main.cards, # == #)",
		"len(p.cards) > 1", "count(p.cards)", "one(p.cards, #.red)", "none(p.cards, #.joker)",
		"len(q.cards)", "filter(q.cards, #.red)", "any(q.cards, #.value == 14)", "sortBy(q.cards, -#.value)",
		// A card's field read on # from a list of cards, of values, and of piles or nil.
		"map(filter(p.cards, #.red || #.black), #.value)", "sortBy(filter(q.cards, true), -#.value)",
		"map([p, 1], #.value)", "map([q, p], #.cards)", "map(map(q.cards, #), #.suit)",
		"any(map(p.cards, #), #.red)", "map([p.main, p], #.name)", "map([p], #?.name)",
		"concat(q.cards, [1])", "concat(p.cards, q.cards)", "len(concat(q.cards))", "concat(map(q.cards, #), q.cards)[1:]",
		"len(concat(p.cards, [p]))",
		// str of a card, of a string, of a pile, a map, nil and a number.
		"str(q.cards[0])", "map(q.cards, str(#))", "str(p)", "str('x')", "str(p.main)", "{(str(q.cards[0])): 1}"}
	types := map[string]*runtime.Type{"p": runtime.AnyType, "q": runtime.PileType}
	for _, text := range texts {
		x := expr(text)
		if _, diags, cerr := exprx.NewCompiler(prog).Compile(x, &scope{prog: prog, locals: types, inProc: true}); diags != nil || cerr != nil {
			t.Fatalf("%s: %v %v", text, diags, cerr)
		}
		if x.Fast == nil {
			t.Fatalf("%s is left to the VM", text)
		}
		vmOnly := *x
		vmOnly.Fast = nil
		for wi, p := range worlds {
			q := hand
			if wi%2 == 1 {
				q = &cards.Pile{Name: "vide"}
			}
			before := m.Steps()
			got, gotErr := evalWith(m, x, p, q)
			fastSteps := m.Steps() - before
			want, wantErr := evalWith(m, &vmOnly, p, q)
			if vmSteps := m.Steps() - before - fastSteps; fastSteps != vmSteps {
				t.Errorf("%s in world %d: closures charge %d steps, the VM %d", text, wi, fastSteps, vmSteps)
			}
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || runtime.Repr(got) != runtime.Repr(want) || fmt.Sprintf("%T", got) != fmt.Sprintf("%T", want) {
				t.Errorf("%s in world %d: closures %s (%T), %v; VM %s (%T), %v", text, wi,
					runtime.Repr(got), got, gotErr, runtime.Repr(want), want, wantErr)
			}
		}
	}
}

// compiled is text checked in a procedure with no locals.
func compiled(t *testing.T, prog *runtime.Program, text string) *runtime.Expr {
	t.Helper()
	x := expr(text)
	if _, diags, cerr := exprx.NewCompiler(prog).Compile(x, &scope{prog: prog, inProc: true}); diags != nil || cerr != nil {
		t.Fatalf("%s: %v %v", text, diags, cerr)
	}
	return x
}

// evalWith evaluates x with p holding v and q the pile h, a panic as an error.
func evalWith(m *runtime.Machine, x *runtime.Expr, v any, h *cards.Pile) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	return m.Eval(x, map[string]any{"__rt": m, "malus": 3, "base": 10, "p": v, "q": h})
}

// TestSortByTiesMatchVM: sortBy sorts on closures as the VM's sort.Sort does, equal keys
// left in the same order, on lists long enough for the quicksort's partitions and pattern
// breaking (not only its insertion sort), ascending and descending.
func TestSortByTiesMatchVM(t *testing.T) {
	prog := load(t)
	m, err := runtime.NewMachine(prog, stddice.NewIntQueue([]int{1, 2, 3}, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, n := range []string{"5", "13", "40", "200"} {
		for _, key := range []string{"#[1]", "-#[1]", "#[1] % 2", "0", "#[0] % 3 == 0 ? 2.5 : #[1]"} {
			for _, order := range []string{"", ", 'desc'"} {
				texts = append(texts, "sortBy(map(1.."+n+", [#, (# * 7919) % 11]), "+key+order+")")
			}
		}
	}
	for _, text := range texts {
		x := compiled(t, prog, text)
		if x.Fast == nil {
			t.Fatalf("%s is left to the VM", text)
		}
		vmOnly := *x
		vmOnly.Fast = nil
		got, gotErr := evalWith(m, x, nil, nil)
		want, wantErr := evalWith(m, &vmOnly, nil, nil)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || runtime.Repr(got) != runtime.Repr(want) {
			t.Errorf("%s: closures %s, %v; VM %s, %v", text, runtime.Repr(got), gotErr, runtime.Repr(want), wantErr)
		}
	}
}
