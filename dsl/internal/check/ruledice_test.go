package check

import (
	"fmt"
	"strings"
	"testing"
)

// dieHead declares what the cases of TestRuleDieRefusals use; each case starts on line 14.
const dieHead = `option save = 4
const bonus = 1
kind K { v: int }
entity e: K { v: 1 }
rule attack(n: int = 1): int {
  return d(6) + n
}
rule dit(): int {
  emit "touché"
  return 1
}
action blesse(): int { e.v -= 1
  return 1 }
`

// What the text alone tells keeps a rule from being a die, refused at the declaration with
// the reason: each case is the lines after dieHead and the errors it gets, exactly.
func TestRuleDieRefusals(t *testing.T) {
	fix := " (" + dieFix + ")"
	cases := []struct {
		name, src string
		want      []string
	}{
		{"a rule with constant arguments", `dice a = attack()
dice b = attack(bonus + save)
rule passe(): int {
  return attack(2) + 1d[a]
}
dice c = passe()`, nil},
		{"an unknown rule", `dice a = atack()`, []string{"14:10: dice a: unknown rule atack (did you mean attack?)"}},
		{"not a procedure", `dice a = bonus()`, []string{"14:10: dice a: bonus is not a rule (declared at t.rules:2:1) (a die is made from a call of a rule: dice NAME = RULE(ARGS))"}},
		{"a table", `table t(x) {
  1 : 2
  else : 3
}
dice a = t(1)`, []string{"18:10: dice a: t is not a rule (declared at t.rules:14:1) (a die is made from a call of a rule: dice NAME = RULE(ARGS))"}},
		{"an action writes the state", `dice a = blesse()`, []string{"14:10: dice a: blesse is an action, which may change the run's state (declared at t.rules:12:1) (" + dieFix + "; write `rule blesse(…)` if it changes nothing)"}},
		{"it draws cards", `deck jeu
rule tire(): int {
  return len(draw(jeu, 1))
}
dice a = tire()`, []string{"16:14: rule tire cannot call draw: it changes the run's state (a rule cannot change the run's state; write `action tire(…)` if tire should change the state)"}},
		{"too many arguments", `dice a = attack(1, 2)`, []string{"14:10: dice a: attack takes 0 to 1 arguments, got 2"}},
		{"an argument that rolls", `dice a = attack(d(6))`, []string{"14:17: dice a: argument 1 of attack is not a constant: no dice source (a die is made once, from arguments computed when the rules load: numbers, strings, consts, options)"}},
		{"a result that is not a number", `rule nom(): string {
  return "x"
}
dice a = nom()`, []string{"17:10: dice a: nom returns string, and a die's faces are whole numbers" + fix}},
		{"it emits", `dice a = dit()`, []string{"14:10: dice a: dit cannot be a die: dit emits a line (at t.rules:9:3)" + fix}},
		{"a rule it calls emits", `rule via(): int {
  return dit() + 1
}
dice a = via()`, []string{"17:10: dice a: via cannot be a die: dit emits a line (at t.rules:9:3)" + fix}},
		{"it asks a player to choose", `rule premier(p: string, l: list): int {
  return l[0]
}
rule pick2(): int {
  let x = choose("?", [1, 2], premier)
  return x
}
dice a = pick2()`, []string{"21:10: dice a: pick2 cannot be a die: pick2 asks a player to choose (at t.rules:18:11)" + fix}},
		{"its own die", `rule r(): int {
  return 1d[a] + 1
}
dice a = r()`, []string{"17:10: dice a: r cannot be a die: r rolls a, a die made from a rule that is not made yet (declared at t.rules:17:1; a die's rule may roll only the dice made from rules declared before it)" + fix}},
		{"a die declared after it, by name", `rule r(): int {
  return roll(b, 2).total
}
dice a = r()
dice b = attack()`, []string{"17:10: dice a: r cannot be a die: r rolls b, a die made from a rule that is not made yet (declared at t.rules:18:1; a die's rule may roll only the dice made from rules declared before it)" + fix}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := checkSource(t, "t.rules", []byte(dieHead+tc.src+"\n"))
			var got []string
			for _, d := range c.Diags {
				s := fmt.Sprintf("%d:%d: %s", d.Pos.Line, d.Pos.Col, d.Summary)
				if d.Detail != "" {
					s += " (" + d.Detail + ")"
				}
				got = append(got, s)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
