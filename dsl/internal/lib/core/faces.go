package core

import "rulesh/dsl/internal/runtime"

// AnyFace is any_face(r, f…): whether a die of the roll r that counts shows one of the
// faces: numbers (a whole fraction is its int), or names for symbolic dice.
func AnyFace(r any, want ...any) (bool, error) {
	faces, err := rollFaces(r)
	for i := range faces.n {
		f := faces.at(i)
		for _, w := range want {
			if f == w || f == toAnyInt(w) {
				return true, err
			}
		}
	}
	return false, err
}

// AllFaces is all_faces(r, f): whether every die of r that counts shows f; false for a
// roll of no dice.
func AllFaces(r, want any) (bool, error) {
	faces, err := rollFaces(r)
	for i := range faces.n {
		if f := faces.at(i); f != want && f != toAnyInt(want) {
			return false, err
		}
	}
	return faces.n > 0, err
}

// CountFaces is count_faces(r, f…): how many dice of r that count show one of the faces.
func CountFaces(r any, want ...any) (int, error) {
	faces, err := rollFaces(r)
	n := 0
	for i := range faces.n {
		f := faces.at(i)
		for _, w := range want {
			if f == w || f == toAnyInt(w) {
				n++
				break
			}
		}
	}
	return n, err
}

// faceList is what a rule compares a roll's faces with: numbers, or names for symbolic
// dice. It reads them from the roll, one at a time: a list made for each any_face (an
// allocation per roll tested) is what the Mortebrume strike spent on it.
type faceList struct {
	r *runtime.Roll
	n int
	// names: the faces are the dice's names, every die's.
	names bool
}

// at is the i-th face, as a value compared with what the rule wants.
func (l faceList) at(i int) any {
	if l.names {
		return l.r.Symbols[i]
	}
	return l.r.Faces[i]
}

// rollFaces returns the faces of a roll.
func rollFaces(v any) (faceList, error) {
	r, ok := v.(*runtime.Roll)
	if !ok {
		return faceList{}, runtime.Errorf("expected a roll, got %s", runtime.Repr(v))
	}
	if len(r.Symbols) == len(r.All) && len(r.Symbols) > 0 {
		return faceList{r: r, n: len(r.Symbols), names: true}, nil
	}
	return faceList{r: r, n: len(r.Faces)}, nil
}

// toAnyInt is a whole fraction as an int, so that any_face(r, 6.0) finds a 6.
func toAnyInt(v any) any {
	if f, ok := v.(float64); ok && f == float64(int(f)) {
		return int(f)
	}
	return v
}
