package analysis

import (
	"slices"
	"testing"
	"unsafe"
)

// What a worker writes at every run is in objects of their own cache lines: each of a size
// whose size class starts its objects on a 64-byte boundary (a multiple of 64 that is a
// class of Go's allocator), so that two workers never write one line. A field added to one
// of them changes its size: pad it again to the next such size.
func TestRunStateLayout(t *testing.T) {
	lineClasses := []uintptr{64, 128, 192, 256, 320, 384, 448, 512, 576, 640, 704, 768, 896, 1024}
	for name, size := range map[string]uintptr{
		"worker":  unsafe.Sizeof(worker{}),
		"sideRun": unsafe.Sizeof(sideRun{}),
		"Tally":   unsafe.Sizeof(Tally{}),
	} {
		if !slices.Contains(lineClasses, size) {
			t.Errorf("%s is %d bytes: pad it to one of %v", name, size, lineClasses)
		}
	}
}
