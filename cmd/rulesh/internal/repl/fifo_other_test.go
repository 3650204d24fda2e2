//go:build !unix

package repl

import "errors"

func mkfifo(string) error { return errors.New("not supported") }
