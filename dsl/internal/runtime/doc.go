// Package runtime runs a checked ruleset: the compiled form of a Program (procedures as
// statement trees, expressions compiled by the expression engine as Code, tables with their
// row index, kinds, decks and maps), the Machine that holds one run's state (globals,
// entities, piles, the undo journal that rolls a failed call back), call frames, the limits
// and the one work budget every builtin charges, values and their printed and JSON forms,
// and the carrying of a run's state across a reload.
//
// The compiled form is built by the checker, which fills its exported fields once; after
// loading, a Program is only read (its constant values are frozen), so Machines may share it.
// This package must not import the checker, the facade (package dsl), expr-lang nor a library
// of builtins. Of syntax it uses positions, diagnostics and did-you-mean suggestions, never
// the parser (Table.KeyIndex, which the checker calls, reads a table's declaration). Compiled
// expressions reach it as Code, run by the engine that compiled them (dsl/internal/exprx).
package runtime
