package transcript

import "bytes"

// Capture keeps what is written to it up to Limit bytes: the output of one input, which must
// not be held whole in memory when a loop of emits prints gigabytes. Once a write would pass
// the limit, that write and every later one are dropped, so what is kept is the output's
// start, whole, and Over reports the cut. The zero Capture keeps nothing.
type Capture struct {
	// Limit is the most bytes kept.
	Limit int

	buf  bytes.Buffer
	over bool
}

// Write implements io.Writer, keeping at most the limit; it never fails.
func (c *Capture) Write(p []byte) (int, error) {
	if c.over || c.buf.Len()+len(p) > c.Limit {
		c.over = true
		return len(p), nil
	}
	return c.buf.Write(p)
}

// Reset empties the capture for the next input.
func (c *Capture) Reset() { c.buf.Reset(); c.over = false }

// String returns what was kept.
func (c *Capture) String() string { return c.buf.String() }

// Len returns how many bytes were kept.
func (c *Capture) Len() int { return c.buf.Len() }

// Over reports whether something written was dropped since the last Reset.
func (c *Capture) Over() bool { return c.over }
