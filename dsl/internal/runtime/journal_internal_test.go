package runtime

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"rulesh/stdlib/cards"
)

// set writes rec[key] = v as setEntry does, without its checks.
func set(m *Machine, rec map[string]any, key string, v any) {
	ptr := recordPtr(rec)
	if m.fieldJournaled(ptr, key) {
		rec[key] = v
		return
	}
	old, had := rec[key]
	m.setField(rec, ptr, key, v, old, had)
}

// Past journalScan entries the journal is indexed: a field written again adds no entry,
// and a write to a field already journaled allocates nothing (its key is not boxed).
func TestJournalIndexFields(t *testing.T) {
	m := &Machine{}
	rec := map[string]any{}
	const fields = 2 * journalScan
	for round := range 3 {
		for i := range fields {
			set(m, rec, fmt.Sprint("f", i), round)
		}
	}
	if len(m.journal) != fields || len(m.journaledFields) != fields {
		t.Fatalf("journal %d entries, index %d fields; want %d", len(m.journal), len(m.journaledFields), fields)
	}
	if n := testing.AllocsPerRun(100, func() { set(m, rec, "f1", 7) }); n != 0 {
		t.Errorf("a write to a journaled field allocates %v times", n)
	}
	m.rollback()
	if len(rec) != 0 || len(m.journal) != 0 || m.indexOn {
		t.Errorf("after the rollback: record %v, journal %d, index on %v", rec, len(m.journal), m.indexOn)
	}
}

// A field written again in the same top-level call is found in the journal (m.recent), but
// not in the next one, whose journal starts empty: each call journals the value it found,
// also when the generations of the journal wrap around.
func TestJournalRecentGenerations(t *testing.T) {
	m := &Machine{}
	rec := map[string]any{"hp": 10}
	set(m, rec, "hp", 1)
	set(m, rec, "hp", 2)
	if len(m.journal) != 1 {
		t.Fatalf("two writes of one field: %d undos, want 1", len(m.journal))
	}
	m.clearJournal() // the call succeeded: hp stays 2
	set(m, rec, "hp", 3)
	if len(m.journal) != 1 {
		t.Fatalf("a write in the next call: %d undos, want 1", len(m.journal))
	}
	m.rollback()
	if rec["hp"] != 2 {
		t.Errorf("rolled back to %v, want 2", rec["hp"])
	}

	m = &Machine{}
	rec = map[string]any{"hp": 10}
	set(m, rec, "hp", 1) // remembered in generation 0
	m.clearJournal()
	m.jgen = math.MaxUint32
	m.clearJournal() // wraps around
	set(m, rec, "hp", 2)
	m.rollback()
	if rec["hp"] != 1 {
		t.Errorf("after the generations wrapped: rolled back to %v, want 1", rec["hp"])
	}
}

// A field named by two strings of the same text (two statements writing it) has one undo;
// once found in the journal under the second name it is remembered under that one too
// (m.recent), and the rollback restores the value from before the first write.
func TestJournalFieldNamedTwice(t *testing.T) {
	m := &Machine{}
	rec := map[string]any{"hp": 10}
	for i := range 2 * journalScan {
		set(m, rec, fmt.Sprint("f", i), i) // a long journal: indexed
	}
	one, other := "hp", strings.Clone("hp")
	set(m, rec, one, 1)
	set(m, rec, other, 2)
	set(m, rec, one, 3)
	if len(m.journal) != 2*journalScan+1 {
		t.Fatalf("journal %d entries, want %d", len(m.journal), 2*journalScan+1)
	}
	ptr := recordPtr(rec)
	if e := m.recent[recentSlot(ptr, other)]; e.gen != m.jgen || e.key != "hp" || e.rec != uintptr(ptr) {
		t.Errorf("the field under its second name is not remembered: %+v", e)
	}
	m.rollback()
	if len(rec) != 1 || rec["hp"] != 10 {
		t.Errorf("after the rollback: %v, want map[hp:10]", rec)
	}
}

// A pile changed again in the same top-level call keeps its one undo (m.recentPiles), the
// next call journals the cards it found, and so after the generations wrap around.
func TestJournalRecentPiles(t *testing.T) {
	a, b, c := &cards.Card{RankName: "A"}, &cards.Card{RankName: "B"}, &cards.Card{RankName: "C"}
	m := &Machine{}
	p := &cards.Pile{Name: "p", Cards: []*cards.Card{a}}
	m.SetCards(p, []*cards.Card{b})
	m.SetCards(p, []*cards.Card{c})
	if len(m.journal) != 1 {
		t.Fatalf("two changes of one pile: %d undos, want 1", len(m.journal))
	}
	m.rollback()
	if len(p.Cards) != 1 || p.Cards[0] != a {
		t.Fatalf("rolled back to %v, want [A]", p.Cards)
	}
	m.SetCards(p, []*cards.Card{b})
	m.clearJournal() // the call succeeded: p holds B
	m.SetCards(p, []*cards.Card{c})
	if len(m.journal) != 1 {
		t.Fatalf("a change in the next call: %d undos, want 1", len(m.journal))
	}
	m.rollback()
	if p.Cards[0] != b {
		t.Errorf("rolled back to %v, want [B]", p.Cards)
	}

	m = &Machine{}
	p = &cards.Pile{Name: "p", Cards: []*cards.Card{a}}
	m.SetCards(p, []*cards.Card{b}) // remembered in generation 0
	m.clearJournal()
	m.jgen = math.MaxUint32
	m.clearJournal() // wraps around
	m.SetCards(p, []*cards.Card{c})
	m.rollback()
	if p.Cards[0] != b {
		t.Errorf("after the generations wrapped: rolled back to %v, want [B]", p.Cards)
	}
}

// TestJournalPileRoom: a card dealt onto a pile is written beside its cards (cards.Pile's
// room); a rollback puts the old slice back, and the cards dealt next neither show through
// it nor change a slice kept from the rolled-back call.
func TestJournalPileRoom(t *testing.T) {
	d := cards.NewDeck("jeu", cards.StandardSuits(), cards.StandardRanks(), 0)
	m := &Machine{}
	p := &cards.Pile{Name: "p"}
	for _, c := range d.Cards[:3] {
		m.SetCards(p, p.With(c, false))
	}
	m.clearJournal()
	before := p.Cards
	m.SetCards(p, p.With(d.Cards[3], false))
	m.SetCards(p, p.With(d.Cards[4], true))
	kept := p.Cards // a value the failed call made
	m.rollback()
	if fmt.Sprint(p.Cards) != fmt.Sprint(before) {
		t.Fatalf("rolled back to %v, want %v", p.Cards, before)
	}
	m.SetCards(p, p.With(d.Cards[5], false))
	m.SetCards(p, p.With(d.Cards[6], true))
	if got, want := fmt.Sprint(p.Cards), "[8♣ 2♣ 3♣ 4♣ 7♣]"; got != want {
		t.Errorf("after the rollback the pile holds %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(kept), "[6♣ 2♣ 3♣ 4♣ 5♣]"; got != want {
		t.Errorf("the rolled-back call's cards became %s, want %s", got, want)
	}
}
