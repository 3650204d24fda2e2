package sysio

import (
	"bytes"
	"fmt"
	"testing"
)

// TestBufferKeepsOrder: output held in the buffer goes out before a message on stderr, so a
// terminal showing both shows them in the order they were said; and nothing goes out before.
func TestBufferKeepsOrder(t *testing.T) {
	var screen bytes.Buffer
	out, errw := Buffer(&screen, &screen)
	fmt.Fprintln(out, "1d6 [4] = 4")
	if screen.Len() != 0 {
		t.Fatalf("written at once: %q", screen.String())
	}
	fmt.Fprintln(errw, "rulesh roll: division by zero")
	fmt.Fprintln(out, "after")
	out.Flush()
	if want := "1d6 [4] = 4\nrulesh roll: division by zero\nafter\n"; screen.String() != want {
		t.Errorf("got %q, want %q", screen.String(), want)
	}
}

// TestUnbuffered: a write through Unbuffered is out at once, and a writer that does not buffer
// is returned as it is.
func TestUnbuffered(t *testing.T) {
	var screen bytes.Buffer
	out, _ := Buffer(&screen, &screen)
	fmt.Fprint(out, "held ")
	fmt.Fprint(Unbuffered(out), "> ")
	if screen.String() != "held > " {
		t.Errorf("got %q", screen.String())
	}
	if w := Unbuffered(&screen); w != &screen {
		t.Errorf("a plain writer was wrapped: %T", w)
	}
}
