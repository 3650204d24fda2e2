// Package cli owns the commands of rulesh other than dispatch: each parses its own flags
// (wherever they stand among its arguments), loads rule files, runs them and prints its
// output, with the exit codes of the CLI contract (0 success, 1 a rule or input error, 2 bad
// usage). check, eval, roll, prob, fmt and map are here whole; repl and test parse their
// flags here and hand over to the REPL and the transcripts.
//
// It sits on top of the command's packages: it imports repl, transcript, output and sysio,
// and none of them may import it. The table of commands and the usage text are in package
// main; this package must not import it.
package cli
