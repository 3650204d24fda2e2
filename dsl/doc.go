// Package dsl is the facade of the rule language: Load reads and checks rule files into a
// Program (a read-only view, shareable between goroutines), NewMachine starts a run of it,
// and a Session evaluates what a user types (expressions, statements, let bindings) and
// carries a run's state across a reload. It also gathers the library of builtins (dice,
// cards, hex maps) that programs are checked against, by naming each library explicitly.
//
// The work is done by the packages under it: syntax (reading), check (checking and
// compiling), runtime (running) and lib/* (builtins). Users of the language, the CLI first,
// import this package only; it must not import anything under cmd.
package dsl
