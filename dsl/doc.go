// Package dsl is the rule language as its users see it, and the only package of it they can
// import: the compiled forms live under dsl/internal, out of reach by Go's internal rule.
//
// The facade owns four things:
//
//   - Load (and LoadSource) reads rule files with their includes, checks them and compiles
//     every expression into a Program, or returns Diagnostics with positions; Check gives
//     the same Diagnostics for callers that only read them (its Program runs, but slowly).
//   - A Program never changes after Load, so any number of Machines, in any number of
//     goroutines, may run one. Its methods answer questions about the ruleset (names,
//     entities, options, tables' odds) with copies or descriptions (KindInfo, ProcInfo),
//     never with the compiled forms themselves.
//   - A Machine is one run: its own options, entities, piles and dice source. Call runs a
//     procedure; SetEmit (or SetEmitBytes, the lines as the machine's own bytes), SetTrace,
//     SetAsk and SetInterrupt connect the run to its caller;
//     SetGivenCards and SetGivenChoices give results by hand (dice come from its source).
//     What it returns is the run's state or a copy of the Program's values, and a Board is
//     a read-only view of a declared map.
//   - A Session evaluates what a user types on a Machine (expressions, statements, let
//     bindings), runs trials that undo their changes, and carries a run's state across a
//     reload (CarryOver).
//
// It also gathers the library of builtins (dice, cards, choices, hex maps) that programs
// are checked against, by naming each library explicitly, and offers the helpers editors
// need (Outline, Names, Keywords, Format). The work is done under dsl/internal: syntax
// (reading), check (checking and compiling), exprx (expr-lang), runtime (compiled forms and
// running) and lib/* (builtins). This package must not import anything under cmd.
package dsl
