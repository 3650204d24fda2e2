// Package runtime runs a checked ruleset: the compiled form of a Program (procedures as
// statement trees, expressions compiled by the expression engine as Code, tables with their
// row index, kinds, decks and maps), the Machine that holds one run's state (globals,
// entities, piles, the undo journal that rolls a failed call back), call frames, the limits
// and the one work budget every builtin charges, values and their printed and JSON forms,
// and the carrying of a run's state across a reload.
//
// The compiled form is built by the checker, which fills its exported fields once; after
// loading, a Program is only read (its constant values are frozen), so Machines may share it.
//
// Frozen values. Program.Freeze marks every map, record and non-empty list reachable from the
// consts, the options' defaults and the enums in a side table keyed by the value's identity,
// and Machine.CheckMutable, which the one change in place of a value (an assignment to a
// field or a map entry) calls first, refuses them; a record built from a const copies what it
// takes (Thaw). Starlark-go keeps a frozen flag on each value instead; here that cannot be:
// lists and maps are plain []any and map[string]any shared with expr-lang, and a record is a
// map[string]any whose kind is a hidden entry shared by the kind's records, so no value has
// room for a flag. Runtime types of their own, a named []any or map[string]any (or a wrapper
// with Len and Index) for frozen values, were tried against expr-lang: a wrapper is refused
// by len, indexing, in, filter and map when the expression is checked; a named slice type is
// indexed and walked, but sort gives nil for it, + with a list is refused, == with an equal
// []any is false, and slicing or take gives the named type back; and the runtime's own code
// tells lists and maps apart by those two Go types (Repr, JSON, equality, the budget's sizes,
// Conform, records' kinds), so outputs would change. Lists cannot be changed in place by a
// rule at all (no element assignment; += and + build a new list), so for them the table
// guards what a library might do. docs/PERFORMANCE.md says what the table costs.
// This package must not import the checker, the facade (package dsl), expr-lang nor a library
// of builtins. Of syntax it uses positions, diagnostics and did-you-mean suggestions, never
// the parser (Table.KeyIndex, which the checker calls, reads a table's declaration). Compiled
// expressions reach it as Code, run by the engine that compiled them (dsl/internal/exprx),
// and most also as Fast, closures that read the frame's slots (fast.go).
package runtime
