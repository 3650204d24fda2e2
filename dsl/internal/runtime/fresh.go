package runtime

import "rulesh/stdlib/cards"

// Redeal puts every declared deck back in its declared order and shuffles it from the
// machine's source, deck after deck in declaration order as NewMachine does, every change
// journaled: inside a Trial, with the source reseeded just before, it gives the decks a new
// machine made with that seed would start with, and the trial's undo puts them back.
func (m *Machine) Redeal() error {
	if m.Dice == nil {
		return nil
	}
	for _, d := range m.prog.Decks {
		pile, ok := m.globals[d.Name].(*cards.Pile)
		if !ok {
			continue
		}
		m.SetCards(pile, append([]*cards.Card(nil), d.Deck.Cards...))
		if err := m.Shuffle(pile); err != nil {
			return err
		}
	}
	return nil
}
