package sysio

import (
	"bufio"
	"io"
)

// Flusher is a writer that holds output back until Flush: the command's buffered stdout.
type Flusher interface {
	Flush() error
}

// Flush flushes w if it holds output back, and does nothing otherwise.
func Flush(w io.Writer) {
	if f, ok := w.(Flusher); ok {
		_ = f.Flush()
	}
}

// Buffer returns stdout buffered, so that a command printing a million lines makes a few
// hundred writes instead of a million, and stderr made to flush that buffer before each of
// its writes, so that a message comes after the output printed before it, as it would
// unbuffered. The caller flushes the buffer at exit; what waits for a person (the REPL)
// flushes it before waiting.
func Buffer(stdout, stderr io.Writer) (*bufio.Writer, io.Writer) {
	out := bufio.NewWriterSize(stdout, 64<<10)
	return out, flushFirst{out, stderr}
}

// flushFirst writes to w after flushing out.
type flushFirst struct {
	out *bufio.Writer
	w   io.Writer
}

func (f flushFirst) Write(p []byte) (int, error) {
	_ = f.out.Flush()
	return f.w.Write(p)
}

// Unbuffered returns a writer that writes through w at once: each write is flushed. The
// interactive REPL writes through it, so that a long call's lines show as they come.
func Unbuffered(w io.Writer) io.Writer {
	if _, ok := w.(Flusher); !ok {
		return w
	}
	return flushEach{w}
}

type flushEach struct{ w io.Writer }

func (f flushEach) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err == nil {
		Flush(f.w)
	}
	return n, err
}
