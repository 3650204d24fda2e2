package dice

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// A PCG is one cache line (see PCG), and rolls what math/rand/v2's PCG of the same seeds
// rolls, from NewPCG and again after Reseed.
func TestPCGOneCacheLine(t *testing.T) {
	if size := unsafe.Sizeof(PCG{}); size != 64 {
		t.Errorf("PCG is %d bytes, want 64: pad it again", size)
	}
	p := NewPCG(7)
	for round, seed := range []uint64{7, 12345} {
		if round > 0 {
			p.Reseed(seed)
		}
		ref := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		for i := range 50 {
			got, err := p.Roll(6)
			if want := 1 + ref.IntN(6); err != nil || got != want {
				t.Fatalf("seed %d, roll %d: %d (%v), want %d", seed, i, got, err, want)
			}
		}
	}
}
