// Package output owns what the commands and the REPL print for people and for programs:
// diagnostics and run-time errors quoted with their source lines, dice notation errors with a
// caret, distributions as aligned tables with bar charts or as JSON documents, charts of
// distributions and sweeps as SVG and PNG pictures (Chart: one layout, two writers), and
// warnings about hand-given results left unused.
//
// Every function writes to the io.Writer it is given and keeps no state. It renders values
// that rulesh/dsl and rulesh/stdlib/dice hand it, and must not import the REPL, the
// transcripts or the command packages (rulesh/cmd/rulesh/internal/{repl,transcript,cli}):
// they all import it.
package output
