package dice

import "testing"

// TestReseed: a source reseeded gives what a new source of that seed gives, through Roll and
// through a Roller holding it (whose fast paths read the PCG directly).
func TestReseed(t *testing.T) {
	e, err := Parse("3d6+1d10", nil)
	if err != nil {
		t.Fatal(err)
	}
	src := NewPCG(99)
	r := NewRoller(e, src)
	r.Total() // move the stream on before reseeding
	for _, seed := range []uint64{1, 2, 1 << 63} {
		src.Reseed(seed)
		fresh := NewRoller(e, NewPCG(seed))
		for range 20 {
			a, _ := r.Total()
			b, _ := fresh.Total()
			if a != b {
				t.Fatalf("seed %d: reseeded %d, new %d", seed, a, b)
			}
		}
		src.Reseed(seed)
		x, _ := src.Roll(100)
		y, _ := NewPCG(seed).Roll(100)
		if x != y || src.Seed() != seed {
			t.Errorf("seed %d: Roll %d, new %d; Seed() %d", seed, x, y, src.Seed())
		}
	}
}
