package sysio

import (
	"os"

	"golang.org/x/term"
)

// IsTerminal reports whether f is a terminal: /dev/null is a character device too, but not
// a terminal, so `rulesh < /dev/null` reads plainly.
func IsTerminal(f *os.File) bool {
	return term.IsTerminal(int(f.Fd()))
}
