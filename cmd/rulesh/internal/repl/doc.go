// Package repl owns the REPL: a Shell holds one session's state (the loaded rules, a
// machine, session variables, the dice queue and hand-given cards) and interprets its inputs
// (expressions, `let`, statements and the meta commands of one table, which also feeds :help
// and completion). It reads them from a terminal with line editing, history and Ctrl-C, or
// plainly from a pipe; it records the session as a golden transcript (:record) and serves as
// the session transcripts are replayed in (Open).
//
// It imports rulesh/dsl for the language, and from the command only what sits below it:
// output, transcript (the format) and sysio. It must not import the command packages
// (rulesh/cmd/rulesh/internal/cli) or rulesh/dsl's internals.
package repl
