package core

import "rulesh/dsl/internal/runtime"

// AnyFace is any_face(r, f…): whether a die of the roll r that counts shows one of the
// faces: numbers (a whole fraction is its int), or names for symbolic dice.
func AnyFace(r any, want ...any) (bool, error) {
	faces, err := rollFaces(r)
	for _, f := range faces {
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
	for _, f := range faces {
		if f != want && f != toAnyInt(want) {
			return false, err
		}
	}
	return len(faces) > 0, err
}

// CountFaces is count_faces(r, f…): how many dice of r that count show one of the faces.
func CountFaces(r any, want ...any) (int, error) {
	faces, err := rollFaces(r)
	n := 0
	for _, f := range faces {
		for _, w := range want {
			if f == w || f == toAnyInt(w) {
				n++
				break
			}
		}
	}
	return n, err
}

// rollFaces returns what a rule compares faces with: numbers, or names for symbolic dice.
func rollFaces(v any) ([]any, error) {
	r, ok := v.(*runtime.Roll)
	if !ok {
		return nil, runtime.Errorf("expected a roll, got %s", runtime.Repr(v))
	}
	out := make([]any, 0, len(r.Faces))
	if len(r.Symbols) == len(r.All) && len(r.Symbols) > 0 {
		for _, s := range r.Symbols {
			out = append(out, s)
		}
		return out, nil
	}
	for _, f := range r.Faces {
		out = append(out, f)
	}
	return out, nil
}

// toAnyInt is a whole fraction as an int, so that any_face(r, 6.0) finds a 6.
func toAnyInt(v any) any {
	if f, ok := v.(float64); ok && f == float64(int(f)) {
		return int(f)
	}
	return v
}
