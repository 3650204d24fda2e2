// Package check turns parsed rule files into a runnable program: it resolves every name
// (scopes of consts, entities, procedures and their locals), checks types, validates tables
// (bands, overlaps, columns), decks and maps, evaluates options and consts, and compiles
// every expression once through package dsl/internal/exprx (which owns expr-lang: typed
// environment, dice and card literals, calls rewritten to the builtins of the program's
// library and to procedures), answering its questions about scopes (exprx.Scope) and
// reporting every problem at once as positioned diagnostics.
//
// It builds the compiled form defined by package runtime through its exported fields and
// hands it over read-only. It must not import package dsl (the facade), expr-lang (only
// exprx does) nor any library of builtins (they come in the program's Library), it never
// builds a Machine: options and consts are computed by a runtime.ConstEvaluator.
package check
