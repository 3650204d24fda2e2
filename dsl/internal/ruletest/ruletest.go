// Package ruletest holds what the language's tests share: a rule file that uses every
// statement (UnitRules), and the list of the repository's rule files (RuleFiles). Only tests
// import it; it imports nothing of the module, so that the tests of
// package dsl itself can use it too.
package ruletest

// UnitRules declares an option, consts, a kind, two entities and procedures that use
// every statement: the tests of loading, running and fuzzing share them.
const UnitRules = `
ruleset "t"
option malus = 3 "doc"
const BASE = 10
const DOUBLE = BASE * 2
kind Unit {
  nom: string
  force: int = 3
  pv: int = BASE
  portée: float = 1.5
  tags: []string
}
entity a: Unit { nom: "A", force: 5 }
entity b: Unit { nom: "B" }

rule plus(x: int, y: int = 1): int {
  return x + y
}
rule signe(x) {
  if x > 0 {
    return "positif"
  } else if x < 0 {
    return "négatif"
  } else {
    return "nul"
  }
}
rule somme(xs) {
  let s = 0
  for x in xs {
    s += x
  }
  return s
}
rule somme_map(m) {
  let out = ""
  for k, v in m {
    out += k + "=" + str(v) + ";"
  }
  return out
}
rule compte(n: int): int {
  let i = 0
  while i < n {
    i += 1
  }
  return i
}
action blesse(u: Unit, n: int) {
  u.pv -= n
  emit "{u.nom} perd {n} PV, reste {u.pv}"
  require u.pv > 0 else "{u.nom} tombe"
}
action deux(x: Unit, y: Unit) {
  blesse(x, 3)
  blesse(y, 30)
}
rule jet(): int {
  return d(10) + a.force - malus
}
rule fact(n: int): int {
  if n <= 1 {
    return 1
  }
  return n * fact(n - 1)
}
rule boucle() {
  while true {
    let x = 1
  }
}
rule récursion(n) {
  return récursion(n + 1)
}
rule nouvelle(): Unit {
  return Unit({nom: "C", force: 9})
}
`
