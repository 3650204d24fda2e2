package check_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// TestLocalHidingAGlobalItReads: a let or a loop variable may not take the name of an
// entity, a die, a deck or a pile that the same procedure reads. The frame holds the globals
// a procedure reads under their names, so such a local took the global's place: q below gave
// 320 on its first call and 2020 on the next (u.pv read the last call's local), and r read
// the previous iteration's local after its block had ended. A local that takes such a name
// in a procedure that never reads the global, and a parameter, are fine.
func TestLocalHidingAGlobalItReads(t *testing.T) {
	const decls = `kind Unit {
  pv: int = 3
}
entity u: Unit {}
dice dé = [1, 2]
deck jeu standard {
  jokers 0
}
pile tas
`
	const reads = " which this procedure also reads (rename the local)"
	tests := []struct{ name, src, want string }{
		{"let after a read", `rule q(): int {
  let a = u.pv
  let u = Unit({pv: 20})
  return a * 100 + u.pv
}`, "t.rules:12:3: u hides the entity declared at t.rules:4:1," + reads},
		{"let in a loop's block", `rule r(): int {
  let s = 0
  for i in 1..2 {
    s = s * 100 + u.pv
    let u = Unit({pv: 20})
  }
  return s
}`, "t.rules:14:5: u hides the entity declared at t.rules:4:1," + reads},
		{"read after the let's block", `rule r(k: int): int {
  if k > 0 {
    let u = Unit({pv: 20})
    return u.pv
  }
  return u.pv
}`, "t.rules:12:5: u hides the entity declared at t.rules:4:1," + reads},
		{"loop variable", `rule r(l: list): int {
  for u in l { }
  return u.pv
}`, "t.rules:11:3: u hides the entity declared at t.rules:4:1," + reads},
		{"a die, a deck and a pile", `action r(): int {
  let a = roll(dé, 1).total + len(jeu.cards) + len(tas.cards)
  if a > 0 {
    let dé = 1
    let jeu = 2
    let tas = 3
  }
  return a
}`, "t.rules:13:5: dé hides the dice declared at t.rules:5:1," + reads + "\n" +
			"t.rules:14:5: jeu hides the deck declared at t.rules:6:1," + reads + "\n" +
			"t.rules:15:5: tas hides the pile declared at t.rules:9:1," + reads},
		{"a local the procedure alone reads", `rule r(): int {
  let u = Unit({pv: 20})
  for dé in [1, 2] {
    let tas = dé + u.pv
  }
  return u.pv
}`, ""},
		{"a parameter", `rule a(u: Unit): int {
  return u.pv + 1
}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := dsl.LoadSource("t.rules", []byte(decls+tt.src))
			var got []string
			for _, d := range diags {
				got = append(got, d.Error())
			}
			if g := strings.Join(got, "\n"); g != tt.want {
				t.Errorf("got\n%s\nwant\n%s", g, tt.want)
			}
		})
	}
}

// TestInputLocalHidingAGlobalItReads: statements typed at the REPL run in a frame that holds
// the globals they read, as a procedure's: a loop whose body reads the entity u and then
// declares a local u read 20 in its second iteration, where u is the entity again.
func TestInputLocalHidingAGlobalItReads(t *testing.T) {
	prog, diags := dsl.LoadSource("t.rules", []byte("kind Unit {\n  pv: int = 3\n}\nentity u: Unit {}\n"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := dsl.NewSession(m)
	err = s.Exec("<input>", "for i in 1..2 {\n  emit u.pv\n  let u = Unit({pv: 20})\n}")
	want := "<input>:3:3: u hides the entity declared at t.rules:4:1, which this input also reads (rename the local)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	if err := s.Exec("<input>", "for i in 1..2 {\n  let u = Unit({pv: 20})\n  emit u.pv\n}"); err != nil {
		t.Errorf("a local the input alone reads: %v", err)
	}
}
