// Package analysis answers a GM's questions about whole rules: the odds of any expression or
// procedure call (enumerated exactly when the space of dice, draws and choices is small, else
// sampled with intervals) and Monte Carlo runs of a ruleset, with paired comparisons of
// variants. It drives rules only through the dsl facade and knows no ruleset; cmd/rulesh
// prints what it returns.
package analysis
