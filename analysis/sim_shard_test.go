package analysis

import (
	"strings"
	"testing"
)

// TestReadShardRefuses: a hand-edited or damaged shard file is refused with words, never
// makes the merge panic (a huge "of"), nor gives a summary of no runs.
func TestReadShardRefuses(t *testing.T) {
	const good = `{"shard":{"index":1,"of":1,"first":0,"last":2},"expr":"d6","runs":2,"seed":1,"files":[],"set":[],"paired":false,"outcomes":[{"text":"3","kind":"number","value":3}],"pairs":[{"a":"3","count":2}],"emitted":{"a":{"hit":1}}}`
	if _, err := ReadShard([]byte(good + "\n")); err != nil {
		t.Fatalf("good shard: %v", err)
	}
	for _, c := range []struct{ name, doc, want string }{
		{"huge of", strings.Replace(good, `"of":1,`, `"of":9223372036854775807,`, 1), "want I/N"},
		{"index 0", strings.Replace(good, `"index":1,`, `"index":0,`, 1), "want I/N"},
		{"no runs", strings.Replace(good, `"runs":2,`, `"runs":0,`, 1), "0 runs"},
		{"negative runs", strings.Replace(good, `"runs":2,`, `"runs":-5,`, 1), "-5 runs"},
		{"paired alone", strings.Replace(good, `"paired":false`, `"paired":true`, 1), `"paired" is true`},
		{"emitted too often", strings.Replace(good, `"hit":1`, `"hit":99`, 1), "counted 99 times"},
		{"trailing", good + " x", "more after the document"},
		{"empty", "", "the file is empty"},
		{"truncated", good[:40], "stops short"},
		{"array", "[]", "a JSON array"},
		{"garbage", "garbage", "not JSON at byte 1"},
	} {
		_, err := ReadShard([]byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "Go value") {
			t.Errorf("%s: %v: Go's words", c.name, err)
		}
	}
}
