package analysis

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

// TestSHA256 holds sha256Sum to crypto/sha256: the published vectors, every length around
// the padding's boundaries (55, 56, 63, 64 bytes and their multiples), and random texts.
func TestSHA256(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
	} {
		if got := sha256Sum([]byte(c.in)); hex.EncodeToString(got[:]) != c.want {
			t.Errorf("sha256Sum(%q) = %x, want %s", c.in, got, c.want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 1100)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	for n := 0; n <= len(b); n++ {
		if got, want := sha256Sum(b[:n]), sha256.Sum256(b[:n]); got != want {
			t.Fatalf("%d bytes: %x, want %x", n, got, want)
		}
	}
	big := bytes.Repeat([]byte("règle ♣ "), 100_000)
	if got, want := sha256Sum(big), sha256.Sum256(big); got != want {
		t.Fatalf("%d bytes: %x, want %x", len(big), got, want)
	}
}

// FuzzSHA256: any input hashes as crypto/sha256 hashes it.
func FuzzSHA256(f *testing.F) {
	f.Add([]byte("ruleset x\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := sha256Sum(b), sha256.Sum256(b); got != want {
			t.Fatalf("%q: %x, want %x", b, got, want)
		}
	})
}
