// Package sysio owns the command's edges with the operating system that several commands
// share: replacing a file atomically (fmt -w, test --update, map --svg, :record), reading a file
// named by a stranger only when it is a regular one of bounded size (sim --merge), telling a
// terminal from a pipe or a device, and the buffering of standard output (kept in order with
// standard error, flushed before the REPL waits for a person).
//
// It knows nothing of rules, the REPL or transcripts: it must not import rulesh/dsl, rulesh/stdlib
// or any other package of the command, so every one of them can import it.
package sysio
