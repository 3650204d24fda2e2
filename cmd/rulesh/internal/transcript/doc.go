// Package transcript owns golden transcripts: their format (directives, "> " inputs with
// "... " continuations, expected outputs with "\" escapes), parsing, replay, rewriting with
// actual outputs (--update) and the unified diff shown on a mismatch; and Capture, the bounded
// buffer that keeps one input's output.
//
// Replay runs inputs in a Session that the caller opens: this package knows the REPL only
// through that interface. It must not import the REPL or the command packages
// (rulesh/cmd/rulesh/internal/{repl,cli}): the REPL imports it to record transcripts.
package transcript
