package runtime

import (
	"strconv"
	"strings"
)

// Players' choices. choose(prompt, options, policy) takes the next hand-given answer
// (GivenChoices), else asks a player (Ask, set by the REPL), else calls the ruleset's policy
// rule. Given answers taken are journaled like hand-given cards: a failed call gives back the
// answers it used.

// choicesID names the hand-given answers in the journal.
type choicesID struct{}

// ChoiceText is how an option shows in a menu and how a hand-given answer names it: a
// string bare, an entity by its name, anything else as the REPL prints it.
func (m *Machine) ChoiceText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return m.short(v)
}

// Choose returns one of options: by the next hand-given answer, else by asking (Ask), else
// by calling policy(prompt, options). policy is a rule (resolved by the checker at load).
func (m *Machine) Choose(prompt string, options []any, policy *Proc) (any, error) {
	if len(options) == 0 {
		return nil, Errorf("choose %q: no options to choose from", prompt)
	}
	texts := make([]string, len(options))
	for i, o := range options {
		texts[i] = m.ChoiceText(o)
	}
	if len(m.GivenChoices) > 0 {
		answer := m.GivenChoices[0]
		i, err := PickAnswer(answer, texts)
		if err != nil {
			m.discardChoice()
			return nil, Errorf("choose %q: hand-given answer %s: %v (it is discarded)", prompt, answer, err)
		}
		if !m.journaledOnce(choicesID{}) {
			given := m.GivenChoices
			m.choicesBefore = &given
			m.record(undo{restore: func() { m.GivenChoices = given }, id: choicesID{}})
		}
		m.GivenChoices = m.GivenChoices[1:]
		m.Tracef("choose %q: %s (given)", prompt, texts[i])
		return options[i], nil
	}
	if m.Ask != nil {
		i, err := m.Ask(prompt, texts)
		if err != nil {
			return nil, Errorf("choose %q: %v", prompt, err)
		}
		if i < 0 || i >= len(options) {
			return nil, Errorf("choose %q: no option %d (1 to %d)", prompt, i+1, len(options))
		}
		m.Tracef("choose %q: %s (given)", prompt, texts[i]) // as a hand-given answer: replay gives it so
		return options[i], nil
	}
	v, err := m.CallAt(policy, []any{prompt, options}, policy.Pos)
	if err != nil {
		return nil, err
	}
	for i, o := range options {
		if o == nil && v == nil || o != nil && v != nil && sameOption(o, v) {
			m.Tracef("choose %q: %s (policy %s)", prompt, texts[i], policy.Name)
			return options[i], nil
		}
	}
	return nil, Errorf("choose %q: the policy %s returned %s, which is not one of the options %s", prompt, policy.Name, Repr(v), Repr(options))
}

// sameOption reports whether a policy's answer is the option o: the same value as printed.
func sameOption(o, v any) bool { return Repr(o) == Repr(v) }

// PickAnswer reads a hand-given or typed answer: a whole number is the option's number in the menu
// (from 1), any other text an option's name.
func PickAnswer(answer string, texts []string) (int, error) {
	if n, err := strconv.Atoi(answer); err == nil {
		if n < 1 || n > len(texts) {
			return 0, Errorf("no option %d (1 to %d)", n, len(texts))
		}
		return n - 1, nil
	}
	for i, t := range texts {
		if t == answer {
			return i, nil
		}
	}
	return 0, Errorf("no option named so (%s)", strings.Join(texts, ", "))
}

// discardChoice drops the next hand-given answer, which fits no option, for good: the failed
// call gives back the answers it took before it, not this one (else every retry fails on it).
func (m *Machine) discardChoice() {
	if m.choicesBefore != nil && m.journaledOnce(choicesID{}) {
		b := *m.choicesBefore
		i := len(b) - len(m.GivenChoices)
		*m.choicesBefore = append(b[:i:i], b[i+1:]...)
	}
	m.GivenChoices = m.GivenChoices[1:]
}
