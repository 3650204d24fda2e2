package runtime

import (
	"fmt"
	"reflect"
	"sort"

	"rulesh/stdlib/cards"
	"rulesh/stdlib/dice"
	"rulesh/stdlib/hex"
)

// CarryOver copies the state of an old machine into a fresh one made from the edited rule
// files (see Session.CarryOver), with vars, the session variables, carried over too: it
// returns those that still fit, one line per thing reset and per name added or removed, and
// what it kept.
func CarryOver(old, m *Machine, vars map[string]any) (map[string]any, []string, Kept) {
	c := newCarrier(old, m)
	c.machine()
	carried := map[string]any{}
	for _, name := range SortedKeys(vars) {
		if _, clash := m.prog.Globals[name]; clash {
			c.notef("session variable %s dropped: the rule files now declare %s", name, name)
			continue
		}
		v, err := c.value(vars[name], 0)
		if err != nil {
			c.notef("session variable %s dropped: %v", name, err)
			continue
		}
		carried[name] = v
		c.kept.Vars++
	}
	// Last, once every pile reachable from entities and variables is known.
	c.allowances()
	c.kept.Piles = len(c.piles)
	// The carried records were written here, not through the machine: nothing read of
	// them before is kept (fieldcache.go).
	m.ForgetFields()
	return carried, append(c.notes, diffNames(old.prog, m.prog)...), c.kept
}

// Kept counts what a reload carried over.
type Kept struct {
	Entities, Piles, Allowances, Vars int
}

// maxCarryDepth bounds the nesting of a value carried over (a list of lists of lists…).
const maxCarryDepth = 1000

// carrier translates values of an old machine into values of a new one: entities become the
// new entities of the same name, piles the new piles (same cards), cards the cards of the new
// deck of the same name, records records of the new kind of the same name.
type carrier struct {
	old, m  *Machine
	notes   []string
	kept    Kept
	records map[uintptr]map[string]any // old record or map -> new one (also breaks cycles)
	piles   map[*cards.Pile]*cards.Pile
	cards   map[*cards.Card]*cards.Card // nil entry: the card's deck was edited or is gone
	why     map[*cards.Card]string
	reset   map[string]bool // decks edited or gone: their cards start afresh
}

func newCarrier(old, m *Machine) *carrier {
	c := &carrier{old: old, m: m, records: map[uintptr]map[string]any{}, piles: map[*cards.Pile]*cards.Pile{},
		cards: map[*cards.Card]*cards.Card{}, why: map[*cards.Card]string{}, reset: map[string]bool{}}
	for _, od := range old.prog.Decks {
		nd, _ := m.prog.Globals[od.Name].(*DeckDecl)
		var match []*cards.Card
		if nd != nil {
			match = matchCards(od.Deck, nd.Deck)
		}
		for i, card := range od.Deck.Cards {
			if match != nil {
				c.cards[card] = match[i]
				continue
			}
			c.cards[card] = nil
			if nd == nil {
				c.why[card] = "deck " + od.Name + " is gone"
			} else {
				c.why[card] = "deck " + od.Name + " was edited"
			}
		}
		if match == nil && nd != nil {
			c.reset[od.Name] = true
		}
	}
	return c
}

// matchCards pairs the cards of an old deck with those of its new version by name (rank and
// suit: an edited meaning or colour keeps the cards), or returns nil if the edit added or
// removed cards.
func matchCards(a, b *cards.Deck) []*cards.Card {
	if len(a.Cards) != len(b.Cards) {
		return nil
	}
	byName := map[string][]*cards.Card{}
	for _, c := range b.Cards {
		byName[c.String()] = append(byName[c.String()], c)
	}
	out := make([]*cards.Card, len(a.Cards))
	for i, c := range a.Cards {
		list := byName[c.String()]
		if len(list) == 0 {
			return nil
		}
		out[i], byName[c.String()] = list[0], list[1:]
	}
	return out
}

func (c *carrier) notef(format string, args ...any) {
	c.notes = append(c.notes, fmt.Sprintf(format, args...))
}

// machine carries options, declared decks and piles, entities and allowances.
func (c *carrier) machine() {
	old, m := c.old, c.m
	for _, o := range m.prog.Options {
		if oo := old.prog.Option(o.Name); oo != nil {
			if v := old.globals[o.Name]; v != oo.Default {
				if err := m.SetOption(o.Name, v); err != nil {
					c.notef("option %s reset to its default: %v", o.Name, err)
				}
			}
		}
	}
	// Declared decks and piles first: they keep their identity, and records refer to them.
	for _, name := range SortedKeys(m.globals) {
		np, isPile := m.globals[name].(*cards.Pile)
		op, wasPile := old.globals[name].(*cards.Pile)
		if !isPile || !wasPile {
			continue
		}
		c.piles[op] = np
	}
	for _, name := range SortedKeys(m.globals) {
		np, isPile := m.globals[name].(*cards.Pile)
		op, wasPile := old.globals[name].(*cards.Pile)
		if !isPile || !wasPile {
			continue
		}
		if c.reset[name] {
			c.notef("deck %s was edited: it starts afresh, full and shuffled, and every pile loses the cards it held", name)
			continue
		}
		if err := c.fillPile(op, np); err != nil {
			np.Cards = nil
			c.notef("pile %s emptied: %v", name, err)
		}
	}
	// Entities: map the old records to the new ones first, so references between entities
	// (and cycles) land on the new records.
	type pair struct {
		name     string
		old, rec map[string]any
	}
	var pairs []pair
	for _, e := range m.prog.Entities {
		oe, ok := old.prog.Globals[e.Name].(*Entity)
		if !ok || oe.Kind == nil || e.Kind == nil {
			continue
		}
		if oe.Kind.Name != e.Kind.Name {
			c.notef("entity %s is now %s: it starts afresh", e.Name, WithArticle(e.Kind.Name))
			continue
		}
		oldRec, _ := old.globals[e.Name].(map[string]any)
		rec, _ := m.globals[e.Name].(map[string]any)
		if oldRec == nil || rec == nil {
			continue
		}
		c.records[reflect.ValueOf(oldRec).Pointer()] = rec
		pairs = append(pairs, pair{e.Name, oldRec, rec})
	}
	for _, p := range pairs {
		c.fields(p.name, p.old, p.rec)
		c.kept.Entities++
	}
	for _, d := range m.prog.Decks {
		if _, had := old.prog.Globals[d.Name].(*DeckDecl); !had || c.reset[d.Name] {
			if pile, ok := m.globals[d.Name].(*cards.Pile); ok && m.Dice != nil {
				if err := m.Shuffle(pile); err != nil {
					c.notef("deck %s not shuffled: %v", d.Name, err)
				}
			}
		}
	}
	m.clearJournal()
	m.version++
}

// fields carries an entity's fields into its new record; a field that no longer fits keeps
// the new default, with a note.
func (c *carrier) fields(name string, oldRec, rec map[string]any) {
	k, _ := rec[KindKey].(*Kind)
	ok, _ := oldRec[KindKey].(*Kind)
	if k == nil || ok == nil {
		return
	}
	for _, f := range k.Fields {
		v, had := oldRec[f.Name]
		if !had || ok.ByName[f.Name] == nil {
			continue
		}
		nv, err := c.value(v, 0)
		if err == nil {
			nv, err = Conform(nv, f.Type)
		}
		if err != nil {
			c.notef("%s.%s reset to its default: %v", name, f.Name, err)
			continue
		}
		rec[f.Name] = nv
	}
}

// fillPile gives a new pile the cards of the old one, translated.
func (c *carrier) fillPile(op, np *cards.Pile) error {
	out := make([]*cards.Card, 0, len(op.Cards))
	for _, card := range op.Cards {
		nc, err := c.card(card)
		if err != nil {
			return err
		}
		out = append(out, nc)
	}
	np.Cards = out
	return nil
}

func (c *carrier) card(card *cards.Card) (*cards.Card, error) {
	nc, known := c.cards[card]
	if !known {
		return card, nil // a card of no declared deck (made by a builtin): a plain value
	}
	if nc == nil {
		return nil, Errorf("it held %s, and %s", card, c.why[card])
	}
	return nc, nil
}

// pile returns the new pile for an old one: a declared pile keeps its new identity, a pile
// made at run time (a hand) is rebuilt once, with its cards translated.
func (c *carrier) pile(op *cards.Pile) (*cards.Pile, error) {
	if np, ok := c.piles[op]; ok {
		return np, nil
	}
	np := &cards.Pile{Name: op.Name}
	c.piles[op] = np
	if err := c.fillPile(op, np); err != nil {
		delete(c.piles, op)
		return nil, Errorf("pile %s: %v", op.Name, err)
	}
	return np, nil
}

// value translates one value of the old state.
func (c *carrier) value(v any, depth int) (any, error) {
	if depth > maxCarryDepth {
		return nil, Errorf("its value is nested deeper than %d", maxCarryDepth)
	}
	switch x := v.(type) {
	case *cards.Pile:
		return c.pile(x)
	case *cards.Card:
		return c.card(x)
	case *dice.Die:
		for _, d := range c.old.prog.DiceDecl {
			if d.Die == x {
				if nd, ok := c.m.prog.Globals[d.Name].(*DieDecl); ok {
					return nd.Die, nil
				}
				return nil, Errorf("die %s is gone", d.Name)
			}
		}
		return x, nil
	case *hex.Map:
		for _, d := range c.old.prog.Maps {
			if d.Map == x {
				if nd, ok := c.m.prog.Globals[d.Name].(*MapDecl); ok {
					return nd.Map, nil
				}
				return nil, Errorf("map %s is gone", d.Name)
			}
		}
		return x, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			ne, err := c.value(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = ne
		}
		return out, nil
	case map[string]any:
		return c.record(x, depth)
	}
	return v, nil
}

// record translates a record (to the new kind of the same name) or a plain map.
func (c *carrier) record(x map[string]any, depth int) (any, error) {
	ptr := reflect.ValueOf(x).Pointer()
	if nr, ok := c.records[ptr]; ok {
		return nr, nil
	}
	if name := c.old.entityName(x); name != "" {
		return nil, Errorf("it referred to entity %s, which is gone or starts afresh", name)
	}
	ok, _ := x[KindKey].(*Kind)
	if ok == nil {
		out := make(map[string]any, len(x))
		c.records[ptr] = out
		for k, e := range x {
			ne, err := c.value(e, depth+1)
			if err != nil {
				delete(c.records, ptr)
				return nil, err
			}
			out[k] = ne
		}
		return out, nil
	}
	nk, _ := c.m.prog.Globals[ok.Name].(*Kind)
	if nk == nil {
		return nil, Errorf("kind %s is gone", ok.Name)
	}
	rec, err := c.m.NewRecord(nk, nil)
	if err != nil {
		return nil, Errorf("a new %s: %v", nk.Name, err)
	}
	c.records[ptr] = rec
	for _, f := range nk.Fields {
		v, had := x[f.Name]
		if !had || ok.ByName[f.Name] == nil {
			continue
		}
		nv, err := c.value(v, depth+1)
		if err == nil {
			nv, err = Conform(nv, f.Type)
		}
		if err != nil {
			delete(c.records, ptr)
			return nil, Errorf("%s.%s: %v", nk.Name, f.Name, err)
		}
		rec[f.Name] = nv
	}
	return rec, nil
}

// allowances carries the pass allowances between piles that were carried.
func (c *carrier) allowances() {
	if len(c.old.allowances) == 0 {
		return
	}
	lost := 0
	for k, n := range c.old.allowances {
		from, ok1 := c.piles[k.from]
		to, ok2 := c.piles[k.to]
		if !ok1 || !ok2 {
			lost++
			continue
		}
		if c.m.allowances == nil {
			c.m.allowances = map[passage]int{}
		}
		c.m.allowances[passage{from, to}] = n
		c.kept.Allowances++
	}
	if lost > 0 {
		c.notef("%d pass allowance(s) dropped: their piles are gone", lost)
	}
}

func (m *Machine) entityName(rec any) string {
	r, ok := rec.(map[string]any)
	if !ok {
		return ""
	}
	for _, e := range m.prog.Entities {
		if g, ok := m.globals[e.Name].(map[string]any); ok && reflect.ValueOf(g).Pointer() == reflect.ValueOf(r).Pointer() {
			return e.Name
		}
	}
	return ""
}

// diffNames lists the top-level names the edit added and removed.
func diffNames(a, b *Program) []string {
	var out []string
	for _, n := range SortedKeys(b.Globals) {
		if _, ok := a.Globals[n]; !ok {
			out = append(out, fmt.Sprintf("+ %s %s", KindOfGlobal(b.Globals[n]), n))
		}
	}
	for _, n := range SortedKeys(a.Globals) {
		if _, ok := b.Globals[n]; !ok {
			out = append(out, fmt.Sprintf("- %s %s", KindOfGlobal(a.Globals[n]), n))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// KindOfGlobal names what sort of declaration g is, as rules write it (option, action,
// deck…): for the notes of a reload and the checker's messages.
func KindOfGlobal(g Global) string {
	switch g := g.(type) {
	case *Option:
		return "option"
	case *Const:
		return "const"
	case *Kind:
		return "kind"
	case *Enum:
		return "enum"
	case *Entity:
		return "entity"
	case *Proc:
		return g.Verb
	case *DieDecl:
		return "dice"
	case *DeckDecl:
		return "deck"
	case *PileDecl:
		return "pile"
	case *MapDecl:
		return "map"
	}
	return "name"
}

// Options returns the current value of every option, in declaration order.
func (m *Machine) Options() []OptionValue {
	out := make([]OptionValue, 0, len(m.prog.Options))
	for _, o := range m.prog.Options {
		out = append(out, OptionValue{o.Name, o.Doc, o.Default, m.globals[o.Name]})
	}
	return out
}

// OptionValue is an option with its current value.
type OptionValue struct {
	// Name and Doc are the option's, as declared (Doc: its comment, or "").
	Name, Doc string
	// Default is the option's value as declared; Value the one in force.
	Default, Value any
}
