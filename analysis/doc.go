// Package analysis answers a GM's questions about whole rules: the odds of any expression or
// procedure call (enumerated exactly when the space of dice, draws and choices is small, else
// sampled with intervals) and Monte Carlo runs of a ruleset, with paired comparisons of
// variants. It drives rules only through the dsl facade and knows no ruleset; cmd/rulesh
// prints what it returns.
//
// # Exact odds
//
// The engine re-runs the expression from one start state along every path of the tree of
// its draws (enumerate.go: the deepest draw not at its last face moves on), each leaf
// weighted by the product of its draws' probabilities. Its cost is the number of leaves, so
// it grows with each die drawn.
//
// Reuse of rule calls (reuse.go). When that tree is over the budget, it is tried again with
// every call of a declared rule that the rule cache could keep (nothing changed yet, the
// arguments named exactly: see dsl.RuleCache) answered as ONE weighted draw among the
// values the call can return: the first call of each rule and arguments is enumerated on its
// own (its own such calls being weighted draws in turn) into its distribution, which every
// later call with the same arguments draws from. The tree then branches on what calls
// return, not on the dice they roll: a volley of n attacks of 182 die paths and 4 damage
// values costs 4^n leaves, not 182^n; and a recursive rule whose arguments carry its state
// (`reach(t + d(6))`) is enumerated once per argument, which merges the branches that reach
// the same total (dynamic programming). It is sound because such a call's result depends only
// on its arguments, the start state and its own draws; a call that fails, emits, changes
// anything or returns a list or record on some branch is not reused and runs die by die.
// Small trees keep the plain enumeration (their answers, branch counts included, stay as
// they were), and samples never reuse calls (their draws stay the same for a seed).
//
// Merging of equal states (merge.go). A call enumerated on its own does not run each
// branch to its end: the runtime calls a hook at the start of every turn of a loop of the
// call's own frame (dsl.RuleCache.Turn), where the run's state is what the frame holds, no
// expression being half evaluated: its variables, and the loops it stands in with their
// turns and collections. The enumeration goes generation by generation: each state is
// replayed by the draws of one branch that reached it, and every continuation of it runs to
// the next turn, where the run is stopped and its state keyed (the variables by value, the
// ruleset's entities by identity, the loops by identity and turn); states with equal keys
// are one, their probabilities summed. Breadth-first by replay is used because the runtime
// cannot snapshot a paused run (a Go stack): the cost is the distinct states times the
// faces times the length of the replays, e.g. 30 d6 summed in a loop is 13,400 runs of up
// to 30 turns instead of 6^30 branches. It is sound because a rule's result depends only on
// its arguments, the start state and its draws, and at a turn's start everything its rest
// reads is in the key; a call whose run journals a change (a rule changing a record it
// built), emits or fails is not reused, and a value the key cannot name (a roll, a deck)
// stops merging at that turn. Only rule calls are merged: loops of an action, or of the
// question's expression itself, are not. A merged enumeration keeps at most
// MaxMergeStates states: a loop whose states do not merge is given up early.
//
// Convolution of folds (convolve.go). A question that is a sum of one share per element of
// a list (dsl.Fold: `sum(map(1..10, attack()))`, `count(map(1..10, d(6)), # >= 5)`) is, when
// its shares are independent, distributed as the convolution of its shares: each share (the
// question over one element alone) is answered exactly by a runner of its own and the
// distributions are convolved in big integers over a common denominator. It is sound when the
// list is fixed (it draws and changes nothing), no run of a share changes the state (the
// next element would read it), every share is a whole number (sums of fractions depend on
// their order) and the whole expression stays within the machine's limits; otherwise the
// question is answered as before. docs/PERFORMANCE.md gives the costs.
//
// Dice made from rules (ruledice.go). `dice attaque = attack()` is a die whose faces are the
// call's outcomes weighted by their exact odds. The language cannot import this package, so
// the package installs its Prob as the loader's (dsl.SetDieOdds, at init): the loader asks it
// for the call's exact distribution on a fresh state, with the options in force, and makes
// the die. A die is exact or refused, never sampled.
package analysis
